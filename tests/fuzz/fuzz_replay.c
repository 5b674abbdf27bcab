/*
 * fuzz_replay.c - main() for fuzz targets when libFuzzer is not available
 * (gcc builds): runs every file of the corpus directories given on the
 * command line through LLVMFuzzerTestOneInput, then a fixed number of
 * deterministic mutations of them (byte flips, truncations, splices,
 * token insertions), so `ctest` always exercises the target for a few
 * seconds. Under ASan/UBSan any fault aborts the run.
 *
 * Usage: fuzz_replay [-n MUTATIONS] DIR...
 */
#include <dirent.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

typedef struct input {
    uint8_t *data;
    size_t   size;
} input;

static input *inputs;
static size_t ninputs, capinputs;

static void add_input(const uint8_t *d, size_t n) {
    if (ninputs == capinputs) {
        capinputs = capinputs ? capinputs * 2 : 256;
        inputs = realloc(inputs, capinputs * sizeof *inputs);
        if (!inputs) abort();
    }
    inputs[ninputs].data = malloc(n ? n : 1);
    if (!inputs[ninputs].data) abort();
    memcpy(inputs[ninputs].data, d, n);
    inputs[ninputs].size = n;
    ninputs++;
}

static void load_dir(const char *dir) {
    DIR *d = opendir(dir);
    if (!d) { fprintf(stderr, "fuzz_replay: cannot open %s\n", dir); exit(2); }
    struct dirent *e;
    while ((e = readdir(d))) {
        if (e->d_name[0] == '.') continue;
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        FILE *f = fopen(path, "rb");
        if (!f) continue;
        static uint8_t buf[1 << 20];
        size_t n = fread(buf, 1, sizeof buf, f);
        fclose(f);
        add_input(buf, n);
    }
    closedir(d);
}

/* xorshift64: the same mutations on every run. */
static uint64_t rng = 0x9E3779B97F4A7C15ull;
static uint64_t next(void) {
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}

static const char *const tokens[] = {
    "(", ")", ",", ";", "'", "\"", "$1", "--", "/*", "*/", "::", "E'\\", "$$",
    " SELECT ", " FROM ", " WHERE ", " AND ", " NOT ", " IN ", " BETWEEN ",
    " CASE ", " WHEN ", " END ", " OVER (", " UNION ", " JOIN ", " ON ",
    " GROUP BY ", " ORDER BY ", " LIMIT ", " NULL ", " 1e", " .5", "\xc3\xa9",
};

int main(int argc, char **argv) {
    long mutations = 20000;
    int i = 1;
    if (i + 1 < argc && strcmp(argv[i], "-n") == 0) { mutations = atol(argv[i + 1]); i += 2; }
    for (; i < argc; i++) load_dir(argv[i]);
    if (ninputs == 0) { fprintf(stderr, "fuzz_replay: empty corpus\n"); return 2; }
    for (size_t k = 0; k < ninputs; k++) LLVMFuzzerTestOneInput(inputs[k].data, inputs[k].size);

    static uint8_t buf[1 << 16];
    for (long m = 0; m < mutations; m++) {
        const input *a = &inputs[next() % ninputs];
        size_t n = a->size < sizeof buf / 2 ? a->size : sizeof buf / 2;
        memcpy(buf, a->data, n);
        int rounds = 1 + (int)(next() % 4);
        for (int r = 0; r < rounds; r++) {
            size_t at = n ? next() % (n + 1) : 0;
            switch (next() % 5) {
            case 0:   /* flip a byte */
                if (n) buf[next() % n] ^= (uint8_t)(1u << (next() % 8));
                break;
            case 1:   /* truncate */
                n = at;
                break;
            case 2: { /* insert a token */
                const char *t = tokens[next() % (sizeof tokens / sizeof tokens[0])];
                size_t tl = strlen(t);
                if (n + tl < sizeof buf / 2) {
                    memmove(buf + at + tl, buf + at, n - at);
                    memcpy(buf + at, t, tl);
                    n += tl;
                }
                break;
            }
            case 3: { /* splice another input's tail */
                const input *b = &inputs[next() % ninputs];
                size_t from = b->size ? next() % b->size : 0;
                size_t tl = b->size - from;
                if (at + tl > sizeof buf / 2) tl = sizeof buf / 2 - at;
                memcpy(buf + at, b->data + from, tl);
                n = at + tl;
                break;
            }
            default:  /* delete a run */
                if (n > at) {
                    size_t len = 1 + next() % (n - at);
                    memmove(buf + at, buf + at + len, n - at - len);
                    n -= len;
                }
            }
        }
        LLVMFuzzerTestOneInput(buf, n);
    }
    printf("fuzz_replay: %zu corpus inputs, %ld mutations, no faults\n", ninputs, mutations);
    for (size_t k = 0; k < ninputs; k++) free(inputs[k].data);
    free(inputs);
    return 0;
}
