/*
 * failing_row.c - "Failing row contains (...)." (see failing_row.h).
 */
#include "engine/failing_row.h"

#include <stdlib.h>
#include <string.h>

#include "engine/strbuf.h"

char *attu_failing_row(const attu_column *const *cols, const size_t *rows, int ncols) {
    attu_strbuf b = { 0 };
    attu_strbuf_puts(&b, "Failing row contains (");
    for (int c = 0; c < ncols; c++) {
        if (c) attu_strbuf_puts(&b, ", ");
        char buf[4096];
        const char *lng = NULL;
        size_t len = cols[c] ? attu_column_format(cols[c], rows[c], buf, sizeof buf - 1, &lng) : (size_t)-1;
        if (len == (size_t)-1) { attu_strbuf_puts(&b, "null"); continue; }
        const char *v = lng ? lng : buf;
        if (!lng && len > sizeof buf - 1) len = sizeof buf - 1;
        size_t cut = len;
        if (cut > 64) {
            cut = 64;
            while (cut > 0 && ((unsigned char)v[cut] & 0xC0) == 0x80) cut--;
        }
        attu_strbuf_add(&b, v, cut);
        if (cut < len) attu_strbuf_puts(&b, "...");
    }
    attu_strbuf_puts(&b, ").");
    if (b.oom) { free(b.p); return NULL; }
    return b.p;
}
