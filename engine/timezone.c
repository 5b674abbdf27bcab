/*
 * timezone.c - time zones: TZif files of the system's tz database, POSIX
 * TZ strings, fixed offsets, and the per-thread session zone
 * (engine/timezone.h says what each is for).
 *
 * A TZif file (RFC 8536) lists the instants at which a zone's offset
 * changes and the local time types between them; version 2 and later
 * files repeat the data with 64-bit instants and end with a POSIX TZ
 * string that rules every instant past the last listed one. The "slim"
 * files of recent tzdata list few transitions and leave the rest to that
 * string, so both halves are needed for any present-day date.
 */
#include "engine/timezone.h"
#include "engine/types.h"

#include <ctype.h>
#include <dirent.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#define ZONEINFO_DIR "/usr/share/zoneinfo"
#define TZ_NAME_MAX 255

/* ---- POSIX TZ strings ----------------------------------------------------- */

typedef struct posix_rule {
    char kind;          /* 'J': Jn (1..365, no Feb 29), 'N': n (0..365), 'M': Mm.w.d */
    int m, w, d, n;
    int32_t time;       /* seconds after local midnight (may be negative or past 24h) */
} posix_rule;

typedef struct posix_tz {
    char std[32], dst[32];
    int32_t std_off, dst_off;   /* east of Greenwich */
    bool has_dst;
    posix_rule start, end;
} posix_tz;

/* A zone name: letters, or anything but '>' between < and >. The
 * standard name may be empty ("+05:30"), as PostgreSQL allows. */
static const char *posix_name(const char *s, char *out, size_t cap, bool allow_empty) {
    size_t n = 0;
    if (*s == '<') {
        s++;
        while (*s && *s != '>') { if (n + 1 < cap) out[n++] = *s; s++; }
        if (*s != '>' || n == 0) return NULL;
        s++;
    } else {
        while (isalpha((unsigned char)*s)) { if (n + 1 < cap) out[n++] = *s; s++; }
        if (n == 0 && !allow_empty) return NULL;
    }
    out[n] = 0;
    return s;
}

/* [+-]hh[:mm[:ss]] -> seconds, hours up to max_h. */
static const char *posix_time(const char *s, int max_h, int32_t *out) {
    int sign = 1;
    if (*s == '+' || *s == '-') { if (*s == '-') sign = -1; s++; }
    int part[3] = { 0, 0, 0 };
    for (int i = 0; i < 3; i++) {
        if (!isdigit((unsigned char)*s)) return NULL;
        int v = 0, digits = 0;
        while (isdigit((unsigned char)*s) && digits < 3) { v = v * 10 + (*s++ - '0'); digits++; }
        if (isdigit((unsigned char)*s)) return NULL;
        part[i] = v;
        if (*s != ':') break;
        s++;
    }
    if (part[0] > max_h || part[1] > 59 || part[2] > 59) return NULL;
    *out = sign * (part[0] * 3600 + part[1] * 60 + part[2]);
    return s;
}

static const char *posix_rule_parse(const char *s, posix_rule *r) {
    char *end;
    if (*s == 'J') {
        r->kind = 'J';
        r->n = (int)strtol(s + 1, &end, 10);
        if (end == s + 1 || r->n < 1 || r->n > 365) return NULL;
    } else if (*s == 'M') {
        r->kind = 'M';
        r->m = (int)strtol(s + 1, &end, 10);
        if (end == s + 1 || *end != '.') return NULL;
        s = end + 1;
        r->w = (int)strtol(s, &end, 10);
        if (end == s || *end != '.') return NULL;
        s = end + 1;
        r->d = (int)strtol(s, &end, 10);
        if (end == s || r->m < 1 || r->m > 12 || r->w < 1 || r->w > 5 || r->d < 0 || r->d > 6) return NULL;
    } else if (isdigit((unsigned char)*s)) {
        r->kind = 'N';
        r->n = (int)strtol(s, &end, 10);
        if (r->n > 365) return NULL;
    } else {
        return NULL;
    }
    s = end;
    r->time = 7200;
    if (*s == '/' && !(s = posix_time(s + 1, 167, &r->time))) return NULL;
    return s;
}

/* Reads a whole POSIX TZ string. A daylight name without rules takes the
 * US rules, as PostgreSQL's TZDEFRULESTRING. */
static bool posix_parse(const char *s, posix_tz *z) {
    memset(z, 0, sizeof *z);
    int32_t off;
    if (!(s = posix_name(s, z->std, sizeof z->std, true))) return false;
    /* offsets of up to a week, as the tz code PostgreSQL carries */
    if (!(s = posix_time(s, 167, &off))) return false;
    z->std_off = -off;
    if (!*s) return true;
    if (!(s = posix_name(s, z->dst, sizeof z->dst, false))) return false;
    z->has_dst = true;
    z->dst_off = z->std_off + 3600;
    if (*s && *s != ',') {
        if (!(s = posix_time(s, 167, &off))) return false;
        z->dst_off = -off;
    }
    if (!*s) s = ",M3.2.0,M11.1.0";
    if (*s != ',' || !(s = posix_rule_parse(s + 1, &z->start))) return false;
    if (*s != ',' || !(s = posix_rule_parse(s + 1, &z->end))) return false;
    return *s == 0;
}

static bool leap_year(int y) { return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0; }

/* The day (since 1970-01-01) a rule falls on in year y. */
static int64_t rule_day(const posix_rule *r, int y) {
    int64_t jan1 = attu_date_from_ymd(y, 1, 1);
    if (r->kind == 'J') return jan1 + r->n - 1 + (leap_year(y) && r->n >= 60 ? 1 : 0);
    if (r->kind == 'N') return jan1 + r->n;
    int64_t first = attu_date_from_ymd(y, r->m, 1);
    /* 1970-01-01 was a Thursday (4) */
    int wd = (int)(((first % 7) + 7 + 4) % 7);
    int64_t day = first + ((r->d - wd + 7) % 7) + 7 * (r->w - 1);
    int64_t last = first + attu_days_in_month(y, r->m) - 1;
    while (day > last) day -= 7;
    return day;
}

static int32_t posix_offset_at(const posix_tz *z, int64_t t, const char **abbrev) {
    if (!z->has_dst) { if (abbrev) *abbrev = z->std; return z->std_off; }
    int y, m, d;
    int64_t days = (t + z->std_off) / 86400 - ((t + z->std_off) % 86400 < 0);
    if (days < ATTU_DATE_MIN_DAYS) days = ATTU_DATE_MIN_DAYS;
    if (days > 2000000000) days = 2000000000;
    attu_date_to_ymd((int32_t)days, &y, &m, &d);
    int64_t start = rule_day(&z->start, y) * 86400 + z->start.time - z->std_off;
    int64_t end = rule_day(&z->end, y) * 86400 + z->end.time - z->dst_off;
    bool dst = start < end ? (t >= start && t < end) : (t < end || t >= start);
    if (abbrev) *abbrev = dst ? z->dst : z->std;
    return dst ? z->dst_off : z->std_off;
}

/* ---- zones ---------------------------------------------------------------- */

typedef struct tz_type { int32_t off; uint8_t isdst, abbr; } tz_type;

struct attu_tz {
    int id;
    char name[TZ_NAME_MAX + 1];
    int ntrans, ntypes;
    int64_t *trans;       /* UTC seconds, ascending */
    uint8_t *idx;         /* the type from each transition on */
    tz_type *types;
    char *abbrs;
    int nabbrs;
    bool has_rule;
    posix_tz rule;        /* past the last transition (or everywhere, without a file) */
};

/* Every zone loaded, by id, and the texts that found them (each
 * lookup kind keeps its own texts: '-3' reads differently as a SET value
 * and as a name). */
typedef struct tz_alias { char kind; char *text; int id; } tz_alias;

static attu_tz utc_zone = { .id = 0, .name = "UTC", .rule = { .std = "UTC" } };

/* The zones by id in a fixed table, so that attu_tz_by_id, which every
 * row of a timestamptz conversion calls, reads it without the lock: a
 * slot is written before nzones (atomic) counts it, and never changes. */
#define MAX_ZONES 4096
static pthread_mutex_t tz_lock = PTHREAD_MUTEX_INITIALIZER;
static attu_tz *zones[MAX_ZONES] = { &utc_zone };
static int nzones = 1;
static tz_alias *aliases;
static int naliases, capaliases;
/* Under tz_lock. */
static int register_zone(attu_tz *z) {
    int n = __atomic_load_n(&nzones, __ATOMIC_RELAXED);
    if (n >= MAX_ZONES) return -1;
    z->id = n;
    zones[n] = z;
    __atomic_store_n(&nzones, n + 1, __ATOMIC_RELEASE);
    return 0;
}

static void remember_alias(char kind, const char *text, int id) {
    if (naliases == capaliases) {
        int cap = capaliases ? capaliases * 2 : 32;
        tz_alias *n = realloc(aliases, sizeof *n * (size_t)cap);
        if (!n) return;
        aliases = n;
        capaliases = cap;
    }
    char *t = strdup(text);
    if (!t) return;
    aliases[naliases].kind = kind;
    aliases[naliases].text = t;
    aliases[naliases++].id = id;
}

static int find_alias(char kind, const char *text) {
    for (int i = 0; i < naliases; i++)
        if (aliases[i].kind == kind && !strcmp(aliases[i].text, text)) return aliases[i].id;
    return -1;
}

static attu_tz *zone_by_name(const char *name) {
    for (int i = 0; i < nzones; i++) if (!strcmp(zones[i]->name, name)) return zones[i];
    return NULL;
}
/* (every function below that reads zones[] or nzones without the
 * atomic holds tz_lock) */

static int64_t be_int(const unsigned char *p, int n) {
    uint64_t v = 0;
    for (int i = 0; i < n; i++) v = v << 8 | p[i];
    if (n == 4) return (int32_t)(uint32_t)v;
    return (int64_t)v;
}

/* Parses a TZif file's bytes into z (64-bit data where the file has it). */
static bool tzif_parse(const unsigned char *b, size_t len, attu_tz *z) {
    if (len < 44 || memcmp(b, "TZif", 4)) return false;
    int version = b[4] ? b[4] - '0' : 1;
    const unsigned char *p = b;
    int tsize = 4;
    for (int pass = 0; pass < 2; pass++) {
        if ((size_t)(p - b) + 44 > len || memcmp(p, "TZif", 4)) return false;
        int64_t isut = be_int(p + 20, 4), isstd = be_int(p + 24, 4), leap = be_int(p + 28, 4),
                timecnt = be_int(p + 32, 4), typecnt = be_int(p + 36, 4), charcnt = be_int(p + 40, 4);
        if (isut < 0 || isstd < 0 || leap < 0 || timecnt < 0 || typecnt < 1 || typecnt > 256 || charcnt < 0 ||
            timecnt > 100000 || charcnt > 100000 || leap > 100000 || isut > 256 || isstd > 256)
            return false;
        size_t size = (size_t)(timecnt * tsize + timecnt + typecnt * 6 + charcnt + leap * (tsize + 4) + isstd + isut);
        p += 44;
        if ((size_t)(p - b) + size > len) return false;
        if (pass == 0 && version >= 2) { p += size; tsize = 8; continue; }
        z->ntrans = (int)timecnt;
        z->ntypes = (int)typecnt;
        z->nabbrs = (int)charcnt;
        z->trans = calloc((size_t)timecnt + 1, sizeof *z->trans);
        z->idx = calloc((size_t)timecnt + 1, 1);
        z->types = calloc((size_t)typecnt, sizeof *z->types);
        z->abbrs = calloc((size_t)charcnt + 1, 1);
        if (!z->trans || !z->idx || !z->types || !z->abbrs) return false;
        for (int i = 0; i < timecnt; i++) z->trans[i] = be_int(p + i * tsize, tsize);
        p += timecnt * tsize;
        for (int i = 0; i < timecnt; i++) {
            z->idx[i] = p[i];
            if (p[i] >= typecnt) return false;
        }
        p += timecnt;
        for (int i = 0; i < typecnt; i++, p += 6) {
            z->types[i].off = (int32_t)be_int(p, 4);
            z->types[i].isdst = p[4];
            z->types[i].abbr = p[5] < charcnt ? p[5] : 0;
        }
        memcpy(z->abbrs, p, (size_t)charcnt);
        p += charcnt + leap * (tsize + 4) + isstd + isut;
        if (tsize == 8 && (size_t)(p - b) < len && *p == '\n') {
            const unsigned char *e = memchr(p + 1, '\n', len - (size_t)(p + 1 - b));
            if (e && e > p + 1 && (size_t)(e - p - 1) < 128) {
                char footer[128];
                memcpy(footer, p + 1, (size_t)(e - p - 1));
                footer[e - p - 1] = 0;
                z->has_rule = posix_parse(footer, &z->rule);
            }
        }
        return true;
    }
    return false;
}

/* The tz database file named name (any case, part by part), its path
 * and its own spelling relative to the database. */
static bool zone_file(const char *name, char *path, size_t cap, char *spelled, size_t scap) {
    if (!*name || name[0] == '/' || strstr(name, "..") || strlen(name) > TZ_NAME_MAX) return false;
    snprintf(path, cap, "%s", ZONEINFO_DIR);
    size_t sl = 0;
    spelled[0] = 0;
    const char *p = name;
    while (*p) {
        size_t n = strcspn(p, "/");
        if (n == 0) return false;
        DIR *d = opendir(path);
        if (!d) return false;
        bool found = false;
        struct dirent *de;
        /* an exact spelling first, then any case */
        while ((de = readdir(d)) != NULL)
            if (strlen(de->d_name) == n && strncmp(de->d_name, p, n) == 0) { found = true; break; }
        if (!found) {
            rewinddir(d);
            while ((de = readdir(d)) != NULL)
                if (strlen(de->d_name) == n && strncasecmp(de->d_name, p, n) == 0) { found = true; break; }
        }
        if (found) {
            size_t l = strlen(path);
            snprintf(path + l, cap - l, "/%s", de->d_name);
            sl += (size_t)snprintf(spelled + sl, scap - sl, "%s%s", sl ? "/" : "", de->d_name);
        }
        closedir(d);
        if (!found || sl >= scap) return false;
        p += n;
        if (*p == '/') p++;
    }
    struct stat sb;
    return stat(path, &sb) == 0 && S_ISREG(sb.st_mode) && sb.st_size < (1 << 20);
}

bool attu_tz_database_has(const char *name) {
    char path[TZ_NAME_MAX + sizeof ZONEINFO_DIR + 2], spelled[TZ_NAME_MAX + 1];
    return zone_file(name, path, sizeof path, spelled, sizeof spelled);
}

static attu_tz *load_file(const char *path, const char *spelled) {
    attu_tz *have = zone_by_name(spelled);
    if (have) return have;
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    unsigned char *buf = malloc(1 << 20);
    size_t len = buf ? fread(buf, 1, 1 << 20, f) : 0;
    fclose(f);
    attu_tz *z = calloc(1, sizeof *z);
    if (!buf || !z || !tzif_parse(buf, len, z) || register_zone(z)) {
        free(buf);
        if (z) { free(z->trans); free(z->idx); free(z->types); free(z->abbrs); free(z); }
        return NULL;
    }
    free(buf);
    snprintf(z->name, sizeof z->name, "%s", spelled);
    return z;
}

static attu_tz *load_posix(const char *text) {
    attu_tz *have = zone_by_name(text);
    if (have) return have;
    posix_tz r;
    if (strlen(text) > TZ_NAME_MAX || !posix_parse(text, &r)) return NULL;
    attu_tz *z = calloc(1, sizeof *z);
    if (!z) return NULL;
    z->has_rule = true;
    z->rule = r;
    snprintf(z->name, sizeof z->name, "%s", text);
    if (register_zone(z)) { free(z); return NULL; }
    return z;
}

/* pg_tzset: a file of the database, else a POSIX string. Under tz_lock. */
static attu_tz *find_locked(const char *name) {
    if (!strcmp(name, "UTC")) return &utc_zone;
    char path[512], spelled[TZ_NAME_MAX + 1];
    if (zone_file(name, path, sizeof path, spelled, sizeof spelled)) {
        attu_tz *z = load_file(path, spelled);
        if (z) return z;
    }
    return load_posix(name);
}

static const attu_tz *lookup(char kind, const char *text, attu_tz *(*make)(const char *)) {
    pthread_mutex_lock(&tz_lock);
    int id = find_alias(kind, text);
    attu_tz *z = id >= 0 ? zones[id] : NULL;
    if (!z) {
        z = make(text);
        /* (unknown names are not remembered: the database may gain them) */
        if (z) remember_alias(kind, text, z->id);
    }
    pthread_mutex_unlock(&tz_lock);
    return z;
}

const attu_tz *attu_tz_utc(void) { return &utc_zone; }

const attu_tz *attu_tz_find(const char *name) { return lookup('n', name, find_locked); }

static void offset_text(int32_t east, char *buf, size_t cap) {
    int32_t a = east < 0 ? -east : east;
    int h = a / 3600, m = a / 60 % 60, s = a % 60;
    if (s) snprintf(buf, cap, "%02d:%02d:%02d", h, m, s);
    else if (m) snprintf(buf, cap, "%02d:%02d", h, m);
    else snprintf(buf, cap, "%02d", h);
}

static attu_tz *make_fixed(const char *name) { return find_locked(name); }

const attu_tz *attu_tz_fixed(int32_t east) {
    char o[16], name[48];
    offset_text(east, o, sizeof o);
    snprintf(name, sizeof name, "<%c%s>%c%s", east < 0 ? '-' : '+', o, east < 0 ? '+' : '-', o);
    return lookup('n', name, make_fixed);
}

const attu_tz *attu_tz_for_setting(const char *value) {
    char *end;
    double hours = strtod(value, &end);
    if (end != value && *end == 0) {
        if (!(hours >= -168 && hours <= 168)) return NULL;   /* PostgreSQL's limit: a week */
        double s = hours * 3600;
        return attu_tz_fixed((int32_t)(s < 0 ? s - 0.5 : s + 0.5));
    }
    return attu_tz_find(value);
}

/* PostgreSQL's default abbreviations (timezonesets/Default) that attu
 * knows, with their offsets east in minutes. IST is Israel's there. */
static const struct { const char *name; int minutes; } abbrevs[] = {
    {"utc", 0}, {"gmt", 0}, {"z", 0}, {"zulu", 0}, {"ut", 0}, {"est", -300}, {"edt", -240},
    {"cst", -360}, {"cdt", -300}, {"mst", -420}, {"mdt", -360}, {"pst", -480}, {"pdt", -420},
    {"akst", -540}, {"akdt", -480}, {"hst", -600}, {"ast", -240}, {"adt", -180}, {"nst", -210},
    {"ndt", -150}, {"bst", 60}, {"cet", 60}, {"cest", 120}, {"met", 60}, {"mest", 120},
    {"mez", 60}, {"mesz", 120}, {"eet", 120}, {"eest", 180}, {"wet", 0}, {"msk", 180},
    {"ist", 120}, {"jst", 540}, {"kst", 540}, {"hkt", 480}, {"sgt", 480}, {"aest", 600},
    {"aedt", 660}, {"acst", 570}, {"acdt", 630}, {"awst", 480}, {"nzst", 720}, {"nzdt", 780},
    {"nzt", 720}, {"eat", 180}, {"wat", 60}, {"sast", 120}, {"pkt", 300},
};

bool attu_tz_abbrev_offset(const char *lower, int32_t *east) {
    for (size_t i = 0; i < sizeof abbrevs / sizeof *abbrevs; i++)
        if (!strcmp(abbrevs[i].name, lower)) { *east = abbrevs[i].minutes * 60; return true; }
    return false;
}

static attu_tz *make_at(const char *name) {
    char low[16];
    size_t n = strlen(name);
    if (n < sizeof low) {
        for (size_t i = 0; i <= n; i++) low[i] = (char)tolower((unsigned char)name[i]);
        int32_t east;
        if (attu_tz_abbrev_offset(low, &east)) {
            /* a fixed offset under the abbreviation's own name */
            char posix[64], o[16];
            offset_text(east, o, sizeof o);
            for (size_t i = 0; i < n; i++) low[i] = (char)toupper((unsigned char)low[i]);
            snprintf(posix, sizeof posix, "<%s>%c%s", low, east <= 0 ? '+' : '-', o);
            return load_posix(posix);
        }
    }
    return find_locked(name);
}

const attu_tz *attu_tz_for_at(const char *name) { return lookup('a', name, make_at); }

int attu_tz_id(const attu_tz *z) { return z ? z->id : 0; }

const attu_tz *attu_tz_by_id(int id) {
    return id > 0 && id < __atomic_load_n(&nzones, __ATOMIC_ACQUIRE) ? zones[id] : &utc_zone;
}

const char *attu_tz_name(const attu_tz *z) { return z ? z->name : "UTC"; }

int32_t attu_tz_offset_at(const attu_tz *z, int64_t t, const char **abbrev) {
    if (!z) z = &utc_zone;
    /* past the last transition (or without any), the POSIX rule decides */
    if (z->has_rule && (z->ntrans == 0 || t >= z->trans[z->ntrans - 1])) return posix_offset_at(&z->rule, t, abbrev);
    if (z->ntypes == 0) { if (abbrev) *abbrev = z->rule.std; return z->rule.std_off; }
    int ti;
    if (z->ntrans == 0 || t < z->trans[0]) ti = 0;
    else {
        int lo = 0, hi = z->ntrans - 1;   /* the last transition at or before t */
        while (lo < hi) {
            int mid = (lo + hi + 1) / 2;
            if (z->trans[mid] <= t) lo = mid; else hi = mid - 1;
        }
        ti = z->idx[lo];
    }
    if (abbrev) *abbrev = z->abbrs + z->types[ti].abbr;
    return z->types[ti].off;
}

int32_t attu_tz_offset_local(const attu_tz *z, int64_t local) {
    /* the offsets a day either side: a wall time takes one that maps back
     * to it; two do in a fall-back (the later, smaller one wins), none in
     * a spring-forward gap (the earlier one, in force before it, wins) */
    int32_t a = attu_tz_offset_at(z, local - 90000, NULL), b = attu_tz_offset_at(z, local + 90000, NULL);
    bool av = attu_tz_offset_at(z, local - a, NULL) == a, bv = attu_tz_offset_at(z, local - b, NULL) == b;
    if (av && bv) return a < b ? a : b;
    if (av) return a;
    if (bv) return b;
    /* neither: a gap (or more than one change within the two days) */
    int32_t m = attu_tz_offset_at(z, local - a, NULL);
    return a < b ? a : (m < b ? m : b);
}

int64_t attu_tz_to_local_us(const attu_tz *z, int64_t us) {
    if (us == INT64_MIN || us == INT64_MAX) return us;
    int64_t sec = us / 1000000 - (us % 1000000 < 0);
    return us + (int64_t)attu_tz_offset_at(z, sec, NULL) * 1000000;
}

int64_t attu_tz_from_local_us(const attu_tz *z, int64_t us) {
    if (us == INT64_MIN || us == INT64_MAX) return us;
    int64_t sec = us / 1000000 - (us % 1000000 < 0);
    return us - (int64_t)attu_tz_offset_local(z, sec) * 1000000;
}

static _Thread_local const attu_tz *session_zone;
static _Thread_local int64_t txn_start_us;

void attu_tz_set_session(const attu_tz *z) { session_zone = z; }
const attu_tz *attu_tz_session(void) { return session_zone ? session_zone : &utc_zone; }
void attu_tz_set_txn_start(int64_t us) { txn_start_us = us; }
int64_t attu_tz_txn_start(void) { return txn_start_us; }
static _Thread_local int64_t stmt_start_us;
void attu_tz_set_stmt_start(int64_t us) { stmt_start_us = us; }
int64_t attu_tz_stmt_start(void) { return stmt_start_us; }
