/*
 * log.c - timestamped, leveled, one-write-per-line logging (see log.h).
 */
#include "server/log.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

static volatile int g_level = ATTU_LOG_INFO;

int attu_log_level_parse(const char *s) {
    static const char *names[] = { "debug", "info", "warning", "error", "off" };
    for (int i = 0; i < 5; i++)
        if (!strcmp(s, names[i])) return i;
    if (!strcmp(s, "warn")) return ATTU_LOG_WARNING;
    return -1;
}

void attu_log_set_level(attu_log_level level) { g_level = level; }

int attu_log_enabled(attu_log_level level) { return (int)level >= g_level; }

void attu_log(attu_log_level level, const char *fmt, ...) {
    if (!attu_log_enabled(level)) return;
    static const char *tags[] = { "DEBUG", "LOG", "WARNING", "ERROR", "" };
    char line[2048];
    struct timeval tv;
    gettimeofday(&tv, NULL);
    struct tm tm;
    gmtime_r(&tv.tv_sec, &tm);
    int n = (int)strftime(line, sizeof line, "%Y-%m-%d %H:%M:%S", &tm);
    n += snprintf(line + n, sizeof line - (size_t)n, ".%03d UTC %s: ",
                  (int)(tv.tv_usec / 1000), tags[level]);
    va_list ap;
    va_start(ap, fmt);
    int m = vsnprintf(line + n, sizeof line - (size_t)n - 1, fmt, ap);
    va_end(ap);
    if (m < 0) m = 0;
    n += m;
    if (n > (int)sizeof line - 2) n = (int)sizeof line - 2;
    /* control characters (e.g. newlines in SQL) would split the line */
    for (int i = 0; i < n; i++)
        if ((unsigned char)line[i] < 32) line[i] = ' ';
    line[n++] = '\n';
    ssize_t w = write(STDERR_FILENO, line, (size_t)n);
    (void)w;
}
