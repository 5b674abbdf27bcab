/*
 * random.c - random() and setseed() (random.h).
 */
#include "engine/random.h"

#include <math.h>
#include <stdio.h>
#include <sys/random.h>
#include <time.h>

static _Thread_local attu_random_state *current;
/* a thread without a session's generator (a test driving the engine
 * directly) draws from this one */
static _Thread_local attu_random_state own;

void attu_random_use(attu_random_state *st) { current = st; }

attu_random_state *attu_random_current(void) { return current ? current : &own; }

void attu_random_forget(attu_random_state *st) {
    if (current == st) current = NULL;
}

/* splitmix64: spreads a seed over the generator's two words, so that
 * neighbouring seeds start far apart and the state is never all zero */
static uint64_t splitmix64(uint64_t *x) {
    uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

static void seed_from(attu_random_state *st, uint64_t seed) {
    st->s0 = splitmix64(&seed);
    st->s1 = splitmix64(&seed);
    if (!st->s0 && !st->s1) st->s1 = 1;   /* (the one state the generator never leaves) */
    st->seeded = true;
}

static uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

/* xoroshiro128**: the next 64 random bits */
static uint64_t next64(attu_random_state *st) {
    uint64_t s0 = st->s0, s1 = st->s1;
    uint64_t r = rotl(s0 * 5, 7) * 9;
    s1 ^= s0;
    st->s0 = rotl(s0, 24) ^ s1 ^ (s1 << 16);
    st->s1 = rotl(s1, 37);
    return r;
}

double attu_random_next(void) {
    attu_random_state *st = attu_random_current();
    if (!st->seeded) {
        uint64_t seed;
        if (getrandom(&seed, sizeof seed, GRND_NONBLOCK) != (ssize_t)sizeof seed) {
            struct timespec ts;
            clock_gettime(CLOCK_REALTIME, &ts);
            seed = (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
        }
        seed_from(st, seed);
    }
    /* the top 53 bits as a fraction: every value a multiple of 2^-53 in
     * [0, 1), 1.0 never */
    return (double)(next64(st) >> 11) * 0x1.0p-53;
}

int attu_random_setseed(attu_random_state *st, double seed, attu_error *err) {
    if (isnan(seed) || seed < -1 || seed > 1) {
        /* PostgreSQL's %g, which spells NaN and the infinities its way */
        char buf[64];
        if (isnan(seed)) snprintf(buf, sizeof buf, "NaN");
        else if (isinf(seed)) snprintf(buf, sizeof buf, "%sInfinity", seed < 0 ? "-" : "");
        else snprintf(buf, sizeof buf, "%g", seed);
        return attu_error_set(err, ATTU_SQLSTATE_INVALID_PARAMETER, 0,
                              "setseed parameter %s is out of allowed range [-1,1]", buf);
    }
    /* as PostgreSQL, the seed's fraction of 2^52 - 1 as the integer seed:
     * setseed(0.5) and setseed(-0.5) are different sequences */
    int64_t k = (int64_t)(seed * (double)((UINT64_C(1) << 52) - 1));
    seed_from(st, (uint64_t)k);
    return 0;
}
