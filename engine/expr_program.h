/*
 * expr_program.h - scalar expressions compiled into typed register programs.
 *
 * The planner compiles every scalar expression (a WHERE predicate, a SELECT
 * list item, an aggregate's input, a residual join condition) into a short
 * straight-line program over numbered registers. Registers 0..ninputs-1 hold
 * the input columns; each instruction writes one register from others. The
 * instruction's opcode already says which machine types it works on (the
 * binder resolved every implicit cast into explicit CAST instructions), so an
 * interpreter dispatches on the opcode alone, per row (GPU behaviours) or per
 * batch of rows (the CPU backend).
 *
 * Register machine types:
 *   BOOL, INT16, INT32, INT64, DATE, TIMESTAMP, DECIMAL -> int64 in a register
 *     (range of the SQL type is enforced where a value is produced: 22003;
 *     an integer instruction checks its dst register's type, so SMALLINT
 *     arithmetic needs no opcodes of its own)
 *   FLOAT32, FLOAT64                              -> double (FLOAT32 rounded)
 *   TEXT                                          -> a string (bytes, length)
 *   INTERVAL                                      -> v.s points at its 16-byte
 *     slot (an attu_interval), len 16, as NUMERIC's
 *   NUMERIC                                       -> v.s points at the value's
 *     16-byte slot (engine/numeric.h's packing), in the input column or in
 *     the interpreter's arena, as TEXT points at bytes: the slot stays 16
 *     bytes for every other type
 * Every register also carries NULL. Instructions are strict (NULL in, NULL
 * out) unless their comment says otherwise.
 *
 * Conditional evaluation: an instruction with guard >= 0 runs only for rows
 * where register `guard` is TRUE; elsewhere it yields NULL. CASE branches
 * are guarded by their conditions so that CASE WHEN x <> 0 THEN 1 / x ...
 * never divides by zero, as in PostgreSQL.
 */
#ifndef ATTU_EXPR_PROGRAM_H
#define ATTU_EXPR_PROGRAM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "engine/error.h"
#include "engine/types.h"

typedef enum attu_opcode {
    ATTU_OP_CONST = 0,   /* dst = imm (int / float / str), or NULL if imm_null */
    ATTU_OP_MOVE,        /* dst = a */
    /* integer arithmetic; result type's range checked (22003) */
    ATTU_OP_ADD_I, ATTU_OP_SUB_I, ATTU_OP_MUL_I,
    ATTU_OP_DIV_I,       /* truncates toward zero; 22012 on zero */
    ATTU_OP_MOD_I,
    ATTU_OP_NEG_I,
    /* float arithmetic (double; FLOAT32 results rounded) */
    ATTU_OP_ADD_F, ATTU_OP_SUB_F, ATTU_OP_MUL_F, ATTU_OP_DIV_F, ATTU_OP_MOD_F,
    ATTU_OP_NEG_F,
    /* decimal (scaled int64): operands already at the result's scale for
     * ADD/SUB; MUL's result scale = sa + sb; DIV result scale from dst type */
    ATTU_OP_ADD_D, ATTU_OP_SUB_D, ATTU_OP_MUL_D, ATTU_OP_DIV_D, ATTU_OP_MOD_D,
    ATTU_OP_NEG_D,
    /* comparisons -> BOOL: _I on int64 registers, _F on doubles, _S on text */
    ATTU_OP_EQ_I, ATTU_OP_NE_I, ATTU_OP_LT_I, ATTU_OP_LE_I, ATTU_OP_GT_I, ATTU_OP_GE_I,
    ATTU_OP_EQ_F, ATTU_OP_NE_F, ATTU_OP_LT_F, ATTU_OP_LE_F, ATTU_OP_GT_F, ATTU_OP_GE_F,
    ATTU_OP_EQ_S, ATTU_OP_NE_S, ATTU_OP_LT_S, ATTU_OP_LE_S, ATTU_OP_GT_S, ATTU_OP_GE_S,
    /* three-valued logic (not strict) */
    ATTU_OP_AND, ATTU_OP_OR, ATTU_OP_NOT,
    ATTU_OP_IS_NULL, ATTU_OP_IS_NOT_NULL,     /* never NULL */
    ATTU_OP_IS_TRUE, ATTU_OP_IS_FALSE,        /* never NULL */
    ATTU_OP_COALESCE,    /* dst = a if not NULL else b */
    ATTU_OP_SELECT,      /* dst = (c is TRUE) ? a : b   (CASE) */
    ATTU_OP_NULLIF_I, ATTU_OP_NULLIF_F, ATTU_OP_NULLIF_S,
    /* casts: the source machine type is in the name, the destination in
     * dst's register type */
    ATTU_OP_CAST_I_I,    /* int -> int / date (range check), bool <-> int */
    ATTU_OP_CAST_I_F,    /* int -> float */
    ATTU_OP_CAST_F_I,    /* float -> int: rint as PostgreSQL; 22003 */
    ATTU_OP_CAST_I_D,    /* int -> decimal(scale of dst) */
    ATTU_OP_CAST_D_I,    /* decimal -> int, rounding half away from zero */
    ATTU_OP_CAST_D_F,
    ATTU_OP_CAST_F_D,
    ATTU_OP_CAST_D_D,    /* rescale; imm_i = source scale */
    ATTU_OP_CAST_F_F,    /* float64 <-> float32 rounding */
    ATTU_OP_CAST_S_X,    /* text -> any non-text (parse; 22P02) */
    ATTU_OP_CAST_X_S,    /* any -> text (format); imm_i = source type id, aux = scale */
    ATTU_OP_CAST_DATE_TS, ATTU_OP_CAST_TS_DATE,
    ATTU_OP_CAST_BOOL_S, /* bool -> text ("true"/"false") */
    /* math (float unless noted) */
    ATTU_OP_ABS_I, ATTU_OP_ABS_F, ATTU_OP_ABS_D,
    ATTU_OP_ROUND_F,     /* imm/b: digits (b register or 0) half away from zero */
    ATTU_OP_ROUND_D,     /* decimal to dst scale */
    ATTU_OP_FLOOR_F, ATTU_OP_CEIL_F, ATTU_OP_FLOOR_D, ATTU_OP_CEIL_D,
    ATTU_OP_TRUNC_F,
    ATTU_OP_SQRT, ATTU_OP_POWER, ATTU_OP_LN, ATTU_OP_LOG10, ATTU_OP_EXP,
    ATTU_OP_SIN, ATTU_OP_COS, ATTU_OP_TAN, ATTU_OP_ASIN, ATTU_OP_ACOS,
    ATTU_OP_ATAN, ATTU_OP_ATAN2, ATTU_OP_RADIANS, ATTU_OP_DEGREES, ATTU_OP_PI,
    ATTU_OP_SIGN_F,
    /* earth_distance(lat_a, lon_a, lat_b, lon_b): haversine, miles, radius
     * 3958.76 (the cities demo); args a, b, c, d */
    ATTU_OP_EARTH_DISTANCE,
    /* strings */
    ATTU_OP_LOWER, ATTU_OP_UPPER, ATTU_OP_LENGTH, ATTU_OP_OCTET_LENGTH,
    ATTU_OP_SUBSTR,      /* a, from b, length c (c < 0 register = to the end) */
    ATTU_OP_TRIM, ATTU_OP_LTRIM, ATTU_OP_RTRIM,
    ATTU_OP_CONCAT,      /* a || b */
    ATTU_OP_LIKE, ATTU_OP_ILIKE,   /* a LIKE b */
    ATTU_OP_STRPOS, ATTU_OP_REPLACE, ATTU_OP_LEFT, ATTU_OP_RIGHT,
    ATTU_OP_REVERSE, ATTU_OP_REPEAT,     /* repeat(a, b count) */
    ATTU_OP_LPAD, ATTU_OP_RPAD,          /* (a, b length, c fill) */
    ATTU_OP_SPLIT_PART,                  /* (a, b delimiter, c field) */
    ATTU_OP_INITCAP, ATTU_OP_STARTS_WITH,
    ATTU_OP_CBRT, ATTU_OP_TRUNC_D,       /* trunc(decimal) toward zero to b digits (register,
                                            optional; else dst scale), at dst scale */
    /* dates */
    ATTU_OP_DATE_ADD,    /* date + int days (infinities stay) */
    ATTU_OP_DATE_SUB,    /* date - int days (infinities stay) */
    ATTU_OP_DATE_DIFF,   /* date - date -> int */
    ATTU_OP_EXTRACT,     /* imm_i = field (attu_extract_field), a = date/timestamp;
                            aux = 1 when a is a TIMESTAMP. dst DECIMAL: the
                            value at dst's scale; dst FLOAT64: a double
                            (date_part). Years BC count -1, -2... (no year
                            0). Infinite a: +-Infinity (DECIMAL: INT64_MAX /
                            INT64_MIN, shown as Infinity) for year, decade,
                            century, millennium, isoyear, epoch, julian;
                            NULL for the other fields */
    ATTU_OP_DATE_TRUNC,  /* timestamp a truncated to imm_i (attu_extract_field:
                            YEAR..SECOND, QUARTER, WEEK; also ATTU_TRUNC_*) */
    ATTU_OP_CHAR_LIMIT,  /* text a stored into varchar(imm_i) (aux = 0) or
                            char(imm_i) (aux = 1): 22001 when longer, unless
                            the excess is spaces, which are cut (assignment);
                            char(n) then drops its trailing spaces (types.h) */
    /* NUMERIC (per-value display scale, engine/numeric.h); PostgreSQL's
     * scale rules, 22003 past 36 digits. Not in the GPU's device subset:
     * programs with NUMERIC registers run on the host. */
    ATTU_OP_ADD_N, ATTU_OP_SUB_N, ATTU_OP_MUL_N,
    ATTU_OP_DIV_N,       /* select_div_scale; 22012 */
    ATTU_OP_MOD_N, ATTU_OP_NEG_N, ATTU_OP_ABS_N,
    ATTU_OP_EQ_N, ATTU_OP_NE_N, ATTU_OP_LT_N, ATTU_OP_LE_N, ATTU_OP_GT_N, ATTU_OP_GE_N,
    ATTU_OP_NULLIF_N,
    ATTU_OP_CAST_I_N,    /* int -> numeric, dscale 0 */
    ATTU_OP_CAST_D_N,    /* decimal -> numeric, dscale = the source's scale */
    ATTU_OP_CAST_F_N,    /* float8 -> numeric: 15 significant digits */
    ATTU_OP_CAST_N_I,    /* rounds half away from zero; range checked */
    ATTU_OP_CAST_N_D,    /* rounds to dst's scale; precision checked */
    ATTU_OP_CAST_N_F,
    ATTU_OP_ROUND_N,     /* round(a, b digits) (b absent: 0); dscale max(b, 0) */
    ATTU_OP_TRUNC_N,     /* trunc(a, b digits) likewise */
    ATTU_OP_FLOOR_N, ATTU_OP_CEIL_N,
    ATTU_OP_POWER_N,     /* a ^ b, power_var's result scale */
    ATTU_OP_LOG_N,       /* log(a base, b), log_var's result scale */
    ATTU_OP_SQRT_AT_N,   /* sqrt(a) at a's own dscale (stddev from variance) */
    ATTU_OP_SQRT_N,      /* sqrt(a), numeric_sqrt's scale */
    ATTU_OP_LN_N, ATTU_OP_LOG10_N,
    ATTU_OP_EXP_N,       /* exp(a), numeric_exp's result scale */
    ATTU_OP_SIGN_N,      /* sign(a): -1, 0 or 1, dscale 0 */
    ATTU_OP_SUBQUERY_ONE,/* a correlated scalar subquery's value: b, the value
                            of its row, unless a (its row count for this row)
                            exceeds 1, which fails with 21000 "more than one
                            row returned by a subquery used as an
                            expression". Not strict (a NULL b passes through,
                            a NULL count is none). As an instruction it is
                            guarded like any other, so a row that does not
                            take the CASE branch holding it never fails, as
                            PostgreSQL evaluates the subquery lazily. A
                            negative a is the binding's deferred error
                            -a - 1 (executor_apply.c): raised as the
                            ATTU_SQLSTATE_DEFERRED stand-in that
                            attu_execute replaces by the error recorded */
    ATTU_OP_SIMILAR,     /* a SIMILAR TO b [ESCAPE c] (engine/similar.h);
                            c = -1: the default escape, backslash */
    /* more strings, as PostgreSQL 15 (code points are UTF-8 characters) */
    ATTU_OP_MD5,         /* md5(a): 32 lowercase hex digits of a's bytes */
    ATTU_OP_TRANSLATE,   /* translate(a, b from, c to), character by character */
    ATTU_OP_ASCII,       /* ascii(a): a's first code point, 0 for '' */
    ATTU_OP_CHR,         /* chr(a): the character of code point a; 54000 / 22023 */
    ATTU_OP_TO_HEX,      /* to_hex(a): a's two's complement in hex; aux = 4 or 8 bytes */
    ATTU_OP_OVERLAY,     /* overlay(a PLACING b FROM c [FOR d]); d = -1: b's length */
    ATTU_OP_BIT_LENGTH,  /* bit_length(a): 8 * octet_length(a) */
    ATTU_OP_REGEX,       /* a ~ b (aux = 1: a ~* b), b an ARE (engine/similar.h) */
    ATTU_OP_MAKE_DATE,   /* make_date(a year, b month, c day) (engine/datetime_make.h) */
    ATTU_OP_MAKE_TIMESTAMP, /* make_timestamp: a year, b month * 2^32 + day + 2^31,
                               c hour * 2^32 + minute + 2^31 (two int32 fields in
                               one int64 register each: an instruction has four
                               sources), d seconds (float8) */
    /* PostgreSQL 15's regular-expression functions (engine/regexp_functions.h),
     * host only; b is always ATTU_OP_REGEXP_FLAGS's pattern with its flags,
     * "start / N" operands are two int32 packed as hi * 2^32 + lo + 2^31 */
    ATTU_OP_REGEXP_FLAGS,   /* a flags, b pattern: a's bytes, a NUL, b's (text holds no NUL) */
    ATTU_OP_REGEXP_REPLACE, /* regexp_replace(a, b, c replacement, d start / N); aux 1: N
                               given, 2: the four-argument form with flags */
    ATTU_OP_REGEXP_COUNT,   /* regexp_count(a, b, c start) */
    ATTU_OP_REGEXP_INSTR,   /* regexp_instr(a, b, c start / N, d endoption / subexpr) */
    ATTU_OP_REGEXP_LIKE,    /* regexp_like(a, b) */
    ATTU_OP_REGEXP_SUBSTR,  /* regexp_substr(a, b, c start / N, d subexpr) */
    ATTU_OP_REGEXP_SUBSTRING, /* substring(a FROM b): the first group's text, or the match's */
    ATTU_OP_REGEXP_MATCH,     /* regexp_match(a, b) -> text[], NULL without a match;
                                 aux 1: how many rows regexp_matches(a, b) gives
                                 (integer), aux 2: its c-th row (text[]) */
    ATTU_OP_REGEXP_SPLIT,     /* regexp_split_to_array(a, b) -> text[]; aux 3: how
                                 many rows regexp_split_to_table(a, b) gives
                                 (integer), aux 2: its c-th row (text) */
    ATTU_OP_SIMILAR_SUBSTRING, /* substring(a SIMILAR b ESCAPE c): b a SIMILAR TO pattern (no flags) */
    ATTU_OP_DIV_TRUNC_N,  /* div(a, b) of two NUMERIC: the quotient truncated toward
                             zero, dscale 0; 22012. Host only, as every NUMERIC op */
    /* PostgreSQL 15's data type formatting functions (engine/formatting_functions.h),
     * host only; b is the template (text) */
    ATTU_OP_TO_CHAR_TS,   /* to_char(a timestamp or date, b) -> text; aux 1: a is a DATE
                             (PostgreSQL formats it as a timestamp with time zone),
                             aux 2: a is an INTERVAL (its fields, not a moment) */
    ATTU_OP_TO_CHAR_NUM,  /* to_char(a number, b) -> text; aux: attu_num_src */
    ATTU_OP_TO_DATE,      /* to_date(a text, b) -> date */
    ATTU_OP_TO_NUMBER,    /* to_number(a text, b) -> numeric */
    ATTU_OP_TO_TIMESTAMP, /* to_timestamp(a text, b) -> timestamptz; the fields are
                             wall time in the zone of aux (engine/timezone.h)
                             unless TZH / TZM give an offset */
    /* INTERVAL (engine/interval.h), as PostgreSQL 15; host only, as NUMERIC:
     * an INTERVAL register points at its 16-byte slot (v.s, len 16) */
    ATTU_OP_ADD_IV, ATTU_OP_SUB_IV, ATTU_OP_NEG_IV,   /* 22008 out of range */
    ATTU_OP_MUL_IV,      /* interval a * float8 b */
    ATTU_OP_DIV_IV,      /* interval a / float8 b; 22012 */
    ATTU_OP_EQ_IV, ATTU_OP_NE_IV, ATTU_OP_LT_IV, ATTU_OP_LE_IV, ATTU_OP_GT_IV, ATTU_OP_GE_IV,
                         /* by the span: a month is 30 days, a day 24 hours */
    ATTU_OP_NULLIF_IV,
    ATTU_OP_TS_ADD_IV, ATTU_OP_TS_SUB_IV,  /* timestamp a +- interval b -> timestamp
                                              (months, then days, then time;
                                              infinities stay; 22008) */
    ATTU_OP_TS_DIFF,     /* timestamp a - timestamp b -> interval (days and time) */
    ATTU_OP_AGE,         /* age(timestamp a, timestamp b) -> interval */
    ATTU_OP_JUSTIFY,     /* aux 1: justify_days, 2: justify_hours, 3: justify_interval */
    ATTU_OP_EXTRACT_IV,  /* EXTRACT(imm_i FROM interval a) (attu_extract_field): dst
                            NUMERIC (EXTRACT) or FLOAT64 (date_part); 0A000 */
    ATTU_OP_TRUNC_IV,    /* date_trunc(imm_i, interval a) */
    ATTU_OP_QUALIFY_IV,  /* interval a to dst's field qualifier and precision
                            (types.h attu_type_interval): a cast or an assignment
                            to interval day to second(2) */
    ATTU_OP_MAKE_INTERVAL, /* make_interval: a years * 2^32 + months + 2^31, b weeks
                              and days, c hours and mins (packed as MAKE_TIMESTAMP's),
                              d secs (float8) */
    /* timestamp with time zone (engine/timezone.h), host only: aux is the
     * id of the zone (attu_tz_id) the binder resolved, the session's
     * TimeZone or a constant AT TIME ZONE; with b >= 0 (TO_LOCAL and
     * FROM_LOCAL) the zone is instead the text b names, row by row
     * (AT TIME ZONE of a column; 22023 when not a zone) */
    ATTU_OP_TZ_TO_LOCAL,   /* timestamptz a -> timestamp: its wall time in the zone */
    ATTU_OP_TZ_FROM_LOCAL, /* timestamp a -> timestamptz: the instant that wall time
                              is in the zone (a gap or a repeated hour as
                              attu_tz_offset_local says) */
    ATTU_OP_TZ_OFFSET,     /* timestamptz a -> integer: the zone's offset then,
                              seconds east (EXTRACT(timezone ...)) */
    ATTU_OP_TZ_ADD_IV, ATTU_OP_TZ_SUB_IV,  /* timestamptz a +- interval b: months,
                              then days on the zone's wall clock, then the time
                              as elapsed microseconds (PostgreSQL's
                              timestamptz_pl_interval) */
    ATTU_OP_TZ_FROM_EPOCH, /* to_timestamp(a double precision): seconds since
                              1970-01-01 UTC -> timestamptz (22008 NaN or out of
                              range; +-Infinity the infinities) */
    ATTU_OP_TZ_TRUNC,      /* date_trunc(imm_i, timestamptz a) in the zone: a day
                              or longer unit starts at local midnight; shorter
                              units keep a's offset */
    /* time without time zone (engine/time_of_day.h), host only: its value
     * is microseconds since midnight, and its arithmetic wraps around
     * midnight as PostgreSQL's */
    ATTU_OP_TIME_OF_TS,    /* timestamp a -> time: its time of day (NULL when
                              a is infinite, as PostgreSQL's timestamp_time) */
    ATTU_OP_TIME_OF_IV,    /* interval a -> time: its time part folded into a
                              day (months and days dropped) */
    ATTU_OP_IV_OF_TIME,    /* time a -> interval of a's microseconds */
    ATTU_OP_TIME_ADD_IV, ATTU_OP_TIME_SUB_IV,  /* time a +- interval b: b's time
                              part only, wrapped around midnight */
    ATTU_OP_TIME_DIFF,     /* time a - time b -> interval (microseconds) */
    ATTU_OP_DATE_TIME,     /* date a + time b -> timestamp (infinite dates stay;
                              22008 past timestamp's range) */
    ATTU_OP_MAKE_TIME,     /* make_time(a hour, b min, c sec float8) -> time */
    /* time with time zone: the packed int64 of engine/time_of_day.h; aux is
     * the zone id (attu_tz_id) where a zone is needed, as ATTU_OP_TZ_*'s */
    ATTU_OP_TIMETZ_OF_TIME, /* time a -> timetz: the offset of aux's zone at that
                               wall time today */
    ATTU_OP_TIMETZ_OF_TSTZ, /* timestamptz a -> timetz: its wall time and offset
                               in aux's zone */
    ATTU_OP_TIME_OF_TIMETZ, /* timetz a -> time: its time, the offset dropped */
    ATTU_OP_TIMETZ_ADD_IV, ATTU_OP_TIMETZ_SUB_IV,  /* timetz a +- interval b: the
                               time wraps, the offset stays */
    ATTU_OP_DATE_TIMETZ,   /* date a + timetz b -> timestamptz (22008 past its range) */
    ATTU_OP_TIMETZ_AT_ZONE, /* timetz a AT TIME ZONE aux's zone: the same instant of
                               the day at the offset that zone has now */
    /* arrays (engine/array.h), host only: aux is the attu_array_fn; an
     * array register is a TEXT register holding the encoded bytes */
    ATTU_OP_ARRAY,
    /* json and jsonb (engine/json.h), host only: aux is the attu_json_fn;
     * json values are TEXT registers holding their text */
    ATTU_OP_JSON,
    /* uuid and bytea (engine/uuid.h, engine/bytea.h), host only: aux is the
     * attu_uuid_fn / attu_bytea_fn; values are TEXT registers holding their
     * canonical text */
    ATTU_OP_UUID,
    ATTU_OP_BYTEA,
    ATTU_OP_FORMAT,      /* format(a, VARIADIC b): b the text[] of the arguments'
                            output texts, NULL for none (engine/format_function.h);
                            host only */
    ATTU_OP_SUBQUERY_ERROR, /* the error of a subquery that failed where its
                               value was computed ahead of need (an
                               uncorrelated one run at plan time): a, a TEXT
                               constant, is the SQLSTATE's five characters and
                               the message. Any row evaluating it raises that
                               error; guarded like any other instruction, it
                               never fails for a row that does not take the
                               CASE branch (COALESCE, AND / OR operand)
                               holding it, as PostgreSQL runs the subquery
                               only when a row needs its value. Host only */
    /* PostgreSQL 15's gcd, lcm, factorial and width_bucket
     * (engine/math_functions.h), host only */
    ATTU_OP_GCD_I, ATTU_OP_LCM_I, /* gcd / lcm of integers a, b; dst INT32 or INT64
                                     gives the range (22003 past it) */
    ATTU_OP_GCD_N, ATTU_OP_LCM_N, /* of NUMERIC a, b (NaN for NaN or an infinity) */
    ATTU_OP_FACTORIAL,   /* factorial(a bigint) -> NUMERIC; 22003 below 0 and past 32! */
    ATTU_OP_WIDTH_BUCKET_F, /* width_bucket(a, b low, c high, d count) of float8
                               a, b, c and integer d -> integer; 2201G */
    ATTU_OP_WIDTH_BUCKET_N, /* the same of NUMERIC a, b, c */
    ATTU_OP_RANDOM,      /* random() -> float8 in [0, 1): volatile, a new value
                            each row, from the session's generator
                            (engine/random.h); never folded, never shared
                            between two calls (planner/logical_plan.c
                            attu_bx_equal); host only, and a program
                            holding it runs on one thread, in row order
                            (attu_program_uses_random) */
    /* PostgreSQL's bitwise operators on integers (dst's type: INT16,
     * INT32 or INT64, as a's): a & b, a | b, a # b, ~a; a << b and a >> b
     * shift by b & 31 (INT16, INT32: PostgreSQL shifts a 32-bit int on
     * x86-64, which takes the count's low five bits) or b & 63 (INT64), a
     * left shift cut to dst's width. Host only */
    ATTU_OP_BITAND_I, ATTU_OP_BITOR_I, ATTU_OP_BITXOR_I, ATTU_OP_BITNOT_I,
    ATTU_OP_SHL_I, ATTU_OP_SHR_I,
    /* PostgreSQL's scale(a) and min_scale(a) of a NUMERIC a -> INT32 (NULL
     * for NaN and the infinities) and trim_scale(a) -> NUMERIC (its
     * trailing fractional zeros dropped). Host only */
    ATTU_OP_SCALE_N, ATTU_OP_MIN_SCALE_N, ATTU_OP_TRIM_SCALE_N,
    /* date_bin(a stride interval, b source, c origin) of timestamps or
     * timestamptz: c + floor((b - c) / stride) * stride; 0A000 for a
     * stride with months, 22008 for one not above zero and an infinite
     * origin; an infinite source is itself. Host only */
    ATTU_OP_DATE_BIN,
    /* PostgreSQL's hyperbolic functions of float8 (libm's): sinh, cosh,
     * tanh, asinh, acosh (22003 "input is out of range" below 1), atanh
     * (22003 past 1 either way; +-1 gives +-Infinity). Host only */
    ATTU_OP_SINH, ATTU_OP_COSH, ATTU_OP_TANH, ATTU_OP_ASINH, ATTU_OP_ACOSH, ATTU_OP_ATANH,
    /* trigonometry in degrees, exact at the special angles
     * (engine/degree_trig.h; atan2d(y, x) reads two registers), and cot
     * in radians (22003 for an infinite argument). Host only */
    ATTU_OP_SIND, ATTU_OP_COSD, ATTU_OP_TAND, ATTU_OP_COTD, ATTU_OP_ASIND, ATTU_OP_ACOSD,
    ATTU_OP_ATAND, ATTU_OP_ATAN2D, ATTU_OP_COT,
    /* pg_size_bytes(text) -> int64, pg_size_pretty(bigint / numeric) ->
     * text (engine/size_units.h). Host only */
    ATTU_OP_PG_SIZE_BYTES, ATTU_OP_PG_SIZE_PRETTY_I, ATTU_OP_PG_SIZE_PRETTY_N,
    /* unistr(text) -> text (engine/unistr.h). Host only */
    ATTU_OP_UNISTR,
    /* the range types (engine/range.h), host only: aux is the
     * attu_range_fn; a range register is a TEXT register holding the
     * encoded bytes */
    ATTU_OP_RANGE,
    ATTU_OP_COUNT_
} attu_opcode;

/* The two int32 values the planner packs into one int64 operand as
 * hi * 2^32 + lo + 2^31 (planner/functions.c's pack_int_pair):
 * ATTU_OP_MAKE_TIMESTAMP's and the regexp functions' packed operands. */
static inline void attu_unpack_int_pair(int64_t v, int64_t *hi, int64_t *lo) {
    int64_t low = (int64_t)((uint64_t)v & 0xffffffffu);
    *hi = (v - low) / 4294967296LL;
    *lo = low - 2147483648LL;
}

typedef enum attu_extract_field {
    ATTU_EXTRACT_YEAR = 0, ATTU_EXTRACT_MONTH, ATTU_EXTRACT_DAY,
    ATTU_EXTRACT_HOUR, ATTU_EXTRACT_MINUTE, ATTU_EXTRACT_SECOND,
    ATTU_EXTRACT_DOW, ATTU_EXTRACT_DOY, ATTU_EXTRACT_QUARTER,
    ATTU_EXTRACT_EPOCH, ATTU_EXTRACT_WEEK,
    /* date_trunc only */
    ATTU_TRUNC_MILLISECONDS, ATTU_TRUNC_MICROSECONDS, ATTU_TRUNC_DECADE,
    ATTU_TRUNC_CENTURY, ATTU_TRUNC_MILLENNIUM,
    /* EXTRACT also takes MILLISECONDS .. MILLENNIUM above, and these */
    ATTU_EXTRACT_ISOYEAR, ATTU_EXTRACT_ISODOW, ATTU_EXTRACT_JULIAN,
    /* a timetz's offset (EXTRACT aux 3 only): seconds east, its hours, its minutes */
    ATTU_EXTRACT_TZ_SECONDS, ATTU_EXTRACT_TZ_HOUR, ATTU_EXTRACT_TZ_MINUTE
} attu_extract_field;

typedef struct attu_instr {
    uint16_t op;          /* attu_opcode */
    int16_t  dst;
    int16_t  a, b, c, d;  /* source registers, -1 = unused */
    int16_t  guard;       /* -1 = always */
    int16_t  aux;
    bool     imm_null;     /* CONST of NUMERIC: imm_i the scaled value, aux its
                              dscale (or imm_s the text, for wider values) */
    int64_t  imm_i;
    double   imm_f;
    int32_t  imm_s;       /* index into the program's string pool, -1 = none */
} attu_instr;

typedef struct attu_expr_program {
    int          ninputs;     /* registers 0..ninputs-1 */
    int          nregs;
    attu_type   *reg_types;   /* nregs */
    int          ninstr, cap_instr;
    attu_instr  *code;
    int          noutputs;
    int16_t     *outputs;     /* register of each output */
    int          nstrs;
    char       **strs;        /* string constants (NUL-terminated) */
    size_t      *str_lens;
    char         text[160];   /* for EXPLAIN: a short description */
} attu_expr_program;

attu_expr_program *attu_program_new(int ninputs, const attu_type *input_types);
void attu_program_free(attu_expr_program *p);

/* Registers a program may have (their numbers are int16_t). */
#define ATTU_PROGRAM_MAX_REGS 32000

/* Appends a register of type t and returns its number (-1 on OOM or past
 * ATTU_PROGRAM_MAX_REGS). */
int attu_program_reg(attu_expr_program *p, attu_type t);
/* Appends an instruction; returns 0 or -1 on OOM. */
int attu_program_emit(attu_expr_program *p, attu_instr in);
/* A blank instruction (all registers -1, no guard). */
attu_instr attu_instr_make(attu_opcode op, int dst, int a, int b);
/* Adds a string constant; returns its index. */
int attu_program_add_string(attu_expr_program *p, const char *s, size_t len);
int attu_program_add_output(attu_expr_program *p, int reg);

/* Register machine classes. INTERVAL is of the bytes class (its register
 * holds its 16-byte slot's address and length, so constants of it are a
 * string of the program's pool and fold as TEXT's do); its comparisons and
 * arithmetic have opcodes of their own. */
typedef enum attu_mclass { ATTU_MC_INT = 0, ATTU_MC_FLOAT, ATTU_MC_TEXT } attu_mclass;
static inline attu_mclass attu_type_mclass(attu_type_id t) {
    return (t == ATTU_TYPE_FLOAT32 || t == ATTU_TYPE_FLOAT64) ? ATTU_MC_FLOAT
         : (t == ATTU_TYPE_TEXT || t == ATTU_TYPE_INTERVAL) ? ATTU_MC_TEXT : ATTU_MC_INT;
}

/* Whether p computes a new value for each row whatever its inputs
 * (ATTU_OP_RANDOM, gen_random_uuid()): it is never evaluated once per
 * distinct input (executor_agg_pregroup.c). */
bool attu_program_is_volatile(const attu_expr_program *p);
/* Whether p draws from the session's random() generator: such a program
 * runs on one thread, row after row, so that the values after setseed are
 * the same each time (engine/random.h); the GPU declines its opcode. */
bool attu_program_uses_random(const attu_expr_program *p);

const char *attu_opcode_name(attu_opcode op);

/* A human-readable listing, one instruction a line (tests, EXPLAIN VERBOSE). */
size_t attu_program_dump(const attu_expr_program *p, char *buf, size_t cap);

/* ---- the row interpreter ------------------------------------------------
 * The reference semantics, shared by the CPU backend: a batch of `n` rows,
 * each register a vector of n slots. */
typedef struct attu_slot {
    union { int64_t i; double f; const char *s; } v;
    uint32_t len;      /* TEXT bytes */
    uint8_t  null;
} attu_slot;

typedef struct attu_interp attu_interp;

/* Batch capacity of an interpreter. */
#define ATTU_INTERP_BATCH 1024

attu_interp *attu_interp_new(const attu_expr_program *p);
/* An interpreter for batches of at most `rows` rows (capped at
 * ATTU_INTERP_BATCH). */
attu_interp *attu_interp_new_rows(const attu_expr_program *p, size_t rows);
void attu_interp_free(attu_interp *it);
/* The register vector to fill for input i (n slots) before running. */
attu_slot *attu_interp_input(attu_interp *it, int i);
/* Runs the program over n rows, at most the batch capacity. Text results point
 * into the interpreter's arena, valid until the next run. */
int attu_interp_run(attu_interp *it, size_t n, attu_error *err);
const attu_slot *attu_interp_reg(const attu_interp *it, int reg);
const attu_slot *attu_interp_output(const attu_interp *it, int out);

/* One-row helper for constant folding: inputs none, returns output 0. */
int attu_program_eval_const(const attu_expr_program *p, attu_slot *out,
                            char *textbuf, size_t textcap, attu_error *err);

/* Haversine distance in miles, exactly as the cities demo computes it. */
double attu_earth_distance(double lat_a, double lon_a, double lat_b, double lon_b);

#endif
