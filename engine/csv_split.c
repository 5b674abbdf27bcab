/*
 * csv_split.c - cutting CSV input into record-aligned chunks.
 *
 * When the escape character is the quote (the default), a quote toggles the
 * quoted state wherever it appears, so the state at byte x is the parity of
 * the quotes before x. Pass 1 counts quotes and newlines of each nominal
 * chunk in parallel; prefix sums give the state and line number at every
 * cut; a short scan from each cut to the first newline outside quotes finds
 * the record boundary. With a different escape character an escaped quote
 * does not toggle, parity breaks, and one sequential scan that tracks the
 * state finds the same boundaries.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "engine/csv_internal.h"
#include "engine/thread_pool.h"

#define CHUNK_TARGET (16u << 20)     /* bytes per chunk, roughly */
#define CHUNK_MIN    (1u << 20)
#define CHUNKS_MAX   (1u << 16)     /* bounds the per-chunk bookkeeping */

size_t attu_csv_nominal_cut(size_t size, size_t n, size_t i) {
    /* size / n * i + (size % n) * i / n, all terms below size: no overflow
     * even when size * i would not fit in 64 bits. */
    if (i >= n) return size;
    size_t q = size / n, r = size % n;
    return q * i + r * i / n;
}

size_t attu_csv_chunk_count(size_t size, int threads) {
    if (threads < 1) threads = 1;
    if (size < CHUNK_MIN * 2) return 1;
    size_t n = size / CHUNK_TARGET;
    if (n < (size_t)threads * 2) n = (size_t)threads * 2;
    if (n > size / CHUNK_MIN) n = size / CHUNK_MIN;
    if (n > CHUNKS_MAX) n = CHUNKS_MAX;
    return n ? n : 1;
}

typedef struct count_job {
    const attu_csv_input *in;
    char quote;
    size_t n;
    size_t *quotes, *newlines;
} count_job;

static void count_chunk(void *ctx, size_t i) {
    count_job *j = ctx;
    size_t a = attu_csv_nominal_cut(j->in->size, j->n, i);
    size_t b = attu_csv_nominal_cut(j->in->size, j->n, i + 1);
    const unsigned char *d = (const unsigned char *)j->in->data;
    unsigned char q = (unsigned char)j->quote;
    size_t nq = 0, nl = 0, k = a;
    /* Eight bytes at a time. With x = w ^ (c repeated), the bytes of w
     * equal to c are the zero bytes of x, and ~(((x & 0x7f..) + 0x7f..) |
     * x | 0x7f..) sets exactly their high bits (no carries cross bytes). */
    const uint64_t ones = 0x0101010101010101ULL, lo7 = 0x7f7f7f7f7f7f7f7fULL;
    const uint64_t qq = ones * q, nn = ones * (unsigned char)'\n';
    for (; k + 8 <= b; k += 8) {
        uint64_t w;
        memcpy(&w, d + k, 8);
        uint64_t xq = w ^ qq, xn = w ^ nn;
        uint64_t zq = ~(((xq & lo7) + lo7) | xq | lo7);
        uint64_t zn = ~(((xn & lo7) + lo7) | xn | lo7);
        nq += (size_t)(((zq >> 7) * ones) >> 56);   /* bytes flagged (at most 8) */
        nl += (size_t)(((zn >> 7) * ones) >> 56);
    }
    for (; k < b; k++) {
        nq += d[k] == q;
        nl += d[k] == '\n';
    }
    j->quotes[i] = nq;
    j->newlines[i] = nl;
}

int attu_csv_split_input(const attu_csv_input *in, const attu_csv_options *o,
                         attu_csv_split *out, attu_error *err) {
    size_t n = attu_csv_chunk_count(in->size, o->threads);
    if (attu_csv_split_alloc(out, n, err)) return -1;
    /* Pass 1 (always: the reader sizes its output from the line count). */
    count_job j = { in, o->quote, n, NULL, NULL };
    j.quotes = calloc(n, sizeof *j.quotes);
    j.newlines = calloc(n, sizeof *j.newlines);
    if (!j.quotes || !j.newlines) {
        free(j.quotes);
        free(j.newlines);
        attu_csv_split_free(out);
        return attu_error_oom(err);
    }
    attu_parallel_for(o->threads, n, count_chunk, &j);
    size_t total_lines = 0;
    for (size_t i = 0; i < n; i++) total_lines += j.newlines[i];
    out->end_line = 1 + total_lines;
    const char *d = in->data;
    if (n == 1) {
        /* one chunk: nothing to split */
    } else if (o->escape == o->quote) {
        size_t quotes = j.quotes[0], lines = j.newlines[0];
        for (size_t i = 1; i < n; i++) {
            size_t k = attu_csv_nominal_cut(in->size, n, i);
            int in_quote = (int)(quotes & 1);
            size_t line = 1 + lines;
            while (k < in->size) {
                char c = d[k++];
                if (c == o->quote) in_quote = !in_quote;
                else if (c == '\n') {
                    line++;
                    if (!in_quote) break;
                }
            }
            out->starts[i] = k;
            out->lines[i] = line;
            quotes += j.quotes[i];
            lines += j.newlines[i];
        }
    } else {
        /* Sequential: track quote and escape exactly as csv_scan.h does. */
        int in_quote = 0;
        size_t line = 1, k = 0;
        for (size_t i = 1; i < n; i++) {
            size_t cut = attu_csv_nominal_cut(in->size, n, i);
            if (k < cut || i == 1) {
                while (k < in->size) {
                    char c = d[k++];
                    if (in_quote) {
                        if (c == o->escape && k < in->size &&
                            (d[k] == o->quote || d[k] == o->escape)) {
                            k++;
                            continue;
                        }
                        if (c == o->quote) in_quote = 0;
                        else if (c == '\n') line++;
                    } else if (c == o->quote) {
                        in_quote = 1;
                    } else if (c == '\n') {
                        line++;
                        if (k >= cut) break;
                    }
                }
            }
            out->starts[i] = k;
            out->lines[i] = line;
        }
    }
    free(j.quotes);
    free(j.newlines);
    /* Boundaries never go backwards (a record longer than a chunk makes
     * several cuts land on the same record end). */
    for (size_t i = 1; i < n; i++)
        if (out->starts[i] < out->starts[i - 1]) {
            out->starts[i] = out->starts[i - 1];
            out->lines[i] = out->lines[i - 1];
        }
    return 0;
}

int attu_csv_split_alloc(attu_csv_split *out, size_t n, attu_error *err) {
    memset(out, 0, sizeof *out);
    out->count = n;
    out->starts = calloc(n, sizeof *out->starts);
    out->lines = calloc(n, sizeof *out->lines);
    if (!out->starts || !out->lines) {
        attu_csv_split_free(out);
        return attu_error_oom(err);
    }
    out->lines[0] = 1;
    return 0;
}

void attu_csv_split_free(attu_csv_split *s) {
    free(s->starts);
    free(s->lines);
    s->starts = NULL;
    s->lines = NULL;
    s->count = 0;
}
