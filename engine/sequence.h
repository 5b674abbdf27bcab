/*
 * sequence.h - one sequence generator, as PostgreSQL 15's (CREATE SEQUENCE,
 * nextval, setval).
 *
 * A sequence is a counter with bounds: nextval steps it by its increment
 * and fails at a bound (2200H) unless it cycles. It is not transactional:
 * a value handed out is never handed out again, whatever happens to the
 * statement or the transaction that asked for it. This file is the
 * arithmetic and the checks of the options only; the set of sequences of a
 * database, their persistence and the session's currval live in
 * db/db_sequence.c. Not thread-safe by itself.
 */
#ifndef ATTU_SEQUENCE_H
#define ATTU_SEQUENCE_H

#include <stdbool.h>
#include <stdint.h>

#include "engine/error.h"
#include "engine/types.h"

/* What CREATE SEQUENCE (or an identity column's options) wrote; has_*
 * false: not written (the default applies). no_min / no_max: NO MINVALUE /
 * NO MAXVALUE, which is the default too. type: ATTU_TYPE_UNKNOWN when AS
 * was not written (bigint). */
typedef struct attu_sequence_options {
    attu_type_id type;
    bool    has_increment, has_min, has_max, has_start, has_cache, has_cycle;
    bool    no_min, no_max;
    int64_t increment, min, max, start, cache;
    bool    cycle;
    /* RESTART [[WITH] restart]: has_restart_value false restarts at START */
    bool    has_restart, has_restart_value;
    int64_t restart;
} attu_sequence_options;

typedef struct attu_sequence {
    char        *name;
    attu_type_id type;          /* INT16, INT32 or INT64 */
    int64_t      increment, min, max, start, cache;
    bool         cycle;
    /* PostgreSQL's last_value and is_called: the next nextval returns
     * last_value itself when !is_called, else last_value + increment */
    int64_t      last_value;
    bool         is_called;
    /* OWNED BY owner_table.owner_column (serial and identity columns):
     * dropped with the table, restarted by TRUNCATE ... RESTART IDENTITY;
     * NULL when owned by nothing */
    char        *owner_table, *owner_column;
    /* the identity column it serves: 'a' GENERATED ALWAYS, 'd' GENERATED
     * BY DEFAULT, 0 none (a serial column's or a free sequence) */
    char         identity;
    /* a temporary table's serial column's (db/db_temp.c): the session
     * it belongs to (never written to the data directory, seen by that
     * session alone, dropped with it); NULL: a permanent one */
    const void  *temp_owner;
} attu_sequence;

/* A new sequence of the options (22023 for bad ones, with PostgreSQL's
 * messages). NULL with err set. */
attu_sequence *attu_sequence_new(const char *name, const attu_sequence_options *opt, attu_error *err);
void attu_sequence_free(attu_sequence *s);

/* ALTER SEQUENCE's options on s, as PostgreSQL 15 applies them to a
 * sequence that exists: what is not written stays, except that AS moves a
 * bound that was the old type's own to the new type's, and NO MINVALUE /
 * NO MAXVALUE take the default of the (new) increment's direction. The
 * checks are CREATE SEQUENCE's, the current value (or RESTART's) among
 * them (22023); on an error s is unchanged. */
int attu_sequence_alter(attu_sequence *s, const attu_sequence_options *opt, attu_error *err);

/* nextval: the next value (2200H at a bound of a sequence that does not
 * cycle; the sequence is unchanged then). */
int attu_sequence_next(attu_sequence *s, int64_t *out, attu_error *err);

/* setval(s, v, is_called): 22003 when v is outside [min, max]. */
int attu_sequence_set(attu_sequence *s, int64_t v, bool is_called, attu_error *err);

/* Back to its start (TRUNCATE ... RESTART IDENTITY, ALTER SEQUENCE
 * RESTART): the next nextval returns start. */
void attu_sequence_restart(attu_sequence *s);

/* "smallint", "integer" or "bigint" */
const char *attu_sequence_type_name(attu_type_id t);

/* One line of text (no newline) that attu_sequence_parse reads back: the
 * name and the owner escaped so that they hold no tab or newline.
 * malloc'd; NULL when out of memory. */
char *attu_sequence_format(const attu_sequence *s);
attu_sequence *attu_sequence_parse(const char *line, attu_error *err);

#endif
