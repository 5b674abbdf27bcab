/*
 * interval.c - PostgreSQL's interval input and timestamp + interval (see
 * interval.h). Input follows the behaviour of PostgreSQL 15's interval_in
 * (postgres style, then ISO 8601), timestamp + interval its
 * timestamp_pl_interval.
 */
#include "engine/interval.h"
#include "engine/interval_style.h"
#include "engine/timezone.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "engine/expr_program.h"
#include "engine/types.h"

#define USECS_PER_DAY 86400000000LL
#define DAYS_PER_MONTH 30            /* PostgreSQL's DAYS_PER_MONTH for fractions */
#define USECS_PER_HOUR 3600000000LL
#define USECS_PER_MINUTE 60000000LL
#define USECS_PER_SEC 1000000LL

static int bad_interval(attu_error *err, const char *s, size_t len) {
    return attu_error_set(err, ATTU_SQLSTATE_DATETIME_FORMAT, 0, "invalid input syntax for type interval: \"%.*s\"",
                          (int)(len > 200 ? 200 : len), s);
}

static int field_overflow(attu_error *err, const char *s, size_t len) {
    return attu_error_set(err, "22015", 0, "interval field value out of range: \"%.*s\"", (int)(len > 200 ? 200 : len), s);
}

/* ---- reading interval text ------------------------------------------------------
 *
 * Three stages. lex_interval cuts the text into tokens (numbers, clock
 * times, unit words, and date-like runs that no interval has) and reads
 * each token's value on the spot; a token that does not read keeps its
 * error, raised only when the reading reaches it. read_postgres walks the
 * tokens from the right, since a unit word names the unit of the numbers
 * to its left (a bare rightmost number is seconds, a number left of a
 * clock time days, a unit at most once), and hands each quantity to a
 * span accumulator whose helpers check every step. read_iso reads ISO 8601
 * durations, tried when the postgres form fails on text that starts with
 * 'P'. Behaviour (accepted forms, rounding, errors) is PostgreSQL 15's
 * interval_in, checked against it. */

enum { R_OK = 0, R_SYNTAX, R_FIELD };   /* 22007, 22015 */

typedef enum {
    U_NONE, U_USEC, U_MSEC, U_SEC, U_MIN, U_HOUR, U_DAY, U_WEEK, U_MONTH, U_YEAR, U_DECADE, U_CENTURY,
    U_MILLENNIUM,
    U_UNUSABLE,  /* a word interval input knows but can give no number to (quarter, timezone), or "ago" */
    U_AGO
} unit_t;

#define UBIT(u) (1u << (u))
#define CLOCK_UNITS (UBIT(U_HOUR) | UBIT(U_MIN) | UBIT(U_SEC) | UBIT(U_MSEC) | UBIT(U_USEC))

/* The unit words PostgreSQL 15 accepts, by unit; a word is compared on
 * its first 10 characters ("microseconds" reads as "microsecon"). */
static const struct { unit_t unit; const char *spellings; } unit_words[] = {
    { U_USEC, "us usec usecs usecond useconds microsecon" },
    { U_MSEC, "ms msec msecs msecond mseconds millisecon" },
    { U_SEC, "s sec secs second seconds" },
    { U_MIN, "m min mins minute minutes" },
    { U_HOUR, "h hr hrs hour hours" },
    { U_DAY, "d day days" },
    { U_WEEK, "w week weeks" },
    { U_MONTH, "mon mons month months" },
    { U_YEAR, "y yr yrs year years" },
    { U_DECADE, "dec decs decade decades" },
    { U_CENTURY, "c cent century centuries" },
    { U_MILLENNIUM, "mil mils millennium millennia" },
    { U_UNUSABLE, "qtr quarter timezone timezone_h timezone_m" },
    { U_AGO, "ago" },
};

static unit_t lookup_unit(const char *w) {
    size_t wl = strlen(w);
    if (wl > 10) wl = 10;
    for (size_t i = 0; i < sizeof unit_words / sizeof *unit_words; i++) {
        for (const char *sp = unit_words[i].spellings; *sp;) {
            size_t n = strcspn(sp, " ");
            if (n == wl && !memcmp(sp, w, n)) return unit_words[i].unit;
            sp += n;
            while (*sp == ' ') sp++;
        }
    }
    return U_NONE;
}

/* Whether PostgreSQL knows w as a date word (a month or weekday name, a
 * single-letter ISO unit, am / pm, ad / bc, a special value): such a word
 * run into digits or a '+' ends its token ('1y2 min', 'dec1'), any other
 * word so run in begins a date-like token ('x1'). Checked against
 * PostgreSQL 15, word by word. */
static bool date_word(const char *w) {
    static const char *const words[] = {
        "ad", "allballs", "am", "apr", "april", "at", "aug", "august", "bc", "d", "dec", "december", "dow", "doy",
        "dst", "epoch", "feb", "february", "fri", "friday", "h", "infinity", "isodow", "isoyear", "j", "jan",
        "january", "jd", "jul", "julian", "july", "jun", "june", "m", "mar", "march", "may", "mm", "mon", "monday",
        "nov", "november", "now", "oct", "october", "on", "pm", "s", "sat", "saturday", "sep", "sept", "september",
        "sun", "sunday", "t", "thu", "thur", "thurs", "thursday", "today", "tomorrow", "tue", "tues", "tuesday",
        "wed", "wednesday", "weds", "y", "yesterday",
    };
    for (size_t i = 0; i < sizeof words / sizeof *words; i++) if (!strcmp(words[i], w)) return true;
    return false;
}

/* ---- numbers ---- */

/* a decimal int64 as strtoll reads it; *overflow when it does not fit */
static int64_t read_i64(const char *p, const char **end, bool *overflow) {
    char *e;
    errno = 0;
    long long v = strtoll(p, &e, 10);
    *overflow = errno == ERANGE;
    *end = e;
    return v;
}

/* the fraction p points at ('.', then digits to the end): '.' alone is 0 */
static int read_fraction(const char *p, double *f) {
    *f = 0;
    if (p[1] == 0) return R_OK;
    char *e;
    errno = 0;
    *f = strtod(p, &e);
    return *e == 0 && errno == 0 ? R_OK : R_SYNTAX;
}

static bool fits32(int64_t v) { return v >= INT32_MIN && v <= INT32_MAX; }

/* ---- the span accumulator ----
 * Years and months are kept apart until the end (their sum in months is
 * checked there, 22008); each helper reports false when a field leaves
 * its type (22015). */
typedef struct span_acc { int64_t usec; int32_t days, months, years; } span_acc;

/* to the nearest integer, exact halves toward zero, as a fraction given
 * in the text turns into whole microseconds */
static int64_t nearest_halves_in(double x) {
    double whole = trunc(x), rest = x - whole;
    return (int64_t)whole + (rest > 0.5) - (rest < -0.5);
}

/* whole and frac carry the same sign (both come from one number) */
static bool acc_time(span_acc *a, int64_t whole, double frac, int64_t unit_usec) {
    int64_t part;
    if (__builtin_mul_overflow(whole, unit_usec, &part)) return false;
    __int128 sum = (__int128)a->usec + part + (frac != 0 ? nearest_halves_in(frac * (double)unit_usec) : 0);
    if (sum < INT64_MIN || sum > INT64_MAX) return false;
    a->usec = (int64_t)sum;
    return true;
}

static bool acc_days(span_acc *a, int64_t whole, int per) {
    if (!fits32(whole)) return false;
    int64_t d = whole * per;   /* per <= 7: no int64 overflow */
    if (!fits32(d) || !fits32((int64_t)a->days + d)) return false;
    a->days = (int32_t)(a->days + d);
    return true;
}

/* frac of a unit of `per` days: whole days, the rest as time */
static bool acc_frac_days(span_acc *a, double frac, int per) {
    if (frac == 0) return true;
    double days = frac * per;
    if (!(days > -2147483648.0 && days < 2147483648.0)) return false;
    int32_t d = (int32_t)days;
    if (!fits32((int64_t)a->days + d)) return false;
    a->days += d;
    return acc_time(a, 0, days - d, USECS_PER_DAY);
}

static bool acc_months(span_acc *a, int64_t whole) {
    if (!fits32(whole) || !fits32((int64_t)a->months + whole)) return false;
    a->months = (int32_t)(a->months + whole);
    return true;
}

/* whole units of `per` years; a fraction becomes whole months */
static bool acc_years(span_acc *a, int64_t whole, int per, double frac) {
    if (!fits32(whole)) return false;
    int64_t y = whole * per;   /* per <= 1000: no int64 overflow */
    if (!fits32(y) || !fits32((int64_t)a->years + y)) return false;
    a->years = (int32_t)(a->years + y);
    if (frac == 0) return true;
    double m = rint(frac * per * 12);
    if (!(m > -2147483649.0 && m < 2147483648.0)) return false;
    return acc_months(a, (int64_t)m);
}

/* a number of the given unit; *claimed: the units it uses up */
static int acc_quantity(span_acc *a, unit_t unit, int64_t whole, double frac, unsigned *claimed) {
    bool ok;
    *claimed = UBIT(unit);
    switch (unit) {
    case U_USEC: ok = acc_time(a, whole, frac, 1); break;
    case U_MSEC: ok = acc_time(a, whole, frac, 1000); break;
    case U_SEC:
        ok = acc_time(a, whole, frac, USECS_PER_SEC);
        if (frac != 0) *claimed |= UBIT(U_MSEC) | UBIT(U_USEC);
        break;
    case U_MIN: ok = acc_time(a, whole, frac, USECS_PER_MINUTE); break;
    case U_HOUR: ok = acc_time(a, whole, frac, USECS_PER_HOUR); break;
    case U_DAY: ok = acc_days(a, whole, 1) && acc_time(a, 0, frac, USECS_PER_DAY); break;
    case U_WEEK: ok = acc_days(a, whole, 7) && acc_frac_days(a, frac, 7); break;
    case U_MONTH: ok = acc_months(a, whole) && acc_frac_days(a, frac, DAYS_PER_MONTH); break;
    case U_YEAR: ok = acc_years(a, whole, 1, frac); break;
    case U_DECADE: ok = acc_years(a, whole, 10, frac); break;
    case U_CENTURY: ok = acc_years(a, whole, 100, frac); break;
    case U_MILLENNIUM: ok = acc_years(a, whole, 1000, frac); break;
    default: return R_SYNTAX;   /* no unit takes a number here (left of "ago", "quarter") */
    }
    return ok ? R_OK : R_FIELD;
}

/* ---- tokens of the postgres form ---- */

typedef enum { TK_NUMBER, TK_CLOCK, TK_WORD } tok_kind;

typedef struct token {
    tok_kind kind;
    int fault;         /* TK_NUMBER: R_OK, or the error raised when it is reached */
    unit_t unit;       /* TK_WORD: the unit word's unit, U_NONE for any other word */
    bool year_month;   /* TK_NUMBER: SQL's years-months, whole counted in months */
    int64_t whole;     /* TK_NUMBER: the integer part; TK_CLOCK: the time in microseconds */
    double frac;       /* TK_NUMBER: the fractional part, signed as the number */
} token;

/* PostgreSQL 15 takes at most 25 of them, their text (each with a NUL)
 * within 256 bytes */
#define MAX_TOKENS 25
#define TEXT_ROOM 256

/* h:m, h:m:s, h:m:s.f or m:s.f, unsigned, in microseconds */
static int read_clock(const char *txt, int64_t *usec) {
    const char *p;
    bool over;
    int64_t first = read_i64(txt, &p, &over);
    if (over) return R_FIELD;
    if (*p != ':') return R_SYNTAX;
    int64_t second = read_i64(p + 1, &p, &over);
    if (over || !fits32(second)) return R_FIELD;
    int64_t h = first, m = second, s = 0;
    double f = 0;
    if (*p == '.') {            /* m:s.f */
        if (read_fraction(p, &f)) return R_SYNTAX;
        h = 0; m = first; s = second;
    } else if (*p == ':') {
        s = read_i64(p + 1, &p, &over);
        if (over || !fits32(s)) return R_FIELD;
        if (*p == '.') {
            if (read_fraction(p, &f)) return R_SYNTAX;
        } else if (*p) return R_SYNTAX;
    } else if (*p) return R_SYNTAX;
    double fus = rint(f * 1000000);
    bool sane = h >= 0 && m >= 0 && m <= 59 && s >= 0 && s <= 60 && fus >= 0 && fus <= 1000000;
    if (!sane) return R_FIELD;
    __int128 total = ((__int128)h * 3600 + m * 60 + s) * USECS_PER_SEC + (int64_t)fus;
    if (total > INT64_MAX) return R_FIELD;
    *usec = (int64_t)total;
    return R_OK;
}

/* a number token's text: [sign]digits, then .fraction or -months (Y-M) */
static int read_number(const char *txt, token *t) {
    const char *p;
    bool over;
    bool minus = txt[0] == '-';
    t->kind = TK_NUMBER;
    t->frac = 0;
    t->year_month = false;
    int64_t v = read_i64(txt, &p, &over);
    if (over) return R_FIELD;
    if (*p == '-') {
        int64_t mon = read_i64(p + 1, &p, &over);
        if (over || mon < 0 || mon > 11) return R_FIELD;
        if (*p) return R_SYNTAX;
        if (__builtin_mul_overflow(v, 12, &v) || __builtin_add_overflow(v, minus ? -mon : mon, &v)) return R_FIELD;
        t->year_month = true;
    } else if (*p == '.') {
        if (read_fraction(p, &t->frac)) return R_SYNTAX;
        if (minus) t->frac = -t->frac;
    } else if (*p) return R_SYNTAX;
    t->whole = v;
    return R_OK;
}

/* the lexer's kinds of raw text, before values are read */
enum { RAW_NUMBER, RAW_CLOCK, RAW_SIGNED, RAW_DATELIKE, RAW_WORD };

static void make_token(int raw, const char *txt, token *t) {
    t->fault = R_OK;
    t->unit = U_NONE;
    if (raw == RAW_WORD) {
        t->kind = TK_WORD;
        t->unit = lookup_unit(txt);   /* a signed word ('-day') is none */
        return;
    }
    int64_t us;
    if (raw == RAW_CLOCK || (raw == RAW_SIGNED && strchr(txt + 1, ':'))) {
        bool sign = raw == RAW_SIGNED;
        int rc = read_clock(txt + sign, &us);
        if (rc == R_OK) {
            t->kind = TK_CLOCK;
            t->whole = sign && txt[0] == '-' ? -us : us;
            return;
        }
        if (!sign) {              /* an unsigned time that does not read */
            t->kind = TK_NUMBER;
            t->fault = rc;
            return;
        }
        /* a signed one is read as a number (and fails as one) */
    }
    t->fault = read_number(txt, t);
}

typedef struct scanner {
    const char *s;
    size_t len, at;
    char text[TEXT_ROOM];   /* the tokens' text, each ended by a NUL */
    size_t used, start;     /* start: where the current token's text begins */
} scanner;

static int sc_peek(const scanner *sc) { return sc->at < sc->len ? (unsigned char)sc->s[sc->at] : -1; }

/* copies the current character into the token text */
static bool sc_take(scanner *sc, bool lower) {
    if (sc->used + 1 >= TEXT_ROOM) return false;
    int c = (unsigned char)sc->s[sc->at++];
    sc->text[sc->used++] = (char)(lower ? tolower(c) : c);
    return true;
}

/* takes the run of characters that are digits (digits), letters (alpha)
 * or in extra */
static bool sc_run(scanner *sc, bool digits, bool alpha, const char *extra, bool lower) {
    for (int c; (c = sc_peek(sc)) >= 0;) {
        bool in = (digits && isdigit(c)) || (alpha && isalpha(c)) || (c && extra && strchr(extra, c));
        if (!in) break;
        if (!sc_take(sc, lower)) return false;
    }
    return true;
}

/* One token's raw text from sc->at (not a space): its kind, or -1 for
 * bad text. */
static int sc_token(scanner *sc) {
    int c = sc_peek(sc);
    if (isdigit(c)) {
        if (!sc_run(sc, true, false, NULL, false)) return -1;
        int next = sc_peek(sc);
        if (next == ':')
            return sc_run(sc, true, false, ":.", false) ? RAW_CLOCK : -1;
        if (next != '-' && next != '/' && next != '.') return RAW_NUMBER;
        char sep[2] = { (char)next, 0 };
        if (!sc_take(sc, false)) return -1;
        if (!isdigit(sc_peek(sc)))   /* '1.x', '1-jan' */
            return sc_run(sc, true, true, sep, true) ? RAW_DATELIKE : -1;
        if (!sc_run(sc, true, false, NULL, false)) return -1;
        if (sc_peek(sc) == next)     /* a second separator: a date */
            return sc_run(sc, true, false, sep, false) ? RAW_DATELIKE : -1;
        return next == '.' ? RAW_NUMBER : RAW_DATELIKE;
    }
    if (c == '.') {
        if (!sc_take(sc, false) || !sc_run(sc, true, false, NULL, false)) return -1;
        return RAW_NUMBER;
    }
    if (isalpha(c)) {
        if (!sc_run(sc, false, true, NULL, true)) return -1;
        int next = sc_peek(sc);
        bool datelike = next == '-' || next == '/' || next == '.';
        if (!datelike && (next == '+' || isdigit(next))) {
            sc->text[sc->used] = 0;
            datelike = !date_word(sc->text + sc->start);
        }
        if (!datelike) return RAW_WORD;
        return sc_run(sc, true, true, "+-/_.:", true) ? RAW_DATELIKE : -1;
    }
    if (c == '+' || c == '-') {
        if (!sc_take(sc, false)) return -1;
        while (isspace(sc_peek(sc))) sc->at++;
        int next = sc_peek(sc);
        if (isdigit(next))
            return sc_take(sc, false) && sc_run(sc, true, false, ":.-", false) ? RAW_SIGNED : -1;
        if (isalpha(next)) return sc_run(sc, false, true, NULL, true) ? RAW_WORD : -1;
    }
    return -1;
}

/* Cuts s into at most MAX_TOKENS tokens: spaces and punctuation other than
 * '+', '-' and '.' only separate them. */
static int lex_interval(const char *s, size_t len, token *toks, int *n) {
    scanner sc = { .s = s, .len = len };
    *n = 0;
    for (;;) {
        while (isspace(sc_peek(&sc))) sc.at++;
        int c = sc_peek(&sc);
        if (c < 0) return R_OK;
        if (*n == MAX_TOKENS) return R_SYNTAX;
        if (!isalnum(c) && c != '.' && c != '+' && c != '-' && ispunct(c)) {
            sc.at++;
            continue;
        }
        sc.start = sc.used;
        int raw = sc_token(&sc);
        if (raw < 0) return R_SYNTAX;
        sc.text[sc.used++] = 0;
        make_token(raw, sc.text + sc.start, &toks[(*n)++]);
    }
}

/* The postgres form, read from the right. */
static int read_postgres(const char *s, size_t len, span_acc *a) {
    token toks[MAX_TOKENS];
    int n, rc = lex_interval(s, len, toks, &n);
    if (rc) return rc;
    memset(a, 0, sizeof *a);
    unsigned given = 0;      /* the units used so far */
    unit_t unit = U_NONE;    /* the unit of a number met now */
    bool ago = false;
    for (int i = n - 1; i >= 0; i--) {
        const token *t = &toks[i];
        unsigned claimed;
        switch (t->kind) {
        case TK_WORD:
            if (t->unit == U_NONE) return R_SYNTAX;
            if (t->unit == U_AGO) ago = true;
            unit = t->unit == U_AGO ? U_UNUSABLE : t->unit;
            continue;
        case TK_CLOCK:
            a->usec = t->whole;   /* a clock time replaces the time so far */
            claimed = CLOCK_UNITS;
            unit = U_DAY;         /* a number left of it is days */
            break;
        default:
            if (unit == U_NONE) unit = U_SEC;
            if (t->fault) return t->fault;
            if (t->year_month) unit = U_MONTH;
            if ((rc = acc_quantity(a, unit, t->whole, t->frac, &claimed))) return rc;
            if (unit == U_HOUR) unit = U_DAY;
            break;
        }
        if (claimed & given) return R_SYNTAX;
        given |= claimed;
    }
    if (!given) return R_SYNTAX;
    if (ago) {
        if (a->usec == INT64_MIN || a->days == INT32_MIN || a->months == INT32_MIN || a->years == INT32_MIN) return R_FIELD;
        a->usec = -a->usec;
        a->days = -a->days;
        a->months = -a->months;
        a->years = -a->years;
    }
    return R_OK;
}

/* ---- ISO 8601 durations ----
 * P, then date items nY nM nW nD, then T and time items nH nM nS, in any
 * order, each number possibly fractional or negative; or, without
 * designators, the alternative format: the date as YYYYMMDD or Y[-M[-D]],
 * the time as hhmmss or h[:m[:s]]. A T starts a time section (again). */

/* a number: what strtod reads, starting with a digit, '-' or '.';
 * PostgreSQL 15 takes none past 1e15 */
static int iso_number(const char **p, int64_t *whole, double *frac) {
    const char *s = *p;
    if (!(isdigit((unsigned char)*s) || *s == '-' || *s == '.')) return R_SYNTAX;
    char *e;
    errno = 0;
    double v = strtod(s, &e);
    if (e == s || errno) return R_SYNTAX;
    if (isnan(v) || fabs(v) > 1.0e15) return R_FIELD;
    *whole = (int64_t)trunc(v);
    *frac = v - (double)*whole;
    *p = e;
    return R_OK;
}

static size_t iso_digits(const char *s) { return strspn(s + (*s == '-'), "0123456789"); }

/* one item of the date section: the number at num (w + f), then the
 * character d after it, already passed */
static int iso_date_item(span_acc *a, const char **p, const char *num, int64_t w, double f, char d, bool *designated,
                         bool *timepart) {
    bool ok;
    switch (d) {
    case 'Y': ok = acc_years(a, w, 1, f); break;
    case 'M': ok = acc_months(a, w) && acc_frac_days(a, f, DAYS_PER_MONTH); break;
    case 'W': ok = acc_days(a, w, 7) && acc_frac_days(a, f, 7); break;
    case 'D': ok = acc_days(a, w, 1) && acc_time(a, 0, f, USECS_PER_DAY); break;
    case 'T': case '-': case '\0':
        if (d != '-' && iso_digits(num) == 8 && !*designated) {
            /* YYYYMMDD */
            if (!acc_years(a, w / 10000, 1, 0) || !acc_months(a, w / 100 % 100) || !acc_days(a, w % 100, 1) ||
                !acc_time(a, 0, f, USECS_PER_DAY))
                return R_FIELD;
            if (d == 'T') { *timepart = true; *designated = false; }
            return R_OK;
        }
        /* Y, Y-M or Y-M-D, only as the section's first item */
        if (*designated) return R_SYNTAX;
        if (!acc_years(a, w, 1, f)) return R_FIELD;
        if (d == 'T') { *timepart = true; *designated = false; }
        if (d != '-') return R_OK;
        int rc = iso_number(p, &w, &f);
        if (rc) return rc;
        if (!acc_months(a, w) || !acc_frac_days(a, f, DAYS_PER_MONTH)) return R_FIELD;
        if (**p == '-') {
            (*p)++;
            if ((rc = iso_number(p, &w, &f))) return rc;
            if (!acc_days(a, w, 1) || !acc_time(a, 0, f, USECS_PER_DAY)) return R_FIELD;
        }
        if (**p == 'T') { (*p)++; *timepart = true; *designated = false; }
        else if (**p) return R_SYNTAX;
        return R_OK;
    default:
        return R_SYNTAX;
    }
    if (!ok) return R_FIELD;
    *designated = true;
    return R_OK;
}

/* one item of a time section, as iso_date_item */
static int iso_time_item(span_acc *a, const char **p, const char *num, int64_t w, double f, char d, bool *designated) {
    bool ok;
    switch (d) {
    case 'H': ok = acc_time(a, w, f, USECS_PER_HOUR); break;
    case 'M': ok = acc_time(a, w, f, USECS_PER_MINUTE); break;
    case 'S': ok = acc_time(a, w, f, USECS_PER_SEC); break;
    case ':': case '\0':
        if (d == '\0' && iso_digits(num) == 6 && !*designated) {
            /* hhmmss: PostgreSQL 15 counts its fraction in microseconds */
            if (!acc_time(a, w / 10000, 0, USECS_PER_HOUR) || !acc_time(a, w / 100 % 100, 0, USECS_PER_MINUTE) ||
                !acc_time(a, w % 100, 0, USECS_PER_SEC) || !acc_time(a, 0, f, 1))
                return R_FIELD;
            return R_OK;
        }
        /* h, h:m or h:m:s, only as the section's first item */
        if (*designated) return R_SYNTAX;
        if (!acc_time(a, w, f, USECS_PER_HOUR)) return R_FIELD;
        if (d == '\0') return R_OK;
        int rc = iso_number(p, &w, &f);
        if (rc) return rc;
        if (!acc_time(a, w, f, USECS_PER_MINUTE)) return R_FIELD;
        if (**p == ':') {
            (*p)++;
            if ((rc = iso_number(p, &w, &f))) return rc;
            if (!acc_time(a, w, f, USECS_PER_SEC)) return R_FIELD;
        }
        return **p ? R_SYNTAX : R_OK;
    default:
        return R_SYNTAX;
    }
    if (!ok) return R_FIELD;
    *designated = true;
    return R_OK;
}

/* s is NUL-terminated */
static int read_iso(const char *s, span_acc *a) {
    memset(a, 0, sizeof *a);
    if (s[0] != 'P' || s[1] == 0) return R_SYNTAX;
    const char *p = s + 1;
    bool timepart = false, designated = false;
    while (*p) {
        if (*p == 'T') {
            timepart = true;
            designated = false;
            p++;
            continue;
        }
        const char *num = p;
        int64_t w;
        double f;
        int rc = iso_number(&p, &w, &f);
        if (rc) return rc;
        char d = *p;
        if (d) p++;
        rc = timepart ? iso_time_item(a, &p, num, w, f, d, &designated)
                      : iso_date_item(a, &p, num, w, f, d, &designated, &timepart);
        if (rc) return rc;
    }
    return R_OK;
}

/* IntervalStyle sql_standard reads '-1 2:00:00' as minus (1 day 2 hours):
 * a minus leading the first field applies to every field when no later
 * field carries a sign of its own, as PostgreSQL's DecodeInterval (the
 * postgres output signs every field after a negative one, so its text
 * reads back the same). */
static void sql_standard_signs(const char *s, size_t len, span_acc *a) {
    size_t i = 0;
    while (i < len && isspace((unsigned char)s[i])) i++;
    if (i == len || s[i] != '-') return;
    while (i < len && !isspace((unsigned char)s[i])) i++;
    while (i < len) {
        while (i < len && isspace((unsigned char)s[i])) i++;
        if (i < len && (s[i] == '-' || s[i] == '+')) return;
        while (i < len && !isspace((unsigned char)s[i])) i++;
    }
    if (a->usec > 0) a->usec = -a->usec;
    if (a->days > 0) a->days = -a->days;
    if (a->months > 0) a->months = -a->months;
    if (a->years > 0) a->years = -a->years;
}

int attu_interval_parse(const char *s, size_t len, attu_interval *out, attu_error *err) {
    span_acc a;
    int rc = read_postgres(s, len, &a);
    if (rc == 0 && attu_datestyle_session().interval == ATTU_INTERVALSTYLE_SQL_STANDARD) sql_standard_signs(s, len, &a);
    if (rc == R_SYNTAX && len >= 2 && s[0] == 'P') {
        /* then ISO 8601, as PostgreSQL tries it after the postgres form */
        if (memchr(s, 0, len)) return bad_interval(err, s, len);
        char small[256], *buf = len < sizeof small ? small : malloc(len + 1);
        if (!buf) return attu_error_oom(err);
        memcpy(buf, s, len);
        buf[len] = 0;
        rc = read_iso(buf, &a);
        if (buf != small) free(buf);
    }
    if (rc == R_SYNTAX) return bad_interval(err, s, len);
    if (rc == R_FIELD) return field_overflow(err, s, len);
    int64_t months = (int64_t)a.years * 12 + a.months;
    if (!fits32(months)) return attu_error_set(err, ATTU_SQLSTATE_DATETIME_OVERFLOW, 0, "interval out of range");
    out->months = (int32_t)months;
    out->days = a.days;
    out->usec = a.usec;
    return 0;
}

int attu_interval_sign(attu_interval iv) {
    __int128 span = attu_interval_span(iv);
    return span > 0 ? 1 : span < 0 ? -1 : 0;
}

/* PostgreSQL's range (4714-11-24 BC .. 294276 AD), cut at the int64 end of
 * microseconds since 1970 as attu's input does (types.c). */
int attu_timestamp_in_range(__int128 ts) {
    __int128 lo = (__int128)ATTU_DATE_MIN_DAYS * USECS_PER_DAY;
    __int128 hi = (__int128)attu_date_from_ymd(294277, 1, 1) * USECS_PER_DAY;
    return ts >= lo && ts < hi && ts < INT64_MAX;
}

static int64_t floor_div(int64_t a, int64_t b) {
    int64_t q = a / b;
    return (a % b != 0 && (a < 0) != (b < 0)) ? q - 1 : q;
}

int attu_timestamp_add_interval(int64_t ts, attu_interval iv, int64_t *out) {
    __int128 t = ts;
    if (iv.months) {
        int64_t day = floor_div(ts, USECS_PER_DAY), tod = ts - day * USECS_PER_DAY;
        int y, m, d;
        attu_date_to_ymd((int32_t)day, &y, &m, &d);
        int64_t mon = (int64_t)y * 12 + (m - 1) + iv.months;
        int64_t ny = mon >= 0 ? mon / 12 : -((-mon + 11) / 12), nm = mon - ny * 12 + 1;
        if (ny < -4713 || ny > 294277) return -1;
        int last = attu_days_in_month((int)ny, (int)nm);
        if (d > last) d = last;
        t = (__int128)attu_date_from_ymd((int)ny, (int)nm, d) * USECS_PER_DAY + tod;
        if (!attu_timestamp_in_range(t)) return -1;
    }
    if (iv.days) {
        t += (__int128)iv.days * USECS_PER_DAY;
        if (!attu_timestamp_in_range(t)) return -1;
    }
    t += iv.usec;
    if (!attu_timestamp_in_range(t)) return -1;
    *out = (int64_t)t;
    return 0;
}

int attu_timestamptz_add_interval(const struct attu_tz *z, int64_t ts, attu_interval iv, int64_t *out) {
    if (ts == INT64_MAX || ts == INT64_MIN) { *out = ts; return 0; }
    if (iv.months) {
        attu_interval m = { iv.months, 0, 0 };
        if (attu_timestamp_add_interval(attu_tz_to_local_us(z, ts), m, &ts)) return -1;
        ts = attu_tz_from_local_us(z, ts);
    }
    if (iv.days) {
        attu_interval d = { 0, iv.days, 0 };
        if (attu_timestamp_add_interval(attu_tz_to_local_us(z, ts), d, &ts)) return -1;
        ts = attu_tz_from_local_us(z, ts);
    }
    __int128 t = (__int128)ts + iv.usec;
    if (!attu_timestamp_in_range(t)) return -1;
    *out = (int64_t)t;
    return 0;
}

/* ---- the value type ------------------------------------------------------------ */


static int interval_range(attu_error *err) {
    return attu_error_set(err, ATTU_SQLSTATE_DATETIME_OVERFLOW, 0, "interval out of range");
}

__int128 attu_interval_span(attu_interval iv) {
    return ((__int128)iv.months * DAYS_PER_MONTH + iv.days) * USECS_PER_DAY + iv.usec;
}

int attu_interval_cmp(attu_interval a, attu_interval b) {
    __int128 x = attu_interval_span(a), y = attu_interval_span(b);
    return (x > y) - (x < y);
}

/* "n unit[s]" of the postgres style, a sign before a positive one after a
 * negative one */
static size_t put_part(char *o, size_t n, int64_t v, const char *unit, bool *zero, bool *before) {
    if (v == 0) return n;
    n += (size_t)sprintf(o + n, "%s%s%lld %s%s", *zero ? "" : " ", *before && v > 0 ? "+" : "", (long long)v, unit,
                         v != 1 ? "s" : "");
    *before = v < 0;
    *zero = false;
    return n;
}

size_t attu_interval_format(attu_interval iv, char *buf, size_t cap) {
    char o[ATTU_INTERVAL_STYLE_MAX];
    size_t n = 0;
    bool zero = true, before = false;
    attu_intervalstyle style = attu_datestyle_session().interval;
    if (style != ATTU_INTERVALSTYLE_POSTGRES) {
        n = attu_interval_format_styled(iv, style, o);
        goto out;
    }
    n = put_part(o, n, iv.months / 12, "year", &zero, &before);
    n = put_part(o, n, iv.months % 12, "mon", &zero, &before);
    n = put_part(o, n, iv.days, "day", &zero, &before);
    int64_t t = iv.usec;
    int64_t hour = t / USECS_PER_HOUR;
    t -= hour * USECS_PER_HOUR;
    int64_t min = t / USECS_PER_MINUTE;
    t -= min * USECS_PER_MINUTE;
    int64_t sec = t / USECS_PER_SEC, fsec = t - sec * USECS_PER_SEC;
    if (zero || hour || min || sec || fsec) {
        bool minus = hour < 0 || min < 0 || sec < 0 || fsec < 0;
        /* |hour| < 2^63 / 3.6e9: no overflow in negating */
        n += (size_t)sprintf(o + n, "%s%s%02lld:%02lld:%02lld", zero ? "" : " ", minus ? "-" : before ? "+" : "",
                             (long long)(hour < 0 ? -hour : hour), (long long)(min < 0 ? -min : min),
                             (long long)(sec < 0 ? -sec : sec));
        if (fsec) {
            char f[24];
            snprintf(f, sizeof f, "%06lld", (long long)(fsec < 0 ? -fsec : fsec));
            int k = 6;
            while (k > 0 && f[k - 1] == '0') k--;
            n += (size_t)sprintf(o + n, ".%.*s", k, f);
        }
    }
out:
    o[n] = 0;
    if (cap) {
        size_t w = n < cap - 1 ? n : cap - 1;
        memcpy(buf, o, w);
        buf[w] = 0;
        return w;
    }
    return n;
}

static int fields_fit(__int128 m, __int128 d, __int128 u, attu_interval *out, attu_error *err) {
    if (m < INT32_MIN || m > INT32_MAX || d < INT32_MIN || d > INT32_MAX || u < INT64_MIN || u > INT64_MAX)
        return interval_range(err);
    out->months = (int32_t)m;
    out->days = (int32_t)d;
    out->usec = (int64_t)u;
    return 0;
}

int attu_interval_add(attu_interval a, attu_interval b, attu_interval *out, attu_error *err) {
    return fields_fit((__int128)a.months + b.months, (__int128)a.days + b.days, (__int128)a.usec + b.usec, out, err);
}

int attu_interval_sub(attu_interval a, attu_interval b, attu_interval *out, attu_error *err) {
    return fields_fit((__int128)a.months - b.months, (__int128)a.days - b.days, (__int128)a.usec - b.usec, out, err);
}

int attu_interval_neg(attu_interval a, attu_interval *out, attu_error *err) {
    return fields_fit(-(__int128)a.months, -(__int128)a.days, -(__int128)a.usec, out, err);
}

/* rounded to the microsecond, as PostgreSQL's TSROUND */
static double ts_round(double x) { return rint(x * 1e6) / 1e6; }

/* The shared tail of interval_mul and interval_div: month_f and day_f are
 * the exact (double) products or quotients of the month and day fields,
 * usec_f that of the time. */
static int spill(double month_f, double day_f, double usec_f, attu_interval *out, attu_error *err) {
    if (isnan(month_f) || month_f >= 2147483648.0 || month_f <= -2147483649.0 ||
        isnan(day_f) || day_f >= 2147483648.0 || day_f <= -2147483649.0)
        return interval_range(err);
    int32_t months = (int32_t)month_f, days = (int32_t)day_f;
    double mrem_days = ts_round((month_f - months) * DAYS_PER_MONTH);
    double sec_rem = ts_round((day_f - days + mrem_days - (int32_t)mrem_days) * 86400.0);
    __int128 d = days;
    if (fabs(sec_rem) >= 86400.0) {
        d += (int32_t)(sec_rem / 86400.0);
        sec_rem -= (int32_t)(sec_rem / 86400.0) * 86400.0;
    }
    d += (int32_t)mrem_days;
    double t = rint(usec_f + sec_rem * 1e6);
    if (isnan(t) || t < -9223372036854775808.0 || t >= 9223372036854775808.0) return interval_range(err);
    return fields_fit(months, d, (__int128)(int64_t)t, out, err);
}

int attu_interval_mul(attu_interval a, double f, attu_interval *out, attu_error *err) {
    return spill((double)a.months * f, (double)a.days * f, (double)a.usec * f, out, err);
}

int attu_interval_div(attu_interval a, double f, attu_interval *out, attu_error *err) {
    if (f == 0) return attu_error_set(err, ATTU_SQLSTATE_DIVISION_BY_ZERO, 0, "division by zero");
    return spill((double)a.months / f, (double)a.days / f, (double)a.usec / f, out, err);
}

int attu_interval_justify(attu_interval a, int which, attu_interval *out, attu_error *err) {
    __int128 m = a.months, d = a.days, t = a.usec;
    if (which & 2) {
        __int128 whole = t / USECS_PER_DAY;
        t -= whole * USECS_PER_DAY;
        d += whole;
        /* justify_interval carries the days on into months first: PostgreSQL
           15 moves whole months out of the days beforehand, so only the
           months can overflow there */
        if (which == 2 && (d < INT32_MIN || d > INT32_MAX)) return interval_range(err);
    }
    if (which & 1) {
        __int128 whole = d / DAYS_PER_MONTH;
        d -= whole * DAYS_PER_MONTH;
        m += whole;
        if (m < INT32_MIN || m > INT32_MAX) return interval_range(err);
    }
    if (which == 1) {
        if (m > 0 && d < 0) { d += DAYS_PER_MONTH; m--; }
        else if (m < 0 && d > 0) { d -= DAYS_PER_MONTH; m++; }
    } else if (which == 2) {
        if (d > 0 && t < 0) { t += USECS_PER_DAY; d--; }
        else if (d < 0 && t > 0) { t -= USECS_PER_DAY; d++; }
    } else {
        if (m > 0 && (d < 0 || (d == 0 && t < 0))) { d += DAYS_PER_MONTH; m--; }
        else if (m < 0 && (d > 0 || (d == 0 && t > 0))) { d -= DAYS_PER_MONTH; m++; }
        if (d > 0 && t < 0) { t += USECS_PER_DAY; d--; }
        else if (d < 0 && t > 0) { t -= USECS_PER_DAY; d++; }
    }
    return fields_fit(m, d, t, out, err);
}

int attu_timestamp_diff(int64_t a, int64_t b, attu_interval *out, attu_error *err) {
    __int128 t = (__int128)a - b;
    if (t < INT64_MIN || t > INT64_MAX) return interval_range(err);
    attu_interval iv = { 0, 0, (int64_t)t };
    return attu_interval_justify(iv, 2, out, err);
}

/* a timestamp's calendar fields (astronomical years) */
typedef struct tm_fields { int64_t year, mon, mday, hour, min, sec, fsec; } tm_fields;

static void ts_fields(int64_t ts, tm_fields *f) {
    int64_t day = floor_div(ts, USECS_PER_DAY), tod = ts - day * USECS_PER_DAY;
    int y, m, d;
    attu_date_to_ymd((int32_t)day, &y, &m, &d);
    f->year = y; f->mon = m; f->mday = d;
    f->hour = tod / USECS_PER_HOUR;
    f->min = tod / USECS_PER_MINUTE % 60;
    f->sec = tod / USECS_PER_SEC % 60;
    f->fsec = tod % USECS_PER_SEC;
}

int attu_timestamp_age(int64_t a, int64_t b, attu_interval *out, attu_error *err) {
    tm_fields f1, f2;
    ts_fields(a, &f1);
    ts_fields(b, &f2);
    int64_t fsec = f1.fsec - f2.fsec, sec = f1.sec - f2.sec, min = f1.min - f2.min, hour = f1.hour - f2.hour,
            mday = f1.mday - f2.mday, mon = f1.mon - f2.mon, year = f1.year - f2.year;
    bool flip = a < b;
    if (flip) { fsec = -fsec; sec = -sec; min = -min; hour = -hour; mday = -mday; mon = -mon; year = -year; }
    /* borrow from the next larger field, a month's length from the earlier
     * timestamp's month */
    while (fsec < 0) { fsec += USECS_PER_SEC; sec--; }
    while (sec < 0) { sec += 60; min--; }
    while (min < 0) { min += 60; hour--; }
    while (hour < 0) { hour += 24; mday--; }
    while (mday < 0) {
        const tm_fields *e = flip ? &f1 : &f2;
        mday += attu_days_in_month((int)e->year, (int)e->mon);
        mon--;
    }
    while (mon < 0) { mon += 12; year--; }
    if (flip) { fsec = -fsec; sec = -sec; min = -min; hour = -hour; mday = -mday; mon = -mon; year = -year; }
    return fields_fit((__int128)year * 12 + mon, mday,
                      (((__int128)hour * 60 + min) * 60 + sec) * USECS_PER_SEC + fsec, out, err);
}

/* attu_extract_field's values, as expr_program.h numbers them */
enum { F_YEAR = 0, F_MONTH, F_DAY, F_HOUR, F_MINUTE, F_SECOND, F_DOW, F_DOY, F_QUARTER, F_EPOCH, F_WEEK, F_MS, F_US,
       F_DECADE, F_CENTURY, F_MILLENNIUM, F_ISOYEAR, F_ISODOW, F_JULIAN };
_Static_assert((int)F_MS == (int)ATTU_TRUNC_MILLISECONDS && (int)F_MILLENNIUM == (int)ATTU_TRUNC_MILLENNIUM &&
               (int)F_JULIAN == (int)ATTU_EXTRACT_JULIAN && (int)F_WEEK == (int)ATTU_EXTRACT_WEEK, "attu_extract_field's numbering");

static const char *field_name(int f) {
    static const char *names[] = { "year", "month", "day", "hour", "minute", "second", "dow", "doy", "quarter",
                                   "epoch", "week", "milliseconds", "microseconds", "decade", "century",
                                   "millennium", "isoyear", "isodow", "julian" };
    return f >= 0 && f < (int)(sizeof names / sizeof *names) ? names[f] : "?";
}

int attu_interval_extract(attu_interval iv, int field, __int128 *m, int *scale, attu_error *err) {
    int64_t year = iv.months / 12, mon = iv.months % 12, t = iv.usec;
    int64_t hour = t / USECS_PER_HOUR, min = t % USECS_PER_HOUR / USECS_PER_MINUTE, secus = t % USECS_PER_MINUTE;
    *scale = 0;
    switch (field) {
    case F_US: *m = secus; break;
    case F_MS: *m = secus; *scale = 3; break;
    case F_SECOND: *m = secus; *scale = 6; break;
    case F_MINUTE: *m = min; break;
    case F_HOUR: *m = hour; break;
    case F_DAY: *m = iv.days; break;
    case F_MONTH: *m = mon; break;
    case F_QUARTER: *m = mon / 3 + 1; break;
    case F_YEAR: *m = year; break;
    case F_DECADE: *m = year / 10; break;
    case F_CENTURY: *m = year / 100; break;
    case F_MILLENNIUM: *m = year / 1000; break;
    case F_EPOCH: {
        /* a year as 365.25 days, a month as 30 */
        __int128 secs = ((__int128)year * 1461 * 86400) / 4 + ((__int128)mon * DAYS_PER_MONTH + iv.days) * 86400;
        *m = secs * USECS_PER_SEC + t;
        *scale = 6;
        break;
    }
    default:
        return attu_error_set(err, ATTU_SQLSTATE_FEATURE_NOT_SUPPORTED, 0, "interval units \"%s\" not supported",
                              field_name(field));
    }
    return 0;
}

int attu_interval_trunc(attu_interval iv, int field, attu_interval *out, attu_error *err) {
    int64_t year = iv.months / 12, mon = iv.months % 12, day = iv.days, t = iv.usec;
    int64_t hour = t / USECS_PER_HOUR, min = t % USECS_PER_HOUR / USECS_PER_MINUTE;
    int64_t sec = t % USECS_PER_MINUTE / USECS_PER_SEC, fsec = t % USECS_PER_SEC;
    switch (field) {
    case F_MILLENNIUM: year = year / 1000 * 1000; mon = 0; day = 0; hour = min = sec = fsec = 0; break;
    case F_CENTURY: year = year / 100 * 100; mon = 0; day = 0; hour = min = sec = fsec = 0; break;
    case F_DECADE: year = year / 10 * 10; mon = 0; day = 0; hour = min = sec = fsec = 0; break;
    case F_YEAR: mon = 0; day = 0; hour = min = sec = fsec = 0; break;
    case F_QUARTER: mon = 3 * (mon / 3); day = 0; hour = min = sec = fsec = 0; break;
    case F_MONTH: day = 0; hour = min = sec = fsec = 0; break;
    case F_DAY: hour = min = sec = fsec = 0; break;
    case F_HOUR: min = sec = fsec = 0; break;
    case F_MINUTE: sec = fsec = 0; break;
    case F_SECOND: fsec = 0; break;
    case F_MS: fsec = fsec / 1000 * 1000; break;
    case F_US: break;
    case F_WEEK:
        return attu_error_set(err, ATTU_SQLSTATE_FEATURE_NOT_SUPPORTED, 0,
                              "interval units \"%s\" not supported because months usually have fractional weeks",
                              field_name(field));
    default:
        return attu_error_set(err, ATTU_SQLSTATE_FEATURE_NOT_SUPPORTED, 0, "interval units \"%s\" not supported",
                              field_name(field));
    }
    return fields_fit((__int128)year * 12 + mon, day,
                      (((__int128)hour * 60 + min) * 60 + sec) * USECS_PER_SEC + fsec, out, err);
}

int attu_make_interval(int64_t years, int64_t months, int64_t weeks, int64_t days, int64_t hours, int64_t mins,
                       double secs, attu_interval *out, attu_error *err) {
    if (isinf(secs) || isnan(secs)) return interval_range(err);
    double us = rint(secs * 1e6);
    if (us < -9223372036854775808.0 || us >= 9223372036854775808.0) return interval_range(err);
    return fields_fit((__int128)years * 12 + months, (__int128)weeks * 7 + days,
                      (__int128)hours * USECS_PER_HOUR + (__int128)mins * USECS_PER_MINUTE + (int64_t)us, out, err);
}

/* ---- field qualifiers ---------------------------------------------------- */

static int last_field(int range) {
    int f = 0;
    for (int b = 1; b <= ATTU_IVF_SECOND; b <<= 1)
        if (range & b) f = b;
    return f;
}

void attu_interval_qualify(attu_interval *iv, int range, int prec) {
    int last = last_field(range);
    if (last == ATTU_IVF_YEAR) {
        iv->months = iv->months / 12 * 12;
        iv->days = 0;
        iv->usec = 0;
    } else if (last == ATTU_IVF_MONTH) {
        iv->days = 0;
        iv->usec = 0;
    } else if (last == ATTU_IVF_DAY) {
        iv->usec = 0;
    } else if (last == ATTU_IVF_HOUR) {
        iv->usec = iv->usec / INT64_C(3600000000) * INT64_C(3600000000);
    } else if (last == ATTU_IVF_MINUTE) {
        iv->usec = iv->usec / INT64_C(60000000) * INT64_C(60000000);
    }
    if (prec >= 0 && prec < 6) {
        int64_t unit = 1;
        for (int i = prec; i < 6; i++) unit *= 10;
        int64_t half = unit / 2;
        /* PostgreSQL 15 adds the half unchecked, in its wrapping int64
         * arithmetic (near the end a value wraps to the other sign); the
         * sums here wrap the same way, in unsigned arithmetic, where C's
         * signed overflow would be undefined */
        if (iv->usec >= 0) iv->usec = (int64_t)((uint64_t)iv->usec + (uint64_t)half) / unit * unit;
        else iv->usec = (int64_t)(0 - (uint64_t)((int64_t)((0 - (uint64_t)iv->usec) + (uint64_t)half) / unit * unit));
    }
}

/* Whether s[0..len) is one signed number: digits with an optional
 * fraction. */
static bool bare_number(const char *s, size_t len) {
    size_t i = 0, digits = 0;
    if (i < len && (s[i] == '+' || s[i] == '-')) i++;
    while (i < len && isdigit((unsigned char)s[i])) { i++; digits++; }
    if (i < len && s[i] == '.') {
        i++;
        while (i < len && isdigit((unsigned char)s[i])) { i++; digits++; }
    }
    return digits > 0 && i == len;
}

int attu_interval_parse_qualified(const char *s, size_t len, int range, int prec,
                                  attu_interval *out, attu_error *err) {
    while (len && isspace((unsigned char)*s)) { s++; len--; }
    while (len && isspace((unsigned char)s[len - 1])) len--;
    int last = last_field(range);
    char buf[128];
    const char *txt = s;
    size_t tlen = len;
    if (last && len < 64 && bare_number(s, len)) {
        /* a number alone is a count of the qualifier's last field */
        const char *unit = last == ATTU_IVF_YEAR ? "years" : last == ATTU_IVF_MONTH ? "months"
                         : last == ATTU_IVF_DAY ? "days" : last == ATTU_IVF_HOUR ? "hours"
                         : last == ATTU_IVF_MINUTE ? "minutes" : "seconds";
        tlen = (size_t)snprintf(buf, sizeof buf, "%.*s %s", (int)len, s, unit);
        txt = buf;
    } else if (last && len < 64 && memchr(s, ' ', len)) {
        /* '1 day 2' HOUR: a number after a unit word is also a count of
         * the last field ('1 2' DAY TO HOUR is below) */
        size_t sp = len;
        while (sp > 0 && s[sp - 1] != ' ') sp--;
        size_t w = sp;
        while (w > 0 && s[w - 1] == ' ') w--;
        if (w > 0 && isalpha((unsigned char)s[w - 1]) && bare_number(s + sp, len - sp)) {
            const char *unit = last == ATTU_IVF_YEAR ? "years" : last == ATTU_IVF_MONTH ? "months"
                             : last == ATTU_IVF_DAY ? "days" : last == ATTU_IVF_HOUR ? "hours"
                             : last == ATTU_IVF_MINUTE ? "minutes" : "seconds";
            tlen = (size_t)snprintf(buf, sizeof buf, "%.*s %s", (int)len, s, unit);
            txt = buf;
        } else if (range == (ATTU_IVF_DAY | ATTU_IVF_HOUR)) {
            /* '1 2' DAY TO HOUR: days then hours */
            const char *sp1 = memchr(s, ' ', len);
            size_t a = (size_t)(sp1 - s), b0 = a;
            while (b0 < len && s[b0] == ' ') b0++;
            if (bare_number(s, a) && bare_number(s + b0, len - b0)) {
                tlen = (size_t)snprintf(buf, sizeof buf, "%.*s days %.*s hours", (int)a, s,
                                        (int)(len - b0), s + b0);
                txt = buf;
            }
        }
    } else if (range == (ATTU_IVF_MINUTE | ATTU_IVF_SECOND) && len < 64) {
        /* '1:30' MINUTE TO SECOND: minutes and seconds */
        const char *colon = memchr(s, ':', len);
        if (colon && !memchr(colon + 1, ':', len - (size_t)(colon - s) - 1) && !memchr(s, ' ', len)) {
            bool neg = *s == '-';
            size_t skip = (*s == '-' || *s == '+') ? 1 : 0;
            tlen = (size_t)snprintf(buf, sizeof buf, "%s00:%.*s", neg ? "-" : "", (int)(len - skip), s + skip);
            txt = buf;
        }
    }
    if (attu_interval_parse(txt, tlen, out, err)) return -1;
    attu_interval_qualify(out, range, prec);
    return 0;
}
