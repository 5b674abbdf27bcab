/*
 * degree_trig.h - PostgreSQL 15's trigonometric functions in degrees:
 * sind, cosd, tand, cotd, asind, acosd, atand, atan2d.
 *
 * They are not sin(radians(x)): PostgreSQL reduces the angle to the first
 * quadrant and scales libm's values so that the special angles come out
 * exact (sind(30) = 0.5, cosd(60) = 0.5, tand(45) = 1, asind(0.5) = 30,
 * atand(1) = 45). attu follows the same reduction and scaling step by step,
 * so that every other angle gets PostgreSQL's bits as well (both call the
 * same C library). They run as the ATTU_OP_SIND .. ATTU_OP_ATAN2D
 * instructions, host only (the GPU expression evaluator declines them).
 */
#ifndef ATTU_ENGINE_DEGREE_TRIG_H
#define ATTU_ENGINE_DEGREE_TRIG_H

#include "engine/error.h"

/* in the order of the opcodes ATTU_OP_SIND .. ATTU_OP_ATAN2D */
typedef enum attu_degree_fn {
    ATTU_SIND, ATTU_COSD, ATTU_TAND, ATTU_COTD, ATTU_ASIND, ATTU_ACOSD, ATTU_ATAND, ATTU_ATAN2D
} attu_degree_fn;

/* fn of x (atan2d: of y = x, x = y2): *out, or 22003 "input is out of
 * range" for an infinite angle (sind .. cotd) or an argument outside
 * [-1, 1] (asind, acosd). NaN in gives NaN out. tand(90) and cotd(0) are
 * Infinity, and a zero result of tand / cotd is +0 as in PostgreSQL. */
int attu_degree_trig(attu_degree_fn fn, double x, double y2, double *out, attu_error *err);

#endif
