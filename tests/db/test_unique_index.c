/*
 * test_unique_index.c - the key index (engine/key_set.h, db/db_unique.c)
 * gives exactly the answers of the query path it replaces: one database
 * checks through its index, a second one (ATTU_UNIQUE_INDEX=off, read by
 * each check) through the queries, and a few thousand pseudo-random
 * statements (INSERT, INSERT ... SELECT, ON CONFLICT DO NOTHING / DO
 * UPDATE, UPDATE of keys, DELETE, TRUNCATE, ALTER TABLE, statements that
 * fail) run on both; every statement must end alike (the same SQLSTATE,
 * message and DETAIL, so the same row reported, and the same RETURNING
 * rows) and the tables must hold the same rows throughout. The keys come
 * from small domains so that collisions are frequent, with the values
 * PostgreSQL finds equal though their bits differ (-0 and 0, NaNs, 'b'
 * and 'b ' in char(3)) and NULLs.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "db_test_util.h"

static unsigned long long rng_state;

static unsigned rnd(unsigned n) {
    rng_state = rng_state * 6364136223846793005ULL + 1442695040888963407ULL;
    return (unsigned)((rng_state >> 33) % n);
}

static const char *const floats[] = { "'-0'", "0", "'NaN'", "1.5", "NULL", "2" };

/* one random row: (id, s, a, f, ch) */
static void put_row(char *out, size_t cap) {
    char s[16];
    unsigned k = rnd(12);
    if (k == 11) snprintf(s, sizeof s, "NULL");
    else snprintf(s, sizeof s, "'x%u'", k);
    char a[16];
    if (rnd(5) == 0) snprintf(a, sizeof a, "NULL");
    else snprintf(a, sizeof a, "%u", rnd(4));
    /* char(3): 'c1', 'c1 ' and 'c1  ' are one value */
    static const char *const pads[] = { "", " ", "  " };
    char ch[16];
    if (rnd(3) == 0) snprintf(ch, sizeof ch, "NULL");
    else snprintf(ch, sizeof ch, "'c%u%s'", rnd(10), pads[rnd(3)]);
    snprintf(out + strlen(out), cap - strlen(out), "(%u, %s, %s, %s, %s)", rnd(40), s, a, floats[rnd(6)], ch);
}

static void make_statement(char *sql, size_t cap, int *altered) {
    sql[0] = 0;
    unsigned kind = rnd(100);
    if (kind < 35) {
        snprintf(sql, cap, "INSERT INTO u (id, s, a, f, ch) VALUES ");
        unsigned n = 1 + rnd(4);
        for (unsigned i = 0; i < n; i++) {
            if (i) strncat(sql, ", ", cap - strlen(sql) - 1);
            put_row(sql, cap);
        }
        if (rnd(3) == 0) strncat(sql, " RETURNING id, s", cap - strlen(sql) - 1);
    } else if (kind < 55) {
        snprintf(sql, cap, "INSERT INTO u (id, s, a, f, ch) VALUES ");
        unsigned n = 1 + rnd(4);
        for (unsigned i = 0; i < n; i++) {
            if (i) strncat(sql, ", ", cap - strlen(sql) - 1);
            put_row(sql, cap);
        }
        static const char *const tails[] = {
            " ON CONFLICT DO NOTHING RETURNING id",
            " ON CONFLICT (id) DO NOTHING",
            " ON CONFLICT (id) DO UPDATE SET s = excluded.s RETURNING id, s",
            " ON CONFLICT (id) DO UPDATE SET id = u.id + 40, a = excluded.a",
            " ON CONFLICT (s) DO UPDATE SET f = excluded.f, ch = excluded.ch WHERE u.id % 2 = 0 RETURNING id, f",
            " ON CONFLICT (a, f) DO UPDATE SET a = u.a + 1",
            " ON CONFLICT ON CONSTRAINT u_ch_key DO UPDATE SET ch = NULL, s = excluded.s",
        };
        strncat(sql, tails[rnd(7)], cap - strlen(sql) - 1);
    } else if (kind < 72) {
        static const char *const sets[] = {
            "id = id + 3", "id = id - 1", "s = NULL", "s = 'x' || (id % 5)::text", "a = id % 3, f = 0",
            "f = '-0'", "ch = 'c1 '", "ch = NULL, a = NULL", "id = 80 - id", "s = s",
        };
        snprintf(sql, cap, "UPDATE u SET %s WHERE id %% %u = %u", sets[rnd(10)], 2 + rnd(6), rnd(3));
    } else if (kind < 85) {
        snprintf(sql, cap, "DELETE FROM u WHERE id %% %u = %u%s", 3 + rnd(8), rnd(3), rnd(4) == 0 ? " RETURNING id" : "");
    } else if (kind < 93) {
        snprintf(sql, cap, "INSERT INTO u (id, s, a, f, ch) SELECT id + %u, s || 'y', a, f, ch FROM u WHERE id %% %u = 0",
                 1 + rnd(60), 2 + rnd(4));
    } else if (kind < 95) {
        snprintf(sql, cap, "TRUNCATE u");
    } else if (kind < 97 && *altered < 3) {
        snprintf(sql, cap, "ALTER TABLE u ADD COLUMN z%d INTEGER DEFAULT %u", (*altered)++, rnd(3));
    } else {
        /* fails after the check passed (division by zero in RETURNING) */
        snprintf(sql, cap, "INSERT INTO u (id, s) VALUES (%u, 'r%u') RETURNING 1 / (id - id)", rnd(40), rnd(40));
    }
}

static void same_outcome(const char *sql, const tres *a, const tres *b) {
    cr_assert_str_eq(a->err.sqlstate, b->err.sqlstate, "%s: %s / %s", sql, a->err.message, b->err.message);
    cr_assert_str_eq(a->err.message, b->err.message, "%s", sql);
    cr_assert_str_eq(a->err.detail, b->err.detail, "%s", sql);
    cr_assert_str_eq(a->text ? a->text : "", b->text ? b->text : "", "%s", sql);
}

static void run_mix(unsigned long long seed) {
    rng_state = seed;
    attu_db *db1, *db2;
    attu_session *s1 = tdb_open_session(&db1), *s2 = tdb_open_session(&db2);
    const char *create = "CREATE TABLE u (id INTEGER PRIMARY KEY, s TEXT UNIQUE, a INTEGER, f DOUBLE PRECISION,"
                         " ch CHAR(3) UNIQUE, UNIQUE (a, f))";
    tdb_exec_ok(s1, create);
    tdb_exec_ok(s2, create);
    int altered1 = 0, failures = 0;
    char sql[2048];
    for (int i = 0; i < 3000; i++) {
        make_statement(sql, sizeof sql, &altered1);
        tres r1, r2;
        unsetenv("ATTU_UNIQUE_INDEX");
        tdb_exec(s1, sql, &r1);
        setenv("ATTU_UNIQUE_INDEX", "off", 1);
        tdb_exec(s2, sql, &r2);
        unsetenv("ATTU_UNIQUE_INDEX");
        same_outcome(sql, &r1, &r2);
        failures += r1.err.sqlstate[0] != 0;
        tres_free(&r1);
        tres_free(&r2);
        if (i % 25 == 24) {
            char *t1 = tdb_rows_ok(s1, "SELECT * FROM u ORDER BY id");
            char *t2 = tdb_rows_ok(s2, "SELECT * FROM u ORDER BY id");
            cr_assert_str_eq(t1, t2, "after statement %d: %s", i, sql);
            free(t1);
            free(t2);
        }
    }
    /* (the mix must exercise both outcomes) */
    cr_assert_gt(failures, 300);
    cr_assert_lt(failures, 2700);
    attu_session_free(s1);
    attu_session_free(s2);
    attu_db_close(db1);
    attu_db_close(db2);
}

Test(unique_index, answers_as_the_query_path) {
    run_mix(0x9e3779b97f4a7c15ULL);
    run_mix(12345);
    run_mix(777);
}
