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

attu_sequence *attu_sequence_new(const char *name, const attu_sequence_options *opt, attu_error *err) {
    attu_type_id type = opt->type == ATTU_TYPE_UNKNOWN ? ATTU_TYPE_INT64 : opt->type;
    if (type != ATTU_TYPE_INT16 && type != ATTU_TYPE_INT32 && type != ATTU_TYPE_INT64) {
        attu_error_set(err, ATTU_SQLSTATE_INVALID_PARAMETER, 0, "sequence type must be smallint, integer, or bigint");
        return NULL;
    }
    int64_t tlo, thi;
    type_bounds(type, &tlo, &thi);
    int64_t inc = opt->has_increment ? opt->increment : 1;
    if (inc == 0) {
        attu_error_set(err, ATTU_SQLSTATE_INVALID_PARAMETER, 0, "INCREMENT must not be zero");
        return NULL;
    }
    int64_t max = opt->has_max && !opt->no_max ? opt->max : inc > 0 ? thi : -1;
    int64_t min = opt->has_min && !opt->no_min ? opt->min : inc > 0 ? 1 : tlo;
    const char *tn = attu_sequence_type_name(type);
    if (max < tlo || max > thi) { bad(err, "MAXVALUE (%" PRId64 ") is out of range for sequence data type %s", max, 0, tn); return NULL; }
    if (min < tlo || min > thi) { bad(err, "MINVALUE (%" PRId64 ") is out of range for sequence data type %s", min, 0, tn); return NULL; }
    if (min >= max) { bad(err, "MINVALUE (%" PRId64 ") must be less than MAXVALUE (%" PRId64 ")", min, max, NULL); return NULL; }
    int64_t start = opt->has_start ? opt->start : inc > 0 ? min : max;
    if (start < min) { bad(err, "START value (%" PRId64 ") cannot be less than MINVALUE (%" PRId64 ")", start, min, NULL); return NULL; }
    if (start > max) { bad(err, "START value (%" PRId64 ") cannot be greater than MAXVALUE (%" PRId64 ")", start, max, NULL); return NULL; }
    int64_t cache = opt->has_cache ? opt->cache : 1;
    if (cache <= 0) { bad(err, "CACHE (%" PRId64 ") must be greater than zero", cache, 0, NULL); return NULL; }
    attu_sequence *s = calloc(1, sizeof *s);
    if (!s || !(s->name = strdup(name))) { free(s); attu_error_oom(err); return NULL; }
    s->type = type;
    s->increment = inc; s->min = min; s->max = max; s->start = start; s->cache = cache;
    s->cycle = opt->has_cycle && opt->cycle;
    s->last_value = start;
    s->is_called = false;
    return s;
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
