/*
 * test_sequence.c - engine/sequence.h: defaults of the options, steps up
 * and down, the bounds (2200H) and CYCLE near the ends of bigint, setval,
 * restart, ALTER SEQUENCE's options (kept when not written, AS moving the
 * type's own bounds, nothing changed on an error), and the text line that
 * persists a sequence read back.
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

/* ALTER SEQUENCE's options on a sequence that exists: what is not written
 * stays; AS moves only the old type's own bounds; a failed alter leaves
 * the sequence as it was. */
Test(sequence, alter_keeps_what_is_not_written) {
    attu_sequence_options o;
    memset(&o, 0, sizeof o);
    o.type = ATTU_TYPE_INT32;
    o.has_max = true;
    o.max = 1000;
    attu_sequence *s = make("s", o);
    cr_assert_eq(next(s), 1);
    cr_assert_eq(next(s), 2);
    attu_error err;
    attu_error_clear(&err);
    /* AS bigint: the user's MAXVALUE stays, the type's MINVALUE 1 too */
    memset(&o, 0, sizeof o);
    o.type = ATTU_TYPE_INT64;
    o.has_increment = true;
    o.increment = 5;
    cr_assert_eq(attu_sequence_alter(s, &o, &err), 0, "%s", err.message);
    cr_assert_eq(s->type, ATTU_TYPE_INT64);
    cr_assert_eq(s->max, 1000);
    cr_assert_eq(s->min, 1);
    cr_assert_eq(next(s), 7);
    /* NO MAXVALUE: the new type's maximum; RESTART WITH */
    memset(&o, 0, sizeof o);
    o.has_max = o.no_max = true;
    o.has_restart = o.has_restart_value = true;
    o.restart = 50;
    cr_assert_eq(attu_sequence_alter(s, &o, &err), 0, "%s", err.message);
    cr_assert_eq(s->max, INT64_MAX);
    cr_assert_eq(next(s), 50);
    cr_assert_eq(next(s), 55);
    /* RESTART with no value goes to START, which START alone does not move */
    memset(&o, 0, sizeof o);
    o.has_start = true;
    o.start = 20;
    cr_assert_eq(attu_sequence_alter(s, &o, &err), 0, "%s", err.message);
    cr_assert_eq(next(s), 60);
    memset(&o, 0, sizeof o);
    o.has_restart = true;
    cr_assert_eq(attu_sequence_alter(s, &o, &err), 0, "%s", err.message);
    cr_assert_eq(next(s), 20);
    attu_sequence_free(s);
}

Test(sequence, alter_type_moves_the_types_own_bounds) {
    attu_sequence_options o;
    memset(&o, 0, sizeof o);
    o.type = ATTU_TYPE_INT16;
    o.has_increment = true;
    o.increment = -1;
    attu_sequence *s = make("down", o);
    cr_assert_eq(s->min, INT16_MIN);
    cr_assert_eq(s->max, -1);
    attu_error err;
    attu_error_clear(&err);
    memset(&o, 0, sizeof o);
    o.type = ATTU_TYPE_INT32;
    cr_assert_eq(attu_sequence_alter(s, &o, &err), 0, "%s", err.message);
    cr_assert_eq(s->min, INT32_MIN);
    cr_assert_eq(s->max, -1);
    cr_assert_eq(s->start, -1);
    attu_sequence_free(s);
}

Test(sequence, failed_alter_changes_nothing) {
    attu_sequence_options o;
    memset(&o, 0, sizeof o);
    attu_sequence *s = make("s", o);
    cr_assert_eq(next(s), 1);
    cr_assert_eq(next(s), 2);
    attu_sequence before = *s;
    attu_error err;
    attu_error_clear(&err);
    /* the increment and CYCLE would be fine; the current value is not */
    o.has_increment = true;
    o.increment = 3;
    o.has_cycle = o.cycle = true;
    o.has_max = true;
    o.max = 1;
    o.has_min = true;
    o.min = 0;
    cr_assert_eq(attu_sequence_alter(s, &o, &err), -1);
    cr_assert_str_eq(err.sqlstate, "22023");
    cr_assert_str_eq(err.message, "RESTART value (2) cannot be greater than MAXVALUE (1)");
    cr_assert_eq(memcmp(&before, s, sizeof before), 0);
    attu_error_clear(&err);
    memset(&o, 0, sizeof o);
    o.has_max = true;
    o.max = 1;
    o.has_min = true;
    o.min = 0;
    o.has_start = true;
    o.start = 0;
    cr_assert_eq(attu_sequence_alter(s, &o, &err), -1);
    cr_assert_str_eq(err.message, "RESTART value (2) cannot be greater than MAXVALUE (1)");
    cr_assert_eq(memcmp(&before, s, sizeof before), 0);
    attu_error_clear(&err);
    memset(&o, 0, sizeof o);
    o.type = ATTU_TYPE_BOOL;
    cr_assert_eq(attu_sequence_alter(s, &o, &err), -1);
    cr_assert_str_eq(err.message, "sequence type must be smallint, integer, or bigint");
    cr_assert_eq(next(s), 3);
    attu_sequence_free(s);
}
