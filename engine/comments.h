/*
 * comments.h - the comments COMMENT ON gives (pg_description's rows).
 *
 * A comment belongs to a relation (kind 'r': a table, a view, a
 * materialized view), a column of one ('c', sub the column's name) or a
 * constraint of a table ('k', sub the constraint's name), by name: attu
 * has no lasting OIDs. So the db layer moves a comment when what it
 * belongs to is renamed and drops it with its object (db/db_comment.c);
 * the system catalogs show only those whose object exists. The catalog
 * (catalog.h) holds the store, storage keeps it in the data directory's
 * attu.comments.
 */
#ifndef ATTU_COMMENTS_H
#define ATTU_COMMENTS_H

#include <stdbool.h>
#include <stddef.h>

typedef struct attu_comment {
    char  kind;   /* 'r', 'c', 'k' */
    char *rel;
    char *sub;    /* "" for a relation's */
    char *text;
} attu_comment;

typedef struct attu_comments attu_comments;

attu_comments *attu_comments_new(void);
void attu_comments_free(attu_comments *cs);
/* A copy of every comment; NULL when out of memory. */
attu_comments *attu_comments_clone(const attu_comments *cs);
/* Sets (text NULL or "": removes) the comment of (kind, rel, sub). -1:
 * out of memory, nothing changed. */
int attu_comments_set(attu_comments *cs, char kind, const char *rel, const char *sub, const char *text);
const char *attu_comments_get(const attu_comments *cs, char kind, const char *rel, const char *sub);
/* A relation renamed: its comments and its columns' and constraints'
 * follow (-1: out of memory, nothing changed). */
int attu_comments_rename_rel(attu_comments *cs, const char *from, const char *to);
/* A column ('c') or constraint ('k') of rel renamed. */
int attu_comments_rename_sub(attu_comments *cs, char kind, const char *rel, const char *from, const char *to);
/* Removes a relation's comments (its own, its columns', its
 * constraints'); whether any went. */
bool attu_comments_drop_rel(attu_comments *cs, const char *rel);
/* Removes those of rel's columns / constraints keep() says are gone;
 * whether any went. */
bool attu_comments_prune(attu_comments *cs, const char *rel, bool (*keep)(void *ctx, char kind, const char *sub),
                         void *ctx);
/* Whether a and b hold the same comments (in any order). */
bool attu_comments_equal(const attu_comments *a, const attu_comments *b);
size_t attu_comments_count(const attu_comments *cs);
const attu_comment *attu_comments_at(const attu_comments *cs, size_t i);

#endif
