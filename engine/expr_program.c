/*
 * expr_program.c - building typed register programs and the reference
 * interpreter (see expr_program.h).
 *
 * The interpreter runs one instruction at a time over a whole batch of rows
 * (up to ATTU_INTERP_BATCH), so dispatch costs once per instruction and
 * batch, not per row. Each register is a vector of attu_slot. Text results
 * live in an arena of fixed blocks that never move, reset at every run.
 */
#include "engine/expr_program.h"
#include "engine/array.h"
#include "engine/range.h"
#include "engine/json.h"
#include "engine/uuid.h"
#include "engine/bytea.h"
#include "engine/timezone.h"
#include "engine/time_of_day.h"
#include "engine/datetime_make.h"
#include "engine/degree_trig.h"
#include "engine/interval.h"
#include "engine/math_functions.h"
#include "engine/md5.h"
#include "engine/numeric.h"
#include "engine/formatting_functions.h"
#include "engine/format_function.h"
#include "engine/random.h"
#include "engine/regexp_functions.h"
#include "engine/similar.h"
#include "engine/size_units.h"
#include "engine/unistr.h"
#include "engine/utf8.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>

/* ---- building ------------------------------------------------------------ */

attu_expr_program *attu_program_new(int ninputs, const attu_type *input_types) {
    attu_expr_program *p = calloc(1, sizeof *p);
    if (!p) return NULL;
    p->ninputs = ninputs;
    for (int i = 0; i < ninputs; i++)
        if (attu_program_reg(p, input_types[i]) < 0) { attu_program_free(p); return NULL; }
    return p;
}

void attu_program_free(attu_expr_program *p) {
    if (!p) return;
    free(p->reg_types);
    free(p->code);
    free(p->outputs);
    for (int i = 0; i < p->nstrs; i++) free(p->strs[i]);
    free(p->strs);
    free(p->str_lens);
    free(p);
}

int attu_program_reg(attu_expr_program *p, attu_type t) {
    if (p->nregs >= ATTU_PROGRAM_MAX_REGS) return -1;
    attu_type *nt = realloc(p->reg_types, sizeof *nt * (size_t)(p->nregs + 1));
    if (!nt) return -1;
    p->reg_types = nt;
    nt[p->nregs] = t;
    return p->nregs++;
}

int attu_program_emit(attu_expr_program *p, attu_instr in) {
    if (p->ninstr == p->cap_instr) {
        int nc = p->cap_instr ? p->cap_instr * 2 : 16;
        attu_instr *n = realloc(p->code, sizeof *n * (size_t)nc);
        if (!n) return -1;
        p->code = n;
        p->cap_instr = nc;
    }
    p->code[p->ninstr++] = in;
    return 0;
}

attu_instr attu_instr_make(attu_opcode op, int dst, int a, int b) {
    attu_instr in;
    memset(&in, 0, sizeof in);
    in.op = (uint16_t)op;
    in.dst = (int16_t)dst;
    in.a = (int16_t)a;
    in.b = (int16_t)b;
    in.c = in.d = -1;
    in.guard = -1;
    in.imm_s = -1;
    return in;
}

int attu_program_add_string(attu_expr_program *p, const char *s, size_t len) {
    char **ns = realloc(p->strs, sizeof *ns * (size_t)(p->nstrs + 1));
    if (!ns) return -1;
    p->strs = ns;
    size_t *nl = realloc(p->str_lens, sizeof *nl * (size_t)(p->nstrs + 1));
    if (!nl) return -1;
    p->str_lens = nl;
    char *c = malloc(len + 1);
    if (!c) return -1;
    memcpy(c, s, len);
    c[len] = 0;
    ns[p->nstrs] = c;
    nl[p->nstrs] = len;
    return p->nstrs++;
}

int attu_program_add_output(attu_expr_program *p, int reg) {
    int16_t *no = realloc(p->outputs, sizeof *no * (size_t)(p->noutputs + 1));
    if (!no) return -1;
    p->outputs = no;
    no[p->noutputs] = (int16_t)reg;
    return p->noutputs++;
}

static const char *const op_names[ATTU_OP_COUNT_] = {
    [ATTU_OP_CONST] = "const", [ATTU_OP_MOVE] = "move",
    [ATTU_OP_ADD_I] = "add_i", [ATTU_OP_SUB_I] = "sub_i", [ATTU_OP_MUL_I] = "mul_i",
    [ATTU_OP_DIV_I] = "div_i", [ATTU_OP_MOD_I] = "mod_i", [ATTU_OP_NEG_I] = "neg_i",
    [ATTU_OP_ADD_F] = "add_f", [ATTU_OP_SUB_F] = "sub_f", [ATTU_OP_MUL_F] = "mul_f",
    [ATTU_OP_DIV_F] = "div_f", [ATTU_OP_MOD_F] = "mod_f", [ATTU_OP_NEG_F] = "neg_f",
    [ATTU_OP_ADD_D] = "add_d", [ATTU_OP_SUB_D] = "sub_d", [ATTU_OP_MUL_D] = "mul_d",
    [ATTU_OP_DIV_D] = "div_d", [ATTU_OP_MOD_D] = "mod_d", [ATTU_OP_NEG_D] = "neg_d",
    [ATTU_OP_EQ_I] = "eq_i", [ATTU_OP_NE_I] = "ne_i", [ATTU_OP_LT_I] = "lt_i",
    [ATTU_OP_LE_I] = "le_i", [ATTU_OP_GT_I] = "gt_i", [ATTU_OP_GE_I] = "ge_i",
    [ATTU_OP_EQ_F] = "eq_f", [ATTU_OP_NE_F] = "ne_f", [ATTU_OP_LT_F] = "lt_f",
    [ATTU_OP_LE_F] = "le_f", [ATTU_OP_GT_F] = "gt_f", [ATTU_OP_GE_F] = "ge_f",
    [ATTU_OP_EQ_S] = "eq_s", [ATTU_OP_NE_S] = "ne_s", [ATTU_OP_LT_S] = "lt_s",
    [ATTU_OP_LE_S] = "le_s", [ATTU_OP_GT_S] = "gt_s", [ATTU_OP_GE_S] = "ge_s",
    [ATTU_OP_AND] = "and", [ATTU_OP_OR] = "or", [ATTU_OP_NOT] = "not",
    [ATTU_OP_IS_NULL] = "is_null", [ATTU_OP_IS_NOT_NULL] = "is_not_null",
    [ATTU_OP_IS_TRUE] = "is_true", [ATTU_OP_IS_FALSE] = "is_false",
    [ATTU_OP_COALESCE] = "coalesce", [ATTU_OP_SELECT] = "select",
    [ATTU_OP_NULLIF_I] = "nullif_i", [ATTU_OP_NULLIF_F] = "nullif_f",
    [ATTU_OP_NULLIF_S] = "nullif_s",
    [ATTU_OP_CAST_I_I] = "cast_i_i", [ATTU_OP_CAST_I_F] = "cast_i_f",
    [ATTU_OP_CAST_F_I] = "cast_f_i", [ATTU_OP_CAST_I_D] = "cast_i_d",
    [ATTU_OP_CAST_D_I] = "cast_d_i", [ATTU_OP_CAST_D_F] = "cast_d_f",
    [ATTU_OP_CAST_F_D] = "cast_f_d", [ATTU_OP_CAST_D_D] = "cast_d_d",
    [ATTU_OP_CAST_F_F] = "cast_f_f", [ATTU_OP_CAST_S_X] = "cast_s_x",
    [ATTU_OP_CAST_X_S] = "cast_x_s", [ATTU_OP_CAST_DATE_TS] = "cast_date_ts",
    [ATTU_OP_CAST_TS_DATE] = "cast_ts_date", [ATTU_OP_CAST_BOOL_S] = "cast_bool_s",
    [ATTU_OP_ABS_I] = "abs_i", [ATTU_OP_ABS_F] = "abs_f", [ATTU_OP_ABS_D] = "abs_d",
    [ATTU_OP_ROUND_F] = "round_f", [ATTU_OP_ROUND_D] = "round_d",
    [ATTU_OP_FLOOR_F] = "floor_f", [ATTU_OP_CEIL_F] = "ceil_f",
    [ATTU_OP_FLOOR_D] = "floor_d", [ATTU_OP_CEIL_D] = "ceil_d",
    [ATTU_OP_TRUNC_F] = "trunc_f",
    [ATTU_OP_SQRT] = "sqrt", [ATTU_OP_POWER] = "power", [ATTU_OP_LN] = "ln",
    [ATTU_OP_LOG10] = "log10", [ATTU_OP_EXP] = "exp", [ATTU_OP_SIN] = "sin",
    [ATTU_OP_COS] = "cos", [ATTU_OP_TAN] = "tan", [ATTU_OP_ASIN] = "asin",
    [ATTU_OP_ACOS] = "acos", [ATTU_OP_ATAN] = "atan", [ATTU_OP_ATAN2] = "atan2",
    [ATTU_OP_RADIANS] = "radians", [ATTU_OP_DEGREES] = "degrees", [ATTU_OP_PI] = "pi",
    [ATTU_OP_SIGN_F] = "sign_f", [ATTU_OP_EARTH_DISTANCE] = "earth_distance",
    [ATTU_OP_LOWER] = "lower", [ATTU_OP_UPPER] = "upper", [ATTU_OP_LENGTH] = "length",
    [ATTU_OP_OCTET_LENGTH] = "octet_length", [ATTU_OP_SUBSTR] = "substr",
    [ATTU_OP_TRIM] = "btrim", [ATTU_OP_LTRIM] = "ltrim", [ATTU_OP_RTRIM] = "rtrim",
    [ATTU_OP_CONCAT] = "concat", [ATTU_OP_LIKE] = "like", [ATTU_OP_ILIKE] = "ilike",
    [ATTU_OP_STRPOS] = "strpos", [ATTU_OP_REPLACE] = "replace", [ATTU_OP_LEFT] = "left",
    [ATTU_OP_RIGHT] = "right", [ATTU_OP_DATE_ADD] = "date_add",
    [ATTU_OP_DATE_SUB] = "date_sub", [ATTU_OP_DATE_DIFF] = "date_diff",
    [ATTU_OP_EXTRACT] = "extract", [ATTU_OP_REVERSE] = "reverse", [ATTU_OP_REPEAT] = "repeat",
    [ATTU_OP_LPAD] = "lpad", [ATTU_OP_RPAD] = "rpad", [ATTU_OP_SPLIT_PART] = "split_part",
    [ATTU_OP_INITCAP] = "initcap", [ATTU_OP_STARTS_WITH] = "starts_with", [ATTU_OP_CBRT] = "cbrt",
    [ATTU_OP_TRUNC_D] = "trunc_d", [ATTU_OP_DATE_TRUNC] = "date_trunc",
    [ATTU_OP_CHAR_LIMIT] = "char_limit",
    [ATTU_OP_ADD_N] = "add_n", [ATTU_OP_SUB_N] = "sub_n", [ATTU_OP_MUL_N] = "mul_n",
    [ATTU_OP_DIV_N] = "div_n", [ATTU_OP_MOD_N] = "mod_n", [ATTU_OP_NEG_N] = "neg_n",
    [ATTU_OP_ABS_N] = "abs_n",
    [ATTU_OP_EQ_N] = "eq_n", [ATTU_OP_NE_N] = "ne_n", [ATTU_OP_LT_N] = "lt_n",
    [ATTU_OP_LE_N] = "le_n", [ATTU_OP_GT_N] = "gt_n", [ATTU_OP_GE_N] = "ge_n",
    [ATTU_OP_NULLIF_N] = "nullif_n",
    [ATTU_OP_CAST_I_N] = "cast_i_n", [ATTU_OP_CAST_D_N] = "cast_d_n",
    [ATTU_OP_CAST_F_N] = "cast_f_n", [ATTU_OP_CAST_N_I] = "cast_n_i",
    [ATTU_OP_CAST_N_D] = "cast_n_d", [ATTU_OP_CAST_N_F] = "cast_n_f",
    [ATTU_OP_ROUND_N] = "round_n", [ATTU_OP_TRUNC_N] = "trunc_n",
    [ATTU_OP_FLOOR_N] = "floor_n", [ATTU_OP_CEIL_N] = "ceil_n",
    [ATTU_OP_POWER_N] = "power_n", [ATTU_OP_LOG_N] = "log_n", [ATTU_OP_SQRT_AT_N] = "sqrt_at_n",
    [ATTU_OP_SQRT_N] = "sqrt_n", [ATTU_OP_LN_N] = "ln_n", [ATTU_OP_LOG10_N] = "log10_n",
    [ATTU_OP_EXP_N] = "exp_n", [ATTU_OP_SIGN_N] = "sign_n", [ATTU_OP_DIV_TRUNC_N] = "div_trunc_n",
    [ATTU_OP_ADD_IV] = "add_iv", [ATTU_OP_SUB_IV] = "sub_iv", [ATTU_OP_NEG_IV] = "neg_iv",
    [ATTU_OP_MUL_IV] = "mul_iv", [ATTU_OP_DIV_IV] = "div_iv", [ATTU_OP_EQ_IV] = "eq_iv",
    [ATTU_OP_NE_IV] = "ne_iv", [ATTU_OP_LT_IV] = "lt_iv", [ATTU_OP_LE_IV] = "le_iv",
    [ATTU_OP_GT_IV] = "gt_iv", [ATTU_OP_GE_IV] = "ge_iv", [ATTU_OP_NULLIF_IV] = "nullif_iv",
    [ATTU_OP_TZ_TO_LOCAL] = "tz_to_local", [ATTU_OP_TZ_FROM_LOCAL] = "tz_from_local",
    [ATTU_OP_TZ_OFFSET] = "tz_offset", [ATTU_OP_TZ_ADD_IV] = "tz_add_iv", [ATTU_OP_TZ_SUB_IV] = "tz_sub_iv",
    [ATTU_OP_TZ_TRUNC] = "tz_trunc",
    [ATTU_OP_TIME_OF_TS] = "time_of_ts", [ATTU_OP_TIME_OF_IV] = "time_of_iv", [ATTU_OP_IV_OF_TIME] = "iv_of_time",
    [ATTU_OP_TIME_ADD_IV] = "time_add_iv", [ATTU_OP_TIME_SUB_IV] = "time_sub_iv", [ATTU_OP_TIME_DIFF] = "time_diff",
    [ATTU_OP_DATE_TIME] = "date_time", [ATTU_OP_MAKE_TIME] = "make_time",
    [ATTU_OP_TIMETZ_OF_TIME] = "timetz_of_time", [ATTU_OP_TIMETZ_OF_TSTZ] = "timetz_of_tstz",
    [ATTU_OP_TIME_OF_TIMETZ] = "time_of_timetz", [ATTU_OP_TIMETZ_ADD_IV] = "timetz_add_iv",
    [ATTU_OP_TIMETZ_SUB_IV] = "timetz_sub_iv", [ATTU_OP_DATE_TIMETZ] = "date_timetz",
    [ATTU_OP_TIMETZ_AT_ZONE] = "timetz_at_zone",
    [ATTU_OP_ARRAY] = "array", [ATTU_OP_JSON] = "json", [ATTU_OP_UUID] = "uuid", [ATTU_OP_BYTEA] = "bytea",
    [ATTU_OP_FORMAT] = "format",
    [ATTU_OP_TS_ADD_IV] = "ts_add_iv", [ATTU_OP_TS_SUB_IV] = "ts_sub_iv", [ATTU_OP_TS_DIFF] = "ts_diff",
    [ATTU_OP_AGE] = "age", [ATTU_OP_JUSTIFY] = "justify", [ATTU_OP_EXTRACT_IV] = "extract_iv",
    [ATTU_OP_TRUNC_IV] = "trunc_iv", [ATTU_OP_QUALIFY_IV] = "qualify_iv",
    [ATTU_OP_MAKE_INTERVAL] = "make_interval",
    [ATTU_OP_SUBQUERY_ONE] = "subquery_one", [ATTU_OP_SUBQUERY_ERROR] = "subquery_error",
    [ATTU_OP_TO_CHAR_TS] = "to_char_ts", [ATTU_OP_TO_CHAR_NUM] = "to_char_num",
    [ATTU_OP_TO_DATE] = "to_date", [ATTU_OP_TO_NUMBER] = "to_number",
    [ATTU_OP_TO_TIMESTAMP] = "to_timestamp", [ATTU_OP_TZ_FROM_EPOCH] = "tz_from_epoch",
    [ATTU_OP_SIMILAR] = "similar",
    [ATTU_OP_MD5] = "md5", [ATTU_OP_TRANSLATE] = "translate", [ATTU_OP_ASCII] = "ascii",
    [ATTU_OP_CHR] = "chr", [ATTU_OP_TO_HEX] = "to_hex", [ATTU_OP_OVERLAY] = "overlay",
    [ATTU_OP_MAKE_DATE] = "make_date", [ATTU_OP_MAKE_TIMESTAMP] = "make_timestamp",
    [ATTU_OP_BIT_LENGTH] = "bit_length", [ATTU_OP_REGEX] = "regex",
    [ATTU_OP_REGEXP_FLAGS] = "regexp_flags", [ATTU_OP_REGEXP_REPLACE] = "regexp_replace",
    [ATTU_OP_REGEXP_COUNT] = "regexp_count", [ATTU_OP_REGEXP_INSTR] = "regexp_instr",
    [ATTU_OP_REGEXP_LIKE] = "regexp_like", [ATTU_OP_REGEXP_SUBSTR] = "regexp_substr",
    [ATTU_OP_REGEXP_SUBSTRING] = "regexp_substring", [ATTU_OP_REGEXP_MATCH] = "regexp_match",
    [ATTU_OP_REGEXP_SPLIT] = "regexp_split", [ATTU_OP_SIMILAR_SUBSTRING] = "similar_substring",
    [ATTU_OP_BITAND_I] = "bitand_i", [ATTU_OP_BITOR_I] = "bitor_i", [ATTU_OP_BITXOR_I] = "bitxor_i",
    [ATTU_OP_BITNOT_I] = "bitnot_i", [ATTU_OP_SHL_I] = "shl_i", [ATTU_OP_SHR_I] = "shr_i",
    [ATTU_OP_DATE_BIN] = "date_bin", [ATTU_OP_SINH] = "sinh", [ATTU_OP_COSH] = "cosh", [ATTU_OP_TANH] = "tanh",
    [ATTU_OP_ASINH] = "asinh", [ATTU_OP_ACOSH] = "acosh", [ATTU_OP_ATANH] = "atanh",
    [ATTU_OP_SIND] = "sind", [ATTU_OP_COSD] = "cosd", [ATTU_OP_TAND] = "tand", [ATTU_OP_COTD] = "cotd",
    [ATTU_OP_ASIND] = "asind", [ATTU_OP_ACOSD] = "acosd", [ATTU_OP_ATAND] = "atand", [ATTU_OP_ATAN2D] = "atan2d",
    [ATTU_OP_COT] = "cot", [ATTU_OP_PG_SIZE_BYTES] = "pg_size_bytes",
    [ATTU_OP_PG_SIZE_PRETTY_I] = "pg_size_pretty_i", [ATTU_OP_PG_SIZE_PRETTY_N] = "pg_size_pretty_n",
    [ATTU_OP_UNISTR] = "unistr", [ATTU_OP_SCALE_N] = "scale_n", [ATTU_OP_MIN_SCALE_N] = "min_scale_n", [ATTU_OP_TRIM_SCALE_N] = "trim_scale_n",
    [ATTU_OP_GCD_I] = "gcd_i", [ATTU_OP_LCM_I] = "lcm_i", [ATTU_OP_GCD_N] = "gcd_n", [ATTU_OP_LCM_N] = "lcm_n",
    [ATTU_OP_FACTORIAL] = "factorial", [ATTU_OP_WIDTH_BUCKET_F] = "width_bucket_f",
    [ATTU_OP_WIDTH_BUCKET_N] = "width_bucket_n", [ATTU_OP_RANDOM] = "random",
    [ATTU_OP_RANGE] = "range",
};

const char *attu_opcode_name(attu_opcode op) {
    return (op < ATTU_OP_COUNT_ && op_names[op]) ? op_names[op] : "?";
}

bool attu_program_is_volatile(const attu_expr_program *p) {
    for (int i = 0; p && i < p->ninstr; i++)
        if (p->code[i].op == ATTU_OP_RANDOM || (p->code[i].op == ATTU_OP_UUID && p->code[i].aux == ATTU_UUID_RANDOM))
            return true;
    return false;
}

bool attu_program_uses_random(const attu_expr_program *p) {
    for (int i = 0; p && i < p->ninstr; i++)
        if (p->code[i].op == ATTU_OP_RANDOM) return true;
    return false;
}

size_t attu_program_dump(const attu_expr_program *p, char *buf, size_t cap) {
    size_t used = 0;
#define OUT(...) do { int k_ = snprintf(buf + (used < cap ? used : cap), used < cap ? cap - used : 0, __VA_ARGS__); if (k_ > 0) used += (size_t)k_; } while (0)
    if (cap) buf[0] = 0;
    for (int i = 0; i < p->ninstr; i++) {
        const attu_instr *in = &p->code[i];
        OUT("r%d = %s", in->dst, attu_opcode_name((attu_opcode)in->op));
        if (in->op == ATTU_OP_CONST) {
            if (in->imm_null) OUT(" null");
            else if (in->imm_s >= 0 && p->reg_types[in->dst].id == ATTU_TYPE_INTERVAL && p->str_lens[in->imm_s] == 16) {
                /* an interval constant's pool string is its slot */
                attu_interval iv;
                char tb[96];
                memcpy(&iv, p->strs[in->imm_s], sizeof iv);
                attu_interval_format(iv, tb, sizeof tb);
                OUT(" interval '%s'", tb);
            } else if (in->imm_s >= 0) OUT(" '%s'", p->strs[in->imm_s]);
            else if (attu_type_mclass(p->reg_types[in->dst].id) == ATTU_MC_FLOAT) OUT(" %g", in->imm_f);
            else OUT(" %lld", (long long)in->imm_i);
        }
        const int16_t srcs[4] = { in->a, in->b, in->c, in->d };
        for (int k = 0; k < 4; k++) if (srcs[k] >= 0) OUT(" r%d", srcs[k]);
        if (in->guard >= 0) OUT(" if r%d", in->guard);
        OUT("\n");
    }
    for (int i = 0; i < p->noutputs; i++) OUT("out%d = r%d\n", i, p->outputs[i]);
#undef OUT
    return used;
}

/* attu_earth_distance given cos(lat_a in radians): the rows of a batch
 * that share a left latitude (a join-aggregate's segment) compute it once;
 * the same bits either way. */
static double earth_distance_cos(double lat_a, double lon_a, double lat_b, double lon_b, double cos_lat_a) {
    const double rad = M_PI / 180.0;
    lat_a *= rad; lat_b *= rad; lon_a *= rad; lon_b *= rad;
    const double earth_radius = 3958.76;   /* miles, as the cities demo */
    double s1 = sin((lat_b - lat_a) / 2), s2 = sin((lon_b - lon_a) / 2);
    double arg = s1 * s1 + cos_lat_a * cos(lat_b) * s2 * s2;
    if (arg > 1) arg = 1;
    return 2 * asin(sqrt(arg)) * earth_radius;
}

double attu_earth_distance(double lat_a, double lon_a, double lat_b, double lon_b) {
    return earth_distance_cos(lat_a, lon_a, lat_b, lon_b, cos(lat_a * (M_PI / 180.0)));
}

/* ---- the interpreter ----------------------------------------------------- */

#define ARENA_BLOCK (64 * 1024)

typedef struct arena_block { struct arena_block *next; size_t used, cap; char data[]; } arena_block;

struct attu_interp {
    const attu_expr_program *p;
    attu_slot  *regs;           /* nregs * rows */
    size_t      rows;           /* batch capacity: the stride between registers */
    arena_block *blocks;        /* current first */
    arena_block *spare;
};

attu_interp *attu_interp_new(const attu_expr_program *p) {
    return attu_interp_new_rows(p, ATTU_INTERP_BATCH);
}

/* A full batch of registers is nregs * 1024 slots (hundreds of KB, which
 * malloc maps fresh and the first run faults in): a call over a few rows
 * (a final projection of 52) sizes the batch to them. */
attu_interp *attu_interp_new_rows(const attu_expr_program *p, size_t rows) {
    attu_interp *it = calloc(1, sizeof *it);
    if (!it) return NULL;
    it->p = p;
    it->rows = rows < 1 ? 1 : rows > ATTU_INTERP_BATCH ? ATTU_INTERP_BATCH : rows;
    it->regs = calloc((size_t)(p->nregs ? p->nregs : 1) * it->rows, sizeof(attu_slot));
    if (!it->regs) { free(it); return NULL; }
    return it;
}

static void free_blocks(arena_block *b) {
    while (b) { arena_block *n = b->next; free(b); b = n; }
}

void attu_interp_free(attu_interp *it) {
    if (!it) return;
    free(it->regs);
    free_blocks(it->blocks);
    free_blocks(it->spare);
    free(it);
}

attu_slot *attu_interp_input(attu_interp *it, int i) {
    return it->regs + (size_t)i * it->rows;
}
const attu_slot *attu_interp_reg(const attu_interp *it, int reg) {
    return it->regs + (size_t)reg * it->rows;
}
const attu_slot *attu_interp_output(const attu_interp *it, int out) {
    return attu_interp_reg(it, it->p->outputs[out]);
}

static void arena_reset(attu_interp *it) {
    while (it->blocks) {
        arena_block *b = it->blocks;
        it->blocks = b->next;
        if (b->cap == ARENA_BLOCK) { b->used = 0; b->next = it->spare; it->spare = b; }
        else free(b);
    }
}

static char *arena_alloc(attu_interp *it, size_t n) {
    arena_block *b = it->blocks;
    if (b && b->cap - b->used >= n) { char *r = b->data + b->used; b->used += n; return r; }
    if (n <= ARENA_BLOCK && it->spare) { b = it->spare; it->spare = b->next; }
    else {
        size_t cap = n > ARENA_BLOCK ? n : ARENA_BLOCK;
        b = malloc(sizeof *b + cap);
        if (!b) return NULL;
        b->cap = cap;
    }
    b->used = n;
    b->next = it->blocks;
    it->blocks = b;
    return b->data;
}

/* arena_alloc for engine/regexp_functions.c's results */
static char *regexp_alloc(void *ctx, size_t n) { return arena_alloc(ctx, n); }

static int range_check(attu_type t, int64_t v, attu_error *err) {
    switch (t.id) {
    case ATTU_TYPE_INT16:
        if (v < INT16_MIN || v > INT16_MAX)
            return attu_error_set(err, ATTU_SQLSTATE_NUMERIC_RANGE, 0, "smallint out of range");
        return 0;
    case ATTU_TYPE_INT32:
        if (v < INT32_MIN || v > INT32_MAX)
            return attu_error_set(err, ATTU_SQLSTATE_NUMERIC_RANGE, 0, "integer out of range");
        return 0;
    case ATTU_TYPE_DECIMAL: {
        int64_t lim = 1;
        for (int i = 0; i < t.precision && i < 18; i++) lim *= 10;
        if (t.precision > 0 && (v >= lim || v <= -lim))
            return attu_numeric_field_overflow(t.precision, t.scale, err);   /* (with PostgreSQL's DETAIL) */
        return 0;
    }
    case ATTU_TYPE_DATE:
        /* PostgreSQL's dates, in days from 1970-01-01:
         * 4714-11-24 BC .. 5874897-12-31 (the infinities lie outside). */
        if (v < ATTU_DATE_MIN_DAYS || v > ATTU_DATE_MAX_DAYS)
            return attu_error_set(err, ATTU_SQLSTATE_DATETIME_OVERFLOW, 0, "date out of range");
        return 0;
    case ATTU_TYPE_TIMESTAMP: case ATTU_TYPE_TIMESTAMPTZ:
        /* From 4714-11-24 BC to the int64 end (INT64_MAX is infinity). */
        if (v < (int64_t)ATTU_DATE_MIN_DAYS * 86400000000LL || v == INT64_MAX)
            return attu_error_set(err, ATTU_SQLSTATE_DATETIME_OVERFLOW, 0, "timestamp out of range");
        return 0;
    default:
        return 0;
    }
}

static int int_overflow(attu_type t, attu_error *err) {
    if (t.id == ATTU_TYPE_INT16)
        return attu_error_set(err, ATTU_SQLSTATE_NUMERIC_RANGE, 0, "smallint out of range");
    if (t.id == ATTU_TYPE_INT32 || t.id == ATTU_TYPE_BOOL)
        return attu_error_set(err, ATTU_SQLSTATE_NUMERIC_RANGE, 0, "integer out of range");
    if (t.id == ATTU_TYPE_DECIMAL)
        return t.precision > 0 ? attu_numeric_field_overflow(t.precision, t.scale, err)
                               : attu_error_set(err, ATTU_SQLSTATE_NUMERIC_RANGE, 0, "numeric field overflow");
    return attu_error_set(err, ATTU_SQLSTATE_NUMERIC_RANGE, 0, "bigint out of range");
}

static const int64_t pow10_tab[19] = {
    1LL, 10LL, 100LL, 1000LL, 10000LL, 100000LL, 1000000LL, 10000000LL,
    100000000LL, 1000000000LL, 10000000000LL, 100000000000LL,
    1000000000000LL, 10000000000000LL, 100000000000000LL,
    1000000000000000LL, 10000000000000000LL, 100000000000000000LL,
    1000000000000000000LL };

/* A DECIMAL x / 10^scale as the nearest double (or float when f32), as
 * PostgreSQL's numeric_float8 / numeric_float4 read the digits: one IEEE
 * division is exact-then-rounded only while x fits 53 bits (and never for
 * a float: the double would round twice), else through the digits' text
 * (-0.21915551492300978::float8 was one double off). */
static double decimal_to_float(int64_t x, int scale, bool f32) {
    if (!f32 && x >= -(INT64_C(1) << 53) && x <= (INT64_C(1) << 53))
        return (double)x / (double)pow10_tab[scale];
    char buf[64];
    attu_numeric_format(attu_numeric_from_decimal(x, scale), buf, (int)sizeof buf);
    return f32 ? (double)strtof(buf, NULL) : strtod(buf, NULL);
}

/* *v *= 10^k for 0 <= k <= 36 (a quotient's shift can reach 18 + 18);
 * returns -1 when the product leaves the 128-bit range. */
static int mul_pow10_128(__int128 *v, int k) {
    while (k > 0) {
        int step = k > 18 ? 18 : k;
        if (__builtin_mul_overflow(*v, (__int128)pow10_tab[step], v)) return -1;
        k -= step;
    }
    return 0;
}

/* Rescales a decimal from scale `from` to `to`, rounding half away from zero. */
static int rescale(__int128 v, int from, int to, int64_t *out) {
    if (to >= from) {
        __int128 r = v * (__int128)pow10_tab[to - from];
        if (r > INT64_MAX || r < INT64_MIN) return -1;
        *out = (int64_t)r;
        return 0;
    }
    int64_t d = pow10_tab[from - to];
    __int128 q = v / d, rem = v % d;
    if (rem < 0) rem = -rem;
    if (rem * 2 >= d) q += v < 0 ? -1 : 1;
    if (q > INT64_MAX || q < INT64_MIN) return -1;
    *out = (int64_t)q;
    return 0;
}

/* Byte offset of the ch-th character (0-based), clamped to n. */
static size_t utf8_off(const char *s, size_t n, int64_t ch) {
    size_t i = 0;
    if (ch <= 0) return 0;
    while (i < n && ch > 0) {
        i++;
        while (i < n && ((unsigned char)s[i] & 0xC0) == 0x80) i++;
        ch--;
    }
    return i;
}

/* A finite real (f, a float widened to double) as NUMERIC with FLT_DIG (6)
 * significant digits, as PostgreSQL's float4_numeric: 666.7::real is
 * 666.7, not the double 666.700012207031. */
static int float4_to_numeric(double f, attu_numeric *r, attu_error *err) {
    char buf[32];
    int l = snprintf(buf, sizeof buf, "%.6g", f);
    return attu_numeric_parse(buf, (size_t)l, r, err);
}

/* Bytes of the UTF-8 character at s (n > 0 bytes left): its lead byte's
 * count, clamped to n (values are valid UTF-8; the clamp only keeps a
 * damaged one from reading past its end). */
static size_t utf8_char_bytes(const char *s, size_t n) {
    unsigned char u = (unsigned char)s[0];
    size_t l = u < 0x80 ? 1 : u >= 0xf0 ? 4 : u >= 0xe0 ? 3 : u >= 0xc0 ? 2 : 1;
    return l < n ? l : n;
}

/* The code point of the UTF-8 character at s, l = utf8_char_bytes bytes. */
static uint32_t utf8_code_point(const char *s, size_t l) {
    const unsigned char *u = (const unsigned char *)s;
    if (l == 1) return u[0];
    uint32_t v = u[0] & (0x7fu >> l);
    for (size_t k = 1; k < l; k++) v = (v << 6) | (u[k] & 0x3fu);
    return v;
}

/* translate(s, from, to) into m (room for 4 bytes per character of s):
 * each character of s found in from (its first occurrence there, at
 * character k) becomes the k-th character of to, or is dropped when to is
 * shorter; the others are copied. Returns the bytes written. */
static size_t translate_text(const attu_slot *s, const attu_slot *from, const attu_slot *to, char *m) {
    size_t w = 0;
    for (size_t i = 0; i < s->len;) {
        size_t cl = utf8_char_bytes(s->v.s + i, s->len - i);
        int64_t k = -1, idx = 0;
        for (size_t j = 0; j < from->len; idx++) {
            size_t fl = utf8_char_bytes(from->v.s + j, from->len - j);
            if (fl == cl && !memcmp(from->v.s + j, s->v.s + i, cl)) { k = idx; break; }
            j += fl;
        }
        if (k < 0) { memcpy(m + w, s->v.s + i, cl); w += cl; }
        else {
            size_t b0 = utf8_off(to->v.s, to->len, k);
            if (b0 < to->len) {
                size_t tl = utf8_char_bytes(to->v.s + b0, to->len - b0);
                memcpy(m + w, to->v.s + b0, tl);
                w += tl;
            }
        }
        i += cl;
    }
    return w;
}

static int scmp(const attu_slot *a, const attu_slot *b) {
    size_t n = a->len < b->len ? a->len : b->len;
    int c = n ? memcmp(a->v.s, b->v.s, n) : 0;
    if (c) return c;
    return a->len < b->len ? -1 : a->len > b->len;
}

static int fcmp(double a, double b) {   /* NaN sorts above everything, as PG */
    if (isnan(a)) return isnan(b) ? 0 : 1;
    if (isnan(b)) return -1;
    return a < b ? -1 : a > b;
}

/* LIKE with '%', '_' and backslash escapes, over bytes (UTF-8 aware for _).
 * *bad is set where the match reaches a backslash that ends the pattern
 * with text left to match: PostgreSQL's 22025 (its MatchText raises it
 * there, and only there: 'ab' LIKE 'ab\' is false). */
static bool like_match(const char *s, size_t sn, const char *p, size_t pn, bool ci, bool *bad) {
    size_t si = 0, pi = 0, star_p = (size_t)-1, star_s = 0;
    while (si < sn) {
        if (pi + 1 == pn && p[pi] == '\\') { *bad = true; return false; }
        if (pi < pn && p[pi] == '%') { star_p = ++pi; star_s = si; continue; }
        if (pi < pn) {
            if (p[pi] == '_') {
                pi++;
                si++;
                while (si < sn && ((unsigned char)s[si] & 0xC0) == 0x80) si++;
                continue;
            }
            char pc = p[pi];
            size_t adv = 1;
            if (pc == '\\' && pi + 1 < pn) { pc = p[pi + 1]; adv = 2; }
            char sc = s[si];
            if (ci) { pc = (char)tolower((unsigned char)pc); sc = (char)tolower((unsigned char)sc); }
            if (pc == sc) { pi += adv; si++; continue; }
        }
        if (star_p != (size_t)-1) {
            pi = star_p;
            si = ++star_s;
            continue;
        }
        return false;
    }
    while (pi < pn && p[pi] == '%') pi++;
    return pi == pn;
}

static int extract_field(int field, bool ts, int64_t v, attu_type dt, int64_t *out) {
    int64_t days = ts ? (v >= 0 ? v / 86400000000LL : -((-v + 86400000000LL - 1) / 86400000000LL)) : v;
    int64_t usec = ts ? v - days * 86400000000LL : 0;
    int y, m, d;
    attu_date_to_ymd((int32_t)days, &y, &m, &d);
    int scale = dt.id == ATTU_TYPE_DECIMAL ? dt.scale : 0;
    int64_t r;
    /* y counts astronomically (0 = 1 BC); PostgreSQL's fields count
     * years BC as -1, -2... (timestamp_part_common) */
    switch (field) {
    case ATTU_EXTRACT_YEAR: r = y > 0 ? y : y - 1; break;
    case ATTU_TRUNC_DECADE: r = y >= 0 ? y / 10 : -((8 - (y - 1)) / 10); break;
    case ATTU_TRUNC_CENTURY: r = y > 0 ? (y + 99) / 100 : -((99 - (y - 1)) / 100); break;
    case ATTU_TRUNC_MILLENNIUM: r = y > 0 ? (y + 999) / 1000 : -((999 - (y - 1)) / 1000); break;
    case ATTU_EXTRACT_ISODOW: r = ((days % 7) + 7 + 3) % 7 + 1; break;   /* Monday 1 .. Sunday 7 */
    case ATTU_EXTRACT_JULIAN:
        /* days since 4714-11-24 BC, with the fraction of the day */
        r = days + 2440588;
        *out = r * pow10_tab[scale] + (int64_t)(((__int128)usec * pow10_tab[scale] + 43200000000LL) / 86400000000LL);
        return 0;
    case ATTU_TRUNC_MILLISECONDS:   /* seconds and fraction, in milliseconds */
        r = usec % 60000000LL;
        *out = scale >= 3 ? r * pow10_tab[scale - 3] : r / pow10_tab[3 - scale];
        return 0;
    case ATTU_TRUNC_MICROSECONDS: r = usec % 60000000LL; break;
    case ATTU_EXTRACT_MONTH: r = m; break;
    case ATTU_EXTRACT_DAY: r = d; break;
    case ATTU_EXTRACT_QUARTER: r = (m - 1) / 3 + 1; break;
    case ATTU_EXTRACT_HOUR: r = usec / 3600000000LL; break;
    case ATTU_EXTRACT_MINUTE: r = usec / 60000000LL % 60; break;
    case ATTU_EXTRACT_SECOND:
        r = usec % 60000000LL;   /* microseconds */
        *out = scale >= 6 ? r * pow10_tab[scale - 6] : r / pow10_tab[6 - scale];
        return 0;
    case ATTU_EXTRACT_DOW: r = ((days % 7) + 7 + 4) % 7; break;   /* 1970-01-01 was Thursday */
    case ATTU_EXTRACT_DOY: r = days - attu_date_from_ymd(y, 1, 1) + 1; break;
    case ATTU_EXTRACT_EPOCH:
        if (ts) { *out = scale >= 6 ? v * pow10_tab[scale - 6] : v / pow10_tab[6 - scale]; return 0; }
        r = days * 86400; break;
    case ATTU_EXTRACT_WEEK: case ATTU_EXTRACT_ISOYEAR: {
        /* ISO week: Thursday of this week decides the year. */
        int64_t dow = ((days % 7) + 7 + 3) % 7;          /* Monday = 0 */
        int64_t thu = days - dow + 3;
        int ty, tm, td;
        attu_date_to_ymd((int32_t)thu, &ty, &tm, &td);
        if (field == ATTU_EXTRACT_ISOYEAR) r = ty > 0 ? ty : ty - 1;
        else r = (thu - attu_date_from_ymd(ty, 1, 1)) / 7 + 1;
        break;
    }
    default: return -1;
    }
    *out = r * pow10_tab[scale];
    return 0;
}

/* date_trunc(field, timestamp): floors the microsecond timestamp v to the
 * start of its field, as PostgreSQL's timestamp_trunc (weeks start on
 * Monday; decades, centuries and millennia as PostgreSQL counts them).
 * Infinities pass through. Returns -1 for an unknown field. */
static int trunc_timestamp(int field, int64_t v, int64_t *out) {
    const int64_t DAY = 86400000000LL;
    if (v == INT64_MAX || v == INT64_MIN) { *out = v; return 0; }
    int64_t days = v >= 0 ? v / DAY : -((-v + DAY - 1) / DAY);
    int64_t usec = v - days * DAY;
    int y, m, d;
    attu_date_to_ymd((int32_t)days, &y, &m, &d);
    int64_t unit = 0;
    switch (field) {
    case ATTU_TRUNC_MILLENNIUM: y = y > 0 ? (y + 999) / 1000 * 1000 - 999 : -((999 - (y - 1)) / 1000 * 1000) + 1; m = d = 1; break;
    case ATTU_TRUNC_CENTURY: y = y > 0 ? (y + 99) / 100 * 100 - 99 : -((99 - (y - 1)) / 100 * 100) + 1; m = d = 1; break;
    case ATTU_TRUNC_DECADE: y = y > 0 ? y / 10 * 10 : -((8 - (y - 1)) / 10 * 10); m = d = 1; break;
    case ATTU_EXTRACT_YEAR: m = d = 1; break;
    case ATTU_EXTRACT_QUARTER: m = (m - 1) / 3 * 3 + 1; d = 1; break;
    case ATTU_EXTRACT_MONTH: d = 1; break;
    case ATTU_EXTRACT_WEEK: {
        int64_t monday = days - ((days % 7) + 7 + 3) % 7;   /* 1970-01-01 was Thursday */
        *out = monday * DAY;
        return 0;
    }
    case ATTU_EXTRACT_DAY: break;
    case ATTU_EXTRACT_HOUR: unit = 3600000000LL; break;
    case ATTU_EXTRACT_MINUTE: unit = 60000000LL; break;
    case ATTU_EXTRACT_SECOND: unit = 1000000LL; break;
    case ATTU_TRUNC_MILLISECONDS: unit = 1000LL; break;
    case ATTU_TRUNC_MICROSECONDS: unit = 1; break;
    default: return -1;
    }
    if (unit) { *out = days * DAY + usec / unit * unit; return 0; }
    *out = (int64_t)attu_date_from_ymd(y, m, d) * DAY;
    return 0;
}

/* ---- NUMERIC instructions --------------------------------------------------- */

static attu_numeric num_of(const attu_slot *s) {
    return attu_numeric_unpack(s->v.s);
}

/* A NUMERIC result: its packed slot in the arena. */
static int set_num(attu_interp *it, attu_slot *o, attu_numeric n, attu_error *err) {
    char *m = arena_alloc(it, 16);
    if (!m) return attu_error_oom(err);
    attu_numeric_pack(n, m);
    o->v.s = m;
    o->len = 16;
    return 0;
}

/* One row of a NUMERIC opcode (ATTU_OP_ADD_N..ATTU_OP_SIGN_N, and
 * ATTU_OP_DIV_TRUNC_N, ATTU_OP_GCD_N, ATTU_OP_LCM_N and ATTU_OP_FACTORIAL,
 * added after them at the enum's end): operands are not NULL. */
static int numeric_op(attu_interp *it, const attu_expr_program *p, const attu_instr *in, attu_type dt,
                      const attu_slot *A, const attu_slot *B, attu_slot *o, attu_error *err) {
    attu_numeric a = { 0, 0 }, b = { 0, 0 }, r = { 0, 0 };
    attu_type at = in->a >= 0 ? p->reg_types[in->a] : attu_type_make(ATTU_TYPE_UNKNOWN);
    if (A && at.id == ATTU_TYPE_NUMERIC) a = num_of(A);
    if (B && in->b >= 0 && p->reg_types[in->b].id == ATTU_TYPE_NUMERIC) b = num_of(B);
    int64_t z;
    switch (in->op) {
    case ATTU_OP_ADD_N: if (attu_numeric_add(a, b, &r, err)) return -1; break;
    case ATTU_OP_SUB_N: if (attu_numeric_sub(a, b, &r, err)) return -1; break;
    case ATTU_OP_MUL_N: if (attu_numeric_mul(a, b, &r, err)) return -1; break;
    case ATTU_OP_DIV_N: if (attu_numeric_div(a, b, &r, err)) return -1; break;
    case ATTU_OP_MOD_N: if (attu_numeric_mod(a, b, &r, err)) return -1; break;
    case ATTU_OP_DIV_TRUNC_N: if (attu_numeric_div_trunc(a, b, &r, err)) return -1; break;
    case ATTU_OP_GCD_N: if (attu_numeric_gcd(a, b, &r, err)) return -1; break;
    case ATTU_OP_LCM_N: if (attu_numeric_lcm(a, b, &r, err)) return -1; break;
    case ATTU_OP_FACTORIAL: if (attu_factorial(A->v.i, &r, err)) return -1; break;
    case ATTU_OP_NEG_N: r = a; r.m = -r.m; break;
    case ATTU_OP_ABS_N: r = a; if (r.m < 0) r.m = -r.m; break;
    case ATTU_OP_EQ_N: o->v.i = attu_numeric_cmp(a, b) == 0; return 0;
    case ATTU_OP_NE_N: o->v.i = attu_numeric_cmp(a, b) != 0; return 0;
    case ATTU_OP_LT_N: o->v.i = attu_numeric_cmp(a, b) < 0; return 0;
    case ATTU_OP_LE_N: o->v.i = attu_numeric_cmp(a, b) <= 0; return 0;
    case ATTU_OP_GT_N: o->v.i = attu_numeric_cmp(a, b) > 0; return 0;
    case ATTU_OP_GE_N: o->v.i = attu_numeric_cmp(a, b) >= 0; return 0;
    case ATTU_OP_NULLIF_N:
        if (attu_numeric_cmp(a, b) == 0) { o->null = 1; o->v.i = 0; return 0; }
        r = a; break;
    case ATTU_OP_CAST_I_N: r = attu_numeric_from_int64(A->v.i); break;
    case ATTU_OP_CAST_D_N: r = attu_numeric_from_decimal(A->v.i, at.scale); break;
    case ATTU_OP_CAST_F_N:
        if (at.id == ATTU_TYPE_FLOAT32 && isfinite(A->v.f)) {
            if (float4_to_numeric(A->v.f, &r, err)) return -1;
        } else if (attu_numeric_from_double(A->v.f, &r, err)) return -1;
        break;
    case ATTU_OP_CAST_N_I:
        if (attu_numeric_is_special(a))
            return attu_numeric_special_error(a, dt.id == ATTU_TYPE_INT16 ? "smallint" : dt.id == ATTU_TYPE_INT32 ? "integer" : "bigint", err);
        if (attu_numeric_to_scaled(a, 0, &z) || range_check(dt, z, err))
            return int_overflow(dt, err);
        o->v.i = z;
        return 0;
    case ATTU_OP_CAST_N_D:
        if (attu_numeric_is_special(a)) return attu_numeric_decimal_special_error(a, dt.precision, dt.scale, err);
        if (attu_numeric_to_scaled(a, dt.scale, &z)) return int_overflow(dt, err);
        if (range_check(dt, z, err)) return -1;
        o->v.i = z;
        return 0;
    case ATTU_OP_CAST_N_F: {
        if (dt.id == ATTU_TYPE_FLOAT32) {
            /* straight from the digits, as numeric_float4: through a
             * double a float could round twice */
            char buf[64];
            attu_numeric_format(a, buf, (int)sizeof buf);
            o->v.f = (double)strtof(buf, NULL);
            return 0;
        }
        o->v.f = attu_numeric_to_double(a);
        return 0;
    }
    case ATTU_OP_ROUND_N: case ATTU_OP_TRUNC_N: {
        int64_t d = B ? B->v.i : 0;
        if (d > 1000) d = 1000;
        if (d < -1000) d = -1000;
        if ((in->op == ATTU_OP_ROUND_N ? attu_numeric_round : attu_numeric_trunc)(a, (int)d, &r, err)) return -1;
        break;
    }
    case ATTU_OP_FLOOR_N: case ATTU_OP_CEIL_N:
        if (attu_numeric_floor(a, in->op == ATTU_OP_CEIL_N, &r, err)) return -1;
        break;
    case ATTU_OP_POWER_N: if (attu_numeric_power(a, b, &r, err)) return -1; break;
    case ATTU_OP_LOG_N: if (attu_numeric_log(a, b, &r, err)) return -1; break;
    case ATTU_OP_SQRT_AT_N: if (attu_numeric_sqrt(a, a.dscale, &r, err)) return -1; break;
    case ATTU_OP_SQRT_N: if (attu_numeric_sqrt_fn(a, &r, err)) return -1; break;
    case ATTU_OP_LN_N: if (attu_numeric_ln(a, &r, err)) return -1; break;
    case ATTU_OP_LOG10_N: if (attu_numeric_log10(a, &r, err)) return -1; break;
    case ATTU_OP_EXP_N: if (attu_numeric_exp(a, &r, err)) return -1; break;
    case ATTU_OP_SCALE_N: case ATTU_OP_MIN_SCALE_N: {
        if (attu_numeric_is_special(a)) { o->null = 1; o->v.i = 0; return 0; }
        int s = a.dscale;
        if (in->op == ATTU_OP_MIN_SCALE_N) {
            __int128 m = a.m;
            while (s > 0 && m % 10 == 0) { m /= 10; s--; }
        }
        o->v.i = s;
        return 0;
    }
    case ATTU_OP_TRIM_SCALE_N:
        r = a;
        if (!attu_numeric_is_special(r))
            while (r.dscale > 0 && r.m % 10 == 0) { r.m /= 10; r.dscale--; }
        break;
    case ATTU_OP_SIGN_N:
        if (attu_numeric_is_nan(a)) { r = a; break; }           /* sign(NaN) is NaN */
        r.m = a.m > 0 ? 1 : a.m < 0 ? -1 : 0; r.dscale = 0; break;
    default:
        return attu_error_set(err, ATTU_SQLSTATE_INTERNAL, 0, "unknown opcode %d", in->op);
    }
    return set_num(it, o, r, err);
}

/* ---- INTERVAL instructions -------------------------------------------------- */

static attu_interval iv_of(const attu_slot *s) {
    attu_interval v;
    memcpy(&v, s->v.s, sizeof v);
    return v;
}

/* An INTERVAL result: its slot in the arena. */
static int set_iv(attu_interp *it, attu_slot *o, attu_interval v, attu_error *err) {
    char *m = arena_alloc(it, 16);
    if (!m) return attu_error_oom(err);
    memcpy(m, &v, sizeof v);
    o->v.s = m;
    o->len = 16;
    return 0;
}

static int ts_range(attu_error *err) {
    return attu_error_set(err, ATTU_SQLSTATE_DATETIME_OVERFLOW, 0, "timestamp out of range");
}

/* One row of an INTERVAL opcode (ATTU_OP_ADD_IV..ATTU_OP_MAKE_INTERVAL):
 * operands are not NULL. */
static int interval_op(attu_interp *it, const attu_instr *in, attu_type dt, const attu_slot *A, const attu_slot *B,
                       const attu_slot *C, const attu_slot *Dd, attu_slot *o, attu_error *err) {
    attu_interval r;
    switch (in->op) {
    case ATTU_OP_ADD_IV: if (attu_interval_add(iv_of(A), iv_of(B), &r, err)) return -1; break;
    case ATTU_OP_SUB_IV: if (attu_interval_sub(iv_of(A), iv_of(B), &r, err)) return -1; break;
    case ATTU_OP_NEG_IV: if (attu_interval_neg(iv_of(A), &r, err)) return -1; break;
    case ATTU_OP_MUL_IV: if (attu_interval_mul(iv_of(A), B->v.f, &r, err)) return -1; break;
    case ATTU_OP_DIV_IV: if (attu_interval_div(iv_of(A), B->v.f, &r, err)) return -1; break;
    case ATTU_OP_EQ_IV: o->v.i = attu_interval_cmp(iv_of(A), iv_of(B)) == 0; return 0;
    case ATTU_OP_NE_IV: o->v.i = attu_interval_cmp(iv_of(A), iv_of(B)) != 0; return 0;
    case ATTU_OP_LT_IV: o->v.i = attu_interval_cmp(iv_of(A), iv_of(B)) < 0; return 0;
    case ATTU_OP_LE_IV: o->v.i = attu_interval_cmp(iv_of(A), iv_of(B)) <= 0; return 0;
    case ATTU_OP_GT_IV: o->v.i = attu_interval_cmp(iv_of(A), iv_of(B)) > 0; return 0;
    case ATTU_OP_GE_IV: o->v.i = attu_interval_cmp(iv_of(A), iv_of(B)) >= 0; return 0;
    case ATTU_OP_NULLIF_IV:
        if (attu_interval_cmp(iv_of(A), iv_of(B)) == 0) { o->null = 1; o->v.i = 0; o->len = 0; }
        else *o = *A;
        return 0;
    case ATTU_OP_TS_ADD_IV: case ATTU_OP_TS_SUB_IV: {
        int64_t x = A->v.i, z;
        if (x == INT64_MAX || x == INT64_MIN) { o->v.i = x; return 0; }
        attu_interval b = iv_of(B);
        if (in->op == ATTU_OP_TS_SUB_IV) {
            /* as PostgreSQL's timestamp_mi_interval: the fields negated
             * (wrapping at their minimum, as its C negation does) */
            b.months = (int32_t)(0u - (uint32_t)b.months);
            b.days = (int32_t)(0u - (uint32_t)b.days);
            b.usec = (int64_t)(0ull - (uint64_t)b.usec);
        }
        if (attu_timestamp_add_interval(x, b, &z)) return ts_range(err);
        o->v.i = z;
        return 0;
    }
    case ATTU_OP_TS_DIFF:
        if (A->v.i == INT64_MAX || A->v.i == INT64_MIN || B->v.i == INT64_MAX || B->v.i == INT64_MIN)
            return attu_error_set(err, ATTU_SQLSTATE_DATETIME_OVERFLOW, 0, "cannot subtract infinite timestamps");
        if (attu_timestamp_diff(A->v.i, B->v.i, &r, err)) return -1;
        break;
    case ATTU_OP_AGE:
        if (A->v.i == INT64_MAX || A->v.i == INT64_MIN || B->v.i == INT64_MAX || B->v.i == INT64_MIN)
            return ts_range(err);
        if (attu_timestamp_age(A->v.i, B->v.i, &r, err)) return -1;
        break;
    case ATTU_OP_JUSTIFY: if (attu_interval_justify(iv_of(A), in->aux, &r, err)) return -1; break;
    case ATTU_OP_EXTRACT_IV: {
        __int128 m;
        int scale;
        if (attu_interval_extract(iv_of(A), (int)in->imm_i, &m, &scale, err)) return -1;
        if (dt.id == ATTU_TYPE_FLOAT64) {
            o->v.f = scale ? (double)m / (scale == 3 ? 1e3 : 1e6) : (double)m;
            /* date_part's float8 division, as PostgreSQL: time / 1e6 + seconds */
            if ((int)in->imm_i == ATTU_EXTRACT_EPOCH) {
                attu_interval v = iv_of(A);
                o->v.f = (double)v.usec / 1e6 + (double)((m - v.usec) / 1000000);
            } else if (scale) {
                /* second: sec + fsec / 1e6; milliseconds: sec * 1000 + fsec / 1000 */
                int64_t us = (int64_t)m, sec = us / 1000000, fsec = us % 1000000;
                o->v.f = scale == 6 ? (double)sec + (double)fsec / 1e6 : (double)sec * 1000.0 + (double)fsec / 1000.0;
            }
            return 0;
        }
        attu_numeric nv = { m, scale };
        return set_num(it, o, nv, err);
    }
    case ATTU_OP_TRUNC_IV: if (attu_interval_trunc(iv_of(A), (int)in->imm_i, &r, err)) return -1; break;
    case ATTU_OP_QUALIFY_IV:
        r = iv_of(A);
        attu_interval_qualify(&r, attu_type_interval_range(dt), attu_type_interval_prec(dt));
        break;
    case ATTU_OP_MAKE_INTERVAL: {
        int64_t y, mo, w, d, h, mi;
        attu_unpack_int_pair(A->v.i, &y, &mo);
        attu_unpack_int_pair(B->v.i, &w, &d);
        attu_unpack_int_pair(C->v.i, &h, &mi);
        if (attu_make_interval(y, mo, w, d, h, mi, Dd->v.f, &r, err)) return -1;
        break;
    }
    default:
        return attu_error_set(err, ATTU_SQLSTATE_INTERNAL, 0, "unknown opcode %d", in->op);
    }
    return set_iv(it, o, r, err);
}

/* a SIMILAR TO b [ESCAPE c], or a ~ b (regex 1) / a ~* b (regex 2), over
 * a batch (not strict in the usual way only in that the compiled pattern
 * lives across the rows) */
static int run_similar(const attu_slot *A, const attu_slot *B, const attu_slot *C, const attu_slot *G, attu_slot *D,
                       size_t n, int regex, attu_error *err) {
    attu_similar sim;
    memset(&sim, 0, sizeof sim);
    int rc = 0;
    for (size_t r = 0; r < n && !rc; r++) {
        attu_slot *o = &D[r];
        o->len = 0;
        if ((G && (G[r].null || !G[r].v.i)) || A[r].null || B[r].null || (C && C[r].null)) { o->null = 1; o->v.i = 0; continue; }
        rc = regex ? attu_regex_prepare(&sim, B[r].v.s, B[r].len, regex == 2, err)
                   : attu_similar_prepare(&sim, B[r].v.s, B[r].len, C ? C[r].v.s : NULL, C ? C[r].len : 0, C != NULL, err);
        if (!rc) { o->null = 0; o->v.i = attu_similar_match(&sim, A[r].v.s, A[r].len); }
    }
    attu_similar_free(&sim);
    return rc;
}

/* One row of a timestamptz opcode (ATTU_OP_TZ_*): a the value, zb the
 * text naming the zone (or NULL: the zone of aux), ivb the interval of
 * TZ_ADD_IV / TZ_SUB_IV. Operands are not NULL. */
static int tz_op(const attu_instr *in, attu_type dt, const attu_slot *a, const attu_slot *zb, const attu_slot *ivb,
                 attu_slot *o, attu_error *err) {
    const attu_tz *zone;
    if (zb) {
        char name[256];
        if (zb->len >= sizeof name)
            return attu_error_set(err, ATTU_SQLSTATE_INVALID_PARAMETER, 0, "time zone \"%.*s\" not recognized",
                                  (int)(zb->len > 100 ? 100 : zb->len), zb->v.s);
        memcpy(name, zb->v.s, zb->len);
        name[zb->len] = 0;
        if (!(zone = attu_tz_for_at(name)))
            return attu_error_set(err, ATTU_SQLSTATE_INVALID_PARAMETER, 0, "time zone \"%s\" not recognized", name);
    } else {
        zone = attu_tz_by_id(in->aux);
    }
    int64_t x = a->v.i, z;
    bool inf = x == INT64_MAX || x == INT64_MIN;
    if (inf && in->op != ATTU_OP_TZ_OFFSET) { o->v.i = x; return 0; }   /* the infinities stay */
    switch (in->op) {
    case ATTU_OP_TZ_TO_LOCAL: z = attu_tz_to_local_us(zone, x); break;
    case ATTU_OP_TZ_FROM_LOCAL: z = attu_tz_from_local_us(zone, x); break;
    case ATTU_OP_TZ_OFFSET:
        if (inf) { o->null = 1; o->v.i = 0; return 0; }   /* an infinity has no zone */
        o->v.i = attu_tz_offset_at(zone, x / 1000000 - (x % 1000000 < 0), NULL);
        return 0;
    case ATTU_OP_TZ_ADD_IV: case ATTU_OP_TZ_SUB_IV: {
        if (inf) { o->v.i = x; return 0; }
        attu_interval b = iv_of(ivb);
        if (in->op == ATTU_OP_TZ_SUB_IV) {
            b.months = (int32_t)(0u - (uint32_t)b.months);
            b.days = (int32_t)(0u - (uint32_t)b.days);
            b.usec = (int64_t)(0ull - (uint64_t)b.usec);
        }
        /* months, then days, each on the wall clock and back (a step over
         * a DST change keeps the local time), then the time elapsed */
        if (attu_timestamptz_add_interval(zone, x, b, &z)) return ts_range(err);
        break;
    }
    case ATTU_OP_TZ_TRUNC: {
        if (inf) { o->v.i = x; return 0; }
        int f = (int)in->imm_i;
        int64_t local = attu_tz_to_local_us(zone, x), t;
        if (trunc_timestamp(f, local, &t))
            return attu_error_set(err, ATTU_SQLSTATE_FEATURE_NOT_SUPPORTED, 0, "unit not supported");
        bool sub_day = f == ATTU_EXTRACT_HOUR || f == ATTU_EXTRACT_MINUTE || f == ATTU_EXTRACT_SECOND ||
                       f == ATTU_TRUNC_MILLISECONDS || f == ATTU_TRUNC_MICROSECONDS;
        /* shorter units keep the value's own offset (the first or second
         * 01:30 of a fall-back stays itself); longer ones start at the
         * local midnight, whatever offset it has */
        z = sub_day ? x - (local - t) : attu_tz_from_local_us(zone, t);
        break;
    }
    default:
        return attu_error_set(err, ATTU_SQLSTATE_INTERNAL, 0, "unknown opcode %d", in->op);
    }
    if (range_check(dt, z, err)) return -1;
    o->v.i = z;
    return 0;
}

/* The transaction's moment (the clock where the db layer set none). */
static int64_t txn_now_us(void) {
    int64_t now = attu_tz_txn_start();
    if (!now) {
        struct timeval tv;
        gettimeofday(&tv, NULL);
        now = (int64_t)tv.tv_sec * 1000000 + tv.tv_usec;
    }
    return now;
}

/* One row of a time opcode (ATTU_OP_TIME_OF_TS .. ATTU_OP_TIMETZ_AT_ZONE):
 * operands are not NULL. */
static int time_op(attu_interp *it, const attu_instr *in, const attu_slot *A, const attu_slot *B, const attu_slot *C,
                   attu_slot *o, attu_error *err) {
    const int64_t DAY = ATTU_USECS_PER_DAY;
    switch (in->op) {
    case ATTU_OP_TIME_OF_TS:
        if (A->v.i == INT64_MAX || A->v.i == INT64_MIN) { o->null = 1; o->v.i = 0; return 0; }
        o->v.i = attu_time_wrap(A->v.i);
        return 0;
    case ATTU_OP_TIME_OF_IV: o->v.i = attu_time_wrap(iv_of(A).usec); return 0;
    case ATTU_OP_IV_OF_TIME: {
        attu_interval v = { 0, 0, A->v.i };
        return set_iv(it, o, v, err);
    }
    case ATTU_OP_TIME_ADD_IV: case ATTU_OP_TIME_SUB_IV: {
        /* the interval's time folded first, so no sum overflows */
        int64_t d = attu_time_wrap(iv_of(B).usec);
        o->v.i = attu_time_wrap(in->op == ATTU_OP_TIME_ADD_IV ? A->v.i + d : A->v.i - d);
        return 0;
    }
    case ATTU_OP_TIME_DIFF: {
        attu_interval v = { 0, 0, A->v.i - B->v.i };
        return set_iv(it, o, v, err);
    }
    case ATTU_OP_DATE_TIME: {
        int64_t d = A->v.i;
        if (d == INT32_MAX || d == INT32_MIN) { o->v.i = d > 0 ? INT64_MAX : INT64_MIN; return 0; }
        /* timestamp ends before 294277-01-01, long before date does */
        if (d >= attu_date_from_ymd(294277, 1, 1) || d < ATTU_DATE_MIN_DAYS)
            return attu_error_set(err, ATTU_SQLSTATE_DATETIME_OVERFLOW, 0, "date out of range for timestamp");
        o->v.i = d * DAY + B->v.i;
        return 0;
    }
    case ATTU_OP_MAKE_TIME: {
        /* as PostgreSQL's make_time: the fields checked as a time's, 24:00:00
         * the one value past 23:59:59.999999 */
        int64_t h = A->v.i, m = B->v.i;
        double s = C->v.f;
        bool ok = h >= 0 && h <= 24 && m >= 0 && m <= 59 && s >= 0.0 && s <= 60.0;
        int64_t us = ok ? (h * 60 + m) * 60000000LL + (int64_t)rint(s * 1e6) : -1;
        if (!ok || us > DAY) {
            /* PostgreSQL's "%d:%02d:%02g", its NaN and Infinity spelled its way */
            char sb[64];
            if (isnan(s)) snprintf(sb, sizeof sb, "NaN");
            else if (isinf(s)) snprintf(sb, sizeof sb, "%sInfinity", s < 0 ? "-" : "");
            else snprintf(sb, sizeof sb, "%02g", s);
            return attu_error_set(err, ATTU_SQLSTATE_DATETIME_OVERFLOW, 0, "time field value out of range: %lld:%02lld:%s",
                                  (long long)h, (long long)m, sb);
        }
        o->v.i = us;
        return 0;
    }
    case ATTU_OP_TIMETZ_AT_ZONE: {
        /* PostgreSQL's timetz_zone: the zone's offset at the transaction's
         * moment (a named zone has no date here to go by) */
        int64_t us, now = txn_now_us();
        int32_t east;
        attu_timetz_unpack(A->v.i, &us, &east);
        int32_t to = attu_tz_offset_at(attu_tz_by_id(in->aux), now / 1000000 - (now % 1000000 < 0), NULL);
        o->v.i = attu_timetz_pack(attu_time_wrap(us + ((int64_t)to - east) * 1000000), to);
        return 0;
    }
    case ATTU_OP_TIMETZ_OF_TIME: {
        /* PostgreSQL's time_timetz: the zone's offset at that wall time on
         * the transaction's day */
        const attu_tz *z = attu_tz_by_id(in->aux);
        int64_t now = txn_now_us();
        int64_t l = attu_tz_to_local_us(z, now);
        int64_t day = l / DAY - (l % DAY < 0);
        o->v.i = attu_timetz_pack(A->v.i, attu_tz_offset_local(z, day * 86400 + A->v.i / 1000000));
        return 0;
    }
    case ATTU_OP_TIMETZ_OF_TSTZ: {
        int64_t x = A->v.i;
        if (x == INT64_MAX || x == INT64_MIN) { o->null = 1; o->v.i = 0; return 0; }
        const attu_tz *z = attu_tz_by_id(in->aux);
        int32_t east = attu_tz_offset_at(z, x / 1000000 - (x % 1000000 < 0), NULL);
        o->v.i = attu_timetz_pack(attu_time_wrap(x + (int64_t)east * 1000000), east);
        return 0;
    }
    case ATTU_OP_TIME_OF_TIMETZ: case ATTU_OP_TIMETZ_ADD_IV: case ATTU_OP_TIMETZ_SUB_IV: {
        int64_t us;
        int32_t east;
        attu_timetz_unpack(A->v.i, &us, &east);
        if (in->op == ATTU_OP_TIME_OF_TIMETZ) { o->v.i = us; return 0; }
        int64_t d = attu_time_wrap(iv_of(B).usec);
        o->v.i = attu_timetz_pack(attu_time_wrap(in->op == ATTU_OP_TIMETZ_ADD_IV ? us + d : us - d), east);
        return 0;
    }
    case ATTU_OP_DATE_TIMETZ: {
        int64_t d = A->v.i, us;
        int32_t east;
        if (d == INT32_MAX || d == INT32_MIN) { o->v.i = d > 0 ? INT64_MAX : INT64_MIN; return 0; }
        attu_timetz_unpack(B->v.i, &us, &east);
        if (d >= attu_date_from_ymd(294277, 1, 1))
            return attu_error_set(err, ATTU_SQLSTATE_DATETIME_OVERFLOW, 0, "date out of range for timestamp");
        int64_t z = d * DAY + us - (int64_t)east * 1000000;
        if (range_check(attu_type_make(ATTU_TYPE_TIMESTAMPTZ), z, err)) return -1;
        o->v.i = z;
        return 0;
    }
    default:
        return attu_error_set(err, ATTU_SQLSTATE_INTERNAL, 0, "unknown opcode %d", in->op);
    }
}

int attu_interp_run(attu_interp *it, size_t n, attu_error *err) {
    const attu_expr_program *p = it->p;
    if (n > it->rows)
        return attu_error_set(err, ATTU_SQLSTATE_INTERNAL, 0, "interpreter batch of %zu rows exceeds %zu", n, it->rows);
    arena_reset(it);
    for (int ii = 0; ii < p->ninstr; ii++) {
        const attu_instr *in = &p->code[ii];
        attu_slot *D = it->regs + (size_t)in->dst * it->rows;
        const attu_slot *A = in->a >= 0 ? it->regs + (size_t)in->a * it->rows : NULL;
        const attu_slot *B = in->b >= 0 ? it->regs + (size_t)in->b * it->rows : NULL;
        const attu_slot *C = in->c >= 0 ? it->regs + (size_t)in->c * it->rows : NULL;
        const attu_slot *Dd = in->d >= 0 ? it->regs + (size_t)in->d * it->rows : NULL;
        const attu_slot *G = in->guard >= 0 ? it->regs + (size_t)in->guard * it->rows : NULL;
        attu_type dt = p->reg_types[in->dst];
        bool dflt = attu_type_mclass(dt.id) == ATTU_MC_FLOAT;
        int op = in->op;
        char *cbuf = NULL;      /* a NUMERIC CONST's slot */
        double memo_la = NAN, memo_cos = 0;   /* earth_distance: the last cos(lat_a) */
        if (op == ATTU_OP_SIMILAR || op == ATTU_OP_REGEX) {
            if (run_similar(A, B, C, G, D, n, op == ATTU_OP_REGEX ? 1 + (in->aux == 1) : 0, err)) return -1;
            continue;
        }
        if (op >= ATTU_OP_REGEXP_REPLACE && op <= ATTU_OP_SIMILAR_SUBSTRING) {
            /* the compiled pattern lives across the rows, as above */
            if (attu_regexp_run(op, in->aux, A, B, C, Dd, G, D, n, regexp_alloc, it, err)) return -1;
            continue;
        }
        if (op == ATTU_OP_ARRAY) {
            if (attu_array_run(p, in, A, B, C, G, D, n, regexp_alloc, it, err)) return -1;
            continue;
        }
        if (op == ATTU_OP_RANGE) {
            if (attu_range_run(p, in, A, B, C, G, D, n, regexp_alloc, it, err)) return -1;
            continue;
        }
        if (op == ATTU_OP_FORMAT) {
            if (attu_format_run(A, B, p->reg_types[in->b], G, D, n, regexp_alloc, it, err)) return -1;
            continue;
        }
        if (op == ATTU_OP_UUID) {
            if (attu_uuid_run(in, A, G, D, n, regexp_alloc, it, err)) return -1;
            continue;
        }
        if (op == ATTU_OP_BYTEA) {
            if (attu_bytea_run(in, A, B, C, Dd, G, D, n, regexp_alloc, it, err)) return -1;
            continue;
        }
        if (op == ATTU_OP_JSON) {
            if (attu_json_run(p, in, A, B, C, Dd, G, D, n, regexp_alloc, it, err)) return -1;
            continue;
        }
        if (op >= ATTU_OP_TO_CHAR_TS && op <= ATTU_OP_TO_TIMESTAMP) {
            if (attu_formatting_run(op, in->aux, (int)in->imm_i, p->reg_types[in->a], A, B, G, D, n, regexp_alloc, it, err)) return -1;
            continue;
        }
        for (size_t r = 0; r < n; r++) {
            attu_slot *o = &D[r];
            if (G && (G[r].null || !G[r].v.i)) { o->null = 1; o->v.i = 0; o->len = 0; continue; }
            /* non-strict instructions first */
            switch (op) {
            case ATTU_OP_CONST:
                o->null = in->imm_null;
                o->len = 0;
                if (dt.id == ATTU_TYPE_NUMERIC) {
                    /* one packed slot for the batch, which every row points at */
                    if (!cbuf) {
                        attu_numeric cn = { in->imm_i, in->aux };
                        if (!in->imm_null && in->imm_s >= 0 &&
                            attu_numeric_parse(p->strs[in->imm_s], p->str_lens[in->imm_s], &cn, err)) return -1;
                        if (!(cbuf = arena_alloc(it, 16))) return attu_error_oom(err);
                        attu_numeric_pack(cn, cbuf);
                    }
                    o->v.s = cbuf; o->len = 16;
                } else if (in->imm_s >= 0) { o->v.s = p->strs[in->imm_s]; o->len = (uint32_t)p->str_lens[in->imm_s]; }
                else if (dflt) o->v.f = in->imm_f;
                else o->v.i = in->imm_i;
                continue;
            case ATTU_OP_MOVE: *o = A[r]; continue;
            case ATTU_OP_AND: {
                bool af = !A[r].null && !A[r].v.i, bf = !B[r].null && !B[r].v.i;
                if (af || bf) { o->null = 0; o->v.i = 0; }
                else if (A[r].null || B[r].null) { o->null = 1; o->v.i = 0; }
                else { o->null = 0; o->v.i = 1; }
                continue;
            }
            case ATTU_OP_OR: {
                bool at = !A[r].null && A[r].v.i, bt = !B[r].null && B[r].v.i;
                if (at || bt) { o->null = 0; o->v.i = 1; }
                else if (A[r].null || B[r].null) { o->null = 1; o->v.i = 0; }
                else { o->null = 0; o->v.i = 0; }
                continue;
            }
            case ATTU_OP_IS_NULL: o->null = 0; o->v.i = A[r].null; continue;
            case ATTU_OP_IS_NOT_NULL: o->null = 0; o->v.i = !A[r].null; continue;
            case ATTU_OP_IS_TRUE: o->null = 0; o->v.i = !A[r].null && A[r].v.i; continue;
            case ATTU_OP_IS_FALSE: o->null = 0; o->v.i = !A[r].null && !A[r].v.i; continue;
            case ATTU_OP_COALESCE: *o = A[r].null ? B[r] : A[r]; continue;
            case ATTU_OP_SELECT: *o = (!C[r].null && C[r].v.i) ? A[r] : B[r]; continue;
            case ATTU_OP_PI: o->null = 0; o->v.f = M_PI; continue;
            case ATTU_OP_SUBQUERY_ERROR: {
                /* "SSSSS" then the message (planner/binder.c's deferred_error) */
                const char *t = A && !A[r].null ? A[r].v.s : "";
                size_t len = A && !A[r].null ? A[r].len : 0;
                char state[6] = "XX000";
                if (len >= 5) memcpy(state, t, 5);
                return attu_error_set(err, state, 0, "%.*s", len >= 5 ? (int)(len - 5) : 0, len >= 5 ? t + 5 : "");
            }
            case ATTU_OP_SUBQUERY_ONE:
                if (!A[r].null && A[r].v.i < 0)
                    return attu_error_set(err, ATTU_SQLSTATE_DEFERRED, 0, ATTU_DEFERRED_MESSAGE, (long long)(-A[r].v.i - 1));
                if (!A[r].null && A[r].v.i > 1)
                    return attu_error_set(err, ATTU_SQLSTATE_CARDINALITY, 0, "more than one row returned by a subquery used as an expression");
                *o = B[r];
                continue;
            default: break;
            }
            if ((A && A[r].null) || (B && B[r].null) || (C && C[r].null) || (Dd && Dd[r].null)) {
                o->null = 1; o->v.i = 0; o->len = 0;
                if (op == ATTU_OP_NULLIF_I || op == ATTU_OP_NULLIF_F || op == ATTU_OP_NULLIF_S || op == ATTU_OP_NULLIF_N ||
                    op == ATTU_OP_NULLIF_IV) {
                    if (A[r].null) continue;
                    *o = A[r];    /* NULLIF(x, NULL) = x */
                }
                continue;
            }
            o->null = 0;
            o->len = 0;
            if ((op >= ATTU_OP_ADD_N && op <= ATTU_OP_SIGN_N) || op == ATTU_OP_DIV_TRUNC_N || op == ATTU_OP_GCD_N ||
                op == ATTU_OP_LCM_N || op == ATTU_OP_FACTORIAL || (op >= ATTU_OP_SCALE_N && op <= ATTU_OP_TRIM_SCALE_N)) {
                if (numeric_op(it, p, in, dt, A ? &A[r] : NULL, B ? &B[r] : NULL, o, err)) return -1;
                continue;
            }
            if (op >= ATTU_OP_TIME_OF_TS && op <= ATTU_OP_TIMETZ_AT_ZONE) {
                if (time_op(it, in, A ? &A[r] : NULL, B ? &B[r] : NULL, C ? &C[r] : NULL, o, err)) return -1;
                continue;
            }
            if (op >= ATTU_OP_ADD_IV && op <= ATTU_OP_MAKE_INTERVAL) {
                if (interval_op(it, in, dt, A ? &A[r] : NULL, B ? &B[r] : NULL, C ? &C[r] : NULL, Dd ? &Dd[r] : NULL, o,
                                err)) return -1;
                continue;
            }
            int64_t x = A ? A[r].v.i : 0, y = B ? B[r].v.i : 0, z;
            double fx = A ? A[r].v.f : 0, fy = B ? B[r].v.f : 0, fz;
            switch (op) {
            case ATTU_OP_ADD_I: case ATTU_OP_ADD_D:
                if (__builtin_add_overflow(x, y, &z)) return int_overflow(dt, err);
                if (range_check(dt, z, err)) return -1;
                o->v.i = z; break;
            case ATTU_OP_SUB_I: case ATTU_OP_SUB_D:
                if (__builtin_sub_overflow(x, y, &z)) return int_overflow(dt, err);
                if (range_check(dt, z, err)) return -1;
                o->v.i = z; break;
            case ATTU_OP_MUL_I: case ATTU_OP_MUL_D:
                if (__builtin_mul_overflow(x, y, &z)) return int_overflow(dt, err);
                if (range_check(dt, z, err)) return -1;
                o->v.i = z; break;
            case ATTU_OP_DIV_I:
                if (y == 0) return attu_error_set(err, ATTU_SQLSTATE_DIVISION_BY_ZERO, 0, "division by zero");
                if (y == -1) {
                    if (__builtin_sub_overflow((int64_t)0, x, &z)) return int_overflow(dt, err);
                } else z = x / y;
                if (range_check(dt, z, err)) return -1;
                o->v.i = z; break;
            case ATTU_OP_MOD_I:
                if (y == 0) return attu_error_set(err, ATTU_SQLSTATE_DIVISION_BY_ZERO, 0, "division by zero");
                o->v.i = y == -1 ? 0 : x % y; break;
            case ATTU_OP_NEG_I: case ATTU_OP_NEG_D:
                if (__builtin_sub_overflow((int64_t)0, x, &z)) return int_overflow(dt, err);
                if (range_check(dt, z, err)) return -1;
                o->v.i = z; break;
            case ATTU_OP_DIV_D: {
                /* a (scale sa) / b (scale sb) -> dst scale sd:
                 * result = a * 10^(sd - sa + sb) / b, rounded half away. */
                if (y == 0) return attu_error_set(err, ATTU_SQLSTATE_DIVISION_BY_ZERO, 0, "division by zero");
                int sa = p->reg_types[in->a].scale, sb = p->reg_types[in->b].scale, sd = dt.scale;
                int sh = sd - sa + sb;
                __int128 num = x, den = y;
                if (mul_pow10_128(sh >= 0 ? &num : &den, sh >= 0 ? sh : -sh))
                    return int_overflow(dt, err);
                __int128 q = num / den, rem = num % den;
                if (rem < 0) rem = -rem;
                __int128 aden = den < 0 ? -den : den;
                if (rem * 2 >= aden) q += ((num < 0) != (den < 0)) ? -1 : 1;
                if (q > INT64_MAX || q < INT64_MIN) return int_overflow(dt, err);
                if (range_check(dt, (int64_t)q, err)) return -1;
                o->v.i = (int64_t)q; break;
            }
            case ATTU_OP_MOD_D:
                if (y == 0) return attu_error_set(err, ATTU_SQLSTATE_DIVISION_BY_ZERO, 0, "division by zero");
                o->v.i = x % y; break;
            case ATTU_OP_ADD_F: fz = fx + fy; goto fres;
            case ATTU_OP_SUB_F: fz = fx - fy; goto fres;
            case ATTU_OP_MUL_F: fz = fx * fy; goto fres;
            case ATTU_OP_DIV_F:
                /* NaN / 0 is NaN in PostgreSQL */
                if (fy == 0 && !isnan(fx)) return attu_error_set(err, ATTU_SQLSTATE_DIVISION_BY_ZERO, 0, "division by zero");
                fz = fx / fy; goto fres;
            case ATTU_OP_MOD_F:
                if (fy == 0) return attu_error_set(err, ATTU_SQLSTATE_DIVISION_BY_ZERO, 0, "division by zero");
                fz = fmod(fx, fy); goto fres;
            case ATTU_OP_NEG_F: fz = -fx; goto fres;
            fres:
                /* PostgreSQL's float4 / float8 checks, on the value of the
                 * result's type (a real overflows where its float does):
                 * infinite from finite operands overflows; zero from a
                 * product of non-zeros, or a quotient of a non-zero by a
                 * finite divisor, underflows */
                if (dt.id == ATTU_TYPE_FLOAT32) fz = (float)fz;
                if (isinf(fz) && !isinf(fx) && !(B && isinf(fy)))
                    return attu_error_set(err, ATTU_SQLSTATE_NUMERIC_RANGE, 0, "value out of range: overflow");
                if (fz == 0 && fx != 0 && ((op == ATTU_OP_MUL_F && fy != 0) || (op == ATTU_OP_DIV_F && !isinf(fy))))
                    return attu_error_set(err, ATTU_SQLSTATE_NUMERIC_RANGE, 0, "value out of range: underflow");
                o->v.f = fz; break;
            case ATTU_OP_EQ_I: o->v.i = x == y; break;
            case ATTU_OP_NE_I: o->v.i = x != y; break;
            case ATTU_OP_LT_I: o->v.i = x < y; break;
            case ATTU_OP_LE_I: o->v.i = x <= y; break;
            case ATTU_OP_GT_I: o->v.i = x > y; break;
            case ATTU_OP_GE_I: o->v.i = x >= y; break;
            case ATTU_OP_EQ_F: o->v.i = fcmp(fx, fy) == 0; break;
            case ATTU_OP_NE_F: o->v.i = fcmp(fx, fy) != 0; break;
            case ATTU_OP_LT_F: o->v.i = fcmp(fx, fy) < 0; break;
            case ATTU_OP_LE_F: o->v.i = fcmp(fx, fy) <= 0; break;
            case ATTU_OP_GT_F: o->v.i = fcmp(fx, fy) > 0; break;
            case ATTU_OP_GE_F: o->v.i = fcmp(fx, fy) >= 0; break;
            case ATTU_OP_EQ_S: o->v.i = scmp(&A[r], &B[r]) == 0; break;
            case ATTU_OP_NE_S: o->v.i = scmp(&A[r], &B[r]) != 0; break;
            case ATTU_OP_LT_S: o->v.i = scmp(&A[r], &B[r]) < 0; break;
            case ATTU_OP_LE_S: o->v.i = scmp(&A[r], &B[r]) <= 0; break;
            case ATTU_OP_GT_S: o->v.i = scmp(&A[r], &B[r]) > 0; break;
            case ATTU_OP_GE_S: o->v.i = scmp(&A[r], &B[r]) >= 0; break;
            case ATTU_OP_NOT: o->v.i = !x; break;
            case ATTU_OP_NULLIF_I: if (x == y) { o->null = 1; } else *o = A[r]; break;
            case ATTU_OP_NULLIF_F: if (fcmp(fx, fy) == 0) { o->null = 1; } else *o = A[r]; break;
            case ATTU_OP_NULLIF_S: if (scmp(&A[r], &B[r]) == 0) { o->null = 1; } else *o = A[r]; break;
            case ATTU_OP_CAST_I_I:
                if (dt.id == ATTU_TYPE_BOOL) x = x != 0;
                if (range_check(dt, x, err)) return -1;
                o->v.i = x; break;
            case ATTU_OP_CAST_I_F: o->v.f = dt.id == ATTU_TYPE_FLOAT32 ? (double)(float)x : (double)x; break;
            case ATTU_OP_CAST_F_I: {
                double rr = rint(fx);
                if (isnan(rr) || rr < -9223372036854775808.0 || rr >= 9223372036854775808.0)
                    return int_overflow(dt, err);
                if (range_check(dt, (int64_t)rr, err)) return -1;
                o->v.i = (int64_t)rr; break;
            }
            case ATTU_OP_CAST_I_D:
                if (rescale(x, 0, dt.scale, &z) || range_check(dt, z, err)) return int_overflow(dt, err);
                o->v.i = z; break;
            case ATTU_OP_CAST_D_I: {
                int sa = p->reg_types[in->a].scale;
                if (rescale(x, sa, 0, &z)) return int_overflow(dt, err);
                if (range_check(dt, z, err)) return -1;
                o->v.i = z; break;
            }
            case ATTU_OP_CAST_D_F:
                /* INT64_MAX / INT64_MIN: EXTRACT's numeric +-Infinity */
                if (x == INT64_MAX || x == INT64_MIN) {
                    fz = x == INT64_MAX ? INFINITY : -INFINITY;
                    o->v.f = fz;
                    break;
                }
                o->v.f = decimal_to_float(x, p->reg_types[in->a].scale, dt.id == ATTU_TYPE_FLOAT32);
                break;
            case ATTU_OP_CAST_F_D: {
                if (isnan(fx) || isinf(fx))
                    return attu_numeric_decimal_special_error(isnan(fx) ? attu_numeric_nan() : attu_numeric_inf(fx < 0 ? -1 : 1),
                                                              dt.precision, dt.scale, err);
                /* as PostgreSQL: the float's decimal digits first
                 * (float4_numeric's 6, float8_numeric's 15), then
                 * rounded to the scale exactly, half away from zero:
                 * 1.005::float8::numeric(5,2) is 1.01 (1.005 * 100 in
                 * doubles is 100.49999...) and 1234.5678::real
                 * ::numeric(10,4) is 1234.5700 */
                attu_numeric nv;
                if (p->reg_types[in->a].id == ATTU_TYPE_FLOAT32) {
                    if (float4_to_numeric(fx, &nv, err)) return -1;
                } else if (attu_numeric_from_double(fx, &nv, err)) return int_overflow(dt, err);
                if (attu_numeric_to_scaled(nv, dt.scale, &z)) return int_overflow(dt, err);
                if (range_check(dt, z, err)) return -1;
                o->v.i = z; break;
            }
            case ATTU_OP_CAST_D_D:
                if (rescale(x, p->reg_types[in->a].scale, dt.scale, &z)) return int_overflow(dt, err);
                if (range_check(dt, z, err)) return -1;
                o->v.i = z; break;
            case ATTU_OP_CAST_F_F:
                /* float8 -> float4 as PostgreSQL's dtof: a finite value too
                 * large overflows, a non-zero one too small underflows */
                if (dt.id == ATTU_TYPE_FLOAT32) {
                    float f4 = (float)fx;
                    if (isinf(f4) && !isinf(fx)) return attu_error_set(err, ATTU_SQLSTATE_NUMERIC_RANGE, 0, "value out of range: overflow");
                    if (f4 == 0 && fx != 0) return attu_error_set(err, ATTU_SQLSTATE_NUMERIC_RANGE, 0, "value out of range: underflow");
                    o->v.f = f4;
                } else o->v.f = fx;
                break;
            case ATTU_OP_CAST_S_X: {
                union { uint8_t b; int32_t i4; int64_t i8; float f4; double f8; __int128 n16; } slot;
                memset(&slot, 0, sizeof slot);
                if (dt.id == ATTU_TYPE_TIMESTAMPTZ) {
                    /* read under the zone the binder saw (aux), not this thread's */
                    if (attu_timestamptz_parse(A[r].v.s, A[r].len, attu_tz_by_id(in->aux), &slot.i8, err)) return -1;
                } else if (dt.id == ATTU_TYPE_TIMETZ) {
                    if (attu_timetz_parse(A[r].v.s, A[r].len, attu_tz_by_id(in->aux), &slot.i8, err)) return -1;
                } else if (attu_value_parse(dt, A[r].v.s, A[r].len, &slot, err)) return -1;
                switch (dt.id) {
                case ATTU_TYPE_NUMERIC:
                    if (set_num(it, o, attu_numeric_unpack(&slot), err)) return -1;
                    break;
                case ATTU_TYPE_INTERVAL: {
                    attu_interval v;
                    memcpy(&v, &slot, sizeof v);
                    if (set_iv(it, o, v, err)) return -1;
                    break;
                }
                case ATTU_TYPE_BOOL: o->v.i = slot.b; break;
                case ATTU_TYPE_INT16: case ATTU_TYPE_INT32: case ATTU_TYPE_DATE: o->v.i = slot.i4; break;
                case ATTU_TYPE_FLOAT32: o->v.f = slot.f4; break;
                case ATTU_TYPE_FLOAT64: o->v.f = slot.f8; break;
                default: o->v.i = slot.i8; break;
                }
                break;
            }
            case ATTU_OP_CAST_X_S: {
                attu_type st = p->reg_types[in->a];
                union { uint8_t b; int32_t i4; int64_t i8; float f4; double f8; __int128 n16; } slot;
                memset(&slot, 0, sizeof slot);
                switch (st.id) {
                case ATTU_TYPE_NUMERIC: case ATTU_TYPE_INTERVAL: memcpy(&slot, A[r].v.s, 16); break;
                case ATTU_TYPE_BOOL: slot.b = (uint8_t)x; break;
                case ATTU_TYPE_INT16: case ATTU_TYPE_INT32: case ATTU_TYPE_DATE: slot.i4 = (int32_t)x; break;
                case ATTU_TYPE_FLOAT32: slot.f4 = (float)fx; break;
                case ATTU_TYPE_FLOAT64: slot.f8 = fx; break;
                default: slot.i8 = x; break;
                }
                char tmp[96];
                size_t l = st.id == ATTU_TYPE_TIMESTAMPTZ ? attu_timestamptz_format(x, attu_tz_by_id(in->aux), tmp, sizeof tmp)
                                                         : attu_value_format(st, &slot, tmp, sizeof tmp);
                char *m = arena_alloc(it, l + 1);
                if (!m) return attu_error_oom(err);
                memcpy(m, tmp, l + 1);
                o->v.s = m; o->len = (uint32_t)l;
                break;
            }
            case ATTU_OP_CAST_BOOL_S:
                o->v.s = x ? "true" : "false"; o->len = x ? 4 : 5; break;
            case ATTU_OP_CAST_DATE_TS:
                if (x == INT32_MAX || x == INT32_MIN) { o->v.i = x > 0 ? INT64_MAX : INT64_MIN; break; }
                if (__builtin_mul_overflow(x, 86400000000LL, &z) || range_check(dt, z, err))
                    return attu_error_set(err, ATTU_SQLSTATE_DATETIME_OVERFLOW, 0, "date out of range for timestamp");
                o->v.i = z; break;
            case ATTU_OP_CAST_TS_DATE:
                if (x == INT64_MAX || x == INT64_MIN) { o->v.i = x > 0 ? INT32_MAX : INT32_MIN; break; }
                o->v.i = x >= 0 ? x / 86400000000LL : -((-x + 86400000000LL - 1) / 86400000000LL); break;
            case ATTU_OP_DATE_BIN: {
                /* (PostgreSQL's order of checks: an infinite source
                 * first, then the origin, then the stride) */
                attu_interval st = iv_of(&A[r]);
                int64_t ts = B[r].v.i, origin = C[r].v.i;
                if (ts == INT64_MAX || ts == INT64_MIN) { o->v.i = ts; break; }
                if (origin == INT64_MAX || origin == INT64_MIN)
                    return attu_error_set(err, ATTU_SQLSTATE_DATETIME_OVERFLOW, 0, "origin out of range");
                if (st.months)
                    return attu_error_set(err, ATTU_SQLSTATE_FEATURE_NOT_SUPPORTED, 0,
                                          "timestamps cannot be binned into intervals containing months or years");
                __int128 stride = (__int128)st.days * 86400000000LL + st.usec;
                if (stride <= 0) return attu_error_set(err, ATTU_SQLSTATE_DATETIME_OVERFLOW, 0, "stride must be greater than zero");
                __int128 diff = (__int128)ts - origin, delta = diff - diff % stride;
                if (diff < 0 && diff % stride) delta -= stride;
                __int128 res = (__int128)origin + delta;
                if (res <= INT64_MIN || res >= INT64_MAX) return ts_range(err);
                o->v.i = (int64_t)res;
                break;
            }
            case ATTU_OP_BITAND_I: o->v.i = x & y; break;
            case ATTU_OP_BITOR_I: o->v.i = x | y; break;
            case ATTU_OP_BITXOR_I: o->v.i = x ^ y; break;
            case ATTU_OP_BITNOT_I: o->v.i = ~x; break;   /* (a sign-extended register stays one) */
            case ATTU_OP_SHL_I:
                if (dt.id == ATTU_TYPE_INT64) {
                    o->v.i = (int64_t)((uint64_t)x << (y & 63));
                } else {
                    uint32_t w = (uint32_t)x << (y & 31);
                    o->v.i = dt.id == ATTU_TYPE_INT16 ? (int64_t)(int16_t)(uint16_t)w : (int64_t)(int32_t)w;
                }
                break;
            case ATTU_OP_SHR_I:
                o->v.i = dt.id == ATTU_TYPE_INT64 ? x >> (y & 63) : (int64_t)((int32_t)x >> (y & 31));
                break;
            case ATTU_OP_GCD_I:
                if (attu_int_gcd(x, y, dt.id == ATTU_TYPE_INT64, &z, err)) return -1;
                o->v.i = z; break;
            case ATTU_OP_LCM_I:
                if (attu_int_lcm(x, y, dt.id == ATTU_TYPE_INT64, &z, err)) return -1;
                o->v.i = z; break;
            case ATTU_OP_WIDTH_BUCKET_F:
                if (attu_width_bucket_float(fx, fy, C[r].v.f, Dd[r].v.i, &z, err)) return -1;
                o->v.i = z; break;
            case ATTU_OP_WIDTH_BUCKET_N:
                if (attu_width_bucket_numeric(num_of(&A[r]), num_of(&B[r]), num_of(&C[r]), Dd[r].v.i, &z, err)) return -1;
                o->v.i = z; break;
            case ATTU_OP_RANDOM: o->v.f = attu_random_next(); break;
            case ATTU_OP_ABS_I: case ATTU_OP_ABS_D:
                if (x == INT64_MIN) return int_overflow(dt, err);
                z = x < 0 ? -x : x;
                if (range_check(dt, z, err)) return -1;
                o->v.i = z; break;
            case ATTU_OP_ABS_F: o->v.f = fabs(fx); break;
            case ATTU_OP_ROUND_F: o->v.f = rint(fx); break;
            case ATTU_OP_TRUNC_F: o->v.f = trunc(fx); break;
            case ATTU_OP_ROUND_D: {
                /* half away from zero to `digits` after the point (b, or
                 * 0; negative: tens, hundreds...) in one step from the
                 * source scale, then expressed at dst scale */
                int sa = p->reg_types[in->a].scale, sd = dt.scale;
                int64_t yd = B ? y : 0;
                if (yd > sa) yd = sa;
                if (yd < -19) yd = -19;
                int digits = (int)yd;
                __int128 dd = 1, q, rem, out;
                if (mul_pow10_128(&dd, sa - digits)) return int_overflow(dt, err);
                q = x / dd; rem = x % dd;
                if ((rem < 0 ? -rem : rem) * 2 >= dd) q += x < 0 ? -1 : 1;
                out = q;
                if (sd >= digits ? mul_pow10_128(&out, sd - digits) : 1) return int_overflow(dt, err);
                if (out > INT64_MAX || out < INT64_MIN) return int_overflow(dt, err);
                z = (int64_t)out;
                if (range_check(dt, z, err)) return -1;
                o->v.i = z; break;
            }
            case ATTU_OP_FLOOR_F: o->v.f = floor(fx); break;
            case ATTU_OP_CEIL_F: o->v.f = ceil(fx); break;
            case ATTU_OP_FLOOR_D: case ATTU_OP_CEIL_D: {
                int sa = p->reg_types[in->a].scale;
                int64_t d = pow10_tab[sa], q = x / d;
                if (op == ATTU_OP_FLOOR_D && x % d < 0) q--;
                if (op == ATTU_OP_CEIL_D && x % d > 0) q++;
                if (rescale(q, 0, dt.scale, &z)) return int_overflow(dt, err);
                o->v.i = z; break;
            }
            case ATTU_OP_SQRT:
                if (fx < 0) return attu_error_set(err, "2201F", 0, "cannot take square root of a negative number");
                o->v.f = sqrt(fx); break;
            case ATTU_OP_POWER:
                if (fx == 0 && fy < 0) return attu_error_set(err, "2201F", 0, "zero raised to a negative power is undefined");
                if (fx < 0 && fy != floor(fy)) return attu_error_set(err, "2201F", 0, "a negative number raised to a non-integer power yields a complex result");
                fz = pow(fx, fy);
                if (isinf(fz) && !isinf(fx) && !isinf(fy)) return attu_error_set(err, ATTU_SQLSTATE_NUMERIC_RANGE, 0, "value out of range: overflow");
                o->v.f = fz; break;
            case ATTU_OP_LN: case ATTU_OP_LOG10:
                if (fx == 0) return attu_error_set(err, "2201E", 0, "cannot take logarithm of zero");
                if (fx < 0) return attu_error_set(err, "2201E", 0, "cannot take logarithm of a negative number");
                o->v.f = op == ATTU_OP_LN ? log(fx) : log10(fx); break;
            case ATTU_OP_EXP:
                /* PostgreSQL's dexp: a finite argument whose result is
                 * infinite overflows, one whose result is 0 underflows */
                fz = exp(fx);
                if (isinf(fz) && !isinf(fx)) return attu_error_set(err, ATTU_SQLSTATE_NUMERIC_RANGE, 0, "value out of range: overflow");
                if (fz == 0 && !isinf(fx)) return attu_error_set(err, ATTU_SQLSTATE_NUMERIC_RANGE, 0, "value out of range: underflow");
                o->v.f = fz; break;
            case ATTU_OP_SIN: case ATTU_OP_COS: case ATTU_OP_TAN:
                /* PostgreSQL's dsin / dcos / dtan: an infinite angle is an
                 * error, where libm gives NaN */
                if (isinf(fx)) return attu_error_set(err, ATTU_SQLSTATE_NUMERIC_RANGE, 0, "input is out of range");
                o->v.f = op == ATTU_OP_SIN ? sin(fx) : op == ATTU_OP_COS ? cos(fx) : tan(fx); break;
            case ATTU_OP_ASIN: case ATTU_OP_ACOS:
                if (fx < -1 || fx > 1) return attu_error_set(err, ATTU_SQLSTATE_NUMERIC_RANGE, 0, "input is out of range");
                o->v.f = op == ATTU_OP_ASIN ? asin(fx) : acos(fx); break;
            case ATTU_OP_ATAN: o->v.f = atan(fx); break;
            case ATTU_OP_SINH: o->v.f = sinh(fx); break;
            case ATTU_OP_COSH: o->v.f = cosh(fx); break;
            case ATTU_OP_TANH: o->v.f = tanh(fx); break;
            case ATTU_OP_ASINH: o->v.f = asinh(fx); break;
            case ATTU_OP_ACOSH:
                if (fx < 1) return attu_error_set(err, ATTU_SQLSTATE_NUMERIC_RANGE, 0, "input is out of range");
                o->v.f = acosh(fx); break;
            case ATTU_OP_ATANH:
                if (fx < -1 || fx > 1) return attu_error_set(err, ATTU_SQLSTATE_NUMERIC_RANGE, 0, "input is out of range");
                o->v.f = fx == 1 ? INFINITY : fx == -1 ? -INFINITY : atanh(fx); break;
            case ATTU_OP_ATAN2: o->v.f = atan2(fx, fy); break;
            case ATTU_OP_SIND: case ATTU_OP_COSD: case ATTU_OP_TAND: case ATTU_OP_COTD:
            case ATTU_OP_ASIND: case ATTU_OP_ACOSD: case ATTU_OP_ATAND: case ATTU_OP_ATAN2D:
                if (attu_degree_trig((attu_degree_fn)(op - ATTU_OP_SIND), fx, op == ATTU_OP_ATAN2D ? fy : 0,
                                     &o->v.f, err)) return -1;
                break;
            case ATTU_OP_COT:
                if (isinf(fx)) return attu_error_set(err, ATTU_SQLSTATE_NUMERIC_RANGE, 0, "input is out of range");
                o->v.f = 1.0 / tan(fx); break;
            case ATTU_OP_RADIANS: o->v.f = fx * (M_PI / 180.0); break;
            case ATTU_OP_DEGREES: o->v.f = fx / 0.0174532925199432957692; break;   /* PostgreSQL: x / RADIANS_PER_DEGREE */
            case ATTU_OP_SIGN_F: o->v.f = fx > 0 ? 1 : fx < 0 ? -1 : 0; break;
            case ATTU_OP_EARTH_DISTANCE: {
                double la = fx * (M_PI / 180.0);
                if (!(la == memo_la)) { memo_la = la; memo_cos = cos(la); }
                o->v.f = earth_distance_cos(fx, fy, C[r].v.f, Dd[r].v.f, memo_cos);
                break;
            }
            case ATTU_OP_LOWER: case ATTU_OP_UPPER: {
                char *m = arena_alloc(it, A[r].len + 1);
                if (!m) return attu_error_oom(err);
                for (uint32_t k = 0; k < A[r].len; k++) {
                    unsigned char ch = (unsigned char)A[r].v.s[k];
                    m[k] = (char)(op == ATTU_OP_LOWER ? (ch >= 'A' && ch <= 'Z' ? ch + 32 : ch)
                                                      : (ch >= 'a' && ch <= 'z' ? ch - 32 : ch));
                }
                o->v.s = m; o->len = A[r].len; break;
            }
            case ATTU_OP_LENGTH: o->v.i = (int)attu_utf8_count(A[r].v.s, A[r].len); break;
            case ATTU_OP_OCTET_LENGTH: o->v.i = A[r].len; break;
            case ATTU_OP_SUBSTR: {
                int64_t from = y, cnt = C ? C[r].v.i : INT32_MAX;
                if (C && cnt < 0) return attu_error_set(err, "22011", 0, "negative substring length not allowed");
                int64_t start = from - 1, end = C ? start + cnt : INT64_MAX;
                if (start < 0) start = 0;
                if (end < start) end = start;
                size_t bo = utf8_off(A[r].v.s, A[r].len, start);
                size_t be = end == INT64_MAX ? A[r].len : utf8_off(A[r].v.s, A[r].len, end);
                o->v.s = A[r].v.s + bo; o->len = (uint32_t)(be - bo); break;
            }
            case ATTU_OP_LEFT: case ATTU_OP_RIGHT: {
                int clen = (int)attu_utf8_count(A[r].v.s, A[r].len);
                int64_t k = y;
                if (k < 0) k = clen + k < 0 ? 0 : clen + k;
                if (k > clen) k = clen;
                size_t bo, be;
                if (op == ATTU_OP_LEFT) { bo = 0; be = utf8_off(A[r].v.s, A[r].len, k); }
                else { bo = utf8_off(A[r].v.s, A[r].len, clen - k); be = A[r].len; }
                o->v.s = A[r].v.s + bo; o->len = (uint32_t)(be - bo); break;
            }
            case ATTU_OP_TRIM: case ATTU_OP_LTRIM: case ATTU_OP_RTRIM: {
                const char *set = B ? B[r].v.s : " ";
                size_t setn = B ? B[r].len : 1;
                size_t s0 = 0, s1 = A[r].len;
                if (op != ATTU_OP_RTRIM) while (s0 < s1 && memchr(set, A[r].v.s[s0], setn)) s0++;
                if (op != ATTU_OP_LTRIM) while (s1 > s0 && memchr(set, A[r].v.s[s1 - 1], setn)) s1--;
                o->v.s = A[r].v.s + s0; o->len = (uint32_t)(s1 - s0); break;
            }
            case ATTU_OP_CONCAT: {
                size_t l = (size_t)A[r].len + B[r].len;
                char *m = arena_alloc(it, l + 1);
                if (!m) return attu_error_oom(err);
                if (A[r].len) memcpy(m, A[r].v.s, A[r].len);
                if (B[r].len) memcpy(m + A[r].len, B[r].v.s, B[r].len);
                o->v.s = m; o->len = (uint32_t)l; break;
            }
            case ATTU_OP_LIKE: case ATTU_OP_ILIKE: {
                bool bad = false;
                o->v.i = like_match(A[r].v.s, A[r].len, B[r].v.s, B[r].len, op == ATTU_OP_ILIKE, &bad);
                if (bad) return attu_error_set(err, "22025", 0, "LIKE pattern must not end with escape character");
                break;
            }
            case ATTU_OP_STRPOS: {
                z = 0;
                if (B[r].len == 0) z = 1;
                else for (size_t k = 0; k + B[r].len <= A[r].len; k++)
                    if (!memcmp(A[r].v.s + k, B[r].v.s, B[r].len)) { z = (int)attu_utf8_count(A[r].v.s, k) + 1; break; }
                o->v.i = z; break;
            }
            case ATTU_OP_REPLACE: {
                const attu_slot *s = &A[r], *f = &B[r], *t = &C[r];
                if (!f->len) { *o = *s; break; }
                size_t cnt = 0;
                for (size_t k = 0; k + f->len <= s->len;) { if (!memcmp(s->v.s + k, f->v.s, f->len)) { cnt++; k += f->len; } else k++; }
                size_t l = s->len + cnt * t->len - cnt * f->len;
                char *m = arena_alloc(it, l + 1), *w = m;
                if (!m) return attu_error_oom(err);
                for (size_t k = 0; k < s->len;) {
                    if (k + f->len <= s->len && !memcmp(s->v.s + k, f->v.s, f->len)) { memcpy(w, t->v.s, t->len); w += t->len; k += f->len; }
                    else *w++ = s->v.s[k++];
                }
                o->v.s = m; o->len = (uint32_t)l; break;
            }
            case ATTU_OP_CBRT: o->v.f = cbrt(fx); break;
            case ATTU_OP_TRUNC_D: {
                /* toward zero, to b digits after the point when b is given
                 * (negative: tens, hundreds...), else to dst's scale; the
                 * result is expressed at dst's scale */
                int sa = p->reg_types[in->a].scale, sd = dt.scale;
                int64_t digits = B ? y : sd;
                if (digits > sa) digits = sa;
                int64_t drop = sa - digits, q = 0;
                if (drop <= 18) { int64_t dd = pow10_tab[drop]; q = x / dd * dd; }
                if (rescale(q, sa, sd, &z)) return int_overflow(dt, err);
                if (range_check(dt, z, err)) return -1;
                o->v.i = z; break;
            }
            case ATTU_OP_UNISTR: {
                char *m = arena_alloc(it, A[r].len + 1);
                size_t ml = 0;
                if (!m) return attu_error_oom(err);
                if (attu_unistr(A[r].v.s, A[r].len, m, &ml, err)) return -1;
                o->v.s = m; o->len = ml; break;
            }
            case ATTU_OP_REVERSE: {
                char *m = arena_alloc(it, A[r].len + 1);
                if (!m) return attu_error_oom(err);
                /* reverse by characters: copy each UTF-8 sequence to the mirrored place */
                size_t i = 0, n = A[r].len;
                while (i < n) {
                    size_t j = i + 1;
                    while (j < n && ((unsigned char)A[r].v.s[j] & 0xC0) == 0x80) j++;
                    memcpy(m + (n - j), A[r].v.s + i, j - i);
                    i = j;
                }
                o->v.s = m; o->len = A[r].len; break;
            }
            case ATTU_OP_REPEAT: {
                int64_t k = y < 0 ? 0 : y;
                if ((uint64_t)k * A[r].len > (1u << 28)) return attu_error_set(err, "54000", 0, "requested length too large");   /* PostgreSQL: program_limit_exceeded */
                size_t l = (size_t)k * A[r].len;
                char *m = arena_alloc(it, l + 1);
                if (!m) return attu_error_oom(err);
                for (int64_t q = 0; q < k; q++) memcpy(m + (size_t)q * A[r].len, A[r].v.s, A[r].len);
                o->v.s = m; o->len = (uint32_t)l; break;
            }
            case ATTU_OP_LPAD: case ATTU_OP_RPAD: {
                int64_t want = y < 0 ? 0 : y;
                if (want > (1 << 26)) return attu_error_set(err, "54000", 0, "requested length too large");
                const char *fill = C ? C[r].v.s : " ";
                size_t fl = C ? C[r].len : 1;
                int have = (int)attu_utf8_count(A[r].v.s, A[r].len);
                if (have >= want || fl == 0) {
                    size_t bo = utf8_off(A[r].v.s, A[r].len, want);
                    o->v.s = A[r].v.s; o->len = (uint32_t)bo; break;
                }
                int64_t padc = want - have;
                char *m = arena_alloc(it, A[r].len + (size_t)padc * fl + 1);
                if (!m) return attu_error_oom(err);
                size_t w = 0;
                if (op == ATTU_OP_RPAD) { memcpy(m, A[r].v.s, A[r].len); w = A[r].len; }
                int flen = (int)attu_utf8_count(fill, fl);
                for (int64_t q = 0; q < padc; q++) {
                    size_t b0 = utf8_off(fill, fl, q % flen), b1 = utf8_off(fill, fl, q % flen + 1);
                    memcpy(m + w, fill + b0, b1 - b0); w += b1 - b0;
                }
                if (op == ATTU_OP_LPAD) { memcpy(m + w, A[r].v.s, A[r].len); w += A[r].len; }
                o->v.s = m; o->len = (uint32_t)w; break;
            }
            case ATTU_OP_SPLIT_PART: {
                int64_t field = C[r].v.i;
                if (field == 0) return attu_error_set(err, ATTU_SQLSTATE_INVALID_PARAMETER, 0, "field position must not be zero");
                const char *s = A[r].v.s, *d = B[r].v.s;
                size_t n = A[r].len, dl = B[r].len;
                /* collect field boundaries */
                size_t starts[1024], ends[1024]; int nf = 0;
                size_t st = 0;
                if (dl == 0) { starts[0] = 0; ends[0] = n; nf = n ? 1 : 0; }
                else {
                    for (size_t i = 0; i + dl <= n && nf < 1023; ) {
                        if (!memcmp(s + i, d, dl)) { starts[nf] = st; ends[nf++] = i; i += dl; st = i; }
                        else i++;
                    }
                    if (n || nf) { starts[nf] = st; ends[nf++] = n; }
                }
                int64_t k = field > 0 ? field - 1 : nf + field;
                if (k < 0 || k >= nf) { o->v.s = ""; o->len = 0; break; }
                o->v.s = s + starts[k]; o->len = (uint32_t)(ends[k] - starts[k]); break;
            }
            case ATTU_OP_INITCAP: {
                char *m = arena_alloc(it, A[r].len + 1);
                if (!m) return attu_error_oom(err);
                /* words are runs of ASCII letters and digits, as
                 * PostgreSQL's initcap under the C locale (isalnum of a
                 * byte): any non-ASCII character ends a word, so
                 * initcap('élan') is 'éLan' there too */
                bool start = true;
                for (uint32_t k = 0; k < A[r].len; k++) {
                    unsigned char ch = (unsigned char)A[r].v.s[k];
                    bool alnum = (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9');
                    if (start && ch >= 'a' && ch <= 'z') ch -= 32;
                    else if (!start && ch >= 'A' && ch <= 'Z') ch += 32;
                    m[k] = (char)ch;
                    start = !alnum;
                }
                o->v.s = m; o->len = A[r].len; break;
            }
            case ATTU_OP_STARTS_WITH:
                o->v.i = B[r].len <= A[r].len && !memcmp(A[r].v.s, B[r].v.s, B[r].len); break;
            case ATTU_OP_PG_SIZE_BYTES:
                if (attu_pg_size_bytes(A[r].v.s, A[r].len, &o->v.i, err)) return -1;
                break;
            case ATTU_OP_PG_SIZE_PRETTY_I: case ATTU_OP_PG_SIZE_PRETTY_N: {
                char sz[96];
                if (op == ATTU_OP_PG_SIZE_PRETTY_I) attu_pg_size_pretty_int(A[r].v.i, sz, sizeof sz);
                else if (attu_pg_size_pretty_numeric(num_of(&A[r]), sz, sizeof sz, err)) return -1;
                size_t sl = strlen(sz);
                char *m = arena_alloc(it, sl);
                if (!m) return attu_error_oom(err);
                memcpy(m, sz, sl);
                o->v.s = m; o->len = sl; break;
            }
            case ATTU_OP_MD5: {
                char *m = arena_alloc(it, 32);
                if (!m) return attu_error_oom(err);
                attu_md5_hex(A[r].v.s, A[r].len, m);
                o->v.s = m; o->len = 32; break;
            }
            case ATTU_OP_TRANSLATE: {
                /* a character of any width may become one of up to 4 bytes */
                char *m = arena_alloc(it, (size_t)A[r].len * 4 + 1);
                if (!m) return attu_error_oom(err);
                o->v.s = m; o->len = (uint32_t)translate_text(&A[r], &B[r], &C[r], m); break;
            }
            case ATTU_OP_ASCII:
                o->v.i = A[r].len ? utf8_code_point(A[r].v.s, utf8_char_bytes(A[r].v.s, A[r].len)) : 0; break;
            case ATTU_OP_CHR: {
                /* PostgreSQL's chr() in a UTF-8 database, with its checks
                 * in its order */
                if (x < 0) return attu_error_set(err, ATTU_SQLSTATE_INVALID_PARAMETER, 0, "character number must be positive");
                if (x == 0) return attu_error_set(err, "54000", 0, "null character not permitted");
                if (x > 0x10ffff)
                    return attu_error_set(err, "54000", 0, "requested character too large for encoding: %lld", (long long)x);
                if (x >= 0xd800 && x <= 0xdfff)
                    return attu_error_set(err, "54000", 0, "requested character not valid for encoding: %lld", (long long)x);
                char *m = arena_alloc(it, 4);
                if (!m) return attu_error_oom(err);
                o->v.s = m; o->len = (uint32_t)attu_utf8_encode((uint32_t)x, (unsigned char *)m); break;
            }
            case ATTU_OP_TO_HEX: {
                /* the two's complement of an integer (4 bytes) or a bigint
                 * (8), so to_hex(-1) is ffffffff, without leading zeros */
                uint64_t u = in->aux == 4 ? (uint64_t)(uint32_t)x : (uint64_t)x;
                char tmp[16];
                int k = 0;
                do { tmp[k++] = "0123456789abcdef"[u & 15]; u >>= 4; } while (u);
                char *m = arena_alloc(it, (size_t)k);
                if (!m) return attu_error_oom(err);
                for (int q = 0; q < k; q++) m[q] = tmp[k - 1 - q];
                o->v.s = m; o->len = (uint32_t)k; break;
            }
            case ATTU_OP_OVERLAY: {
                /* PostgreSQL's text_overlay: the first c - 1 characters of
                 * a, then b, then a from character c + d on; d defaults to
                 * b's length and may be negative (a repeats from there) */
                int64_t from = C[r].v.i, cnt = Dd ? Dd[r].v.i : (int)attu_utf8_count(B[r].v.s, B[r].len);
                if (from <= 0) return attu_error_set(err, "22011", 0, "negative substring length not allowed");
                int64_t after = from + cnt;
                if (after > INT32_MAX || after < INT32_MIN)
                    return attu_error_set(err, ATTU_SQLSTATE_NUMERIC_RANGE, 0, "integer out of range");
                size_t head = utf8_off(A[r].v.s, A[r].len, from - 1);
                size_t tail = after <= 1 ? 0 : utf8_off(A[r].v.s, A[r].len, after - 1);
                size_t l = head + B[r].len + (A[r].len - tail);
                char *m = arena_alloc(it, l + 1);
                if (!m) return attu_error_oom(err);
                if (head) memcpy(m, A[r].v.s, head);
                if (B[r].len) memcpy(m + head, B[r].v.s, B[r].len);
                if (A[r].len > tail) memcpy(m + head + B[r].len, A[r].v.s + tail, A[r].len - tail);
                o->v.s = m; o->len = (uint32_t)l; break;
            }
            case ATTU_OP_BIT_LENGTH: o->v.i = (int64_t)A[r].len * 8; break;
            case ATTU_OP_REGEXP_FLAGS: {
                char *m = arena_alloc(it, (size_t)A[r].len + B[r].len + 1);
                if (!m) return attu_error_oom(err);
                if (A[r].len) memcpy(m, A[r].v.s, A[r].len);
                m[A[r].len] = '\0';
                if (B[r].len) memcpy(m + A[r].len + 1, B[r].v.s, B[r].len);
                o->v.s = m; o->len = A[r].len + B[r].len + 1; break;
            }
            case ATTU_OP_MAKE_DATE: {
                int32_t days;
                if (attu_make_date((int32_t)x, (int32_t)y, (int32_t)C[r].v.i, &days, err)) return -1;
                o->v.i = days; break;
            }
            case ATTU_OP_MAKE_TIMESTAMP: {
                /* the planner packed (month, day) and (hour, minute) */
                int64_t mon, mday, hr, mi;
                attu_unpack_int_pair(y, &mon, &mday);
                attu_unpack_int_pair(C[r].v.i, &hr, &mi);
                int64_t ts;
                if (attu_make_timestamp((int32_t)x, (int32_t)mon, (int32_t)mday, (int32_t)hr, (int32_t)mi, Dd[r].v.f, &ts,
                                        err))
                    return -1;
                o->v.i = ts; break;
            }
            case ATTU_OP_DATE_ADD: case ATTU_OP_DATE_SUB:
                /* infinities stay infinite (PostgreSQL's date_pli / date_mii) */
                if (dt.id == ATTU_TYPE_DATE ? (x == INT32_MAX || x == INT32_MIN) : (x == INT64_MAX || x == INT64_MIN)) {
                    o->v.i = x; break;
                }
                z = op == ATTU_OP_DATE_ADD ? x + y : x - y;
                if (dt.id == ATTU_TYPE_TIMESTAMP) {
                    int64_t dz;
                    if (__builtin_mul_overflow(y, 86400000000LL, &dz) ||
                        (op == ATTU_OP_DATE_ADD ? __builtin_add_overflow(x, dz, &z)
                                                : __builtin_sub_overflow(x, dz, &z)))
                        return attu_error_set(err, ATTU_SQLSTATE_DATETIME_OVERFLOW, 0, "timestamp out of range");
                }
                if (range_check(dt, z, err)) return -1;
                o->v.i = z; break;
            case ATTU_OP_DATE_DIFF:
                if (x == INT32_MAX || x == INT32_MIN || y == INT32_MAX || y == INT32_MIN)
                    return attu_error_set(err, ATTU_SQLSTATE_DATETIME_OVERFLOW, 0, "cannot subtract infinite dates");
                o->v.i = x - y; break;
            case ATTU_OP_EXTRACT: {
                int f = (int)in->imm_i;
                bool ts = in->aux == 1;
                if (in->aux == 2 || in->aux == 3) {
                    /* a time: microseconds since midnight, 24:00:00 its own
                     * hour 24 (PostgreSQL's time_part_common); a timetz
                     * (aux 3): its time, its epoch less the offset, and
                     * the offset's units (imm_i ATTU_EXTRACT_TZ_*) */
                    int64_t us = x, sc = dflt ? 6 : dt.scale;
                    int32_t east = 0;
                    if (in->aux == 3) attu_timetz_unpack(x, &us, &east);
                    switch (f) {
                    case ATTU_EXTRACT_TZ_SECONDS: z = (int64_t)east * pow10_tab[sc]; break;
                    case ATTU_EXTRACT_TZ_HOUR: z = (int64_t)(east / 3600) * pow10_tab[sc]; break;
                    case ATTU_EXTRACT_TZ_MINUTE: z = (int64_t)(east / 60 % 60) * pow10_tab[sc]; break;
                    case ATTU_EXTRACT_HOUR: z = us / 3600000000LL * pow10_tab[sc]; break;
                    case ATTU_EXTRACT_MINUTE: z = us / 60000000LL % 60 * pow10_tab[sc]; break;
                    case ATTU_EXTRACT_SECOND: z = us % 60000000LL * pow10_tab[sc] / 1000000; break;
                    case ATTU_TRUNC_MILLISECONDS: z = us % 60000000LL * pow10_tab[sc] / 1000; break;
                    case ATTU_TRUNC_MICROSECONDS: z = us % 60000000LL * pow10_tab[sc]; break;
                    default: z = (us - (int64_t)east * 1000000) * pow10_tab[sc] / 1000000; break;   /* epoch */
                    }
                    if (dflt) o->v.f = (double)z / 1e6;
                    else o->v.i = z;
                    break;
                }
                if (ts ? (x == INT64_MAX || x == INT64_MIN) : (x == INT32_MAX || x == INT32_MIN)) {
                    /* infinity: +-Infinity for the fields that grow with
                     * time, NULL for the others (PostgreSQL 15) */
                    if (f == ATTU_EXTRACT_YEAR || f == ATTU_TRUNC_DECADE || f == ATTU_TRUNC_CENTURY ||
                        f == ATTU_TRUNC_MILLENNIUM || f == ATTU_EXTRACT_ISOYEAR || f == ATTU_EXTRACT_EPOCH ||
                        f == ATTU_EXTRACT_JULIAN) {
                        if (dflt) o->v.f = x > 0 ? INFINITY : -INFINITY;
                        else o->v.i = x > 0 ? INT64_MAX : INT64_MIN;
                    } else { o->null = 1; o->v.i = 0; }
                    break;
                }
                if (dflt && ts && f == ATTU_EXTRACT_JULIAN) {
                    /* date_part('julian', timestamp): day and its fraction */
                    int64_t dd = x >= 0 ? x / 86400000000LL : -((-x + 86400000000LL - 1) / 86400000000LL);
                    o->v.f = (double)(dd + 2440588) + (double)(x - dd * 86400000000LL) / 86400000000.0;
                    break;
                }
                if (extract_field(f, ts, x, dflt ? attu_type_decimal(18, 6) : dt, &z))
                    return attu_error_set(err, ATTU_SQLSTATE_FEATURE_NOT_SUPPORTED, 0, "unit not supported");
                if (dflt) o->v.f = (double)z / 1e6;
                else o->v.i = z;
                break;
            }
            case ATTU_OP_DATE_TRUNC:
                if (trunc_timestamp((int)in->imm_i, x, &z))
                    return attu_error_set(err, ATTU_SQLSTATE_FEATURE_NOT_SUPPORTED, 0, "unit not supported");
                o->v.i = z; break;
            case ATTU_OP_TZ_FROM_EPOCH: {
                /* as PostgreSQL's float8_timestamptz: rounded to microseconds
                 * from 2000-01-01, its epoch */
                if (isnan(fx)) return attu_error_set(err, ATTU_SQLSTATE_DATETIME_OVERFLOW, 0, "timestamp cannot be NaN");
                if (isinf(fx)) { o->v.i = fx > 0 ? INT64_MAX : INT64_MIN; break; }
                double us = rint((fx - 946684800.0) * 1e6);
                if (!(fx >= (double)ATTU_DATE_MIN_DAYS * 86400.0 && us < 9.2233720368547e18 - 946684800e6) ||
                    range_check(dt, (int64_t)us + INT64_C(946684800000000), err)) {
                    attu_error_clear(err);
                    return attu_error_set(err, ATTU_SQLSTATE_DATETIME_OVERFLOW, 0, "timestamp out of range: \"%g\"", fx);
                }
                o->v.i = (int64_t)us + INT64_C(946684800000000);
                break;
            }
            case ATTU_OP_TZ_TO_LOCAL: case ATTU_OP_TZ_FROM_LOCAL: case ATTU_OP_TZ_OFFSET:
            case ATTU_OP_TZ_ADD_IV: case ATTU_OP_TZ_SUB_IV: case ATTU_OP_TZ_TRUNC:
                if (tz_op(in, dt, &A[r], B && (op == ATTU_OP_TZ_TO_LOCAL || op == ATTU_OP_TZ_FROM_LOCAL) ? &B[r] : NULL,
                          B && (op == ATTU_OP_TZ_ADD_IV || op == ATTU_OP_TZ_SUB_IV) ? &B[r] : NULL, o, err))
                    return -1;
                break;
            case ATTU_OP_CHAR_LIMIT: {
                /* PostgreSQL's varchar/bpchar assignment: too long is 22001
                 * unless every character past the limit is a space */
                int64_t lim = in->imm_i;
                size_t cut = utf8_off(A[r].v.s, A[r].len, lim);
                for (size_t k = cut; k < A[r].len; k++)
                    if (A[r].v.s[k] != ' ')
                        return attu_error_set(err, "22001", 0, "value too long for type %s(%lld)",
                                              in->aux ? "character" : "character varying", (long long)lim);
                /* char(n) keeps no trailing spaces (types.h: shown padded) */
                if (in->aux) while (cut > 0 && A[r].v.s[cut - 1] == ' ') cut--;
                o->v.s = A[r].v.s; o->len = (uint32_t)cut; break;
            }
            default:
                return attu_error_set(err, ATTU_SQLSTATE_INTERNAL, 0, "unknown opcode %d", op);
            }
        }
    }
    return 0;
}

int attu_program_eval_const(const attu_expr_program *p, attu_slot *out,
                            char *textbuf, size_t textcap, attu_error *err) {
    attu_interp *it = attu_interp_new(p);
    if (!it) return attu_error_oom(err);
    int rc = attu_interp_run(it, 1, err);
    if (!rc) {
        *out = *attu_interp_output(it, 0);
        if (!out->null && p->reg_types[p->outputs[0]].id == ATTU_TYPE_NUMERIC && textcap >= 16) {
            /* the packed slot lives in the arena, freed below */
            memcpy(textbuf, out->v.s, 16);
            out->v.s = textbuf;
        } else if (!out->null && attu_type_mclass(p->reg_types[p->outputs[0]].id) == ATTU_MC_TEXT) {
            size_t l = out->len < textcap - 1 ? out->len : textcap - 1;
            memcpy(textbuf, out->v.s, l);
            textbuf[l] = 0;
            out->v.s = textbuf;
            out->len = (uint32_t)l;
        }
    }
    attu_interp_free(it);
    return rc;
}
