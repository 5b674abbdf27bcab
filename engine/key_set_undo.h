/*
 * key_set_undo.h - the undo log of a key set (engine/key_set.h): what a
 * set's writers changed since it described an earlier version of its
 * table, so that a ROLLBACK (or ROLLBACK TO SAVEPOINT) can hand the set
 * back to the version it restores, exact again, in O(the changes).
 *
 * A set moves from a version to the next with the writer that made it
 * (db/db_unique.c db_unique_follow): before changing it, the writer
 * records a mark (the version the set holds the keys of now), then each
 * entry it removes or adds, and a DELETE's renumbering (the rows it
 * removed). Undoing back to a mark replays those steps backwards: an
 * added entry is removed, a removed one added again, a renumbering
 * reversed. Marks name a version by its address, its uid and its row
 * count together, so a freed version whose address came back never
 * matches a mark of an older one (uid 0, "unknown", never marks).
 *
 * The log is a cache of the set, as the set is of its table: it may be
 * dropped at any time (the set then restores nothing, and the version a
 * ROLLBACK restores builds its set when next needed). It is dropped when
 * it grows past about half the set's entries (undoing it would then cost
 * as much as a rebuild, and its memory about as much as the set's) and
 * forgotten at COMMIT (no ROLLBACK can use it then). Only the writer that
 * holds the set off every version others read changes a log: a query
 * never reads one.
 */
#ifndef ATTU_KEY_SET_UNDO_H
#define ATTU_KEY_SET_UNDO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "engine/key_set.h"
#include "engine/table.h"

/* ks holds exactly the keys of version v's rows now (the start of a
 * writer's changes to it): a mark (the log starts with it when ks had
 * none). */
void attu_key_undo_mark(attu_key_set *ks, const attu_table *v);

/* The entry (hash h, row r) was added to / removed from ks (no-op
 * without a log). */
void attu_key_undo_added(attu_key_set *ks, uint64_t h, int64_t r);
void attu_key_undo_removed(attu_key_set *ks, uint64_t h, int64_t r);

/* A DELETE renumbered ks's entries: the rows gone[0..ngone) (ascending)
 * went, and every kept row's number dropped by the removed rows before
 * it (after their entries were removed and logged). _keep: the same with
 * the rows gone given as those of nold with keep[r] == 0. */
void attu_key_undo_renumbered(attu_key_set *ks, const int64_t *gone, size_t ngone);
void attu_key_undo_renumbered_keep(attu_key_set *ks, const uint8_t *keep, size_t nold);

/* Undoes ks's logged changes back to the latest mark of version v: 1
 * when ks holds exactly v's keys again (its nrows v's; the mark stays,
 * for a second ROLLBACK TO the same savepoint), 0 when the log has no
 * mark of v (ks unchanged), -1 when ks could not be restored (out of
 * memory, or an entry missing: ks is then of no use and the caller
 * frees it). */
int attu_key_undo_to(attu_key_set *ks, const attu_table *v);

/* Whether ks's log holds a mark of version v (attu_key_undo_to would
 * undo to it). */
bool attu_key_undo_has(const attu_key_set *ks, const attu_table *v);

/* Drops ks's log (COMMIT: no ROLLBACK can come back to its marks). */
void attu_key_undo_forget(attu_key_set *ks);

/* Frees a log (attu_key_set_free). */
void attu_key_undo_free(struct attu_key_undo *u);

#endif
