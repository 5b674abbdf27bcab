// lbs_kernel.cuh: the GPU backend's fused join-aggregate (lbs_segreduce)
// as a kernel body templated on its per-item step.
//
// One warp per segment (a left row). Lane l takes the segment's work items
// l, l + 32, l + 64 ... (coalesced reads of right_map and, for partners
// stored in row order, of the right columns). Per item the lane gathers the
// right inputs (the left ones are loaded once), runs the program (the
// expr_device.cuh subset), applies the residual filter and feeds its
// partial reductions; the warp then folds the 32 partials with shuffles.
// Every supported reduction is exact under that fold because ties are
// broken by the item's index, which is what the reference's insertion in
// item order gives: counts add, MIN/MAX keep the earliest of equal values,
// and the NTH_* lists merge by (value, index). The NTH_* reductions over one
// value register and direction share one ranked list (the cities query's
// six nth_smallest[_arg] calls keep a single top-3 with one payload). No
// float sum is done here: its value would depend on the fold's association.
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

// Each lane's states (the ranked lists and the plain reductions) live in
// shared memory, one 8-byte word per field, strided by the block size so
// that a warp's accesses to one field fall in consecutive words. Kept in
// registers or local arrays they cost more: a list indexed at run time goes
// to local memory (3.3 GB of loads for the cities query), and unrolled into
// registers it pushes the interpreter into spills (6.5 GB, measured).
// Layout per lane, in words: for each list g, 2 + K_g * (2 + P_g) words
// (n, the payload NULL bits, K values, K indices, K * P payloads); then 4
// words per plain state (cnt, idx, has, acc).
struct lstate_t {
  long long* base;  // this lane's word 0
  int stride;       // words between consecutive fields (the block size)
  __device__ long long& operator[](int w) const { return base[(long long)w * stride]; }
};

struct llist_t {  // one ranked list in a lane's state
  lstate_t s;
  int off, K, P;
  __device__ long long& n() const { return s[off]; }
  __device__ long long& nulls() const { return s[off + 1]; }
  __device__ long long& val(int q) const { return s[off + 2 + q]; }
  __device__ long long& idx(int q) const { return s[off + 2 + K + q]; }
  __device__ long long& pay(int q, int j) const { return s[off + 2 + 2 * K + q * P + j]; }
};

__device__ inline int lgroup_words(const lgroup_t& g) { return 2 + g.K * (2 + g.npay); }

__device__ inline llist_t llist(const lbs_kargs_t& a, lstate_t s, int gi) {
  int off = 0;
  for (int g = 0; g < gi; ++g) off += lgroup_words(a.groups[g]);
  return llist_t{s, off, a.groups[gi].K, a.groups[gi].npay};
}

// Inserts (v, idx) into the list kept in order: smallest (or largest)
// value first, ties by the smaller item index. paynull: bit j = payload j
// is NULL.
__device__ inline void lrank_insert(const lgroup_t& g, const llist_t& L, num_t v, long long idx,
                                    const long long* pay, int paynull) {
  int n = (int)L.n();
  int pos = n;
  while (pos > 0) {
    num_t w;
    w.i = L.val(pos - 1);
    if (lbefore(g.fl, g.largest, v, idx, w, L.idx(pos - 1))) pos--;
    else break;
  }
  if (pos >= g.K) return;
  int last = n < g.K ? n : g.K - 1;
  for (int q = last; q > pos; --q) {
    L.val(q) = L.val(q - 1);
    L.idx(q) = L.idx(q - 1);
    for (int j = 0; j < g.npay; ++j) L.pay(q, j) = L.pay(q - 1, j);
  }
  L.val(pos) = v.i;
  L.idx(pos) = idx;
  for (int j = 0; j < g.npay; ++j) L.pay(pos, j) = pay[j];
  if (g.npay) {
    // entries from pos on move one place down; the new one's bits go in at pos
    unsigned long long m = (unsigned long long)L.nulls();
    int low = pos * g.npay;
    unsigned long long keep = m & ((1ull << low) - 1);
    unsigned long long moved = (m >> low) << (low + g.npay);
    L.nulls() = (long long)(keep | moved | ((unsigned long long)paynull << low));
  }
  if (n < g.K) L.n() = n + 1;
}

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

// The reference's attu_reducer_store + store_one.
__device__ inline void lspec_store(const lbs_kargs_t& a, const lspec_t& sp, lstate_t st, int plain_base,
                            long long row) {
  dslot_t sl;
  sl.null = 0;
  sl.v.i = 0;
  if (sp.group >= 0) {
    llist_t L = llist(a, st, sp.group);
    int q = sp.k - 1;
    if (L.n() < sp.k) sl.null = 1;
    else if (sp.pay >= 0) {
      if ((L.nulls() >> (q * L.P + sp.pay)) & 1) sl.null = 1;
      else sl.v.i = L.pay(q, sp.pay);
    } else {
      num_t val;
      val.i = L.val(q);
      if (sp.out_fl) sl.v.f = sp.fl ? val.f : (double)val.i;
      else sl.v.i = val.i;
    }
  } else {
    lplain_t p = lplain_load(st, plain_base + 4 * sp.plain);
    if (sp.op == ATTU_REDUCE_COUNT_STAR || sp.op == ATTU_REDUCE_COUNT) sl.v.i = p.cnt;
    else if (!p.has) sl.null = 1;
    else if (sp.out_fl && !sp.fl) sl.v.f = (double)p.acc.i;
    else sl.v.i = p.acc.i;
  }
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

// Feeds one item that passed the filter to every state.

// Feeds one item that passed the filter to every state. step_t supplies the
// reduction shape (group(), plain(); constants in a compiled step) and the
// registers (reg()).
template <typename step_t>
__device__ __forceinline__ void lbs_feed(const lbs_kargs_t& a, const step_t& step, long long row, long long idx,
                                         bool null_right, lstate_t st, int plain_base) {
#pragma unroll
  for (int p = 0; p < kLbsMaxPlain; ++p) {
    if (p >= step.nplain(a)) break;
    lplain_spec_t ps = step.plain(a, p);
    lplain_t pl = lplain_load(st, plain_base + 4 * p);
    lplain_add(ps.op, ps.fl, pl, ps.reg >= 0 ? &step.reg(ps.reg) : nullptr, idx);
    lplain_save(st, plain_base + 4 * p, pl);
  }
  int off = 0;
#pragma unroll
  for (int gi = 0; gi < kLbsMaxGroups; ++gi) {
    if (gi >= step.ngroup(a)) break;
    const lgroup_t g = step.group(a, gi);
    llist_t L{st, off, g.K, g.npay};
    off += lgroup_words(g);
    const dslot_t& v = step.reg(g.in_reg);
    if (v.null) continue;
    long long pay[kLbsMaxPay];
    int paynull = 0;
#pragma unroll
    for (int j = 0; j < kLbsMaxPay; ++j) {
      if (j >= g.npay) break;
      paynull |= step.reg(g.pay_reg[j]).null << j;
      pay[j] = (g.pay_text[j] >= 0 && !null_right)
                   ? static_cast<const int32_t*>(a.right[g.pay_text[j]].data)[row]
                   : step.reg(g.pay_reg[j]).v.i;
    }
    num_t x;
    x.i = v.v.i;
    lrank_insert(g, L, x, idx, pay, paynull);
  }
}

// Bytes of dynamic shared memory the body needs: shared_regs registers a
// thread ahead of the lanes' states (the step's shared_regs(a): the
// interpreter's registers, none for a compiled step), then the copies.
__host__ __device__ inline size_t lbs_shared_bytes(const lbs_kargs_t& a, int nthreads, int shared_regs) {
  return (size_t)shared_regs * nthreads * sizeof(dslot_t) + (size_t)a.nwords * nthreads * sizeof(long long) +
         (size_t)a.ninstr * sizeof(dinstr_t) + (size_t)a.nright * sizeof(dcol_t) +
         (size_t)a.ngroup * sizeof(lgroup_t) + (size_t)3 * a.nplain * sizeof(int);
}

template <typename step_t>
__device__ void lbs_segreduce_body(lbs_kargs_t a) {
  // Shared memory: the interpreter's registers (register-major), the lanes'
  // states (lstate_t), then copies of the program, the right columns, the
  // ranked lists and the plain reductions, which every lane reads at every
  // item (a broadcast from shared memory instead of a global load).
  extern __shared__ long long lbs_shared[];
  dslot_t* sregs = reinterpret_cast<dslot_t*>(lbs_shared);
  long long* sstate = reinterpret_cast<long long*>(sregs + (size_t)step_t::shared_regs(a) * blockDim.x);
  dinstr_t* scode = reinterpret_cast<dinstr_t*>(sstate + (size_t)a.nwords * blockDim.x);
  dcol_t* sright = reinterpret_cast<dcol_t*>(scode + a.ninstr);
  lgroup_t* sgroups = reinterpret_cast<lgroup_t*>(sright + a.nright);
  int* splain = reinterpret_cast<int*>(sgroups + a.ngroup);
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
  long long s = warp;
  long long lrow = a.left_rows ? a.left_rows[s] : s;
  long long cnt = a.off[s + 1] - a.off[s], b0 = a.base[s];
  lstate_t st{sstate + threadIdx.x, (int)blockDim.x};
  for (int w = 0; w < a.nwords; ++w) st[w] = 0;
  int plain_base = a.nwords - 4 * a.nplain;
  step_t step(a, sregs + threadIdx.x, (int)blockDim.x);
  step.load_left(a, lrow);  // the program never writes an input register
  long long passed = 0;
  int failed = 0;
  // 32-bit item indices (lbs_device_eligible: right_map has fewer than
  // 2^31 slots): the loop's index arithmetic is a good part of a compiled
  // step's instructions.
  const int64_t* map = a.map + b0;
  for (int i = lane; i < (int)cnt; i += 32) {
    long long row = map[i];
    if (step.item(a, row)) { failed = 1; break; }
    if (!step.passes(a)) continue;
    passed++;
    lbs_feed(a, step, row, i, false, st, plain_base);
  }
  const unsigned full = 0xffffffffu;
  if (__any_sync(full, failed)) {
    if (lane == 0) atomicExch(a.fail, 1);
    return;
  }
  // The warp's fold: a receiving lane reads its partner's states straight
  // from shared memory (the partner is not a receiver in that round).
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
      int woff = 0;
      for (int gi = 0; gi < a.ngroup; ++gi) {
        const lgroup_t& g = a.groups[gi];
        llist_t L{st, woff, g.K, g.npay}, O{o, woff, g.K, g.npay};
        woff += lgroup_words(g);
        int on = (int)O.n();
        unsigned long long onull = (unsigned long long)O.nulls();
        for (int q = 0; q < on; ++q) {
          long long pay[kLbsMaxPay];
          for (int j = 0; j < g.npay; ++j) pay[j] = O.pay(q, j);
          num_t v;
          v.i = O.val(q);
          lrank_insert(g, L, v, O.idx(q), pay, (int)((onull >> (q * g.npay)) & ((1ull << g.npay) - 1)));
        }
      }
    }
    long long p = __shfl_down_sync(full, passed, off);
    if (recv) passed += p;
  }
  if (lane != 0) return;
  if (a.outer && a.nspec > 0 && passed == 0) {
    // LEFT JOIN: no partner passed; one item whose right inputs are NULL
    if (step.outer_item(a)) { atomicExch(a.fail, 1); return; }
    lbs_feed(a, step, -1, 0, true, st, plain_base);
  }
  for (int k = 0; k < a.nspec; ++k) lspec_store(a, a.specs[k], st, plain_base, s);
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
