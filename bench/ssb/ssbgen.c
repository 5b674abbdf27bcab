/*
 * ssbgen: a Star Schema Benchmark data generator.
 *
 * Writes lineorder.csv, customer.csv, supplier.csv, part.csv and date.csv
 * (comma separated, no header, RFC 4180 quoting) for any scale factor SF,
 * following the SSB specification (O'Neil, O'Neil, Chen, "Star Schema
 * Benchmark", rev. 3) and the dbgen rules it inherits from TPC-H:
 *
 *   lineorder  ~6,000,000 * SF rows: 1,500,000 * SF orders of 1..7 lines
 *   customer      30,000 * SF
 *   supplier       2,000 * SF
 *   part         200,000 * (1 + floor(log2 SF))   (200,000 * SF below SF 1)
 *   date       2,556 rows: every day of 1992..1998
 *
 * Value distributions (the ones the 13 queries filter and group on):
 *   lo_quantity 1..50, lo_discount 0..10, lo_tax 0..8 (uniform),
 *   lo_orderdate uniform over [1992-01-01, 1998-08-02], lo_commitdate
 *   30..90 days later, lo_extendedprice = quantity * p_retailprice,
 *   lo_revenue = extendedprice * (100 - discount) / 100, lo_supplycost =
 *   6 * p_retailprice / 10; c_/s_nation uniform over the 25 TPC-H nations,
 *   c_/s_city = the nation's first 9 characters + a digit 0..9; p_mfgr
 *   MFGR#1..5, p_category MFGR#11..55, p_brand1 MFGR#<category><1..40>.
 *   Like dbgen, every third customer key places no orders.
 *
 * Determinism: every row draws from a random stream seeded by (table, row
 * or order number), so the files are identical whatever the thread count.
 *
 * Parallelism: lineorder (the only big table) is cut into chunks of orders;
 * worker threads take chunks in turn, format them into private buffers, and
 * append them to the file strictly in chunk order, so one ordered file comes
 * out while all cores generate.
 */
#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* ---- random streams ---------------------------------------------------- */

/* splitmix64: a tiny, good-quality generator whose state is one integer, so a
 * stream per row costs nothing to create. */
typedef struct { uint64_t s; } rng_t;

static uint64_t rng_next(rng_t *r) {
    uint64_t z = (r->s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

static rng_t rng_for(uint64_t table, uint64_t key) {
    rng_t r = { (table << 56) ^ (key * 0xD6E8FEB86659FD93ull) ^ 0x5353424745ull };
    rng_next(&r);
    return r;
}

/* Uniform integer in [lo, hi]. */
static int64_t rnd(rng_t *r, int64_t lo, int64_t hi) {
    return lo + (int64_t)(rng_next(r) % (uint64_t)(hi - lo + 1));
}

/* ---- vocabularies (TPC-H / SSB spec lists) ----------------------------- */

static const char *const NATIONS[25] = {
    "ALGERIA", "ARGENTINA", "BRAZIL", "CANADA", "EGYPT", "ETHIOPIA",
    "FRANCE", "GERMANY", "INDIA", "INDONESIA", "IRAN", "IRAQ", "JAPAN",
    "JORDAN", "KENYA", "MOROCCO", "MOZAMBIQUE", "PERU", "CHINA", "ROMANIA",
    "SAUDI ARABIA", "VIETNAM", "RUSSIA", "UNITED KINGDOM", "UNITED STATES"};
static const int NATION_REGION[25] = {0, 1, 1, 1, 4, 0, 3, 3, 2, 2, 4, 4, 2,
                                      4, 0, 0, 0, 1, 2, 3, 4, 2, 3, 3, 1};
static const char *const REGIONS[5] = {"AFRICA", "AMERICA", "ASIA", "EUROPE",
                                       "MIDDLE EAST"};
static const char *const SEGMENTS[5] = {"AUTOMOBILE", "BUILDING", "FURNITURE",
                                        "HOUSEHOLD", "MACHINERY"};
static const char *const PRIORITIES[5] = {"1-URGENT", "2-HIGH", "3-MEDIUM",
                                          "4-NOT SPECI", "5-LOW"};
static const char *const SHIPMODES[7] = {"REG AIR", "AIR", "RAIL", "SHIP",
                                         "TRUCK", "MAIL", "FOB"};
static const char *const COLORS[92] = {
    "almond", "antique", "aquamarine", "azure", "beige", "bisque", "black",
    "blanched", "blue", "blush", "brown", "burlywood", "burnished",
    "chartreuse", "chiffon", "chocolate", "coral", "cornflower", "cornsilk",
    "cream", "cyan", "dark", "deep", "dim", "dodger", "drab", "firebrick",
    "floral", "forest", "frosted", "gainsboro", "ghost", "goldenrod", "green",
    "grey", "honeydew", "hot", "indian", "ivory", "khaki", "lace", "lavender",
    "lawn", "lemon", "light", "lime", "linen", "magenta", "maroon", "medium",
    "metallic", "midnight", "mint", "misty", "moccasin", "navajo", "navy",
    "olive", "orange", "orchid", "pale", "papaya", "peach", "peru", "pink",
    "plum", "powder", "puff", "purple", "red", "rose", "rosy", "royal",
    "saddle", "salmon", "sandy", "seashell", "sienna", "sky", "slate", "smoke",
    "snow", "spring", "steel", "tan", "thistle", "tomato", "turquoise",
    "violet", "wheat", "white", "yellow"};
static const char *const TYPE1[6] = {"STANDARD", "SMALL", "MEDIUM", "LARGE",
                                     "ECONOMY", "PROMO"};
static const char *const TYPE2[5] = {"ANODIZED", "BURNISHED", "PLATED",
                                     "POLISHED", "BRUSHED"};
static const char *const TYPE3[5] = {"TIN", "NICKEL", "BRASS", "STEEL",
                                     "COPPER"};
static const char *const CONT1[5] = {"SM", "LG", "MED", "JUMBO", "WRAP"};
static const char *const CONT2[8] = {"CASE", "BOX", "BAG", "JAR", "PKG",
                                     "PACK", "CAN", "DRUM"};
static const char *const MONTHS[12] = {
    "January", "February", "March", "April", "May", "June", "July",
    "August", "September", "October", "November", "December"};
static const char *const DAYS[7] = {"Sunday", "Monday", "Tuesday",
                                    "Wednesday", "Thursday", "Friday",
                                    "Saturday"};

/* ---- output buffers ---------------------------------------------------- */

typedef struct {
    char *p;
    size_t len, cap;
} buf_t;

static void buf_reserve(buf_t *b, size_t more) {
    if (b->len + more <= b->cap) return;
    size_t cap = b->cap ? b->cap : 1 << 16;
    while (cap < b->len + more) cap *= 2;
    char *p = realloc(b->p, cap);
    if (!p) { fprintf(stderr, "ssbgen: out of memory\n"); exit(1); }
    b->p = p;
    b->cap = cap;
}

static void buf_printf(buf_t *b, const char *fmt, ...) {
    for (;;) {
        va_list ap;
        va_start(ap, fmt);
        size_t room = b->cap - b->len;
        int n = vsnprintf(b->p ? b->p + b->len : NULL, room, fmt, ap);
        va_end(ap);
        if (n < 0) { fprintf(stderr, "ssbgen: format error\n"); exit(1); }
        if ((size_t)n < room) { b->len += (size_t)n; return; }
        buf_reserve(b, (size_t)n + 1);
    }
}

static void write_all(FILE *f, const char *path, const buf_t *b) {
    if (b->len && fwrite(b->p, 1, b->len, f) != b->len) {
        fprintf(stderr, "ssbgen: writing %s: %s\n", path, strerror(errno));
        exit(1);
    }
}

/* Random alphanumeric text of length lo..hi (addresses); never needs quoting. */
static void rnd_text(rng_t *r, char *out, int lo, int hi) {
    static const char alnum[] =
        "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";
    int n = (int)rnd(r, lo, hi);
    for (int i = 0; i < n; i++) out[i] = alnum[rnd(r, 0, 61)];
    out[n] = 0;
}

/* City: the nation's name cut or space-padded to 9 characters, then a digit. */
static void city_of(char *out, int nation, int digit) {
    snprintf(out, 11, "%-9.9s%d", NATIONS[nation], digit);
}

static void phone_of(rng_t *r, char *out, int nation) {
    snprintf(out, 16, "%02d-%03d-%03d-%04d", nation + 10, (int)rnd(r, 100, 999),
             (int)rnd(r, 100, 999), (int)rnd(r, 1000, 9999));
}

/* ---- calendar ---------------------------------------------------------- */

/* Days since 1970-01-01 for a civil date, and back (Hinnant's algorithms). */
static int64_t days_from_civil(int y, int m, int d) {
    y -= m <= 2;
    int64_t era = (y >= 0 ? y : y - 399) / 400;
    int yoe = (int)(y - era * 400);
    int doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
    int doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    return era * 146097 + doe - 719468;
}

static void civil_from_days(int64_t z, int *y, int *m, int *d) {
    z += 719468;
    int64_t era = (z >= 0 ? z : z - 146096) / 146097;
    int doe = (int)(z - era * 146097);
    int yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
    int doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    int mp = (5 * doy + 2) / 153;
    *d = doy - (153 * mp + 2) / 5 + 1;
    *m = mp < 10 ? mp + 3 : mp - 9;
    *y = (int)(yoe + era * 400) + (*m <= 2);
}

static int datekey_of(int64_t days) {
    int y, m, d;
    civil_from_days(days, &y, &m, &d);
    return y * 10000 + m * 100 + d;
}

/* ---- scale ------------------------------------------------------------- */

typedef struct {
    double sf;
    int64_t orders, customers, suppliers, parts;
    const char *dir;
    int threads;
} scale_t;

static int64_t at_least_1(double x) {
    int64_t n = (int64_t)llround(x);
    return n < 1 ? 1 : n;
}

static scale_t scale_for(double sf) {
    scale_t s = {0};
    s.sf = sf;
    s.orders = at_least_1(1500000.0 * sf);
    s.customers = at_least_1(30000.0 * sf);
    s.suppliers = at_least_1(2000.0 * sf);
    s.parts = sf >= 1.0 ? 200000 * (1 + (int64_t)floor(log2(sf)))
                        : at_least_1(200000.0 * sf);
    return s;
}

/* Retail price in cents of a part, dbgen's formula. */
static int64_t retail_price(int64_t partkey) {
    return 90000 + (partkey / 10) % 20001 + 100 * (partkey % 1000);
}

/* ---- dimension tables -------------------------------------------------- */

static FILE *open_out(const scale_t *s, const char *name, char *path,
                      size_t pathlen) {
    snprintf(path, pathlen, "%s/%s.csv", s->dir, name);
    FILE *f = fopen(path, "wb");
    if (!f) {
        fprintf(stderr, "ssbgen: cannot create %s: %s\n", path, strerror(errno));
        exit(1);
    }
    return f;
}

static void close_out(FILE *f, const char *path) {
    if (fclose(f) != 0) {
        fprintf(stderr, "ssbgen: closing %s: %s\n", path, strerror(errno));
        exit(1);
    }
}

static void gen_customer(const scale_t *s) {
    char path[4096], addr[32], city[16], phone[16];
    FILE *f = open_out(s, "customer", path, sizeof path);
    buf_t b = {0};
    for (int64_t k = 1; k <= s->customers; k++) {
        rng_t r = rng_for(1, (uint64_t)k);
        int nation = (int)rnd(&r, 0, 24);
        rnd_text(&r, addr, 10, 25);
        city_of(city, nation, (int)rnd(&r, 0, 9));
        phone_of(&r, phone, nation);
        buf_printf(&b, "%lld,Customer#%09lld,%s,%s,%s,%s,%s,%s\n",
                   (long long)k, (long long)k, addr, city, NATIONS[nation],
                   REGIONS[NATION_REGION[nation]], phone,
                   SEGMENTS[rnd(&r, 0, 4)]);
        if (b.len > (1 << 20)) { write_all(f, path, &b); b.len = 0; }
    }
    write_all(f, path, &b);
    free(b.p);
    close_out(f, path);
}

static void gen_supplier(const scale_t *s) {
    char path[4096], addr[32], city[16], phone[16];
    FILE *f = open_out(s, "supplier", path, sizeof path);
    buf_t b = {0};
    for (int64_t k = 1; k <= s->suppliers; k++) {
        rng_t r = rng_for(2, (uint64_t)k);
        int nation = (int)rnd(&r, 0, 24);
        rnd_text(&r, addr, 10, 25);
        city_of(city, nation, (int)rnd(&r, 0, 9));
        phone_of(&r, phone, nation);
        buf_printf(&b, "%lld,Supplier#%09lld,%s,%s,%s,%s,%s\n", (long long)k,
                   (long long)k, addr, city, NATIONS[nation],
                   REGIONS[NATION_REGION[nation]], phone);
        if (b.len > (1 << 20)) { write_all(f, path, &b); b.len = 0; }
    }
    write_all(f, path, &b);
    free(b.p);
    close_out(f, path);
}

static void gen_part(const scale_t *s) {
    char path[4096];
    FILE *f = open_out(s, "part", path, sizeof path);
    buf_t b = {0};
    for (int64_t k = 1; k <= s->parts; k++) {
        rng_t r = rng_for(3, (uint64_t)k);
        int c1 = (int)rnd(&r, 0, 91), c2 = (int)rnd(&r, 0, 91);
        int mfgr = (int)rnd(&r, 1, 5);
        int cat = mfgr * 10 + (int)rnd(&r, 1, 5);
        int brand = (int)rnd(&r, 1, 40);
        buf_printf(&b, "%lld,%s %s,MFGR#%d,MFGR#%d,MFGR#%d%d,%s,%s %s %s,%d,%s %s\n",
                   (long long)k, COLORS[c1], COLORS[c2], mfgr, cat, cat, brand,
                   COLORS[rnd(&r, 0, 91)], TYPE1[rnd(&r, 0, 5)],
                   TYPE2[rnd(&r, 0, 4)], TYPE3[rnd(&r, 0, 4)],
                   (int)rnd(&r, 1, 50), CONT1[rnd(&r, 0, 4)],
                   CONT2[rnd(&r, 0, 7)]);
        if (b.len > (1 << 20)) { write_all(f, path, &b); b.len = 0; }
    }
    write_all(f, path, &b);
    free(b.p);
    close_out(f, path);
}

static const char *season_of(int m, int d) {
    if (m == 12 && d >= 15) return "Christmas";
    if (m == 12 || m <= 2) return "Winter";
    if (m <= 5) return "Spring";
    if (m <= 8) return "Summer";
    return "Fall";
}

static int is_holiday(int m, int d) {
    return (m == 1 && d == 1) || (m == 7 && d == 4) || (m == 12 && d == 25) ||
           (m == 11 && d >= 22 && d <= 28) || (m == 5 && d >= 25) ||
           (m == 9 && d <= 7);
}

static void gen_date(const scale_t *s) {
    char path[4096];
    FILE *f = open_out(s, "date", path, sizeof path);
    buf_t b = {0};
    int64_t first = days_from_civil(1992, 1, 1), last = days_from_civil(1998, 12, 31);
    for (int64_t z = first; z <= last; z++) {
        int y, m, d;
        civil_from_days(z, &y, &m, &d);
        int dow = (int)(((z % 7) + 7 + 4) % 7); /* 1970-01-01 was a Thursday */
        int64_t jan1 = days_from_civil(y, 1, 1);
        int doy = (int)(z - jan1) + 1;
        int jan1_dow = (int)(((jan1 % 7) + 7 + 4) % 7);
        int week = (doy - 1 + jan1_dow) / 7 + 1; /* weeks start on Sunday */
        int ny, nm, nd;
        civil_from_days(z + 1, &ny, &nm, &nd);
        char mon3[4];
        memcpy(mon3, MONTHS[m - 1], 3);
        mon3[3] = 0;
        buf_printf(&b, "%d,\"%s %d, %d\",%s,%s,%d,%d,%s%d,%d,%d,%d,%d,%d,%s,%d,%d,%d,%d\n",
                   y * 10000 + m * 100 + d, MONTHS[m - 1], d, y, DAYS[dow],
                   MONTHS[m - 1], y, y * 100 + m, mon3, y, dow + 1, d, doy, m,
                   week, season_of(m, d), dow == 6, nm != m, is_holiday(m, d),
                   dow >= 1 && dow <= 5);
    }
    write_all(f, path, &b);
    free(b.p);
    close_out(f, path);
}

/* ---- lineorder, in parallel -------------------------------------------- */

enum { ORDERS_PER_CHUNK = 20000 };

typedef struct {
    const scale_t *s;
    FILE *f;
    const char *path;
    int64_t nchunks;
    int64_t next_chunk;    /* next chunk a worker takes */
    int64_t next_write;    /* the chunk whose turn it is to be written */
    int64_t rows;          /* lineorder rows written */
    pthread_mutex_t mu;
    pthread_cond_t turn;
} lineorder_job_t;

static void gen_orders(const scale_t *s, int64_t from, int64_t to, buf_t *b,
                       int64_t *rows) {
    int64_t lo_day = days_from_civil(1992, 1, 1);
    int64_t hi_day = days_from_civil(1998, 12, 31) - 151; /* dbgen's ENDDATE-151 */
    for (int64_t o = from; o < to; o++) {
        rng_t r = rng_for(4, (uint64_t)o);
        int64_t orderkey = o + 1;
        int64_t cust = rnd(&r, 1, s->customers);
        if (s->customers >= 3 && cust % 3 == 0) cust = cust == s->customers ? cust - 1 : cust + 1;
        int64_t orderday = rnd(&r, lo_day, hi_day);
        int orderdate = datekey_of(orderday);
        const char *prio = PRIORITIES[rnd(&r, 0, 4)];
        int lines = (int)rnd(&r, 1, 7);
        int64_t part[7], supp[7], qty[7], disc[7], tax[7], price[7], commit[7];
        int64_t total = 0;
        for (int l = 0; l < lines; l++) {
            part[l] = rnd(&r, 1, s->parts);
            supp[l] = rnd(&r, 1, s->suppliers);
            qty[l] = rnd(&r, 1, 50);
            disc[l] = rnd(&r, 0, 10);
            tax[l] = rnd(&r, 0, 8);
            price[l] = qty[l] * retail_price(part[l]);
            commit[l] = datekey_of(orderday + rnd(&r, 30, 90));
            total += price[l] * (100 - disc[l]) / 100 * (100 + tax[l]) / 100;
        }
        for (int l = 0; l < lines; l++) {
            buf_printf(b, "%lld,%d,%lld,%lld,%lld,%d,%s,0,%lld,%lld,%lld,%lld,%lld,%lld,%lld,%lld,%s\n",
                       (long long)orderkey, l + 1, (long long)cust,
                       (long long)part[l], (long long)supp[l], orderdate, prio,
                       (long long)qty[l], (long long)price[l], (long long)total,
                       (long long)disc[l],
                       (long long)(price[l] * (100 - disc[l]) / 100),
                       (long long)(6 * retail_price(part[l]) / 10),
                       (long long)tax[l], (long long)commit[l],
                       SHIPMODES[rnd(&r, 0, 6)]);
        }
        *rows += lines;
    }
}

static void *lineorder_worker(void *arg) {
    lineorder_job_t *j = arg;
    buf_t b = {0};
    for (;;) {
        pthread_mutex_lock(&j->mu);
        int64_t c = j->next_chunk++;
        pthread_mutex_unlock(&j->mu);
        if (c >= j->nchunks) break;
        int64_t from = c * ORDERS_PER_CHUNK;
        int64_t to = from + ORDERS_PER_CHUNK;
        if (to > j->s->orders) to = j->s->orders;
        int64_t rows = 0;
        b.len = 0;
        gen_orders(j->s, from, to, &b, &rows);
        /* Wait for this chunk's turn so the file comes out in order. */
        pthread_mutex_lock(&j->mu);
        while (j->next_write != c) pthread_cond_wait(&j->turn, &j->mu);
        pthread_mutex_unlock(&j->mu);
        write_all(j->f, j->path, &b);
        pthread_mutex_lock(&j->mu);
        j->rows += rows;
        j->next_write++;
        pthread_cond_broadcast(&j->turn);
        pthread_mutex_unlock(&j->mu);
    }
    free(b.p);
    return NULL;
}

static int64_t gen_lineorder(const scale_t *s) {
    char path[4096];
    lineorder_job_t j = {0};
    j.s = s;
    j.f = open_out(s, "lineorder", path, sizeof path);
    j.path = path;
    j.nchunks = (s->orders + ORDERS_PER_CHUNK - 1) / ORDERS_PER_CHUNK;
    pthread_mutex_init(&j.mu, NULL);
    pthread_cond_init(&j.turn, NULL);
    int n = s->threads;
    pthread_t *t = calloc((size_t)n, sizeof *t);
    for (int i = 0; i < n; i++) pthread_create(&t[i], NULL, lineorder_worker, &j);
    for (int i = 0; i < n; i++) pthread_join(t[i], NULL);
    free(t);
    pthread_mutex_destroy(&j.mu);
    pthread_cond_destroy(&j.turn);
    close_out(j.f, path);
    return j.rows;
}

/* ---- main -------------------------------------------------------------- */

static void usage(void) {
    fprintf(stderr,
            "usage: ssbgen [-s SF] [-o DIR] [-j THREADS]\n"
            "  -s SF       scale factor (default 1; any positive number, e.g. 0.01)\n"
            "  -o DIR      output directory (default .; created when missing)\n"
            "  -j THREADS  generator threads (default: all cores)\n"
            "Writes DIR/{lineorder,customer,supplier,part,date}.csv\n");
}

int main(int argc, char **argv) {
    double sf = 1.0;
    const char *dir = ".";
    long threads = sysconf(_SC_NPROCESSORS_ONLN);
    int opt;
    while ((opt = getopt(argc, argv, "s:o:j:h")) != -1) {
        switch (opt) {
        case 's': {
            char *end;
            sf = strtod(optarg, &end);
            if (*end || !(sf > 0) || sf > 100000) {
                fprintf(stderr, "ssbgen: bad scale factor '%s'\n", optarg);
                return 2;
            }
            break;
        }
        case 'o': dir = optarg; break;
        case 'j': threads = strtol(optarg, NULL, 10); break;
        default: usage(); return opt == 'h' ? 0 : 2;
        }
    }
    if (threads < 1) threads = 1;
    if (threads > 256) threads = 256;
    /* Create the output directory (one level) when it is missing. */
    if (mkdir(dir, 0777) != 0 && errno != EEXIST) {
        fprintf(stderr, "ssbgen: cannot create %s: %s\n", dir, strerror(errno));
        return 1;
    }
    scale_t s = scale_for(sf);
    s.dir = dir;
    s.threads = (int)threads;
    gen_date(&s);
    gen_customer(&s);
    gen_supplier(&s);
    gen_part(&s);
    int64_t rows = gen_lineorder(&s);
    fprintf(stderr,
            "ssbgen: SF %g: lineorder %lld, customer %lld, supplier %lld, "
            "part %lld, date %lld rows in %s\n",
            sf, (long long)rows, (long long)s.customers,
            (long long)s.suppliers, (long long)s.parts,
            (long long)(days_from_civil(1998, 12, 31) - days_from_civil(1992, 1, 1) + 1),
            dir);
    return 0;
}
