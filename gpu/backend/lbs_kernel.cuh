// lbs_kernel.cuh: the GPU backend's fused join-aggregate (lbs_segreduce)
// as a kernel body templated on its per-item step.
//
// One warp per segment (a left row). In each round lane l takes the
// segment's work item round * 32 + l (coalesced reads of right_map and, for
// partners stored in row order, of the right columns). Per item the lane
// gathers the right inputs (the left ones are loaded once), runs the program
// (the expr_device.cuh subset) and applies the residual filter. COUNT, MIN
// and MAX fold into the lane's own state, and the warp folds the 32 states
// with shuffles at the end; the NTH_* reductions over one value register and
// direction share one ranked list (the cities query's six
// nth_smallest[_arg] calls keep a single top-3 with one payload), which the
// whole warp holds in shared memory and fills by ballots (wlist_t). Every
// supported reduction is exact in any order because ties are broken by the
// item's index, which is what the reference's insertion in item order
// gives: counts add, MIN/MAX keep the earliest of equal values, and the
// lists order by (value, index). No float sum is done here: its value would
// depend on the fold's association.
//
// The step is what runs per item: lbs_interp_step (below) interprets the
// program held in shared memory; expr_jit compiles, with NVRTC, a step for
// one program and one reduction shape (every register index, type and list
// size a constant), and instantiates lbs_segreduce_body with it. Both are
// the same code from here on, so they give the same results.
#pragma once

extern "C" {
#include "engine/backend.h"
}
#include "gpu/backend/expr_device.cuh"

namespace attu {
namespace gpu_backend {

// Small bounds keep each lane's state small: it lives in local memory, and
// beyond L1 every access would go to L2. The program's registers live in
// shared memory (strided_regs_t).
constexpr int kLbsMaxK = 6;        // ranks kept per ranked list (a chord-ranked list's slack included)
constexpr int kLbsChordSlack = 2;  // extra ranks a chord-ranked list keeps, where kLbsMaxK allows
constexpr int kLbsMaxPay = 2;      // _ARG payloads per ranked list
constexpr int kLbsMaxGroups = 2;   // ranked lists per call
constexpr int kLbsMaxPlain = 4;    // COUNT / MIN / MAX reductions per call
constexpr int kLbsThreads = 128;
constexpr int kLbsJitMinBlocks = 8;  // a compiled kernel's blocks an SM (expr_jit_codegen.cu)

// A ranked list: NTH_{SMALLEST,LARGEST}[_ARG] calls over one value register.
struct lgroup_t {
  int largest;
  int fl;                    // the value is of the float class
  int in_reg;                // program register of the value
  int K;                     // capacity: the largest k of its calls
  int npay;
  int pay_reg[kLbsMaxPay];   // program register of each payload
  int pay_text[kLbsMaxPay];  // the payload is this TEXT right input's code, -1: not
};

// Where a reduction's result comes from, and where it goes.
struct lspec_t {
  int op;
  int k;
  int fl;
  int in_reg;     // COUNT / MIN / MAX: register of the value, -1: COUNT(*)
  int group;      // NTH_*: its ranked list, else -1
  int pay;        // NTH_*_ARG: the payload's index in the list, else -1
  int plain;      // COUNT / MIN / MAX: its state's index, else -1
  int out_type;
  int out_fl;
  void* out;
  uint8_t* out_valid;
};

struct lplain_t {
  long long cnt;
  long long idx;  // item index of acc (MIN / MAX ties)
  int has;
  num_t acc;
};


// A plain reduction's op, value class and register (-1: COUNT(*)).
struct lplain_spec_t {
  int op;
  int fl;
  int reg;
};

struct lbs_kargs_t {
  const int64_t* off;
  const int64_t* base;
  const int64_t* map;
  const int64_t* left_rows;
  const dinstr_t* code;
  int ninstr;
  int nregs;
  const dcol_t* left;
  int nleft;
  const dcol_t* right;
  int nright;
  int filter_reg;
  const lspec_t* specs;
  int nspec;
  const lgroup_t* groups;
  int ngroup;
  const int* plain_op;   // op of each plain state
  const int* plain_reg;  // its value register (-1: COUNT(*))
  const int* plain_fl;
  int nplain;
  int outer;
  long long nseg;
  int* fail;
  int nwords;  // 8-byte words of one lane's states (lstate_t)
  // cos(radians(x)) of every row of the right input in register
  // right_cos_reg, an earth_distance's second latitude (nullptr: none);
  // the same bits the instruction computes, once a row instead of once an
  // item (dev_memo_t)
  const double* right_cos;
  int right_cos_reg;
  // A ranked list by an earth_distance whose value serves nothing else
  // ranks by the chord instead (kDevOpEarthChord in the program, in place
  // of the distance); chord_group: that list (-1: none). right_unit: the
  // right rows' unit vectors, x then y then z, right_unit_rows apart
  // (nullptr: the instruction computes them). chord_lat_a / chord_lon_a: the
  // left input registers of the point; chord_lat_b / chord_lon_b: the right
  // columns (FLOAT64) of the partner, read again for the winners' exact
  // distances (lbs_chord_finish).
  int chord_group;
  const double* right_unit;
  long long right_unit_rows;
  int chord_lat_a, chord_lon_a, chord_lat_b, chord_lon_b;
};

__device__ inline int lcmp(int fl, num_t a, num_t b) {
  if (fl) return dev_fcmp(a.f, b.f);
  return (a.i > b.i) - (a.i < b.i);
}

// (a, ia) ranks before (b, ib) in a list ordered smallest (or largest) first.
__device__ inline bool lbefore(int fl, int largest, num_t a, long long ia, num_t b, long long ib) {
  int c = lcmp(fl, a, b);
  if (largest) c = -c;
  return c < 0 || (c == 0 && ia < ib);
}

__device__ inline void lplain_add(int op, int fl, lplain_t& st, const dslot_t* in, long long idx) {
  if (op == ATTU_REDUCE_COUNT_STAR) { st.cnt++; return; }
  if (in->null) return;
  st.cnt++;
  if (op == ATTU_REDUCE_COUNT) return;
  num_t v;
  v.i = in->v.i;  // the same bits whether int or float
  int c = st.has ? lcmp(fl, v, st.acc) : 0;
  if (!st.has || (op == ATTU_REDUCE_MIN ? c < 0 : c > 0)) { st.acc = v; st.idx = idx; }
  st.has = 1;
}

__device__ inline void lplain_merge(int op, int fl, lplain_t& st, const lplain_t& o) {
  st.cnt += o.cnt;
  if (op == ATTU_REDUCE_COUNT_STAR || op == ATTU_REDUCE_COUNT || !o.has) return;
  if (!st.has || lbefore(fl, op == ATTU_REDUCE_MAX, o.acc, o.idx, st.acc, st.idx)) {
    st.acc = o.acc;
    st.idx = o.idx;
  }
  st.has = 1;
}

// Each lane's plain states live in shared memory, one 8-byte word per
// field, strided by the block size so that a warp's accesses to one field
// fall in consecutive words (4 words a state: cnt, idx, has, acc).
struct lstate_t {
  long long* base;  // this lane's word 0
  int stride;       // words between consecutive fields (the block size)
  __device__ long long& operator[](int w) const { return base[(long long)w * stride]; }
};

__device__ inline lplain_t lplain_load(lstate_t s, int w) {
  lplain_t p;
  p.cnt = s[w];
  p.idx = s[w + 1];
  p.has = (int)s[w + 2];
  p.acc.i = s[w + 3];
  return p;
}
__device__ inline void lplain_save(lstate_t s, int w, const lplain_t& p) {
  s[w] = p.cnt;
  s[w + 1] = p.idx;
  s[w + 2] = p.has;
  s[w + 3] = p.acc.i;
}

// A ranked list held by the whole warp. While the items stream, lane q
// holds rank q in registers (wentry_t; K lanes of the 32), and every lane
// holds what admits an item (the count and the last entry: wthresh_t). An
// item enters only when it ranks before the last entry, which after the
// first few items is rare: the lanes that hold such items raise a ballot
// and the warp inserts them one at a time, each broadcast from its lane;
// an insertion is one comparison a lane, a ballot for the position and a
// shift by one lane (wreg_insert), with no shared memory and no barrier.
// (A list per lane took in almost half of a cities segment's items, each
// insertion diverging the warp; the whole list in every lane's registers
// cost 94 registers a thread; the list in shared memory, scanned by every
// lane at each insertion, cost a third of the kernel's instructions.) After
// the items the list goes to shared memory (wlist_t, rank-major), where the
// stores read it.
struct wlist_t {
  long long val[kLbsMaxK];                  // num_t bits
  long long pay[kLbsMaxK][kLbsMaxPay];
  int idx[kLbsMaxK];                        // item index (ties; fewer than 2^31 items)
  int n;                                    // entries held, at most K
  unsigned long long nulls;                 // payload NULL bits: entry q's payload j at bit q * kLbsMaxPay + j
};

// A value's rank key: integers as they are; a float's bits made to order
// as signed integers (dev_fcmp's order: -0 = +0, every NaN equal and above
// everything), complemented for a list of the largest, so that every list
// ranks by (key, item index) ascending with two integer comparisons.
__device__ __forceinline__ long long lkey(int fl, int largest, num_t v) {
  long long k = v.i;
  if (fl) {
    double d = v.f;
    if (isnan(d)) k = 0x7fffffffffffffffLL;
    else {
      k = __double_as_longlong(d + 0.0);  // -0 + 0 = +0
      if (k < 0) k ^= 0x7fffffffffffffffLL;
    }
  }
  return largest ? ~k : k;
}

__device__ __forceinline__ bool kbefore(long long ka, int ia, long long kb, int ib) {
  return ka < kb || (ka == kb && ia < ib);
}

struct wthresh_t {
  int n;
  int last_idx;
  long long last;  // entry K - 1's key once the list is full
};

// Lane q's entry of a list held in registers (rank q, if q < the count).
struct wentry_t {
  long long key;  // lkey(val)
  num_t val;
  int idx;
  unsigned nulls;  // payload NULL bits
  long long pay[kLbsMaxPay];
};

__device__ __forceinline__ void wentry_set(wentry_t& e, long long key, num_t v, int idx, unsigned nulls,
                                           const long long* pay) {
  e.key = key;
  e.val = v;
  e.idx = idx;
  e.nulls = nulls;
#pragma unroll
  for (int j = 0; j < kLbsMaxPay; ++j) e.pay[j] = pay[j];
}

__device__ __forceinline__ bool wlist_takes(const lgroup_t& g, const wthresh_t& t, long long key, int idx) {
  return t.n < g.K || kbefore(key, idx, t.last, t.last_idx);
}

// Inserts (key, v, idx) into the warp's list in registers (every lane
// calls it with the same item): its position is the number of entries
// ranking before it, the entries from there shift one lane up, and the one
// past K drops off. Refreshes t in every lane.
__device__ __forceinline__ void wreg_insert(const lgroup_t& g, wentry_t& e, wthresh_t& t, long long key, num_t v,
                                            int idx, const long long* pay, unsigned paynull, int lane) {
  const unsigned full = 0xffffffffu;
  bool ahead = lane < t.n && kbefore(e.key, e.idx, key, idx);
  int pos = __popc(__ballot_sync(full, ahead));
  long long uk = __shfl_up_sync(full, e.key, 1);
  num_t uv;
  uv.i = __shfl_up_sync(full, e.val.i, 1);
  int ui = __shfl_up_sync(full, e.idx, 1);
  unsigned un = __shfl_up_sync(full, e.nulls, 1);
  long long up[kLbsMaxPay];
#pragma unroll
  for (int j = 0; j < kLbsMaxPay; ++j) up[j] = j < g.npay ? __shfl_up_sync(full, e.pay[j], 1) : 0;
  if (pos >= g.K) return;  // warp-uniform; wlist_takes admits none such
  if (lane == pos) wentry_set(e, key, v, idx, paynull, pay);
  else if (lane > pos && lane < g.K) wentry_set(e, uk, uv, ui, un, up);
  if (t.n < g.K) t.n++;
  if (t.n >= g.K) {
    t.last = __shfl_sync(full, e.key, g.K - 1);
    t.last_idx = __shfl_sync(full, e.idx, g.K - 1);
  }
}

// Fills an empty list with the K first of the round's candidates: a
// bitonic sort of (key, item index) across the lanes (the others last),
// then lane q takes rank q's value and payloads from the lane that held it.
__device__ __forceinline__ void wlist_fill(const lgroup_t& g, wentry_t& e, wthresh_t& t, bool cand, long long key,
                                           int idx, num_t v, const long long* pay, unsigned paynull, int lane) {
  const unsigned full = 0xffffffffu;
  long long sk = cand ? key : 0x7fffffffffffffffLL;
  int si = cand ? idx : 0x7fffffff, sl = lane;
#pragma unroll
  for (int k = 2; k <= 32; k <<= 1) {
#pragma unroll
    for (int j = k >> 1; j > 0; j >>= 1) {
      long long pk = __shfl_xor_sync(full, sk, j);
      int pi = __shfl_xor_sync(full, si, j);
      int pl = __shfl_xor_sync(full, sl, j);
      bool keep_min = ((lane & k) == 0) == ((lane & j) == 0);
      bool partner_first = kbefore(pk, pi, sk, si);
      if (keep_min == partner_first) {
        sk = pk;
        si = pi;
        sl = pl;
      }
    }
  }
  int c = __popc(__ballot_sync(full, cand));
  int n = c < g.K ? c : g.K;
  num_t bv;
  bv.i = __shfl_sync(full, v.i, sl);
  unsigned bn = __shfl_sync(full, paynull, sl);
  long long bp[kLbsMaxPay];
#pragma unroll
  for (int j = 0; j < kLbsMaxPay; ++j) bp[j] = j < g.npay ? __shfl_sync(full, pay[j], sl) : 0;
  if (lane < n) wentry_set(e, sk, bv, si, bn, bp);
  t.n = n;
  if (n >= g.K) {
    t.last = __shfl_sync(full, sk, g.K - 1);
    t.last_idx = __shfl_sync(full, si, g.K - 1);
  }
}

// Inserts (v, idx) into the list in shared memory in order (smallest or
// largest value first, ties by the smaller index), dropping what falls
// past K. paynull: bit j = payload j is NULL. One lane (a LEFT JOIN's NULL
// item, after the warp has stored its list).
__device__ __forceinline__ void wlist_insert(const lgroup_t& g, wlist_t* L, num_t v, long long idx,
                                             const long long* pay, unsigned paynull) {
  int n = L->n, pos = 0;
  for (int q = 0; q < n; ++q) {
    num_t w;
    w.i = L->val[q];
    if (!lbefore(g.fl, g.largest, v, idx, w, L->idx[q])) pos = q + 1;
  }
  if (pos >= g.K) return;
  int last = n < g.K ? n : g.K - 1;
  for (int q = last; q > pos; --q) {
    L->val[q] = L->val[q - 1];
    L->idx[q] = L->idx[q - 1];
    for (int j = 0; j < g.npay; ++j) L->pay[q][j] = L->pay[q - 1][j];
  }
  L->val[pos] = v.i;
  L->idx[pos] = (int)idx;
  for (int j = 0; j < g.npay; ++j) L->pay[pos][j] = pay[j];
  // entries from pos on move one place down; the new one's bits go in at pos
  int low = pos * kLbsMaxPay;
  unsigned long long keep = L->nulls & ((1ull << low) - 1);
  unsigned long long moved = (L->nulls >> low) << (low + kLbsMaxPay);
  L->nulls = keep | moved | ((unsigned long long)paynull << low);
  L->n = n < g.K ? n + 1 : n;
}

// A result slot into its output column (the reference's store_one).
__device__ __forceinline__ void lspec_put(const lspec_t& sp, dslot_t sl, long long row) {
  if (sp.out_valid) sp.out_valid[row] = !sl.null;
  switch (sp.out_type) {
    case ATTU_TYPE_BOOL: static_cast<uint8_t*>(sp.out)[row] = sl.null ? 0 : (uint8_t)(sl.v.i != 0); break;
    case ATTU_TYPE_INT16:
    case ATTU_TYPE_INT32:
    case ATTU_TYPE_DATE:
    case ATTU_TYPE_TEXT: static_cast<int32_t*>(sp.out)[row] = sl.null ? 0 : (int32_t)sl.v.i; break;
    case ATTU_TYPE_FLOAT32:
      if (sl.null) static_cast<int32_t*>(sp.out)[row] = 0;
      else static_cast<float*>(sp.out)[row] = (float)sl.v.f;
      break;
    default: static_cast<int64_t*>(sp.out)[row] = sl.null ? 0 : sl.v.i; break;
  }
}

// The reference's attu_reducer_store for a plain reduction.
__device__ __forceinline__ void lspec_store_plain(const lspec_t& sp, lstate_t st, int plain_base, long long row) {
  dslot_t sl;
  sl.null = 0;
  sl.v.i = 0;
  lplain_t p = lplain_load(st, plain_base + 4 * sp.plain);
  if (sp.op == ATTU_REDUCE_COUNT_STAR || sp.op == ATTU_REDUCE_COUNT) sl.v.i = p.cnt;
  else if (!p.has) sl.null = 1;
  else if (sp.out_fl && !sp.fl) sl.v.f = (double)p.acc.i;
  else sl.v.i = p.acc.i;
  lspec_put(sp, sl, row);
}

// The reference's attu_reducer_store for an NTH_* reduction: rank k of
// its ranked list.
__device__ __forceinline__ void lspec_store_nth(const lspec_t& sp, const wlist_t* L, long long row) {
  dslot_t sl;
  sl.null = 0;
  sl.v.i = 0;
  int q = sp.k - 1;
  if (L->n < sp.k) sl.null = 1;
  else if (sp.pay >= 0) {
    if ((L->nulls >> (q * kLbsMaxPay + sp.pay)) & 1) sl.null = 1;
    else sl.v.i = L->pay[q][sp.pay];
  } else {
    num_t nv;
    nv.i = L->val[q];
    if (sp.out_fl) sl.v.f = sp.fl ? nv.f : (double)nv.i;
    else sl.v.i = nv.i;
  }
  lspec_put(sp, sl, row);
}

// Feeds one item that passed the filter to this lane's plain states.
// step_t supplies the reduction shape (plain(); constants in a compiled
// step) and the registers (reg()).
template <typename step_t>
__device__ __forceinline__ void lbs_feed_plain(const lbs_kargs_t& a, const step_t& step, long long idx, lstate_t st,
                                               int plain_base) {
#pragma unroll
  for (int p = 0; p < kLbsMaxPlain; ++p) {
    if (p >= step.nplain(a)) break;
    lplain_spec_t ps = step.plain(a, p);
    lplain_t pl = lplain_load(st, plain_base + 4 * p);
    lplain_add(ps.op, ps.fl, pl, ps.reg >= 0 ? &step.reg(ps.reg) : nullptr, idx);
    lplain_save(st, plain_base + 4 * p, pl);
  }
}

// An item's entry for ranked list g: whether it has a value, the value,
// and its payloads (the TEXT ones read from the right column's codes).
template <typename step_t>
__device__ __forceinline__ bool lbs_entry(const lbs_kargs_t& a, const step_t& step, const lgroup_t& g, long long row,
                                          bool null_right, num_t* v, long long* pay, unsigned* paynull) {
  const dslot_t& x = step.reg(g.in_reg);
  if (x.null) return false;
  v->i = x.v.i;
  *paynull = 0;
#pragma unroll
  for (int j = 0; j < kLbsMaxPay; ++j) {
    pay[j] = 0;
    if (j >= g.npay) continue;
    *paynull |= (unsigned)step.reg(g.pay_reg[j]).null << j;
    pay[j] = (g.pay_text[j] >= 0 && !null_right) ? static_cast<const int32_t*>(a.right[g.pay_text[j]].data)[row]
                                                 : step.reg(g.pay_reg[j]).v.i;
  }
  return true;
}

// Bytes of dynamic shared memory the body needs: shared_regs registers a
// thread ahead of the lanes' plain states (the step's shared_regs(a): the
// interpreter's registers, none for a compiled step), then the copies.
__host__ __device__ inline size_t lbs_shared_bytes(const lbs_kargs_t& a, int nthreads, int shared_regs) {
  size_t copies = (size_t)a.ninstr * sizeof(dinstr_t) + (size_t)a.nright * sizeof(dcol_t) +
                  (size_t)a.ngroup * sizeof(lgroup_t) + (size_t)3 * a.nplain * sizeof(int);
  return (size_t)shared_regs * nthreads * sizeof(dslot_t) + (size_t)a.nwords * nthreads * sizeof(long long) +
         (copies + 15) / 16 * 16 + (size_t)(nthreads / 32) * a.ngroup * sizeof(wlist_t);
}

// A chord-ranked list's entries get their exact distances (the formula of
// the EARTH_DISTANCE instruction, dev_earth_distance, from the partner's
// coordinates), lane q computing rank q's, and are ranked again by
// (distance, item index), which is the order a list ranked by the distance
// itself has. The chord's rounding can only swap partners whose distances
// agree to about 1e-12 of their size; the list's slack ranks
// (kLbsChordSlack) keep such a partner that fell just past the last rank.
// Every entry came from a real item (a LEFT JOIN's NULL item has no
// distance and never enters). The point is read again from its left
// columns, not from the step's registers: an index known only at run time
// would put a compiled step's registers in local memory, for every item.
__device__ inline void lbs_chord_exact(const lbs_kargs_t& a, long long lrow, const int64_t* map, wentry_t& e,
                                       bool held) {
  if (!held) return;
  dslot_t pa, po;
  dev_load(a.left[a.chord_lat_a].type, a.left[a.chord_lat_a].data, nullptr, lrow, &pa);
  dev_load(a.left[a.chord_lon_a].type, a.left[a.chord_lon_a].data, nullptr, lrow, &po);
  const double rad = M_PI / 180.0;
  const double* latb = static_cast<const double*>(a.right[a.chord_lat_b].data);
  const double* lonb = static_cast<const double*>(a.right[a.chord_lon_b].data);
  long long row = map[e.idx];
  double lb = latb[row];
  double clb = a.right_cos && a.right_cos_reg == a.nleft + a.chord_lat_b ? a.right_cos[row] : cos(lb * rad);
  e.val.f = dev_earth_distance(pa.v.f, po.v.f, lb, lonb[row], cos(pa.v.f * rad), clb);
}

// The warp's list from registers to shared memory (wlist_t), a
// chord-ranked one re-ranked by its exact distances first. Every lane
// calls it.
__device__ __forceinline__ void wlist_store(const lbs_kargs_t& a, const lgroup_t& g, bool chord, long long lrow,
                                            const int64_t* map, wentry_t e, int n, wlist_t* L, int lane) {
  const unsigned full = 0xffffffffu;
  int rank = lane;
  if (chord) {
    lbs_chord_exact(a, lrow, map, e, lane < n);
    rank = 0;
    for (int p = 0; p < n; ++p) {
      num_t pv;
      pv.i = __shfl_sync(full, e.val.i, p);
      int pi = __shfl_sync(full, e.idx, p);
      if (p != lane && lbefore(1, g.largest, pv, pi, e.val, e.idx)) rank++;
    }
  }
  if (lane < n) {
    L->val[rank] = e.val.i;
    L->idx[rank] = e.idx;
#pragma unroll
    for (int j = 0; j < kLbsMaxPay; ++j) L->pay[rank][j] = e.pay[j];
  }
  unsigned bits = __reduce_or_sync(full, lane < n ? e.nulls << (rank * kLbsMaxPay) : 0u);
  if (lane == 0) {
    L->n = n;
    L->nulls = bits;
  }
}

// A load issued where it is written: a plain load whose value is first
// used a round later may be moved down to that use by the compiler, which
// loses the round of latency it was meant to hide.
__device__ __forceinline__ long long lbs_load_ahead(const int64_t* p) {
  long long v;
  asm volatile("ld.global.nc.s64 %0, [%1];" : "=l"(v) : "l"(p));
  return v;
}

template <typename step_t>
__device__ void lbs_segreduce_body(lbs_kargs_t a) {
  // Shared memory: the interpreter's registers (register-major), the lanes'
  // plain states (lstate_t), then copies of the program, the right columns,
  // the ranked lists' shapes and the plain reductions, which every lane
  // reads at every item (a broadcast from shared memory instead of a
  // global load), then each warp's ranked lists (16-byte aligned).
  extern __shared__ long long lbs_shared[];
  dslot_t* sregs = reinterpret_cast<dslot_t*>(lbs_shared);
  long long* sstate = reinterpret_cast<long long*>(sregs + (size_t)step_t::shared_regs(a) * blockDim.x);
  dinstr_t* scode = reinterpret_cast<dinstr_t*>(sstate + (size_t)a.nwords * blockDim.x);
  dcol_t* sright = reinterpret_cast<dcol_t*>(scode + a.ninstr);
  lgroup_t* sgroups = reinterpret_cast<lgroup_t*>(sright + a.nright);
  int* splain = reinterpret_cast<int*>(sgroups + a.ngroup);
  size_t copies = (size_t)a.ninstr * sizeof(dinstr_t) + (size_t)a.nright * sizeof(dcol_t) +
                  (size_t)a.ngroup * sizeof(lgroup_t) + (size_t)3 * a.nplain * sizeof(int);
  wlist_t* swl = reinterpret_cast<wlist_t*>(reinterpret_cast<char*>(scode) + (copies + 15) / 16 * 16);
  for (int i = threadIdx.x; i < a.ninstr; i += blockDim.x) scode[i] = a.code[i];
  for (int i = threadIdx.x; i < a.nright; i += blockDim.x) sright[i] = a.right[i];
  for (int i = threadIdx.x; i < a.ngroup; i += blockDim.x) sgroups[i] = a.groups[i];
  for (int i = threadIdx.x; i < a.nplain; i += blockDim.x) {
    splain[i] = a.plain_op[i];
    splain[a.nplain + i] = a.plain_reg[i];
    splain[2 * a.nplain + i] = a.plain_fl[i];
  }
  __syncthreads();
  a.code = scode;
  a.right = sright;
  a.groups = sgroups;
  a.plain_op = splain;
  a.plain_reg = splain + a.nplain;
  a.plain_fl = splain + 2 * a.nplain;
  long long warp = ((long long)blockIdx.x * blockDim.x + threadIdx.x) >> 5;
  int lane = threadIdx.x & 31;
  if (warp >= a.nseg) return;  // whole warps only: blockDim is a multiple of 32
  const unsigned full = 0xffffffffu;
  long long s = warp;
  long long lrow = a.left_rows ? a.left_rows[s] : s;
  long long cnt = a.off[s + 1] - a.off[s], b0 = a.base[s];
  lstate_t st{sstate + threadIdx.x, (int)blockDim.x};
  for (int w = 0; w < a.nwords; ++w) st[w] = 0;
  int plain_base = 0;
  wlist_t* lists = swl + (threadIdx.x >> 5) * a.ngroup;  // this warp's
  wthresh_t th[kLbsMaxGroups];
  wentry_t ent[kLbsMaxGroups];  // this lane's rank of each list
#pragma unroll
  for (int gi = 0; gi < kLbsMaxGroups; ++gi) {
    th[gi].n = 0;
    th[gi].last_idx = 0;
    th[gi].last = 0;
    ent[gi].key = 0;
    ent[gi].val.i = 0;
    ent[gi].idx = 0;
    ent[gi].nulls = 0;
#pragma unroll
    for (int j = 0; j < kLbsMaxPay; ++j) ent[gi].pay[j] = 0;
  }
  step_t step(a, sregs + threadIdx.x, (int)blockDim.x);
  step.load_left(a, lrow);  // the program never writes an input register
  long long passed = 0;
  int failed = 0;
  // 32-bit item indices (lbs_device_eligible: right_map has fewer than
  // 2^31 slots): the loop's index arithmetic is a good part of a compiled
  // step's instructions. Every lane runs every round (the ballots below
  // need the whole warp); lanes past the end have no item.
  const int64_t* map = a.map + b0;
  // The next round's partner row is loaded a round ahead: the item's
  // column reads depend on it, and the wait for both in a row was most of
  // a round (the kernel waits on loads more than it issues: ncu, the
  // cities kernel, 356 -> 317 us while the load stayed early in the round;
  // 369 us once the compiler sank a plain load to its use, hence
  // lbs_load_ahead). Prefetching the next round's columns into L1 as well
  // cost more than it hid (418-434 us).
  long long row_next = lane < (int)cnt ? map[lane] : 0;
  for (int i0 = 0; i0 < (int)cnt; i0 += 32) {
    int i = i0 + lane;
    long long row = row_next;
    bool has = false;
    if (i + 32 < (int)cnt) row_next = lbs_load_ahead(map + i + 32);
    if (i < (int)cnt) {
      if (step.item(a, row)) failed = 1;
      else has = step.passes(a);
    }
    if (__any_sync(full, failed)) break;
    if (has) {
      passed++;
      lbs_feed_plain(a, step, i, st, plain_base);
    }
#pragma unroll
    for (int gi = 0; gi < kLbsMaxGroups; ++gi) {
      if (gi >= step.ngroup(a)) break;
      const lgroup_t g = step.group(a, gi);
      num_t v;
      v.i = 0;
      long long pay[kLbsMaxPay] = {};
      unsigned paynull = 0;
      bool cand = has && lbs_entry(a, step, g, row, false, &v, pay, &paynull);
      long long key = lkey(g.fl, g.largest, v);
      cand = cand && wlist_takes(g, th[gi], key, i);
      unsigned m = __ballot_sync(full, cand);
      if (th[gi].n == 0 && __popc(m) > 2) {
        // The list's first fill (every item of the round is a candidate):
        // the round's items sorted across the lanes take it in one go,
        // where inserting them one by one took about half of a segment's
        // insertions.
        wlist_fill(g, ent[gi], th[gi], cand, key, i, v, pay, paynull, lane);
        m = 0;
      }
      while (m) {
        int src = __ffs(m) - 1;
        long long bk = __shfl_sync(full, key, src);
        num_t bv;
        bv.i = __shfl_sync(full, v.i, src);
        int bi = __shfl_sync(full, i, src);
        unsigned bn = __shfl_sync(full, paynull, src);
        long long bp[kLbsMaxPay];
#pragma unroll
        for (int j = 0; j < kLbsMaxPay; ++j) bp[j] = j < g.npay ? __shfl_sync(full, pay[j], src) : 0;
        wreg_insert(g, ent[gi], th[gi], bk, bv, bi, bp, bn, lane);
        cand = cand && lane != src && wlist_takes(g, th[gi], key, i);
        m = __ballot_sync(full, cand);
      }
    }
  }
  if (__any_sync(full, failed)) {
    if (lane == 0) atomicExch(a.fail, 1);
    return;
  }
#pragma unroll
  for (int gi = 0; gi < kLbsMaxGroups; ++gi) {
    if (gi >= step.ngroup(a)) break;
    wlist_store(a, step.group(a, gi), gi == a.chord_group, lrow, map, ent[gi], th[gi].n, lists + gi, lane);
  }
  __syncwarp();  // the lists in shared memory are the warp's
  // The plain states' fold: a receiving lane reads its partner's states
  // straight from shared memory (the partner is not a receiver in that
  // round). The ranked lists are the warp's already.
  for (int off = 1; off < 32; off <<= 1) {
    __syncwarp();
    bool recv = (lane & (2 * off - 1)) == 0;
    lstate_t o{st.base + off, st.stride};
    if (recv) {
      for (int p = 0; p < a.nplain; ++p) {
        lplain_t mine = lplain_load(st, plain_base + 4 * p);
        lplain_merge(a.plain_op[p], a.plain_fl[p], mine, lplain_load(o, plain_base + 4 * p));
        lplain_save(st, plain_base + 4 * p, mine);
      }
    }
    long long p = __shfl_down_sync(full, passed, off);
    if (recv) passed += p;
  }
  if (lane != 0) return;
  if (a.outer && a.nspec > 0 && passed == 0) {
    // LEFT JOIN: no partner passed; one item whose right inputs are NULL
    if (step.outer_item(a)) { atomicExch(a.fail, 1); return; }
    lbs_feed_plain(a, step, 0, st, plain_base);
#pragma unroll
    for (int gi = 0; gi < kLbsMaxGroups; ++gi) {
      if (gi >= step.ngroup(a)) break;
      const lgroup_t g = step.group(a, gi);
      num_t v;
      v.i = 0;
      long long pay[kLbsMaxPay] = {};
      unsigned paynull = 0;
      if (lbs_entry(a, step, g, -1, true, &v, pay, &paynull))
        wlist_insert(g, lists + gi, v, 0, pay, paynull);
    }
  }
  for (int k = 0; k < a.nspec; ++k)
    if (a.specs[k].group < 0) lspec_store_plain(a.specs[k], st, plain_base, s);
  for (int k = 0; k < a.nspec; ++k)
    if (a.specs[k].group >= 0) lspec_store_nth(a.specs[k], lists + a.specs[k].group, s);
}

// The interpreter's step: the program and the reduction shape from shared
// memory, the registers in shared memory strided by the block size.
struct lbs_interp_step {
  strided_regs_t R;
  dev_memo_t memo;
  __device__ lbs_interp_step(const lbs_kargs_t& a, dslot_t* regs, int stride) : R{regs, stride} {
    for (int r = 0; r < a.nregs; ++r) { R[r].v.i = 0; R[r].null = 0; }
  }
  __host__ __device__ static int shared_regs(const lbs_kargs_t& a) { return a.nregs > 0 ? a.nregs : 1; }
  __device__ void load_left(const lbs_kargs_t& a, long long lrow) {
    for (int j = 0; j < a.nleft; ++j) dev_load(a.left[j].type, a.left[j].data, a.left[j].valid, lrow, &R[j]);
  }
  __device__ int item(const lbs_kargs_t& a, long long row) {
    if (a.right_cos) {
      memo.cos_b_reg = a.right_cos_reg;
      memo.cos_b = a.right_cos[row];
    }
    if (a.right_unit) {
      memo.ub_set = 1;
      for (int q = 0; q < 3; ++q) memo.ub[q] = a.right_unit[q * a.right_unit_rows + row];
    }
    for (int j = 0; j < a.nright; ++j)
      dev_load(a.right[j].type, a.right[j].data, a.right[j].valid, row, &R[a.nleft + j]);
    return dev_eval_row(a.code, a.ninstr, R, &memo);
  }
  __device__ int outer_item(const lbs_kargs_t& a) {
    for (int j = 0; j < a.nright; ++j) { R[a.nleft + j].null = 1; R[a.nleft + j].v.i = 0; }
    return dev_eval_row(a.code, a.ninstr, R);
  }
  __device__ bool passes(const lbs_kargs_t& a) const {
    return a.filter_reg < 0 || (!R[a.filter_reg].null && R[a.filter_reg].v.i);
  }
  __device__ const dslot_t& reg(int r) const { return R[r]; }
  __device__ int nplain(const lbs_kargs_t& a) const { return a.nplain; }
  __device__ lplain_spec_t plain(const lbs_kargs_t& a, int p) const {
    return lplain_spec_t{a.plain_op[p], a.plain_fl[p], a.plain_reg[p]};
  }
  __device__ int ngroup(const lbs_kargs_t& a) const { return a.ngroup; }
  __device__ lgroup_t group(const lbs_kargs_t& a, int gi) const { return a.groups[gi]; }
};

}  // namespace gpu_backend
}  // namespace attu
