/* error.c - filling attu_error records (see error.h). */
#include "engine/error.h"

#include <stdio.h>
#include <string.h>

void attu_error_clear(attu_error *err) {
    if (err) memset(err, 0, sizeof *err);
}

int attu_error_setv(attu_error *err, const char *sqlstate, int position,
                    const char *fmt, va_list ap) {
    if (!err || err->set) return -1;
    err->set = 1;
    snprintf(err->sqlstate, sizeof err->sqlstate, "%s", sqlstate);
    vsnprintf(err->message, sizeof err->message, fmt, ap);
    err->detail[0] = '\0';
    err->position = position;
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
    vsnprintf(err->detail, sizeof err->detail, fmt, ap);
    va_end(ap);
}

int attu_error_oom(attu_error *err) {
    return attu_error_set(err, "53200", 0, "out of memory");
}
