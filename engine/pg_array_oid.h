/*
 * pg_array_oid.h - PostgreSQL 15's array type OIDs and their element
 * types' OIDs (pg_type's typelem), for the element types attu's arrays
 * can hold. The wire needs both directions: a Parse that declares int4[]
 * (1007) types its parameter as attu's int[], and a binary array value
 * (array_recv's layout) names its element type, which must be the
 * parameter's.
 *
 * Header-only, so the protocol layer's tests (linked against a fake
 * engine) need nothing more.
 */
#ifndef ATTU_PG_ARRAY_OID_H
#define ATTU_PG_ARRAY_OID_H

#include <stdint.h>

/* The element type OID of the array type OID oid, or 0 for an OID that
 * is not one of these arrays. interval[] (1187) is listed too: whether
 * attu takes it is the type layer's answer (attu_type_pg_oid of
 * attu_type_array_of the element gives 1187 back once it does). */
static inline uint32_t attu_pg_array_elem_oid(uint32_t oid) {
    switch (oid) {
    case 1000: return 16;     /* bool[] */
    case 1005: return 21;     /* int2[] */
    case 1007: return 23;     /* int4[] */
    case 1009: return 25;     /* text[] */
    case 1014: return 1042;   /* bpchar[] */
    case 1015: return 1043;   /* varchar[] */
    case 1016: return 20;     /* int8[] */
    case 1021: return 700;    /* float4[] */
    case 1022: return 701;    /* float8[] */
    case 1115: return 1114;   /* timestamp[] */
    case 1182: return 1082;   /* date[] */
    case 1183: return 1083;   /* time[] */
    case 1185: return 1184;   /* timestamptz[] */
    case 1187: return 1186;   /* interval[] */
    case 1231: return 1700;   /* numeric[] */
    case 1270: return 1266;   /* timetz[] */
    case 199: return 114;     /* json[] */
    case 3807: return 3802;   /* jsonb[] */
    case 2951: return 2950;   /* uuid[] */
    case 1001: return 17;     /* bytea[] */
    default: return 0;
    }
}

#endif
