/*
 * jsonpath_print.c - the canonical text of a jsonpath (jsonpath_out), as
 * PostgreSQL 15 prints it: keys and strings quoted with JSON's escapes,
 * variables as $"name", numbers as numeric_out, `strict ` before a strict
 * path, and operators in parentheses where needed:
 *
 * a binary or unary operator is parenthesized where its caller asks for it
 * (the whole path does; an operand does when its operator binds no tighter
 * than the operator it is an operand of: `(1 + 2) * 3` prints as
 * `((1 + 2) * 3)`, `1 + 2 * 3` as `(1 + 2 * 3)`); a filter's predicate,
 * an array subscript and the operand of !, exists and is unknown never are;
 * a number with an accessor after it is (`(1.5).type()`).
 */
#include "engine/jsonpath.h"

#include <stdio.h>
#include <string.h>

static void put(jbuf *b, const char *s) { attu_jt_put(b, s, strlen(s)); }

/* how tightly an operator binds (higher: tighter) */
static int priority(jp_kind k) {
    switch (k) {
    case JP_OR: return 0;
    case JP_AND: return 1;
    case JP_EQ: case JP_NE: case JP_LT: case JP_LE: case JP_GT: case JP_GE: case JP_STARTS_WITH: return 2;
    case JP_ADD: case JP_SUB: return 3;
    case JP_MUL: case JP_DIV: case JP_MOD: return 4;
    case JP_PLUS: case JP_MINUS: return 5;
    default: return 6;
    }
}

static const char *op_text(jp_kind k) {
    switch (k) {
    case JP_OR: return "||";
    case JP_AND: return "&&";
    case JP_EQ: return "==";
    case JP_NE: return "!=";
    case JP_LT: return "<";
    case JP_LE: return "<=";
    case JP_GT: return ">";
    case JP_GE: return ">=";
    case JP_STARTS_WITH: return "starts with";
    case JP_ADD: case JP_PLUS: return "+";
    case JP_SUB: case JP_MINUS: return "-";
    case JP_MUL: return "*";
    case JP_DIV: return "/";
    case JP_MOD: return "%";
    default: return "?";
    }
}

static void put_level(jbuf *b, uint32_t v) {
    char t[16];
    if (v == JP_ANY_LAST) { put(b, "last"); return; }
    snprintf(t, sizeof t, "%u", v);
    put(b, t);
}

static void print_item(jbuf *b, const jp_item *it, bool brackets) {
    /* the chain iteratively (a chain may be long; nesting is bounded by
     * the parser) */
    for (; it; it = it->next, brackets = true) {
    switch (it->kind) {
    case JP_NULL: put(b, "null"); break;
    case JP_BOOL: put(b, it->b ? "true" : "false"); break;
    case JP_STRING: attu_jt_put_escaped(b, it->s, it->slen); break;
    case JP_NUMERIC:
        if (it->next) put(b, "(");
        attu_jt_put(b, it->s, it->slen);
        if (it->next) put(b, ")");
        break;
    case JP_ROOT: put(b, "$"); break;
    case JP_CURRENT: put(b, "@"); break;
    case JP_LAST: put(b, "last"); break;
    case JP_VAR: put(b, "$"); attu_jt_put_escaped(b, it->s, it->slen); break;
    case JP_KEY: put(b, "."); attu_jt_put_escaped(b, it->s, it->slen); break;
    case JP_ANY_KEY: put(b, ".*"); break;
    case JP_ANY_ARRAY: put(b, "[*]"); break;
    case JP_INDEX:
        put(b, "[");
        for (int i = 0; i < it->nsubs; i++) {
            if (i) put(b, ",");
            print_item(b, it->from[i], false);
            if (it->to[i]) { put(b, " to "); print_item(b, it->to[i], false); }
        }
        put(b, "]");
        break;
    case JP_ANY:
        put(b, ".**");
        if (it->first == it->last) { put(b, "{"); put_level(b, it->first); put(b, "}"); }
        else if (!(it->first == 0 && it->last == JP_ANY_LAST)) {
            put(b, "{"); put_level(b, it->first); put(b, " to "); put_level(b, it->last); put(b, "}");
        }
        break;
    case JP_FILTER: put(b, "?("); print_item(b, it->left, false); put(b, ")"); break;
    case JP_TYPE: put(b, ".type()"); break;
    case JP_SIZE: put(b, ".size()"); break;
    case JP_DOUBLE: put(b, ".double()"); break;
    case JP_CEILING: put(b, ".ceiling()"); break;
    case JP_FLOOR: put(b, ".floor()"); break;
    case JP_ABS: put(b, ".abs()"); break;
    case JP_KEYVALUE: put(b, ".keyvalue()"); break;
    case JP_DATETIME:
        put(b, ".datetime(");
        if (it->s) attu_jt_put_escaped(b, it->s, it->slen);
        put(b, ")");
        break;
    case JP_PLUS: case JP_MINUS:
        if (brackets) put(b, "(");
        put(b, op_text(it->kind));
        print_item(b, it->left, priority(it->left->kind) <= priority(it->kind));
        if (brackets) put(b, ")");
        break;
    case JP_NOT: put(b, "!("); print_item(b, it->left, false); put(b, ")"); break;
    case JP_EXISTS: put(b, "exists ("); print_item(b, it->left, false); put(b, ")"); break;
    case JP_IS_UNKNOWN: put(b, "("); print_item(b, it->left, false); put(b, ") is unknown"); break;
    case JP_LIKE_REGEX:
        if (brackets) put(b, "(");
        print_item(b, it->left, priority(it->left->kind) <= priority(it->kind));
        put(b, " like_regex ");
        attu_jt_put_escaped(b, it->s, it->slen);
        if (it->flags) {
            put(b, " flag \"");
            if (it->flags & JP_RE_I) put(b, "i");
            if (it->flags & JP_RE_S) put(b, "s");
            if (it->flags & JP_RE_M) put(b, "m");
            if (it->flags & JP_RE_X) put(b, "x");
            if (it->flags & JP_RE_Q) put(b, "q");
            put(b, "\"");
        }
        if (brackets) put(b, ")");
        break;
    default:   /* the binary operators */
        if (brackets) put(b, "(");
        print_item(b, it->left, priority(it->left->kind) <= priority(it->kind));
        put(b, " ");
        put(b, op_text(it->kind));
        put(b, " ");
        print_item(b, it->right, priority(it->right->kind) <= priority(it->kind));
        if (brackets) put(b, ")");
        break;
    }
    }
}

void attu_jsonpath_print(jbuf *b, const jp_path *p) {
    if (p->strict) put(b, "strict ");
    print_item(b, p->root, true);
}
