/*
 * random_sql.h - random tables and random queries of the grammar attu
 * supports, for differential testing against PostgreSQL.
 *
 * Everything derives from one 64-bit seed, so a failure is reproduced by
 * the seed and the query's index. Tables t0, t1, t2 share one column
 * layout (k INTEGER join key with few distinct values, i INTEGER, b BIGINT,
 * x DOUBLE PRECISION, d DECIMAL(12,2), s TEXT, dt DATE, f BOOLEAN), about
 * 10% NULLs in every column. Values are kept small enough that the
 * generated arithmetic cannot overflow, and doubles are mostly exact binary
 * fractions, so both engines should agree to the last digit on most
 * queries; the comparison still allows 1e-9 relative on floats.
 *
 * The grammar: filters and projections over typed expressions (arithmetic
 * of every numeric type and their mixes, casts between all the types both
 * ways, CASE in both forms, coalesce / nullif / greatest / least, string,
 * date and math functions, EXTRACT / date_part / date_trunc), predicates
 * (comparisons, IS [NOT] DISTINCT FROM, IS TRUE / UNKNOWN, BETWEEN
 * [SYMMETRIC], IN lists, LIKE / ILIKE / SIMILAR TO), GROUP BY / HAVING
 * with plain, DISTINCT, FILTERed and ordered aggregates, joins of every
 * kind (USING, CROSS, non-equi, three-way), UNION / INTERSECT / EXCEPT
 * [ALL], WITH, DISTINCT [ON], window functions over total orders and
 * frames, correlated and uncorrelated subqueries (ANY / ALL, EXISTS, IN,
 * scalars, derived tables), VALUES, ORDER BY expressions with LIMIT /
 * OFFSET / FETCH; the newer functions (regular expressions, md5,
 * translate, chr / ascii, to_hex, overlay, make_date / make_timestamp, date
 * and timestamp input formats, numeric rounding) and frames over keys with
 * infinities and NaN. The wider shapes (kinds 40-53): timestamps built
 * from the rows with date_trunc / EXTRACT / date_part, generate_series in
 * FROM, lateral and in the select list, window functions over expressions
 * and joins, CASE / coalesce / nullif nests over mixed numeric types,
 * string functions at their edge arguments with LIKE / ILIKE ... ESCAPE,
 * division, rounding and casts with one error source, GROUP BY expressions
 * with HAVING, nested set operations, outer joins on conditions beyond the
 * keys, subqueries in CASE / ORDER BY / HAVING, chained CTEs, the binder's
 * and executor's errors, operators and literals of mixed types, floats
 * printed as text, nested derived tables, INTERVAL values, to_char /
 * to_date / to_number and LATERAL subqueries. Whatever depends on the order
 * of tied rows (LIMIT, a window's row position, string_agg) is ordered by
 * every column. ATTU_DIFF_NEW_FUNCTIONS in the environment draws only the
 * shapes of the newer functions, ATTU_DIFF_WIDE only kinds 40-53,
 * ATTU_DIFF_NEWEST only kind 53.
 */
#ifndef ATTU_TESTS_RANDOM_SQL_H
#define ATTU_TESTS_RANDOM_SQL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct rng {
    uint64_t s;
} rng;

void rng_seed(rng *r, uint64_t seed);
uint64_t rng_next(rng *r);
/* Uniform in [lo, hi]. */
int64_t rng_range(rng *r, int64_t lo, int64_t hi);
/* True with probability pct/100. */
bool rng_chance(rng *r, int pct);

/* A growable string. */
typedef struct sql_buf {
    char  *p;
    size_t n, cap;
} sql_buf;

void sql_buf_printf(sql_buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void sql_buf_free(sql_buf *b);

#define RANDOM_SQL_TABLES 3

/* The schema and data: one CREATE TABLE and some INSERT statements per
 * table, as a list of statements (each malloc'ed, NULL-terminated list). */
char **random_sql_setup(rng *r, int rows_per_table);
void random_sql_free_list(char **stmts);

/* One random query. *ordered is set when its ORDER BY fixes the order of
 * every row (compare in order), else rows are compared as a multiset. */
char *random_sql_query(rng *r, bool *ordered);

#endif
