/*
 * varchar_type.c - which operations keep PostgreSQL's varchar type and
 * which make text.
 *
 * A varchar is a text that reports another type (engine/types.h): its
 * values are stored and compared as text's, so nothing here touches a
 * value. What these rules decide is what a client is told (RowDescription's
 * OID 1043 and typmod, pg_typeof, a parameter's type), following
 * PostgreSQL 15:
 *
 *   - a column, a cast to varchar(n), a CASE / coalesce / greatest / least
 *     / VALUES / UNION of varchars are varchar; the length n stays only
 *     when every value is a varchar(n) of that one length, as
 *     select_common_typmod keeps a typmod;
 *   - the polymorphic functions (lag, lead, first_value, last_value) give
 *     varchar without a length, as every function result has typmod -1;
 *   - PostgreSQL has no varchar operators or aggregates: =, <, min, max
 *     and nullif take their arguments as text (texteq, text_larger), so
 *     min(v) and nullif(v, x) are text, and an untyped parameter compared
 *     with a varchar is text; ||, and the text functions, are text too.
 */
#include "planner/binder_internal.h"

attu_type mix_varchar_length(attu_type t, const attu_bexpr *v) {
    if (!attu_type_is_varchar_any(t) || t.precision < 0) return t;
    /* A NULL, a string literal or a parameter is a value of no typmod, so
     * beside it the length goes (CASE WHEN .. THEN v5 END, whose ELSE is
     * NULL, is varchar); v is NULL for such an absent ELSE. coalesce
     * leaves its NULL arguments out of this: PostgreSQL's planner drops
     * them before RowDescription is made (coalesce(v5, NULL) is
     * varchar(5)). */
    if (v && attu_type_is_varchar_any(v->type) && v->type.precision == t.precision) return t;
    return attu_type_varchar_unbounded();
}

attu_type mix_varchar_setop(attu_type t, attu_type l, attu_type r) {
    if (!attu_type_is_varchar_any(t) || t.precision < 0) return t;
    if (attu_type_is_varchar_any(l) && attu_type_is_varchar_any(r) && l.precision == t.precision &&
        r.precision == t.precision)
        return t;
    return attu_type_varchar_unbounded();
}

attu_type varchar_without_length(attu_type t) {
    return attu_type_is_varchar_any(t) ? attu_type_varchar_unbounded() : t;
}

attu_type varchar_as_text(attu_type t) {
    return attu_type_is_varchar_any(t) ? attu_type_make(ATTU_TYPE_TEXT) : t;
}
