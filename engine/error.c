/* error.c - filling attu_error records (see error.h). */
#include "engine/error.h"

#include <stdio.h>
#include <string.h>

/* A message cut at its buffer's end (vsnprintf wrote n of the bytes it
 * wanted) ends on a whole UTF-8 character: a client decoding it as UTF-8
 * (the server encoding) would otherwise fail on the partial sequence the
 * cut left. */
static void clip_cut_utf8(char *buf, size_t cap, int wanted) {
    if (wanted < 0 || (size_t)wanted < cap) return;
    size_t end = strlen(buf), lead = end;
    while (lead > 0 && end - lead < 4 && ((unsigned char)buf[lead - 1] & 0xC0) == 0x80) lead--;
    if (lead == 0) return;
    unsigned char c = (unsigned char)buf[lead - 1];
    size_t need = c < 0x80 ? 1 : c < 0xE0 ? 2 : c < 0xF0 ? 3 : 4;
    if (end - (lead - 1) < need) buf[lead - 1] = '\0';
}

void attu_error_clear(attu_error *err) {
    if (err) memset(err, 0, sizeof *err);
}

int attu_error_setv(attu_error *err, const char *sqlstate, int position,
                    const char *fmt, va_list ap) {
    if (!err || err->set) return -1;
    err->set = 1;
    snprintf(err->sqlstate, sizeof err->sqlstate, "%s", sqlstate);
    clip_cut_utf8(err->message, sizeof err->message, vsnprintf(err->message, sizeof err->message, fmt, ap));
    err->detail[0] = '\0';
    err->hint[0] = '\0';
    err->context[0] = '\0';
    err->schema_name[0] = err->table_name[0] = err->column_name[0] = err->constraint_name[0] = '\0';
    err->position = position;
    err->row1 = 0;
    return -1;
}

int attu_error_set(attu_error *err, const char *sqlstate, int position,
                   const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    attu_error_setv(err, sqlstate, position, fmt, ap);
    va_end(ap);
    return -1;
}

void attu_error_set_detail(attu_error *err, const char *fmt, ...) {
    if (!err) return;
    va_list ap;
    va_start(ap, fmt);
    clip_cut_utf8(err->detail, sizeof err->detail, vsnprintf(err->detail, sizeof err->detail, fmt, ap));
    va_end(ap);
}

void attu_error_set_object(attu_error *err, const char *table, const char *column, const char *constraint) {
    if (!err || !err->set) return;
    if (table) {
        snprintf(err->schema_name, sizeof err->schema_name, "public");
        snprintf(err->table_name, sizeof err->table_name, "%s", table);
    }
    if (column) snprintf(err->column_name, sizeof err->column_name, "%s", column);
    if (constraint) snprintf(err->constraint_name, sizeof err->constraint_name, "%s", constraint);
}

int attu_error_oom(attu_error *err) {
    return attu_error_set(err, "53200", 0, "out of memory");
}

long long attu_error_deferred_index(const attu_error *err) {
    long long k = -1;
    if (!err || !err->set || strcmp(err->sqlstate, ATTU_SQLSTATE_DEFERRED)) return -1;
    if (sscanf(err->message, ATTU_DEFERRED_MESSAGE, &k) != 1 || k < 0) return -1;
    return k;
}
