/*
 * uuid.h - PostgreSQL's uuid: input, canonical text, gen_random_uuid().
 *
 * A uuid is held as its canonical text (engine/types.h): 32 lower-case hex
 * digits in the groups 8-4-4-4-12, whose byte order is the order of the
 * 16 bytes, PostgreSQL's uuid order. Input takes PostgreSQL 15's forms:
 * the digits with or without a hyphen after any group of four, either
 * case, inside braces or not. Run-time work is ATTU_OP_UUID, host only
 * (the GPU expression evaluator declines the opcode).
 */
#ifndef ATTU_ENGINE_UUID_H
#define ATTU_ENGINE_UUID_H

#include <stddef.h>
#include <stdint.h>

#include "engine/error.h"
#include "engine/expr_program.h"

#define ATTU_UUID_TEXT_LEN 36

/* ATTU_OP_UUID's functions (its aux) */
typedef enum attu_uuid_fn {
    ATTU_UUID_IN,       /* text a -> uuid (uuid_in; 22P02 on bad input) */
    ATTU_UUID_RANDOM,   /* gen_random_uuid(): version 4, one per row */
} attu_uuid_fn;

/* Parses s[0..len) as uuid_in does into its 16 bytes; 22P02 otherwise. */
int attu_uuid_parse(const char *s, size_t len, uint8_t out[16], attu_error *err);
/* The canonical text of 16 bytes (36 characters, no NUL). */
void attu_uuid_format(const uint8_t b[16], char out[ATTU_UUID_TEXT_LEN]);
/* s[0..len) made canonical into out; 22P02 on bad input. */
int attu_uuid_canonical(const char *s, size_t len, char out[ATTU_UUID_TEXT_LEN], attu_error *err);
/* A random version 4 uuid's bytes. */
void attu_uuid_random(uint8_t out[16]);

/* Runs ATTU_OP_UUID over n rows (G: the guard, or NULL). */
int attu_uuid_run(const attu_instr *in, const attu_slot *A, const attu_slot *G, attu_slot *D, size_t n,
                  char *(*alloc)(void *ctx, size_t n), void *ctx, attu_error *err);

#endif
