/*
 * fuzz_pgwire.c - libFuzzer target over the frontend message decoder.
 *
 * The input is treated as a byte stream from a client: first a startup
 * packet, then typed messages, each passed to the parser for its type.
 * Build with clang (-fsanitize=fuzzer); fuzz_replay_main.c runs the same
 * entry point over a corpus directory for compilers without libFuzzer.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "server/pgwire_decode.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    const char *buf = (const char *)data;
    attu_error err = {0};
    size_t total = 0;
    pg_startup st;
    if (pg_startup_frame(buf, size, &total, &err) == 1)
        (void)pg_startup_parse(buf, total, &st, &err);
    /* the rest (or everything, whatever the startup result) as typed messages */
    size_t off = 0;
    while (off < size) {
        pg_frame f;
        attu_error e = {0};
        int r = pg_frame_next(buf + off, size - off, 1 << 16, &f, NULL, &e);
        if (r <= 0) { off++; continue; }   /* resynchronize byte by byte */
        /* copy the payload so ASan catches any read past its end */
        char *p = malloc(f.len ? f.len : 1);
        if (!p) return 0;
        memcpy(p, f.payload, f.len);
        attu_error pe = {0};
        const char *s;
        switch (f.type) {
        case 'Q': (void)pg_parse_query(p, f.len, &s, &pe); break;
        case 'P': { pg_parse_msg m; (void)pg_parse_parse(p, f.len, &m, &pe); pg_parse_msg_free(&m); break; }
        case 'B': { pg_bind_msg m; (void)pg_parse_bind(p, f.len, &m, &pe); pg_bind_msg_free(&m); break; }
        case 'D': case 'C': { pg_target_msg m; (void)pg_parse_target(p, f.len, &m, &pe); break; }
        case 'E': { pg_execute_msg m; (void)pg_parse_execute(p, f.len, &m, &pe); break; }
        case 'f': (void)pg_parse_copy_fail(p, f.len, &s, &pe); break;
        case 'p': {
            const char *mech, *d;
            size_t dl;
            (void)pg_parse_sasl_initial(p, f.len, &mech, &d, &dl, &pe);
            break;
        }
        default: break;
        }
        free(p);
        off += f.total;
    }
    return 0;
}
