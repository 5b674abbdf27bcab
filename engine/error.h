/*
 * error.h - the one error record every layer fills.
 *
 * An error carries what a PostgreSQL client shows: a five-character SQLSTATE,
 * a message a person can act on, and where it happened. For SQL, position is
 * the 1-based character offset into the statement text (0 = none); for CSV,
 * file/line/column name the offending field. Functions that can fail take an
 * attu_error * as their last argument and return nonzero (or NULL) on failure;
 * the first error set wins, later ones are ignored, so callers can propagate
 * without checking whether a callee already explained itself.
 */
#ifndef ATTU_ERROR_H
#define ATTU_ERROR_H

#include <stdarg.h>
#include <stddef.h>

/* SQLSTATE codes used across the project (PostgreSQL's appendix A). */
#define ATTU_SQLSTATE_SYNTAX              "42601"
#define ATTU_SQLSTATE_UNDEFINED_TABLE     "42P01"
#define ATTU_SQLSTATE_DUPLICATE_TABLE     "42P07"
#define ATTU_SQLSTATE_UNDEFINED_COLUMN    "42703"
#define ATTU_SQLSTATE_AMBIGUOUS_COLUMN    "42702"
#define ATTU_SQLSTATE_DUPLICATE_COLUMN    "42701"
#define ATTU_SQLSTATE_UNDEFINED_FUNCTION  "42883"
#define ATTU_SQLSTATE_GROUPING            "42803"
#define ATTU_SQLSTATE_DATATYPE_MISMATCH   "42804"
#define ATTU_SQLSTATE_UNDEFINED_OBJECT    "42704"
#define ATTU_SQLSTATE_INVALID_TEXT_REP    "22P02"
#define ATTU_SQLSTATE_NUMERIC_RANGE       "22003"
#define ATTU_SQLSTATE_DIVISION_BY_ZERO    "22012"
#define ATTU_SQLSTATE_DATETIME_FORMAT     "22007"
#define ATTU_SQLSTATE_DATETIME_OVERFLOW   "22008"
#define ATTU_SQLSTATE_STRING_TRUNCATION   "22001"
#define ATTU_SQLSTATE_CHARACTER_NOT_IN_REPERTOIRE "22021"
#define ATTU_SQLSTATE_BAD_COPY_FORMAT     "22P04"
#define ATTU_SQLSTATE_NOT_NULL_VIOLATION  "23502"
#define ATTU_SQLSTATE_CARDINALITY         "21000"
#define ATTU_SQLSTATE_FEATURE_NOT_SUPPORTED "0A000"
#define ATTU_SQLSTATE_INVALID_PARAMETER   "22023"
#define ATTU_SQLSTATE_PROTOCOL_VIOLATION  "08P01"
#define ATTU_SQLSTATE_OUT_OF_MEMORY       "53200"
#define ATTU_SQLSTATE_TOO_MANY_CONNECTIONS "53300"
#define ATTU_SQLSTATE_QUERY_CANCELED      "57014"
#define ATTU_SQLSTATE_ADMIN_SHUTDOWN      "57P01"
#define ATTU_SQLSTATE_IO_ERROR            "58030"
#define ATTU_SQLSTATE_DATA_CORRUPTED      "XX001"
#define ATTU_SQLSTATE_INTERNAL            "XX000"
/* A stand-in that never reaches a client: a subquery's error recorded for
 * one binding (executor_apply.c), raised where a row uses its value and
 * replaced by the recorded error before attu_execute returns */
#define ATTU_SQLSTATE_DEFERRED            "XXD01"
/* Its message: the recorded error's index (attu_error_deferred_index) */
#define ATTU_DEFERRED_MESSAGE             "deferred subquery error %lld"
#define ATTU_SQLSTATE_INSUFFICIENT_PRIVILEGE "42501"
#define ATTU_SQLSTATE_INVALID_PASSWORD    "28P01"
#define ATTU_SQLSTATE_UNDEFINED_FILE      "58P01"

typedef struct attu_error {
    int  set;             /* nonzero once an error was recorded */
    char sqlstate[6];     /* five characters and a NUL */
    char message[512];
    char detail[1024];    /* optional second line (PostgreSQL's DETAIL: a failing row, a key) */
    int  position;        /* 1-based character offset in the SQL text, 0 = none */
    char hint[256];       /* optional suggestion (PostgreSQL's HINT) */
    char context[256];    /* optional CONTEXT line ("COPY t, line 3, column a") */
    /* The object an integrity error is about, as PostgreSQL's
     * ErrorResponse names it (fields s, t, c, n; psycopg's diag.table_name
     * ...): empty when none. */
    char schema_name[64], table_name[64], column_name[64], constraint_name[64];
    /* The row of the table being written that the error is about, plus 1
     * (0: none): a key, CHECK or NOT NULL refusal of loaded rows, whose
     * input line COPY's CONTEXT names (db_copy.c). */
    size_t row1;
} attu_error;

void attu_error_clear(attu_error *err);
/* Names the table (schema public), column and constraint of the error just
 * recorded (each may be NULL: not named). */
void attu_error_set_object(attu_error *err, const char *table, const char *column, const char *constraint);
/* The index a ATTU_SQLSTATE_DEFERRED stand-in carries, or -1 when err is
 * not one. */
long long attu_error_deferred_index(const attu_error *err);

/* Records an error unless one is already recorded. Returns -1 so callers can
 * write `return attu_error_set(...)`. err may be NULL (error is dropped). */
int attu_error_set(attu_error *err, const char *sqlstate, int position,
                   const char *fmt, ...) __attribute__((format(printf, 4, 5)));
int attu_error_setv(attu_error *err, const char *sqlstate, int position,
                    const char *fmt, va_list ap);
void attu_error_set_detail(attu_error *err, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* Sets the HINT of the recorded error (an advice line, as PostgreSQL's
 * "No function matches ... add explicit type casts."). */
static inline void attu_error_set_hint(attu_error *err, const char *text) {
    if (!err) return;
    size_t i = 0;
    for (; text[i] && i + 1 < sizeof err->hint; i++) err->hint[i] = text[i];
    err->hint[i] = 0;
}

/* Sets the CONTEXT of the recorded error: where it happened, as
 * PostgreSQL's error context callbacks word it (COPY's "COPY t, line N,
 * column c"). Kept only when empty, like the error itself. */
static inline void attu_error_set_context(attu_error *err, const char *text) {
    if (!err || err->context[0]) return;
    size_t i = 0;
    for (; text[i] && i + 1 < sizeof err->context; i++) err->context[i] = text[i];
    err->context[i] = 0;
}

/* Names the (0-based) row of the table being written the recorded error
 * is about (attu_error.row1). */
static inline void attu_error_set_row(attu_error *err, size_t row) {
    if (err) err->row1 = row + 1;
}

/* Out-of-memory shorthand: SQLSTATE 53200. */
int attu_error_oom(attu_error *err);

#endif
