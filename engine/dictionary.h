/*
 * dictionary.h - the sorted string dictionary behind every TEXT column.
 *
 * A TEXT column stores int32 codes; the dictionary maps code i to the i-th
 * distinct string in byte order (C collation). Because codes are assigned in
 * sorted order, comparing, sorting, joining and grouping TEXT runs on the
 * codes alone: code(a) < code(b) exactly when a < b bytewise. Two columns
 * compare by code only when they share one dictionary; otherwise the
 * executor first translates one side's codes (attu_dictionary_translate).
 *
 * A dictionary is immutable once built and reference counted, so a query can
 * keep reading the one it started with while a load builds a successor.
 */
#ifndef ATTU_DICTIONARY_H
#define ATTU_DICTIONARY_H

#include <stddef.h>
#include <stdint.h>

#include "engine/append_claims.h"
#include "engine/error.h"

/* Buffers that successive dictionaries share when strings are only added
 * past the last one (dictionary.c, attu_dictionary_add_sorted): each
 * dictionary's strings are a prefix of them. Only the newest may add in
 * place (claims: engine/append_claims.h, in strings), any other adder
 * copies. */
typedef struct attu_dictionary_store {
    int       refs;        /* dictionaries pointing at it */
    attu_append_claims claims;
    size_t    cap_count;   /* strings offsets has room for (+1) */
    uint64_t  cap_bytes;
    uint64_t *offsets;
    char     *bytes;
} attu_dictionary_store;

typedef struct attu_dictionary {
    int       refcount;
    int32_t   count;      /* distinct strings */
    uint64_t *offsets;    /* count+1 offsets into bytes */
    char     *bytes;      /* all strings back to back, no NULs inside */
    /* NULL: offsets and bytes are this dictionary's own. Else they are the
     * store's and this dictionary reads their first count strings, which
     * never change; it added strings [claim_base, claim_end) in place, and
     * gives them back when freed while still the newest. */
    attu_dictionary_store *store;
    int32_t   claim_base, claim_end;
} attu_dictionary;

/* The i-th string and its length (not NUL-terminated). */
static inline const char *attu_dictionary_get(const attu_dictionary *d,
                                              int32_t code, size_t *len) {
    *len = (size_t)(d->offsets[code + 1] - d->offsets[code]);
    return d->bytes + d->offsets[code];
}

/* Builds a dictionary from n strings (duplicates allowed, any order) and
 * writes each input's code to codes_out[i]. Returns NULL on OOM. */
attu_dictionary *attu_dictionary_build(const char *const *strs,
                                       const size_t *lens, size_t n,
                                       int32_t *codes_out, attu_error *err);

/* Merges: the union of old and n new strings (any order, duplicates
 * allowed). old_remap[c] gets the new code of old code c; codes_out[i]
 * the code of new string i: attu_dictionary_add with every old code's
 * new code spelled out. */
attu_dictionary *attu_dictionary_merge(const attu_dictionary *old,
                                       const char *const *strs,
                                       const size_t *lens, size_t n,
                                       int32_t *old_remap, int32_t *codes_out,
                                       attu_error *err);

/* Adds n strings, sorted bytewise and distinct (another dictionary's
 * strings in code order, say), to old (NULL: none) in one ordered walk,
 * without re-sorting old: O(n log(old's count / n)) searches, plus a copy
 * of old when some string is new and sorts before old's last. New strings
 * that all sort after old's last are added in place of a store old shares
 * (O(n): attu_dictionary_store), or to a copy with room to do so next
 * time. codes_out[j] gets string j's code in
 * the result. When old holds every string already, the result is old
 * itself (one more reference): its codes stand. Otherwise old's strings
 * keep their order, so old code c < *moved_out keeps its code and a code
 * c >= *moved_out becomes (*remap_out)[c - *moved_out] (malloc'd, the
 * caller frees it; NULL when no old code moves, as when every new string
 * sorts after old's last). NULL on error. */
attu_dictionary *attu_dictionary_add_sorted(attu_dictionary *old, const char *const *strs, const size_t *lens,
                                            size_t n, int32_t *codes_out, int32_t *moved_out, int32_t **remap_out,
                                            attu_error *err);

/* attu_dictionary_add_sorted for n strings in any order, duplicates
 * allowed (they are deduplicated and sorted on their own first):
 * codes_out[i] the code of string i, *moved_out and *remap_out as there. */
attu_dictionary *attu_dictionary_add(attu_dictionary *old, const char *const *strs, const size_t *lens, size_t n,
                                     int32_t *codes_out, int32_t *moved_out, int32_t **remap_out, attu_error *err);

/* The strings of d that keep[c] marks, in d's order: code c of d becomes
 * the number of kept codes before it. One copy of the kept strings, no
 * hashing or sorting (they are sorted and distinct already). */
attu_dictionary *attu_dictionary_subset(const attu_dictionary *d, const uint8_t *keep, attu_error *err);

/* Binary search. Returns the code, or -(insertion point) - 1 if absent (the
 * insertion point is the code the string would get, which lets range
 * predicates such as name < 'M' become code comparisons). */
int32_t attu_dictionary_find(const attu_dictionary *d, const char *s, size_t len);

/* For each code of `from`, its code in `to`, or -1 if absent. */
int attu_dictionary_translate(const attu_dictionary *from,
                              const attu_dictionary *to, int32_t *map_out,
                              attu_error *err);

attu_dictionary *attu_dictionary_ref(attu_dictionary *d);
void attu_dictionary_unref(attu_dictionary *d);

#endif
