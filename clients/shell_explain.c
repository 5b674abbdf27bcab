/*
 * shell_explain: EXPLAIN ANALYZE output drawn as a tree.
 *
 * The server returns a plan as text, one line per row, with children
 * indented under their parent. PostgreSQL marks each child node with "->";
 * attu indents each stage under the one it feeds. Both are read the same
 * way: a node line's indentation gives its depth, other lines (Filter:,
 * Sort Key:, ...) belong to the node above them, and unindented lines after
 * the plan (Planning Time, Execution Time) are a summary. Each node is drawn
 * as
 *
 *   HashAggregate                         4.210 ms  rows=3  [gpu]
 *   ├─ Hash Join                          3.900 ms  rows=12
 *   │  └─ Seq Scan on cities              1.100 ms  rows=29880
 *   │       Filter: (lat > 40)
 *   ...
 *
 * with the node's own text up to its first "  (" (the cost block), its
 * actual time (the end of "actual time=a..b", or "time=X"), its actual rows,
 * and the device ("device=gpu") when the server names one.
 */
#include "shell.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    const char *text;   /* the row, trimmed of its indentation */
    int indent;
    bool node;
    int parent;         /* index of the parent node, -1 for roots */
    bool last;          /* no later sibling */
    bool has_children;
} pline_t;

/* Extracts the number after key in s into out; false when absent. */
static bool find_number(const char *s, const char *key, char *out, size_t n) {
    const char *p = strstr(s, key);
    if (!p) return false;
    p += strlen(key);
    size_t i = 0;
    while ((isdigit((unsigned char)*p) || *p == '.') && i + 1 < n) out[i++] = *p++;
    out[i] = 0;
    return i > 0;
}

static void node_summary(const char *text, char *label, size_t ln, char *stats,
                         size_t sn) {
    if (!strncmp(text, "->", 2)) text += 2;
    while (*text == ' ') text++;
    const char *cut = strstr(text, "  (");
    if (!cut) cut = strstr(text, " (cost=");
    if (!cut) cut = strstr(text, " (actual");
    size_t n = cut ? (size_t)(cut - text) : strlen(text);
    snprintf(label, ln, "%.*s", (int)n, text);
    char num[64], rows[64], dev[32];
    stats[0] = 0;
    size_t used = 0;
    /* PostgreSQL: "(actual time=a..b rows=n loops=1)"; attu: "(actual rows=n
     * time=t ms device=X)". Prefer the actual block over the estimates. */
    const char *act = strstr(text, "(actual");
    const char *src = act ? act : text;
    const char *range = strstr(src, "time=");
    if (range) {
        const char *dots = strstr(range, "..");
        const char *end = range + strcspn(range, " )");
        if (dots && dots < end ? find_number(dots, "..", num, sizeof num)
                               : find_number(range, "time=", num, sizeof num))
            used += (size_t)snprintf(stats + used, sn - used, "%10s ms", num);
    }
    if (used < sn && find_number(src, "rows=", rows, sizeof rows))
        used += (size_t)snprintf(stats + used, sn - used, "  rows=%s", rows);
    const char *d = strstr(text, "device=");
    if (d) d += strlen("device=");
    else if ((d = strstr(text, "device: "))) d += strlen("device: ");
    if (d && used < sn) {
        size_t k = 0;
        while (d[k] && (isalnum((unsigned char)d[k]) || d[k] == '_') && k + 1 < sizeof dev) {
            dev[k] = d[k];
            k++;
        }
        dev[k] = 0;
        if (k) snprintf(stats + used, sn - used, "  [%s]", dev);
    }
}

/* Writes the connector columns for the ancestors of node i. */
static void ancestors_prefix(const pline_t *l, int i, FILE *out) {
    /* Collect the chain from the root down to i's parent. */
    int chain[256], n = 0;
    for (int a = l[i].parent; a >= 0 && n < 256; a = l[a].parent) chain[n++] = a;
    /* The root of the chain draws no column; each deeper ancestor draws a
     * bar when more siblings follow it. */
    for (int k = n - 2; k >= 0; k--) fputs(l[chain[k]].last ? "   " : "│  ", out);
}

void shell_print_plan_tree(const PGresult *res, FILE *out) {
    int nt = PQntuples(res);
    if (nt == 0 || PQnfields(res) < 1) return;
    pline_t *l = calloc((size_t)nt, sizeof *l);
    bool arrows = false;
    for (int i = 0; i < nt; i++) {
        const char *s = PQgetvalue(res, i, 0);
        int ind = 0;
        while (s[ind] == ' ') ind++;
        l[i].text = s + ind;
        l[i].indent = ind;
        if (!strncmp(s + ind, "->", 2)) arrows = true;
    }
    /* Which lines are nodes, and where the summary starts. */
    int summary = nt;
    for (int i = 0; i < nt; i++) {
        if (arrows) l[i].node = i == 0 || !strncmp(l[i].text, "->", 2);
        else l[i].node = !strchr(l[i].text, ':') || strstr(l[i].text, "time=");
        if (i > 0 && l[i].indent == 0 && !l[i].node) { summary = i; break; }
    }
    for (int i = summary; i < nt; i++) l[i].node = false;
    /* Parents: the nearest earlier node with a smaller indentation. */
    int last_node = -1;
    for (int i = 0; i < summary; i++) {
        l[i].parent = -1;
        if (!l[i].node) { l[i].parent = last_node; continue; }
        for (int j = i - 1; j >= 0; j--)
            if (l[j].node && l[j].indent < l[i].indent) { l[i].parent = j; break; }
        if (l[i].parent >= 0) l[l[i].parent].has_children = true;
        last_node = i;
    }
    for (int i = 0; i < summary; i++) {
        if (!l[i].node) continue;
        l[i].last = true;
        for (int j = i + 1; j < summary; j++)
            if (l[j].node && l[j].parent == l[i].parent) { l[i].last = false; break; }
    }
    char label[512], stats[160];
    /* Stats start two columns after the widest node line, so they align. */
    int stats_col = 0;
    for (int i = 0; i < summary; i++) {
        if (!l[i].node) continue;
        node_summary(l[i].text, label, sizeof label, stats, sizeof stats);
        int col = 0;
        for (int a = l[i].parent; a >= 0; a = l[a].parent) col += 3;
        int w = col + shell_text_width(label);
        if (w > stats_col) stats_col = w;
    }
    stats_col += 2;
    for (int i = 0; i < summary; i++) {
        if (l[i].node) {
            node_summary(l[i].text, label, sizeof label, stats, sizeof stats);
            ancestors_prefix(l, i, out);
            int col = 0;
            for (int a = l[i].parent; a >= 0; a = l[a].parent) col += 3;
            if (l[i].parent >= 0) fputs(l[i].last ? "└─ " : "├─ ", out);
            fputs(label, out);
            int w = col + shell_text_width(label);
            if (stats[0]) fprintf(out, "%*s%s", stats_col - w, "", stats);
            fputc('\n', out);
        } else {
            /* A detail: under its node, after the node's connector column. */
            int nd = l[i].parent;
            if (nd >= 0) {
                ancestors_prefix(l, nd, out);
                if (l[nd].parent >= 0) fputs(l[nd].last ? "   " : "│  ", out);
                fputs(l[nd].has_children ? "│    " : "     ", out);
            }
            fprintf(out, "%s\n", l[i].text);
        }
    }
    for (int i = summary; i < nt; i++) fprintf(out, "%s\n", l[i].text);
    free(l);
}
