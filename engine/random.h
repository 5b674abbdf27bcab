/*
 * random.h - random() and setseed(), as PostgreSQL 15's: a session's
 * generator of double precision values in [0, 1).
 *
 * Each session owns one attu_random_state (db/db_internal.h); the db layer
 * makes it the current thread's at the start of every statement
 * (attu_random_use), as it does the session's time zone. setseed binds
 * while the statement is planned and random() runs as ATTU_OP_RANDOM, host
 * only, in the statement's own thread: a program holding it is run on one
 * thread, in row order (attu_program_uses_random), so that the values that
 * follow a setseed are the same every time, as PostgreSQL promises. A
 * state that was never seeded seeds itself from the system's entropy on
 * its first draw, as a PostgreSQL backend does.
 *
 * The generator is xoroshiro128** (Blackman and Vigna), PostgreSQL's own
 * since version 15; the values differ from PostgreSQL's all the same, as
 * its seeding is not followed bit for bit (no test can compare them).
 */
#ifndef ATTU_ENGINE_RANDOM_H
#define ATTU_ENGINE_RANDOM_H

#include <stdbool.h>
#include <stdint.h>

#include "engine/error.h"

typedef struct attu_random_state {
    uint64_t s0, s1;
    bool     seeded;
} attu_random_state;

/* Makes st the current thread's generator (NULL: none, random() then draws
 * from a generator of the thread's own). */
void attu_random_use(attu_random_state *st);
attu_random_state *attu_random_current(void);
/* Forgets st where it is the current thread's (its session ends). */
void attu_random_forget(attu_random_state *st);

/* The next value in [0, 1) of the current generator. */
double attu_random_next(void);

/* setseed(seed): the generator restarted from seed, which must lie in
 * [-1, 1] (22023 "setseed parameter 2 is out of allowed range [-1,1]"
 * otherwise, NaN too). */
int attu_random_setseed(attu_random_state *st, double seed, attu_error *err);

#endif
