/* tsan_session.h - what the standalone ThreadSanitizer drivers of this
 * folder share: a statement run on a session whose rows come back as text
 * ("a|b\n" a row, NULL spelled out), and any error ends the driver. */
#ifndef ATTU_TSAN_SESSION_H
#define ATTU_TSAN_SESSION_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "db/database.h"

typedef struct res { char text[512]; int err; } res;

static int on_result(void *ctx, attu_result *r) {
    res *o = ctx; o->text[0] = 0;
    if (!r->returns_rows) return 0;
    size_t u = 0;
    for (size_t i = 0; i < r->nrows; i++) {
        for (int c = 0; c < r->ncols; c++) {
            char buf[64]; const char *lng = NULL;
            size_t n = attu_column_format(r->cols[c], i, buf, sizeof buf, &lng);
            u += (size_t)snprintf(o->text + u, sizeof o->text - u, "%s%.*s", c ? "|" : "", (int)(n == (size_t)-1 ? 4 : n), n == (size_t)-1 ? "NULL" : lng ? lng : buf);
        }
        u += (size_t)snprintf(o->text + u, sizeof o->text - u, "\n");
    }
    return 0;
}

static void on_error(void *ctx, const attu_error *e) { res *o = ctx; o->err = 1; fprintf(stderr, "error %s %s\n", e->sqlstate, e->message); }

/* Runs sql on s; its rows' text (valid until the next run into o). */
static const char *run(attu_session *s, const char *sql, res *o) {
    attu_exec_callbacks cb; memset(&cb, 0, sizeof cb); memset(o, 0, sizeof *o);
    cb.ctx = o; cb.on_result = on_result; cb.on_error = on_error;
    attu_session_exec(s, sql, &cb);
    if (o->err) { fprintf(stderr, "FAILED: %s\n", sql); exit(1); }
    return o->text;
}

#endif
