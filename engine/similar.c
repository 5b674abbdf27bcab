/*
 * similar.c - SIMILAR TO (see similar.h), translated to a POSIX extended
 * regular expression as PostgreSQL's similar_escape translates it to its
 * own regex dialect (ARE), checked by ARE's rules.
 *
 * attud runs in the C locale, so the regex engine sees bytes. Everything
 * that stands for one character is therefore spelled out over the bytes
 * of one UTF-8 character: _ (any character), a [...] class (parsed here
 * into a set of code points: members, ranges, [:name:] classes, escapes,
 * negation, and written as a bracket of its ASCII members or alternations
 * of UTF-8 byte ranges), the escapes \d \s \w \D \S \W, and a
 * multi-byte character a quantifier may follow (grouped). % is any bytes.
 * [:name:] classes and \w hold ASCII characters only (attu's C locale;
 * PostgreSQL's follow the server's LC_CTYPE).
 *
 * ARE's errors that POSIX EREs do not raise are raised here with
 * PostgreSQL's words (2201B): a quantifier with nothing to repeat (`*a`,
 * `a**`, `a{1}{2}`; ARE's non-greedy `?` after a quantifier is allowed
 * and matches the same strings), unbalanced parentheses, a bad {m,n}
 * (a { not followed by a digit is literal), a bad class or range, an
 * escaped letter ARE does not know.
 *
 * The ~ operators and the regexp_* functions read an ARE the same way,
 * with its flags (n p w x q i...), directors and embedded options. glibc
 * then finds PostgreSQL's matches, but reports a group's extent by its own
 * rule (the first way through the expression, alternatives in order)
 * where ARE takes the longest for each group in turn, and the longest
 * match where a non-greedy ARE takes the shortest. The translation
 * therefore also learns (tr_info): where each capturing group went among
 * the groups the translation adds; which groups' extents the two rules
 * agree on (alternatives of fixed widths are reordered widest first so
 * that they do); ARE's greediness of the whole pattern; anchors inside
 * quantified groups, where glibc's matcher errs; and how large glibc's
 * expansion of the pattern will be. What could differ is refused (0A000)
 * rather than answered otherwise; see the users in regexp_functions.c.
 */
#include "engine/similar.h"
#include "engine/utf8.h"

#include <ctype.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* One UTF-8 character (PostgreSQL's server encoding): ASCII, or a lead
 * byte and its continuation bytes. */
#define UTF8_CHAR "([\x01-\x7f]|[\xc2-\xdf][\x80-\xbf]|[\xe0-\xef][\x80-\xbf][\x80-\xbf]|[\xf0-\xf4][\x80-\xbf][\x80-\xbf][\x80-\xbf])"
/* The same without the newline (. under the n and p flags). */
#define UTF8_CHAR_NONL "([\x01-\x09\x0b-\x7f]|[\xc2-\xdf][\x80-\xbf]|[\xe0-\xef][\x80-\xbf][\x80-\xbf]|[\xf0-\xf4][\x80-\xbf][\x80-\xbf][\x80-\xbf])"

#define CP_MAX 0x10ffffu

/* The translated expression, and how many groups ( it has opened so far:
 * the translation groups multi-byte characters and classes itself, so a
 * capturing group of the pattern becomes a group of another number. */
typedef struct sbuf {
    char  *s;
    size_t n, cap;
    int    groups;
} sbuf;

static bool put(sbuf *b, const char *t, size_t n) {
    if (b->n + n + 1 > b->cap) {
        size_t cap = (b->cap ? b->cap * 2 : 64) + n;
        char *s = realloc(b->s, cap);
        if (!s) return false;
        b->s = s;
        b->cap = cap;
    }
    memcpy(b->s + b->n, t, n);
    b->n += n;
    b->s[b->n] = '\0';
    return true;
}
static bool putc_(sbuf *b, char c) { return put(b, &c, 1); }
static bool puts__(sbuf *b, const char *t) { return put(b, t, strlen(t)); }

static int bad_re(attu_error *err, const char *what) {
    return attu_error_set(err, "2201B", 0, "invalid regular expression: %s", what);
}

/* The code point of the UTF-8 character at p (n bytes left) and its
 * length; a byte that starts no valid sequence stands for itself. */
static size_t utf8_decode(const char *p, size_t n, uint32_t *cp) {
    const unsigned char *u = (const unsigned char *)p;
    size_t len = u[0] < 0x80 ? 1 : u[0] >= 0xf0 ? 4 : u[0] >= 0xe0 ? 3 : u[0] >= 0xc2 ? 2 : 1;
    if (len > n) len = 1;
    for (size_t k = 1; k < len; k++) if ((u[k] & 0xc0) != 0x80) len = 1;
    if (len == 1) { *cp = u[0]; return 1; }
    uint32_t v = u[0] & (0x7f >> len);
    for (size_t k = 1; k < len; k++) v = (v << 6) | (u[k] & 0x3f);
    *cp = v;
    return len;
}

/* ---- sets of code points (one [...] class, or \d \s \w and their negations) */

typedef struct cpset {
    uint32_t (*iv)[2];    /* intervals [lo, hi]; sorted and merged by cp_normalize */
    size_t n, cap;
} cpset;

static bool cp_add(cpset *s, uint32_t lo, uint32_t hi) {
    if (s->n == s->cap) {
        size_t cap = s->cap ? s->cap * 2 : 16;
        void *iv = realloc(s->iv, cap * sizeof *s->iv);
        if (!iv) return false;
        s->iv = iv;
        s->cap = cap;
    }
    s->iv[s->n][0] = lo; s->iv[s->n][1] = hi; s->n++;
    return true;
}

static int cp_cmp(const void *a, const void *b) {
    uint32_t x = ((const uint32_t *)a)[0], y = ((const uint32_t *)b)[0];
    return x < y ? -1 : x > y;
}

static void cp_normalize(cpset *s) {
    if (!s->n) return;
    qsort(s->iv, s->n, sizeof *s->iv, cp_cmp);
    size_t w = 0;
    for (size_t r = 1; r < s->n; r++) {
        if (s->iv[r][0] <= s->iv[w][1] + 1) { if (s->iv[r][1] > s->iv[w][1]) s->iv[w][1] = s->iv[r][1]; }
        else { w++; s->iv[w][0] = s->iv[r][0]; s->iv[w][1] = s->iv[r][1]; }
    }
    s->n = w + 1;
}

/* The characters of [1, CP_MAX] not in s (s normalized). */
static bool cp_complement(cpset *s) {
    cpset c = { NULL, 0, 0 };
    uint32_t next = 1;
    bool ok = true;
    for (size_t i = 0; i < s->n && ok; i++) {
        if (s->iv[i][0] > next) ok = cp_add(&c, next, s->iv[i][0] - 1);
        if (s->iv[i][1] + 1 > next) next = s->iv[i][1] + 1;
    }
    if (ok && next <= CP_MAX) ok = cp_add(&c, next, CP_MAX);
    free(s->iv);
    *s = c;
    return ok;
}

/* s (normalized) without the character c. */
static bool cp_remove(cpset *s, uint32_t c) {
    for (size_t k = 0; k < s->n; k++) {
        uint32_t lo = s->iv[k][0], hi = s->iv[k][1];
        if (c < lo || c > hi) continue;
        if (lo == hi) { memmove(s->iv + k, s->iv + k + 1, (s->n - k - 1) * sizeof *s->iv); s->n--; }
        else if (c == lo) s->iv[k][0]++;
        else if (c == hi) s->iv[k][1]--;
        else {
            s->iv[k][1] = c - 1;
            if (!cp_add(s, c + 1, hi)) return false;
            cp_normalize(s);
        }
        return true;
    }
    return true;
}

/* The ASCII characters of a [:name:] class (the C locale's); -1 for a
 * name that is none. */
static int add_named_class(cpset *s, const char *name, size_t len) {
    static const char *names[] = { "alnum", "alpha", "blank", "cntrl", "digit", "graph",
                                   "lower", "print", "punct", "space", "upper", "xdigit" };
    int k = -1;
    for (int i = 0; i < 12; i++) if (strlen(names[i]) == len && !memcmp(names[i], name, len)) k = i;
    if (k < 0) return -1;
    for (int c = 1; c < 128; c++) {
        int in;
        switch (k) {
        case 0: in = isalnum(c); break;   case 1: in = isalpha(c); break;
        case 2: in = c == ' ' || c == '\t'; break; case 3: in = iscntrl(c); break;
        case 4: in = isdigit(c); break;   case 5: in = isgraph(c); break;
        case 6: in = islower(c); break;   case 7: in = isprint(c); break;
        case 8: in = ispunct(c); break;   case 9: in = isspace(c); break;
        case 10: in = isupper(c); break;  default: in = isxdigit(c); break;
        }
        if (in && !cp_add(s, (uint32_t)c, (uint32_t)c)) return -2;
    }
    return 0;
}

/* ARE's class-shorthand escapes \d \s \w (\D \S \W: their complements). */
static bool shorthand_set(char c, cpset *s) {
    char l = (char)tolower((unsigned char)c);
    const char *name = l == 'd' ? "digit" : l == 's' ? "space" : "alnum";
    int r = add_named_class(s, name, strlen(name));
    if (r == -2 || (l == 'w' && !cp_add(s, '_', '_'))) return false;
    cp_normalize(s);
    return c == l || cp_complement(s);
}

static bool is_shorthand(char c) { return c && strchr("dDsSwW", c) != NULL; }

/* ARE's character-entry escapes that are one plain character. */
static bool entry_escape(char c, uint32_t *cp) {
    switch (c) {
    case 'a': *cp = 7; return true;    case 'b': *cp = 8; return true;
    case 'B': *cp = '\\'; return true; case 'e': *cp = 27; return true;
    case 'f': *cp = 12; return true;   case 'n': *cp = 10; return true;
    case 'r': *cp = 13; return true;   case 't': *cp = 9; return true;
    case 'v': *cp = 11; return true;
    default: return false;
    }
}

/* The escaped character at p[*i] (after the escape character) as one code
 * point (*cp), a shorthand class (returns 1, set filled), or an error: an
 * ASCII letter or digit ARE reads as an escape attu does not implement
 * (back references, \x, \u, constraints: 0A000) or none at all (2201B). */
/* ARE's character-entry escapes by code at p[*i] (the letter): \xhhh
 * (any number of hex digits), \uwxyz (four), \Ustuvwxyz (eight), \cX
 * (X's low five bits), \0 and up to two more octal digits. A code of 0
 * (no text holds a NUL) or past U+10FFFF matches nothing: an empty set
 * (returns 1); else *cp (returns 0). */
static int entry_code(const char *p, size_t plen, size_t *i, uint32_t *cp, attu_error *err) {
    char c = p[(*i)++];
    uint64_t v = 0;
    if (c == 'c') {
        if (*i >= plen) return bad_re(err, "invalid escape \\ sequence");
        v = (unsigned char)p[(*i)++] & 037u;
    } else if (c == '0') {
        for (int n = 1; n < 3 && *i < plen && p[*i] >= '0' && p[*i] <= '7'; n++) v = v * 8 + (uint64_t)(p[(*i)++] - '0');
    } else {
        int want = c == 'u' ? 4 : c == 'U' ? 8 : -1, n = 0;
        for (; *i < plen && isxdigit((unsigned char)p[*i]) && (want < 0 || n < want); n++, (*i)++) {
            char h = p[*i];
            v = v * 16 + (uint64_t)(isdigit((unsigned char)h) ? h - '0' : tolower((unsigned char)h) - 'a' + 10);
            if (v > CP_MAX) v = CP_MAX + 1;   /* past every character: no overflow */
        }
        if (n == 0 || (want > 0 && n != want)) return bad_re(err, "invalid escape \\ sequence");
    }
    if (v == 0 || v > CP_MAX) return 1;
    *cp = (uint32_t)v;
    return 0;
}

static int escaped_char(const char *p, size_t plen, size_t *i, uint32_t *cp, cpset *set, bool regex, attu_error *err) {
    char c = p[*i];
    if (is_shorthand(c)) {
        (*i)++;
        return shorthand_set(c, set) ? 1 : attu_error_oom(err);
    }
    if (entry_escape(c, cp)) { (*i)++; return 0; }
    if (c && strchr("xuUc0", c)) return entry_code(p, plen, i, cp, err);
    if (isalnum((unsigned char)c)) {
        /* back references are not translated; the constraint escapes
         * come here only inside a class, where they are invalid */
        if (strchr("123456789", c))
            return attu_error_set(err, ATTU_SQLSTATE_FEATURE_NOT_SUPPORTED, 0,
                                  "the %s escape \\%c is not supported", regex ? "regular expression" : "SIMILAR TO", c);
        return bad_re(err, "invalid escape \\ sequence");
    }
    *i += utf8_decode(p + *i, plen - *i, cp);
    return 0;
}

/* Whether n (len bytes) is one of the space-separated words of list. */
static bool name_in_list(const char *list, const char *n, size_t len) {
    for (const char *w = list; *w;) {
        size_t wl = strcspn(w, " ");
        if (wl == len && !memcmp(w, n, len)) return true;
        w += wl;
        while (*w == ' ') w++;
    }
    return false;
}

/* The code of a collating element named in [.name.] (ARE, as POSIX
 * names the portable characters: [[.hyphen.]] is '-'), 0 for no such name.
 * NUL's own name is left out: a pattern holds no NUL. */
static uint32_t collating_name(const char *n, size_t len) {
    static const char *const ctl[] = {   /* codes 1..31, some by two names */
        "SOH", "STX", "ETX", "EOT", "ENQ", "ACK", "BEL alert", "BS backspace", "HT tab", "LF newline",
        "VT vertical-tab", "FF form-feed", "CR carriage-return", "SO", "SI", "DLE", "DC1", "DC2", "DC3", "DC4",
        "NAK", "SYN", "ETB", "CAN", "EM", "SUB", "ESC", "IS4 FS", "IS3 GS", "IS2 RS", "IS1 US",
    };
    static const struct { const char *names; char c; } pr[] = {
        { "space", ' ' }, { "exclamation-mark", '!' }, { "quotation-mark", '"' }, { "number-sign", '#' },
        { "dollar-sign", '$' }, { "percent-sign", '%' }, { "ampersand", '&' }, { "apostrophe", '\'' },
        { "left-parenthesis", '(' }, { "right-parenthesis", ')' }, { "asterisk", '*' }, { "plus-sign", '+' },
        { "comma", ',' }, { "hyphen hyphen-minus", '-' }, { "period full-stop", '.' }, { "slash solidus", '/' },
        { "zero", '0' }, { "one", '1' }, { "two", '2' }, { "three", '3' }, { "four", '4' }, { "five", '5' },
        { "six", '6' }, { "seven", '7' }, { "eight", '8' }, { "nine", '9' }, { "colon", ':' }, { "semicolon", ';' },
        { "less-than-sign", '<' }, { "equals-sign", '=' }, { "greater-than-sign", '>' }, { "question-mark", '?' },
        { "commercial-at", '@' }, { "left-square-bracket", '[' }, { "backslash reverse-solidus", '\\' },
        { "right-square-bracket", ']' }, { "circumflex circumflex-accent", '^' }, { "underscore low-line", '_' },
        { "grave-accent", '`' }, { "left-brace left-curly-bracket", '{' }, { "vertical-line", '|' },
        { "right-brace right-curly-bracket", '}' }, { "tilde", '~' }, { "DEL", 127 },
    };
    for (size_t k = 0; k < sizeof ctl / sizeof ctl[0]; k++)
        if (name_in_list(ctl[k], n, len)) return (uint32_t)k + 1;
    for (size_t k = 0; k < sizeof pr / sizeof pr[0]; k++)
        if (name_in_list(pr[k].names, n, len)) return (uint32_t)(unsigned char)pr[k].c;
    return 0;
}

/* One member of a class at p[*i]: a character (*cp, returns 0) or a set
 * added to s ([:name:], \d ...: returns 1). */
static int class_elem(const char *p, size_t plen, size_t *i, int esc, uint32_t *cp, cpset *s, bool regex, attu_error *err) {
    unsigned char c = (unsigned char)p[*i];
    if (esc >= 0 && c == (unsigned)esc) {
        if (++*i >= plen) return bad_re(err, "brackets [] not balanced");
        cpset t = { NULL, 0, 0 };
        int r = escaped_char(p, plen, i, cp, &t, regex, err);
        if (r == 1) for (size_t k = 0; k < t.n && r == 1; k++) if (!cp_add(s, t.iv[k][0], t.iv[k][1])) r = attu_error_oom(err);
        free(t.iv);
        return r;
    }
    if (c == '[' && *i + 1 < plen && (p[*i + 1] == ':' || p[*i + 1] == '.' || p[*i + 1] == '=')) {
        char kind = p[*i + 1];
        size_t a = *i + 2, z = a;
        while (z + 1 < plen && !(p[z] == kind && p[z + 1] == ']')) z++;
        if (z + 1 >= plen) return bad_re(err, "brackets [] not balanced");
        *i = z + 2;
        if (kind == ':') {
            int r = add_named_class(s, p + a, z - a);
            return r == -1 ? bad_re(err, "invalid character class") : r == -2 ? attu_error_oom(err) : 1;
        }
        /* [.c.] and [=c=]: one character (no multi-character collating
         * elements in the C locale), or [.name.] by its POSIX name */
        if (z > a && utf8_decode(p + a, z - a, cp) == z - a) return 0;
        if (kind == '.' && (*cp = collating_name(p + a, z - a)) != 0) return 0;
        return bad_re(err, "invalid collating element");
    }
    *i += utf8_decode(p + *i, plen - *i, cp);
    return 0;
}

/* Parses the class whose [ is at p[*i - 1] into s (normalized, negation
 * applied); *i ends past its ]. */
static int parse_class(const char *p, size_t plen, size_t *i, int esc, cpset *s, bool regex, bool nlstop, bool icase,
                       attu_error *err) {
    bool neg = *i < plen && p[*i] == '^';
    if (neg) (*i)++;
    for (bool first = true;; first = false) {
        if (*i >= plen) return bad_re(err, "brackets [] not balanced");
        if (p[*i] == ']' && !first) { (*i)++; break; }
        uint32_t lo = 0, hi;
        int r = class_elem(p, plen, i, esc, &lo, s, regex, err);
        if (r < 0) return -1;
        if (r == 0 && *i + 1 < plen && p[*i] == '-' && p[*i + 1] != ']') {
            (*i)++;
            if ((r = class_elem(p, plen, i, esc, &hi, s, regex, err)) < 0) return -1;
            if (r == 1 || hi < lo) return bad_re(err, "invalid character range");
            if (*i + 1 < plen && p[*i] == '-' && p[*i + 1] != ']') return bad_re(err, "invalid character range");
            if (!cp_add(s, lo, hi)) return attu_error_oom(err);
        } else if (r == 0 && lo && !cp_add(s, lo, lo)) return attu_error_oom(err);
    }
    cp_normalize(s);
    if (neg && icase) {
        /* case-insensitive: [^a] matches neither a nor A (the matcher
         * folds the case of what it compares, so the complement must hold
         * neither) */
        size_t n0 = s->n;
        for (size_t k = 0; k < n0; k++)
            for (uint32_t c = s->iv[k][0]; c <= s->iv[k][1] && c < 128; c++)
                if (isalpha((int)c) && !cp_add(s, (uint32_t)(c ^ 0x20), (uint32_t)(c ^ 0x20))) return attu_error_oom(err);
        cp_normalize(s);
    }
    if (neg && !cp_complement(s)) return attu_error_oom(err);
    /* newline-sensitive matching: a negated class never matches a newline
     * (\D, \S, \W still do, as in PostgreSQL) */
    if (neg && nlstop && !cp_remove(s, '\n')) return attu_error_oom(err);
    return 0;
}

/* The UTF-8 encodings of [lo, hi] (lo >= 0x80) as alternatives of byte
 * sequences, each position a byte or a byte range (the splitting of Go's
 * regexp/syntax utf8 ranges). */
static bool emit_utf8(sbuf *b, uint32_t lo, uint32_t hi, bool *any) {
    if (lo > hi) return true;
    if (lo <= 0x7ff && hi > 0x7ff) return emit_utf8(b, lo, 0x7ff, any) && emit_utf8(b, 0x800, hi, any);
    if (lo <= 0xffff && hi > 0xffff) return emit_utf8(b, lo, 0xffff, any) && emit_utf8(b, 0x10000, hi, any);
    int n = lo <= 0x7ff ? 2 : lo <= 0xffff ? 3 : 4;
    for (int k = 1; k < n; k++) {
        uint32_t m = (1u << (6 * k)) - 1;
        if ((lo & ~m) != (hi & ~m)) {
            if ((lo & m) != 0) return emit_utf8(b, lo, lo | m, any) && emit_utf8(b, (lo | m) + 1, hi, any);
            if ((hi & m) != m) return emit_utf8(b, lo, (hi & ~m) - 1, any) && emit_utf8(b, hi & ~m, hi, any);
        }
    }
    unsigned char a[4], z[4];
    attu_utf8_encode(lo, a);
    attu_utf8_encode(hi, z);
    bool ok = !*any || putc_(b, '|');
    *any = true;
    for (int j = 0; j < n && ok; j++) {
        if (a[j] == z[j]) ok = putc_(b, (char)a[j]);
        else ok = putc_(b, '[') && putc_(b, (char)a[j]) && putc_(b, '-') && putc_(b, (char)z[j]) && putc_(b, ']');
    }
    return ok;
}

/* A set as one regex atom matching one character of it: a bracket of its
 * ASCII members (] first, ^ not first, - last) and the byte sequences of
 * the others, in a group. */
static bool emit_set(sbuf *b, const cpset *s) {
    bool ascii[128] = { false };
    for (size_t k = 0; k < s->n; k++)
        for (uint32_t c = s->iv[k][0]; c <= s->iv[k][1] && c < 128; c++) ascii[c] = true;
    ascii[0] = false;
    bool ok = putc_(b, '('), any = false;
    b->groups++;
    int others = 0;
    for (int c = 1; c < 128; c++) if (ascii[c] && c != ']' && c != '^' && c != '-') others++;
    if (ascii[']'] || others || ascii['-']) {
        ok = ok && putc_(b, '[');
        if (ascii[']']) ok = ok && putc_(b, ']');
        for (int c = 1; c < 128 && ok; c++) {
            if (!ascii[c] || c == ']' || c == '^' || c == '-') continue;
            int e = c;
            while (e + 1 < 128 && ascii[e + 1] && e + 1 != ']' && e + 1 != '^' && e + 1 != '-') e++;
            if (e - c >= 2 && isalnum(c) && isalnum(e)) { ok = putc_(b, (char)c) && putc_(b, '-') && putc_(b, (char)e); c = e; }
            else ok = putc_(b, (char)c);
        }
        /* ^ may not come first; a class of ^ and - is [-^] */
        if (ascii['^'] && (ascii[']'] || others)) { ok = ok && putc_(b, '^'); ascii['^'] = false; }
        if (ascii['-']) ok = ok && putc_(b, '-');
        if (ascii['^'] && !ascii[']'] && !others) { ok = ok && putc_(b, '^'); ascii['^'] = false; }
        ok = ok && putc_(b, ']');
        any = true;
    }
    if (ascii['^']) { ok = ok && puts__(b, any ? "|\\^" : "\\^"); any = true; }
    for (size_t k = 0; k < s->n && ok; k++) {
        uint32_t lo = s->iv[k][0] < 0x80 ? 0x80 : s->iv[k][0];
        if (s->iv[k][1] >= lo) ok = emit_utf8(b, lo, s->iv[k][1], &any);
    }
    if (!any) ok = ok && puts__(b, "[^\x01-\xff]");   /* an empty set matches nothing */
    return ok && putc_(b, ')');
}

/* One literal character c (code point) as a regex atom: ERE's special
 * characters escaped, a multi-byte character grouped so a quantifier takes it whole. */
static bool emit_char(sbuf *b, uint32_t c) {
    if (c < 0x80) {
        /* only the ERE's special characters are escaped: glibc reads \<
         * \> \` \' as word and buffer anchors, not as the character */
        if (!c || !strchr(".[]()*+?{}|^$\\", (int)c)) return putc_(b, (char)c);
        return putc_(b, '\\') && putc_(b, (char)c);
    }
    unsigned char o[4];
    size_t n = attu_utf8_encode(c, o);
    b->groups++;
    return putc_(b, '(') && put(b, (const char *)o, n) && putc_(b, ')');
}

/* A bound {m}, {m,}, {m,n} at p[*i] (the {): ARE's limits (255); *max
 * its upper bound (LONG_MAX for none). */
static int parse_bound(const char *p, size_t plen, size_t *i, sbuf *b, long *min, long *max, attu_error *err) {
    size_t k = *i + 1;
    long m = 0, n = -1;
    while (k < plen && isdigit((unsigned char)p[k])) { m = m * 10 + (p[k] - '0'); if (m > 1000) m = 1000; k++; }
    if (k < plen && p[k] == ',') {
        k++;
        if (k < plen && isdigit((unsigned char)p[k])) {
            n = 0;
            while (k < plen && isdigit((unsigned char)p[k])) { n = n * 10 + (p[k] - '0'); if (n > 1000) n = 1000; k++; }
        } else n = -2;   /* {m,}: no upper bound */
    } else n = m;
    if (k >= plen || p[k] != '}' || m > 255 || n > 255 || (n >= 0 && n < m))
        return bad_re(err, "invalid repetition count(s)");
    char t[32];
    int l = n == -2 ? snprintf(t, sizeof t, "{%ld,}", m) : snprintf(t, sizeof t, "{%ld,%ld}", m, n);
    *max = n == -2 ? LONG_MAX : n;
    *min = m;
    *i = k;
    return put(b, t, (size_t)l) ? 0 : attu_error_oom(err);
}

/* An open group of the pattern, while translating: the first capturing
 * group inside it (its own, when it captures), whether it holds an anchor,
 * and whether its iterations can split a repeated run more than one way
 * (it holds a quantifier, an alternation or a group). */
typedef struct open_group {
    int  cap_from;
    bool captures, anchor, complex;
    /* its alternatives while each is a run of one-character atoms (plain):
     * a byte per atom, NUL between them, the current one from cur on */
    bool  plain, has_alt;
    sbuf  alts;
    size_t cur;
    /* ARE's greediness of its content: that of the first atom with one
     * (0 none yet, 1 greedy, 2 non-greedy); with alternatives, greedy */
    int   attr;
    size_t tr_start;   /* where its content starts in the translation */
    double w, eps;     /* its size as glibc expands it (see cost_atom) */
    bool  unit1;       /* (once closed) it always matches one character */
    bool  var_seen;    /* a part of its content so far matches varying lengths */
    bool  var_before;  /* the same of the level it opened in, when it opened */
    /* What may send glibc's group resolution into an endless loop (see
     * nullable_quantified): whether the current alternative matches the
     * empty string so far, and did before its last atom; whether a
     * finished one does; its own alternatives that do; those of its
     * alternations and of the groups in it; whether an alternation in it
     * has one that does; whether it holds an unbounded repetition of a
     * group that does; (once closed) whether it matches empty. */
    bool  cur_null, prev_null, any_null;
    int   own_null, null_alts;
    bool  null_alt_in, null_rep_in, nullable;
} open_group;

/* What the translation learns of an ARE's groups. */
typedef struct tr_info {
    int  *cap;        /* the translated group of each capturing group */
    bool *rep;        /* whether it lies under a repeating quantifier */
    int   ncap, room;
    bool  nongreedy;  /* a quantifier marked non-greedy (*? +? ?? {m,n}?) */
    bool  anchor_quant; /* ^ or $ inside a quantified group */
    bool  risk_after; /* captures opened from now on have unreliable extents */
    open_group *open; /* the groups open now */
    int   nopen, open_room;
    open_group last;  /* the group closed last, while it is the last atom */
    bool  last_is_group;
    /* ARE's greediness of the whole expression (docs 9.7.3.5): the
     * top level's first attribute and alternation, and what the last
     * quantifier did to a level's first attribute, for a ? after it */
    int   top_attr;
    bool  top_alt, group_set_first, quant_set_first, quant_fixed;
    bool  has_dollar;
    /* the expanded size: the top level's, and the last atom's */
    double top_w, top_eps, last_w, last_eps;
    bool  top_var;    /* var_seen of the top level */
    bool  glibc_loop; /* a repetition glibc's group resolution may never end on */
    bool  word_constraint; /* \m \M \y \Y (or [[:<:]] [[:>:]]) somewhere */
} tr_info;

/* glibc's matcher expands {m,n} into copies and computes, for each
 * optional part (? * {0,n} and every alternative), what it can skip to:
 * memory quadratic in the optional parts ('a?' 20,000 times: 3 GB) and
 * its parser recursing once a group ('(' 20,000 deep overflows 8 MB of
 * stack). PostgreSQL refuses such patterns as too complex; so does attu,
 * past these bounds (2201B), before glibc sees them. */
#define TR_MAX_EPS   3000.0    /* optional parts and alternatives, expanded */
#define TR_MAX_NODES 200000.0  /* atoms, expanded */
#define TR_MAX_DEPTH 1000      /* groups one inside another */

/* An atom of size w (eps optional parts in it) joins the level open now. */
static void cost_atom(tr_info *ti, double w, double eps) {
    if (ti->nopen) { ti->open[ti->nopen - 1].w += w; ti->open[ti->nopen - 1].eps += eps; }
    else { ti->top_w += w; ti->top_eps += eps; }
    ti->last_w = w;
    ti->last_eps = eps;
}

/* The last atom is repeated {min, max} (max < 0: no bound): glibc's
 * copies of it, and the optional ones among them. */
static void cost_quantified(tr_info *ti, long min, long max) {
    double copies = max < 0 ? (min > 1 ? min : 1) : max, optional = max < 0 ? 1 : max - min;
    double w = ti->last_w * (copies - 1) + 1, eps = ti->last_eps * (copies - 1) + (optional > 0 ? optional : 0);
    if (ti->nopen) { ti->open[ti->nopen - 1].w += w; ti->open[ti->nopen - 1].eps += eps; }
    else { ti->top_w += w; ti->top_eps += eps; }
}

/* The first-attribute slot of the level open now. */
static int *level_attr(tr_info *ti) { return ti->nopen ? &ti->open[ti->nopen - 1].attr : &ti->top_attr; }

/* A quantifier (fixed: {m}) applies to the last atom: the quantified atom
 * is greedy, or has the atom's own greediness when fixed; it may be the
 * level's first atom with one. */
static void greed_quantified(tr_info *ti, bool after_group, bool fixed) {
    int *first = level_attr(ti);
    if (after_group && ti->group_set_first) *first = 0;   /* the group was not the atom */
    ti->group_set_first = false;
    int atom = after_group ? (ti->last.has_alt ? 1 : ti->last.attr) : 0;
    int attr = fixed ? atom : 1;
    ti->quant_fixed = fixed;
    ti->quant_set_first = *first == 0 && attr != 0;
    if (ti->quant_set_first) *first = attr;
}

/* The quantifier just read is marked non-greedy: {m}? keeps the atom's
 * greediness, the others become non-greedy. */
static void greed_nongreedy(tr_info *ti) {
    if (ti->quant_fixed) return;
    int *first = level_attr(ti);
    if (ti->quant_set_first || *first == 0) { *first = 2; ti->quant_set_first = true; }
}

static bool add_cap(tr_info *ti, int group) {
    if (ti->ncap == ti->room) {
        int room = ti->room ? ti->room * 2 : 8;
        int *cap = realloc(ti->cap, (size_t)room * sizeof *cap);
        if (cap) ti->cap = cap;
        bool *r = realloc(ti->rep, (size_t)room * sizeof *r);
        if (r) ti->rep = r;
        if (!cap || !r) return false;
        ti->room = room;
    }
    ti->rep[ti->ncap] = ti->risk_after;
    ti->cap[ti->ncap++] = group;
    return true;
}

static bool open_push(tr_info *ti) {
    if (ti->nopen == ti->open_room) {
        int room = ti->open_room ? ti->open_room * 2 : 8;
        open_group *o = realloc(ti->open, (size_t)room * sizeof *o);
        if (!o) return false;
        ti->open = o;
        ti->open_room = room;
    }
    /* a group inside makes its parent's alternatives no plain runs; it
     * makes the parent complex only if it is (see the ')' case) */
    if (ti->nopen) ti->open[ti->nopen - 1].plain = false;
    bool *var = ti->nopen ? &ti->open[ti->nopen - 1].var_seen : &ti->top_var;
    ti->open[ti->nopen++] = (open_group){ ti->ncap, false, false, false, true, false, { NULL, 0, 0, 0 }, 0, 0, 0, 0, 0,
                                          false, false, *var, true, true, false, 0, 0, false, false, false };
    return true;
}

/* A quantifier {min, max} (max LONG_MAX: unbounded) applies to the last
 * atom. glibc's regexec, asked for group extents, never returns on some
 * unbounded repetitions of a group that matches the empty string: with
 * three alternatives that may be empty ('(b?|c?|d?)*' on '-cbc'), or one
 * such repetition inside another ('((b?|c?)*)*'); two alternatives
 * ('(b?|c?)*') and bounded repetitions are fine (measured on glibc 2.36).
 * Such patterns are marked (glibc_loop): the functions that report group
 * extents refuse them (0A000); a match and its whole extent are still
 * found (no group resolution). The rule is conservative: it also marks
 * some patterns glibc would answer ('(b?|(c?|d?))*'). */
static void nullable_quantified(tr_info *ti, long min, long max, bool after_group) {
    open_group *level = ti->nopen ? &ti->open[ti->nopen - 1] : NULL;
    if (min == 0 && level) level->cur_null = level->prev_null;
    if (!after_group || max != LONG_MAX || !ti->last.nullable) return;
    if (ti->last.null_alts >= 3 || (ti->last.null_alt_in && ti->last.null_rep_in)) ti->glibc_loop = true;
    if (level) level->null_rep_in = true;
}

static void open_free(tr_info *ti) {
    for (int k = 0; k < ti->nopen; k++) free(ti->open[k].alts.s);
    free(ti->open);
    ti->open = NULL;
    ti->nopen = 0;
}

/* The atom just read matches exactly one character (one: a literal, a
 * class, .) or not (a quantifier made it variable, an anchor, a group),
 * for the widths of the alternatives of the group open now: one byte of
 * alts per character. */
static bool alt_atom(tr_info *ti, bool one) {
    if (!ti->nopen) return true;
    open_group *g = &ti->open[ti->nopen - 1];
    if (!one) { g->plain = false; return true; }
    g->prev_null = g->cur_null;   /* a character: the alternative is no longer empty */
    g->cur_null = false;
    return !g->plain || put(&g->alts, "x", 1);
}

/* Past the atom of the translation at s[i] (before end): a byte, \ and a
 * byte, a [...] bracket, or a (...) group with its own brackets and
 * escapes. */
static size_t tr_skip(const char *s, size_t i, size_t end) {
    if (s[i] == '\\') return i + 2;
    if (s[i] == '[') {
        i++;
        if (i < end && s[i] == '^') i++;
        if (i < end && s[i] == ']') i++;   /* a ] first is a member */
        while (i < end && s[i] != ']') i++;
        return i + 1;
    }
    if (s[i] != '(') return i + 1;
    int depth = 0;
    while (i < end) {
        if (s[i] == '[' || s[i] == '\\') { i = tr_skip(s, i, end); continue; }
        if (s[i] == '(') depth++;
        else if (s[i] == ')' && --depth == 0) return i + 1;
        i++;
    }
    return end;
}

/* The alternatives of group g, each of a fixed width (a run of atoms of
 * one character), reordered widest first in the translation b (its
 * content: b->s[g->tr_start, b->n - 1), before the closing parenthesis).
 * glibc takes the first alternative that leads to the match, ARE the
 * longest: widest first, they agree (alternatives of one width give the
 * group the same extent). Returns false (nothing changed) when the
 * translation does not split as expected. */
static bool alt_sort(const open_group *g, sbuf *b) {
    enum { MAX_ALTS = 64 };
    size_t start[MAX_ALTS + 1], lit[MAX_ALTS];
    int n = 0;
    for (size_t a = 0; a <= g->alts.n && n < MAX_ALTS; a += strlen(g->alts.s + a) + 1) lit[n++] = strlen(g->alts.s + a);
    /* the translation's alternatives, | between them */
    int k = 0;
    size_t end = b->n - 1;
    start[k++] = g->tr_start;
    for (size_t i = g->tr_start; i < end;) {
        if (b->s[i] != '|') { i = tr_skip(b->s, i, end); continue; }
        if (k > MAX_ALTS - 1) return false;
        start[k++] = ++i;
    }
    if (k != n) return false;
    start[k] = end + 1;   /* as if a | ended the last one */
    int order[MAX_ALTS];
    for (int i = 0; i < n; i++) order[i] = i;
    for (int i = 1; i < n; i++)   /* stable: longest literal first */
        for (int j = i; j > 0 && lit[order[j]] > lit[order[j - 1]]; j--) { int t = order[j]; order[j] = order[j - 1]; order[j - 1] = t; }
    char *copy = malloc(end - g->tr_start + 1);
    if (!copy) return false;
    size_t w = 0;
    for (int i = 0; i < n; i++) {
        size_t a = start[order[i]], z = start[order[i] + 1] - 1;
        if (i) copy[w++] = '|';
        memcpy(copy + w, b->s + a, z - a);
        w += z - a;
    }
    memcpy(b->s + g->tr_start, copy, w);
    free(copy);
    return true;
}

/* glibc reports the groups of the first way through the expression that
 * gives the match (alternatives in order, each quantifier's most
 * repetitions first), ARE the longest for each group in turn: they agree
 * on a group of alternatives of fixed widths once those are ordered
 * widest first (alt_sort). Past any other where they may not,
 * every capturing group's extent is unreliable: the groups it is in,
 * those it holds and those after it are marked. */
/* The capturing groups from cap_from on, those open now (around it) and
 * those opened later have extents that may differ from ARE's. */
static void mark_unreliable(tr_info *ti, int cap_from) {
    ti->risk_after = true;
    for (int k = cap_from; k < ti->ncap; k++) ti->rep[k] = true;
    for (int k = 0; k < ti->nopen; k++) if (ti->open[k].captures) ti->rep[ti->open[k].cap_from] = true;
}

static void alt_close(tr_info *ti, open_group *g, sbuf *b) {
    g->unit1 = g->plain;
    for (size_t a = 0; g->unit1 && a <= g->alts.n; a += strlen(g->alts.s ? g->alts.s + a : "") + 1)
        g->unit1 = g->alts.s && strlen(g->alts.s + a) == 1;
    if (!g->has_alt) return;
    if (g->plain && alt_sort(g, b)) return;
    mark_unreliable(ti, g->cap_from);
}

/* A quantifier of upper bound max applies to the last atom. POSIX's
 * engine and ARE agree on the match; they may not on which iteration of
 * a repeated group a capturing group inside it reports when the
 * iterations could split the run another way, and glibc misses matches
 * with an anchor in a quantified group: such groups are marked so that
 * the functions that report extents refuse them (0A000). */
static void quantified(tr_info *ti, long max, bool after_group) {
    if (ti->nopen) ti->open[ti->nopen - 1].complex = true;
    if (!after_group) {
        if (ti->nopen) ti->open[ti->nopen - 1].var_seen = true; else ti->top_var = true;
        return;
    }
    if (ti->last.anchor) ti->anchor_quant = true;
    /* iterations that could split the run another way: which one a
     * group inside reports, and how far the repetition reaches
     * ('(?:(?:x|b)[ab]{0,2})+(.*)' on 'bababa': glibc 'bab' then stops,
     * ARE three iterations), may differ */
    if (max > 1 && ti->last.complex) mark_unreliable(ti, ti->last.cap_from);
    /* glibc takes each quantifier's most repetitions first; ARE matches
     * a run without captures, and each capturing group, as long as it can
     * as a whole. They agree for repeated single characters, not for a
     * quantified group of several after another part of varying length in
     * one such run ('a*(?:ab)*(.*)' on 'abab': glibc's \1 'bab', ARE's '';
     * '(a*(ab)*)': glibc's \1 'a', ARE's 'abab'). At the top level a
     * capturing group splits the run, as ARE's own match does
     * ('a*(ab)*(.*)' agrees); elsewhere, and for a group without
     * captures, the captures in, around and after it are marked. */
    bool *var = ti->nopen ? &ti->open[ti->nopen - 1].var_seen : &ti->top_var;
    if (!ti->last.unit1 && ti->last.var_before && (ti->nopen || ti->last.cap_from == ti->ncap))
        mark_unreliable(ti, ti->last.cap_from);
    *var = true;
}

/* Translates a SIMILAR TO pattern (mode 0: anchored at both ends, % and _
 * wildcards, . ^ $ literal, escape esc) or an ARE (mode ATTU_RE_ARE ...:
 * unanchored, . any character, ^ $ anchors, % _ literal, escape
 * backslash, (?: ) groups; the n p x q flags' readings) into b. */
/* A constraint escape (\A \Z \m \M \y \Y, k its letter) as glibc's GNU
 * anchor. Like ^ and $ it may not be quantified (the caller sets its
 * state to 0), makes a quantified group around it unsupported, and reads
 * the end of a search window as the string's (no shortest match). False
 * when out of memory. */
static bool constraint_escape(sbuf *b, tr_info *ti, char k) {
    bool ok = puts__(b, k == 'A' ? "\\`" : k == 'Z' ? "\\'" : k == 'm' ? "\\<" : k == 'M' ? "\\>"
                        : k == 'y' ? "\\b" : "\\B") && alt_atom(ti, false);
    if (ti->nopen) ti->open[ti->nopen - 1].anchor = true;
    ti->has_dollar = true;
    if (k != 'A' && k != 'Z') ti->word_constraint = true;
    return ok;
}

static int translate(const char *p, size_t plen, int esc, int mode, sbuf *b, tr_info *ti, attu_error *err) {
    bool regex = mode & ATTU_RE_ARE;
    /* what a quantifier would apply to: 0 nothing (start, after ( or |,
     * an anchor), 1 an atom, 2 a quantified atom (ARE's non-greedy ? may
     * follow), 3 a quantified atom marked non-greedy */
    int state = 0, depth = 0, quotes = 0;
    if (!puts__(b, regex ? "(" : "^(")) return attu_error_oom(err);
    b->groups++;
    if (mode & ATTU_RE_QUOTE) {
        /* q: every character stands for itself */
        for (size_t i = 0; i < plen;) {
            uint32_t cp;
            i += utf8_decode(p + i, plen - i, &cp);
            if (!emit_char(b, cp)) return attu_error_oom(err);
        }
        return puts__(b, ")") ? 0 : attu_error_oom(err);
    }
    for (size_t i = 0; i < plen;) {
        unsigned char c = (unsigned char)p[i];
        bool ok = true;
        if (mode & ATTU_RE_EXPANDED) {
            /* x: white space and comments from # to the end of the line
             * are no part of the pattern (a class keeps its own) */
            if (isspace(c)) { i++; continue; }
            if (c == '#') { while (i < plen && p[i] != '\n') i++; continue; }
        }
        bool after_group = ti->last_is_group;   /* a ) just before */
        ti->last_is_group = false;
        if (esc >= 0 && c == (unsigned)esc) {
            if (++i >= plen) {
                /* SIMILAR TO drops a trailing escape, as PostgreSQL does;
                 * ARE has no escape that is nothing */
                if (regex) return bad_re(err, "invalid escape \\ sequence");
                break;
            }
            if (p[i] == '"' && !regex) {
                /* an escape-double-quote separator: PostgreSQL puts each of
                 * the (up to three) parts in its own group; a match needs
                 * no more (substring's SIMILAR form finds the marked part
                 * itself, engine/regexp_functions.c) */
                if (++quotes > 2)
                    return attu_error_set(err, "2200C", 0,
                                          "SQL regular expression may not contain more than two escape-double-quote separators");
                if (!puts__(b, ")(")) return attu_error_oom(err);
                b->groups++;
                i++;
                state = 0;
                ti->last_is_group = false;
                continue;
            }
            if (p[i] && strchr("AZmMyY", p[i])) {
                /* ARE's constraint escapes, glibc's GNU anchors: \A the
                 * string's start, \Z its end, \m \M a word's start and end,
                 * \y \Y a word boundary and none (ASCII letters, digits and
                 * _ are word characters, as under the C locale) */
                if (!constraint_escape(b, ti, p[i++])) return attu_error_oom(err);
                state = 0;
                continue;
            }
            uint32_t cp = 0;
            cpset t = { NULL, 0, 0 };
            int r = escaped_char(p, plen, &i, &cp, &t, regex, err);
            if (r < 0) { free(t.iv); return -1; }
            if (r == 1) cp_normalize(&t);   /* an entry code's empty set too */
            ok = (r == 1 ? emit_set(b, &t) : emit_char(b, cp)) && alt_atom(ti, true);
            cost_atom(ti, r == 1 ? 4 : 1, 0);
            free(t.iv);
            state = 1;
        } else if (c == '*' || c == '+' || c == '?' || (c == '{' && i + 1 < plen && isdigit((unsigned char)p[i + 1]))) {
            if (state == 0 || state == 3 || (state == 2 && c != '?')) return bad_re(err, "quantifier operand invalid");
            if (state == 2) {
                /* non-greedy: the same strings match, not the same
                 * extents: a non-greedy pattern's match is the shortest
                 * (attu_regex_find), its groups' extents are refused */
                state = 3; ti->nongreedy = true; greed_nongreedy(ti); i++; continue;
            }
            long max = c == '?' ? 1 : LONG_MAX, min = c == '+' ? 1 : 0;
            bool fixed = false;
            if (c == '{') {
                /* {m} (no comma) is a fixed repetition */
                size_t k = i + 1;
                while (k < plen && isdigit((unsigned char)p[k])) k++;
                fixed = k < plen && p[k] == '}';
                if (parse_bound(p, plen, &i, b, &min, &max, err)) return -1;
                i++;
            }
            else { ok = putc_(b, (char)c); i++; }
            quantified(ti, max, after_group);
            nullable_quantified(ti, min, max, after_group);
            greed_quantified(ti, after_group, fixed);
            cost_quantified(ti, min, max == LONG_MAX ? -1 : max);
            alt_atom(ti, false);
            state = 2;
        } else if (c == '[' && plen - i >= 7 &&
                   (!memcmp(p + i, "[[:<:]]", 7) || !memcmp(p + i, "[[:>:]]", 7))) {
            /* ARE's word-boundary brackets: [[:<:]] is \m, [[:>:]] \M
             * (not classes: PostgreSQL reads the whole bracket as the
             * constraint; SIMILAR TO passes brackets on to ARE, so there
             * too) */
            if (!constraint_escape(b, ti, p[i + 3] == '<' ? 'm' : 'M')) return attu_error_oom(err);
            i += 7;
            state = 0;
        } else if (c == '[') {
            i++;
            cpset t = { NULL, 0, 0 };
            if (parse_class(p, plen, &i, esc, &t, regex, (mode & ATTU_RE_NLSTOP) != 0, (mode & ATTU_RE_ICASE) != 0, err)) {
                free(t.iv);
                return -1;
            }
            ok = emit_set(b, &t) && alt_atom(ti, true);
            cost_atom(ti, 4, 0);
            free(t.iv);
            state = 1;
        } else if (c == '(') {
            bool capture = regex;
            if (regex && i + 1 < plen && p[i + 1] == '?') {
                /* ARE's (?:re) groups without capturing and (?#...)
                 * comments; lookaround is not translated; anything else
                 * reads as ( and a quantifier with nothing to repeat, as
                 * in PostgreSQL (embedded options only start a pattern:
                 * attu_regex_prepare_opts) */
                char k = i + 2 < plen ? p[i + 2] : '\0';
                if (k == '#') {
                    const char *z = memchr(p + i, ')', plen - i);
                    if (!z) return bad_re(err, "parentheses () not balanced");
                    i = (size_t)(z - p) + 1;
                    ti->last_is_group = after_group;   /* a comment is no atom */
                    continue;
                }
                bool behind = k == '<' && i + 3 < plen && (p[i + 3] == '=' || p[i + 3] == '!');
                if (k == '=' || k == '!' || behind)
                    return attu_error_set(err, ATTU_SQLSTATE_FEATURE_NOT_SUPPORTED, 0,
                                          "regular expression lookahead and lookbehind are not supported");
                if (k != ':') return bad_re(err, "quantifier operand invalid");
                i += 2;
                capture = false;
            }
            if (ti->nopen >= TR_MAX_DEPTH) return bad_re(err, "regular expression is too complex");
            b->groups++;
            if (!open_push(ti) || (capture && !add_cap(ti, b->groups))) return attu_error_oom(err);
            ti->open[ti->nopen - 1].captures = capture;
            ti->open[ti->nopen - 1].tr_start = b->n + 1;   /* past the ( */
            depth++; ok = putc_(b, '('); i++; state = 0;
        } else if (c == ')') {
            if (depth == 0) return bad_re(err, "parentheses () not balanced");
            depth--; ok = putc_(b, ')'); i++; state = 1;
            ti->last = ti->open[--ti->nopen];
            {
                open_group *g = &ti->last;
                if (g->has_alt && g->cur_null) g->own_null++;
                g->nullable = g->any_null || g->cur_null;
                g->null_alt_in = g->null_alt_in || (g->has_alt && g->own_null > 0);
                g->null_alts += g->has_alt ? g->own_null : 0;
                if (ti->nopen) {
                    open_group *p = &ti->open[ti->nopen - 1];
                    p->prev_null = p->cur_null;
                    p->cur_null = p->cur_null && g->nullable;
                    p->null_alts += g->null_alts;
                    p->null_alt_in = p->null_alt_in || g->null_alt_in;
                    p->null_rep_in = p->null_rep_in || g->null_rep_in;
                }
            }
            alt_close(ti, &ti->last, b);
            {
                /* the group as an atom of the enclosing level, until a
                 * quantifier makes it part of a quantified atom */
                int gattr = ti->last.has_alt ? 1 : ti->last.attr, *first = level_attr(ti);
                ti->group_set_first = *first == 0 && gattr != 0;
                if (ti->group_set_first) *first = gattr;
            }
            free(ti->last.alts.s);
            ti->last.alts.s = NULL;
            cost_atom(ti, ti->last.w + 1, ti->last.eps);
            if (ti->last.var_seen || ti->last.has_alt) {
                if (ti->nopen) ti->open[ti->nopen - 1].var_seen = true; else ti->top_var = true;
            }
            /* A group of fixed content (no quantifier, no alternatives,
             * no such group inside) matches one way: a repetition of its
             * parent still splits a run only one way, and the groups in
             * it report the last iteration in glibc as in ARE
             * ('(?:([a-z])\d)+'). Any other makes its parent complex. */
            if (ti->nopen && (ti->last.complex || ti->last.var_seen || ti->last.has_alt))
                ti->open[ti->nopen - 1].complex = true;
            ti->last_is_group = true;
            if (ti->nopen && ti->last.anchor) ti->open[ti->nopen - 1].anchor = true;
        } else if (c == '|') {
            ok = putc_(b, '|'); i++; state = 0;
            if (!ti->nopen) ti->top_alt = true;
            if (ti->nopen) ti->open[ti->nopen - 1].eps += 1; else ti->top_eps += 1;
            if (ti->nopen) {
                open_group *g = &ti->open[ti->nopen - 1];
                if (g->cur_null) { g->own_null++; g->any_null = true; }
                g->cur_null = g->prev_null = true;
                g->complex = g->has_alt = true;
                ok = ok && put(&g->alts, "", 1);   /* the NUL that ends an alternative */
                g->cur = g->alts.n;
            }
        } else if (c == '%' && !regex) {
            ok = puts__(b, ".*"); i++; state = 2;
        } else if ((c == '_' && !regex) || (c == '.' && regex)) {
            ok = puts__(b, (mode & ATTU_RE_NLSTOP) ? UTF8_CHAR_NONL : UTF8_CHAR) && alt_atom(ti, true); i++; state = 1;
            cost_atom(ti, 4, 0);
            b->groups++;
        } else if ((c == '^' || c == '$') && regex) {
            ok = putc_(b, (char)c) && alt_atom(ti, false); i++; state = 0;
            if (ti->nopen) ti->open[ti->nopen - 1].anchor = true;
            if (c == '$') ti->has_dollar = true;
        } else {
            uint32_t cp;
            i += utf8_decode(p + i, plen - i, &cp);
            ok = emit_char(b, cp) && alt_atom(ti, true);
            cost_atom(ti, 1, 0);
            state = 1;
        }
        if (!ok) return attu_error_oom(err);
    }
    if (depth) return bad_re(err, "parentheses () not balanced");
    /* the translation is linear in the pattern; what glibc would expand
     * it to is checked here, before it sees it */
    if (ti->top_w > TR_MAX_NODES || ti->top_eps > TR_MAX_EPS) return bad_re(err, "regular expression is too complex");
    if (!puts__(b, regex ? ")" : ")$")) return attu_error_oom(err);
    return 0;
}

static int compile(attu_similar *s, const char *pat, size_t plen, const char *esc, size_t elen, bool has_esc,
                   int e, int mode, attu_error *err);

int attu_similar_prepare(attu_similar *s, const char *pat, size_t plen, const char *esc, size_t elen,
                         bool has_esc, attu_error *err) {
    if (s->compiled && s->mode == 0 && s->plen == plen && !memcmp(s->pat, pat, plen) && s->has_esc == has_esc &&
        (!has_esc || (s->elen == elen && !memcmp(s->esc, esc, elen))))
        return 0;
    attu_similar_free(s);
    int e = '\\';
    if (has_esc) {
        /* one UTF-8 character: its length from the lead byte */
        unsigned char l = elen ? (unsigned char)esc[0] : 0;
        size_t one = l < 0x80 ? 1 : l >= 0xf0 ? 4 : l >= 0xe0 ? 3 : 2;
        if (elen > 1 && elen == one)
            return attu_error_set(err, ATTU_SQLSTATE_FEATURE_NOT_SUPPORTED, 0, "a non-ASCII ESCAPE character is not supported");
        if (elen > 1) {
            attu_error_set(err, "22025", 0, "invalid escape string");
            attu_error_set_hint(err, "Escape string must be empty or one character.");
            return -1;
        }
        e = elen ? l : -1;
    }
    return compile(s, pat, plen, esc, elen, has_esc, e, 0, err);
}

int attu_regex_prepare(attu_similar *s, const char *pat, size_t plen, bool icase, attu_error *err) {
    return attu_regex_prepare_opts(s, pat, plen, ATTU_RE_ARE | (icase ? ATTU_RE_ICASE : 0), err);
}

int attu_regex_parse_flags(const char *flags, size_t flen, int *mode, bool *glob, attu_error *err) {
    int m = ATTU_RE_ARE;
    *glob = false;
    for (size_t i = 0; i < flen; i++) {
        switch (flags[i]) {
        case 'g': *glob = true; break;
        case 'b': m = (m & ~(ATTU_RE_QUOTE | ATTU_RE_EXTENDED)) | ATTU_RE_BASIC; break;
        case 'c': m &= ~ATTU_RE_ICASE; break;
        case 'e': m = (m & ~(ATTU_RE_QUOTE | ATTU_RE_BASIC)) | ATTU_RE_EXTENDED; break;
        case 'i': m |= ATTU_RE_ICASE; break;
        case 'm': case 'n': m |= ATTU_RE_NLSTOP | ATTU_RE_NLANCH; break;
        case 'p': m = (m | ATTU_RE_NLSTOP) & ~ATTU_RE_NLANCH; break;
        case 'q': m = (m & ~(ATTU_RE_BASIC | ATTU_RE_EXTENDED)) | ATTU_RE_QUOTE; break;
        case 's': m &= ~(ATTU_RE_NLSTOP | ATTU_RE_NLANCH); break;
        case 't': m &= ~ATTU_RE_EXPANDED; break;
        case 'w': m = (m & ~ATTU_RE_NLSTOP) | ATTU_RE_NLANCH; break;
        case 'x': m |= ATTU_RE_EXPANDED; break;
        default: {
            /* the whole (UTF-8) character in the message */
            uint32_t cp;
            size_t l = utf8_decode(flags + i, flen - i, &cp);
            return attu_error_set(err, ATTU_SQLSTATE_INVALID_PARAMETER, 0, "invalid regular expression option: \"%.*s\"",
                                  (int)l, flags + i);
        }
        }
    }
    *mode = m;
    return 0;
}

/* ARE's embedded options at the start of pat[0, *plen): (? letters ),
 * each letter as in a flags argument (g is none); *pat and *plen move
 * past them. 2201B for a letter that is none or a missing ). */
static int embedded_options(const char **pat, size_t *plen, int *mode, attu_error *err) {
    const char *p = *pat;
    if (*plen < 3 || p[0] != '(' || p[1] != '?' || !isalpha((unsigned char)p[2])) return 0;
    size_t k = 2;
    for (; k < *plen && isalpha((unsigned char)p[k]); k++) {
        int m;
        bool g;
        attu_error scratch;
        attu_error_clear(&scratch);
        if (attu_regex_parse_flags(p + k, 1, &m, &g, &scratch) || g) return bad_re(err, "invalid embedded option");
        /* the letter applied to the options so far, as a flags letter */
        switch (p[k]) {
        case 'b': *mode = (*mode & ~(ATTU_RE_QUOTE | ATTU_RE_EXTENDED)) | ATTU_RE_BASIC; break;
        case 'c': *mode &= ~ATTU_RE_ICASE; break;
        case 'e': *mode = (*mode & ~(ATTU_RE_QUOTE | ATTU_RE_BASIC)) | ATTU_RE_EXTENDED; break;
        case 'i': *mode |= ATTU_RE_ICASE; break;
        case 'm': case 'n': *mode |= ATTU_RE_NLSTOP | ATTU_RE_NLANCH; break;
        case 'p': *mode = (*mode | ATTU_RE_NLSTOP) & ~ATTU_RE_NLANCH; break;
        case 'q': *mode = (*mode & ~(ATTU_RE_BASIC | ATTU_RE_EXTENDED)) | ATTU_RE_QUOTE; break;
        case 's': *mode &= ~(ATTU_RE_NLSTOP | ATTU_RE_NLANCH); break;
        case 't': *mode &= ~ATTU_RE_EXPANDED; break;
        case 'w': *mode = (*mode & ~ATTU_RE_NLSTOP) | ATTU_RE_NLANCH; break;
        default: *mode |= ATTU_RE_EXPANDED; break;   /* x */
        }
    }
    if (k >= *plen || p[k] != ')') return bad_re(err, "invalid embedded option");
    if (*mode & ATTU_RE_QUOTE) *mode &= ~(ATTU_RE_EXPANDED | ATTU_RE_NLSTOP | ATTU_RE_NLANCH);
    *pat += k + 1;
    *plen -= k + 1;
    return 0;
}

int attu_regex_prepare_opts(attu_similar *s, const char *pat, size_t plen, int mode, attu_error *err) {
    mode |= ATTU_RE_ARE;
    /* PostgreSQL's regcomp refuses a literal pattern with newline or
     * expanded options */
    if ((mode & ATTU_RE_QUOTE) && (mode & (ATTU_RE_NLSTOP | ATTU_RE_NLANCH | ATTU_RE_EXPANDED)))
        return bad_re(err, "invalid argument to regex function");
    if (!(mode & (ATTU_RE_QUOTE | ATTU_RE_BASIC | ATTU_RE_EXTENDED))) {
        /* ARE's directors: ***= makes the rest a literal string (and
         * drops the newline and expanded options), ***: an ARE; then the
         * embedded options of an ARE */
        if (plen >= 4 && !memcmp(pat, "***", 3) && (pat[3] == '=' || pat[3] == ':')) {
            if (pat[3] == '=') mode = (mode | ATTU_RE_QUOTE) & ~(ATTU_RE_EXPANDED | ATTU_RE_NLSTOP | ATTU_RE_NLANCH);
            pat += 4;
            plen -= 4;
        }
        if (!(mode & ATTU_RE_QUOTE) && embedded_options(&pat, &plen, &mode, err)) return -1;
    }
    if (mode & (ATTU_RE_BASIC | ATTU_RE_EXTENDED))
        return attu_error_set(err, ATTU_SQLSTATE_FEATURE_NOT_SUPPORTED, 0,
                              "the regular expression flags b and e (POSIX basic and extended syntax) are not supported");
    /* the pattern after its director and options, with the options they
     * set: the same regular expression whatever wrote them */
    if (s->compiled && s->mode == mode && s->plen == plen && !memcmp(s->pat, pat, plen)) return 0;
    attu_similar_free(s);
    return compile(s, pat, plen, "", 0, false, '\\', mode, err);
}

/* Translates pat (mode 0: SIMILAR TO with escape e; else an ARE under the
 * ATTU_RE_ bits of mode) and compiles it into s, which keeps pat and esc
 * to know it again. */
static int compile(attu_similar *s, const char *pat, size_t plen, const char *esc, size_t elen, bool has_esc,
                   int e, int mode, attu_error *err) {
    sbuf b = { NULL, 0, 0, 0 };
    tr_info ti;
    memset(&ti, 0, sizeof ti);
    int trc = translate(pat, plen, e, mode, &b, &ti, err);
    open_free(&ti);
    if (!trc && ti.anchor_quant)
        /* glibc's matcher misses or invents matches of such patterns
         * (('c'|a+^b)+b matched 'bbacaba'), found by fuzzing against
         * PostgreSQL: refused rather than answered differently */
        trc = attu_error_set(err, ATTU_SQLSTATE_FEATURE_NOT_SUPPORTED, 0,
                             "anchors (^ $) inside a quantified group are not supported in regular expressions");
    if (trc) { free(b.s); free(ti.cap); free(ti.rep); return -1; }
    int cflags = REG_EXTENDED | ((mode & ATTU_RE_SUBMATCH) ? 0 : REG_NOSUB) | ((mode & ATTU_RE_ICASE) ? REG_ICASE : 0) |
                 ((mode & ATTU_RE_NLANCH) ? REG_NEWLINE : 0);
    int rc = regcomp(&s->re, b.s ? b.s : "", cflags);
    free(b.s);
    if (rc) {
        free(ti.cap);
        free(ti.rep);
        /* PostgreSQL's wording for the errors both engines know */
        char msg[128];
        const char *pg = rc == REG_EPAREN ? "parentheses () not balanced" : rc == REG_EBRACK ? "brackets [] not balanced"
                       : rc == REG_EBRACE ? "braces {} not balanced" : rc == REG_BADRPT ? "quantifier operand invalid"
                       : rc == REG_ERANGE ? "invalid character range" : rc == REG_BADBR ? "invalid repetition count(s)"
                       : rc == REG_ECTYPE ? "invalid character class" : rc == REG_EESCAPE ? "invalid escape \\ sequence" : NULL;
        if (!pg) { regerror(rc, &s->re, msg, sizeof msg); pg = msg; }
        regfree(&s->re);
        return attu_error_set(err, "2201B", 0, "invalid regular expression: %s", pg);
    }
    s->compiled = true;   /* attu_similar_free releases what follows */
    s->cap = ti.cap;
    s->cap_rep = ti.rep;
    s->nsub = ti.ncap;
    s->nongreedy = ti.nongreedy;
    /* ARE takes the shortest match when the expression is non-greedy;
     * the groups' extents then follow rules attu does not compute */
    s->groups_wanted = true;
    s->glibc_loop = ti.glibc_loop;
    s->shortest = !ti.top_alt && ti.top_attr == 2;
    s->has_dollar = ti.has_dollar;
    if (ti.nongreedy) for (int k = 0; k < ti.ncap; k++) ti.rep[k] = true;
    /* Top-level alternatives with a word constraint (\y, \Y, \m, \M) in
     * one: where two alternatives match the same extent, glibc may take a
     * later one than ARE's first ('1\y()|1' on '1 ': ARE's \1 '', glibc's
     * none); their groups' extents are refused (regexp_fuzz seed 3033). */
    if (ti.top_alt && ti.word_constraint) for (int k = 0; k < ti.ncap; k++) ti.rep[k] = true;
    s->pat = malloc(plen + 1);
    s->esc = malloc(elen + 1);
    if (mode & ATTU_RE_SUBMATCH) {
        s->pm = malloc((s->re.re_nsub + 1) * sizeof *s->pm);
        s->span = malloc(((size_t)s->nsub + 1) * sizeof *s->span);
    }
    if (!s->pat || !s->esc || ((mode & ATTU_RE_SUBMATCH) && (!s->pm || !s->span))) {
        attu_similar_free(s);
        return attu_error_oom(err);
    }
    if (plen) memcpy(s->pat, pat, plen);
    if (elen) memcpy(s->esc, esc, elen);
    s->plen = plen; s->elen = elen; s->has_esc = has_esc; s->mode = mode;
    return 0;
}

bool attu_similar_match(const attu_similar *s, const char *str, size_t len) {
    char small[256];
    char *buf = len < sizeof small ? small : malloc(len + 1);
    if (!buf) return false;
    if (len) memcpy(buf, str, len);
    buf[len] = '\0';
    bool m = regexec(&s->re, buf, 0, NULL, 0) == 0;
    if (buf != small) free(buf);
    return m;
}

bool attu_regex_find(attu_similar *s, const char *str, size_t len, size_t from) {
    /* REG_STARTEND: the string is str[0, len), searched from `from` on;
     * what precedes `from` still counts for ^ */
    s->pm[0].rm_so = (regoff_t)from;
    s->pm[0].rm_eo = (regoff_t)len;
    const size_t nmatch = s->groups_wanted ? s->re.re_nsub + 1 : 1;
    if (regexec(&s->re, str ? str : "", nmatch, s->pm, REG_STARTEND)) return false;
    if (s->shortest && s->pm[0].rm_eo > s->pm[0].rm_so) {
        /* a non-greedy expression: the shortest match at that start,
         * the smallest end e for which a search of the window [start, e)
         * finds a match starting there (no $ in the pattern: the window's
         * end would read as the string's). Whether it does grows with e,
         * so e is found by bisection: O(log n) searches, not O(n). */
        regoff_t so = s->pm[0].rm_so, lo = so, hi = s->pm[0].rm_eo;
        while (lo < hi) {
            regoff_t mid = lo + (hi - lo) / 2;
            regmatch_t w[1] = { { so, mid } };
            if (!regexec(&s->re, str, 1, w, REG_STARTEND) && w[0].rm_so == so) hi = mid;
            else lo = mid + 1;
        }
        s->pm[0].rm_eo = lo;
    }
    s->span[0].so = s->pm[0].rm_so;
    s->span[0].eo = s->pm[0].rm_eo;
    for (int k = 0; s->groups_wanted && k < s->nsub; k++) {
        const regmatch_t *g = &s->pm[s->cap[k]];
        s->span[k + 1].so = g->rm_so < 0 ? -1 : g->rm_so;
        s->span[k + 1].eo = g->rm_so < 0 ? -1 : g->rm_eo;
    }
    return true;
}

void attu_similar_free(attu_similar *s) {
    if (s->compiled) regfree(&s->re);
    free(s->pat);
    free(s->esc);
    free(s->cap);
    free(s->cap_rep);
    free(s->pm);
    free(s->span);
    memset(s, 0, sizeof *s);
}
