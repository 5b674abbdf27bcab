/* explain.c - rendering stage plans (see explain.h). */
#include "planner/explain.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int add_line(char ***lines, int *n, const char *s) {
    char **nl = realloc(*lines, sizeof(char *) * (size_t)(*n + 1));
    if (!nl) return -1;
    *lines = nl;
    if (!(nl[*n] = strdup(s))) return -1;
    (*n)++;
    return 0;
}

static int walk(const attu_stage *s, int depth, bool analyze, const char *device, char ***lines, int *n) {
    /* room for the indentation, which grows with the depth (a fixed 512
       bytes overran at about 85 levels: EXPLAIN of a long JOIN chain), and
       for the rest, cut where it would not fit */
    size_t indent = depth ? (size_t)(depth - 1) * 6 + 2 : 0, cap = indent + 1024, used = 0;
    char *buf = malloc(cap);
    if (!buf) return -1;
#define PUT(...) do { if (used < cap) { int k_ = snprintf(buf + used, cap - used, __VA_ARGS__); \
                                        if (k_ > 0) used += (size_t)k_; } } while (0)
    buf[0] = 0;
    if (depth) PUT("%*s->  ", (int)indent, "");
    PUT("%s", attu_stage_kind_name(s->kind));
    if (s->label) PUT(" %s", s->label);
    /* counts of the outer row: this run's values are no property of the plan */
    if (s->kind == ATTU_ST_LIMIT && s->counts[0].n) PUT(" per outer row");
    else if (s->kind == ATTU_ST_TOPK || (s->kind == ATTU_ST_LIMIT && s->limit >= 0)) PUT(" %lld", (long long)s->limit);
    if (s->kind == ATTU_ST_LIMIT && s->with_ties) PUT(" with ties");
    const char *how = analyze && s->executed && s->act_how ? s->act_how : attu_stage_patterns(s);
    PUT("  [%s]  (rows=%.0f)", how, s->est_rows);
    if (analyze) {
        if (s->executed) PUT("  (actual rows=%zu time=%.3f ms device=%s)", s->act_rows, s->act_ms, device);
        else PUT("  (never executed)");
    }
#undef PUT
    int rc = add_line(lines, n, buf);
    free(buf);
    if (rc) return -1;
    for (int i = 0; i < 2; i++)
        if (s->child[i] && walk(s->child[i], depth + 1, analyze, device, lines, n)) return -1;
    return 0;
}

int attu_explain(const attu_stage *root, bool analyze, const char *device, char ***lines, int *nlines) {
    return walk(root, 0, analyze, device, lines, nlines) ? -1 : *nlines;
}
