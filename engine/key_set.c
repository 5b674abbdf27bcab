/*
 * key_set.c - hash sets of row keys (key_set.h): open addressing with
 * linear probing over (hash, row) slots, at most half full; removal
 * shifts the following entries of the run back (no tombstones), so a
 * set that follows many UPDATEs does not fill up with dead slots.
 */
#include "engine/key_set.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "engine/interval.h"
#include "engine/key_set_undo.h"
#include "engine/numeric.h"
#include "engine/range.h"

/* ---- one value ------------------------------------------------------------------------------ */

static uint64_t mix64(uint64_t x) {
    x ^= x >> 30;
    x *= 0xbf58476d1ce4e5b9ULL;
    x ^= x >> 27;
    x *= 0x94d049bb133111ebULL;
    x ^= x >> 31;
    return x;
}

static uint64_t hash_bytes(uint64_t h, const void *p, size_t n) {
    const unsigned char *b = p;
    h ^= n * 0x9e3779b97f4a7c15ULL;
    for (size_t i = 0; i < n; i++) h = (h ^ b[i]) * 0x100000001b3ULL;
    return mix64(h);
}

/* A TEXT value's bytes: char(n) / bpchar without the trailing blanks
 * PostgreSQL's bpchar equality ignores (char(n) is stored stripped
 * already; an unbounded bpchar keeps them: types.h). */
static const char *text_bytes(const attu_column *c, size_t r, size_t *len) {
    const char *s = attu_dictionary_get(c->dict, ((const int32_t *)c->data)[r], len);
    if (attu_type_is_bpchar_any(c->type))
        while (*len > 0 && s[*len - 1] == ' ') (*len)--;
    return s;
}

/* numeric's value in one form: trailing zeros of the fraction dropped, so
 * that 1.0 and 1.00 hash alike (NaN and the infinities as they are) */
static attu_numeric numeric_canonical(const void *slot) {
    attu_numeric v = attu_numeric_unpack(slot);
    if (attu_numeric_is_special(v)) return v;
    while (v.dscale > 0 && v.m % 10 == 0) { v.m /= 10; v.dscale--; }
    if (v.m == 0) v.dscale = 0;
    return v;
}

/* A text value's bytes as a key compares them: a numrange's without its
 * bounds' display scales (engine/range.h: '[1.0,2)' and '[1.00,2)' are
 * one key, as range_eq has them). */
static const char *text_key_bytes(const attu_column *c, size_t r, size_t *len) {
    const char *s = text_bytes(c, r, len);
    if (attu_type_is_range(c->type) && attu_type_range_kind(c->type) == ATTU_RANGE_NUM)
        *len = attu_range_key_len(ATTU_RANGE_NUM, s, *len);
    return s;
}

static uint64_t hash_value(uint64_t h, const attu_column *c, size_t r) {
    switch (c->type.id) {
    case ATTU_TYPE_TEXT: {
        size_t len;
        const char *s = text_key_bytes(c, r, &len);
        return hash_bytes(h, s, len);
    }
    case ATTU_TYPE_FLOAT32: {
        float f = ((const float *)c->data)[r];
        uint32_t bits;
        if (isnan(f)) bits = 0x7fc00000u;        /* every NaN one value */
        else { if (f == 0) f = 0.0f; memcpy(&bits, &f, 4); }   /* -0 is 0 */
        return hash_bytes(h, &bits, 4);
    }
    case ATTU_TYPE_FLOAT64: {
        double d = ((const double *)c->data)[r];
        uint64_t bits;
        if (isnan(d)) bits = 0x7ff8000000000000ULL;
        else { if (d == 0) d = 0.0; memcpy(&bits, &d, 8); }
        return hash_bytes(h, &bits, 8);
    }
    case ATTU_TYPE_NUMERIC: {
        attu_numeric v = numeric_canonical((const char *)c->data + r * 16);
        h = hash_bytes(h, &v.m, sizeof v.m);
        return hash_bytes(h, &v.dscale, sizeof v.dscale);
    }
    case ATTU_TYPE_INTERVAL: {
        attu_interval iv;
        memcpy(&iv, (const char *)c->data + r * sizeof iv, sizeof iv);
        __int128 span = attu_interval_span(iv);   /* a month 30 days, a day 24 hours */
        return hash_bytes(h, &span, sizeof span);
    }
    default: {
        size_t w = attu_type_width(c->type.id);
        return hash_bytes(h, (const char *)c->data + r * w, w);
    }
    }
}

static bool equal_value(const attu_column *a, size_t ra, const attu_column *b, size_t rb) {
    switch (a->type.id) {
    case ATTU_TYPE_TEXT: {
        size_t la, lb;
        const char *sa = text_key_bytes(a, ra, &la), *sb = text_key_bytes(b, rb, &lb);
        return la == lb && !memcmp(sa, sb, la);
    }
    case ATTU_TYPE_FLOAT32: {
        float x = ((const float *)a->data)[ra], y = ((const float *)b->data)[rb];
        return x == y || (isnan(x) && isnan(y));
    }
    case ATTU_TYPE_FLOAT64: {
        double x = ((const double *)a->data)[ra], y = ((const double *)b->data)[rb];
        return x == y || (isnan(x) && isnan(y));
    }
    case ATTU_TYPE_NUMERIC:
        return attu_numeric_cmp(attu_numeric_unpack((const char *)a->data + ra * 16),
                                attu_numeric_unpack((const char *)b->data + rb * 16)) == 0;
    case ATTU_TYPE_INTERVAL: {
        attu_interval x, y;
        memcpy(&x, (const char *)a->data + ra * sizeof x, sizeof x);
        memcpy(&y, (const char *)b->data + rb * sizeof y, sizeof y);
        return attu_interval_cmp(x, y) == 0;
    }
    default: {
        size_t w = attu_type_width(a->type.id);
        return !memcmp((const char *)a->data + ra * w, (const char *)b->data + rb * w, w);
    }
    }
}

/* ---- a row's key ---------------------------------------------------------------------------- */

bool attu_key_hash(const attu_table *t, const int *cols, int ncols, size_t r, uint64_t *hash) {
    uint64_t h = 0x243f6a8885a308d3ULL;
    for (int j = 0; j < ncols; j++) {
        const attu_column *c = t->cols[cols[j]];
        if (attu_column_is_null(c, r)) return false;
        h = hash_value(h, c, r);
    }
    *hash = h;
    return true;
}

bool attu_key_equal(const attu_table *a, size_t ra, const attu_table *b, size_t rb, const int *cols, int ncols) {
    for (int j = 0; j < ncols; j++)
        if (!equal_value(a->cols[cols[j]], ra, b->cols[cols[j]], rb)) return false;
    return true;
}

/* ---- the set -------------------------------------------------------------------------------- */

static int alloc_slots(attu_key_set *ks, size_t slots) {
    ks->hashes = malloc(sizeof *ks->hashes * slots);
    ks->rows = malloc(sizeof *ks->rows * slots);
    if (!ks->hashes || !ks->rows) { free(ks->hashes); free(ks->rows); ks->hashes = NULL; ks->rows = NULL; return -1; }
    for (size_t i = 0; i < slots; i++) ks->rows[i] = -1;
    ks->mask = slots - 1;
    return 0;
}

attu_key_set *attu_key_set_new(const attu_table *t, const int *cols, int ncols, size_t expect) {
    attu_key_set *ks = calloc(1, sizeof *ks);
    if (!ks) return NULL;
    ks->ncols = ncols;
    for (int j = 0; j < ncols; j++) { ks->cols[j] = cols[j]; ks->types[j] = t->defs[cols[j]].type; }
    size_t slots = 16;
    while (slots < expect * 2) slots *= 2;
    if (alloc_slots(ks, slots)) { free(ks); return NULL; }
    return ks;
}

void attu_key_set_free(attu_key_set *ks) {
    if (!ks) return;
    attu_key_undo_free(ks->undo);
    free(ks->hashes);
    free(ks->rows);
    free(ks);
}

static void row_of(const attu_key_rows *rows, int64_t v, const attu_table **t, size_t *r) {
    if (!rows->b || (size_t)v < rows->split) { *t = rows->a; *r = (size_t)v; }
    else { *t = rows->b; *r = (size_t)v - rows->split; }
}

int64_t attu_key_set_find(const attu_key_set *ks, uint64_t h, const attu_key_rows *rows, const attu_table *probe,
                          size_t r) {
    for (size_t i = h & ks->mask;; i = (i + 1) & ks->mask) {
        int64_t v = ks->rows[i];
        if (v < 0) return -1;
        if (ks->hashes[i] != h) continue;
        const attu_table *t;
        size_t tr;
        row_of(rows, v, &t, &tr);
        if (attu_key_equal(t, tr, probe, r, ks->cols, ks->ncols)) return v;
    }
}

static void place(attu_key_set *ks, uint64_t h, int64_t r) {
    size_t i = h & ks->mask;
    while (ks->rows[i] >= 0) i = (i + 1) & ks->mask;
    ks->hashes[i] = h;
    ks->rows[i] = r;
}

int attu_key_set_add(attu_key_set *ks, uint64_t h, int64_t r) {
    if ((ks->count + 1) * 2 > ks->mask + 1) {
        uint64_t *oh = ks->hashes;
        int64_t *orow = ks->rows;
        size_t oslots = ks->mask + 1;
        if (alloc_slots(ks, oslots * 2)) { ks->hashes = oh; ks->rows = orow; return -1; }
        for (size_t i = 0; i < oslots; i++) if (orow[i] >= 0) place(ks, oh[i], orow[i]);
        free(oh);
        free(orow);
    }
    place(ks, h, r);
    ks->count++;
    return 0;
}

bool attu_key_set_remove(attu_key_set *ks, uint64_t h, int64_t r) {
    size_t i = h & ks->mask;
    while (ks->rows[i] != r) {
        if (ks->rows[i] < 0) return false;
        i = (i + 1) & ks->mask;
    }
    /* shift back each later entry of the run that may move to the hole
     * (one whose home slot is not between the hole and it) */
    size_t hole = i;
    for (size_t j = (i + 1) & ks->mask; ks->rows[j] >= 0; j = (j + 1) & ks->mask) {
        size_t home = ks->hashes[j] & ks->mask;
        bool stays = hole <= j ? (hole < home && home <= j) : (hole < home || home <= j);
        if (stays) continue;
        ks->hashes[hole] = ks->hashes[j];
        ks->rows[hole] = ks->rows[j];
        hole = j;
    }
    ks->rows[hole] = -1;
    ks->count--;
    return true;
}

void attu_key_index_free(attu_key_index *ix) {
    if (!ix) return;
    for (int i = 0; i < ix->n; i++) attu_key_set_free(ix->sets[i]);
    free(ix->sets);
    free(ix);
}
