/*
 * log.h - the daemon's log: one line per event on stderr.
 *
 * Lines look like
 *   2026-11-22 03:10:02.123 UTC [conn 7] query 0.412 ms, 3 rows, CPU: SELECT 1
 * Each line is formatted into one buffer and written with a single write(2),
 * so lines from the loop and from worker threads never interleave.
 */
#ifndef ATTU_SERVER_LOG_H
#define ATTU_SERVER_LOG_H

typedef enum attu_log_level {
    ATTU_LOG_DEBUG = 0,
    ATTU_LOG_INFO,
    ATTU_LOG_WARNING,
    ATTU_LOG_ERROR,
    ATTU_LOG_OFF
} attu_log_level;

/* Parses "debug", "info", "warning", "error", "off"; -1 if unknown. */
int attu_log_level_parse(const char *s);
void attu_log_set_level(attu_log_level level);
int attu_log_enabled(attu_log_level level);
void attu_log(attu_log_level level, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

#endif
