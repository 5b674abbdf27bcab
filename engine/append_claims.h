/*
 * append_claims.h - who may append in place to buffers that successive
 * versions share (a column's attu_column_store, a dictionary's
 * attu_dictionary_store).
 *
 * Each version reads a prefix of the buffers: its own length. `claimed`
 * is the longest prefix some live version may read. A new version may
 * append in place only from claimed itself (its base is the newest
 * version): it takes [claimed, claimed + n), no version reads past
 * claimed, so nobody sees what it writes there. Any other writer (a second
 * one from the same base, one from an older version) copies.
 *
 * A version that goes (ROLLBACK, ROLLBACK TO, a failed statement) gives
 * its rows back when it was the newest: claimed returns to its base. A
 * version that goes while a newer one still stands cannot give its rows
 * back yet; it is remembered (a few of them), and when the newer one goes
 * too, claimed walks back through them. So after BEGIN; INSERT; INSERT;
 * ROLLBACK the next INSERT still appends in place to the committed
 * version's buffers.
 *
 * Claims and give-backs take a small lock of the claims' own: versions
 * are freed by whichever session drops them last.
 */
#ifndef ATTU_APPEND_CLAIMS_H
#define ATTU_APPEND_CLAIMS_H

#include <stdbool.h>
#include <stddef.h>

#define ATTU_APPEND_CLAIMS_GONE 8   /* gone versions remembered */

typedef struct attu_append_claims {
    bool   lock;
    size_t claimed;
    /* claims [gone_base[i], gone_end[i]) of versions gone while a newer
     * one stood, oldest first */
    int    ngone;
    size_t gone_base[ATTU_APPEND_CLAIMS_GONE], gone_end[ATTU_APPEND_CLAIMS_GONE];
} attu_append_claims;

/* Takes [from, to) when from is claimed (the caller's base is the newest
 * version) and to <= limit (the buffers' room); false otherwise. */
bool attu_append_claims_take(attu_append_claims *cl, size_t from, size_t to, size_t limit);

/* The version that took [base, end) goes. */
void attu_append_claims_give_back(attu_append_claims *cl, size_t base, size_t end);

#endif
