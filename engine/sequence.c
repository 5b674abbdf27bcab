/*
 * sequence.c - one sequence generator (sequence.h).
 *
 * The bounds and steps follow PostgreSQL 15's sequence.c: an ascending
 * sequence runs from MINVALUE 1 to its type's maximum, a descending one
 * from -1 down to its type's minimum, START defaults to the bound it starts
 * from, and a step past a bound fails (2200H) or, with CYCLE, wraps to the
 * other bound. Steps are computed in 128 bits so that no bound near the
 * int64 limits overflows.
 */
#include "engine/sequence.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *attu_sequence_type_name(attu_type_id t) {
    return t == ATTU_TYPE_INT16 ? "smallint" : t == ATTU_TYPE_INT32 ? "integer" : "bigint";
}

static void type_bounds(attu_type_id t, int64_t *lo, int64_t *hi) {
    if (t == ATTU_TYPE_INT16) { *lo = INT16_MIN; *hi = INT16_MAX; }
    else if (t == ATTU_TYPE_INT32) { *lo = INT32_MIN; *hi = INT32_MAX; }
    else { *lo = INT64_MIN; *hi = INT64_MAX; }
}

static int bad(attu_error *err, const char *fmt, int64_t a, int64_t b, const char *s) {
    char m[200];
    /* every message names at most two numbers and a type name */
    if (s) snprintf(m, sizeof m, fmt, a, s);
    else snprintf(m, sizeof m, fmt, a, b);
    return attu_error_set(err, ATTU_SQLSTATE_INVALID_PARAMETER, 0, "%s", m);
}

/* PostgreSQL's init_params: opt over the values of s (init: a new
 * sequence, whose unwritten options take their defaults). Fills *out, or
 * fails with 22023 leaving *out as it was. */
static int apply(const attu_sequence *s, const attu_sequence_options *opt, bool init, attu_sequence *out, attu_error *err) {
    attu_sequence n = *s;
    bool reset_max = false, reset_min = false;
    if (opt->type != ATTU_TYPE_UNKNOWN) {
        if (opt->type != ATTU_TYPE_INT16 && opt->type != ATTU_TYPE_INT32 && opt->type != ATTU_TYPE_INT64)
            return attu_error_set(err, ATTU_SQLSTATE_INVALID_PARAMETER, 0, "sequence type must be smallint, integer, or bigint");
        if (!init) {
            /* a bound that was the old type's own follows the type; one
             * the user chose stays */
            int64_t olo, ohi;
            type_bounds(s->type, &olo, &ohi);
            reset_max = s->max == ohi;
            reset_min = s->min == olo;
        }
        n.type = opt->type;
    } else if (init) n.type = ATTU_TYPE_INT64;
    int64_t tlo, thi;
    type_bounds(n.type, &tlo, &thi);
    if (opt->has_increment) {
        if (opt->increment == 0) return attu_error_set(err, ATTU_SQLSTATE_INVALID_PARAMETER, 0, "INCREMENT must not be zero");
        n.increment = opt->increment;
    } else if (init) n.increment = 1;
    if (opt->has_cycle) n.cycle = opt->cycle;
    else if (init) n.cycle = false;
    if (opt->has_max && !opt->no_max) n.max = opt->max;
    else if (init || opt->has_max || reset_max) n.max = n.increment > 0 || reset_max ? thi : -1;
    const char *tn = attu_sequence_type_name(n.type);
    if (n.max < tlo || n.max > thi) return bad(err, "MAXVALUE (%" PRId64 ") is out of range for sequence data type %s", n.max, 0, tn);
    if (opt->has_min && !opt->no_min) n.min = opt->min;
    else if (init || opt->has_min || reset_min) n.min = n.increment < 0 || reset_min ? tlo : 1;
    if (n.min < tlo || n.min > thi) return bad(err, "MINVALUE (%" PRId64 ") is out of range for sequence data type %s", n.min, 0, tn);
    if (n.min >= n.max) return bad(err, "MINVALUE (%" PRId64 ") must be less than MAXVALUE (%" PRId64 ")", n.min, n.max, NULL);
    if (opt->has_start) n.start = opt->start;
    else if (init) n.start = n.increment > 0 ? n.min : n.max;
    if (n.start < n.min) return bad(err, "START value (%" PRId64 ") cannot be less than MINVALUE (%" PRId64 ")", n.start, n.min, NULL);
    if (n.start > n.max) return bad(err, "START value (%" PRId64 ") cannot be greater than MAXVALUE (%" PRId64 ")", n.start, n.max, NULL);
    if (opt->has_restart) {
        n.last_value = opt->has_restart_value ? opt->restart : n.start;
        n.is_called = false;
    } else if (init) {
        n.last_value = n.start;
        n.is_called = false;
    }
    /* (a changed bound checks the current value too) */
    if (n.last_value < n.min) return bad(err, "RESTART value (%" PRId64 ") cannot be less than MINVALUE (%" PRId64 ")", n.last_value, n.min, NULL);
    if (n.last_value > n.max) return bad(err, "RESTART value (%" PRId64 ") cannot be greater than MAXVALUE (%" PRId64 ")", n.last_value, n.max, NULL);
    if (opt->has_cache) {
        if (opt->cache <= 0) return bad(err, "CACHE (%" PRId64 ") must be greater than zero", opt->cache, 0, NULL);
        n.cache = opt->cache;
    } else if (init) n.cache = 1;
    *out = n;
    return 0;
}

attu_sequence *attu_sequence_new(const char *name, const attu_sequence_options *opt, attu_error *err) {
    attu_sequence n;
    memset(&n, 0, sizeof n);
    if (apply(&n, opt, true, &n, err)) return NULL;
    attu_sequence *s = malloc(sizeof *s);
    if (!s) { attu_error_oom(err); return NULL; }
    *s = n;
    if (!(s->name = strdup(name))) { free(s); attu_error_oom(err); return NULL; }
    return s;
}

int attu_sequence_alter(attu_sequence *s, const attu_sequence_options *opt, attu_error *err) {
    attu_sequence n;
    if (apply(s, opt, false, &n, err)) return -1;
    *s = n;   /* (the name and the owner are the same pointers) */
    return 0;
}

void attu_sequence_free(attu_sequence *s) {
    if (!s) return;
    free(s->name); free(s->owner_table); free(s->owner_column);
    free(s);
}

int attu_sequence_next(attu_sequence *s, int64_t *out, attu_error *err) {
    if (!s->is_called) {
        s->is_called = true;
        *out = s->last_value;
        return 0;
    }
    __int128 next = (__int128)s->last_value + s->increment;
    if (next > s->max) {
        if (!s->cycle)
            return attu_error_set(err, "2200H", 0, "nextval: reached maximum value of sequence \"%s\" (%" PRId64 ")", s->name, s->max);
        next = s->min;
    } else if (next < s->min) {
        if (!s->cycle)
            return attu_error_set(err, "2200H", 0, "nextval: reached minimum value of sequence \"%s\" (%" PRId64 ")", s->name, s->min);
        next = s->max;
    }
    s->last_value = (int64_t)next;
    *out = s->last_value;
    return 0;
}

int attu_sequence_set(attu_sequence *s, int64_t v, bool is_called, attu_error *err) {
    if (v < s->min || v > s->max)
        return attu_error_set(err, ATTU_SQLSTATE_NUMERIC_RANGE, 0,
                              "setval: value %" PRId64 " is out of bounds for sequence \"%s\" (%" PRId64 "..%" PRId64 ")",
                              v, s->name, s->min, s->max);
    s->last_value = v;
    s->is_called = is_called;
    return 0;
}

void attu_sequence_restart(attu_sequence *s) {
    s->last_value = s->start;
    s->is_called = false;
}

/* ---- one line of text ------------------------------------------------------------------- */

/* %XX for every byte but letters, digits and '_' ("-" for NULL) */
static void put_escaped(char **p, const char *v) {
    if (!v) { *(*p)++ = '-'; return; }
    if (!*v) { memcpy(*p, "%", 1); (*p)++; return; }   /* "" (never a name, kept distinct) */
    for (const unsigned char *c = (const unsigned char *)v; *c; c++) {
        if ((*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') || (*c >= '0' && *c <= '9') || *c == '_') *(*p)++ = (char)*c;
        else *p += sprintf(*p, "%%%02X", *c);
    }
}

char *attu_sequence_format(const attu_sequence *s) {
    size_t cap = 3 * (strlen(s->name) + (s->owner_table ? strlen(s->owner_table) : 0) +
                      (s->owner_column ? strlen(s->owner_column) : 0)) + 256;
    char *buf = malloc(cap), *p = buf;
    if (!buf) return NULL;
    put_escaped(&p, s->name);
    p += sprintf(p, "\t%d\t%" PRId64 "\t%" PRId64 "\t%" PRId64 "\t%" PRId64 "\t%" PRId64 "\t%d\t%" PRId64 "\t%d\t",
                 (int)s->type, s->increment, s->min, s->max, s->start, s->cache, s->cycle, s->last_value, s->is_called);
    put_escaped(&p, s->owner_table);
    *p++ = '\t';
    put_escaped(&p, s->owner_column);
    p += sprintf(p, "\t%c", s->identity ? s->identity : '-');
    *p = '\0';
    return buf;
}

static int hexval(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    return -1;
}

/* The escaped field f (n bytes): a malloc'd string, NULL for "-"; *ok
 * false when out of memory or malformed. */
static char *unescape(const char *f, size_t n, bool *ok) {
    if (n == 1 && f[0] == '-') return NULL;
    char *o = malloc(n + 1);
    if (!o) { *ok = false; return NULL; }
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        if (f[i] == '%' && n == 1) break;   /* the empty string */
        if (f[i] == '%') {
            if (i + 2 >= n) { *ok = false; break; }
            int h = hexval(f[i + 1]), l = hexval(f[i + 2]);
            if (h < 0 || l < 0) { *ok = false; break; }
            o[k++] = (char)(h * 16 + l);
            i += 2;
        } else o[k++] = f[i];
    }
    o[k] = '\0';
    return o;
}

attu_sequence *attu_sequence_parse(const char *line, attu_error *err) {
    const char *f[13];
    size_t len[13];
    int nf = 0;
    const char *p = line;
    while (nf < 13) {
        const char *t = strchr(p, '\t');
        f[nf] = p;
        len[nf] = t ? (size_t)(t - p) : strlen(p);
        nf++;
        if (!t) break;
        p = t + 1;
    }
    attu_sequence *s = calloc(1, sizeof *s);
    bool ok = s && nf == 13;
    if (ok) {
        int type, cycle, called;
        char id;
        ok = sscanf(f[1], "%d\t%" SCNd64 "\t%" SCNd64 "\t%" SCNd64 "\t%" SCNd64 "\t%" SCNd64 "\t%d\t%" SCNd64 "\t%d",
                    &type, &s->increment, &s->min, &s->max, &s->start, &s->cache, &cycle, &s->last_value, &called) == 9;
        id = f[12][0];
        s->type = (attu_type_id)type;
        s->cycle = cycle != 0;
        s->is_called = called != 0;
        s->identity = id == 'a' || id == 'd' ? id : 0;
        if (ok) s->name = unescape(f[0], len[0], &ok);
        if (ok) s->owner_table = unescape(f[10], len[10], &ok);
        if (ok) s->owner_column = unescape(f[11], len[11], &ok);
        ok = ok && s->name && (s->type == ATTU_TYPE_INT16 || s->type == ATTU_TYPE_INT32 || s->type == ATTU_TYPE_INT64) &&
             s->increment != 0 && s->min < s->max;
    }
    if (!ok) {
        attu_sequence_free(s);
        attu_error_set(err, ATTU_SQLSTATE_DATA_CORRUPTED, 0, "malformed sequence record: %.60s", line);
        return NULL;
    }
    return s;
}
