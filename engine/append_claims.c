/*
 * append_claims.c - claims to append in place to shared buffers
 * (append_claims.h).
 *
 * Why walking back is safe: claims are taken one after another from
 * claimed, so they are disjoint and a version's length is its claim's
 * end. When claimed equals the end of a gone claim, no live version ends
 * past it (claimed would be larger) and none ends inside it (no claim
 * does), so the rows of that claim are read by nobody and go back.
 */
#include "engine/append_claims.h"

static void lock(attu_append_claims *cl) {
    while (__atomic_test_and_set(&cl->lock, __ATOMIC_ACQUIRE)) {
    }
}

static void unlock(attu_append_claims *cl) { __atomic_clear(&cl->lock, __ATOMIC_RELEASE); }

bool attu_append_claims_take(attu_append_claims *cl, size_t from, size_t to, size_t limit) {
    lock(cl);
    bool ok = cl->claimed == from && to <= limit;
    if (ok) cl->claimed = to;
    unlock(cl);
    return ok;
}

void attu_append_claims_give_back(attu_append_claims *cl, size_t base, size_t end) {
    if (end <= base) return;
    lock(cl);
    if (cl->claimed == end) {
        cl->claimed = base;
        /* the claims of versions that went before this one, while it stood */
        for (int i = cl->ngone - 1; i >= 0; i--) {
            if (cl->gone_end[i] != cl->claimed) continue;
            cl->claimed = cl->gone_base[i];
            for (int j = i; j + 1 < cl->ngone; j++) {
                cl->gone_base[j] = cl->gone_base[j + 1];
                cl->gone_end[j] = cl->gone_end[j + 1];
            }
            cl->ngone--;
            i = cl->ngone;   /* (look again from the newest) */
        }
    } else if (end < cl->claimed) {
        /* a newer version stands: remembered, the oldest forgotten when
         * full (forgetting only costs a later copy) */
        if (cl->ngone == ATTU_APPEND_CLAIMS_GONE) {
            for (int j = 0; j + 1 < cl->ngone; j++) {
                cl->gone_base[j] = cl->gone_base[j + 1];
                cl->gone_end[j] = cl->gone_end[j + 1];
            }
            cl->ngone--;
        }
        cl->gone_base[cl->ngone] = base;
        cl->gone_end[cl->ngone] = end;
        cl->ngone++;
    }
    unlock(cl);
}
