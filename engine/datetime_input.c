/*
 * datetime_input.c - date and timestamp text as PostgreSQL 15 reads it
 * under the thread's DateStyle order (see datetime_input.h).
 *
 * Two passes, as PostgreSQL's documented interpretation works:
 *
 *  1. cut_fields() splits the text into typed fields: a number ("2001",
 *     "20010203", "040506.5"), a date ("2001-02-03", "03/02/2001",
 *     "2001.02.03", "feb-03-2001", "03-feb-2001"), a time ("04:05:06.5"),
 *     a word ("feb", "pm", "bc", "t"), a signed zone ("-08", "+05:30") or a
 *     signed word ("-infinity"). Other punctuation (",") only separates.
 *  2. decode() gives each field a meaning from the fields already seen
 *     (the mask of settled parts): a number is a year when it has three or
 *     more digits or comes where MDY order puts the year, six or eight
 *     digits are a run-together date (YYMMDD / YYYYMMDD) before any date
 *     part and a run-together time (HHMMSS / HHMM) after it, and so on.
 *
 * Errors follow PostgreSQL's split: a field that cannot be placed or a part
 * given twice is a syntax error (22007); a month past 12 or a day past 31
 * is 22008 with the DateStyle hint; a day past its month's end, hour 25 or
 * year 0 is 22008 without it.
 */
#include "engine/datetime_input.h"
#include "engine/datestyle.h"
#include "engine/timezone.h"

#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "engine/types.h"

/* ---- fields ---------------------------------------------------------------- */

enum { F_NUMBER, F_DATE, F_TIME, F_STRING, F_TZ, F_SPECIAL };

/* PostgreSQL keeps at most 25 fields and 128 bytes of field text; longer
 * input is a syntax error there, so it is here too. */
#define MAX_FIELDS 25
#define MAX_TEXT   129

typedef struct dt_field { int type; char *s; } dt_field;

static int is_digit(char c) { return c >= '0' && c <= '9'; }
static int is_alpha(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
static int is_alnum(char c) { return is_digit(c) || is_alpha(c); }
static int is_space(char c) { return c == ' ' || (c >= '\t' && c <= '\r'); }
static char lower(char c) { return (c >= 'A' && c <= 'Z') ? (char)(c + 32) : c; }
/* The C locale's ispunct: printable ASCII that is neither alnum nor space. */
static int is_punct(char c) { return c > ' ' && c < 127 && !is_alnum(c); }

/* ---- words ----------------------------------------------------------------- */

enum {
    W_UNKNOWN, W_MONTH, W_DOW, W_AMPM, W_ADBC, W_ISOTIME, W_IGNORE, W_RESERVED,
    W_ZONE, W_UNITS
};
/* values of W_RESERVED and W_UNITS */
enum { R_EPOCH, R_INFINITY, R_NINFINITY, R_ALLBALLS, R_RELATIVE };
enum { U_YEAR = 1, U_MONTH, U_DAY, U_HOUR, U_MINUTE, U_SECOND, U_JULIAN, U_TIME, U_OTHER };

typedef struct dt_word { const char *w; int kind, val; } dt_word;

/* The words of PostgreSQL's built-in table, and the zone abbreviations
 * that mean UTC (other zone names and abbreviations are not known here).
 * 'now', 'today', 'tomorrow' and 'yesterday' depend on the clock, which
 * attu's value input does not read: they are known words (so the field
 * splitting treats them as PostgreSQL does) but rejected. */
static const dt_word words[] = {
    {"jan", W_MONTH, 1}, {"january", W_MONTH, 1}, {"feb", W_MONTH, 2}, {"february", W_MONTH, 2},
    {"mar", W_MONTH, 3}, {"march", W_MONTH, 3}, {"apr", W_MONTH, 4}, {"april", W_MONTH, 4},
    {"may", W_MONTH, 5}, {"jun", W_MONTH, 6}, {"june", W_MONTH, 6}, {"jul", W_MONTH, 7},
    {"july", W_MONTH, 7}, {"aug", W_MONTH, 8}, {"august", W_MONTH, 8}, {"sep", W_MONTH, 9},
    {"sept", W_MONTH, 9}, {"september", W_MONTH, 9}, {"oct", W_MONTH, 10}, {"october", W_MONTH, 10},
    {"nov", W_MONTH, 11}, {"november", W_MONTH, 11}, {"dec", W_MONTH, 12}, {"december", W_MONTH, 12},
    {"sun", W_DOW, 0}, {"sunday", W_DOW, 0}, {"mon", W_DOW, 1}, {"monday", W_DOW, 1},
    {"tue", W_DOW, 2}, {"tues", W_DOW, 2}, {"tuesday", W_DOW, 2}, {"wed", W_DOW, 3},
    {"weds", W_DOW, 3}, {"wednesday", W_DOW, 3}, {"thu", W_DOW, 4}, {"thur", W_DOW, 4},
    {"thurs", W_DOW, 4}, {"thursday", W_DOW, 4}, {"fri", W_DOW, 5}, {"friday", W_DOW, 5},
    {"sat", W_DOW, 6}, {"saturday", W_DOW, 6},
    {"am", W_AMPM, 0}, {"pm", W_AMPM, 1}, {"ad", W_ADBC, 0}, {"bc", W_ADBC, 1},
    {"t", W_ISOTIME, U_TIME}, {"at", W_IGNORE, 0}, {"on", W_IGNORE, 0},
    {"epoch", W_RESERVED, R_EPOCH}, {"infinity", W_RESERVED, R_INFINITY},
    {"-infinity", W_RESERVED, R_NINFINITY}, {"allballs", W_RESERVED, R_ALLBALLS},
    {"now", W_RESERVED, R_RELATIVE}, {"today", W_RESERVED, R_RELATIVE},
    {"tomorrow", W_RESERVED, R_RELATIVE}, {"yesterday", W_RESERVED, R_RELATIVE},
    {"y", W_UNITS, U_YEAR}, {"m", W_UNITS, U_MONTH}, {"d", W_UNITS, U_DAY},
    {"h", W_UNITS, U_HOUR}, {"mm", W_UNITS, U_MINUTE}, {"s", W_UNITS, U_SECOND},
    {"j", W_UNITS, U_JULIAN}, {"jd", W_UNITS, U_JULIAN}, {"julian", W_UNITS, U_JULIAN},
    {"dow", W_UNITS, U_OTHER}, {"doy", W_UNITS, U_OTHER}, {"isodow", W_UNITS, U_OTHER},
    {"isoyear", W_UNITS, U_OTHER}, {"dst", W_UNITS, U_OTHER},
};
/* Time zone abbreviations of PostgreSQL's default set that attu knows by
 * name (each checked on PostgreSQL 15). timestamp without time zone drops
 * the zone, so only the name matters. The field splitter does not look
 * here, as PostgreSQL's consults its built-in table only. */
static const char *const zone_words[] = {
    "utc", "gmt", "z", "zulu", "ut", "est", "edt", "cst", "cdt", "mst", "mdt", "pst", "pdt",
    "akst", "akdt", "hst", "ast", "adt", "nst", "ndt", "bst", "cet", "cest", "met", "mest",
    "mez", "mesz", "eet", "eest", "wet", "msk", "ist", "jst", "kst", "hkt", "sgt", "aest",
    "aedt", "acst", "acdt", "awst", "nzst", "nzdt", "nzt", "eat", "wat", "sast", "pkt",
};

static const dt_word *find_word(const char *w) {
    for (size_t i = 0; i < sizeof words / sizeof *words; i++)
        if (!strcmp(words[i].w, w)) return &words[i];
    return NULL;
}

static int is_zone_word(const char *w) {
    for (size_t i = 0; i < sizeof zone_words / sizeof *zone_words; i++)
        if (!strcmp(zone_words[i], w)) return 1;
    return 0;
}

/* ---- pass 1: splitting ------------------------------------------------------ */

typedef struct splitter {
    const char *p, *e;
    char buf[MAX_TEXT];
    size_t used;
} splitter;

static int put(splitter *sp, char c) {
    if (sp->used + 1 >= MAX_TEXT) return -1;
    sp->buf[sp->used++] = c;
    return 0;
}

#define PUT(c) do { if (put(sp, (c))) return ATTU_DATETIME_BAD_FORMAT; } while (0)

static int cut_fields(splitter *sp, dt_field *f, int *nf) {
    int n = 0;
    while (sp->p < sp->e) {
        char c = *sp->p;
        if (is_space(c)) { sp->p++; continue; }
        if (n == MAX_FIELDS) return ATTU_DATETIME_BAD_FORMAT;
        char *start = sp->buf + sp->used;
        int type;
        if (is_digit(c)) {
            while (sp->p < sp->e && is_digit(*sp->p)) PUT(*sp->p++);
            char d = sp->p < sp->e ? *sp->p : 0;
            if (d == ':') {
                /* a time: digits, colons and a fraction */
                type = F_TIME;
                while (sp->p < sp->e && (is_digit(*sp->p) || *sp->p == ':' || *sp->p == '.')) PUT(*sp->p++);
            } else if (d == '-' || d == '/' || d == '.') {
                PUT(*sp->p++);
                if (sp->p < sp->e && is_digit(*sp->p)) {
                    /* "2001.5" is a number with a fraction; a second
                     * separator like the first makes a three-part date */
                    type = d == '.' ? F_NUMBER : F_DATE;
                    while (sp->p < sp->e && is_digit(*sp->p)) PUT(*sp->p++);
                    if (sp->p < sp->e && *sp->p == d) {
                        type = F_DATE;
                        while (sp->p < sp->e && (is_digit(*sp->p) || *sp->p == d)) PUT(*sp->p++);
                    }
                } else {
                    /* a month name inside: "03-feb-2001" */
                    type = F_DATE;
                    while (sp->p < sp->e && (is_alnum(*sp->p) || *sp->p == d)) PUT(lower(*sp->p++));
                }
            } else {
                type = F_NUMBER;
            }
        } else if (c == '.') {
            /* ".5": a fraction */
            PUT(*sp->p++);
            while (sp->p < sp->e && is_digit(*sp->p)) PUT(*sp->p++);
            type = F_NUMBER;
        } else if (is_alpha(c)) {
            type = F_STRING;
            while (sp->p < sp->e && is_alpha(*sp->p)) PUT(lower(*sp->p++));
            int as_date = 0;
            if (sp->p < sp->e) {
                char d = *sp->p;
                if (d == '-' || d == '/' || d == '.') as_date = 1;
                else if (d == '+' || is_digit(d)) {
                    /* "t040506" and "j2451187" are a known word and a
                     * number; anything else run into digits is one field */
                    sp->buf[sp->used] = 0;
                    as_date = find_word(start) == NULL;
                }
            }
            if (as_date) {
                type = F_DATE;
                while (sp->p < sp->e && (is_alnum(*sp->p) || *sp->p == '+' || *sp->p == '-' || *sp->p == '/' ||
                                         *sp->p == '_' || *sp->p == '.' || *sp->p == ':'))
                    PUT(lower(*sp->p++));
            }
        } else if (c == '+' || c == '-') {
            PUT(*sp->p++);
            while (sp->p < sp->e && is_space(*sp->p)) sp->p++;
            if (sp->p < sp->e && is_digit(*sp->p)) {
                type = F_TZ;
                while (sp->p < sp->e && (is_digit(*sp->p) || *sp->p == ':' || *sp->p == '.' || *sp->p == '-'))
                    PUT(*sp->p++);
            } else if (sp->p < sp->e && is_alpha(*sp->p)) {
                type = F_SPECIAL;
                while (sp->p < sp->e && is_alpha(*sp->p)) PUT(lower(*sp->p++));
            } else {
                return ATTU_DATETIME_BAD_FORMAT;
            }
        } else if (is_punct(c)) {
            sp->p++;
            continue;
        } else {
            return ATTU_DATETIME_BAD_FORMAT;
        }
        PUT('\0');
        f[n].type = type;
        f[n].s = start;
        n++;
    }
    *nf = n;
    return 0;
}

/* ---- pass 2: meaning --------------------------------------------------------- */

enum {
    M_YEAR = 1 << 0, M_MONTH = 1 << 1, M_DAY = 1 << 2, M_HOUR = 1 << 3, M_MINUTE = 1 << 4,
    M_SECOND = 1 << 5, M_FRAC = 1 << 6, M_TZ = 1 << 7, M_DOW = 1 << 8, M_DOY = 1 << 9,
    M_AMPM = 1 << 10, M_ADBC = 1 << 11, M_RESERV = 1 << 12,
    M_DATE = M_YEAR | M_MONTH | M_DAY,
    M_TIME = M_HOUR | M_MINUTE | M_SECOND | M_FRAC
};

typedef struct dt_state {
    int fmask;
    int year, month, day, doy, hour, minute, second;
    double usec;           /* rint(fraction * 10^6), as PostgreSQL keeps it */
    int is2digits;         /* the year was written with one or two digits */
    int text_month;        /* a month name was seen */
    int bc, julian, pm, ampm;
    int ptype;             /* the unit a preceding word ("t", "j", "y") gave */
    attu_datetime_kind kind;
    char tz_name[64];      /* a zone name no database knows (TZ_UNKNOWN), or
                              the name of a known one (tz_kind ZONE_NAME) */
    int tz_kind, tz_offset;   /* the zone written (attu_datetime_fields) */
} dt_state;

/* Whether a POSIX TZ string: a name of letters, an offset of hours
 * [:mm[:ss]] with an optional sign, and optionally a second (daylight)
 * name with its own optional offset ("utc+3", "est5edt"; PostgreSQL takes
 * "a+3" and "x5" too). Rules after a comma are not read (such a zone is
 * refused). */
static bool posix_zone(const char *s) {
    for (int part = 0; part < 2; part++) {
        int letters = 0;
        while (is_alpha(*s)) { s++; letters++; }
        if (letters < 1) return false;
        if (*s == '+' || *s == '-') s++;
        else if (!is_digit(*s)) return part == 1 && *s == '\0';
        if (!is_digit(*s)) return false;
        for (int f = 0; f < 3; f++) {
            int digits = 0;
            while (is_digit(*s)) { s++; digits++; }
            if (digits < 1 || digits > 2) return false;
            if (*s != ':') break;
            s++;
        }
        if (*s == '\0') return true;
    }
    return false;
}

/* The last name attu_tz_database_has answered, per thread: a column of
 * timestamps names the same zone row after row, and each lookup reads the
 * tz database's directories. */
static _Thread_local char last_zone[201];
static _Thread_local bool last_zone_known;

/* Whether name (lowercased, as the splitter keeps words) is a time zone:
 * a POSIX TZ string, or a zone of the system's tz database (whose names
 * PostgreSQL matches regardless of case), looked up a path part at a time.
 * Without a tz database only POSIX strings are known. */
static bool zone_name_known(const char *name) {
    if (posix_zone(name)) return true;
    if (!*name || name[0] == '/' || strstr(name, "..") || strlen(name) > 200) return false;
    if (last_zone[0] && strcmp(last_zone, name) == 0) return last_zone_known;
    bool known = attu_tz_database_has(name);
    strcpy(last_zone, name);
    last_zone_known = known;
    return known;
}

/* strtol-like: digits at s (none reads as 0, as PostgreSQL's strtoint
 * does); -2 past an int. */
static int read_int(const char *s, const char **end, int *val) {
    int64_t v = 0;
    while (is_digit(*s)) {
        v = v * 10 + (*s++ - '0');
        if (v > INT32_MAX) return ATTU_DATETIME_FIELD_RANGE;
    }
    *end = s;
    *val = (int)v;
    return 0;
}

/* ".789" -> 789000 microseconds, rounded as rint(x * 10^6). */
static int read_fraction(const char *s, double *usec) {
    char *end;
    /* PostgreSQL takes a bare point ("04:05:06.") as no fraction */
    if (s[0] == '.' && s[1] == '\0') { *usec = 0; return 0; }
    errno = 0;
    double v = strtod(s, &end);
    if (end == s || *end || errno) return ATTU_DATETIME_BAD_FORMAT;
    *usec = rint(v * 1000000.0);
    return 0;
}

/* "+05", "-0800", "+05:30", "-05:30:15" -> seconds east in *east. */
static int decode_zone(const char *s, int *east) {
    if (*s != '+' && *s != '-') return ATTU_DATETIME_BAD_FORMAT;
    const char *p;
    int hr, mi = 0, se = 0;
    if (read_int(s + 1, &p, &hr)) return ATTU_DATETIME_TZ_RANGE;
    if (*p == ':') {
        if (read_int(p + 1, &p, &mi)) return ATTU_DATETIME_TZ_RANGE;
        if (*p == ':' && read_int(p + 1, &p, &se)) return ATTU_DATETIME_TZ_RANGE;
    } else if (*p == '\0' && strlen(s) > 3) {
        /* run together: "+0530" */
        mi = hr % 100;
        hr /= 100;
    }
    if (hr > 15 || mi >= 60 || se >= 60) return ATTU_DATETIME_TZ_RANGE;
    if (*p) return ATTU_DATETIME_BAD_FORMAT;
    *east = (*s == '-' ? -1 : 1) * (hr * 3600 + mi * 60 + se);
    return 0;
}

/* "hh:mm", "hh:mm:ss[.frac]" or "mm:ss.frac". */
static int decode_time(dt_state *st, const char *s, int *tmask) {
    const char *p;
    int h, mi, se = 0, rc;
    double us = 0;
    *tmask = M_TIME;
    if ((rc = read_int(s, &p, &h))) return rc;
    if (*p != ':') return ATTU_DATETIME_BAD_FORMAT;
    if ((rc = read_int(p + 1, &p, &mi))) return rc;
    if (*p == '.') {
        /* two fields with a fraction are minutes and seconds */
        if ((rc = read_fraction(p, &us))) return rc;
        se = mi; mi = h; h = 0;
    } else if (*p == ':') {
        if ((rc = read_int(p + 1, &p, &se))) return rc;
        if (*p == '.') {
            if ((rc = read_fraction(p, &us))) return rc;
        } else if (*p) {
            return ATTU_DATETIME_BAD_FORMAT;
        }
    } else if (*p) {
        return ATTU_DATETIME_BAD_FORMAT;
    }
    if (mi > 59 || se > 60 || us > 1000000) return ATTU_DATETIME_FIELD_RANGE;
    /* 24:00:00 is the end of the day; nothing later */
    if (h > 24 || (h == 24 && (mi > 0 || se > 0 || us > 0))) return ATTU_DATETIME_FIELD_RANGE;
    /* each field may reach its limit (second 60), but not the whole time
     * past 24:00:00, as PostgreSQL checks a time written with colons
     * (time_overflows, before AM / PM applies): 23:59:60 is the next
     * midnight, 23:59:60.5 an error, 12:59:60.5 13:00:00.5 and 11:59:60.5
     * PM the next day's 00:00:00.5 (a run of digits, 235960.5, is not
     * checked so) */
    if (((int64_t)h * 3600 + (int64_t)mi * 60 + se) * 1000000LL + (int64_t)us > 86400000000LL)
        return ATTU_DATETIME_FIELD_RANGE;
    st->hour = h; st->minute = mi; st->second = se; st->usec = us;
    return 0;
}

/* A run of digits read by position: YYYYMMDD / YYMMDD while the date is
 * open, else HHMMSS / HHMM; a fraction makes it a time. */
static int decode_run(dt_state *st, const char *s, int fmask, int *tmask) {
    char d[MAX_TEXT];
    size_t len = strlen(s);
    memcpy(d, s, len + 1);
    char *dot = strchr(d, '.');
    int rc;
    *tmask = 0;
    if (dot) {
        if ((rc = read_fraction(dot, &st->usec))) return rc;
        *dot = 0;
        len = strlen(d);
    } else if ((fmask & M_DATE) != M_DATE && len >= 6) {
        const char *p;
        st->day = (d[len - 2] - '0') * 10 + (d[len - 1] - '0');
        st->month = (d[len - 4] - '0') * 10 + (d[len - 3] - '0');
        d[len - 4] = 0;
        if ((rc = read_int(d, &p, &st->year))) return rc;
        st->is2digits = len - 4 == 2;
        *tmask = M_DATE;
        return 0;
    }
    if ((fmask & M_TIME) != M_TIME) {
        if (len == 6 || len == 4) {
            st->hour = (d[0] - '0') * 10 + (d[1] - '0');
            st->minute = (d[2] - '0') * 10 + (d[3] - '0');
            st->second = len == 6 ? (d[4] - '0') * 10 + (d[5] - '0') : 0;
            *tmask = M_TIME;
            return 0;
        }
    }
    return ATTU_DATETIME_BAD_FORMAT;
}

/* One number of a date: which part it is depends on what is settled and
 * on the DateStyle order of the calling thread (datestyle.h), as
 * PostgreSQL's DecodeNumber: a first number of 3+ digits is always the
 * year, else it is the year, day or month as the order puts it first. */
static int decode_number(dt_state *st, const char *s, int text_month, int fmask, int *tmask) {
    const char *p;
    int val, rc;
    size_t flen = strlen(s);
    *tmask = 0;
    if ((rc = read_int(s, &p, &val))) return rc;
    if (p == s) return ATTU_DATETIME_BAD_FORMAT;
    if (*p == '.') {
        /* "2001.360", "040506.789": digits run together with a fraction */
        if (p - s > 2) return decode_run(st, s, fmask | M_DATE, tmask);
        if ((rc = read_fraction(p, &st->usec))) return rc;
    } else if (*p) {
        return ATTU_DATETIME_BAD_FORMAT;
    }
    /* three digits after a lone year: the day of the year */
    if (flen == 3 && (fmask & M_DATE) == M_YEAR && val >= 1 && val <= 366) {
        *tmask = M_DOY | M_MONTH | M_DAY;
        st->doy = val;
        return 0;
    }
    attu_datestyle_order order = attu_datestyle_session().order;
    switch (fmask & M_DATE) {
    case 0:
        if (flen >= 3 || order == ATTU_DATEORDER_YMD) { *tmask = M_YEAR; st->year = val; }
        else if (order == ATTU_DATEORDER_DMY) { *tmask = M_DAY; st->day = val; }
        else { *tmask = M_MONTH; st->month = val; }
        break;
    case M_YEAR:
        *tmask = M_MONTH; st->month = val;
        break;
    case M_MONTH:
        /* MON-YYYY-..., or YY-MON-DD under YMD */
        if (text_month && (flen >= 3 || order == ATTU_DATEORDER_YMD)) { *tmask = M_YEAR; st->year = val; }
        else { *tmask = M_DAY; st->day = val; }
        break;
    case M_YEAR | M_MONTH:
        if (text_month && flen >= 3 && st->is2digits) {
            /* "03-feb-2001": the short number first was the day */
            *tmask = M_DAY;
            st->day = st->year;
            st->year = val;
            st->is2digits = 0;
        } else {
            *tmask = M_DAY; st->day = val;
        }
        break;
    case M_DAY:
        *tmask = M_MONTH; st->month = val;
        break;
    case M_MONTH | M_DAY:
        *tmask = M_YEAR; st->year = val;
        break;
    case M_DATE:
        /* the date is complete: the number is a run-together time */
        return decode_run(st, s, fmask, tmask);
    default:
        return ATTU_DATETIME_BAD_FORMAT;
    }
    if (*tmask == M_YEAR) st->is2digits = flen <= 2;
    return 0;
}

/* A date field: parts separated by any punctuation, month names first
 * (they are unambiguous), then the numbers in order. It must complete the
 * date. */
static int decode_date(dt_state *st, const char *s, int fmask, int *tmask) {
    char d[MAX_TEXT];
    char *part[MAX_FIELDS];
    int n = 0, text_month = 0, rc;
    strcpy(d, s);
    char *p = d;
    *tmask = 0;
    while (*p && n < MAX_FIELDS) {
        while (*p && !is_alnum(*p)) p++;
        if (!*p) return ATTU_DATETIME_BAD_FORMAT;
        part[n++] = p;
        if (is_digit(*p)) while (is_digit(*p)) p++;
        else while (is_alpha(*p)) p++;
        /* the character after a part ends it, whatever it is (so "feb03"
         * loses its "0", as in PostgreSQL) */
        if (*p) *p++ = 0;
    }
    for (int i = 0; i < n; i++) {
        if (!is_alpha(*part[i])) continue;
        const dt_word *w = find_word(part[i]);
        if (w && w->kind == W_IGNORE) { part[i] = NULL; continue; }
        if (!w || w->kind != W_MONTH || (fmask & M_MONTH)) return ATTU_DATETIME_BAD_FORMAT;
        st->month = w->val;
        text_month = 1;
        fmask |= M_MONTH;
        *tmask |= M_MONTH;
        part[i] = NULL;
    }
    for (int i = 0; i < n; i++) {
        if (!part[i]) continue;
        int dmask;
        if ((rc = decode_number(st, part[i], text_month, fmask, &dmask))) return rc;
        if (fmask & dmask) return ATTU_DATETIME_BAD_FORMAT;
        fmask |= dmask;
        *tmask |= dmask;
    }
    if ((fmask & ~(M_DOY | M_TZ)) != M_DATE) return ATTU_DATETIME_BAD_FORMAT;
    return 0;
}

/* A number after a unit word: "t040506", "j2451187", "y2001". */
static int decode_labelled(dt_state *st, const char *s, int fmask, int *tmask) {
    const char *p;
    int val, rc;
    if ((rc = read_int(s, &p, &val))) return rc;
    if (*p == '.') {
        if (st->ptype != U_TIME && st->ptype != U_SECOND && st->ptype != U_JULIAN)
            return ATTU_DATETIME_BAD_FORMAT;
    } else if (*p) {
        return ATTU_DATETIME_BAD_FORMAT;
    }
    switch (st->ptype) {
    case U_YEAR: st->year = val; *tmask = M_YEAR; break;
    case U_MONTH:
        /* "m" after a month and an hour is minutes */
        if ((fmask & M_MONTH) && (fmask & M_HOUR)) { st->minute = val; *tmask = M_MINUTE; }
        else { st->month = val; *tmask = M_MONTH; }
        break;
    case U_DAY: st->day = val; *tmask = M_DAY; break;
    case U_HOUR: st->hour = val; *tmask = M_HOUR; break;
    case U_MINUTE: st->minute = val; *tmask = M_MINUTE; break;
    case U_SECOND:
        st->second = val;
        *tmask = M_SECOND;
        if (*p == '.') {
            if ((rc = read_fraction(p, &st->usec))) return rc;
            *tmask = M_SECOND | M_FRAC;
        }
        break;
    case U_JULIAN: {
        /* a Julian day number: day 2440588 is 1970-01-01 */
        int32_t days = (int32_t)((int64_t)val - 2440588);
        attu_date_to_ymd(days, &st->year, &st->month, &st->day);
        st->julian = 1;
        *tmask = M_DATE;
        if (*p == '.') {
            /* "J2451187.5": the fraction of the day is the time (noon) */
            char *end;
            errno = 0;
            double frac = strtod(p, &end);
            if (*end || errno) return ATTU_DATETIME_BAD_FORMAT;
            int64_t t = (int64_t)(frac * 86400000000.0);
            st->hour = (int)(t / 3600000000LL);
            t -= st->hour * 3600000000LL;
            st->minute = (int)(t / 60000000LL);
            t -= st->minute * 60000000LL;
            st->second = (int)(t / 1000000LL);
            st->usec = (double)(t - st->second * 1000000LL);
            *tmask |= M_TIME;
        }
        break;
    }
    case U_TIME:
        if ((rc = decode_run(st, s, fmask | M_DATE, tmask))) return rc;
        if (*tmask != M_TIME) return ATTU_DATETIME_BAD_FORMAT;
        break;
    default:
        return ATTU_DATETIME_BAD_FORMAT;
    }
    st->ptype = 0;
    return 0;
}

static int decode(dt_state *st, dt_field *f, int nf) {
    int rc;
    for (int i = 0; i < nf; i++) {
        int tmask = 0;
        const char *s = f[i].s;
        switch (f[i].type) {
        case F_DATE:
            if (st->ptype || (st->fmask & (M_MONTH | M_DAY)) == (M_MONTH | M_DAY)) {
                /* after a complete month and day (or "t"), a field with a
                 * dash is a run-together time and a zone, "040506-08";
                 * named zones ("America/New_York") are not known here */
                if (st->ptype && st->ptype != U_TIME) return ATTU_DATETIME_BAD_FORMAT;
                if (!st->ptype && !is_digit(*s)) {
                    /* a zone name, as PostgreSQL's pg_tzset reads it
                     * ("america/new_york", "utc+3"): checked and dropped;
                     * a name it does not know is 22023 there ("a.m.") */
                    snprintf(st->tz_name, sizeof st->tz_name, "%s", s);
                    if (!zone_name_known(s)) return ATTU_DATETIME_TZ_UNKNOWN;
                    st->tz_kind = ATTU_DATETIME_ZONE_NAME;
                    tmask = M_TZ;
                    break;
                }
                st->ptype = 0;
                if (!is_digit(*s)) return ATTU_DATETIME_BAD_FORMAT;
                if ((st->fmask & M_TIME) == M_TIME) return ATTU_DATETIME_BAD_FORMAT;
                const char *dash = strchr(s, '-');
                if (!dash) return ATTU_DATETIME_BAD_FORMAT;
                if ((rc = decode_zone(dash, &st->tz_offset))) return rc;
                st->tz_kind = ATTU_DATETIME_ZONE_OFFSET;
                char run[MAX_TEXT];
                memcpy(run, s, (size_t)(dash - s));
                run[dash - s] = 0;
                if ((rc = decode_run(st, run, st->fmask, &tmask))) return rc;
                tmask |= M_TZ;
            } else if ((rc = decode_date(st, s, st->fmask, &tmask))) {
                return rc;
            }
            break;
        case F_TIME:
            if (st->ptype) {
                if (st->ptype != U_TIME) return ATTU_DATETIME_BAD_FORMAT;
                st->ptype = 0;
            }
            if ((rc = decode_time(st, s, &tmask))) return rc;
            break;
        case F_TZ:
            if ((rc = decode_zone(s, &st->tz_offset))) return rc;
            st->tz_kind = ATTU_DATETIME_ZONE_OFFSET;
            tmask = M_TZ;
            break;
        case F_NUMBER: {
            if (st->ptype) {
                if ((rc = decode_labelled(st, s, st->fmask, &tmask))) return rc;
                break;
            }
            size_t flen = strlen(s);
            const char *dot = strchr(s, '.');
            if (dot && !(st->fmask & M_DATE)) {
                /* "2001.034" before any date part: a date with dots */
                if ((rc = decode_date(st, s, st->fmask, &tmask))) return rc;
            } else if (dot && (size_t)(dot - s) > 2) {
                if ((rc = decode_run(st, s, st->fmask, &tmask))) return rc;
            } else if (flen >= 6 && (!(st->fmask & M_DATE) || !(st->fmask & M_TIME))) {
                /* six or more digits: a run-together date or time, unless
                 * both have begun (then it is a long year at the end) */
                if ((rc = decode_run(st, s, st->fmask, &tmask))) return rc;
            } else if ((rc = decode_number(st, s, st->text_month, st->fmask, &tmask))) {
                return rc;
            }
            break;
        }
        case F_STRING:
        case F_SPECIAL: {
            const dt_word *w = find_word(s);
            if (!w) {
                if (f[i].type == F_STRING && is_zone_word(s)) {
                    int32_t east = 0;
                    attu_tz_abbrev_offset(s, &east);
                    st->tz_kind = ATTU_DATETIME_ZONE_OFFSET;
                    st->tz_offset = east;
                    tmask = M_TZ;
                    break;
                }
                /* an all-letter zone of the tz database ("japan", "zulu"),
                 * as PostgreSQL tries before it gives up */
                if (f[i].type == F_STRING && zone_name_known(s)) {
                    snprintf(st->tz_name, sizeof st->tz_name, "%s", s);
                    st->tz_kind = ATTU_DATETIME_ZONE_NAME;
                    tmask = M_TZ;
                    break;
                }
                return ATTU_DATETIME_BAD_FORMAT;
            }
            switch (w->kind) {
            case W_IGNORE: continue;
            case W_MONTH:
                tmask = M_MONTH;
                /* "3 feb 2001": a lone number read as the month was the day */
                if ((st->fmask & M_MONTH) && !st->text_month && !(st->fmask & M_DAY) &&
                    st->month >= 1 && st->month <= 31) {
                    st->day = st->month;
                    tmask = M_DAY;
                }
                st->text_month = 1;
                st->month = w->val;
                break;
            case W_DOW: tmask = M_DOW; break;
            case W_AMPM: tmask = M_AMPM; st->ampm = 1; st->pm = w->val; break;
            case W_ADBC: tmask = M_ADBC; st->bc = w->val; break;
            case W_RESERVED:
                if (w->val == R_RELATIVE) return ATTU_DATETIME_BAD_FORMAT;
                if (w->val == R_ALLBALLS) {
                    /* midnight UTC */
                    tmask = M_TIME | M_TZ;
                    st->tz_kind = ATTU_DATETIME_ZONE_OFFSET;
                    st->tz_offset = 0;
                    st->hour = st->minute = st->second = 0;
                    st->usec = 0;
                    break;
                }
                /* epoch and [-]infinity take only their own place, as
                 * PostgreSQL's RESERV mask: other fields are still read and
                 * checked, then left out ('epoch 04:05:06+05' is the epoch,
                 * 'infinity 23:59:60.5' an error; were 22007) */
                tmask = M_RESERV;
                st->kind = w->val == R_EPOCH ? ATTU_DATETIME_EPOCH
                         : w->val == R_INFINITY ? ATTU_DATETIME_INFINITY : ATTU_DATETIME_NINFINITY;
                break;
            case W_ISOTIME:
                /* "t" needs a whole date before it and a time after it */
                if ((st->fmask & M_DATE) != M_DATE) return ATTU_DATETIME_BAD_FORMAT;
                if (i + 1 >= nf || (f[i + 1].type != F_NUMBER && f[i + 1].type != F_TIME && f[i + 1].type != F_DATE))
                    return ATTU_DATETIME_BAD_FORMAT;
                st->ptype = U_TIME;
                break;
            case W_UNITS:
                st->ptype = w->val;
                break;
            default:
                return ATTU_DATETIME_BAD_FORMAT;
            }
            break;
        }
        default:
            return ATTU_DATETIME_BAD_FORMAT;
        }
        if (tmask & st->fmask) return ATTU_DATETIME_BAD_FORMAT;
        st->fmask |= tmask;
    }
    return 0;
}

/* PostgreSQL's checks once every field has a meaning: the era and the
 * two-digit year, the day of the year, then month and day ranges. */
static int validate(dt_state *st) {
    int fmask = st->fmask;
    if (fmask & M_YEAR) {
        if (st->julian) {
            /* already astronomical */
        } else if (st->bc) {
            if (st->year <= 0) return ATTU_DATETIME_FIELD_RANGE;
            st->year = 1 - st->year;
        } else if (st->is2digits) {
            /* 00..69 -> 2000s, 70..99 -> 1900s */
            if (st->year < 70) st->year += 2000;
            else if (st->year < 100) st->year += 1900;
        } else if (st->year <= 0) {
            return ATTU_DATETIME_FIELD_RANGE;   /* there is no year 0 */
        }
    }
    if (fmask & M_DOY) {
        if (st->year < -4714 || st->year > 5874898) {
            /* far outside the date range (which the caller reports): no
             * day count for it fits an int32 */
            st->month = st->day = 1;
        } else {
            int32_t days = attu_date_from_ymd(st->year, 1, 1) + st->doy - 1;
            attu_date_to_ymd(days, &st->year, &st->month, &st->day);
        }
    }
    if ((fmask & M_MONTH) && (st->month < 1 || st->month > 12)) return ATTU_DATETIME_MD_RANGE;
    if ((fmask & M_DAY) && (st->day < 1 || st->day > 31)) return ATTU_DATETIME_MD_RANGE;
    if ((fmask & M_DATE) == M_DATE) {
        if (st->day > attu_days_in_month(st->year, st->month)) return ATTU_DATETIME_FIELD_RANGE;
    }
    return 0;
}

static int two_digits(const char *p, int *v) {
    if (!is_digit(p[0]) || !is_digit(p[1])) return 0;
    *v = (p[0] - '0') * 10 + (p[1] - '0');
    return 1;
}

/* The ISO forms that COPY reads by the million, "YYYY-MM-DD" and
 * "YYYY-MM-DD HH:MM[:SS[.ffffff]]" (or a T), read straight into the state
 * the general path would build (about 4x faster than splitting them).
 * Anything else, and any time field the general path would check (24:00,
 * second 60, past 6 fraction digits), returns 0 and goes the general way,
 * which gives the same value or the error. */
static int iso_fast(const char *s, size_t len, dt_state *st) {
    while (len && is_space(*s)) { s++; len--; }
    while (len && is_space(s[len - 1])) len--;
    int y1, y2, mo, d, h, mi, se = 0, us = 0;
    if (len < 10 || !two_digits(s, &y1) || !two_digits(s + 2, &y2) || s[4] != '-' ||
        !two_digits(s + 5, &mo) || s[7] != '-' || !two_digits(s + 8, &d))
        return 0;
    st->year = y1 * 100 + y2;
    st->month = mo;
    st->day = d;
    st->fmask = M_DATE;
    if (len == 10) return 1;
    if (len < 16 || (s[10] != ' ' && s[10] != 'T' && s[10] != 't') || !two_digits(s + 11, &h) ||
        s[13] != ':' || !two_digits(s + 14, &mi))
        return 0;
    size_t i = 16;
    if (i < len) {
        if (s[i] != ':' || len < 19 || !two_digits(s + 17, &se)) return 0;
        i = 19;
        if (i < len) {
            /* 1 to 6 digits are exact in microseconds, as rint(x * 10^6) */
            if (s[i] != '.' || len - i < 2 || len - i > 7) return 0;
            int scale = 100000;
            for (i++; i < len; i++, scale /= 10) {
                if (!is_digit(s[i])) return 0;
                us += (s[i] - '0') * scale;
            }
        }
    }
    if (h > 23 || mi > 59 || se > 59) return 0;
    st->hour = h;
    st->minute = mi;
    st->second = se;
    st->usec = us;
    st->fmask |= M_TIME;
    return 1;
}

int attu_datetime_parse(const char *s, size_t len, attu_datetime_fields *out) {
    splitter sp;
    dt_field f[MAX_FIELDS];
    int nf = 0, rc;
    dt_state st;
    memset(&st, 0, sizeof st);
    if (!iso_fast(s, len, &st)) {
        memset(&st, 0, sizeof st);
        sp.p = s;
        sp.e = s + len;
        sp.used = 0;
        if ((rc = cut_fields(&sp, f, &nf))) return rc;
        if ((rc = decode(&st, f, nf))) {
            if (rc == ATTU_DATETIME_TZ_UNKNOWN) snprintf(out->tz_name, sizeof out->tz_name, "%s", st.tz_name);
            return rc;
        }
    }
    memset(out, 0, sizeof *out);
    if (st.kind != ATTU_DATETIME_FINITE) {
        out->kind = st.kind;
        return 0;
    }
    if ((rc = validate(&st))) return rc;
    if (st.ampm) {
        if (st.hour > 12) return ATTU_DATETIME_FIELD_RANGE;
        if (!st.pm && st.hour == 12) st.hour = 0;
        else if (st.pm && st.hour != 12) st.hour += 12;
    }
    /* a time alone, or half a date, is no date */
    if ((st.fmask & M_DATE) != M_DATE) return ATTU_DATETIME_BAD_FORMAT;
    out->kind = ATTU_DATETIME_FINITE;
    out->year = st.year;
    out->month = st.month;
    out->day = st.day;
    out->hour = st.hour;
    out->minute = st.minute;
    out->second = st.second;
    out->usec = (int)st.usec;
    out->tz_kind = st.tz_kind;
    out->tz_offset = st.tz_offset;
    if (st.tz_kind == ATTU_DATETIME_ZONE_NAME) snprintf(out->tz_name, sizeof out->tz_name, "%s", st.tz_name);
    return 0;
}
