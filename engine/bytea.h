/*
 * bytea.h - PostgreSQL's bytea: input (hex and escape formats), the hex
 * output, and the functions of bytes.
 *
 * A bytea is held as its hex output text (engine/types.h): "\x" and two
 * lower-case digits a byte. That text has no NUL, so the text machinery
 * (C strings, dictionaries) carries any bytes, and its byte order is the
 * bytes' order with a shorter prefix first, PostgreSQL's bytea order.
 * Run-time work is ATTU_OP_BYTEA, host only (the GPU expression evaluator
 * declines the opcode): each function decodes its operands, works on the
 * bytes and encodes its bytea result again.
 */
#ifndef ATTU_ENGINE_BYTEA_H
#define ATTU_ENGINE_BYTEA_H

#include <stddef.h>
#include <stdint.h>

#include "engine/error.h"
#include "engine/expr_program.h"

/* ATTU_OP_BYTEA's functions (its aux); a, b, c, d are the instruction's
 * operands, bytea operands in their held (hex) form */
typedef enum attu_bytea_fn {
    ATTU_BY_IN,            /* text a -> bytea (byteain) */
    ATTU_BY_CONCAT,        /* a || b */
    ATTU_BY_LENGTH,        /* length / octet_length(a): int (times imm_i where
                              set: bit_length's 8) */
    ATTU_BY_SUBSTR,        /* substr(a, b [, c]): imm_i 1 where c is given */
    ATTU_BY_POSITION,      /* position(b in a): int */
    ATTU_BY_OVERLAY,       /* overlay(a placing b from c [for d]) */
    ATTU_BY_GET_BYTE,      /* get_byte(a, b): int */
    ATTU_BY_SET_BYTE,      /* set_byte(a, b, c) */
    ATTU_BY_MD5,           /* md5(a): text */
    ATTU_BY_SHA256,        /* sha224 / sha256 / sha384 / sha512(a): bytea, imm_i
                              the digest's bits (0: 256) */
    ATTU_BY_ENCODE,        /* encode(a, b): text */
    ATTU_BY_DECODE,        /* decode(text a, b): bytea */
    ATTU_BY_CONVERT_FROM,  /* convert_from(a, b): text */
    ATTU_BY_CONVERT_TO,    /* convert_to(text a, b): bytea */
    ATTU_BY_GET_BIT,       /* get_bit(a, b): int (bit b % 8 of byte b / 8) */
    ATTU_BY_SET_BIT,       /* set_bit(a, b, c) */
    ATTU_BY_LIKE,          /* a LIKE b: bool, bytewise (% _ and \ escapes) */
    ATTU_BY_TRIM,          /* btrim / ltrim / rtrim(a, b): imm_i 1 left, 2 right, 3 both */
} attu_bytea_fn;

/* s[0..len) read as byteain reads it, into *out (malloc'd; *n bytes). */
int attu_bytea_parse(const char *s, size_t len, uint8_t **out, size_t *n, attu_error *err);
/* s[0..len) made the held form ("\x..."), into *out (malloc'd, NUL-ended). */
int attu_bytea_canonical(const char *s, size_t len, char **out, size_t *n, attu_error *err);
/* The held form of bytes b[0..n) into out (2 * n + 3 bytes, NUL-ended);
 * returns its length. */
size_t attu_bytea_format(const uint8_t *b, size_t n, char *out);
/* The bytes of a held form h[0..len) (len - 2 of them halved) into out. */
size_t attu_bytea_unhex(const char *h, size_t len, uint8_t *out);

/* Runs ATTU_OP_BYTEA over n rows (G: the guard, or NULL). */
int attu_bytea_run(const attu_instr *in, const attu_slot *A, const attu_slot *B, const attu_slot *C,
                   const attu_slot *Dd, const attu_slot *G, attu_slot *D, size_t n,
                   char *(*alloc)(void *ctx, size_t n), void *ctx, attu_error *err);

#endif
