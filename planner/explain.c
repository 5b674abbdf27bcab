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
    char buf[512];
    int used = 0;
    if (depth) used = snprintf(buf, sizeof buf, "%*s->  ", (depth - 1) * 6 + 2, "");
    used += snprintf(buf + used, sizeof buf - (size_t)used, "%s", attu_stage_kind_name(s->kind));
    if (s->label) used += snprintf(buf + used, sizeof buf - (size_t)used, " %s", s->label);
    if (s->kind == ATTU_ST_TOPK || (s->kind == ATTU_ST_LIMIT && s->limit >= 0))
        used += snprintf(buf + used, sizeof buf - (size_t)used, " %lld", (long long)s->limit);
    const char *how = analyze && s->executed && s->act_how ? s->act_how : attu_stage_patterns(s);
    used += snprintf(buf + used, sizeof buf - (size_t)used, "  [%s]  (rows=%.0f)", how, s->est_rows);
    if (analyze) {
        if (s->executed)
            snprintf(buf + used, sizeof buf - (size_t)used, "  (actual rows=%zu time=%.3f ms device=%s)", s->act_rows, s->act_ms, device);
        else
            snprintf(buf + used, sizeof buf - (size_t)used, "  (never executed)");
    }
    if (add_line(lines, n, buf)) return -1;
    for (int i = 0; i < 2; i++)
        if (s->child[i] && walk(s->child[i], depth + 1, analyze, device, lines, n)) return -1;
    return 0;
}

int attu_explain(const attu_stage *root, bool analyze, const char *device, char ***lines, int *nlines) {
    return walk(root, 0, analyze, device, lines, nlines) ? -1 : *nlines;
}
