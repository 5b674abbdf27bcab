/*
 * unsupported_statement.c - PostgreSQL statements attu does not have
 * (unsupported_statement.h).
 *
 * The statement's leading words are read from its text (the parser has
 * only the failing token at hand), and a rule applies only when the
 * parser stopped exactly at the word that names the form: "CREATE SCHEMA"
 * stops at SCHEMA, "CREATE OR REPLACE RULE" at RULE, "GRANT SELECT ON t"
 * at SELECT. A statement attu has, mistyped further on, stops elsewhere
 * and keeps its syntax error.
 */
#include "planner/unsupported_statement.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

enum { MAX_WORDS = 6 };

typedef struct word {
    size_t off, len;
} word;

/* Past whitespace and comments (-- to the end of the line; nested slash-star
 * comments, as PostgreSQL's). */
static size_t skip_blank(const char *s, size_t i, size_t n) {
    for (;;) {
        while (i < n && isspace((unsigned char)s[i])) i++;
        if (i + 1 < n && s[i] == '-' && s[i + 1] == '-') {
            while (i < n && s[i] != '\n') i++;
        } else if (i + 1 < n && s[i] == '/' && s[i + 1] == '*') {
            int depth = 0;
            while (i < n) {
                if (i + 1 < n && s[i] == '/' && s[i + 1] == '*') {
                    depth++;
                    i += 2;
                } else if (i + 1 < n && s[i] == '*' && s[i + 1] == '/') {
                    i += 2;
                    if (--depth == 0) break;
                } else {
                    i++;
                }
            }
        } else {
            return i;
        }
    }
}

/* The words (unquoted identifiers and keywords) from start on, up to max;
 * *stop: the offset of what follows the last one (past blanks). */
static int leading_words(const char *s, size_t n, size_t start, word *w, int max, size_t *stop) {
    int k = 0;
    size_t i = skip_blank(s, start, n);
    while (k < max && i < n && (isalpha((unsigned char)s[i]) || s[i] == '_')) {
        size_t b = i;
        while (i < n && (isalnum((unsigned char)s[i]) || s[i] == '_' || s[i] == '$')) i++;
        w[k].off = b;
        w[k].len = i - b;
        k++;
        i = skip_blank(s, i, n);
    }
    *stop = i;
    return k;
}

static bool is(const char *s, const word *w, const char *kw) {
    return strlen(kw) == w->len && !strncasecmp(s + w->off, kw, w->len);
}

/* The objects of CREATE / ALTER / DROP that attu lacks: the word after the
 * verb, the word after that when the form needs it, the verbs PostgreSQL
 * has for it (C, A, D), the name shown. */
enum { C = 1, A = 2, D = 4 };
static const struct {
    const char *kind, *next;
    int verbs;
    const char *name;
} objects[] = {
    { "SCHEMA", NULL, C | A | D, "SCHEMA" },
    { "TRIGGER", NULL, C | A | D, "TRIGGER" },
    { "EXTENSION", NULL, C | A | D, "EXTENSION" },
    { "POLICY", NULL, C | A | D, "POLICY" },
    { "RULE", NULL, C | A | D, "RULE" },
    { "PROCEDURE", NULL, C | A | D, "PROCEDURE" },
    { "ROUTINE", NULL, A | D, "ROUTINE" },
    { "AGGREGATE", NULL, C | A | D, "AGGREGATE" },
    { "OPERATOR", NULL, C | A | D, "OPERATOR" },
    { "CAST", NULL, C | D, "CAST" },
    { "DATABASE", NULL, C | A | D, "DATABASE" },
    { "TABLESPACE", NULL, C | A | D, "TABLESPACE" },
    { "COLLATION", NULL, C | A | D, "COLLATION" },
    { "STATISTICS", NULL, C | A | D, "STATISTICS" },
    { "PUBLICATION", NULL, C | A | D, "PUBLICATION" },
    { "SUBSCRIPTION", NULL, C | A | D, "SUBSCRIPTION" },
    { "SERVER", NULL, C | A | D, "SERVER" },
    { "CONVERSION", NULL, C | A | D, "CONVERSION" },
    { "TRANSFORM", NULL, C | D, "TRANSFORM" },
    { "LANGUAGE", NULL, C | A | D, "LANGUAGE" },
    { "SYSTEM", NULL, A, "SYSTEM" },
    { "OWNED", NULL, D, "OWNED" },
    { "FOREIGN", "DATA", C | A | D, "FOREIGN DATA WRAPPER" },
    { "FOREIGN", "TABLE", C | A | D, "FOREIGN TABLE" },
    { "EVENT", "TRIGGER", C | A | D, "EVENT TRIGGER" },
    { "TEXT", "SEARCH", C | A | D, "TEXT SEARCH" },
    { "ACCESS", "METHOD", C | D, "ACCESS METHOD" },
    { "LARGE", "OBJECT", A, "LARGE OBJECT" },
    { "CONSTRAINT", "TRIGGER", C, "CONSTRAINT TRIGGER" },
    { "DEFAULT", "PRIVILEGES", A, "DEFAULT PRIVILEGES" },
    { "DEFAULT", "CONVERSION", C, "DEFAULT CONVERSION" },
};

/* Statements attu lacks altogether, named by their first words. */
static const struct {
    const char *first, *second, *name;
} statements[] = {
    { "DO", NULL, "DO" },
    { "CALL", NULL, "CALL" },
    { "CLUSTER", NULL, "CLUSTER" },
    { "LOAD", NULL, "LOAD" },
    { "SECURITY", NULL, "SECURITY LABEL" },
    { "REASSIGN", NULL, "REASSIGN OWNED" },
    { "IMPORT", NULL, "IMPORT FOREIGN SCHEMA" },
};

/* The objects PostgreSQL's COMMENT ON takes (their first word). */
static const char *const comment_kinds[] = {
    "ACCESS", "AGGREGATE", "CAST", "COLLATION", "COLUMN", "CONSTRAINT", "CONVERSION", "DATABASE",
    "DOMAIN", "EXTENSION", "EVENT", "FOREIGN", "FUNCTION", "INDEX", "LARGE", "MATERIALIZED",
    "OPERATOR", "POLICY", "PROCEDURE", "PUBLICATION", "ROLE", "ROUTINE", "RULE", "SCHEMA",
    "SEQUENCE", "SERVER", "STATISTICS", "SUBSCRIPTION", "TABLE", "TABLESPACE", "TEXT",
    "TRANSFORM", "TRIGGER", "TYPE", "VIEW",
};

/* The privileges GRANT and REVOKE name before ON. */
static const char *const privileges[] = {
    "SELECT", "INSERT", "UPDATE", "DELETE", "TRUNCATE", "REFERENCES", "TRIGGER", "ALL",
    "CREATE", "CONNECT", "TEMPORARY", "TEMP", "EXECUTE", "USAGE", "MAINTAIN",
};

#define COUNT(a) (sizeof(a) / sizeof *(a))

bool attu_unsupported_statement(const char *sql, size_t len, size_t stmt_start, size_t tok_off,
                                char *buf, size_t bufsize) {
    word w[MAX_WORDS];
    size_t stop;
    const int n = leading_words(sql, len, stmt_start, w, MAX_WORDS, &stop);
    const char *what = NULL;
    char name[96];   /* the names shown are the tables' (capitals), not as typed */
    /* TABLESAMPLE, wherever the parser met it */
    word t;
    size_t after;
    if (leading_words(sql, len, tok_off, &t, 1, &after) == 1 && t.off == tok_off && is(sql, &t, "TABLESAMPLE"))
        what = "TABLESAMPLE";
    for (size_t i = 0; !what && n >= 1 && i < COUNT(statements); i++)
        if (w[0].off == tok_off && is(sql, &w[0], statements[i].first)) what = statements[i].name;
    if (!what && n >= 2 && (is(sql, &w[0], "CREATE") || is(sql, &w[0], "ALTER") || is(sql, &w[0], "DROP"))) {
        /* CREATE OR REPLACE <object> */
        const int k = n >= 4 && is(sql, &w[0], "CREATE") && is(sql, &w[1], "OR") && is(sql, &w[2], "REPLACE") ? 3 : 1;
        const int verb = is(sql, &w[0], "CREATE") ? C : is(sql, &w[0], "ALTER") ? A : D;
        const char *verb_name = verb == C ? "CREATE" : verb == A ? "ALTER" : "DROP";
        for (size_t i = 0; k < n && w[k].off == tok_off && i < COUNT(objects); i++) {
            if (!(objects[i].verbs & verb) || !is(sql, &w[k], objects[i].kind)) continue;
            if (objects[i].next && !(k + 1 < n && is(sql, &w[k + 1], objects[i].next))) continue;
            snprintf(name, sizeof name, "%s %s", verb_name, objects[i].name);
            what = name;
            break;
        }
        /* CREATE / ALTER / DROP USER MAPPING (USER alone is a role) */
        if (!what && n >= 4 && is(sql, &w[1], "USER") && is(sql, &w[2], "MAPPING") && w[3].off == tok_off) {
            snprintf(name, sizeof name, "%s USER MAPPING", verb_name);
            what = name;
        }
        /* CREATE TYPE name AS (...) / AS RANGE: enums and domains are attu's */
        if (!what && n >= 4 && is(sql, &w[0], "CREATE") && is(sql, &w[1], "TYPE") && is(sql, &w[3], "AS")) {
            if (n == 4 && stop == tok_off && stop < len && sql[stop] == '(')
                what = "CREATE TYPE ... AS (composite types)";
            else if (n >= 5 && w[4].off == tok_off && is(sql, &w[4], "RANGE"))
                what = "CREATE TYPE ... AS RANGE";
        }
    }
    /* COMMENT ON an object attu does not comment on */
    if (!what && n >= 3 && is(sql, &w[0], "COMMENT") && is(sql, &w[1], "ON") && w[2].off == tok_off) {
        for (size_t i = 0; !what && i < COUNT(comment_kinds); i++)
            if (is(sql, &w[2], comment_kinds[i])) {
                snprintf(name, sizeof name, "COMMENT ON %s", comment_kinds[i]);
                what = name;
            }
    }
    /* two-phase commit */
    if (!what && n >= 2 && is(sql, &w[0], "PREPARE") && is(sql, &w[1], "TRANSACTION") &&
        (n == 2 ? stop == tok_off : w[2].off == tok_off))
        what = "PREPARE TRANSACTION";
    if (!what && n >= 2 && (is(sql, &w[0], "COMMIT") || is(sql, &w[0], "ROLLBACK")) && is(sql, &w[1], "PREPARED") &&
        w[1].off == tok_off)
        what = is(sql, &w[0], "COMMIT") ? "COMMIT PREPARED" : "ROLLBACK PREPARED";
    /* privileges on objects: attu's GRANT and REVOKE are of roles */
    if (!what && n >= 2 && (is(sql, &w[0], "GRANT") || is(sql, &w[0], "REVOKE"))) {
        bool privilege = false;
        for (size_t i = 0; i < COUNT(privileges); i++) privilege |= w[1].off == tok_off && is(sql, &w[1], privileges[i]);
        for (int k = 2; k < n; k++) privilege |= w[k].off == tok_off && is(sql, &w[k], "ON");
        if (privilege) what = is(sql, &w[0], "GRANT") ? "GRANT of privileges on objects" : "REVOKE of privileges on objects";
    }
    if (!what) return false;
    snprintf(buf, bufsize, "%s is not supported", what);
    return true;
}
