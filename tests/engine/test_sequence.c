/*
 * test_sequence.c - engine/sequence.h: defaults of the options, steps up
 * and down, the bounds (2200H) and CYCLE near the ends of bigint, setval,
 * restart, and the text line that persists a sequence read back.
 */
#include <criterion/criterion.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "engine/sequence.h"

static attu_sequence *make(const char *name, attu_sequence_options o) {
    attu_error err;
    attu_error_clear(&err);
    attu_sequence *s = attu_sequence_new(name, &o, &err);
    cr_assert_not_null(s, "%s", err.message);
    return s;
}

static int64_t next(attu_sequence *s) {
    attu_error err;
    attu_error_clear(&err);
    int64_t v = 0;
    cr_assert_eq(attu_sequence_next(s, &v, &err), 0, "%s", err.message);
    return v;
}

Test(sequence, defaults_up_and_down) {
    attu_sequence_options o;
    memset(&o, 0, sizeof o);
    attu_sequence *up = make("up", o);
    cr_assert_eq(up->min, 1);
    cr_assert_eq(up->max, INT64_MAX);
    cr_assert_eq(next(up), 1);
    cr_assert_eq(next(up), 2);
    o.has_increment = true;
    o.increment = -3;
    o.type = ATTU_TYPE_INT16;
    attu_sequence *down = make("down", o);
    cr_assert_eq(down->min, INT16_MIN);
    cr_assert_eq(down->max, -1);
    cr_assert_eq(next(down), -1);
    cr_assert_eq(next(down), -4);
    attu_sequence_free(up);
    attu_sequence_free(down);
}

Test(sequence, bounds_cycle_and_setval) {
    attu_sequence_options o;
    memset(&o, 0, sizeof o);
    o.has_increment = true;
    o.increment = INT64_MAX;
    o.has_start = true;
    o.start = INT64_MAX - 1;
    attu_sequence *s = make("s", o);
    cr_assert_eq(next(s), INT64_MAX - 1);
    attu_error err;
    attu_error_clear(&err);
    int64_t v = 0;
    cr_assert_eq(attu_sequence_next(s, &v, &err), -1);
    cr_assert_str_eq(err.sqlstate, "2200H");
    cr_assert_eq(s->last_value, INT64_MAX - 1, "a failed step leaves the sequence");
    o.has_cycle = o.cycle = true;
    attu_sequence *c = make("c", o);
    cr_assert_eq(next(c), INT64_MAX - 1);
    cr_assert_eq(next(c), 1);
    attu_error_clear(&err);
    cr_assert_eq(attu_sequence_set(c, 0, true, &err), -1);
    cr_assert_str_eq(err.sqlstate, "22003");
    cr_assert_eq(attu_sequence_set(c, 40, false, &err), 0);
    cr_assert_eq(next(c), 40);
    attu_sequence_restart(c);
    cr_assert_eq(next(c), INT64_MAX - 1);
    attu_sequence_free(s);
    attu_sequence_free(c);
}

Test(sequence, bad_options) {
    attu_sequence_options o;
    memset(&o, 0, sizeof o);
    o.has_min = o.has_max = true;
    o.min = 5;
    o.max = 5;
    attu_error err;
    attu_error_clear(&err);
    cr_assert_null(attu_sequence_new("x", &o, &err));
    cr_assert_str_eq(err.sqlstate, "22023");
    cr_assert_str_eq(err.message, "MINVALUE (5) must be less than MAXVALUE (5)");
}

Test(sequence, line_round_trip) {
    attu_sequence_options o;
    memset(&o, 0, sizeof o);
    o.type = ATTU_TYPE_INT32;
    attu_sequence *s = make("we\tird %name", o);
    s->owner_table = strdup("T\n1");
    s->owner_column = strdup("");
    s->identity = 'a';
    next(s);
    next(s);
    char *line = attu_sequence_format(s);
    cr_assert_null(strchr(line, '\n'));
    attu_error err;
    attu_error_clear(&err);
    attu_sequence *r = attu_sequence_parse(line, &err);
    cr_assert_not_null(r, "%s", err.message);
    cr_assert_str_eq(r->name, s->name);
    cr_assert_str_eq(r->owner_table, "T\n1");
    cr_assert_str_eq(r->owner_column, "");
    cr_assert_eq(r->identity, 'a');
    cr_assert_eq(r->type, ATTU_TYPE_INT32);
    cr_assert_eq(r->last_value, 2);
    cr_assert(r->is_called);
    cr_assert_null(attu_sequence_parse("garbage", &err));
    cr_assert_str_eq(err.sqlstate, "XX001");
    free(line);
    attu_sequence_free(r);
    attu_sequence_free(s);
}
