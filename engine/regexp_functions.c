/*
 * regexp_functions.c - regexp_replace, regexp_count, regexp_instr,
 * regexp_like, regexp_substr, substring(s FROM pattern), regexp_match,
 * regexp_matches (its row count and its k-th row) and
 * regexp_split_to_array as PostgreSQL 15 computes them (see
 * regexp_functions.h).
 *
 * PostgreSQL steps through a string's matches the same way in all of them:
 * a search starts where the last match ended, one character further after
 * an empty match, and ^ keeps meaning the start of the whole string (or a
 * line's), not of the search. Matches are found in bytes
 * (attu_regex_find); the positions the functions take and return are
 * characters.
 */
#include "engine/regexp_functions.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "engine/array.h"
#include "engine/similar.h"
#include "engine/utf8.h"

/* The byte offset of character ch (0-based) of s[0, n); false when s has
 * fewer than ch characters (ch == the count gives n, the end). */
static bool char_offset(const char *s, size_t n, int64_t ch, size_t *off) {
    size_t i = 0;
    while (ch > 0) {
        if (i >= n) return false;
        i++;
        while (i < n && ((unsigned char)s[i] & 0xC0) == 0x80) i++;
        ch--;
    }
    *off = i;
    return true;
}

/* Where the search after the match [so, eo) starts: at its end, or one
 * character further when it was empty; past len when there is none. */
static size_t next_search(const char *s, size_t len, long so, long eo) {
    size_t at = (size_t)eo;
    if (so != eo) return at;
    if (at >= len) return len + 1;
    at++;
    while (at < len && ((unsigned char)s[at] & 0xC0) == 0x80) at++;
    return at;
}

static int bad_param(attu_error *err, const char *name, int64_t v) {
    return attu_error_set(err, ATTU_SQLSTATE_INVALID_PARAMETER, 0, "invalid value for parameter \"%s\": %lld", name,
                          (long long)v);
}

/* Prepares the pattern of b (ATTU_OP_REGEXP_FLAGS's flags, NUL, pattern)
 * for fname: its flags (a g refused unless glob is wanted back), then the
 * pattern, with match extents when positions is set. */
static int prepare(attu_similar *sim, const attu_slot *b, const char *fname, bool *glob, bool positions,
                   attu_error *err) {
    const char *z = memchr(b->v.s, '\0', b->len);
    if (!z) return attu_error_set(err, ATTU_SQLSTATE_INTERNAL, 0, "%s: pattern without flags", fname);
    size_t flen = (size_t)(z - b->v.s);
    int mode;
    bool g;
    if (attu_regex_parse_flags(b->v.s, flen, &mode, &g, err)) return -1;
    if (g && !glob) {
        attu_error_set(err, ATTU_SQLSTATE_INVALID_PARAMETER, 0, "%s does not support the \"global\" option", fname);
        if (!strcmp(fname, "regexp_match()")) attu_error_set_hint(err, "Use the regexp_matches function instead.");
        return -1;
    }
    if (glob) *glob = g;
    if (attu_regex_prepare_opts(sim, z + 1, b->len - flen - 1, mode | (positions ? ATTU_RE_SUBMATCH : 0), err)) return -1;
    /* ARE takes the shortest match when the pattern is non-greedy (its
     * first quantified atom is), found by attu_regex_find with searches
     * in shrinking windows, which a $ would misread; the extents of the
     * groups of any pattern with a non-greedy quantifier follow each
     * group's own greediness, which attu does not compute (group_ok) */
    if (positions && sim->shortest && sim->has_dollar)
        return attu_error_set(err, ATTU_SQLSTATE_FEATURE_NOT_SUPPORTED, 0,
                              "non-greedy patterns with $ are not supported in %s", fname);
    return 0;
}

/* Whether the extent of capturing group k (1-based; none past nsub) can
 * be reported: not where glibc's choice may differ from ARE's (a group
 * under a repeating quantifier whose iterations could split the run more
 * than one way, one in, around or after alternatives that do not each
 * match a fixed number of characters, any in a pattern with a non-greedy
 * quantifier, any in a pattern glibc may never finish resolving;
 * engine/similar.c): 0A000. */
static int group_ok(const attu_similar *sim, int64_t k, const char *fname, attu_error *err) {
    if (k < 1 || k > sim->nsub || !(sim->glibc_loop || sim->cap_rep[k - 1])) return 0;
    attu_error_set(err, ATTU_SQLSTATE_FEATURE_NOT_SUPPORTED, 0,
                   "%s: the extent of capturing group %d of this pattern is not supported", fname, (int)k);
    attu_error_set_hint(err, sim->glibc_loop ? "attu reports no group's extent in a pattern that repeats without bound a "
                                               "group that can match the empty string in several ways."
                             : sim->nongreedy ? "attu reports no group's extent in a pattern with a non-greedy quantifier."
                             : "attu reports a group's extent only outside repeated groups that hold quantifiers or "
                               "alternatives, and after no alternatives of varying widths.");
    return -1;
}

/* A growing buffer for regexp_replace's result. */
typedef struct outbuf {
    char  *s;
    size_t n, cap;
    bool   too_long;   /* past the longest text value (PostgreSQL's 1 GB) */
} outbuf;

#define TEXT_MAX_BYTES 0x3fffffffu

static bool out_put(outbuf *o, const char *t, size_t n) {
    if (!n) return true;
    if (o->n + n > TEXT_MAX_BYTES) { o->too_long = true; return false; }
    if (o->n + n > o->cap) {
        size_t cap = o->cap ? o->cap * 2 : 256;
        while (cap < o->n + n) cap *= 2;
        char *s = realloc(o->s, cap);
        if (!s) return false;
        o->s = s;
        o->cap = cap;
    }
    memcpy(o->s + o->n, t, n);
    o->n += n;
    return true;
}

/* The replacement rep for the match in sim->span of str: \1 .. \9 a
 * group's text (nothing for a group the pattern lacks or the match left
 * out), \& the whole match, \\ one backslash; any other backslash, a
 * trailing one too, is itself. */
static bool put_replacement(outbuf *o, const attu_similar *sim, const char *str, const char *rep, size_t rlen) {
    size_t i = 0;
    while (i < rlen) {
        const char *bs = memchr(rep + i, '\\', rlen - i);
        size_t plain = bs ? (size_t)(bs - rep) - i : rlen - i;
        if (!out_put(o, rep + i, plain)) return false;
        i += plain;
        if (i >= rlen) break;
        i++;   /* the backslash */
        int k = -1;
        if (i < rlen && rep[i] >= '1' && rep[i] <= '9') k = rep[i] - '0';
        else if (i < rlen && rep[i] == '&') k = 0;
        else if (i < rlen && rep[i] == '\\') { i++; if (!out_put(o, "\\", 1)) return false; continue; }
        else { if (!out_put(o, "\\", 1)) return false; continue; }
        i++;
        if (k <= sim->nsub && sim->span[k].so >= 0 &&
            !out_put(o, str + sim->span[k].so, (size_t)(sim->span[k].eo - sim->span[k].so)))
            return false;
    }
    return true;
}

/* regexp_replace of one row into *o: the nth match from byte from on, or
 * every one (nth 0). */
static bool replace_row(attu_similar *sim, const char *str, size_t len, size_t from, int64_t nth, const char *rep,
                        size_t rlen, outbuf *o) {
    size_t copied = 0, search = from;
    int64_t seen = 0;
    while (search <= len && attu_regex_find(sim, str, len, search)) {
        long so = sim->span[0].so, eo = sim->span[0].eo;
        seen++;
        if (nth > 0 && seen < nth) { search = next_search(str, len, so, eo); continue; }
        if (!out_put(o, str + copied, (size_t)so - copied) || !put_replacement(o, sim, str, rep, rlen)) return false;
        copied = (size_t)eo;
        if (nth > 0) break;
        search = next_search(str, len, so, eo);
    }
    return out_put(o, str + copied, len - copied);
}

/* The nth (1-based) match from byte from on, PostgreSQL's stepping;
 * sim->span holds it when found. */
static bool nth_match(attu_similar *sim, const char *str, size_t len, size_t from, int64_t nth) {
    size_t search = from;
    for (int64_t k = 1; search <= len && attu_regex_find(sim, str, len, search); k++) {
        if (k == nth) return true;
        search = next_search(str, len, sim->span[0].so, sim->span[0].eo);
    }
    return false;
}

static const char *fname_of(int op, int aux) {
    switch (op) {
    case ATTU_OP_REGEXP_REPLACE: return "regexp_replace()";
    case ATTU_OP_REGEXP_COUNT: return "regexp_count()";
    case ATTU_OP_REGEXP_INSTR: return "regexp_instr()";
    case ATTU_OP_REGEXP_LIKE: return "regexp_like()";
    case ATTU_OP_REGEXP_SUBSTR: return "regexp_substr()";
    case ATTU_OP_REGEXP_MATCH: return aux ? "regexp_matches()" : "regexp_match()";
    case ATTU_OP_REGEXP_SPLIT: return aux ? "regexp_split_to_table()" : "regexp_split_to_array()";
    default: return "substring()";
    }
}

/* ab's bytes (a text[] made by attu_array_put: text elements have no
 * show bytes, so the segments are already its canonical form) as o; ab is
 * freed. */
static int emit_array(attu_abuf *ab, int rc, attu_slot *o, attu_regexp_alloc alloc, void *ctx, attu_error *err) {
    char *m = rc ? NULL : alloc(ctx, ab->len + 1);
    if (m) {
        if (ab->len) memcpy(m, ab->p, ab->len);
        m[ab->len] = 0;
        o->v.s = m;
        o->len = (uint32_t)ab->len;
    }
    attu_abuf_free(ab);
    return m ? 0 : attu_error_oom(err);
}

static int put_text(attu_abuf *ab, const char *s, long so, long eo) {
    attu_slot v = { .v.s = so < 0 ? "" : s + so, .len = so < 0 ? 0 : (uint32_t)(eo - so), .null = so < 0 };
    return attu_array_put(ab, attu_type_make(ATTU_TYPE_TEXT), &v);
}

/* The match in sim->span as regexp_match's text[]: the text of each
 * capturing group (NULL for one the match left out), or the whole match
 * for a pattern without groups. */
static int match_array(const attu_similar *sim, const char *str, attu_slot *o, attu_regexp_alloc alloc, void *ctx,
                       attu_error *err) {
    attu_abuf ab = { NULL, 0, 0 };
    int rc = 0;
    if (!sim->nsub) rc = put_text(&ab, str, sim->span[0].so, sim->span[0].eo);
    for (int k = 1; k <= sim->nsub && !rc; k++) rc = put_text(&ab, str, sim->span[k].so, sim->span[k].eo);
    return emit_array(&ab, rc, o, alloc, ctx, err);
}

/* Where one row's walk over its matches or split pieces stands, kept from
 * row to row: regexp_matches and regexp_split_to_table give row k of a
 * string as the k-th item (ATTU_OP_REGEXP_MATCH / _SPLIT aux 2), and the
 * rows of one string come one after another, k = 1, 2, ... (the series of
 * planner/regexp_setof_bind.c), so row k + 1 goes on from row k's place
 * instead of walking the string again from its start, which made a string
 * of n matches cost n^2 / 2 searches. */
typedef struct walk {
    bool    valid;
    int     op;
    char   *pat;                       /* the pattern operand it walks with */
    size_t  plen;
    int64_t k;                         /* items given so far */
    size_t  search, prev_end, piece;   /* the next search; the last match's end;
                                          the next piece's start (split) */
    bool    done;                      /* no item after the k-th */
    const char *src;                   /* the bytes of the last row's string */
} walk;

/* Starts w over op's items with the pattern operand b; false when out of
 * memory. */
static bool walk_start(walk *w, int op, const attu_slot *b) {
    if (!w->pat || w->plen != b->len || memcmp(w->pat, b->v.s, b->len)) {
        char *p = realloc(w->pat, b->len + 1);
        if (!p) { w->valid = false; return false; }
        memcpy(p, b->v.s, b->len);
        w->pat = p;
        w->plen = b->len;
    }
    w->valid = true;
    w->op = op;
    w->k = 0;
    w->search = w->prev_end = w->piece = 0;
    w->done = false;
    return true;
}

/* Whether w can give item k of op's walk with b: it stands right before
 * it, or past the last item (k is then none). */
static bool walk_continues(const walk *w, int op, const attu_slot *b, int64_t k) {
    return w->valid && w->op == op && (w->k == k - 1 || (w->done && k > w->k)) && w->plen == b->len &&
           !memcmp(w->pat, b->v.s, b->len);
}

/* The next match (in sim->span), PostgreSQL's stepping. */
static bool walk_next_match(walk *w, attu_similar *sim, const char *str, size_t len) {
    if (w->done || w->search > len || !attu_regex_find(sim, str, len, w->search)) { w->done = true; return false; }
    w->search = next_search(str, len, sim->span[0].so, sim->span[0].eo);
    w->k++;
    return true;
}

/* The next piece [*from, *to) of regexp_split_to_array's split, as
 * PostgreSQL 15 splits: every match is searched for (the stepping of
 * next_search), but one that ends where the last one ended (an empty match
 * at the start or right after another match) or starts at the end of the
 * string separates nothing; the pieces are the text before the first
 * separating match, between two, and after the last. */
static bool walk_next_piece(walk *w, attu_similar *sim, const char *str, size_t len, size_t *from, size_t *to) {
    if (w->done) return false;
    while (w->search <= len && attu_regex_find(sim, str, len, w->search)) {
        long so = sim->span[0].so, eo = sim->span[0].eo;
        bool separates = (size_t)so < len && (size_t)eo > w->prev_end;
        w->prev_end = (size_t)eo;
        w->search = next_search(str, len, so, eo);
        if (separates) {
            *from = w->piece;
            *to = (size_t)so;
            w->piece = (size_t)eo;
            w->k++;
            return true;
        }
    }
    w->done = true;
    *from = w->piece;
    *to = len;
    w->k++;
    return true;
}

/* regexp_split_to_array of str (aux 0), regexp_split_to_table's number
 * of rows (3) or its c-th row (2), into o. */
static int split_row(int aux, walk *w, attu_similar *sim, const attu_slot *a, const attu_slot *b, int64_t k,
                     const char *str, size_t len, attu_slot *o, attu_regexp_alloc alloc, void *ctx, attu_error *err) {
    size_t from, to;
    if (aux == 2) {
        if (!walk_continues(w, ATTU_OP_REGEXP_SPLIT, b, k)) {
            if (!walk_start(w, ATTU_OP_REGEXP_SPLIT, b)) return attu_error_oom(err);
            while (w->k < k - 1 && walk_next_piece(w, sim, str, len, &from, &to)) {}
        }
        if (k < 1 || w->k != k - 1 || !walk_next_piece(w, sim, str, len, &from, &to)) {
            o->null = 1;   /* past the last piece (a padded row of a lockstep) */
            return 0;
        }
        o->v.s = a->v.s + from;
        o->len = (uint32_t)(to - from);
        return 0;
    }
    walk all = { 0 };
    attu_abuf ab = { NULL, 0, 0 };
    int rc = 0;
    while (!rc && walk_next_piece(&all, sim, str, len, &from, &to))
        if (aux != 3) rc = put_text(&ab, str, (long)from, (long)to);
    if (aux == 3) { o->v.i = all.k; return 0; }
    return emit_array(&ab, rc, o, alloc, ctx, err);
}

/* One row: its result into *o (o->null preset to 0). The string is
 * matched in a NUL-terminated copy (zb: regexec's callers, sanitizers'
 * interceptors among them, may read up to the NUL); results that are
 * parts of it point into a's own bytes. */
static int run_row(int op, int aux, attu_similar *sim, const attu_slot *a, const attu_slot *b, const attu_slot *c,
                   const attu_slot *d, attu_slot *o, outbuf *ob, outbuf *zb, walk *w, attu_regexp_alloc alloc,
                   void *ctx, attu_error *err) {
    const char *fname = fname_of(op, aux);
    size_t len = a->len, from = 0;
    /* the walk goes on only over the string it was made for (zb holds the
     * last row's copy; within one batch the same bytes are the same value,
     * and the rows of one string usually share them) */
    bool same = zb->n == len + 1 && (a->v.s == w->src || !len || !memcmp(zb->s, a->v.s, len));
    w->src = a->v.s;
    if (!same) {
        w->valid = false;
        zb->n = 0;
        if (!out_put(zb, a->v.s, len) || !out_put(zb, "", 1)) return attu_error_oom(err);
    }
    const char *str = zb->s;
    int64_t start = 1, nth = 1;
    switch (op) {
    case ATTU_OP_REGEXP_REPLACE: {
        /* c the replacement, d start and N; aux 1: N given (else the g
         * flag decides), aux 2: the four-argument form with flags */
        attu_unpack_int_pair(d->v.i, &start, &nth);
        if (start <= 0) return bad_param(err, "start", start);
        if ((aux & 1) && nth < 0) return bad_param(err, "n", nth);
        const char *fl = b->v.s;
        if ((aux & 2) && b->len && *fl != '\0' && *fl >= '0' && *fl <= '9') {
            attu_error_set(err, ATTU_SQLSTATE_INVALID_PARAMETER, 0, "invalid regular expression option: \"%c\"", *fl);
            attu_error_set_hint(err, "If you meant to use regexp_replace() with a start parameter, cast the fourth "
                                     "argument to integer explicitly.");
            return -1;
        }
        bool glob;
        if (prepare(sim, b, fname, &glob, true, err)) return -1;
        /* the groups the replacement takes (\\ is a backslash) */
        sim->groups_wanted = false;
        for (size_t k = 0; k + 1 < c->len; k++) {
            if (c->v.s[k] != '\\') continue;
            char e = c->v.s[++k];
            if (e >= '1' && e <= '9' && group_ok(sim, e - '0', fname, err)) return -1;
            if (e >= '1' && e <= '9') sim->groups_wanted = true;
        }
        if (!(aux & 1)) nth = glob ? 0 : 1;
        if (!char_offset(str, len, start - 1, &from)) { *o = *a; return 0; }
        ob->n = 0;
        ob->too_long = false;
        if (!replace_row(sim, str, len, from, nth, c->v.s, c->len, ob))
            return ob->too_long ? attu_error_set(err, "54000", 0, "the result of regexp_replace() would exceed 1 GB")
                                : attu_error_oom(err);
        char *m = alloc(ctx, ob->n + 1);
        if (!m) return attu_error_oom(err);
        if (ob->n) memcpy(m, ob->s, ob->n);
        o->v.s = m; o->len = (uint32_t)ob->n;
        return 0;
    }
    case ATTU_OP_REGEXP_COUNT: {
        start = c->v.i;
        if (start <= 0) return bad_param(err, "start", start);
        if (prepare(sim, b, fname, NULL, true, err)) return -1;
        sim->groups_wanted = false;   /* the count reads only the matches */
        int64_t k = 0;
        if (char_offset(str, len, start - 1, &from))
            for (size_t search = from; search <= len && attu_regex_find(sim, str, len, search); k++)
                search = next_search(str, len, sim->span[0].so, sim->span[0].eo);
        o->v.i = k;
        return 0;
    }
    case ATTU_OP_REGEXP_INSTR: case ATTU_OP_REGEXP_SUBSTR: {
        /* c start and N; d endoption and subexpr (instr), subexpr (substr) */
        bool instr = op == ATTU_OP_REGEXP_INSTR;
        int64_t endopt = 0, sub;
        attu_unpack_int_pair(c->v.i, &start, &nth);
        if (instr) attu_unpack_int_pair(d->v.i, &endopt, &sub);
        else sub = d->v.i;
        if (start <= 0) return bad_param(err, "start", start);
        if (nth <= 0) return bad_param(err, "n", nth);
        if (instr && endopt != 0 && endopt != 1) return bad_param(err, "endoption", endopt);
        if (sub < 0) return bad_param(err, "subexpr", sub);
        if (prepare(sim, b, fname, NULL, true, err)) return -1;
        /* PostgreSQL's quirk: a pattern without groups counts its whole
         * match as subexpression 1 */
        int nsub = sim->nsub ? sim->nsub : 1;
        if (!sim->nsub && sub == 1) sub = 0;
        if (group_ok(sim, sub, fname, err)) return -1;
        sim->groups_wanted = sub > 0;
        long so = -1, eo = -1;
        if (char_offset(str, len, start - 1, &from) && sub <= nsub && nth_match(sim, str, len, from, nth)) {
            so = sim->span[sub].so;
            eo = sim->span[sub].eo;
        }
        if (instr) o->v.i = so < 0 ? 0 : attu_utf8_count(str, (size_t)(endopt ? eo : so)) + 1;
        else if (so < 0) { o->null = 1; o->v.i = 0; }
        else { o->v.s = a->v.s + so; o->len = (uint32_t)(eo - so); }
        return 0;
    }
    case ATTU_OP_REGEXP_MATCH: {
        /* regexp_match (aux 0), regexp_matches's row count (1) and its
         * c-th row (2): without g one row at most */
        bool glob = false;
        if (prepare(sim, b, fname, aux ? &glob : NULL, true, err)) return -1;
        for (int k = 1; k <= sim->nsub; k++)
            if (group_ok(sim, k, fname, err)) return -1;
        sim->groups_wanted = aux != 1;   /* the row count reads only the matches */
        if (aux == 1) {
            walk all = { 0 };
            while ((glob || all.k == 0) && walk_next_match(&all, sim, str, len)) {}
            o->v.i = all.k;
            return 0;
        }
        nth = aux == 2 ? c->v.i : 1;
        if (aux == 2 && !walk_continues(w, op, b, nth)) {
            if (!walk_start(w, op, b)) return attu_error_oom(err);
            while (w->k < nth - 1 && walk_next_match(w, sim, str, len)) {}
        }
        walk one = { 0 };
        walk *at = aux == 2 ? w : &one;
        if (nth < 1 || at->k != nth - 1 || !walk_next_match(at, sim, str, len)) {
            o->null = 1;   /* no match; past the last (a padded row of a lockstep) */
            o->v.i = 0;
            return 0;
        }
        return match_array(sim, str, o, alloc, ctx, err);
    }
    case ATTU_OP_REGEXP_SPLIT:
        if (prepare(sim, b, fname, NULL, true, err)) return -1;
        sim->groups_wanted = false;   /* the pieces between the matches */
        return split_row(aux, w, sim, a, b, aux == 2 ? c->v.i : 0, str, len, o, alloc, ctx, err);
    case ATTU_OP_REGEXP_LIKE:
        if (prepare(sim, b, fname, NULL, false, err)) return -1;
        o->v.i = attu_similar_match(sim, str, len);
        return 0;
    default: {
        /* substring(s FROM pattern): the first capturing group's text when
         * the pattern has one (NULL where the match left it out), else
         * the match's */
        if (prepare(sim, b, fname, NULL, true, err)) return -1;
        int k = sim->nsub > 0;
        if (group_ok(sim, k, fname, err)) return -1;
        sim->groups_wanted = k > 0;
        if (!attu_regex_find(sim, str, len, 0) || sim->span[k].so < 0) { o->null = 1; o->v.i = 0; return 0; }
        o->v.s = a->v.s + sim->span[k].so; o->len = (uint32_t)(sim->span[k].eo - sim->span[k].so);
        return 0;
    }
    }
}

/* ---- substring(s SIMILAR pattern ESCAPE e) ---------------------------------
 *
 * SQL's form: the whole of s must match the SIMILAR TO pattern. Escape-
 * double-quotes (e") may cut the pattern in up to three parts; PostgreSQL
 * then matches ^(?:part1){1,1}?(part2){1,1}(?:part3)$: the first part as
 * short as the match allows, the second as long as the rest allows, and
 * returns the second's text. attu finds the same cuts with each part (and
 * the second and third together) compiled on its own. */

typedef struct similar_parts {
    attu_similar whole, p1, p23, p2, p3;
} similar_parts;

/* Where the escape-double-quote separators of p (escape e, not inside a
 * [...] class) lie: up to two, [start, end) each in cut. Returns how many,
 * -1 (2200C, as PostgreSQL) past two. */
static int find_separators(const char *p, size_t n, char e, size_t cut[2][2], attu_error *err) {
    int k = 0;
    bool in_class = false;
    size_t class_at = 0;
    for (size_t i = 0; i < n; i++) {
        if (p[i] == e && i + 1 < n) {
            if (p[i + 1] == '"' && !in_class) {
                if (k == 2)
                    return attu_error_set(err, "2200C", 0,
                                          "SQL regular expression may not contain more than two escape-double-quote separators");
                cut[k][0] = i;
                cut[k][1] = i + 2;
                k++;
            }
            i++;
        } else if (!in_class && p[i] == '[') {
            in_class = true;
            class_at = i;
        } else if (in_class && p[i] == ']' && i > class_at + 1 && !(i == class_at + 2 && p[class_at + 1] == '^')) {
            in_class = false;
        }
    }
    return k;
}

static bool sim_match(const attu_similar *m, const char *s, size_t from, size_t to) {
    return attu_similar_match(m, s + from, to - from);
}

/* One row of substring(a SIMILAR b ESCAPE c) into *o. */
static int similar_substring_row(similar_parts *sp, const attu_slot *a, const attu_slot *b, const attu_slot *c,
                                 attu_slot *o, outbuf *scratch, attu_error *err) {
    const char *p = b->v.s, *e = c->v.s, *s = a->v.s;
    size_t pn = b->len, en = c->len, len = a->len;
    /* the escape's own checks (22025, 0A000) come from the whole pattern */
    size_t cut[2][2];
    int k = en == 1 ? find_separators(p, pn, e[0], cut, err) : 0;
    if (k < 0) return -1;
    if (k == 0) {
        if (attu_similar_prepare(&sp->whole, p, pn, e, en, true, err)) return -1;
        if (attu_similar_match(&sp->whole, s, len)) { o->v.s = s; o->len = a->len; }
        else { o->null = 1; o->v.i = 0; }
        return 0;
    }
    size_t a2 = cut[0][1], z2 = k == 2 ? cut[1][0] : pn, a3 = k == 2 ? cut[1][1] : pn;
    /* the second and third parts together, each in parentheses as
     * PostgreSQL keeps them apart */
    scratch->n = 0;
    if (!out_put(scratch, "(", 1) || !out_put(scratch, p + a2, z2 - a2) || !out_put(scratch, ")(", 2) ||
        !out_put(scratch, p + a3, pn - a3) || !out_put(scratch, ")", 1))
        return attu_error_oom(err);
    if (attu_similar_prepare(&sp->p1, p, cut[0][0], e, en, true, err) ||
        attu_similar_prepare(&sp->p2, p + a2, z2 - a2, e, en, true, err) ||
        attu_similar_prepare(&sp->p3, p + a3, pn - a3, e, en, true, err) ||
        attu_similar_prepare(&sp->p23, scratch->s, scratch->n, e, en, true, err))
        return -1;
    /* the shortest first part after which the rest matches, then the
     * longest second part after which the third matches (character
     * boundaries only) */
    for (size_t i = 0; i <= len; i++) {
        if (i < len && ((unsigned char)s[i] & 0xC0) == 0x80) continue;
        if (!sim_match(&sp->p1, s, 0, i) || !sim_match(&sp->p23, s, i, len)) continue;
        for (size_t j = len + 1; j-- > i;) {
            if (j < len && ((unsigned char)s[j] & 0xC0) == 0x80) continue;
            if (sim_match(&sp->p2, s, i, j) && sim_match(&sp->p3, s, j, len)) {
                o->v.s = s + i;
                o->len = (uint32_t)(j - i);
                return 0;
            }
        }
        break;
    }
    o->null = 1;
    o->v.i = 0;
    return 0;
}

static int run_similar_substring(const attu_slot *A, const attu_slot *B, const attu_slot *C, const attu_slot *G,
                                 attu_slot *D, size_t n, attu_error *err) {
    similar_parts sp;
    memset(&sp, 0, sizeof sp);
    outbuf scratch = { NULL, 0, 0, false };
    int rc = 0;
    for (size_t r = 0; r < n && !rc; r++) {
        attu_slot *o = &D[r];
        o->len = 0;
        o->v.i = 0;
        o->null = (G && (G[r].null || !G[r].v.i)) || A[r].null || B[r].null || C[r].null;
        if (!o->null) rc = similar_substring_row(&sp, &A[r], &B[r], &C[r], o, &scratch, err);
    }
    attu_similar_free(&sp.whole); attu_similar_free(&sp.p1); attu_similar_free(&sp.p23);
    attu_similar_free(&sp.p2); attu_similar_free(&sp.p3);
    free(scratch.s);
    return rc;
}

int attu_regexp_run(int op, int aux, const attu_slot *A, const attu_slot *B, const attu_slot *C, const attu_slot *Dd,
                    const attu_slot *G, attu_slot *D, size_t n, attu_regexp_alloc alloc, void *ctx, attu_error *err) {
    if (op == ATTU_OP_SIMILAR_SUBSTRING) return run_similar_substring(A, B, C, G, D, n, err);
    attu_similar sim;
    memset(&sim, 0, sizeof sim);
    outbuf ob = { NULL, 0, 0, false }, zb = { NULL, 0, 0, false };
    walk w = { 0 };
    int rc = 0;
    for (size_t r = 0; r < n && !rc; r++) {
        attu_slot *o = &D[r];
        o->len = 0;
        o->v.i = 0;
        if ((G && (G[r].null || !G[r].v.i)) || A[r].null || B[r].null || (C && C[r].null) || (Dd && Dd[r].null)) {
            o->null = 1;
            continue;
        }
        o->null = 0;
        rc = run_row(op, aux, &sim, &A[r], &B[r], C ? &C[r] : NULL, Dd ? &Dd[r] : NULL, o, &ob, &zb, &w, alloc, ctx,
                     err);
    }
    attu_similar_free(&sim);
    free(w.pat);
    free(ob.s);
    free(zb.s);
    return rc;
}
