// expr_device.cuh: the numeric subset of the expression interpreter
// (engine/expr_program.h) as one row's straight-line evaluation, callable
// on the device (the GPU backend's fused eval kernel) and on the host (its
// checks against attu_interp_run).
//
// Subset: CONST (no string), MOVE, three-valued AND / OR / NOT, IS [NOT]
// NULL / TRUE / FALSE, COALESCE, SELECT, NULLIF_I/F, integer and decimal
// ADD / SUB / MUL / NEG, DIV_I, MOD_I, float ADD / SUB / MUL / DIV / MOD /
// NEG, comparisons _I and _F, CAST_I_I, CAST_I_F, CAST_F_F and the float
// math functions (sqrt, power, ln, log10, exp, trigonometry, radians,
// degrees, sign, earth_distance); no TEXT register. The values it produces
// are the reference interpreter's, bit for bit, except that CUDA's
// transcendental functions (sin, cos, asin, pow, log, exp ...) may differ
// from glibc's in the last bit or two (CUDA documents them within 1-2 ulp). Where
// the reference raises an error (overflow, range, division by zero) this
// only reports "some row failed": the caller then reruns the reference,
// which raises the exact error, so messages never diverge.
//
// The same text is compiled twice: by nvcc into the backend (the
// interpreter: dev_eval_row walks a program held in memory) and, at run
// time, by NVRTC into kernels specialised for one program (expr_jit.cuh):
// there every instruction is a compile-time constant, so dev_exec_instr's
// switch folds away and the registers become machine registers. Under NVRTC
// (__CUDACC_RTC__) the standard headers are expr_jit's small stand-ins.
#pragma once

#include <cmath>
#include <cstdint>

extern "C" {
#include "engine/expr_program.h"
}

namespace attu {
namespace gpu_backend {

constexpr int kDevMaxRegs = 48;

struct dinstr_t {
  int op;
  int dst, a, b, c, d, guard;
  int imm_null;
  int64_t imm_i;
  double imm_f;
  int dst_type;     // attu_type_id of dst
  int dst_prec;     // DECIMAL precision of dst
  int dst_float;    // dst is of the float class
};

// A value as the kernels compare and move it: the bits of an int64 or a
// double.
union num_t {
  int64_t i;
  double f;
};

// A column as the device kernels read it, and an output column with the
// register it takes its values from.
struct dcol_t {
  int type;
  const void* data;
  const uint8_t* valid;
};
struct dres_t {
  int type;
  void* data;
  uint8_t* valid;
  int reg;
};

struct dslot_t {
  union {
    int64_t i;
    double f;
  } v;
  int null;
};

__host__ __device__ inline int dev_fcmp(double a, double b) {
  if (isnan(a)) return isnan(b) ? 0 : 1;
  if (isnan(b)) return -1;
  return a < b ? -1 : a > b;
}

// Nonzero when v does not fit dst's SQL type (the reference's range_check).
__host__ __device__ inline int dev_out_of_range(const dinstr_t& in, int64_t v) {
  switch (in.dst_type) {
    case ATTU_TYPE_INT16: return v < INT16_MIN || v > INT16_MAX;
    case ATTU_TYPE_INT32: return v < INT32_MIN || v > INT32_MAX;
    case ATTU_TYPE_DECIMAL: {
      int64_t lim = 1;
      for (int i = 0; i < in.dst_prec && i < 18; ++i) lim *= 10;
      return in.dst_prec > 0 && (v >= lim || v <= -lim);
    }
    case ATTU_TYPE_DATE: return v < ATTU_DATE_MIN_DAYS || v > ATTU_DATE_MAX_DAYS;
    case ATTU_TYPE_TIMESTAMP: case ATTU_TYPE_TIMESTAMPTZ:
      return v < (int64_t)ATTU_DATE_MIN_DAYS * 86400000000LL || v == INT64_MAX;
    default: return 0;
  }
}

// True when the op is in the subset above.
inline bool dev_op_supported(int op) {
  switch (op) {
    case ATTU_OP_CONST: case ATTU_OP_MOVE: case ATTU_OP_AND: case ATTU_OP_OR: case ATTU_OP_NOT:
    case ATTU_OP_IS_NULL: case ATTU_OP_IS_NOT_NULL: case ATTU_OP_IS_TRUE: case ATTU_OP_IS_FALSE:
    case ATTU_OP_COALESCE: case ATTU_OP_SELECT: case ATTU_OP_NULLIF_I: case ATTU_OP_NULLIF_F:
    case ATTU_OP_ADD_I: case ATTU_OP_SUB_I: case ATTU_OP_MUL_I: case ATTU_OP_DIV_I:
    case ATTU_OP_MOD_I: case ATTU_OP_NEG_I:
    case ATTU_OP_ADD_D: case ATTU_OP_SUB_D: case ATTU_OP_MUL_D: case ATTU_OP_NEG_D:
    case ATTU_OP_ADD_F: case ATTU_OP_SUB_F: case ATTU_OP_MUL_F: case ATTU_OP_DIV_F:
    case ATTU_OP_MOD_F: case ATTU_OP_NEG_F: case ATTU_OP_ABS_F:
    case ATTU_OP_EQ_I: case ATTU_OP_NE_I: case ATTU_OP_LT_I: case ATTU_OP_LE_I:
    case ATTU_OP_GT_I: case ATTU_OP_GE_I:
    case ATTU_OP_EQ_F: case ATTU_OP_NE_F: case ATTU_OP_LT_F: case ATTU_OP_LE_F:
    case ATTU_OP_GT_F: case ATTU_OP_GE_F:
    case ATTU_OP_CAST_I_I: case ATTU_OP_CAST_I_F: case ATTU_OP_CAST_F_F:
    case ATTU_OP_SQRT: case ATTU_OP_POWER: case ATTU_OP_LN: case ATTU_OP_LOG10: case ATTU_OP_EXP:
    case ATTU_OP_SIN: case ATTU_OP_COS: case ATTU_OP_TAN: case ATTU_OP_ASIN: case ATTU_OP_ACOS:
    case ATTU_OP_ATAN: case ATTU_OP_ATAN2: case ATTU_OP_RADIANS: case ATTU_OP_DEGREES:
    case ATTU_OP_SIGN_F: case ATTU_OP_EARTH_DISTANCE: return true;
    default: return false;
  }
}

// The ops whose device values may differ from glibc's in the last bits.
inline bool dev_op_approximate(int op) {
  switch (op) {
    case ATTU_OP_POWER: case ATTU_OP_LN: case ATTU_OP_LOG10: case ATTU_OP_EXP:
    case ATTU_OP_SIN: case ATTU_OP_COS: case ATTU_OP_TAN: case ATTU_OP_ASIN: case ATTU_OP_ACOS:
    case ATTU_OP_ATAN: case ATTU_OP_ATAN2: case ATTU_OP_EARTH_DISTANCE: return true;
    default: return false;
  }
}

// Registers kept in shared memory, register-major (register r of thread t
// at base[r * stride + t]): consecutive threads touch consecutive slots.
struct strided_regs_t {
  dslot_t* base;
  int stride;
  __host__ __device__ dslot_t& operator[](int r) const { return base[(long long)r * stride]; }
};

// A caller that evaluates many rows sharing some inputs (lbs_segreduce: a
// segment's left inputs are the same for all its items) passes a memo: the
// cosine of earth_distance's first latitude is then computed once per
// distinct value. The same input gives the same bits, so results do not
// change.
//
// The cosine of its second latitude, a right input, may come precomputed
// per right row (lbs_segreduce's right_cos): the step sets cos_b_reg to
// that register and cos_b to the item's row's value before each item.
//
// The chord instruction (kDevOpEarthChord, below) keeps the left point's
// unit vector for the last (lat, lon) it saw, and reads the right point's
// from ub when the step has set it from a table of the right rows
// (lbs_segreduce's right_unit), else computes it.
struct dev_memo_t {
  double cos_arg = NAN;  // NaN never compares equal: the first use computes
  double cos_val = 0;
  int cos_b_reg = -1;
  double cos_b = 0;
  double ua_lat = NAN, ua_lon = NAN;  // the point ua is the unit vector of
  double ua[3] = {0, 0, 0};
  int ub_set = 0;
  double ub[3] = {0, 0, 0};
};

// earth_distance in miles from degrees, given the cosines of both
// latitudes in radians: attu_earth_distance (engine/expr_program.c), step
// for step. The instruction and lbs_segreduce's recomputation of a ranked
// list's winners (lbs_kernel.cuh) both call it, so they agree bit for bit.
__host__ __device__ inline double dev_earth_distance(double lat_a, double lon_a, double lat_b, double lon_b,
                                                     double cos_la, double cos_lb) {
  const double rad = M_PI / 180.0;
  double la = lat_a * rad, lb = lat_b * rad, oa = lon_a * rad, ob = lon_b * rad;
  double s1 = sin((lb - la) / 2), s2 = sin((ob - oa) / 2);
  double arg = s1 * s1 + cos_la * cos_lb * s2 * s2;
  if (arg > 1) arg = 1;
  return 2 * asin(sqrt(arg)) * 3958.76;
}

// The unit vector of a point on the sphere given in degrees.
__host__ __device__ inline void dev_unit_vector(double lat, double lon, double u[3]) {
  const double rad = M_PI / 180.0;
  double sla, cla, slo, clo;
  sincos(lat * rad, &sla, &cla);
  sincos(lon * rad, &slo, &clo);
  u[0] = cla * clo;
  u[1] = cla * slo;
  u[2] = sla;
}

// A device-only instruction, never in an engine program: lbs_segreduce puts
// it in place of an EARTH_DISTANCE whose value only ranks a list (its
// operands are the same). It yields the squared chord between the two
// points' unit vectors, |u_a - u_b|^2 = 4 sin^2(theta / 2), which is the
// haversine's argument times four: the distance 2 R asin(sqrt(chord^2 / 4))
// grows with it, so a list ranked by it holds the same partners as one
// ranked by the distance, up to rounding (the winners' distances are then
// computed by the exact formula and re-ranked). Three differences and
// three products an item instead of two sines, an arcsine and a square
// root. NaN or infinite coordinates give NaN, as the distance does.
constexpr int kDevOpEarthChord = 0x4000;

// Runs one instruction. Returns 0, or 1 where the reference interpreter
// would raise an error. regs_t: a dslot_t* (local registers) or
// strided_regs_t. Forced inline: with a constant instruction (the compiled
// programs) every test on `in` below is decided at compile time.
template <typename regs_t>
__host__ __device__ __forceinline__ int dev_exec_instr(const dinstr_t& in, regs_t& R, dev_memo_t* memo) {
  {
    dslot_t* o = &R[in.dst];
    if (in.guard >= 0 && (R[in.guard].null || !R[in.guard].v.i)) {
      o->null = 1;
      o->v.i = 0;
      return 0;
    }
    const dslot_t* A = in.a >= 0 ? &R[in.a] : nullptr;
    const dslot_t* B = in.b >= 0 ? &R[in.b] : nullptr;
    const dslot_t* C = in.c >= 0 ? &R[in.c] : nullptr;
    const dslot_t* D = in.d >= 0 ? &R[in.d] : nullptr;
    int op = in.op;
    // non-strict instructions
    switch (op) {
      case ATTU_OP_CONST:
        o->null = in.imm_null;
        if (in.dst_float) o->v.f = in.imm_f;
        else o->v.i = in.imm_i;
        return 0;
      case ATTU_OP_MOVE: *o = *A; return 0;
      case ATTU_OP_AND: {
        bool af = !A->null && !A->v.i, bf = !B->null && !B->v.i;
        if (af || bf) { o->null = 0; o->v.i = 0; }
        else if (A->null || B->null) { o->null = 1; o->v.i = 0; }
        else { o->null = 0; o->v.i = 1; }
        return 0;
      }
      case ATTU_OP_OR: {
        bool at = !A->null && A->v.i, bt = !B->null && B->v.i;
        if (at || bt) { o->null = 0; o->v.i = 1; }
        else if (A->null || B->null) { o->null = 1; o->v.i = 0; }
        else { o->null = 0; o->v.i = 0; }
        return 0;
      }
      case ATTU_OP_IS_NULL: o->null = 0; o->v.i = A->null; return 0;
      case ATTU_OP_IS_NOT_NULL: o->null = 0; o->v.i = !A->null; return 0;
      case ATTU_OP_IS_TRUE: o->null = 0; o->v.i = !A->null && A->v.i; return 0;
      case ATTU_OP_IS_FALSE: o->null = 0; o->v.i = !A->null && !A->v.i; return 0;
      case ATTU_OP_COALESCE: *o = A->null ? *B : *A; return 0;
      case ATTU_OP_SELECT: *o = (!C->null && C->v.i) ? *A : *B; return 0;
      default: break;
    }
    if ((A && A->null) || (B && B->null) || (C && C->null) || (D && D->null)) {
      // NULLIF(x, NULL) = x
      if ((op == ATTU_OP_NULLIF_I || op == ATTU_OP_NULLIF_F) && !A->null) { *o = *A; return 0; }
      o->null = 1;
      o->v.i = 0;
      return 0;
    }
    int64_t x = A ? A->v.i : 0, y = B ? B->v.i : 0, z = 0;
    double fx = A ? A->v.f : 0, fy = B ? B->v.f : 0, fz = 0;
    dslot_t res;
    res.null = 0;
    res.v.i = 0;
    switch (op) {
      case ATTU_OP_ADD_I: case ATTU_OP_ADD_D:
        z = (int64_t)((uint64_t)x + (uint64_t)y);
        if (((x ^ z) & (y ^ z)) < 0 || dev_out_of_range(in, z)) return 1;
        res.v.i = z;
        break;
      case ATTU_OP_SUB_I: case ATTU_OP_SUB_D:
        z = (int64_t)((uint64_t)x - (uint64_t)y);
        if (((x ^ y) & (x ^ z)) < 0 || dev_out_of_range(in, z)) return 1;
        res.v.i = z;
        break;
      case ATTU_OP_MUL_I: case ATTU_OP_MUL_D: {
        __int128 p = (__int128)x * (__int128)y;
        if (p > (__int128)INT64_MAX || p < (__int128)INT64_MIN) return 1;
        z = (int64_t)p;
        if (dev_out_of_range(in, z)) return 1;
        res.v.i = z;
        break;
      }
      case ATTU_OP_DIV_I:
        if (y == 0) return 1;
        if (y == -1) {
          if (x == INT64_MIN) return 1;
          z = -x;
        } else {
          z = x / y;
        }
        if (dev_out_of_range(in, z)) return 1;
        res.v.i = z;
        break;
      case ATTU_OP_MOD_I:
        if (y == 0) return 1;
        res.v.i = y == -1 ? 0 : x % y;
        break;
      case ATTU_OP_NEG_I: case ATTU_OP_NEG_D:
        if (x == INT64_MIN) return 1;
        z = -x;
        if (dev_out_of_range(in, z)) return 1;
        res.v.i = z;
        break;
      case ATTU_OP_ADD_F: fz = fx + fy; goto fres;
      case ATTU_OP_SUB_F: fz = fx - fy; goto fres;
      case ATTU_OP_MUL_F: fz = fx * fy; goto fres;
      case ATTU_OP_DIV_F:
        if (fy == 0 && !isnan(fx)) return 1;
        fz = fx / fy;
        goto fres;
      case ATTU_OP_MOD_F:
        if (fy == 0) return 1;
        fz = fmod(fx, fy);
        goto fres;
      case ATTU_OP_NEG_F: fz = -fx; goto fres;
      case ATTU_OP_ABS_F: fz = fabs(fx); goto fres;
      fres:
        if (in.dst_type == ATTU_TYPE_FLOAT32) fz = (double)(float)fz;
        if (isinf(fz) && !isinf(fx) && !(B && isinf(fy))) return 1;
        if (fz == 0 && fx != 0 && ((op == ATTU_OP_MUL_F && fy != 0) || (op == ATTU_OP_DIV_F && !isinf(fy)))) return 1;
        res.v.f = fz;
        break;
      case ATTU_OP_EQ_I: res.v.i = x == y; break;
      case ATTU_OP_NE_I: res.v.i = x != y; break;
      case ATTU_OP_LT_I: res.v.i = x < y; break;
      case ATTU_OP_LE_I: res.v.i = x <= y; break;
      case ATTU_OP_GT_I: res.v.i = x > y; break;
      case ATTU_OP_GE_I: res.v.i = x >= y; break;
      case ATTU_OP_EQ_F: res.v.i = dev_fcmp(fx, fy) == 0; break;
      case ATTU_OP_NE_F: res.v.i = dev_fcmp(fx, fy) != 0; break;
      case ATTU_OP_LT_F: res.v.i = dev_fcmp(fx, fy) < 0; break;
      case ATTU_OP_LE_F: res.v.i = dev_fcmp(fx, fy) <= 0; break;
      case ATTU_OP_GT_F: res.v.i = dev_fcmp(fx, fy) > 0; break;
      case ATTU_OP_GE_F: res.v.i = dev_fcmp(fx, fy) >= 0; break;
      case ATTU_OP_NOT: res.v.i = !x; break;
      case ATTU_OP_NULLIF_I:
        if (x == y) res.null = 1;
        else res = *A;
        break;
      case ATTU_OP_NULLIF_F:
        if (dev_fcmp(fx, fy) == 0) res.null = 1;
        else res = *A;
        break;
      case ATTU_OP_CAST_I_I:
        if (in.dst_type == ATTU_TYPE_BOOL) x = x != 0;
        if (dev_out_of_range(in, x)) return 1;
        res.v.i = x;
        break;
      case ATTU_OP_CAST_I_F:
        res.v.f = in.dst_type == ATTU_TYPE_FLOAT32 ? (double)(float)x : (double)x;
        break;
      case ATTU_OP_CAST_F_F:
        if (in.dst_type == ATTU_TYPE_FLOAT32) {
          float f4 = (float)fx;
          if ((isinf((double)f4) && !isinf(fx)) || (f4 == 0 && fx != 0)) return 1;
          res.v.f = (double)f4;
        } else {
          res.v.f = fx;
        }
        break;
      // Math functions: the reference's error rules exactly; the values are
      // CUDA's double-precision functions (sqrt is correctly rounded like
      // libm's; the transcendental ones are within 1-2 ulp of it).
      case ATTU_OP_SQRT:
        if (fx < 0) return 1;
        res.v.f = sqrt(fx);
        break;
      case ATTU_OP_POWER:
        if (fx == 0 && fy < 0) return 1;
        if (fx < 0 && fy != floor(fy)) return 1;
        fz = pow(fx, fy);
        if (isinf(fz) && !isinf(fx) && !isinf(fy)) return 1;
        res.v.f = fz;
        break;
      case ATTU_OP_LN: case ATTU_OP_LOG10:
        if (fx <= 0) return 1;
        res.v.f = op == ATTU_OP_LN ? log(fx) : log10(fx);
        break;
      case ATTU_OP_EXP:
        fz = exp(fx);
        if (isinf(fz) && !isinf(fx)) return 1;  // overflow
        if (fz == 0 && !isinf(fx)) return 1;    // underflow
        res.v.f = fz;
        break;
      case ATTU_OP_SIN: case ATTU_OP_COS: case ATTU_OP_TAN:
        if (isinf(fx)) return 1;                // 22003 input is out of range
        res.v.f = op == ATTU_OP_SIN ? sin(fx) : op == ATTU_OP_COS ? cos(fx) : tan(fx);
        break;
      case ATTU_OP_ASIN: case ATTU_OP_ACOS:
        if (fx < -1 || fx > 1) return 1;
        res.v.f = op == ATTU_OP_ASIN ? asin(fx) : acos(fx);
        break;
      case ATTU_OP_ATAN: res.v.f = atan(fx); break;
      case ATTU_OP_ATAN2: res.v.f = atan2(fx, fy); break;
      case ATTU_OP_RADIANS: res.v.f = fx * (M_PI / 180.0); break;
      case ATTU_OP_DEGREES: res.v.f = fx * (180.0 / M_PI); break;
      case ATTU_OP_SIGN_F: res.v.f = fx > 0 ? 1 : fx < 0 ? -1 : 0; break;
      case ATTU_OP_EARTH_DISTANCE: {
        const double rad = M_PI / 180.0;
        double la = fx * rad;
        double cla;
        if (memo && memo->cos_arg == la) cla = memo->cos_val;
        else {
          cla = cos(la);
          if (memo) { memo->cos_arg = la; memo->cos_val = cla; }
        }
        double clb = memo && memo->cos_b_reg == in.c ? memo->cos_b : cos(C->v.f * rad);
        res.v.f = dev_earth_distance(fx, fy, C->v.f, D->v.f, cla, clb);
        break;
      }
      case kDevOpEarthChord: {
        double ua[3], ub[3];
        if (memo && memo->ua_lat == fx && memo->ua_lon == fy) {
          for (int q = 0; q < 3; ++q) ua[q] = memo->ua[q];
        } else {
          dev_unit_vector(fx, fy, ua);
          if (memo) {
            memo->ua_lat = fx;
            memo->ua_lon = fy;
            for (int q = 0; q < 3; ++q) memo->ua[q] = ua[q];
          }
        }
        if (memo && memo->ub_set) {
          for (int q = 0; q < 3; ++q) ub[q] = memo->ub[q];
        } else {
          dev_unit_vector(C->v.f, D->v.f, ub);
        }
        double dx = ua[0] - ub[0], dy = ua[1] - ub[1], dz = ua[2] - ub[2];
        res.v.f = dx * dx + dy * dy + dz * dz;
        break;
      }
      default: return 1;  // not in the subset: the caller never sends one
    }
    *o = res;
  }
  return 0;
}

// Runs the program over one row whose inputs are already in R[0..ninputs).
// Returns 0, or 1 where the reference interpreter would raise an error.
template <typename regs_t>
__host__ __device__ inline int dev_eval_row(const dinstr_t* code, int ninstr, regs_t R,
                                            dev_memo_t* memo = nullptr) {
  for (int k = 0; k < ninstr; ++k)
    if (dev_exec_instr(code[k], R, memo)) return 1;
  return 0;
}

// An input slot from a column (the reference's load_one for non-TEXT).
__host__ __device__ inline void dev_load(int type, const void* d, const uint8_t* valid, int64_t row,
                                         dslot_t* o) {
  o->null = valid ? !valid[row] : 0;
  switch (type) {
    case ATTU_TYPE_BOOL: o->v.i = static_cast<const uint8_t*>(d)[row]; break;
    case ATTU_TYPE_INT16:  // smallint in an int32 slot
    case ATTU_TYPE_INT32:
    case ATTU_TYPE_DATE:
    case ATTU_TYPE_TEXT:  // the dictionary code (lbs_segreduce payloads only)
      o->v.i = static_cast<const int32_t*>(d)[row];
      break;
    case ATTU_TYPE_FLOAT32: o->v.f = static_cast<const float*>(d)[row]; break;
    case ATTU_TYPE_FLOAT64: o->v.f = static_cast<const double*>(d)[row]; break;
    default: o->v.i = static_cast<const int64_t*>(d)[row]; break;
  }
}

// An output slot into a column (the reference's store_one).
__host__ __device__ inline void dev_store(int type, void* d, uint8_t* valid, int64_t row,
                                          const dslot_t& s) {
  if (valid) valid[row] = !s.null;
  if (s.null) {
    switch (type) {
      case ATTU_TYPE_BOOL: case ATTU_TYPE_UNKNOWN: static_cast<uint8_t*>(d)[row] = 0; break;
      case ATTU_TYPE_INT16: case ATTU_TYPE_INT32: case ATTU_TYPE_DATE: case ATTU_TYPE_FLOAT32:
        static_cast<int32_t*>(d)[row] = 0;
        break;
      default: static_cast<int64_t*>(d)[row] = 0; break;
    }
    return;
  }
  switch (type) {
    case ATTU_TYPE_BOOL: static_cast<uint8_t*>(d)[row] = (uint8_t)(s.v.i != 0); break;
    case ATTU_TYPE_INT16: case ATTU_TYPE_INT32: case ATTU_TYPE_DATE: static_cast<int32_t*>(d)[row] = (int32_t)s.v.i; break;
    case ATTU_TYPE_FLOAT32: static_cast<float*>(d)[row] = (float)s.v.f; break;
    case ATTU_TYPE_FLOAT64: static_cast<double*>(d)[row] = s.v.f; break;
    default: static_cast<int64_t*>(d)[row] = s.v.i; break;
  }
}

}  // namespace gpu_backend
}  // namespace attu
