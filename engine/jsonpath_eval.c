/*
 * jsonpath_eval.c - evaluating a SQL/JSON path over a jsonb value, with
 * PostgreSQL 15's rules (engine/jsonpath.h), observed on its server:
 *
 * - lax mode (the default) unwraps an array one level where an accessor
 *   wants an object or a method wants a scalar, wraps a non-array where
 *   an array accessor wants an array, and ignores structural errors (a
 *   missing key, a subscript out of bounds) by finding nothing; strict
 *   mode reports them.
 * - An error is raised unless the function's silent argument is true, in
 *   which case evaluation stops there, and what was found so far stands.
 *   A few errors are raised whatever silent says (an unknown variable, a
 *   vars argument that is not an object).
 * - Predicates (filters, comparisons, exists, like_regex, starts with) are
 *   three-valued: an error in an operand makes them unknown, never an
 *   error. In lax mode a comparison is true when any pair of items is; in
 *   strict mode every pair is compared and any unknown makes it unknown.
 * - Numbers are numeric: compared with no limit on their digits, computed
 *   with engine/numeric.h (36 significant digits; beyond them 22003).
 *
 * Items are jnode trees (engine/json_tree.h) in one arena per call: parts
 * of the target or of vars, or new values (numbers, strings, keyvalue's
 * objects). keyvalue's "id" is PostgreSQL's: the byte offset of the object
 * in the binary jsonb it lies in, plus 10^10 times the number of that
 * jsonb (0 the target, 1 vars, 2 and up the objects keyvalue made, in the
 * order made); the offsets follow jsonb's binary layout (a container's
 * 4-byte header and 4-byte entries, then its keys and values, numbers and
 * containers aligned to 4 bytes, a number's varlena size).
 */
#include "engine/jsonpath.h"

#include "engine/numeric.h"
#include "engine/similar.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { R_OK = 0, R_NOTFOUND = 1, R_ERROR = 2, R_FATAL = -1 };
enum { B_FALSE = 0, B_TRUE = 1, B_UNKNOWN = 2, B_FATAL = -1 };

/* a list of items found */
typedef struct jlist { const jnode **v; size_t n, cap; } jlist;

typedef struct jctx {
    jarena *ar;
    attu_error *err;
    bool lax;              /* lax mode: unwrap and wrap arrays */
    bool ignore_struct;    /* structural errors find nothing (lax, and inside .**) */
    bool throw_errors;     /* errors raised (not silent, and not inside a predicate) */
    const jnode *root, *current, *vars;
    long array_size;       /* the innermost subscripted array's size, for last (-1: none) */
    const jnode *base;     /* the jsonb the items lie in, and its number (keyvalue's id) */
    int64_t base_id, next_id;
    attu_similar re;       /* like_regex's last pattern */
    int depth;
} jctx;

static int exec_item(jctx *c, const jp_item *it, const jnode *jb, jlist *found);
static int exec_target(jctx *c, const jp_item *it, const jnode *jb, jlist *found, bool unwrap);
static int exec_bool(jctx *c, const jp_item *it, const jnode *jb, bool can_have_next);

/* ---- helpers ------------------------------------------------------------------------------ */

static int oom(jctx *c) { attu_error_oom(c->err); return R_FATAL; }

static int push(jctx *c, jlist *l, const jnode *x) {
    if (l->n == l->cap) {
        size_t cap = l->cap ? l->cap * 2 : 8;
        const jnode **v = attu_jt_alloc(c->ar, cap * sizeof *v);
        if (!v) return oom(c);
        if (l->n) memcpy(v, l->v, l->n * sizeof *v);
        l->v = v; l->cap = cap;
    }
    l->v[l->n++] = x;
    return R_OK;
}

/* An error of the path's evaluation: raised where errors are thrown,
 * else R_ERROR (PostgreSQL's RETURN_ERROR). */
static int jerror(jctx *c, const char *sqlstate, const char *fmt, ...) {
    if (!c->throw_errors) return R_ERROR;
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    attu_error_set(c->err, sqlstate, 0, "%s", msg);
    return R_FATAL;
}

static jnode *new_node(jctx *c, int kind) {
    jnode *j = attu_jt_alloc(c->ar, sizeof *j);
    if (!j) return NULL;
    memset(j, 0, sizeof *j);
    j->kind = (uint8_t)kind;
    return j;
}
static char *arena_text(jctx *c, const char *s, size_t n) {
    char *d = attu_jt_alloc(c->ar, n + 1);
    if (!d) return NULL;
    if (n) memcpy(d, s, n);
    d[n] = 0;
    return d;
}
static jnode *str_node(jctx *c, const char *s, size_t n) {
    jnode *j = new_node(c, J_STR);
    if (j && !(j->s = arena_text(c, s, n))) return NULL;
    if (j) j->slen = n;
    return j;
}
/* a number from any numeric text: numeric_in then numeric_out */
static jnode *num_node(jctx *c, const char *s, size_t n) {
    jnum v;
    if (attu_jt_num_parse(s, n, &v, c->err)) return NULL;
    jbuf b = { 0 };
    attu_jt_num_print(&b, &v);
    attu_jt_num_done(&v);
    jnode *j = b.oom ? NULL : new_node(c, J_NUM);
    if (j && !(j->s = arena_text(c, b.p, b.len))) j = NULL;
    if (j) j->slen = b.len;
    free(b.p);
    if (!j && !c->err->set) attu_error_oom(c->err);
    return j;
}
static jnode *int_node(jctx *c, int64_t v) {
    char t[32];
    int n = snprintf(t, sizeof t, "%lld", (long long)v);
    return num_node(c, t, (size_t)n);
}
static jnode *bool_node(jctx *c, int b) { return new_node(c, b == B_UNKNOWN ? J_NULL : b == B_TRUE ? J_TRUE : J_FALSE); }

static bool is_bool(const jnode *j) { return j->kind == J_TRUE || j->kind == J_FALSE; }
static int kind_class(const jnode *j) { return j->kind == J_TRUE ? J_FALSE : j->kind; }

static int to_numeric(jctx *c, const jnode *j, attu_numeric *out) {
    return attu_numeric_parse(j->s, j->slen, out, c->err) ? R_FATAL : R_OK;
}
static jnode *numeric_node(jctx *c, attu_numeric v) {
    char t[80];
    int n = attu_numeric_format(v, t, sizeof t);
    return num_node(c, t, (size_t)n);
}

/* ---- keyvalue's ids: offsets in jsonb's binary layout --------------------------------------- */

static size_t align4(size_t x) { return (x + 3) & ~(size_t)3; }

/* a number's varlena size: 4-byte header, a 2-byte (short) or 4-byte
 * numeric header, 2 bytes per base-10000 digit */
static size_t numeric_size(const jnode *j) {
    jnum v;
    attu_error e = { 0 };
    if (attu_jt_num_parse(j->s, j->slen, &v, &e)) return 8;
    long ngroups = 0, weight = 0;
    if (v.ndig) {
        /* digit i has the power exp - 1 - i; its group is floor(power / 4) */
        long p_first = v.exp - 1, p_last = v.exp - (long)v.ndig;
        long g_first = p_first >= 0 ? p_first / 4 : -((-p_first + 3) / 4);
        long g_last = p_last >= 0 ? p_last / 4 : -((-p_last + 3) / 4);
        weight = g_first;
        ngroups = g_first - g_last + 1;
    }
    bool shrt = v.dscale <= 63 && weight >= -64 && weight <= 63;
    attu_jt_num_done(&v);
    return 4 + (shrt ? 2 : 4) + 2 * (size_t)ngroups;
}

static size_t binary_size(const jnode *j);

/* the children of a container in storage order: an object's keys, then its values */
static const jnode *storage_child(const jnode *c, size_t i) {
    if (c->kind == J_ARR) return c->kids[i];
    return i < c->n ? c->kids[2 * i] : c->kids[2 * (i - c->n) + 1];
}
static size_t storage_count(const jnode *c) { return c->kind == J_ARR ? c->n : 2 * c->n; }

static size_t place(size_t pos, const jnode *x) {
    return x->kind == J_NUM || x->kind == J_ARR || x->kind == J_OBJ ? align4(pos) : pos;
}

static size_t binary_size(const jnode *j) {
    switch (j->kind) {
    case J_STR: return j->slen;
    case J_NUM: return numeric_size(j);
    case J_ARR: case J_OBJ: {
        size_t k = storage_count(j), pos = 4 + 4 * k;
        for (size_t i = 0; i < k; i++) {
            const jnode *x = storage_child(j, i);
            pos = place(pos, x) + binary_size(x);
        }
        return pos;
    }
    default: return 0;
    }
}

/* the offset of target inside container c placed at `at` */
static bool find_offset(const jnode *c, size_t at, const jnode *target, size_t *out) {
    if (c == target) { *out = at; return true; }
    if (c->kind != J_ARR && c->kind != J_OBJ) return false;
    size_t k = storage_count(c), pos = at + 4 + 4 * k;
    for (size_t i = 0; i < k; i++) {
        const jnode *x = storage_child(c, i);
        pos = place(pos, x);
        if (find_offset(x, pos, target, out)) return true;
        pos += binary_size(x);
    }
    return false;
}

/* ---- the evaluation ------------------------------------------------------------------------ */

/* the next item of it's chain over v, or v found */
static int exec_next(jctx *c, const jp_item *it, const jnode *v, jlist *found) {
    if (it->next) return exec_item(c, it->next, v, found);
    if (found) return push(c, found, v);
    return R_OK;
}

static int exec_item(jctx *c, const jp_item *it, const jnode *jb, jlist *found) {
    return exec_target(c, it, jb, found, c->lax);
}

/* it over each element of the array jb (lax unwrapping of the target) */
static int unwrap_target(jctx *c, const jp_item *it, const jnode *jb, jlist *found) {
    int res = R_NOTFOUND;
    for (size_t i = 0; i < jb->n; i++) {
        int r = exec_target(c, it, jb->kids[i], found, false);
        if (r == R_FATAL || r == R_ERROR) return r;
        if (r == R_OK) { res = R_OK; if (!found) break; }
    }
    return res;
}

/* it's items, an array among them replaced by its elements in lax mode */
static int exec_unwrap_result(jctx *c, const jp_item *it, const jnode *jb, bool unwrap, jlist *found) {
    if (!(unwrap && c->lax)) return exec_item(c, it, jb, found);
    jlist seq = { 0 };
    int r = exec_item(c, it, jb, &seq);
    if (r == R_FATAL || r == R_ERROR) return r;
    for (size_t i = 0; i < seq.n; i++) {
        const jnode *x = seq.v[i];
        if (x->kind == J_ARR) {
            for (size_t k = 0; k < x->n; k++) if (push(c, found, x->kids[k])) return R_FATAL;
        } else if (push(c, found, x)) return R_FATAL;
    }
    return seq.n ? R_OK : R_NOTFOUND;
}

/* the same with errors not raised (an operand of a predicate) */
static int exec_unwrap_result_nothrow(jctx *c, const jp_item *it, const jnode *jb, bool unwrap, jlist *found) {
    bool t = c->throw_errors;
    c->throw_errors = false;
    int r = exec_unwrap_result(c, it, jb, unwrap, found);
    c->throw_errors = t;
    return r;
}

/* .* [*] .** over the children of container jb at level, levels first..last */
static int exec_any(jctx *c, const jp_item *next, const jnode *jb, jlist *found, uint32_t level, uint32_t first,
                    uint32_t last, bool ignore_struct, bool unwrap_next) {
    if (++c->depth > 10000) { attu_error_set(c->err, "54001", 0, "stack depth limit exceeded"); return R_FATAL; }
    int res = R_NOTFOUND;
    if (level > last) { c->depth--; return res; }
    for (size_t i = 0; i < jb->n; i++) {
        const jnode *v = jb->kind == J_ARR ? jb->kids[i] : jb->kids[2 * i + 1];
        bool container = v->kind == J_ARR || v->kind == J_OBJ;
        if (level >= first || (first == JP_ANY_LAST && last == JP_ANY_LAST && !container)) {
            if (next) {
                bool saved = c->ignore_struct;
                if (ignore_struct) c->ignore_struct = true;
                int r = exec_target(c, next, v, found, unwrap_next);
                c->ignore_struct = saved;
                if (r == R_FATAL || r == R_ERROR) { c->depth--; return r; }
                if (r == R_OK) { res = R_OK; if (!found) break; }
            } else if (found) {
                if (push(c, found, v)) { c->depth--; return R_FATAL; }
                res = R_OK;
            } else { res = R_OK; break; }
        }
        if (level < last && container) {
            int r = exec_any(c, next, v, found, level + 1, first, last, ignore_struct, unwrap_next);
            if (r == R_FATAL || r == R_ERROR) { c->depth--; return r; }
            if (r == R_OK) { res = R_OK; if (!found) break; }
        }
    }
    c->depth--;
    return res;
}

/* an array subscript: a single number, truncated to an integer */
static int array_index(jctx *c, const jp_item *it, const jnode *jb, long *out) {
    jlist seq = { 0 };
    int r = exec_item(c, it, jb, &seq);
    if (r == R_FATAL || r == R_ERROR) return r;
    if (seq.n != 1 || seq.v[0]->kind != J_NUM)
        return jerror(c, "22033", "jsonpath array subscript is not a single numeric value");
    jnum v;
    if (attu_jt_num_parse(seq.v[0]->s, seq.v[0]->slen, &v, c->err)) return R_FATAL;
    long x = 0;
    bool range = v.exp > 10;
    for (long i = 0; !range && i < v.exp; i++) x = x * 10 + (i < (long)v.ndig ? v.dig[i] - '0' : 0);
    if (v.neg) x = -x;
    attu_jt_num_done(&v);
    if (range || x > 2147483647L || x < -2147483648L)
        return jerror(c, "22033", "jsonpath array subscript is out of integer range");
    *out = x;
    return R_OK;
}

static int exec_index(jctx *c, const jp_item *it, const jnode *jb, jlist *found) {
    if (jb->kind != J_ARR && !c->lax)
        return c->ignore_struct ? R_NOTFOUND : jerror(c, "22039", "jsonpath array accessor can only be applied to an array");
    bool singleton = jb->kind != J_ARR;
    long size = singleton ? 1 : (long)jb->n;
    long saved_size = c->array_size;
    c->array_size = size;
    int res = R_NOTFOUND;
    for (int i = 0; i < it->nsubs; i++) {
        long from, to;
        int r = array_index(c, it->from[i], jb, &from);
        if (r == R_OK && it->to[i]) r = array_index(c, it->to[i], jb, &to);
        else to = from;
        if (r != R_OK) { res = r; break; }
        if (!c->ignore_struct && (from < 0 || from > to || to >= size)) {
            res = jerror(c, "22033", "jsonpath array subscript is out of bounds");
            break;
        }
        if (from < 0) from = 0;
        if (to >= size) to = size - 1;
        bool stop = false;
        for (long k = from; k <= to; k++) {
            const jnode *v = singleton ? jb : jb->kids[k];
            if (!it->next && !found) { res = R_OK; stop = true; break; }
            r = exec_next(c, it, v, found);
            if (r == R_FATAL || r == R_ERROR) { res = r; stop = true; break; }
            if (r == R_OK) { res = R_OK; if (!found) { stop = true; break; } }
        }
        if (stop) break;
    }
    c->array_size = saved_size;
    return res;
}

static const char *arith_text(jp_kind k) {
    switch (k) {
    case JP_ADD: case JP_PLUS: return "+";
    case JP_SUB: case JP_MINUS: return "-";
    case JP_MUL: return "*";
    case JP_DIV: return "/";
    default: return "%";
    }
}

static int exec_binary_arith(jctx *c, const jp_item *it, const jnode *jb, jlist *found) {
    jlist l = { 0 }, r = { 0 };
    /* both operands first, then their checks (PostgreSQL's order of errors) */
    int res = exec_unwrap_result(c, it->left, jb, true, &l);
    if (res == R_FATAL || res == R_ERROR) return res;
    res = exec_unwrap_result(c, it->right, jb, true, &r);
    if (res == R_FATAL || res == R_ERROR) return res;
    if (l.n != 1 || l.v[0]->kind != J_NUM)
        return jerror(c, "22038", "left operand of jsonpath operator %s is not a single numeric value", arith_text(it->kind));
    if (r.n != 1 || r.v[0]->kind != J_NUM)
        return jerror(c, "22038", "right operand of jsonpath operator %s is not a single numeric value", arith_text(it->kind));
    attu_numeric a, b, v;
    if (to_numeric(c, l.v[0], &a) || to_numeric(c, r.v[0], &b)) return R_FATAL;
    attu_error e = { 0 };
    int rc;
    switch (it->kind) {
    case JP_ADD: rc = attu_numeric_add(a, b, &v, &e); break;
    case JP_SUB: rc = attu_numeric_sub(a, b, &v, &e); break;
    case JP_MUL: rc = attu_numeric_mul(a, b, &v, &e); break;
    case JP_DIV: rc = attu_numeric_div(a, b, &v, &e); break;
    default: rc = attu_numeric_mod(a, b, &v, &e); break;
    }
    if (rc) {
        /* division by zero is PostgreSQL's error, silenced as its are;
         * attu's 36-digit limit is raised always */
        if (!strcmp(e.sqlstate, ATTU_SQLSTATE_DIVISION_BY_ZERO) && !c->throw_errors) return R_ERROR;
        *c->err = e;
        return R_FATAL;
    }
    if (!it->next && !found) return R_OK;
    jnode *n = numeric_node(c, v);
    if (!n) return R_FATAL;
    return exec_next(c, it, n, found);
}

static jnode *negate(jctx *c, const jnode *j) {
    bool zero = true;
    for (size_t i = 0; i < j->slen; i++) if (j->s[i] >= '1' && j->s[i] <= '9') zero = false;
    if (zero) return (jnode *)j;
    jnode *n = new_node(c, J_NUM);
    if (!n) return NULL;
    if (j->s[0] == '-') { n->s = j->s + 1; n->slen = j->slen - 1; return n; }
    char *d = attu_jt_alloc(c->ar, j->slen + 2);
    if (!d) return NULL;
    d[0] = '-';
    memcpy(d + 1, j->s, j->slen);
    d[j->slen + 1] = 0;
    n->s = d; n->slen = j->slen + 1;
    return n;
}

static int exec_unary_arith(jctx *c, const jp_item *it, const jnode *jb, jlist *found) {
    jlist seq = { 0 };
    int res = exec_unwrap_result(c, it->left, jb, true, &seq);
    if (res == R_FATAL || res == R_ERROR) return res;
    res = R_NOTFOUND;
    bool has_next = it->next != NULL;
    for (size_t i = 0; i < seq.n; i++) {
        const jnode *v = seq.v[i];
        if (v->kind == J_NUM) {
            if (!found && !has_next) return R_OK;
        } else {
            if (!found && !has_next) continue;   /* (PostgreSQL skips the check here) */
            return jerror(c, "2203B", "operand of unary jsonpath operator %s is not a numeric value", arith_text(it->kind));
        }
        if (it->kind == JP_MINUS && !(v = negate(c, v))) return oom(c);
        int r = exec_next(c, it, v, found);
        if (r == R_FATAL || r == R_ERROR) return r;
        if (r == R_OK) { if (!found) return R_OK; res = R_OK; }
    }
    return res;
}

/* .double(): a number kept (if a double holds it), a string read as a double */
static int exec_double(jctx *c, const jp_item *it, const jnode *jb, jlist *found) {
    if (jb->kind == J_NUM) {
        char t[64];
        size_t n = jb->slen < sizeof t - 1 ? jb->slen : sizeof t - 1;
        double d;
        if (jb->slen < sizeof t - 1) {
            memcpy(t, jb->s, n);
            t[n] = 0;
            d = strtod(t, NULL);
        } else {
            char *h = arena_text(c, jb->s, jb->slen);
            if (!h) return oom(c);
            d = strtod(h, NULL);
        }
        if (isinf(d) || isnan(d))
            return jerror(c, "22003", "numeric argument of jsonpath item method .double() is out of range for type double precision");
        return exec_next(c, it, jb, found);
    }
    if (jb->kind == J_STR) {
        char *s = arena_text(c, jb->s, jb->slen);
        if (!s) return oom(c);
        const char *p = s;
        while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r' || *p == '\f' || *p == '\v') p++;
        char *end;
        errno = 0;
        double d = *p ? strtod(p, &end) : 0;
        bool ok = *p && end != p;
        if (ok) {
            while (*end == ' ' || *end == '\t' || *end == '\n' || *end == '\r' || *end == '\f' || *end == '\v') end++;
            ok = !*end && !(errno == ERANGE && (d == 0 || isinf(d))) && !isinf(d) && !isnan(d);
        }
        if (!ok)
            return jerror(c, "22036", "string argument of jsonpath item method .double() is not a valid representation of a double precision number");
        char t[64];
        int n = snprintf(t, sizeof t, "%.15g", d);
        jnode *v = num_node(c, t, (size_t)n);
        if (!v) return R_FATAL;
        return exec_next(c, it, v, found);
    }
    return jerror(c, "22036", "jsonpath item method .double() can only be applied to a string or numeric value");
}

static int exec_numeric_method(jctx *c, const jp_item *it, const jnode *jb, jlist *found) {
    const char *name = it->kind == JP_ABS ? "abs" : it->kind == JP_FLOOR ? "floor" : "ceiling";
    if (jb->kind != J_NUM) return jerror(c, "22036", "jsonpath item method .%s() can only be applied to a numeric value", name);
    const jnode *v;
    if (it->kind == JP_ABS) {
        v = jb->s[0] == '-' ? negate(c, jb) : jb;
        if (!v) return oom(c);
    } else {
        bool frac = memchr(jb->s, '.', jb->slen) != NULL;
        if (!frac) v = jb;
        else {
            attu_numeric a, r;
            if (to_numeric(c, jb, &a) || attu_numeric_floor(a, it->kind == JP_CEILING, &r, c->err)) return R_FATAL;
            if (!(v = numeric_node(c, r))) return R_FATAL;
        }
    }
    return exec_next(c, it, v, found);
}

static int exec_keyvalue(jctx *c, const jp_item *it, const jnode *jb, jlist *found) {
    if (jb->kind != J_OBJ) return jerror(c, "2203C", "jsonpath item method .keyvalue() can only be applied to an object");
    if (!jb->n) return R_NOTFOUND;
    size_t off = 0;
    if (c->base) find_offset(c->base, 0, jb, &off);
    int64_t id = (int64_t)off + c->base_id * INT64_C(10000000000);
    const jnode *saved_base = c->base;
    int64_t saved_id = c->base_id;
    int res = R_NOTFOUND;
    for (size_t i = 0; i < jb->n; i++) {
        jnode *o = new_node(c, J_OBJ);
        jnode **kids = attu_jt_alloc(c->ar, 6 * sizeof *kids);
        if (!o || !kids) return oom(c);
        if (!(kids[0] = str_node(c, "id", 2)) || !(kids[1] = int_node(c, id)) || !(kids[2] = str_node(c, "key", 3)) ||
            !(kids[4] = str_node(c, "value", 5)))
            return c->err->set ? R_FATAL : oom(c);
        kids[3] = (jnode *)jb->kids[2 * i];
        kids[5] = (jnode *)jb->kids[2 * i + 1];
        o->kids = kids;
        o->n = 3;
        c->base = o;
        c->base_id = c->next_id++;
        int r = exec_next(c, it, o, found);
        c->base = saved_base;
        c->base_id = saved_id;
        if (r == R_FATAL || r == R_ERROR) return r;
        if (r == R_OK) { res = R_OK; if (!found) break; }
    }
    return res;
}

static int exec_target(jctx *c, const jp_item *it, const jnode *jb, jlist *found, bool unwrap) {
    if (++c->depth > 10000) { attu_error_set(c->err, "54001", 0, "stack depth limit exceeded"); return R_FATAL; }
    int res = R_NOTFOUND;
    switch (it->kind) {
    case JP_NULL: case JP_BOOL: case JP_NUMERIC: case JP_STRING: {
        jnode *v = it->kind == JP_NULL ? new_node(c, J_NULL) : it->kind == JP_BOOL ? new_node(c, it->b ? J_TRUE : J_FALSE)
                   : it->kind == JP_STRING ? str_node(c, it->s, it->slen) : num_node(c, it->s, it->slen);
        res = v ? exec_next(c, it, v, found) : (c->err->set ? R_FATAL : oom(c));
        break;
    }
    case JP_ROOT: {
        const jnode *sb = c->base;
        int64_t sid = c->base_id;
        c->base = c->root; c->base_id = 0;
        res = exec_next(c, it, c->root, found);
        c->base = sb; c->base_id = sid;
        break;
    }
    case JP_CURRENT: res = exec_next(c, it, c->current, found); break;
    case JP_VAR: {
        const jnode *v = NULL;
        if (!c->vars) {
            /* no vars argument (the operators): every variable is null */
            jnode *n = new_node(c, J_NULL);
            res = n ? exec_next(c, it, n, found) : oom(c);
            break;
        }
        for (size_t i = 0; i < c->vars->n && !v; i++) {
            const jnode *k = c->vars->kids[2 * i];
            if (k->slen == it->slen && !memcmp(k->s, it->s, k->slen)) v = c->vars->kids[2 * i + 1];
        }
        if (!v) {
            attu_error_set(c->err, ATTU_SQLSTATE_UNDEFINED_OBJECT, 0, "could not find jsonpath variable \"%.*s\"", (int)it->slen,
                           it->s);
            res = R_FATAL;
            break;
        }
        const jnode *sb = c->base;
        int64_t sid = c->base_id;
        c->base = c->vars; c->base_id = 1;
        res = exec_next(c, it, v, found);
        c->base = sb; c->base_id = sid;
        break;
    }
    case JP_LAST: {
        jnode *v = int_node(c, c->array_size - 1);
        res = v ? exec_next(c, it, v, found) : R_FATAL;
        break;
    }
    case JP_KEY:
        if (jb->kind == J_OBJ) {
            const jnode *v = NULL;
            for (size_t i = 0; i < jb->n && !v; i++) {
                const jnode *k = jb->kids[2 * i];
                if (k->slen == it->slen && !memcmp(k->s, it->s, k->slen)) v = jb->kids[2 * i + 1];
            }
            if (v) res = exec_next(c, it, v, found);
            else if (!c->ignore_struct)
                res = jerror(c, "2203A", "JSON object does not contain key \"%.*s\"", (int)it->slen, it->s);
        } else if (unwrap && jb->kind == J_ARR) res = unwrap_target(c, it, jb, found);
        else if (!c->ignore_struct) res = jerror(c, "2203A", "jsonpath member accessor can only be applied to an object");
        break;
    case JP_ANY_ARRAY:
        if (jb->kind == J_ARR) res = exec_any(c, it->next, jb, found, 1, 1, 1, false, c->lax);
        else if (c->lax) res = exec_next(c, it, jb, found);
        else if (!c->ignore_struct) res = jerror(c, "22039", "jsonpath wildcard array accessor can only be applied to an array");
        break;
    case JP_ANY_KEY:
        if (jb->kind == J_OBJ) res = exec_any(c, it->next, jb, found, 1, 1, 1, false, c->lax);
        else if (unwrap && jb->kind == J_ARR) res = unwrap_target(c, it, jb, found);
        else if (!c->ignore_struct)
            res = jerror(c, "2203C", "jsonpath wildcard member accessor can only be applied to an object");
        break;
    case JP_INDEX: res = exec_index(c, it, jb, found); break;
    case JP_ANY:
        /* level 0 is the item itself (its errors are structural: ignored) */
        if (it->first == 0) {
            bool saved = c->ignore_struct;
            c->ignore_struct = true;
            res = exec_next(c, it, jb, found);
            c->ignore_struct = saved;
            if (res == R_FATAL || (res == R_OK && !found)) break;
        }
        if (jb->kind == J_ARR || jb->kind == J_OBJ) res = exec_any(c, it->next, jb, found, 1, it->first, it->last, true, c->lax);
        break;
    case JP_FILTER: {
        if (unwrap && jb->kind == J_ARR) { res = unwrap_target(c, it, jb, found); break; }
        const jnode *saved = c->current;
        c->current = jb;
        int st = exec_bool(c, it->left, jb, false);
        c->current = saved;
        if (st == B_FATAL) res = R_FATAL;
        else if (st == B_TRUE) res = exec_next(c, it, jb, found);
        break;
    }
    case JP_TYPE: {
        static const char *const names[] = { "null", "string", "number", "boolean", "boolean", "array", "object" };
        const char *t = names[jb->kind];
        jnode *v = str_node(c, t, strlen(t));
        res = v ? exec_next(c, it, v, found) : oom(c);
        break;
    }
    case JP_SIZE: {
        long size = jb->kind == J_ARR ? (long)jb->n : -1;
        if (size < 0) {
            /* lax: a non-array is an array of one; strict: an error, or
             * nothing where structural errors are ignored (inside .**) */
            if (!c->lax) {
                if (!c->ignore_struct) res = jerror(c, "22039", "jsonpath item method .size() can only be applied to an array");
                break;
            }
            size = 1;
        }
        jnode *v = int_node(c, size);
        res = v ? exec_next(c, it, v, found) : R_FATAL;
        break;
    }
    case JP_DOUBLE:
        res = unwrap && jb->kind == J_ARR ? unwrap_target(c, it, jb, found) : exec_double(c, it, jb, found);
        break;
    case JP_CEILING: case JP_FLOOR: case JP_ABS:
        res = unwrap && jb->kind == J_ARR ? unwrap_target(c, it, jb, found) : exec_numeric_method(c, it, jb, found);
        break;
    case JP_KEYVALUE:
        res = unwrap && jb->kind == J_ARR ? unwrap_target(c, it, jb, found) : exec_keyvalue(c, it, jb, found);
        break;
    case JP_DATETIME:
        if (unwrap && jb->kind == J_ARR) { res = unwrap_target(c, it, jb, found); break; }
        if (jb->kind != J_STR) { res = jerror(c, "22031", "jsonpath item method .datetime() can only be applied to a string"); break; }
        attu_error_set(c->err, ATTU_SQLSTATE_FEATURE_NOT_SUPPORTED, 0, "jsonpath item method .datetime() is not supported in attu");
        res = R_FATAL;
        break;
    case JP_ADD: case JP_SUB: case JP_MUL: case JP_DIV: case JP_MOD: res = exec_binary_arith(c, it, jb, found); break;
    case JP_PLUS: case JP_MINUS: res = exec_unary_arith(c, it, jb, found); break;
    default: {
        /* a predicate as an item: its truth value (null for unknown) */
        int st = exec_bool(c, it, jb, true);
        if (st == B_FATAL) { res = R_FATAL; break; }
        if (!it->next && !found) { res = R_OK; break; }
        jnode *v = bool_node(c, st);
        res = v ? exec_next(c, it, v, found) : oom(c);
        break;
    }
    }
    c->depth--;
    return res;
}

/* ---- predicates --------------------------------------------------------------------------- */

static int compare_items(jp_kind op, const jnode *a, const jnode *b) {
    if (kind_class(a) != kind_class(b)) {
        if (a->kind == J_NULL || b->kind == J_NULL) return op == JP_NE ? B_TRUE : B_FALSE;
        return B_UNKNOWN;
    }
    int cmp;
    switch (a->kind) {
    case J_NULL: cmp = 0; break;
    case J_TRUE: case J_FALSE: cmp = a->kind == b->kind ? 0 : a->kind == J_TRUE ? 1 : -1; break;
    case J_NUM: {
        jnum x, y;
        attu_error e = { 0 };
        if (attu_jt_num_parse(a->s, a->slen, &x, &e)) return B_UNKNOWN;
        if (attu_jt_num_parse(b->s, b->slen, &y, &e)) { attu_jt_num_done(&x); return B_UNKNOWN; }
        cmp = attu_jt_num_cmp(&x, &y);
        attu_jt_num_done(&x);
        attu_jt_num_done(&y);
        break;
    }
    case J_STR: {
        /* the C collation's order: bytes, then length */
        size_t n = a->slen < b->slen ? a->slen : b->slen;
        cmp = memcmp(a->s, b->s, n);
        if (!cmp) cmp = a->slen == b->slen ? 0 : a->slen < b->slen ? -1 : 1;
        break;
    }
    default: return B_UNKNOWN;   /* arrays and objects are not compared */
    }
    bool r;
    switch (op) {
    case JP_EQ: r = cmp == 0; break;
    case JP_NE: r = cmp != 0; break;
    case JP_LT: r = cmp < 0; break;
    case JP_LE: r = cmp <= 0; break;
    case JP_GT: r = cmp > 0; break;
    default: r = cmp >= 0; break;
    }
    return r ? B_TRUE : B_FALSE;
}

static int like_regex(jctx *c, const jp_item *it, const jnode *v) {
    if (v->kind != J_STR) return B_UNKNOWN;
    int mode = 0;
    if (attu_jsonpath_regex_mode(it->flags, &mode, c->err) ||
        attu_regex_prepare_opts(&c->re, it->s, it->slen, mode, c->err))
        return B_FATAL;
    char *s = arena_text(c, v->s, v->slen);
    if (!s) return oom(c);
    return attu_similar_match(&c->re, s, v->slen) ? B_TRUE : B_FALSE;
}

/* a comparison, like_regex or starts with over the items of its operands */
static int exec_predicate(jctx *c, const jp_item *it, const jnode *jb) {
    jlist l = { 0 }, r = { 0 };
    int res = exec_unwrap_result_nothrow(c, it->left, jb, true, &l);
    if (res == R_FATAL) return B_FATAL;
    if (res == R_ERROR) return B_UNKNOWN;
    bool binary = it->kind != JP_LIKE_REGEX;
    if (binary) {
        res = exec_unwrap_result_nothrow(c, it->right, jb, it->kind != JP_STARTS_WITH, &r);
        if (res == R_FATAL) return B_FATAL;
        if (res == R_ERROR) return B_UNKNOWN;
    }
    bool error = false, any = false;
    for (size_t i = 0; i < l.n; i++) {
        for (size_t k = 0; k < (binary ? r.n : 1); k++) {
            int st;
            if (it->kind == JP_LIKE_REGEX) st = like_regex(c, it, l.v[i]);
            else if (it->kind == JP_STARTS_WITH) {
                const jnode *w = l.v[i], *p = r.v[k];
                st = w->kind != J_STR || p->kind != J_STR ? B_UNKNOWN
                     : w->slen >= p->slen && !memcmp(w->s, p->s, p->slen) ? B_TRUE : B_FALSE;
            } else st = compare_items(it->kind, l.v[i], r.v[k]);
            if (st == B_FATAL) return B_FATAL;
            if (st == B_UNKNOWN) {
                if (!c->lax) return B_UNKNOWN;
                error = true;
            } else if (st == B_TRUE) {
                if (c->lax) return B_TRUE;
                any = true;
            }
        }
    }
    if (any && !error) return B_TRUE;
    if (error) return B_UNKNOWN;
    return B_FALSE;
}

static int exec_bool(jctx *c, const jp_item *it, const jnode *jb, bool can_have_next) {
    if (!can_have_next && it->next) {
        attu_error_set(c->err, ATTU_SQLSTATE_INTERNAL, 0, "boolean jsonpath item cannot have next item");
        return B_FATAL;
    }
    switch (it->kind) {
    case JP_AND: {
        int a = exec_bool(c, it->left, jb, false);
        if (a == B_FATAL || a == B_FALSE) return a;
        int b = exec_bool(c, it->right, jb, false);
        if (b == B_FATAL) return b;
        return b == B_TRUE ? a : b;
    }
    case JP_OR: {
        int a = exec_bool(c, it->left, jb, false);
        if (a == B_FATAL || a == B_TRUE) return a;
        int b = exec_bool(c, it->right, jb, false);
        if (b == B_FATAL) return b;
        return b == B_FALSE ? a : b;
    }
    case JP_NOT: {
        int a = exec_bool(c, it->left, jb, false);
        return a == B_TRUE ? B_FALSE : a == B_FALSE ? B_TRUE : a;
    }
    case JP_IS_UNKNOWN: {
        int a = exec_bool(c, it->left, jb, false);
        return a == B_FATAL ? a : a == B_UNKNOWN ? B_TRUE : B_FALSE;
    }
    case JP_EXISTS: {
        if (!c->lax) {
            /* strict: every item, to see that none is an error */
            jlist vals = { 0 };
            int r = exec_unwrap_result_nothrow(c, it->left, jb, false, &vals);
            if (r == R_FATAL) return B_FATAL;
            if (r == R_ERROR) return B_UNKNOWN;
            return vals.n ? B_TRUE : B_FALSE;
        }
        int r = exec_unwrap_result_nothrow(c, it->left, jb, false, NULL);
        if (r == R_FATAL) return B_FATAL;
        if (r == R_ERROR) return B_UNKNOWN;
        return r == R_OK ? B_TRUE : B_FALSE;
    }
    case JP_EQ: case JP_NE: case JP_LT: case JP_LE: case JP_GT: case JP_GE: case JP_STARTS_WITH: case JP_LIKE_REGEX:
        return exec_predicate(c, it, jb);
    default:
        attu_error_set(c->err, ATTU_SQLSTATE_INTERNAL, 0, "invalid boolean jsonpath item type: %d", (int)it->kind);
        return B_FATAL;
    }
}

/* ---- the functions -------------------------------------------------------------------------- */

int attu_jsonpath_regex_mode(int flags, int *mode, attu_error *err) {
    int m = ATTU_RE_ARE;
    if (flags & JP_RE_I) m |= ATTU_RE_ICASE;
    if (flags & JP_RE_Q) m |= ATTU_RE_QUOTE;
    else {
        if (!(flags & JP_RE_S)) m |= ATTU_RE_NLSTOP;
        if (flags & JP_RE_M) m |= ATTU_RE_NLANCH;
        if (flags & JP_RE_X)
            return attu_error_set(err, ATTU_SQLSTATE_FEATURE_NOT_SUPPORTED, 0,
                                  "XQuery \"x\" flag (expanded regular expressions) is not implemented");
    }
    *mode = m;
    return 0;
}

int attu_jsonpath_run(jp_func fn, const char *target, size_t tlen, const char *path, size_t plen, const char *vars,
                      size_t vlen, bool silent, jbuf *out, bool *bool_out, bool *is_null, attu_error *err) {
    jarena ar = { 0 };
    jctx c;
    memset(&c, 0, sizeof c);
    c.ar = &ar;
    c.err = err;
    *is_null = true;
    int rc = -1;
    jp_path p;
    if (attu_jsonpath_parse(&ar, path, plen, &p, err)) goto done;
    jnode *root = attu_jt_parse(&ar, target, tlen, true, err);
    if (!root) goto done;
    if (vars) {
        jnode *v = attu_jt_parse(&ar, vars, vlen, true, err);
        if (!v) goto done;
        if (v->kind != J_OBJ) {
            attu_error_set(err, ATTU_SQLSTATE_INVALID_PARAMETER, 0, "\"vars\" argument is not an object");
            attu_error_set_detail(err, "Jsonpath parameters should be encoded as key-value pairs of \"vars\" object.");
            goto done;
        }
        c.vars = v;
    }
    c.lax = !p.strict;
    c.ignore_struct = c.lax;
    c.throw_errors = !silent;
    c.root = c.current = c.base = root;
    c.array_size = -1;
    c.next_id = 2;
    jlist found = { 0 };
    int res;
    if (fn == JPF_EXISTS && c.lax) res = exec_item(&c, p.root, root, NULL);
    else {
        /* strict exists reads every item, to see that none is an error */
        res = exec_item(&c, p.root, root, &found);
        if (fn == JPF_EXISTS && res == R_OK && !found.n) res = R_NOTFOUND;
    }
    if (res == R_FATAL) goto done;
    rc = 0;
    switch (fn) {
    case JPF_EXISTS:
        if (res == R_ERROR) break;
        *is_null = false;
        *bool_out = res == R_OK;
        break;
    case JPF_MATCH:
        if (found.n == 1 && is_bool(found.v[0])) { *is_null = false; *bool_out = found.v[0]->kind == J_TRUE; break; }
        if (found.n == 1 && found.v[0]->kind == J_NULL) break;
        if (!silent) rc = attu_error_set(err, "22038", 0, "single boolean result is expected");
        break;
    case JPF_QUERY_ARRAY: {
        jnode arr = { 0 };
        arr.kind = J_ARR;
        arr.n = found.n;
        arr.kids = (jnode **)found.v;
        rc = attu_jt_print(out, &arr, err);
        *is_null = rc != 0;
        break;
    }
    case JPF_QUERY_FIRST:
        if (!found.n) break;
        rc = attu_jt_print(out, found.v[0], err);
        *is_null = rc != 0;
        break;
    }
done:
    attu_similar_free(&c.re);
    attu_jt_free(&ar);
    return rc;
}
