/*
 * timestamptz.c - binding timestamp with time zone: the conversions that
 * need a zone, EXTRACT / date_part / date_trunc of a timestamptz, AT TIME
 * ZONE (timezone(zone, x)), and now() and its kin.
 *
 * A timestamptz is an instant; what it reads as on a wall clock depends
 * on the session's TimeZone. The binder runs on the statement's thread,
 * where the db layer has set that zone (engine/timezone.h,
 * attu_tz_session): every instruction that needs it carries the zone's
 * id in its aux, so the executor's threads need no session. Constants
 * ('2024-03-01 12:00'::timestamptz) are read here, under the same zone.
 */
#include "planner/binder_internal.h"
#include "engine/interval.h"
#include "engine/timezone.h"

#include <string.h>
#include <sys/time.h>

attu_bexpr *tz_call(bctx *c, attu_opcode op, attu_type t, int pos, attu_bexpr *a, attu_bexpr *b) {
    attu_bexpr *x = mk_call(c, op, t, pos, b ? 2 : 1, a, b, NULL, NULL);
    if (x) x->aux = attu_tz_id(attu_tz_session());
    return x;
}

static int64_t clock_now_us(void) {
    struct timeval tv;
    gettimeofday(&tv, NULL);
    return (int64_t)tv.tv_sec * 1000000 + tv.tv_usec;
}

/* The instant of the statement's transaction (now()). */
static int64_t txn_now_us(void) {
    int64_t t = attu_tz_txn_start();
    return t ? t : clock_now_us();
}

static char lower_char(char ch) { return (char)(ch >= 'A' && ch <= 'Z' ? ch + 32 : ch); }

/* EXTRACT(field FROM a timestamptz) / date_part: the fields of its wall
 * time in the session's zone, the epoch of the instant itself, and the
 * zone's offset (timezone, timezone_hour, timezone_minute), numeric for
 * EXTRACT and double precision for date_part as PostgreSQL 15. */
attu_bexpr *attu_bind_tz_extract(bctx *c, const char *field, attu_bexpr *a, bool as_float, int pos) {
    char low[64];
    size_t ln = 0;
    for (; field[ln] && ln + 1 < sizeof low; ln++) low[ln] = lower_char(field[ln]);
    low[ln] = 0;
    int f = datetime_unit(field);
    attu_type rt = as_float ? attu_type_make(ATTU_TYPE_FLOAT64) : attu_type_decimal(18, 0);
    if (f == -2) {
        attu_type i4 = attu_type_make(ATTU_TYPE_INT32);
        attu_bexpr *off = tz_call(c, ATTU_OP_TZ_OFFSET, i4, pos, a, NULL);
        if (!off) return NULL;
        /* timezone_hour / timezone_minute truncate toward zero, as C does */
        if (!strncmp(low, "timezone_h", 10))
            off = mk_call(c, ATTU_OP_DIV_I, i4, pos, 2, off, mk_const_int(c, i4, 3600), NULL, NULL);
        else if (!strncmp(low, "timezone_m", 10))
            off = mk_call(c, ATTU_OP_MOD_I, i4, pos, 2, mk_call(c, ATTU_OP_DIV_I, i4, pos, 2, off, mk_const_int(c, i4, 60), NULL, NULL),
                          mk_const_int(c, i4, 60), NULL, NULL);
        return off ? coerce(c, off, rt, true, pos) : NULL;
    }
    if (f == -1) {
        attu_error_set(c->err, ATTU_SQLSTATE_INVALID_PARAMETER, pos, "unit \"%s\" not recognized for type timestamp with time zone", low);
        return NULL;
    }
    if (f == ATTU_EXTRACT_EPOCH) {
        /* seconds since 1970-01-01 00:00 UTC: the stored value itself */
        attu_bexpr *r = mk_call(c, ATTU_OP_EXTRACT, as_float ? rt : attu_type_decimal(18, 6), pos, 1, a, NULL, NULL, NULL);
        if (r) { r->imm = f; r->aux = 1; }
        return r;
    }
    if (!as_float && f == ATTU_EXTRACT_JULIAN) {
        attu_error_set(c->err, ATTU_SQLSTATE_FEATURE_NOT_SUPPORTED, pos,
                       "EXTRACT(julian FROM timestamp with time zone) is not supported; use date_part('julian', ...)");
        return NULL;
    }
    attu_bexpr *local = tz_call(c, ATTU_OP_TZ_TO_LOCAL, attu_type_make(ATTU_TYPE_TIMESTAMP), pos, a, NULL);
    return local ? bind_extract(c, field, local, as_float, pos) : NULL;
}

/* date_trunc(unit, timestamptz) in the session's zone. */
attu_bexpr *attu_bind_tz_trunc(bctx *c, const char *unit_text, attu_bexpr *a, int pos) {
    char unit[64];
    size_t ul = 0;
    for (const char *q = unit_text; *q && ul + 1 < sizeof unit; q++) unit[ul++] = lower_char(*q);
    unit[ul] = 0;
    int f = datetime_unit(unit_text);
    if (f == -2) {
        attu_error_set(c->err, ATTU_SQLSTATE_FEATURE_NOT_SUPPORTED, pos,
                       "unit \"%s\" not supported for type timestamp with time zone", unit);
        return NULL;
    }
    if (f < 0 || f == ATTU_EXTRACT_DOW || f == ATTU_EXTRACT_DOY || f == ATTU_EXTRACT_EPOCH ||
        f == ATTU_EXTRACT_ISOYEAR || f == ATTU_EXTRACT_ISODOW || f == ATTU_EXTRACT_JULIAN) {
        attu_error_set(c->err, ATTU_SQLSTATE_INVALID_PARAMETER, pos,
                       "unit \"%s\" not recognized for type timestamp with time zone", unit);
        return NULL;
    }
    attu_bexpr *x = tz_call(c, ATTU_OP_TZ_TRUNC, attu_type_make(ATTU_TYPE_TIMESTAMPTZ), pos, a, NULL);
    if (x) x->imm = f;
    return x;
}

/* timezone(zone, x), which x AT TIME ZONE zone is: a timestamp read as
 * the wall time of zone gives the instant (timestamptz); a timestamptz
 * gives its wall time there (timestamp). A constant zone is found now
 * (22023 when unknown), any other is looked up row by row. */
static attu_bexpr *bind_at_zone(bctx *c, const attu_ast_expr *e, attu_bexpr **args, int n, int pos) {
    attu_bexpr *z = args[0], *x = args[1];
    attu_type txt = attu_type_make(ATTU_TYPE_TEXT), ts = attu_type_make(ATTU_TYPE_TIMESTAMP),
              tz = attu_type_make(ATTU_TYPE_TIMESTAMPTZ);
    const attu_tz *izone = NULL;
    if (z->type.id == ATTU_TYPE_INTERVAL) {
        /* AT TIME ZONE INTERVAL '+05:30': a fixed offset east (ISO sign),
         * a constant here; PostgreSQL refuses months and days */
        if (z->kind != BX_CONST || (!z->s && !z->is_null)) {
            attu_error_set(c->err, ATTU_SQLSTATE_FEATURE_NOT_SUPPORTED, pos, "AT TIME ZONE takes only a constant interval in attu");
            return NULL;
        }
        if (!z->is_null) {
            attu_interval iv;
            memcpy(&iv, z->s, sizeof iv);
            if (iv.months || iv.days) {
                char buf[96];
                attu_interval_format(iv, buf, sizeof buf);
                attu_error_set(c->err, ATTU_SQLSTATE_INVALID_PARAMETER, 0,
                               "interval time zone \"%s\" must not include months or days", buf);
                return NULL;
            }
            izone = attu_tz_fixed((int32_t)(iv.usec / 1000000));
        }
    } else if (z->type.id != ATTU_TYPE_TEXT && z->type.id != ATTU_TYPE_UNKNOWN) {
        return attu_no_function(c, e, args, n);
    }
    attu_type_id xt = x->type.id;
    if (xt == ATTU_TYPE_TIME || xt == ATTU_TYPE_TIMETZ) {
        /* a time (as a timetz in the session's zone) or a timetz moved to
         * the zone's offset now; a constant zone only */
        attu_type ttz = attu_type_make(ATTU_TYPE_TIMETZ);
        if (!(x = coerce(c, x, ttz, false, pos))) return NULL;
        if (z->kind == BX_CONST && z->is_null) return mk_const_null(c, ttz);
        if (!izone && z->kind == BX_CONST && z->s) {
            char name[256];
            size_t len = z->slen < sizeof name - 1 ? z->slen : sizeof name - 1;
            memcpy(name, z->s, len);
            name[len] = 0;
            if (!(izone = attu_tz_for_at(name))) {
                attu_error_set(c->err, ATTU_SQLSTATE_INVALID_PARAMETER, 0, "time zone \"%s\" not recognized", name);
                return NULL;
            }
        }
        if (!izone) {
            attu_error_set(c->err, ATTU_SQLSTATE_FEATURE_NOT_SUPPORTED, pos, "AT TIME ZONE of a time with time zone takes only a constant zone in attu");
            return NULL;
        }
        attu_bexpr *r = mk_call(c, ATTU_OP_TIMETZ_AT_ZONE, ttz, pos, 1, x, NULL, NULL, NULL);
        if (r) r->aux = attu_tz_id(izone);
        return r;
    }
    if (xt == ATTU_TYPE_DATE) { if (!(x = coerce(c, x, tz, false, pos))) return NULL; xt = ATTU_TYPE_TIMESTAMPTZ; }
    if (xt == ATTU_TYPE_UNKNOWN) { if (!(x = coerce(c, x, tz, false, pos))) return NULL; xt = ATTU_TYPE_TIMESTAMPTZ; }
    if (xt != ATTU_TYPE_TIMESTAMP && xt != ATTU_TYPE_TIMESTAMPTZ) return attu_no_function(c, e, args, n);
    bool to_local = xt == ATTU_TYPE_TIMESTAMPTZ;
    attu_opcode op = to_local ? ATTU_OP_TZ_TO_LOCAL : ATTU_OP_TZ_FROM_LOCAL;
    attu_type rt = to_local ? ts : tz;
    if (izone || (z->kind == BX_CONST && z->is_null)) {
        if (!izone) return mk_const_null(c, rt);
        attu_bexpr *r = mk_call(c, op, rt, pos, 1, x, NULL, NULL, NULL);
        if (r) r->aux = attu_tz_id(izone);
        return r;
    }
    if (z->kind == BX_CONST && z->s) {
        char name[256];
        size_t len = z->slen < sizeof name - 1 ? z->slen : sizeof name - 1;
        memcpy(name, z->s, len);
        name[len] = 0;
        const attu_tz *zone = attu_tz_for_at(name);
        if (!zone) {
            /* (no position: PostgreSQL finds out when it evaluates the call) */
            attu_error_set(c->err, ATTU_SQLSTATE_INVALID_PARAMETER, 0, "time zone \"%s\" not recognized", name);
            return NULL;
        }
        attu_bexpr *r = mk_call(c, op, rt, pos, 1, x, NULL, NULL, NULL);
        if (r) r->aux = attu_tz_id(zone);
        return r;
    }
    if (!(z = coerce(c, z, txt, false, pos))) return NULL;
    return mk_call(c, op, rt, pos, 2, x, z, NULL, NULL);
}

attu_bexpr *attu_bind_tz_function(bctx *c, const attu_ast_expr *e, const char *name, attu_bexpr **args, int n,
                                  bool *handled) {
    int pos = e->position;
    *handled = true;
    attu_type tz = attu_type_make(ATTU_TYPE_TIMESTAMPTZ);
    if (!strcmp(name, "date_bin") && n == 3) {
        /* date_bin(stride, source, origin): PostgreSQL's timestamp form
         * where the datetime arguments are timestamps (or untyped beside
         * one), else its timestamptz form (dates and untyped literals
         * read as timestamptz, the preferred type); the bin is the same
         * microsecond arithmetic in both (engine/expr_program.c) */
        attu_type_id s = args[1]->type.id, o = args[2]->type.id;
        bool ok = (args[0]->type.id == ATTU_TYPE_INTERVAL || args[0]->type.id == ATTU_TYPE_UNKNOWN);
        for (int i = 1; i < 3; i++) {
            attu_type_id t = args[i]->type.id;
            if (attu_type_is_array(args[i]->type) || (t != ATTU_TYPE_TIMESTAMP && t != ATTU_TYPE_TIMESTAMPTZ &&
                                                       t != ATTU_TYPE_DATE && t != ATTU_TYPE_UNKNOWN)) ok = false;
        }
        if (!ok) return attu_no_function(c, e, args, n);
        bool plain = (s == ATTU_TYPE_TIMESTAMP || o == ATTU_TYPE_TIMESTAMP) &&
                     (s == ATTU_TYPE_TIMESTAMP || s == ATTU_TYPE_UNKNOWN) && (o == ATTU_TYPE_TIMESTAMP || o == ATTU_TYPE_UNKNOWN);
        attu_type rt = plain ? attu_type_make(ATTU_TYPE_TIMESTAMP) : tz;
        if (!(args[0] = coerce(c, args[0], attu_type_make(ATTU_TYPE_INTERVAL), false, pos)) ||
            !(args[1] = coerce(c, args[1], rt, false, pos)) || !(args[2] = coerce(c, args[2], rt, false, pos)))
            return NULL;
        return mk_call(c, ATTU_OP_DATE_BIN, rt, pos, 3, args[0], args[1], args[2], NULL);
    }
    if ((!strcmp(name, "now") || !strcmp(name, "transaction_timestamp")) && n == 0)
        return mk_const_int(c, tz, txn_now_us());
    if (!strcmp(name, "statement_timestamp") && n == 0) {
        int64_t t = attu_tz_stmt_start();
        return mk_const_int(c, tz, t ? t : clock_now_us());
    }
    /* clock_timestamp(): the clock when the statement is bound (PostgreSQL
     * reads it row by row) */
    if (!strcmp(name, "clock_timestamp") && n == 0) return mk_const_int(c, tz, clock_now_us());
    if ((!strcmp(name, "current_timestamp") || !strcmp(name, "localtimestamp")) && n <= 1) {
        int64_t v = txn_now_us();
        if (n == 1) {
            /* current_timestamp(p): rounded to p fractional digits */
            if (args[0]->kind != BX_CONST || !attu_type_is_int(args[0]->type.id) || args[0]->i < 0) return attu_no_function(c, e, args, n);
            int64_t p = args[0]->i > 6 ? 6 : args[0]->i, unit = 1;
            for (int64_t i = p; i < 6; i++) unit *= 10;
            int64_t r = v % unit;
            v -= r;
            if (r * 2 >= unit) v += unit;
        }
        if (name[0] == 'c') return mk_const_int(c, tz, v);
        return mk_const_int(c, attu_type_make(ATTU_TYPE_TIMESTAMP), attu_tz_to_local_us(attu_tz_session(), v));
    }
    if (!strcmp(name, "current_date") && n == 0) {
        int64_t l = attu_tz_to_local_us(attu_tz_session(), txn_now_us());
        int64_t day = l / 86400000000LL - (l % 86400000000LL < 0);
        return mk_const_int(c, attu_type_make(ATTU_TYPE_DATE), day);
    }
    if (!strcmp(name, "timezone") && n == 2) return bind_at_zone(c, e, args, n, pos);
    *handled = false;
    return NULL;
}
