/* Unit tests for engine/error.c: first error wins, fields are filled. */
#include <criterion/criterion.h>

#include "engine/error.h"

#include <string.h>

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

/* A message longer than its buffer is cut on a whole UTF-8 character
 * (clients decode it as UTF-8), for the message and the detail alike. */
Test(error, long_message_cut_on_a_character) {
    char word[2 * 700 + 2];
    for (int i = 0; i < 700; i++) { word[2 * i] = (char)0xC3; word[2 * i + 1] = (char)0xA9; }  /* e acute */
    word[1400] = '\0';
    for (int shift = 0; shift < 2; shift++) {
        attu_error err;
        attu_error_clear(&err);
        attu_error_set(&err, ATTU_SQLSTATE_DATETIME_FORMAT, 0, "%.*sinvalid value \"%s\"", shift, "x", word);
        attu_error_set_detail(&err, "%.*s%s", shift, "y", word);
        const char *texts[2] = { err.message, err.detail };
        for (int t = 0; t < 2; t++) {
            size_t n = strlen(texts[t]);
            cr_assert_gt(n, 200);  /* the buffer was filled */
            /* ends after a complete two-byte sequence */
            cr_assert_eq((unsigned char)texts[t][n - 1], 0xA9, "shift %d text %d", shift, t);
            cr_assert_eq((unsigned char)texts[t][n - 2], 0xC3, "shift %d text %d", shift, t);
        }
    }
}
