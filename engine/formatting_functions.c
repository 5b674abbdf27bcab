/*
 * formatting_functions.c - the batch side of to_char, to_date and
 * to_number (formatting_functions.h): NULLs and guards, the source's
 * variant, the results' memory.
 */
#include "engine/formatting_functions.h"

#include "engine/datetime_format.h"
#include "engine/numeric.h"
#include "engine/numeric_format.h"

int attu_formatting_run(int op, int aux, attu_type at, const attu_slot *A, const attu_slot *B, const attu_slot *G,
                        attu_slot *D, size_t n, attu_regexp_alloc alloc, void *ctx, attu_error *err) {
    for (size_t r = 0; r < n; r++) {
        attu_slot *o = &D[r];
        o->len = 0;
        o->v.i = 0;
        if ((G && (G[r].null || !G[r].v.i)) || A[r].null || B[r].null) { o->null = 1; continue; }
        o->null = 0;
        const char *fmt = B[r].v.s;
        size_t flen = B[r].len;
        switch (op) {
        case ATTU_OP_TO_CHAR_TS: {
            char *m = alloc(ctx, attu_to_char_ts_bound(flen));
            if (!m) return attu_error_oom(err);
            int64_t ts = A[r].v.i;
            if (at.id == ATTU_TYPE_DATE) {
                int32_t days = (int32_t)A[r].v.i;
                ts = days == INT32_MAX ? INT64_MAX : days == INT32_MIN ? INT64_MIN : (int64_t)days * 86400000000LL;
            }
            long len = attu_to_char_ts(ts, aux == 1, fmt, flen, m, err);
            if (len == -2) return -1;
            if (len < 0) { o->null = 1; continue; }
            o->v.s = m;
            o->len = (uint32_t)len;
            break;
        }
        case ATTU_OP_TO_CHAR_NUM: {
            char *m = alloc(ctx, attu_to_char_num_bound(flen));
            if (!m) return attu_error_oom(err);
            attu_numeric nv = { 0, 0 };
            if (aux == ATTU_NUMSRC_NUMERIC) nv = attu_numeric_unpack(A[r].v.s);
            long len = attu_to_char_num((attu_num_src)aux, A[r].v.i, A[r].v.f, nv, fmt, flen, m, err);
            if (len < 0) return -1;
            o->v.s = m;
            o->len = (uint32_t)len;
            break;
        }
        case ATTU_OP_TO_DATE: {
            int32_t days;
            if (attu_to_date(A[r].v.s, A[r].len, fmt, flen, &days, err)) return -1;
            o->v.i = days;
            break;
        }
        default: {   /* ATTU_OP_TO_NUMBER */
            attu_numeric v;
            int is_null;
            if (attu_to_number(A[r].v.s, A[r].len, fmt, flen, &v, &is_null, err)) return -1;
            if (is_null) { o->null = 1; continue; }
            char *m = alloc(ctx, 16);
            if (!m) return attu_error_oom(err);
            attu_numeric_pack(v, m);
            o->v.s = m;
            o->len = 16;
            break;
        }
        }
    }
    return 0;
}
