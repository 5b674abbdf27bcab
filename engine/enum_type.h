/*
 * enum_type.h - PostgreSQL's enum types (CREATE TYPE name AS ENUM).
 *
 * Storage. A value of an enum type lives in a TEXT slot (types.h:
 * attu_type_enum, scale ATTU_ENUM_SCALE, precision minus the type's id) as its
 * image: the label's sort key, a byte 0x01, then the label:
 *
 *     <key> \x01 <label>
 *
 * The keys are strings over the bytes '!'..'~' whose byte order is the
 * enum's declared order, and a key is never a prefix of another's image
 * in a way that matters: 0x01 sorts below every key byte, so comparing two
 * images compares their keys first, and keys are distinct. So the image's
 * byte order IS the enum order: the sorted dictionaries, and with them
 * every compare, sort, GROUP BY, DISTINCT, join, min and max on codes or
 * bytes (the GPU backend's included) order enums as PostgreSQL does, with
 * no new GPU code. ADD VALUE BEFORE / AFTER takes a key strictly between
 * its neighbours' (keys are fractional: attu_enum_key_between never needs
 * to renumber), so the values already stored keep their images. What
 * shows a value (attu_column_format: the wire, COPY TO, a key's DETAIL)
 * shows the part after the 0x01, and a cast to text strips it the same
 * way (substr / strpos, ordinary string opcodes).
 *
 * The label in the image means RENAME VALUE must rewrite the stored
 * values of that label (db/db_type.c does, table by table, as UPDATE).
 *
 * Catalog. A type's definition (its id, and per label its key, PostgreSQL's
 * float4 enumsortorder and the label) is kept as text in the catalog's
 * comments store (comments.h) under kind 'e' and the name "\x01" + the
 * type's name: the store already follows transactions (a working copy
 * per writing transaction, merged at COMMIT, gone at ROLLBACK), is kept in
 * the data directory (attu.comments) and is cloned with the catalog, so a
 * type created in a rolled-back block vanishes and one committed survives a
 * restart. Readers of the store (pg_description) skip kind 'e'.
 *
 * Resolution. Type names are resolved in places that hold no catalog
 * (attu_type_from_name, attu_type_name); the session points the calling
 * thread at its catalog while a statement runs (attu_enum_use_catalog).
 */
#ifndef ATTU_ENGINE_ENUM_TYPE_H
#define ATTU_ENGINE_ENUM_TYPE_H

#include <stdbool.h>
#include <stddef.h>

#include "engine/error.h"
#include "engine/types.h"

struct attu_catalog;
struct attu_comments;

#define ATTU_ENUM_LABEL_MAX 63   /* NAMEDATALEN - 1 bytes */
#define ATTU_ENUM_SEP '\001'
#define ATTU_ENUM_COMMENT_KIND 'e'
/* PostgreSQL-like OIDs for the types (none of attu's lasting OIDs fall
 * here: relations get hashes of their names): the type's and its array's */
#define ATTU_ENUM_OID_BASE 60000u
static inline unsigned attu_enum_oid(int id) { return ATTU_ENUM_OID_BASE + 2u * (unsigned)id; }
static inline unsigned attu_enum_array_oid(int id) { return ATTU_ENUM_OID_BASE + 2u * (unsigned)id + 1u; }

typedef struct attu_enum_label {
    char  *label;
    char  *key;
    float  order;     /* pg_enum.enumsortorder, as PostgreSQL assigns it */
} attu_enum_label;

typedef struct attu_enum_def {
    char            *name;
    int              id;
    int              n;
    attu_enum_label *labels;   /* in the enum's order */
} attu_enum_def;

/* Where the calling thread's enum lookups find the catalog: fn(ctx) at
 * each lookup (the session's catalog changes as its transaction begins
 * to write). The pair before goes into *was (NULL fn: none, every lookup
 * fails). */
typedef struct attu_enum_source {
    struct attu_catalog *(*fn)(void *ctx);
    void *ctx;
} attu_enum_source;
attu_enum_source attu_enum_use(attu_enum_source src);
/* The calling thread's pair: what a worker thread of the same statement
 * takes (thread_pool.c, cpu_threads.c), so that what it reads of an enum
 * (an enum array's labels: engine/array.c) finds the statement's types. */
attu_enum_source attu_enum_current(void);

/* The definition of the type named name / of id, parsed afresh (free it
 * with attu_enum_def_free), or NULL when there is none. */
attu_enum_def *attu_enum_find(const char *name);
attu_enum_def *attu_enum_find_id(int id);
/* Likewise from a given store. */
attu_enum_def *attu_enum_find_in(const struct attu_comments *cs, const char *name);
void attu_enum_def_free(attu_enum_def *d);
/* The name of the type id into buf ("enum" when it is gone). */
const char *attu_enum_name(int id, char *buf, size_t cap);

/* Writes d into the store (replacing one of its name); removes the
 * type name's. -1: out of memory. */
int attu_enum_store(struct attu_comments *cs, const attu_enum_def *d);
void attu_enum_remove(struct attu_comments *cs, const char *name);
/* An id no type of the store has. */
int attu_enum_next_id(const struct attu_comments *cs);
/* Calls fn for every type of the store (d is freed after). */
void attu_enum_each(const struct attu_comments *cs, void (*fn)(void *ctx, const attu_enum_def *d), void *ctx);

/* A key strictly between lo and hi (lo NULL: below every key; hi NULL:
 * above every key); malloc'd, NULL when out of memory. */
char *attu_enum_key_between(const char *lo, const char *hi);
/* n evenly spaced keys for a new type (keys[i] malloc'd); -1: no memory. */
int attu_enum_keys_initial(int n, char **keys);

/* The image of label i of d: malloc'd, its length in *len. */
char *attu_enum_image(const attu_enum_def *d, int i, size_t *len);
/* The label of image s[0..len) (s itself when it has no 0x01). */
const char *attu_enum_image_label(const char *s, size_t len, size_t *label_len);
/* The index of label s[0..len) in d, or -1. */
int attu_enum_label_index(const attu_enum_def *d, const char *s, size_t len);
/* The image of label s[0..len) of the enum type t: malloc'd; 22P02
 * "invalid input value for enum t: \"s\"" when it is none of its labels,
 * 42704 when the type is gone. */
char *attu_enum_input(attu_type t, const char *s, size_t len, size_t *out_len, attu_error *err);

#endif
