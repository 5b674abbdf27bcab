/*
 * fuzz_replay_main.c - runs LLVMFuzzerTestOneInput over every file of a
 * corpus directory, plus deterministic pseudo-random mutations of each,
 * so ctest exercises the fuzz target with any compiler.
 */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static uint64_t rng = 0x9E3779B97F4A7C15ull;
static uint64_t next(void) { rng ^= rng << 13; rng ^= rng >> 7; rng ^= rng << 17; return rng; }

int main(int argc, char **argv) {
    if (argc < 2) { fprintf(stderr, "usage: %s CORPUS_DIR\n", argv[0]); return 2; }
    DIR *d = opendir(argv[1]);
    if (!d) { perror(argv[1]); return 2; }
    struct dirent *e;
    int files = 0;
    long runs = 0;
    while ((e = readdir(d))) {
        if (e->d_name[0] == '.') continue;
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", argv[1], e->d_name);
        FILE *f = fopen(path, "rb");
        if (!f) continue;
        uint8_t buf[1 << 16];
        size_t n = fread(buf, 1, sizeof buf, f);
        fclose(f);
        files++;
        LLVMFuzzerTestOneInput(buf, n); runs++;
        for (size_t cut = 0; cut < n; cut++) { LLVMFuzzerTestOneInput(buf, cut); runs++; }
        for (int i = 0; i < 2000 && n; i++) {
            uint8_t m[1 << 16];
            memcpy(m, buf, n);
            int flips = 1 + (int)(next() % 8);
            for (int k = 0; k < flips; k++) m[next() % n] = (uint8_t)next();
            LLVMFuzzerTestOneInput(m, n); runs++;
        }
    }
    closedir(d);
    printf("fuzz replay: %d corpus files, %ld runs, no crash\n", files, runs);
    return files ? 0 : 1;
}
