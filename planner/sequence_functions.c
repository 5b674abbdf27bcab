/*
 * sequence_functions.c - binding nextval, currval, setval and lastval.
 *
 * A sequence is state the database keeps on the host and every session
 * shares (db/db_sequence.c), which neither backend's expression programs
 * can reach. So a call is made while the query is bound and becomes a
 * constant: exactly PostgreSQL's result wherever the call runs once, that
 * is where it sees no rows of a FROM (a SELECT without FROM, each row of a
 * VALUES list, which is bound row by row in order, a column DEFAULT that
 * the INSERT substitutes into its VALUES). nextval and setval in a query
 * over rows would have to run once per row and are refused (0A000) rather
 * than repeat one value; currval and lastval do not change within a
 * statement that calls no nextval, so they are accepted anywhere.
 *
 * One form over rows is taken before binding: a whole select-list item
 * nextval('s') of a plain SELECT, which the db layer binds as a stand-in
 * and fills per result row (db/db_sequence_fill.c).
 *
 * A WITH query read twice is bound twice: its second binding takes the
 * values of its first (cte_def.seq_vals), as PostgreSQL evaluates it once.
 *
 * Column DEFAULTs of nextval (serial and identity columns) for the rows an
 * INSERT or COPY builds do not come through here: the db layer draws those
 * values row by row (db_eval_defaults).
 */
#include "planner/binder_internal.h"

#include <ctype.h>
#include <string.h>

bool attu_sequence_function_name(const char *name) {
    return !strcmp(name, "nextval") || !strcmp(name, "currval") || !strcmp(name, "setval") || !strcmp(name, "lastval") ||
           !strcmp(name, "pg_get_serial_sequence");
}

/* The relation a regclass text names, folded as PostgreSQL's regclass
 * input folds it: "Quoted" keeps its case, a bare name is lower-cased, and
 * public.x is x, but for a sequence (keep_public), where public.s is the
 * permanent s even while a temporary s hides it (db/db_sequence.c reads
 * public. and pg_temp.). Allocated in the arena. */
static const char *fold_regclass(bctx *c, const char *s, size_t n, bool keep_public) {
    char *out = attu_palloc(c->pa, n + 1);
    if (!out) return NULL;
    size_t k = 0;
    size_t part = 0;   /* where the current dotted part starts in out */
    for (size_t i = 0; i < n; i++) {
        if (s[i] == '"') {
            for (i++; i < n; i++) {
                if (s[i] == '"' && i + 1 < n && s[i + 1] == '"') { out[k++] = '"'; i++; }
                else if (s[i] == '"') break;
                else out[k++] = s[i];
            }
        } else if (s[i] == '.') {
            out[k] = '\0';
            /* public.s is s; other schemas stay in the name (42P01) */
            if (!strcmp(out + part, "public") && part == 0 && !keep_public) { k = 0; continue; }
            out[k++] = '.';
            part = k;
        } else out[k++] = (char)tolower((unsigned char)s[i]);
    }
    out[k] = '\0';
    return out;
}

/* The constant value of a bound argument coerced to t, or NULL with the
 * error (0A000 when it is not a constant). */
static attu_bexpr *const_arg(bctx *c, const scope *sc, const attu_ast_expr *a, attu_type t, const char *fn) {
    /* 'name'::regclass: attu has no regclass type; the text names it */
    if (a->kind == ATTU_EXPR_CAST && a->u.cast.type.name && !strcmp(a->u.cast.type.name, "regclass")) a = a->u.cast.arg;
    attu_bexpr *x = bind_expr(c, sc, a);
    if (!x) return NULL;
    if (!(x = coerce(c, x, t, false, a->position))) return NULL;
    if (x->kind != BX_CONST) {
        attu_error_set(c->err, ATTU_SQLSTATE_FEATURE_NOT_SUPPORTED, a->position,
                       "the arguments of %s() must be constants in attu", fn);
        return NULL;
    }
    return x;
}

/* pg_get_serial_sequence(table, column): the sequence a serial or
 * identity column owns, as text ('public.t_id_seq'), NULL for a column
 * that owns none. The table's name is folded as an identifier, the
 * column's is taken as written, as PostgreSQL does. Constants are looked
 * up now (PostgreSQL's 42P01 / 42703 for no such table or column). */
static attu_bexpr *bind_serial_sequence(bctx *c, const scope *sc, const attu_ast_expr *e) {
    attu_type txt = attu_type_make(ATTU_TYPE_TEXT);
    attu_bexpr *args[2] = { 0 };
    int n = e->u.func.args.n;
    bool fits = n == 2 && !e->u.func.star && !e->u.func.distinct && !e->u.func.order_by.n && !e->u.func.filter;
    for (int i = 0; i < n && i < 2; i++) {
        if (!(args[i] = bind_expr(c, sc, e->u.func.args.items[i]))) return NULL;
        fits &= !attu_type_is_array(args[i]->type) && (args[i]->type.id == ATTU_TYPE_TEXT || args[i]->type.id == ATTU_TYPE_UNKNOWN);
    }
    if (!fits) return attu_no_function(c, e, args, n < 2 ? n : 2);
    for (int i = 0; i < 2; i++) {
        if (!(args[i] = coerce(c, args[i], txt, false, e->u.func.args.items[i]->position))) return NULL;
        /* values read at run time (a catalog's columns): looked up among
         * the owned sequences (planner/catalog_functions.c) */
        if (args[i]->kind != BX_CONST) return attu_bind_serial_sequence_of_values(c, sc, e);
    }
    if (args[0]->is_null || args[1]->is_null || !c->params || !c->params->serial_sequence) return mk_const_null(c, txt);
    const char *table = fold_regclass(c, args[0]->s ? args[0]->s : "", args[0]->s ? args[0]->slen : 0, false);
    char *column = attu_pstrdup(c->pa, args[1]->s ? args[1]->s : "", args[1]->s ? args[1]->slen : 0);
    if (!table || !column) { attu_error_oom(c->err); return NULL; }
    char out[300];
    int r = c->params->serial_sequence(c->params->sequence_ctx, table, column, out, sizeof out, c->err);
    if (r < 0) {
        if (!c->err->position) c->err->position = e->u.func.args.items[0]->position;
        return NULL;
    }
    if (r == 0) return mk_const_null(c, txt);
    attu_bexpr *k = attu_bx_new(c->pa, BX_CONST, txt, e->position);
    if (!k || !(k->s = attu_pstrdup(c->pa, out, strlen(out)))) { attu_error_oom(c->err); return NULL; }
    k->slen = strlen(out);
    return k;
}

attu_bexpr *attu_bind_sequence_call(bctx *c, const scope *sc, const attu_ast_expr *e) {
    const char *fn = e->u.func.name;
    if (!strcmp(fn, "pg_get_serial_sequence")) return bind_serial_sequence(c, sc, e);
    int n = e->u.func.args.n, pos = e->position;
    attu_sequence_op op = !strcmp(fn, "nextval") ? ATTU_SEQ_NEXTVAL : !strcmp(fn, "currval") ? ATTU_SEQ_CURRVAL
                        : !strcmp(fn, "setval") ? ATTU_SEQ_SETVAL : ATTU_SEQ_LASTVAL;
    int want_lo = op == ATTU_SEQ_LASTVAL ? 0 : op == ATTU_SEQ_SETVAL ? 2 : 1;
    int want_hi = op == ATTU_SEQ_LASTVAL ? 0 : op == ATTU_SEQ_SETVAL ? 3 : 1;
    attu_type int8 = attu_type_make(ATTU_TYPE_INT64);
    if (n < want_lo || n > want_hi || e->u.func.star || e->u.func.distinct || e->u.func.order_by.n || e->u.func.filter ||
        e->u.func.over) {
        if (e->u.func.over) {
            attu_error_set(c->err, ATTU_SQLSTATE_SYNTAX, pos, "OVER specified, but %s is not a window function nor an aggregate function", fn);
            return NULL;
        }
        attu_bexpr *args[3] = { 0 };
        for (int i = 0; i < n && i < 3; i++) if (!(args[i] = bind_expr(c, sc, e->u.func.args.items[i]))) return NULL;
        return attu_no_function(c, e, args, n < 3 ? n : 3);
    }

    /* the signatures: (regclass), (regclass, bigint [, boolean]); an
     * argument of another type is 42883, as PostgreSQL finds no function */
    attu_bexpr *bound[3] = { 0 };
    bool fits = true;
    for (int i = 0; i < n; i++) {
        const attu_ast_expr *a = e->u.func.args.items[i];
        if (i == 0 && a->kind == ATTU_EXPR_CAST && a->u.cast.type.name && !strcmp(a->u.cast.type.name, "regclass")) continue;
        if (!(bound[i] = bind_expr(c, sc, a))) return NULL;
        attu_type_id t = bound[i]->type.id;
        if (attu_type_is_array(bound[i]->type)) { fits = false; continue; }
        if (t == ATTU_TYPE_UNKNOWN) continue;
        if (i == 0) fits &= t == ATTU_TYPE_TEXT;
        if (i == 1) fits &= t == ATTU_TYPE_INT16 || t == ATTU_TYPE_INT32 || t == ATTU_TYPE_INT64;
        if (i == 2) fits &= t == ATTU_TYPE_BOOL;
    }
    if (!fits) {
        attu_bexpr *shown[3] = { 0 };
        for (int i = 0; i < n; i++)
            if (!(shown[i] = bound[i] ? bound[i] : bind_expr(c, sc, e->u.func.args.items[i]))) return NULL;
        return attu_no_function(c, e, shown, n);
    }
    attu_bexpr *name = NULL, *val = NULL, *called = NULL;
    if (op != ATTU_SEQ_LASTVAL && !(name = const_arg(c, sc, e->u.func.args.items[0], attu_type_make(ATTU_TYPE_TEXT), fn)))
        return NULL;
    if (op == ATTU_SEQ_SETVAL && !(val = const_arg(c, sc, e->u.func.args.items[1], int8, fn))) return NULL;
    if (op == ATTU_SEQ_SETVAL && n == 3 &&
        !(called = const_arg(c, sc, e->u.func.args.items[2], attu_type_make(ATTU_TYPE_BOOL), fn)))
        return NULL;
    bool volatile_call = op == ATTU_SEQ_NEXTVAL || op == ATTU_SEQ_SETVAL;
    if (volatile_call && ((sc && sc->n > 0) || (c->outer && c->outer->n > 0))) {
        /* an unknown name is still the first error, as in PostgreSQL */
        if (name && !name->is_null && c->params && c->params->sequence_call) {
            const char *seq = fold_regclass(c, name->s ? name->s : "", name->s ? name->slen : 0, true);
            int64_t v;
            if (!seq) { attu_error_oom(c->err); return NULL; }
            if (c->params->sequence_call(c->params->sequence_ctx, ATTU_SEQ_CHECK, seq, 0, false, &v, c->err)) {
                if (!c->err->position) c->err->position = e->u.func.args.items[0]->position;
                return NULL;
            }
        }
        attu_error_set(c->err, ATTU_SQLSTATE_FEATURE_NOT_SUPPORTED, pos,
                       "%s() over the rows of a query is not supported: attu calls it once (a SELECT without FROM, a "
                       "VALUES row, a column DEFAULT), or per row as a whole select-list item nextval('sequence') of a "
                       "SELECT without DISTINCT, GROUP BY or OFFSET", fn);
        return NULL;
    }
    attu_bexpr *r;
    cte_def *d = c->seq_cte;
    /* strict: a NULL argument is a NULL result, nothing called */
    if ((name && name->is_null) || (val && val->is_null) || (called && called->is_null) || !c->params ||
        !c->params->sequence_call || c->params->no_side_effects || c->params->describe_only)
        r = mk_const_null(c, int8);
    else if (d && d->seq_replay && d->seq_pos < d->seq_n)
        /* a WITH query bound again: the value its first binding drew */
        r = mk_const_int(c, int8, d->seq_vals[d->seq_pos++]);
    else {
        const char *seq = name ? fold_regclass(c, name->s ? name->s : "", name->s ? name->slen : 0, true) : NULL;
        if (name && !seq) { attu_error_oom(c->err); return NULL; }
        int64_t v = 0;
        if (c->params->sequence_call(c->params->sequence_ctx, op, seq, val ? val->i : 0, called ? called->i != 0 : true, &v,
                                     c->err)) {
            /* the relation that is not there (or not a sequence) is the
             * argument's fault, as PostgreSQL points at it */
            if (name && !c->err->position &&
                (!strcmp(c->err->sqlstate, ATTU_SQLSTATE_UNDEFINED_TABLE) || !strcmp(c->err->sqlstate, "42809")))
                c->err->position = e->u.func.args.items[0]->position;
            return NULL;
        }
        r = mk_const_int(c, int8, v);
        if (d && !d->seq_replay) {   /* kept for the WITH query's next binding */
            if (d->seq_n == d->seq_cap) {
                int nc = d->seq_cap ? d->seq_cap * 2 : 4;
                int64_t *nv = attu_palloc(c->pa, sizeof *nv * (size_t)nc);
                if (!nv) { attu_error_oom(c->err); return NULL; }
                if (d->seq_n) memcpy(nv, d->seq_vals, sizeof *nv * (size_t)d->seq_n);
                d->seq_vals = nv;
                d->seq_cap = nc;
            }
            d->seq_vals[d->seq_n++] = v;
            d->seq_pos++;
        }
    }
    if (r) r->position = pos;
    return r;
}
