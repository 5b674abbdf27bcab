/* Unit tests for engine/error.c: first error wins, fields are filled. */
#include <criterion/criterion.h>

#include "engine/error.h"

Test(error, first_error_wins) {
    attu_error err;
    attu_error_clear(&err);
    cr_assert_eq(attu_error_set(&err, ATTU_SQLSTATE_SYNTAX, 7, "syntax error at or near \"%s\"", "FORM"), -1);
    attu_error_set(&err, ATTU_SQLSTATE_INTERNAL, 1, "later");
    cr_assert(err.set);
    cr_assert_str_eq(err.sqlstate, "42601");
    cr_assert_str_eq(err.message, "syntax error at or near \"FORM\"");
    cr_assert_eq(err.position, 7);
}

Test(error, null_error_is_ignored) {
    cr_assert_eq(attu_error_set(NULL, "XX000", 0, "dropped"), -1);
}

Test(error, oom_is_53200) {
    attu_error err;
    attu_error_clear(&err);
    attu_error_oom(&err);
    cr_assert_str_eq(err.sqlstate, "53200");
}
