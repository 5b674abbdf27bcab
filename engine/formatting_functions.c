/*
 * formatting_functions.c - the batch side of to_char, to_date and
 * to_number (formatting_functions.h): NULLs and guards, the source's
 * variant, the results' memory.
 */
#include "engine/formatting_functions.h"

#include <string.h>

#include "engine/datetime_format.h"
#include "engine/interval.h"
#include "engine/numeric.h"
#include "engine/numeric_format.h"
#include "engine/timezone.h"

static int run_row(int op, int aux, int zone_id, attu_type at, const attu_slot *a, const attu_slot *b,
                   const attu_slot *g, attu_slot *o, attu_regexp_alloc alloc, void *ctx, attu_fmt_cache *cache,
                   attu_error *err);

int attu_formatting_run(int op, int aux, int zone_id, attu_type at, const attu_slot *A, const attu_slot *B, const attu_slot *G,
                        attu_slot *D, size_t n, attu_regexp_alloc alloc, void *ctx, attu_error *err) {
    attu_fmt_cache cache = { 0 };   /* the template's parse, while the rows share it */
    int rc = 0;
    for (size_t r = 0; r < n && !rc; r++)
        rc = run_row(op, aux, zone_id, at, &A[r], &B[r], G ? &G[r] : NULL, &D[r], alloc, ctx, &cache, err);
    attu_fmt_cache_free(&cache);
    return rc;
}

/* One row: a the value, b the template, g the guard (or NULL), into *o */
static int run_row(int op, int aux, int zone_id, attu_type at, const attu_slot *a, const attu_slot *b,
                   const attu_slot *g, attu_slot *o, attu_regexp_alloc alloc, void *ctx, attu_fmt_cache *cache,
                   attu_error *err) {
    o->len = 0;
    o->v.i = 0;
    if ((g && (g->null || !g->v.i)) || a->null || b->null) { o->null = 1; return 0; }
    o->null = 0;
    const char *fmt = b->v.s;
    size_t flen = b->len;
    switch (op) {
    case ATTU_OP_TO_CHAR_TS: {
        char *m = alloc(ctx, attu_to_char_ts_bound(flen));
        if (!m) return attu_error_oom(err);
        long len;
        if (aux == 2) {   /* an interval: its own fields, not a moment's */
            attu_interval iv;
            memcpy(&iv, a->v.s, sizeof iv);
            len = attu_to_char_interval(iv.months, iv.days, iv.usec, fmt, flen, m, cache, err);
            if (len == -2) return -1;
            if (len < 0) { o->null = 1; return 0; }
            o->v.s = m;
            o->len = (uint32_t)len;
            break;
        }
        int64_t ts = a->v.i;
        if (at.id == ATTU_TYPE_DATE) {
            int32_t days = (int32_t)a->v.i;
            ts = days == INT32_MAX ? INT64_MAX : days == INT32_MIN ? INT64_MIN : (int64_t)days * 86400000000LL;
        }
        attu_char_zone cz = { 0, NULL };
        if ((at.id == ATTU_TYPE_DATE || at.id == ATTU_TYPE_TIMESTAMPTZ) && ts != INT64_MAX && ts != INT64_MIN) {
            /* a date is midnight of its day in the zone, as PostgreSQL
             * casts it to timestamptz; the wall time and the zone's offset
             * and abbreviation then are what to_char shows */
            const attu_tz *z = attu_tz_by_id(zone_id);
            int64_t utc = at.id == ATTU_TYPE_DATE ? attu_tz_from_local_us(z, ts) : ts;
            cz.offset = attu_tz_offset_at(z, utc / 1000000 - (utc % 1000000 < 0), &cz.abbrev);
            ts = utc + (int64_t)cz.offset * 1000000;
        }
        len = attu_to_char_ts(ts, at.id == ATTU_TYPE_TIMESTAMP ? NULL : &cz, fmt, flen, m, cache, err);
        if (len == -2) return -1;
        if (len < 0) { o->null = 1; return 0; }
        o->v.s = m;
        o->len = (uint32_t)len;
        break;
    }
    case ATTU_OP_TO_CHAR_NUM: {
        char *m = alloc(ctx, attu_to_char_num_bound(flen));
        if (!m) return attu_error_oom(err);
        attu_numeric nv = { 0, 0 };
        if (aux == ATTU_NUMSRC_NUMERIC) nv = attu_numeric_unpack(a->v.s);
        long len = attu_to_char_num((attu_num_src)aux, a->v.i, a->v.f, nv, fmt, flen, m, cache, err);
        if (len < 0) return -1;
        o->v.s = m;
        o->len = (uint32_t)len;
        break;
    }
    case ATTU_OP_TO_DATE: {
        int32_t days;
        if (attu_to_date(a->v.s, a->len, fmt, flen, &days, cache, err)) return -1;
        o->v.i = days;
        break;
    }
    case ATTU_OP_TO_TIMESTAMP: {
        int64_t v;
        if (attu_to_timestamp(a->v.s, a->len, fmt, flen, attu_tz_by_id(zone_id), &v, cache, err)) return -1;
        o->v.i = v;
        break;
    }
    default: {   /* ATTU_OP_TO_NUMBER */
        attu_numeric v;
        int is_null;
        if (attu_to_number(a->v.s, a->len, fmt, flen, &v, &is_null, cache, err)) return -1;
        if (is_null) { o->null = 1; return 0; }
        char *m = alloc(ctx, 16);
        if (!m) return attu_error_oom(err);
        attu_numeric_pack(v, m);
        o->v.s = m;
        o->len = 16;
        break;
    }
    }
    return 0;
}
