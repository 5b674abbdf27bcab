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
constexpr int kLbsMaxK = 4;        // ranks kept per ranked list
constexpr int kLbsMaxPay = 2;      // _ARG payloads per ranked list
constexpr int kLbsMaxGroups = 2;   // ranked lists per call
constexpr int kLbsMaxPlain = 4;    // COUNT / MIN / MAX reductions per call
constexpr int kLbsThreads = 128;

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

// A ranked list held by the whole warp: one copy per warp in shared
// memory, and in every lane's registers only what admits an item (the
// count and the last entry: wthresh_t). An item enters only when it ranks
// before the last entry, which after the first few items is rare: the lanes
// that hold such items raise a ballot and the warp inserts them one at a
// time, each broadcast from its lane. There is then no per-lane list (a
// lane's own top-3 over its ~18 items of a cities segment took in almost
// half of them, each insertion diverging the warp) and no fold of 32 lists
// at the end. (The whole list in registers cost 94 registers a thread and
// half the occupancy.)
struct wlist_t {
  long long val[kLbsMaxK];                  // num_t bits
  long long pay[kLbsMaxK][kLbsMaxPay];
  int idx[kLbsMaxK];                        // item index (ties; fewer than 2^31 items)
  int n;                                    // entries held, at most K
  unsigned long long nulls;                 // payload NULL bits: entry q's payload j at bit q * kLbsMaxPay + j
};

struct wthresh_t {
  int n;
  int last_idx;
  num_t last;  // entry K - 1 once the list is full
};

__device__ __forceinline__ bool wlist_takes(const lgroup_t& g, const wthresh_t& t, num_t v, long long idx) {
  return t.n < g.K || lbefore(g.fl, g.largest, v, idx, t.last, t.last_idx);
}

// Inserts (v, idx) in order (smallest or largest value first, ties by the
// smaller index), dropping what falls past K, and refreshes t. paynull:
// bit j = payload j is NULL. With `warp`, every lane of the warp calls it
// with the same item and lane 0 writes; without, one lane alone.
__device__ __forceinline__ void wlist_insert(const lgroup_t& g, wlist_t* L, wthresh_t& t, num_t v, long long idx,
                                             const long long* pay, unsigned paynull, bool warp) {
  int n = L->n, pos = 0;
  for (int q = 0; q < n; ++q) {
    num_t w;
    w.i = L->val[q];
    if (!lbefore(g.fl, g.largest, v, idx, w, L->idx[q])) pos = q + 1;
  }
  if (warp) __syncwarp();  // every lane has read the list
  if (pos < g.K && (!warp || (threadIdx.x & 31) == 0)) {
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
  if (warp) __syncwarp();  // lane 0's writes are seen
  t.n = L->n;
  if (t.n >= g.K) {
    t.last.i = L->val[g.K - 1];
    t.last_idx = L->idx[g.K - 1];
  }
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
#pragma unroll
  for (int gi = 0; gi < kLbsMaxGroups; ++gi) {
    th[gi].n = 0;
    th[gi].last_idx = 0;
    th[gi].last.i = 0;
  }
  if (lane < a.ngroup) {
    lists[lane].n = 0;
    lists[lane].nulls = 0;
  }
  __syncwarp();
  step_t step(a, sregs + threadIdx.x, (int)blockDim.x);
  step.load_left(a, lrow);  // the program never writes an input register
  long long passed = 0;
  int failed = 0;
  // 32-bit item indices (lbs_device_eligible: right_map has fewer than
  // 2^31 slots): the loop's index arithmetic is a good part of a compiled
  // step's instructions. Every lane runs every round (the ballots below
  // need the whole warp); lanes past the end have no item.
  const int64_t* map = a.map + b0;
  for (int i0 = 0; i0 < (int)cnt; i0 += 32) {
    int i = i0 + lane;
    long long row = 0;
    bool has = false;
    if (i < (int)cnt) {
      row = map[i];
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
      bool cand = has && lbs_entry(a, step, g, row, false, &v, pay, &paynull) && wlist_takes(g, th[gi], v, i);
      unsigned m = __ballot_sync(full, cand);
      while (m) {
        int src = __ffs(m) - 1;
        num_t bv;
        bv.i = __shfl_sync(full, v.i, src);
        long long bi = __shfl_sync(full, i, src);
        unsigned bn = __shfl_sync(full, paynull, src);
        long long bp[kLbsMaxPay];
#pragma unroll
        for (int j = 0; j < kLbsMaxPay; ++j) bp[j] = j < g.npay ? __shfl_sync(full, pay[j], src) : 0;
        wlist_insert(g, lists + gi, th[gi], bv, bi, bp, bn, true);
        cand = cand && lane != src && wlist_takes(g, th[gi], v, i);
        m = __ballot_sync(full, cand);
      }
    }
  }
  if (__any_sync(full, failed)) {
    if (lane == 0) atomicExch(a.fail, 1);
    return;
  }
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
        wlist_insert(g, lists + gi, th[gi], v, 0, pay, paynull, false);
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
