/*
 * time_type.c - binding time without time zone: its operators (time +-
 * interval, time - time, date + time), EXTRACT / date_part of a time,
 * make_time and LOCALTIME, and the functions PostgreSQL reaches through
 * time's implicit cast to interval (date_trunc, to_char).
 *
 * A time is int64 microseconds since midnight (engine/time_of_day.h), so
 * its comparisons, sorts, groups and joins are BIGINT's and need nothing
 * here. Its own operations are the ATTU_OP_TIME_* opcodes, host only (the
 * GPU's expression evaluator declines them: gpu/backend/expr_device.cuh's
 * dev_op_supported lists none of them).
 */
#include "planner/binder_internal.h"
#include "engine/timezone.h"
#include "engine/time_of_day.h"

#include <string.h>
#include <sys/time.h>

static attu_type time_t_(void) { return attu_type_make(ATTU_TYPE_TIME); }

/* The operators with a time operand, as PostgreSQL 15 has them: time +
 * interval, interval + time, time - interval (-> time, wrapping around
 * midnight), time - time (-> interval), date + time, time + date, date -
 * time (-> timestamp). An untyped literal beside a time is an interval
 * after + and a time after - (PostgreSQL's choice). time * / a number go
 * through interval (time's implicit cast). *done says whether an operand
 * was a time; a NULL result with *done is an error. */
/* The operators of a timetz: timetz +- interval, interval + timetz (the
 * time wraps, the offset stays), date + timetz and timetz + date (->
 * timestamptz); an untyped literal beside one is an interval. */
static attu_bexpr *bind_timetz_arith(bctx *c, attu_ast_binary_op op, attu_bexpr *l, attu_bexpr *r, int pos,
                                     const char *opname) {
    attu_type_id lt = l->type.id, rt = r->type.id;
    attu_type iv = attu_type_make(ATTU_TYPE_INTERVAL), tt = attu_type_make(ATTU_TYPE_TIMETZ);
    bool add = op == ATTU_BINOP_ADD, sub = op == ATTU_BINOP_SUB;
    bool lz = lt == ATTU_TYPE_TIMETZ, rz = rt == ATTU_TYPE_TIMETZ;
    if ((lz && rt == ATTU_TYPE_UNKNOWN && add) || (rz && lt == ATTU_TYPE_UNKNOWN && add)) {
        /* timetz + interval and timetz + date both take it (PostgreSQL) */
        char b1[64], b2[64];
        attu_error_set(c->err, "42725", pos, "operator is not unique: %s %s %s", tname(l->type, b1), opname, tname(r->type, b2));
        attu_error_set_hint(c->err, "Could not choose a best candidate operator. You might need to add explicit type casts.");
        return NULL;
    }
    if (lz && rt == ATTU_TYPE_UNKNOWN && sub) {
        if (!(r = coerce(c, r, iv, false, pos))) return NULL;
        rt = ATTU_TYPE_INTERVAL;
    }
    if (lz && rt == ATTU_TYPE_INTERVAL && (add || sub))
        return mk_call(c, add ? ATTU_OP_TIMETZ_ADD_IV : ATTU_OP_TIMETZ_SUB_IV, tt, pos, 2, l, r, NULL, NULL);
    if (rz && lt == ATTU_TYPE_INTERVAL && add) return mk_call(c, ATTU_OP_TIMETZ_ADD_IV, tt, pos, 2, r, l, NULL, NULL);
    attu_type tz = attu_type_make(ATTU_TYPE_TIMESTAMPTZ);
    if (lt == ATTU_TYPE_DATE && rz && add) return mk_call(c, ATTU_OP_DATE_TIMETZ, tz, pos, 2, l, r, NULL, NULL);
    if (lz && rt == ATTU_TYPE_DATE && add) return mk_call(c, ATTU_OP_DATE_TIMETZ, tz, pos, 2, r, l, NULL, NULL);
    char b1[64], b2[64];
    attu_error_set(c->err, ATTU_SQLSTATE_UNDEFINED_FUNCTION, pos, "operator does not exist: %s %s %s", tname(l->type, b1),
                   opname, tname(r->type, b2));
    attu_error_set_hint(c->err, "No operator matches the given name and argument types. You might need to add explicit type casts.");
    return NULL;
}

attu_bexpr *attu_bind_time_arith(bctx *c, attu_ast_binary_op op, attu_bexpr *l, attu_bexpr *r, int pos,
                                 const char *opname, bool *done) {
    attu_type_id lt = l->type.id, rt = r->type.id;
    if (lt == ATTU_TYPE_TIMETZ || rt == ATTU_TYPE_TIMETZ) {
        *done = true;
        return bind_timetz_arith(c, op, l, r, pos, opname);
    }
    *done = lt == ATTU_TYPE_TIME || rt == ATTU_TYPE_TIME;
    if (!*done) return NULL;
    attu_type iv = attu_type_make(ATTU_TYPE_INTERVAL), ts = attu_type_make(ATTU_TYPE_TIMESTAMP), tt = time_t_();
    bool add = op == ATTU_BINOP_ADD, sub = op == ATTU_BINOP_SUB;
    bool ltm = lt == ATTU_TYPE_TIME, rtm = rt == ATTU_TYPE_TIME;
    if (ltm && rt == ATTU_TYPE_UNKNOWN && (add || sub)) {
        if (!(r = coerce(c, r, add ? iv : tt, false, pos))) return NULL;
        rt = r->type.id; rtm = rt == ATTU_TYPE_TIME;
    }
    if (rtm && lt == ATTU_TYPE_UNKNOWN && add) {
        if (!(l = coerce(c, l, iv, false, pos))) return NULL;
        lt = ATTU_TYPE_INTERVAL;
    }
    if (ltm && rt == ATTU_TYPE_INTERVAL && (add || sub))
        return mk_call(c, add ? ATTU_OP_TIME_ADD_IV : ATTU_OP_TIME_SUB_IV, tt, pos, 2, l, r, NULL, NULL);
    if (rtm && lt == ATTU_TYPE_INTERVAL && add) return mk_call(c, ATTU_OP_TIME_ADD_IV, tt, pos, 2, r, l, NULL, NULL);
    if (ltm && rtm && sub) return mk_call(c, ATTU_OP_TIME_DIFF, iv, pos, 2, l, r, NULL, NULL);
    if (ltm && rtm && add) {
        /* time + interval and interval + time both take it (PostgreSQL) */
        char b1[64], b2[64];
        attu_error_set(c->err, "42725", pos, "operator is not unique: %s %s %s", tname(l->type, b1), opname, tname(r->type, b2));
        attu_error_set_hint(c->err, "Could not choose a best candidate operator. You might need to add explicit type casts.");
        return NULL;
    }
    if (lt == ATTU_TYPE_DATE && rtm && add) return mk_call(c, ATTU_OP_DATE_TIME, ts, pos, 2, l, r, NULL, NULL);
    if (ltm && rt == ATTU_TYPE_DATE && add) return mk_call(c, ATTU_OP_DATE_TIME, ts, pos, 2, r, l, NULL, NULL);
    if (lt == ATTU_TYPE_DATE && rtm && sub) {
        attu_bexpr *d = mk_call(c, ATTU_OP_CAST_DATE_TS, ts, pos, 1, l, NULL, NULL, NULL);
        attu_bexpr *s = d ? mk_call(c, ATTU_OP_IV_OF_TIME, iv, pos, 1, r, NULL, NULL, NULL) : NULL;
        return s ? mk_call(c, ATTU_OP_TS_SUB_IV, ts, pos, 2, d, s, NULL, NULL) : NULL;
    }
    if ((op == ATTU_BINOP_MUL || op == ATTU_BINOP_DIV) && ltm && (is_numeric(rt) || rt == ATTU_TYPE_UNKNOWN)) {
        attu_type f8 = attu_type_make(ATTU_TYPE_FLOAT64);
        l = mk_call(c, ATTU_OP_IV_OF_TIME, iv, pos, 1, l, NULL, NULL, NULL);
        r = l ? coerce(c, r, f8, false, pos) : NULL;
        return r ? mk_call(c, op == ATTU_BINOP_MUL ? ATTU_OP_MUL_IV : ATTU_OP_DIV_IV, iv, pos, 2, l, r, NULL, NULL) : NULL;
    }
    if (op == ATTU_BINOP_MUL && rtm && is_numeric(lt)) {
        attu_type f8 = attu_type_make(ATTU_TYPE_FLOAT64);
        r = mk_call(c, ATTU_OP_IV_OF_TIME, iv, pos, 1, r, NULL, NULL, NULL);
        l = r ? coerce(c, l, f8, false, pos) : NULL;
        return l ? mk_call(c, ATTU_OP_MUL_IV, iv, pos, 2, r, l, NULL, NULL) : NULL;
    }
    char b1[64], b2[64];
    attu_error_set(c->err, ATTU_SQLSTATE_UNDEFINED_FUNCTION, pos, "operator does not exist: %s %s %s", tname(l->type, b1),
                   opname, tname(r->type, b2));
    attu_error_set_hint(c->err, "No operator matches the given name and argument types. You might need to add explicit type casts.");
    return NULL;
}

/* EXTRACT(field FROM time) (numeric) / date_part (double precision):
 * hour, minute, second, milliseconds, microseconds and epoch, as
 * PostgreSQL's time_part_common; units a time lacks are 0A000, words
 * that are no unit 22023. */
attu_bexpr *attu_bind_time_extract(bctx *c, const char *field, attu_bexpr *a, bool as_float, int pos) {
    char low[64];
    size_t ln = 0;
    for (; field[ln] && ln + 1 < sizeof low; ln++) low[ln] = (char)(field[ln] >= 'A' && field[ln] <= 'Z' ? field[ln] + 32 : field[ln]);
    low[ln] = 0;
    bool tz = a->type.id == ATTU_TYPE_TIMETZ;
    const char *tn = tz ? "time with time zone" : "time without time zone";
    int f = datetime_unit(field);
    if (f == -1) {
        attu_error_set(c->err, ATTU_SQLSTATE_INVALID_PARAMETER, pos, "unit \"%s\" not recognized for type %s", low, tn);
        return NULL;
    }
    if (f == -2 && tz) {
        /* timezone, timezone_hour, timezone_minute: the value's offset */
        f = !strncmp(low, "timezone_h", 10) ? ATTU_EXTRACT_TZ_HOUR
          : !strncmp(low, "timezone_m", 10) ? ATTU_EXTRACT_TZ_MINUTE : ATTU_EXTRACT_TZ_SECONDS;
    }
    int scale;
    switch (f) {
    case ATTU_EXTRACT_TZ_SECONDS: case ATTU_EXTRACT_TZ_HOUR: case ATTU_EXTRACT_TZ_MINUTE: scale = 0; break;
    case ATTU_EXTRACT_HOUR: case ATTU_EXTRACT_MINUTE: case ATTU_TRUNC_MICROSECONDS: scale = 0; break;
    case ATTU_TRUNC_MILLISECONDS: scale = 3; break;
    case ATTU_EXTRACT_SECOND: case ATTU_EXTRACT_EPOCH: scale = 6; break;
    default:
        attu_error_set(c->err, ATTU_SQLSTATE_FEATURE_NOT_SUPPORTED, pos, "unit \"%s\" not supported for type %s", low, tn);
        return NULL;
    }
    attu_type rt = as_float ? attu_type_make(ATTU_TYPE_FLOAT64) : attu_type_decimal(18, scale);
    attu_bexpr *r = mk_call(c, ATTU_OP_EXTRACT, rt, pos, 1, a, NULL, NULL, NULL);
    if (r) { r->imm = f; r->aux = tz ? 3 : 2; }
    return r;
}

static int64_t now_us(void) {
    int64_t t = attu_tz_txn_start();
    if (t) return t;
    struct timeval tv;
    gettimeofday(&tv, NULL);
    return (int64_t)tv.tv_sec * 1000000 + tv.tv_usec;
}

/* make_time(int, int, double precision) and LOCALTIME[(p)]; date_trunc
 * and to_char of a time read it as an interval (PostgreSQL's implicit
 * cast: date_trunc('hour', time) is an interval), which *handled = false
 * leaves to their interval forms with args[] rewritten. */
attu_bexpr *attu_bind_time_function(bctx *c, const attu_ast_expr *e, const char *name, attu_bexpr **args, int n,
                                    bool *handled) {
    int pos = e->position;
    *handled = true;
    attu_type iv = attu_type_make(ATTU_TYPE_INTERVAL);
    if (!strcmp(name, "make_time") && n == 3) {
        attu_type i4 = attu_type_make(ATTU_TYPE_INT32), f8 = attu_type_make(ATTU_TYPE_FLOAT64);
        for (int i = 0; i < 3; i++) {
            attu_type_id t = args[i]->type.id;
            bool ok = i == 2 ? is_numeric(t) || t == ATTU_TYPE_UNKNOWN
                             : t == ATTU_TYPE_INT16 || t == ATTU_TYPE_INT32 || t == ATTU_TYPE_UNKNOWN;
            if (!ok) return attu_no_function(c, e, args, n);
            if (!(args[i] = coerce(c, args[i], i == 2 ? f8 : i4, false, pos))) return NULL;
        }
        return mk_call(c, ATTU_OP_MAKE_TIME, time_t_(), pos, 3, args[0], args[1], args[2], NULL);
    }
    if ((!strcmp(name, "localtime") || !strcmp(name, "current_time")) && n <= 1) {
        /* the transaction's clock on the session zone's wall, as
         * LOCALTIMESTAMP; (p) rounds to p fractional digits */
        int64_t v = attu_tz_to_local_us(attu_tz_session(), now_us());   /* the wall time; rounded below */
        if (n == 1) {
            if (args[0]->kind != BX_CONST || !attu_type_is_int(args[0]->type.id) || args[0]->i < 0) return attu_no_function(c, e, args, n);
            int64_t p = args[0]->i > 6 ? 6 : args[0]->i, unit = 1;
            for (int64_t i = p; i < 6; i++) unit *= 10;
            int64_t r = v % unit;
            v -= r;
            if (r * 2 >= unit) v += unit;
        }
        int64_t t = v % 86400000000LL;
        if (t < 0) t += 86400000000LL;
        if (name[0] == 'l') return mk_const_int(c, time_t_(), t);
        /* current_time: that time with the offset then */
        int64_t u = now_us();
        int32_t east = attu_tz_offset_at(attu_tz_session(), u / 1000000 - (u % 1000000 < 0), NULL);
        return mk_const_int(c, attu_type_make(ATTU_TYPE_TIMETZ), attu_timetz_pack(t, east));
    }
    if (!strcmp(name, "date_trunc") && n == 2 && args[1]->type.id == ATTU_TYPE_TIME) {
        if (!(args[1] = mk_call(c, ATTU_OP_IV_OF_TIME, iv, pos, 1, args[1], NULL, NULL, NULL))) return NULL;
    } else if (!strcmp(name, "to_char") && n == 2 && args[0]->type.id == ATTU_TYPE_TIME) {
        if (!(args[0] = mk_call(c, ATTU_OP_IV_OF_TIME, iv, pos, 1, args[0], NULL, NULL, NULL))) return NULL;
    }
    *handled = false;
    return NULL;
}
