/*
 * db_function.c - SQL functions: CREATE [OR REPLACE] FUNCTION, DROP
 * FUNCTION, ALTER FUNCTION (RENAME TO, OWNER TO, SET SCHEMA, options),
 * as PostgreSQL 15
 * (engine/sql_function.h says how a function is kept,
 * planner/sql_function_bind.c how a call runs).
 *
 * A statement here changes the working catalog's comments store under the
 * write lock and marks the comments file for COMMIT, as the domains'
 * statements do (db_domain.c), so a ROLLBACK forgets it.
 *
 * CREATE checks the body as PostgreSQL's check_function_bodies does: it
 * is parsed (a syntax error stands where it is in the CREATE statement's
 * text, as function_parse_error_transpose places it) and analysed with
 * the parameters typed ($k and the parameters' names), which finds the
 * body's unknown columns, functions and operators, and its result's type
 * must be the declared one or cast to it by an assignment cast (42P13
 * "return type mismatch" otherwise).
 */
#include "db/db_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/comments.h"
#include "engine/sql_function.h"
#include "engine/strbuf.h"
#include "engine/view.h"

/* A type as PostgreSQL's format_type names it in messages. */
static const char *type_text(attu_type t, char *buf, size_t cap) {
    if (t.id == ATTU_TYPE_DECIMAL) return "numeric";
    return attu_type_name(t, buf, cap);
}

/* "f(integer, text)" */
static void signature_text(const char *name, int n, const attu_type *ts, char *buf, size_t cap) {
    size_t used = (size_t)snprintf(buf, cap, "%s(", name);
    for (int i = 0; i < n && used < cap; i++) {
        char tb[96];
        used += (size_t)snprintf(buf + used, cap - used, "%s%s", i ? ", " : "", type_text(ts[i], tb, sizeof tb));
    }
    if (used < cap) snprintf(buf + used, cap - used, ")");
}

/* A declared argument's or result's type, as PostgreSQL keeps it: without
 * its typmod (numeric(10,2) is numeric, varchar(5) varchar). */
static int declared_type(const attu_ast_typename *tn, attu_type *out, attu_error *err) {
    if (db_column_type(tn, out, err)) return -1;
    if (db_serial_type(tn->name, tn->precision))
        return attu_error_set(err, ATTU_SQLSTATE_UNDEFINED_OBJECT, tn->position, "type \"%s\" does not exist", tn->name);
    attu_type t = attu_type_make(out->id);
    if (t.id == ATTU_TYPE_DECIMAL) t.no_typmod = 1;
    if (attu_type_is_varchar_any(*out)) t = attu_type_varchar_unbounded();
    else if (attu_type_is_bpchar_any(*out)) t = attu_type_bpchar_unbounded();
    else if (out->id == ATTU_TYPE_TEXT || attu_type_is_array(*out)) t = *out;   /* (record, arrays as declared) */
    *out = t;
    return 0;
}

static int arg_types(const attu_ast_function *fn, attu_type *ts, attu_error *err) {
    if (fn->nargs > ATTU_FUNCTION_MAX_ARGS)
        return attu_error_set(err, "54023", 0, "functions cannot have more than %d arguments", ATTU_FUNCTION_MAX_ARGS);
    for (int i = 0; i < fn->nargs; i++)
        if (declared_type(&fn->args[i].type, &ts[i], err)) return -1;
    return 0;
}

/* Where the body's text starts in the statement (1-based characters):
 * past the literal's opening quote, E'' or $tag$. */
static int body_start(const char *sql, const attu_ast_function *fn) {
    if (fn->body_std) return fn->body_position;
    const char *p = sql + fn->body_offset;
    int skip = 1;
    if (*p == '$') {
        const char *q = strchr(p + 1, '$');
        skip = q ? (int)(q - p) + 1 : 1;
    } else if (*p == 'E' || *p == 'e') skip = 2;
    return fn->body_position + skip;
}

/* The body's error err (a position in the body's text) placed in the
 * statement's text. */
static int transpose(const char *sql, const attu_ast_function *fn, attu_error *err) {
    if (err->position > 0) err->position = body_start(sql, fn) + err->position - 1;
    return -1;
}

static int return_mismatch(attu_type ret, attu_error *err) {
    char tb[96];
    return attu_error_set(err, "42P13", 0, "return type mismatch in function declared to return %s",
                          type_text(ret, tb, sizeof tb));
}

/* Checks the body of f (declared by fn in statement sql) as
 * check_function_bodies does. */
static int check_body(attu_session *s, const char *sql, const attu_ast_function *fn, const attu_sql_function *f,
                      attu_error *err) {
    attu_error pe;
    attu_error_clear(&pe);
    attu_parse_result *pr = attu_parse(f->body, &pe);
    if (!pr) { *err = pe; return transpose(sql, fn, err); }
    int rc = 0;
    attu_plan_arena *pa = NULL;
    if (pr->n == 0 || pr->stmts[pr->n - 1].stmt->kind != ATTU_STMT_SELECT ||
        !pr->stmts[pr->n - 1].stmt->u.select.query) {
        return_mismatch(f->ret, err);
        attu_error_set_detail(err, "Function's final statement must be SELECT or INSERT/UPDATE/DELETE RETURNING.");
        rc = -1;
        goto out;
    }
    if (pr->n > 1) {
        rc = attu_error_set(err, ATTU_SQLSTATE_FEATURE_NOT_SUPPORTED, fn->body_position,
                            "SQL functions of more than one statement are not supported");
        goto out;
    }
    if (!(pa = attu_plan_arena_new())) { rc = attu_error_oom(err); goto out; }
    attu_bind_params bp = db_describe_params(s, NULL, true);
    bp.n = f->nargs;
    bp.types = f->arg_types;
    bp.values = NULL;
    bp.param_names = (const char *const *)f->arg_names;
    bp.function_name = f->name;
    attu_error be;
    attu_error_clear(&be);
    attu_lplan *lp = attu_bind_query(pa, db_cat(s), f->body, pr->stmts[0].stmt->u.select.query, &bp, &be);
    if (!lp) { *err = be; rc = transpose(sql, fn, err); goto out; }
    int want = f->nout > 1 ? f->nout : 1;
    if (lp->ncols != want) {
        return_mismatch(f->ret, err);
        attu_error_set_detail(err, want > 1 ? (lp->ncols > want ? "Final statement returns too many columns."
                                                                 : "Final statement returns too few columns.")
                                            : "Final statement must return exactly one column.");
        rc = -1;
        goto out;
    }
    for (int i = 0; i < want && !rc; i++) {
        attu_type got = lp->types[i], decl = f->nout ? f->out_types[i] : f->ret;
        if (attu_type_pg_oid(got) == attu_type_pg_oid(decl) || got.id == ATTU_TYPE_UNKNOWN) continue;
        attu_bexpr *v = attu_bx_new(pa, BX_CONST, got, 0);
        attu_error ce;
        attu_error_clear(&ce);
        if (!v) { rc = attu_error_oom(err); goto out; }
        v->is_null = true;
        if (!attu_bind_coerce_assign(pa, v, decl, "?", &ce)) {
            char tb[96], db[96];
            return_mismatch(f->ret, err);
            if (want > 1)
                attu_error_set_detail(err, "Final statement returns %s instead of %s at column %d.",
                                      type_text(got, tb, sizeof tb), type_text(decl, db, sizeof db), i + 1);
            else attu_error_set_detail(err, "Actual return type is %s.", type_text(got, tb, sizeof tb));
            rc = -1;
        }
    }
out:
    attu_plan_arena_free(pa);
    attu_parse_free(pr);
    return rc;
}

/* A DEFAULT of parameter a (type t): its text, checked as a value of t. */
static char *check_default(attu_session *s, const attu_ast_func_arg *a, attu_type t, attu_error *err) {
    char *text = db_deparse_default(a->dflt, err);
    if (!text) return NULL;
    /* an untyped literal is read as the parameter's type at the call */
    if (a->dflt->kind == ATTU_EXPR_LITERAL && (a->dflt->u.literal.kind == ATTU_LIT_STRING ||
                                              a->dflt->u.literal.kind == ATTU_LIT_NULL))
        return text;
    attu_strbuf q = { 0 };
    attu_strbuf_printf(&q, "SELECT %s", text);
    attu_error e2;
    attu_error_clear(&e2);
    attu_parse_result *pr = q.p && !q.oom ? attu_parse(q.p, &e2) : NULL;
    attu_plan_arena *pa = pr ? attu_plan_arena_new() : NULL;
    int rc = -1;
    if (pa) {
        attu_bind_params bp = db_describe_params(s, NULL, true);
        attu_lplan *lp = attu_bind_query(pa, db_cat(s), q.p, pr->stmts[0].stmt->u.select.query, &bp, &e2);
        if (lp && lp->ncols == 1) {
            attu_bexpr *v = attu_bx_new(pa, BX_CONST, lp->types[0], 0);
            if (v) {
                v->is_null = true;
                if (lp->types[0].id == ATTU_TYPE_UNKNOWN || lp->types[0].id == t.id ||
                    attu_bind_coerce_assign(pa, v, t, "?", &e2))
                    rc = 0;
            }
        }
    }
    if (rc) {
        if (e2.set) { *err = e2; err->position = a->dflt->position; }
        else attu_error_oom(err);
        free(text);
        text = NULL;
    }
    attu_plan_arena_free(pa);
    attu_parse_free(pr);
    free(q.p);
    return text;
}

static int create_function(attu_session *s, const char *sql, const attu_ast_function *fn, attu_error *err) {
    if (!fn->language)
        return attu_error_set(err, "42P13", 0, "no language specified");
    if (strcmp(fn->language, "sql")) {
        if (!strcmp(fn->language, "plpgsql") || !strcmp(fn->language, "c") || !strcmp(fn->language, "internal"))
            return attu_error_set(err, ATTU_SQLSTATE_FEATURE_NOT_SUPPORTED, fn->language_position,
                                  "language \"%s\" is not supported: only SQL functions are", fn->language);
        return attu_error_set(err, ATTU_SQLSTATE_UNDEFINED_OBJECT, 0, "language \"%s\" does not exist", fn->language);
    }
    if (!fn->body) return attu_error_set(err, "42P13", 0, "no function body specified");
    if (fn->body_link) return attu_error_set(err, "42P13", 0, "only one AS item needed for language \"sql\"");
    if (strlen(fn->name) > ATTU_NAME_MAX)
        return attu_error_set(err, "42622", 0, "function name \"%s\" is too long", fn->name);
    attu_sql_function *f = calloc(1, sizeof *f);
    if (!f) return attu_error_oom(err);
    int rc = -1;
    attu_sql_function *old = NULL;
    f->nargs = fn->nargs;
    f->arg_types = calloc((size_t)fn->nargs + 1, sizeof *f->arg_types);
    f->arg_names = calloc((size_t)fn->nargs + 1, sizeof *f->arg_names);
    f->arg_defaults = calloc((size_t)fn->nargs + 1, sizeof *f->arg_defaults);
    if (!(f->name = strdup(fn->name)) || !(f->body = strdup(fn->body)) || !f->arg_types || !f->arg_names ||
        !f->arg_defaults) {
        attu_error_oom(err);
        goto out;
    }
    f->volatility = fn->volatility ? fn->volatility : 'v';
    f->strict = fn->strict == 1;
    f->parallel = fn->parallel ? fn->parallel : 'u';
    f->leakproof = fn->leakproof == 1;
    f->sql_body = fn->body_atomic ? 2 : fn->body_std ? 1 : 0;
    if (arg_types(fn, f->arg_types, err)) goto out;
    for (int i = 0; i < fn->nargs; i++) {
        /* VARIADIC: the last parameter, an array (PostgreSQL's
         * interpret_function_parameter_list) */
        if (!fn->args[i].variadic) continue;
        if (i != fn->nargs - 1) {
            attu_error_set(err, "42P13", 0, "VARIADIC parameter must be the last input parameter");
            goto out;
        }
        if (!attu_type_is_array(f->arg_types[i])) {
            attu_error_set(err, "42P13", 0, "VARIADIC parameter must be an array");
            goto out;
        }
        f->variadic = true;
    }
    f->retset = fn->retset;
    if (fn->nout) {
        /* RETURNS TABLE (...): its columns; the result type is the one
         * column's, or record */
        f->out_types = calloc((size_t)fn->nout, sizeof *f->out_types);
        f->out_names = calloc((size_t)fn->nout, sizeof *f->out_names);
        if (!f->out_types || !f->out_names) { attu_error_oom(err); goto out; }
        f->nout = fn->nout;
        for (int i = 0; i < fn->nout; i++) {
            if (declared_type(&fn->outs[i].type, &f->out_types[i], err)) goto out;
            if (!(f->out_names[i] = strdup(fn->outs[i].name))) { attu_error_oom(err); goto out; }
            for (int j = 0; j < i; j++)
                if (!strcmp(f->out_names[j], f->out_names[i])) {
                    attu_error_set(err, "42P13", 0, "parameter name \"%s\" used more than once", f->out_names[i]);
                    goto out;
                }
        }
        if (f->nout == 1) f->ret = f->out_types[0];
        else { attu_type rec = { ATTU_TYPE_TEXT, 0, ATTU_RECORD_SCALE, 0 }; f->ret = rec; }
    } else if (declared_type(&fn->ret, &f->ret, err)) goto out;
    bool seen_default = false;
    for (int i = 0; i < fn->nargs; i++) {
        const attu_ast_func_arg *a = &fn->args[i];
        if (a->name) {
            for (int j = 0; j < i; j++)
                if (fn->args[j].name && !strcmp(fn->args[j].name, a->name)) {
                    attu_error_set(err, "42P13", 0, "parameter name \"%s\" used more than once", a->name);
                    goto out;
                }
            if (!(f->arg_names[i] = strdup(a->name))) { attu_error_oom(err); goto out; }
        }
        if (a->dflt) {
            seen_default = true;
            if (!(f->arg_defaults[i] = check_default(s, a, f->arg_types[i], err))) goto out;
        } else if (seen_default) {
            attu_error_set(err, "42P13", 0, "input parameters after one with a default value must also have defaults");
            goto out;
        }
    }
    attu_comments *cs = attu_catalog_comments(db_cat(s));
    old = attu_sql_function_find(cs, f->name, f->nargs, f->arg_types);
    char sig[512];
    signature_text(f->name, f->nargs, f->arg_types, sig, sizeof sig);
    if (old && !fn->or_replace) {
        attu_error_set(err, "42723", 0, "function \"%s\" already exists with same argument types", f->name);
        goto out;
    }
    if (old) {
        char hint[600];
        snprintf(hint, sizeof hint, "Use DROP FUNCTION %s first.", sig);
        bool same_outs = old->nout == f->nout;
        for (int i = 0; same_outs && i < f->nout; i++)
            same_outs = attu_type_pg_oid(old->out_types[i]) == attu_type_pg_oid(f->out_types[i]) &&
                        !strcmp(old->out_names[i], f->out_names[i]);
        if (attu_type_pg_oid(old->ret) != attu_type_pg_oid(f->ret) || old->retset != f->retset || !same_outs) {
            attu_error_set(err, "42P13", 0, "cannot change return type of existing function");
            attu_error_set_hint(err, hint);
            goto out;
        }
        for (int i = 0; i < f->nargs; i++)
            if (old->arg_names[i] && (!f->arg_names[i] || strcmp(old->arg_names[i], f->arg_names[i]))) {
                attu_error_set(err, "42P13", 0, "cannot change name of input parameter \"%s\"", old->arg_names[i]);
                attu_error_set_hint(err, hint);
                goto out;
            }
        if (attu_sql_function_ndefaults(f) < attu_sql_function_ndefaults(old)) {
            attu_error_set(err, "42P13", 0, "cannot remove parameter defaults from existing function");
            attu_error_set_hint(err, hint);
            goto out;
        }
        f->id = old->id;
        /* its comment stays, as pg_description's row of the same OID */
        f->comment = old->comment;
        old->comment = NULL;
    } else f->id = attu_sql_function_next_id(cs);
    /* stored before its body is checked, which may call it (PostgreSQL's
     * validator runs on the new pg_proc row); put back as it was after */
    if (attu_sql_function_store(cs, f)) { attu_error_oom(err); goto out; }
    if (check_body(s, sql, fn, f, err)) {
        if (old) attu_sql_function_store(cs, old);
        else attu_sql_function_remove(cs, f);
        goto out;
    }
    rc = 0;
out:
    attu_sql_function_free(old);
    attu_sql_function_free(f);
    return rc;
}

/* The function a signature names: exactly that one (has_args), or the
 * only one of the name. NULL with *missing (the name or signature has
 * none) or with err (42725, no memory). */
static attu_sql_function *find_signature(attu_session *s, const attu_ast_function *fn, bool *missing, char *sig,
                                         size_t cap, attu_error *err) {
    *missing = false;
    const attu_comments *cs = attu_catalog_comments(db_cat(s));
    if (fn->has_args) {
        attu_type ts[ATTU_FUNCTION_MAX_ARGS];
        if (arg_types(fn, ts, err)) return NULL;
        signature_text(fn->name, fn->nargs, ts, sig, cap);
        attu_sql_function *f = attu_sql_function_find(cs, fn->name, fn->nargs, ts);
        if (!f) *missing = true;
        return f;
    }
    snprintf(sig, cap, "%s()", fn->name);
    int n = 0;
    attu_sql_function **v = attu_sql_functions_named(cs, fn->name, &n);
    if (n < 0) { attu_error_oom(err); return NULL; }
    attu_sql_function *f = n == 1 ? v[0] : NULL;
    if (n > 1) {
        attu_error_set(err, "42725", 0, "function name \"%s\" is not unique", fn->name);
        attu_error_set_hint(err, "Specify the argument list to select the function unambiguously.");
        for (int i = 0; i < n; i++) attu_sql_function_free(v[i]);
    }
    if (!n) *missing = true;
    free(v);
    return f;
}

static int no_function(const attu_ast_function *fn, const char *sig, attu_error *err) {
    if (!fn->has_args)
        return attu_error_set(err, ATTU_SQLSTATE_UNDEFINED_FUNCTION, 0, "could not find a function named \"%s\"", fn->name);
    return attu_error_set(err, ATTU_SQLSTATE_UNDEFINED_FUNCTION, 0, "function %s does not exist", sig);
}

static bool word_char(char c) {
    return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}

/* Whether SQL text calls a function named name (a word name followed by
 * '(': attu keeps views, DEFAULTs and CHECKs as text, not as trees). */
static bool text_calls(const char *text, const char *name) {
    size_t n = strlen(name);
    for (const char *p = text; (p = strstr(p, name)); p += n) {
        bool start = p == text || !(word_char(p[-1]) || p[-1] == '.');
        const char *q = p + n;
        while (*q == ' ' || *q == '\n' || *q == '\t') q++;
        if (start && *q == '(') return true;
    }
    return false;
}

static bool view_calls(const attu_view *v, const char *name) { return text_calls(v->sql, name); }

/* A table's column DEFAULT or CHECK that calls a function of f's name:
 * 2BP01 with PostgreSQL's DETAIL (CASCADE, which would drop the DEFAULT
 * or the constraint, is not done here: 0A000). 0 when none does. */
static int table_users(attu_session *s, const attu_sql_function *f, const char *full, bool cascade, attu_error *err) {
    attu_catalog *cat = db_cat(s);
    for (size_t i = 0; i < attu_catalog_count(cat); i++) {
        const attu_table *t = attu_catalog_at(cat, i);
        char what[300] = "";
        for (int k = 0; k < t->ncols && !what[0]; k++) {
            const char *d = attu_catalog_default(cat, t->name, k);
            if (d && text_calls(d, f->name))
                snprintf(what, sizeof what, "default value for column %s of table %s", t->defs[k].name, t->name);
        }
        int nc = 0;
        const attu_check *cs = attu_catalog_checks(cat, t->name, &nc);
        for (int k = 0; k < nc && !what[0]; k++)
            if (cs[k].expr && text_calls(cs[k].expr, f->name))
                snprintf(what, sizeof what, "constraint %s on table %s", cs[k].name, t->name);
        if (!what[0]) continue;
        if (cascade)
            return attu_error_set(err, ATTU_SQLSTATE_FEATURE_NOT_SUPPORTED, 0,
                                  "DROP FUNCTION ... CASCADE of a function that a %s calls is not supported",
                                  strncmp(what, "default", 7) ? "CHECK constraint" : "column DEFAULT");
        attu_error_set(err, "2BP01", 0, "cannot drop function %s because other objects depend on it", full);
        attu_error_set_detail(err, "%s depends on function %s", what, full);
        attu_error_set_hint(err, "Use DROP ... CASCADE to drop the dependent objects too.");
        return -1;
    }
    return 0;
}

static int drop_functions(attu_session *s, const attu_ast_stmt *st, const attu_exec_callbacks *cb, attu_error *err) {
    for (const attu_ast_function *fn = st->u.type_stmt.fn; fn; fn = fn->next) {
        bool missing;
        char sig[512];
        attu_sql_function *f = find_signature(s, fn, &missing, sig, sizeof sig, err);
        if (!f && !missing) return -1;
        if (!f) {
            if (!st->u.type_stmt.if_exists) return no_function(fn, sig, err);
            char msg[600];
            snprintf(msg, sizeof msg, "function %s does not exist, skipping", sig);
            if (cb && cb->on_notice) cb->on_notice(cb->ctx, "00000", msg);
            continue;
        }
        /* (as PostgreSQL's format_procedure writes it: no space after the
         * commas) */
        char full[512];
        signature_text(f->name, f->nargs, f->arg_types, full, sizeof full);
        for (char *p = full, *q = full;; p++) {
            if (!(p[0] == ' ' && p > full && p[-1] == ',')) *q++ = *p;
            if (!*p) break;
        }
        /* a view that calls a function of the name depends on it (the one
         * overload or another: attu reads the view's text) */
        attu_views *vs = attu_catalog_views(db_cat(s));
        for (size_t i = 0; i < attu_views_count(vs); i++) {
            const attu_view *v = attu_views_at(vs, i);
            if (!view_calls(v, f->name)) continue;
            attu_error_set(err, "2BP01", 0, "cannot drop function %s because other objects depend on it", full);
            attu_error_set_detail(err, "%s %s depends on function %s", v->kind == 'm' ? "materialized view" : "view",
                                  v->name, full);
            attu_error_set_hint(err, "Use DROP ... CASCADE to drop the dependent objects too.");
            attu_sql_function_free(f);
            return -1;
        }
        if (table_users(s, f, full, st->u.type_stmt.cascade, err)) {
            attu_sql_function_free(f);
            return -1;
        }
        attu_sql_function_remove(attu_catalog_comments(db_cat(s)), f);
        attu_sql_function_free(f);
    }
    return 0;
}

/* ALTER FUNCTION f OWNER TO / SET SCHEMA (attu's one role and schema:
 * nothing changes, as ALTER DOMAIN's) and ALTER FUNCTION f option ...
 * (what CREATE's options set, changed in place). */
static int alter_function(attu_session *s, const attu_ast_stmt *st, attu_sql_function *f, bool *skipped,
                          attu_error *err) {
    const attu_ast_function *fn = st->u.type_stmt.fn;
    const char *to = st->u.type_stmt.nbr;
    if (st->u.type_stmt.sub == 'o' || st->u.type_stmt.sub == 's') {
        *skipped = true;
        const char *user = s->user[0] ? s->user : "attu";
        if (st->u.type_stmt.sub == 'o')
            return to && strcmp(to, user) ? attu_error_set(err, "42704", 0, "role \"%s\" does not exist", to) : 0;
        if (!strcmp(to, "public")) return 0;
        return attu_error_set(err, "3F000", 0, "schema \"%s\" does not exist", to);
    }
    if (fn->volatility) f->volatility = fn->volatility;
    if (fn->strict >= 0) f->strict = fn->strict == 1;
    if (fn->leakproof >= 0) f->leakproof = fn->leakproof == 1;
    if (fn->parallel) f->parallel = fn->parallel;
    return attu_sql_function_store(attu_catalog_comments(db_cat(s)), f) ? attu_error_oom(err) : 0;
}

static int rename_function(attu_session *s, const attu_ast_stmt *st, bool *skipped, attu_error *err) {
    const attu_ast_function *fn = st->u.type_stmt.fn;
    const char *to = st->u.type_stmt.nbr;
    bool missing;
    char sig[512];
    attu_sql_function *f = find_signature(s, fn, &missing, sig, sizeof sig, err);
    if (!f) return missing ? no_function(fn, sig, err) : -1;
    if (st->u.type_stmt.sub) {
        int rc = alter_function(s, st, f, skipped, err);
        attu_sql_function_free(f);
        return rc;
    }
    attu_comments *cs = attu_catalog_comments(db_cat(s));
    attu_sql_function *clash = attu_sql_function_find(cs, to, f->nargs, f->arg_types);
    int rc = 0;
    if (clash) {
        char nsig[512];
        signature_text(to, f->nargs, f->arg_types, nsig, sizeof nsig);
        rc = attu_error_set(err, "42723", 0, "function %s already exists in schema \"public\"", nsig);
    } else if (strlen(to) > ATTU_NAME_MAX) {
        rc = attu_error_set(err, "42622", 0, "function name \"%s\" is too long", to);
    } else {
        char *nn = strdup(to);
        if (!nn) rc = attu_error_oom(err);
        else {
            attu_sql_function_remove(cs, f);
            free(f->name);
            f->name = nn;
            if (attu_sql_function_store(cs, f)) rc = attu_error_oom(err);
        }
    }
    attu_sql_function_free(clash);
    attu_sql_function_free(f);
    return rc;
}

static int swallow_result(void *ctx, attu_result *res) { (void)ctx; (void)res; return 0; }

/* DROP FUNCTION ... CASCADE: the views that call a function of a name
 * the statement drops go first (with what reads them), as PostgreSQL
 * drops the dependent objects, its NOTICE naming them. */
static int cascade_views(attu_session *s, const attu_ast_stmt *st, const attu_exec_callbacks *cb, attu_error *err) {
    char **names = NULL;
    int n = 0;
    db_write_lock(s);
    attu_views *vs = attu_catalog_views(db_cat(s));
    const attu_comments *cs = attu_catalog_comments(db_cat(s));
    for (size_t i = 0; i < attu_views_count(vs); i++) {
        const attu_view *v = attu_views_at(vs, i);
        bool calls = false;
        for (const attu_ast_function *fn = st->u.type_stmt.fn; fn && !calls; fn = fn->next)
            calls = attu_sql_function_exists(cs, fn->name) && view_calls(v, fn->name);
        if (!calls) continue;
        char **nv = realloc(names, (size_t)(n + 1) * sizeof *nv);
        if (!nv || !(nv[n] = strdup(v->name))) { names = nv ? nv : names; break; }
        names = nv;
        n++;
    }
    pthread_rwlock_unlock(&s->db->lock);
    int rc = 0;
    if (n) {
        char msg[300];
        if (n == 1) snprintf(msg, sizeof msg, "drop cascades to view %s", names[0]);
        else snprintf(msg, sizeof msg, "drop cascades to %d other objects", n);
        if (cb && cb->on_notice) cb->on_notice(cb->ctx, "00000", msg);
        attu_exec_callbacks quiet = { 0 };
        if (cb) quiet = *cb;
        quiet.on_result = swallow_result;
        quiet.on_notice = NULL;
        for (int k = 0; k < n && !rc; k++) {
            attu_ast_stmt dv;
            memset(&dv, 0, sizeof dv);
            dv.kind = ATTU_STMT_DROP_VIEW;
            dv.position = st->position;
            dv.u.drop_table.tables.items = &names[k];
            dv.u.drop_table.tables.n = 1;
            dv.u.drop_table.if_exists = true;   /* (gone already with another's cascade) */
            dv.u.drop_table.cascade = true;
            if (db_exec_drop_view(s, &dv, &quiet, err) < 0) rc = -1;
        }
    }
    for (int k = 0; k < n; k++) free(names[k]);
    free(names);
    return rc;
}

int db_comment_function(attu_session *s, const attu_ast_function *fn, const char *text, attu_error *err) {
    bool missing;
    char sig[512];
    attu_sql_function *f = find_signature(s, fn, &missing, sig, sizeof sig, err);
    if (!f) return missing ? no_function(fn, sig, err) : -1;
    /* PostgreSQL's CreateComments: an empty comment is none */
    free(f->comment);
    f->comment = text && *text ? strdup(text) : NULL;
    int rc = text && *text && !f->comment ? attu_error_oom(err)
           : attu_sql_function_store(attu_catalog_comments(db_cat(s)), f) ? attu_error_oom(err) : 0;
    attu_sql_function_free(f);
    return rc;
}

int db_exec_function(attu_session *s, const char *sql, const attu_ast_stmt *st, const attu_exec_callbacks *cb,
                     attu_error *err) {
    if (st->u.type_stmt.action == 'G' && st->u.type_stmt.cascade && cascade_views(s, st, cb, err)) return -1;
    db_write_lock(s);
    int rc;
    bool skipped = false;
    const char *tag;
    switch (st->u.type_stmt.action) {
    case 'F': rc = create_function(s, sql, st->u.type_stmt.fn, err); tag = "CREATE FUNCTION"; break;
    case 'G': rc = drop_functions(s, st, cb, err); tag = "DROP FUNCTION"; break;
    default: rc = rename_function(s, st, &skipped, err); tag = "ALTER FUNCTION"; break;
    }
    if (!rc && !skipped && s->db->data_dir) rc = db_txn_touch_comments(s, err);
    pthread_rwlock_unlock(&s->db->lock);
    if (rc) return rc;
    return db_deliver_tag(cb, tag, err) ? -2 : 0;
}
