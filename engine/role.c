/*
 * role.c - roles and memberships in the comments store (role.h).
 *
 * A role's text is one line of words:
 *
 *     <oid> <flags> <connection limit> <valid until, or -> <verifier, or ->
 *
 * flags seven letters t / f: SUPERUSER, INHERIT, CREATEROLE, CREATEDB,
 * LOGIN, REPLICATION, BYPASSRLS; valid until in UTC microseconds. A SCRAM
 * verifier holds no blank, so it is one word.
 */
#define _GNU_SOURCE
#include "engine/role.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/comments.h"
#include "engine/strbuf.h"

static bool store_key(const char *name, char *buf, size_t cap) {
    return (size_t)snprintf(buf, cap, "\001%s", name) < cap;
}

/* Parses one role's text; false when malformed or out of memory. */
static bool parse_role(const char *name, const char *text, attu_role *out) {
    memset(out, 0, sizeof *out);
    if (strlen(name) > ATTU_ROLE_NAME_MAX) return false;
    strcpy(out->name, name);
    unsigned oid;
    char flags[8], vu[32], pw[512];
    int limit;
    if (sscanf(text, "%u %7s %d %31s %511s", &oid, flags, &limit, vu, pw) != 5 || strlen(flags) != 7) return false;
    out->oid = oid;
    bool *f[7] = { &out->super, &out->inherit, &out->createrole, &out->createdb, &out->login, &out->replication,
                   &out->bypassrls };
    for (int i = 0; i < 7; i++) *f[i] = flags[i] == 't';
    out->connlimit = limit;
    if (strcmp(vu, "-")) {
        out->has_valid_until = true;
        out->valid_until = strtoll(vu, NULL, 10);
    }
    if (strcmp(pw, "-") && !(out->password = strdup(pw))) return false;
    return true;
}

bool attu_role_find(const attu_comments *cs, const char *name, attu_role *out) {
    memset(out, 0, sizeof *out);   /* (attu_role_clear is safe after a miss) */
    char k[ATTU_ROLE_NAME_MAX + 3];
    if (!cs || !store_key(name, k, sizeof k)) return false;
    const char *text = attu_comments_get(cs, ATTU_ROLE_COMMENT_KIND, k, "");
    return text && parse_role(name, text, out);
}

bool attu_role_find_oid(const attu_comments *cs, unsigned oid, attu_role *out) {
    memset(out, 0, sizeof *out);
    for (size_t i = 0; cs && i < attu_comments_count(cs); i++) {
        const attu_comment *c = attu_comments_at(cs, i);
        if (c->kind == ATTU_ROLE_COMMENT_KIND && (unsigned)strtoul(c->text, NULL, 10) == oid)
            return parse_role(c->rel + 1, c->text, out);
    }
    return false;
}

void attu_role_clear(attu_role *r) {
    free(r->password);
    r->password = NULL;
}

int attu_role_store(attu_comments *cs, const attu_role *r) {
    char k[ATTU_ROLE_NAME_MAX + 3];
    if (!store_key(r->name, k, sizeof k)) return -1;
    attu_strbuf b = { 0 };
    const bool f[7] = { r->super, r->inherit, r->createrole, r->createdb, r->login, r->replication, r->bypassrls };
    attu_strbuf_printf(&b, "%u ", r->oid);
    for (int i = 0; i < 7; i++) attu_strbuf_putc(&b, f[i] ? 't' : 'f');
    attu_strbuf_printf(&b, " %d ", r->connlimit);
    if (r->has_valid_until) attu_strbuf_printf(&b, "%" PRId64 " ", r->valid_until);
    else attu_strbuf_puts(&b, "- ");
    attu_strbuf_puts(&b, r->password ? r->password : "-");
    int rc = b.p && !b.oom ? attu_comments_set(cs, ATTU_ROLE_COMMENT_KIND, k, "", b.p) : -1;
    free(b.p);
    return rc;
}

void attu_role_remove(attu_comments *cs, const char *name) {
    char k[ATTU_ROLE_NAME_MAX + 3];
    if (store_key(name, k, sizeof k)) attu_comments_set(cs, ATTU_ROLE_COMMENT_KIND, k, "", NULL);
}

unsigned attu_role_next_oid(const attu_comments *cs) {
    unsigned top = ATTU_ROLE_FIRST_OID - 1;
    for (size_t i = 0; cs && i < attu_comments_count(cs); i++) {
        const attu_comment *c = attu_comments_at(cs, i);
        unsigned oid = (unsigned)strtoul(c->text, NULL, 10);
        if (c->kind == ATTU_ROLE_COMMENT_KIND && oid > top) top = oid;
    }
    return top + 1;
}

void attu_role_each(const attu_comments *cs, void (*fn)(void *ctx, const attu_role *r), void *ctx) {
    for (size_t i = 0; cs && i < attu_comments_count(cs); i++) {
        const attu_comment *c = attu_comments_at(cs, i);
        if (c->kind != ATTU_ROLE_COMMENT_KIND) continue;
        attu_role r;
        if (parse_role(c->rel + 1, c->text, &r)) fn(ctx, &r);
        attu_role_clear(&r);
    }
}

/* ---- memberships ------------------------------------------------------ */

static void member_key(unsigned role, unsigned member, char *rel, size_t rcap, char *sub, size_t scap) {
    snprintf(rel, rcap, "\001%u", role);
    snprintf(sub, scap, "%u", member);
}

bool attu_role_member_get(const attu_comments *cs, unsigned role, unsigned member, unsigned *grantor, bool *admin) {
    char rel[16], sub[16];
    member_key(role, member, rel, sizeof rel, sub, sizeof sub);
    const char *text = cs ? attu_comments_get(cs, ATTU_ROLE_MEMBER_KIND, rel, sub) : NULL;
    if (!text) return false;
    if (grantor) *grantor = (unsigned)strtoul(text, NULL, 10);
    if (admin) { const char *sp = strchr(text, ' '); *admin = sp && sp[1] == 't'; }
    return true;
}

int attu_role_member_set(attu_comments *cs, unsigned role, unsigned member, unsigned grantor, bool admin) {
    char rel[16], sub[16], text[32];
    member_key(role, member, rel, sizeof rel, sub, sizeof sub);
    snprintf(text, sizeof text, "%u %c", grantor, admin ? 't' : 'f');
    return attu_comments_set(cs, ATTU_ROLE_MEMBER_KIND, rel, sub, text);
}

bool attu_role_member_remove(attu_comments *cs, unsigned role, unsigned member) {
    if (!attu_role_member_get(cs, role, member, NULL, NULL)) return false;
    char rel[16], sub[16];
    member_key(role, member, rel, sizeof rel, sub, sizeof sub);
    attu_comments_set(cs, ATTU_ROLE_MEMBER_KIND, rel, sub, NULL);
    return true;
}

static bool parse_member(const attu_comment *c, attu_role_member *m) {
    if (c->kind != ATTU_ROLE_MEMBER_KIND) return false;
    m->role = (unsigned)strtoul(c->rel + 1, NULL, 10);
    m->member = (unsigned)strtoul(c->sub, NULL, 10);
    m->grantor = (unsigned)strtoul(c->text, NULL, 10);
    const char *sp = strchr(c->text, ' ');
    m->admin = sp && sp[1] == 't';
    return true;
}

void attu_role_member_drop_all(attu_comments *cs, unsigned oid) {
    /* (removing shifts the entries after it: start over after each) */
    for (size_t i = 0; i < attu_comments_count(cs);) {
        attu_role_member m;
        if (parse_member(attu_comments_at(cs, i), &m) && (m.role == oid || m.member == oid)) {
            attu_role_member_remove(cs, m.role, m.member);
            i = 0;
        } else i++;
    }
}

void attu_role_member_each(const attu_comments *cs, void (*fn)(void *ctx, const attu_role_member *m), void *ctx) {
    for (size_t i = 0; cs && i < attu_comments_count(cs); i++) {
        attu_role_member m;
        if (parse_member(attu_comments_at(cs, i), &m)) fn(ctx, &m);
    }
}

/* Depth-first through the roles member is in; seen guards the search
 * against a cycle (GRANT refuses them, but a damaged file may hold one). */
static bool reaches(const attu_comments *cs, unsigned member, unsigned role, bool inherit_only, unsigned *seen,
                    int nseen) {
    if (member == role) return true;
    if (nseen >= 64) return false;
    for (int i = 0; i < nseen; i++) if (seen[i] == member) return false;
    seen[nseen++] = member;
    if (inherit_only && member != ATTU_ROLE_BOOTSTRAP_OID) {
        attu_role r;
        bool inherit = attu_role_find_oid(cs, member, &r) && r.inherit;
        attu_role_clear(&r);
        if (!inherit) return false;
    }
    for (size_t i = 0; i < attu_comments_count(cs); i++) {
        attu_role_member m;
        if (parse_member(attu_comments_at(cs, i), &m) && m.member == member &&
            reaches(cs, m.role, role, inherit_only, seen, nseen))
            return true;
    }
    return false;
}

bool attu_role_is_member(const attu_comments *cs, unsigned member, unsigned role, bool inherit_only) {
    unsigned seen[64];
    if (member == role) return true;
    return cs && reaches(cs, member, role, inherit_only, seen, 0);
}
