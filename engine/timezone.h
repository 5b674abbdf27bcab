/*
 * timezone.h - time zones for timestamp with time zone: the session's
 * TimeZone setting, AT TIME ZONE, and zones written in timestamptz input.
 *
 * A zone is one of
 *   - a zone of the system's tz database (/usr/share/zoneinfo), read from
 *     its TZif file by our own reader, names matched regardless of case as
 *     PostgreSQL's pg_tzset does ("america/new_york" is America/New_York);
 *   - a POSIX TZ string ("UTC+3", "EST5EDT", "<+05:30>-05:30",
 *     "CET-1CEST,M3.5.0,M10.5.0/3"), whose offsets count hours WEST of
 *     Greenwich, as POSIX and PostgreSQL read them: 'UTC+3' is UTC-3.
 *     A TZif file's footer is such a string; it rules past the last
 *     transition the file lists.
 * Zones are loaded once and never freed: each has a small id, which an
 * expression program carries (an instruction's aux) so that any thread
 * that evaluates it finds the zone without a session (attu_tz_by_id).
 *
 * Offsets here are seconds EAST of Greenwich (the ISO sign, as a
 * timestamptz shows them: +05:30), whatever the sign the zone's text used.
 */
#ifndef ATTU_TIMEZONE_H
#define ATTU_TIMEZONE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct attu_tz attu_tz;

/* UTC, the default TimeZone (docs/sql-reference.md). Its id is 0. */
const attu_tz *attu_tz_utc(void);

/* A zone by name as pg_tzset finds it: a tz database file (any case),
 * else a POSIX TZ string. NULL when neither. */
const attu_tz *attu_tz_find(const char *name);

/* Whether name is a file of the system's tz database, matched a path
 * part at a time, an exact spelling first, then regardless of case (as
 * PostgreSQL matches zone names). */
bool attu_tz_database_has(const char *name);

/* A zone as SET TIME ZONE reads its value: a number of hours (ISO sign:
 * '-3' is three hours west, shown "<-03>+03"; '5.5'), else attu_tz_find. */
const attu_tz *attu_tz_for_setting(const char *value);

/* A zone as AT TIME ZONE and timezone(z, x) read z: an abbreviation of
 * PostgreSQL's default set ('EST', 'utc'), else attu_tz_find. */
const attu_tz *attu_tz_for_at(const char *name);

/* A fixed offset east of Greenwich, shown as PostgreSQL names it
 * ("<-03>+03", "<+05:30>-05:30"). */
const attu_tz *attu_tz_fixed(int32_t east_seconds);

/* A time zone abbreviation of PostgreSQL's default set, lower case
 * ("est", "cest", "z"): its offset east. false when not one. */
bool attu_tz_abbrev_offset(const char *lower, int32_t *east_seconds);

int attu_tz_id(const attu_tz *z);
const attu_tz *attu_tz_by_id(int id);     /* UTC for an unknown id */
/* The name SHOW TimeZone prints (the file's own spelling, or the text). */
const char *attu_tz_name(const attu_tz *z);

/* The offset in force at a UTC instant (seconds since 1970-01-01 UTC),
 * and the abbreviation then (may be NULL). */
int32_t attu_tz_offset_at(const attu_tz *z, int64_t utc_sec, const char **abbrev);

/* The offset that turns a local wall time (seconds since 1970-01-01 as
 * the wall clock reads) into UTC, as PostgreSQL's DetermineTimeZoneOffset:
 * a wall time that happens twice (a fall-back) or never (a spring-forward
 * gap) takes the offset in force after and before the jump respectively,
 * which is in both cases the smaller of the two. */
int32_t attu_tz_offset_local(const attu_tz *z, int64_t local_sec);

/* Microsecond forms: a timestamptz (UTC microseconds since 1970) to the
 * wall time of z and back. The infinities (INT64_MIN / INT64_MAX) stay. */
int64_t attu_tz_to_local_us(const attu_tz *z, int64_t utc_us);
int64_t attu_tz_from_local_us(const attu_tz *z, int64_t local_us);

/* The session's zone on the calling thread: the db layer sets it before
 * each statement, and the places that read or show a timestamptz outside
 * an expression program (literals folded by the binder, COPY, the wire)
 * use it. UTC where none was set. */
void attu_tz_set_session(const attu_tz *z);
const attu_tz *attu_tz_session(void);

/* The moment the statement's transaction began (now(),
 * current_timestamp, transaction_timestamp), UTC microseconds since 1970,
 * set per thread by the db layer beside the zone; 0 when not set (the
 * caller then reads the clock). */
void attu_tz_set_txn_start(int64_t utc_us);
int64_t attu_tz_txn_start(void);
/* The moment the statement began (statement_timestamp()), set likewise;
 * 0 when not set. */
void attu_tz_set_stmt_start(int64_t utc_us);
int64_t attu_tz_stmt_start(void);

#endif
