// segreduce.cuh: segmented reductions (seeds/003): transform_segreduce,
// segreduce, lbs_segreduce and spmv.
//
// output[s] = v(first item of s) op ... op v(last item of s), in item order
// (op associative, not necessarily commutative); an empty segment gets init,
// which is never combined with values.
//
// Built on the load-balancing search's tiles (load_balance.cuh), so any
// geometry costs the same: each tile knows its items [a0, a1) and the
// segment ends [b0, b1) merged into it. Three tile kernels:
//
// segreduce_tails_kernel (segreduce, transform_segreduce, spmv: the value
// of an item depends on its index only). The tile never merges: each end it
// holds marks its segment's last item as a "tail" (a bit, and the segment's
// number beside it) or, for an empty segment, stores init. Each thread then
// folds vt consecutive items from registers, storing every run that both
// starts and ends among its items as it meets the tail, and keeping its
// first run (the lead, which continues whatever came before) and its last
// (the trail) aside; a CTA scan of (reset, trail) records gives each thread
// the open run it continues, which completes its lead.
//
// segreduce_blocked_kernel (segreduce of an array of 4-byte values at a
// 16-byte aligned address): the tails kernel's method, with each thread's
// items read as vectors straight into its registers (no staging through
// shared memory) and 16 items a thread at 8 blocks a multiprocessor. On an
// H100 (docs/performance.md, session 24) float sums at mean segment 10
// took 0.165 against the tails kernel's 0.200 ms at 64M. By default (on
// Hopper and later) it is launched after the partition kernel, and the
// fix-ups after the carry's scan, as programmatic dependent launches
// (cudaLaunchKernelEx with programmatic stream serialization): each is
// launched and its CTAs placed while the kernel before drains, and waits
// (cudaGridDependencySynchronize) before its first read of that kernel's
// results. On an H200 (session 26) that was 1-2% faster than plain
// launches at 64M and 256M, mean segment 10 to 1000 (0.150 against 0.152
// ms at mean 10, 64M); ATTU_SEGREDUCE_PDL=0 keeps the plain launches, for
// A/B runs only. One impl (segreduce_blocked_impl, a pdl template flag)
// serves both. Its fold is lean (session 30): a full thread folds its
// items without branches (the run restarts after each tail) and writes
// each tail's value to shared memory at the tail's slot; after the CTA
// scan has completed each thread's first run, the threads of the tile's
// segment ends store the segments' values in one coalesced pass. That
// replaced a global store at every tail from inside the fold (an index
// read from shared memory, a scattered store, a branch an item); a full
// thread with tails stores all its slots' run values as vector stores
// into a padded layout (vt / 4 stores without bank conflicts in place of
// vt predicated scalar stores, 2.4-way conflicted under Nsight Compute).
// Float sums at mean 10 on an H200: 0.141-0.143 against 0.152-0.154 ms at
// 64M, 0.459-0.461 against 0.501-0.502 at 256M (ATTU_SEGREDUCE_LEAN=0
// keeps the old fold for A/B runs).
//
// segreduce_lbs_kernel (lbs_segreduce: the value needs the item's segment
// and rank):
//  1. the segment of each item goes to shared memory (as in transform_lbs),
//     then the behaviour's value of each item, called in item order;
//  2. each thread folds its vt merged positions into a run record
//     (reset: an end was met; the fold of the items after the last end);
//     a CTA scan over those records (a segmented scan: a reset drops the
//     left side) gives each thread the open run it continues;
//  3. each thread whose positions hold an end folds its values again (kept
//     in registers) and at every end s stores output[s].
//
// In all three, the run still open at the tile's end (one per tile) is its
// carry-out; a scan of the tile records (the same segmented operator) gives
// the carry entering each tile, and a fix-up folds it into the first
// segment that tile ends. That segment's in-tile part was stored by the
// tile (or nothing, if it had no items in that tile), so the fix-up stores
// carry op stored value, or the carry. Passing the carry inside the tile
// kernel instead (a decoupled look-back in session 24 and again in session
// 29, and a wait-free hand-off between neighbouring tiles in session 29)
// was slower every time than these two small kernels (docs/performance.md).
#pragma once

#include <cub/block/block_scan.cuh>

#include <cstdint>
#include <cstring>
#include <type_traits>

#include "gpu/patterns/dependent_launch.cuh"
#include "gpu/patterns/load_balance.cuh"
#include "gpu/patterns/operators.cuh"
#include "gpu/patterns/scan.cuh"
#include "gpu/patterns/segreduce_warp.cuh"

namespace attu {
namespace gpu {

// Segmented reductions' default tiles (values without each item's
// segment): vt items a thread. On an H100 (session 12, bench_core's
// segreduce boxes, the tails kernel) 256 x 8 beat 64 x 12, 64 x 16,
// 128 x 12, 128 x 16, 32 x 16, 64 x 20 and 128 x 20 at mean segment 10
// (0.20 against 0.21-0.24 ms at 64M) and was within 2% of the best at mean
// 1000. Values wider than 8 bytes keep session 10's 64 x 12 (the tile's
// shared arrays stay under 48 KB).
using segreduce_box_t = launch_box_t<arch_cta_t<700, 128, 8>, arch_cta_t<900, 256, 8>>;
using segreduce_wide_box_t = launch_box_t<arch_cta_t<700, 128, 8>, arch_cta_t<900, 64, 12>>;

namespace detail {

// A run of values for the segmented scan. flags: 1 = has a value, 2 = reset.
template <typename T>
struct seg_run_t {
  T v;
  int flags;
};

template <typename T, typename op_t>
struct seg_run_op_t {
  op_t op;
  __device__ seg_run_t<T> operator()(const seg_run_t<T>& x,
                                     const seg_run_t<T>& y) const {
    if (y.flags & 2) return y;
    seg_run_t<T> z;
    z.flags = (x.flags | y.flags) & 1 | (x.flags & 2);
    if ((x.flags & 1) && (y.flags & 1)) z.v = op(x.v, y.v);
    else z.v = (x.flags & 1) ? x.v : y.v;
    return z;
  }
};

// A thread's fold of its items x[lo, hi) (of vt slots; full: all of them,
// tested by the caller on its own) whose tails are bits: a run that starts
// after one of its tails and ends at another is complete and stored now
// (store_tail(i, value), i the tail's slot); the first run (lead) waits
// for the carry of the threads before; acc / have is the run left open.
// A full thread without tails (long segments: most of them) folds without
// looking at bits or bounds.
template <int vt, typename T, typename op_t, typename store_t>
__device__ __forceinline__ void fold_thread_runs(const T (&x)[vt], bool full, int lo, int hi, unsigned bits,
                                                 op_t op, T& acc, T& lead, bool& have, store_t store_tail) {
  const int first_tail = bits ? __ffs(bits) - 1 : -1;
  if (full && !bits) {
    acc = x[0];
#pragma unroll
    for (int i = 1; i < vt; ++i) acc = op(acc, x[i]);
    have = true;
    return;
  }
  auto step = [&](int i) {
    acc = have ? op(acc, x[i]) : x[i];
    have = true;
    if (bits & (1u << i)) {
      if (i == first_tail) lead = acc;
      else store_tail(i, acc);
      have = false;
    }
  };
  if (full) {
#pragma unroll
    for (int i = 0; i < vt; ++i) step(i);
  } else {
#pragma unroll
    for (int i = 0; i < vt; ++i)
      if (i >= lo && i < hi) step(i);
  }
}

template <int nt, int nv, typename T>
struct segreduce_tails_shared_t {
  int ends[nv];
  int tail_seg[nv];            // the segment whose last item is local item q
  unsigned tails[nv / 32 + 2];  // bit q: local item q is a tail (+1 word: reads of two)
  T values[nv + nv / 32];      // padded (smem_pad)
};

// g(index) gives each item's value. One tile of the merged (items, ends)
// sequence; tile_runs[cta] gets the run still open at its end.
template <typename launch_t, typename T, typename func_t, typename segments_it,
          typename output_it, typename op_t>
__global__ __launch_bounds__(launch_t::nt) void segreduce_tails_kernel(
    func_t g, int count, segments_it segments, int num_segments,
    const int* __restrict__ part, output_it output, op_t op, T init,
    seg_run_t<T>* __restrict__ tile_runs) {
  enum { nt = launch_t::sm_ptx::nt, vt = launch_t::sm_ptx::vt, nv = nt * vt };
  using run_t = seg_run_t<T>;
  using scan_t = cub::BlockScan<run_t, nt>;
  static_assert(vt <= 32, "a thread's tails are bits of at most two words");
  __shared__ segreduce_tails_shared_t<nt, nv, T> shared;
  __shared__ typename scan_t::TempStorage scan_storage;

  int tid = threadIdx.x;
  lbs_range_t r = lbs_tile_range(part, blockIdx.x, nv, count, num_segments);
  const int na = r.na(), nb = r.nb(), a0 = r.a0;
  // Every global load of the tile (values, ends) is issued before the first
  // shared store: the behaviour's loads could alias shared memory as far as
  // the compiler knows.
  {
    T v[vt];
    const bool all_mine = tid + (vt - 1) * nt < na;  // no bound checks
    if (all_mine) {
#pragma unroll
      for (int i = 0; i < vt; ++i) v[i] = g(a0 + tid + i * nt);
    } else {
#pragma unroll
      for (int i = 0; i < vt; ++i) {
        int j = tid + i * nt;
        if (j < na) v[i] = g(a0 + j);
      }
    }
    segment_ends_t<segments_it> ends{segments, num_segments, count};
    for (int j = tid; j < nb; j += nt) shared.ends[j] = ends[r.b0 + j];
    for (int w = tid; w < nv / 32 + 2; w += nt) shared.tails[w] = 0;
    if (all_mine) {
#pragma unroll
      for (int i = 0; i < vt; ++i) shared.values[smem_pad(tid + i * nt)] = v[i];
    } else {
#pragma unroll
      for (int i = 0; i < vt; ++i) {
        int j = tid + i * nt;
        if (j < na) shared.values[smem_pad(j)] = v[i];
      }
    }
  }
  const int start_b0 = r.b0 > 0 ? (int)segments[r.b0] : 0;
  __syncthreads();

  // Each end marks its segment's last item, or stores init for an empty
  // segment. A segment whose items all lie in earlier tiles (its end is the
  // tile's first position) marks nothing: the fix-up stores it.
  for (int j = tid; j < nb; j += nt) {
    int e = shared.ends[j];
    int s = j ? shared.ends[j - 1] : start_b0;
    if (s == e) {
      output[r.b0 + j] = init;
    } else if (e > a0) {
      int q = e - a0 - 1;
      atomicOr(&shared.tails[q >> 5], 1u << (q & 31));
      shared.tail_seg[q] = r.b0 + j;
    }
  }
  __syncthreads();

  // This thread's items [q0, q0 + cnt) and which of them are tails.
  // (full is tested on its own: nvcc 13.0's ptxas fused cnt == vt, with cnt
  // = max(0, min(vt, na - q0)), into a VIMNMX.RELU predicate that was also
  // true for short threads, which then folded stale slots: session 12.)
  const int q0 = tid * vt;
  const int left = na - q0;
  const bool full = left >= vt;
  const int cnt = full ? vt : (left > 0 ? left : 0);
  unsigned bits;
  {
    int w = q0 >> 5, sh = q0 & 31;
    unsigned lo = shared.tails[w], hi = shared.tails[w + 1];
    bits = sh ? (lo >> sh) | (hi << (32 - sh)) : lo;
    bits &= cnt >= 32 ? ~0u : (1u << cnt) - 1;
  }
  // Every slot is read without a bound check (q0 + i < nv always): slots
  // past the tile's items hold stale values the folds below never use.
  T x[vt];
#pragma unroll
  for (int i = 0; i < vt; ++i) x[i] = shared.values[smem_pad(q0 + i)];

  const int first_tail = bits ? __ffs(bits) - 1 : -1;
  T acc = init, lead = init;
  bool have = false;
  fold_thread_runs<vt>(x, full, 0, cnt, bits, op, acc, lead, have,
                       [&](int i, const T& v) { output[shared.tail_seg[q0 + i]] = v; });
  // The record: reset if a run ended here (or, for thread 0, if the item
  // before the tile ended its segment: an end at the tile's first position),
  // then what is still open.
  run_t mine;
  mine.v = have ? acc : init;
  mine.flags = (have ? 1 : 0) | (bits ? 2 : 0);
  if (!tid && nb > 0 && shared.ends[0] == a0) mine.flags |= 2;
  run_t carry, tile_total;
  seg_run_op_t<T, op_t> run_op{op};
  scan_t(scan_storage).ExclusiveScan(mine, carry, run_op, tile_total);
  if (!tid) carry.flags = 0;  // the carry from earlier tiles: the fix-up's
  if (bits) output[shared.tail_seg[q0 + first_tail]] = (carry.flags & 1) ? op(carry.v, lead) : lead;
  if (!tid) tile_runs[blockIdx.x] = tile_total;
}


// segreduce_blocked_kernel: the tails kernel for an array of 4-byte values
// at a 16-byte aligned address (segreduce's common case). Each thread's vt
// consecutive slots come straight from global memory as vt / 4 vector
// loads into registers: no staging of the values through shared memory and
// no padded reads back. Slot q of a tile is item base + q, where base is
// the tile's first item a0 rounded down to a multiple of 4, so the slots
// before a0 - base belong to the previous tile and are never folded; the
// partition's tiles hold nt * vt - 4 merged positions so that the items
// after base fit the tile's slots. A thread's tails are a slice of one
// bitmap word (vt divides 32) read without shifts across words.
//
// pdl (segreduce_blocked_impl's default): launched as a programmatic
// dependent of the partition kernel; every CTA waits for the partition's
// results before its first read, so only the launch and the CTAs' start
// overlap the partition kernel.
template <int nt, int vt, int min_blocks, typename T, typename segments_it, typename output_it,
          typename op_t, bool pdl = false, bool lean = true>
__global__ __launch_bounds__(nt, min_blocks) void segreduce_blocked_kernel(
    const T* __restrict__ input, int count, segments_it segments, int num_segments,
    const int* __restrict__ part, int nv_part, output_it output, op_t op, T init,
    seg_run_t<T>* __restrict__ tile_runs) {
  static_assert(sizeof(T) == 4 && vt % 4 == 0 && 32 % vt == 0,
                "4-byte values, whole vectors, a thread's bits inside one word");
  enum { nv = nt * vt, words = nv / 32 };
  using run_t = seg_run_t<T>;
  using scan_t = cub::BlockScan<run_t, nt>;
  __shared__ unsigned tails[words];
  // !lean: tail_seg[q], the segment whose last item is slot q. lean: the
  // value of the run ending at slot q, at word q + 4 * (q / vt): each
  // thread's vt slots and 4 words of padding, so that a quarter-warp's
  // 16-byte stores of consecutive threads' slots hit distinct banks.
  enum { tail_words = lean ? nt * (vt + 4) : nv };
  __shared__ __align__(16) int tail_seg[tail_words];
  __shared__ typename scan_t::TempStorage scan_storage;

  if constexpr (pdl) wait_for_primary_grid();
  const int tid = threadIdx.x;
  const lbs_range_t r = lbs_tile_range(part, blockIdx.x, nv_part, count, num_segments);
  const int na = r.na(), nb = r.nb(), a0 = r.a0, a1 = r.a1;
  const int base = a0 & ~3;
  const int q0 = tid * vt;
  // This thread's own items are its slots [lo, hi).
  int lo = a0 - base - q0, hi = a1 - base - q0;
  lo = lo < 0 ? 0 : (lo > vt ? vt : lo);
  hi = hi < lo ? lo : (hi > vt ? vt : hi);
  T x[vt];
  {
    const int g0 = base + q0;
    if (g0 + vt <= a1) {
      const uint4* p = reinterpret_cast<const uint4*>(input + g0);
#pragma unroll
      for (int j = 0; j < vt / 4; ++j) {
        uint4 u = p[j];
        unsigned w[4] = {u.x, u.y, u.z, u.w};
#pragma unroll
        for (int k = 0; k < 4; ++k) memcpy(&x[4 * j + k], &w[k], 4);
      }
    } else {
#pragma unroll
      for (int i = 0; i < vt; ++i)
        if (g0 + i < a1) x[i] = input[g0 + i];
    }
  }
  // The first end of each thread is read before the bitmap is cleared, so
  // its latency hides behind the values' loads and the barrier.
  segment_ends_t<segments_it> ends{segments, num_segments, count};
  const int start_b0 = r.b0 > 0 ? (int)segments[r.b0] : 0;
  int e_first = 0, s_first = 0;
  if (tid < nb) {
    e_first = ends[r.b0 + tid];
    s_first = tid ? ends[r.b0 + tid - 1] : start_b0;
  }
  for (int w = tid; w < words; w += nt) tails[w] = 0;
  __syncthreads();
  // Each end marks its segment's last item, or stores init for an empty
  // segment; a segment whose items all lie in earlier tiles (its end is a0)
  // marks nothing: the fix-up stores it.
  for (int j = tid; j < nb; j += nt) {
    int e = e_first, s = s_first;
    if (j != tid) {
      e = ends[r.b0 + j];
      s = ends[r.b0 + j - 1];
    }
    if (s == e) {
      output[r.b0 + j] = init;
    } else if (e > a0) {
      int q = e - 1 - base;
      atomicOr(&tails[q >> 5], 1u << (q & 31));
      if (!lean) tail_seg[q] = r.b0 + j;
    }
  }
  __syncthreads();

  const unsigned bits = (tails[q0 >> 5] >> (q0 & 31)) & (vt == 32 ? ~0u : (1u << vt) - 1);
  const int first_tail = bits ? __ffs(bits) - 1 : -1;
  T acc = init, lead = init;
  bool have = false;
  // lean: each tail's value goes to shared memory at the tail's slot
  // (tail_val), and the segments' values leave in one coalesced pass by
  // their ends' threads at the end.
  T* const tail_val = reinterpret_cast<T*>(tail_seg);
  auto tail_at = [](int q) { return q + 4 * (q / vt); };
  if (lean && lo == 0 && hi == vt) {
    // A full thread, without branches: the run restarts after each tail;
    // x[i] becomes the run's value at slot i, and all vt go to shared
    // memory as vt / 4 vector stores (only the tails' are read).
#pragma unroll
    for (int i = 1; i < vt; ++i) {
      const T folded = op(x[i - 1], x[i]);
      x[i] = ((bits >> (i - 1)) & 1u) ? x[i] : folded;
    }
    acc = x[vt - 1];
    have = !((bits >> (vt - 1)) & 1u);
    if (bits) {
      uint4* dst = reinterpret_cast<uint4*>(tail_seg + tid * (vt + 4));
#pragma unroll
      for (int j = 0; j < vt / 4; ++j) {
        uint4 u;
        memcpy(&u.x, &x[4 * j], 4);
        memcpy(&u.y, &x[4 * j + 1], 4);
        memcpy(&u.z, &x[4 * j + 2], 4);
        memcpy(&u.w, &x[4 * j + 3], 4);
        dst[j] = u;
      }
    }
  } else if (lean) {
    fold_thread_runs<vt>(x, false, lo, hi, bits, op, acc, lead, have,
                         [&](int i, const T& v) { tail_val[tail_at(q0 + i)] = v; });
    if (bits) tail_val[tail_at(q0 + first_tail)] = lead;
  } else {
    fold_thread_runs<vt>(x, lo == 0 && hi == vt, lo, hi, bits, op, acc, lead, have,
                         [&](int i, const T& v) { output[tail_seg[q0 + i]] = v; });
  }
  // Thread 0's record resets if the segment before item a0 ended there.
  run_t mine;
  mine.v = have ? acc : init;
  mine.flags = (have ? 1 : 0) | (bits ? 2 : 0);
  if (!tid && nb > 0 && e_first == a0) mine.flags |= 2;
  run_t carry, tile_total;
  seg_run_op_t<T, op_t> run_op{op};
  scan_t(scan_storage).ExclusiveScan(mine, carry, run_op, tile_total);
  if (!tid) {
    carry.flags = 0;  // the carry from earlier tiles: the fix-up's
    tile_runs[blockIdx.x] = tile_total;
  }
  if (!lean) {
    if (bits) output[tail_seg[q0 + first_tail]] = (carry.flags & 1) ? op(carry.v, lead) : lead;
    return;
  }
  if (bits) {
    const T first = tail_val[tail_at(q0 + first_tail)];
    tail_val[tail_at(q0 + first_tail)] = (carry.flags & 1) ? op(carry.v, first) : first;
  }
  __syncthreads();
  for (int j = tid; j < nb; j += nt) {
    int e = e_first, s = s_first;
    if (j != tid) {
      e = ends[r.b0 + j];
      s = ends[r.b0 + j - 1];
    }
    if (s != e && e > a0) output[r.b0 + j] = tail_val[tail_at(e - 1 - base)];
  }
}

template <int nt, int nv, typename T>
struct segreduce_lbs_shared_t {
  int ends[nv];
  int seg[nv + nv / 32];   // padded (smem_pad)
  T values[nv + nv / 32];  // padded (smem_pad)
  int b_start[nt + 1];  // each thread's first merged end (the next thread's is its last)
};

// g(index, seg, rank) gives each item's value.
template <typename launch_t, typename T, typename func_t,
          typename segments_it, typename output_it, typename op_t>
__global__ __launch_bounds__(launch_t::nt) void segreduce_lbs_kernel(
    func_t g, int count, segments_it segments, int num_segments,
    const int* __restrict__ part, output_it output, op_t op, T init,
    seg_run_t<T>* __restrict__ tile_runs) {
  enum { nt = launch_t::sm_ptx::nt, vt = launch_t::sm_ptx::vt, nv = nt * vt };
  using run_t = seg_run_t<T>;
  using scan_t = cub::BlockScan<run_t, nt>;
  static_assert(vt <= 32, "a thread's merged positions are bits of a word");
  __shared__ segreduce_lbs_shared_t<nt, nv, T> shared;
  __shared__ typename scan_t::TempStorage scan_storage;

  int tid = threadIdx.x;
  lbs_range_t r = lbs_tile_range(part, blockIdx.x, nv, count, num_segments);
  int start_b0 = lbs_load_ends<nt>(r, segments, count, num_segments, shared.ends);
  __syncthreads();
  int d = min(tid * vt, r.na() + r.nb());
  int a_start, b_start;
  lbs_thread_start(r, shared.ends, d, a_start, b_start);
  shared.b_start[tid] = b_start;
  if (tid == nt - 1) shared.b_start[nt] = r.nb();
  lbs_serial_segments<vt>(r, shared.ends, a_start, b_start, shared.seg);
  __syncthreads();
  // Values: every load of the tile is issued before the first shared store
  // (the behaviour's loads could alias shared memory as far as the compiler
  // knows, so interleaving them would leave one load in flight per thread).
  {
    T v[vt];
#pragma unroll
    for (int i = 0; i < vt; ++i) {
      int j = tid + i * nt;
      if (j < r.na()) {
        int index = r.a0 + j;
        int seg = shared.seg[smem_pad(j)];
        int start = seg == r.b0 ? start_b0 : shared.ends[seg - r.b0 - 1];
        v[i] = g(index, seg, index - start);
      }
    }
#pragma unroll
    for (int i = 0; i < vt; ++i) {
      int j = tid + i * nt;
      if (j < r.na()) shared.values[smem_pad(j)] = v[i];
    }
  }
  __syncthreads();

  int na = r.na(), nb = r.nb(), a0 = r.a0;
  // Pass 1: this thread's run record. Its vt merged positions hold
  // b_end - b_start segment ends; with none (long segments: most threads)
  // they are all items and fold without the merge's comparisons. The items'
  // values stay in registers for pass 2, and which positions are ends is
  // kept as bits.
  run_t mine;
  mine.flags = 0;
  mine.v = init;
  T x[vt];
  unsigned end_bits = 0, item_bits = 0;
  const int b_end = shared.b_start[tid + 1];
  if (b_end == b_start) {
    int cnt = min(vt, na - a_start);
#pragma unroll
    for (int i = 0; i < vt; ++i) {
      if (i < cnt) {
        x[i] = shared.values[smem_pad(a_start + i)];
        mine.v = i ? op(mine.v, x[i]) : x[i];
      }
    }
    if (cnt > 0) mine.flags = 1;
  } else {
    int a = a_start, b = b_start;
#pragma unroll
    for (int i = 0; i < vt; ++i) {
      bool take_b = b < nb && (a >= na || shared.ends[b] <= a0 + a);
      if (take_b) {
        mine.flags = 2;
        end_bits |= 1u << i;
        ++b;
      } else if (a < na) {
        x[i] = shared.values[smem_pad(a)];
        item_bits |= 1u << i;
        mine.v = (mine.flags & 1) ? op(mine.v, x[i]) : x[i];
        mine.flags |= 1;
        ++a;
      }
    }
  }
  run_t carry, tile_total;
  seg_run_op_t<T, op_t> run_op{op};
  scan_t(scan_storage).ExclusiveScan(mine, carry, run_op, tile_total);
  if (!tid) carry.flags = 0;

  // Pass 2: store every segment that ends in this thread's positions.
  if (end_bits) {
    int b = b_start;
    bool have = carry.flags & 1;
    T acc = carry.v;
#pragma unroll
    for (int i = 0; i < vt; ++i) {
      if (end_bits & (1u << i)) {
        int s = r.b0 + b;
        // Segment b0 may have begun in an earlier tile; with no items here
        // the fix-up stores it whole.
        bool earlier = s == r.b0 && start_b0 < a0;
        if (have) output[s] = acc;
        else if (!earlier) output[s] = init;
        have = false;
        ++b;
      } else if (item_bits & (1u << i)) {
        acc = have ? op(acc, x[i]) : x[i];
        have = true;
      }
    }
  }
  if (!tid) tile_runs[blockIdx.x] = tile_total;
}

// Folds the open run entering tile t (carry_in[t], the exclusive segmented
// scan of the tile runs) into the first segment tile t closes.
template <typename T, typename segments_it, typename output_it, typename op_t>
struct segreduce_fixup_t {
  const seg_run_t<T>* carry_in;
  const seg_run_t<T>* runs;
  const int* part;
  int nv;
  segment_ends_t<segments_it> ends;
  output_it output;
  op_t op;
  __device__ void operator()(int t) const {
    seg_run_t<T> in = carry_in[t];
    if (!(in.flags & 1) || !(runs[t].flags & 2)) return;
    int b0 = part[t];
    int a0 = t * nv - b0;
    // Did segment b0 have items inside tile t (stored by the tile)?
    bool stored = ends[b0] > a0;
    output[b0] = stored ? op(in.v, (T)output[b0]) : in.v;
  }
};

// One fix-up a thread. pdl: launched as a programmatic dependent of the
// carry scan's kernel, so it waits for that kernel's results before its
// first read (without pdl the wait is not compiled in).
template <typename fixup_t, bool pdl>
__global__ __launch_bounds__(128) void segreduce_fixup_kernel(fixup_t fixup, int num_tiles) {
  if constexpr (pdl) wait_for_primary_grid();
  const int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < num_tiles) fixup(t);
}

template <typename T>
struct load_run_t {
  const seg_run_t<T>* runs;
  __device__ seg_run_t<T> operator()(int i) const { return runs[i]; }
};

// The carry entering each tile: an exclusive segmented scan of the tile
// runs (a reset drops what came before) into carry_in (num_tiles records,
// allocated by the caller), then one fix-up per tile; pdl: the fix-ups are
// a programmatic dependent of the scan's last kernel (which does not
// trigger: their launch comes as its blocks exit).
template <bool pdl, typename T, typename segments_it, typename output_it, typename op_t>
void segreduce_carry_tiles(const seg_run_t<T>* runs, seg_run_t<T>* carry_in, const int* part,
                           int num_tiles, int nv, int count, segments_it segments,
                           int num_segments, output_it output, op_t op, T init,
                           context_t& ctx) {
  if (num_tiles <= 1) return;
  seg_run_t<T> none;
  none.v = init;
  none.flags = 0;
  transform_scan<scan_type_exc>(load_run_t<T>{runs}, num_tiles, carry_in,
                                seg_run_op_t<T, op_t>{op}, (seg_run_t<T>*)nullptr, ctx,
                                none);
  using fixup_t = segreduce_fixup_t<T, segments_it, output_it, op_t>;
  fixup_t fixup{carry_in, runs, part, nv,
                segment_ends_t<segments_it>{segments, num_segments, count}, output, op};
  launch_maybe_dependent(segreduce_fixup_kernel<fixup_t, pdl>, (int)div_up(num_tiles, 128), 128, 0,
                         pdl, ctx, fixup, num_tiles);
}

template <typename launch_arg_t, typename T, bool needs_seg, typename func_t,
          typename segments_it, typename output_it, typename op_t>
void segreduce_impl(func_t g, int count, segments_it segments, int num_segments,
                    output_it output, op_t op, T init, context_t& ctx) {
  // Tiles that keep each item's segment (needs_seg) take transform_lbs's
  // tile: the shared arrays stay under 48 KB.
  using default_box = std::conditional_t<
      needs_seg, lbs_box_t,
      std::conditional_t<(sizeof(T) > 8), segreduce_wide_box_t, segreduce_box_t>>;
  using launch_t = launch_of_t<launch_arg_t, default_box>;
  if (num_segments <= 0) return;
  if (count <= 0) count = 0;
  int nv = launch_t::cta_dim(ctx.ptx_version()).nv();
  mem_t<int> part = lbs_partitions(segments, count, num_segments, nv, ctx);
  int num_tiles = (int)part.size() - 1;
  mem_t<seg_run_t<T>> runs(num_tiles, ctx);
  if constexpr (needs_seg) {
    segreduce_lbs_kernel<launch_t, T><<<num_tiles, launch_t::nt, 0, ctx.stream()>>>(
        g, count, segments, num_segments, part.data(), output, op, init, runs.data());
  } else {
    segreduce_tails_kernel<launch_t, T><<<num_tiles, launch_t::nt, 0, ctx.stream()>>>(
        g, count, segments, num_segments, part.data(), output, op, init, runs.data());
  }
  ATTU_CUDA_CHECK_LAUNCH();
  mem_t<seg_run_t<T>> carry_in(num_tiles > 1 ? num_tiles : 0, ctx);
  segreduce_carry_tiles<false>(runs.data(), carry_in.data(), part.data(), num_tiles, nv, count,
                               segments, num_segments, output, op, init, ctx);
}

// segreduce of an array of 4-byte values at a 16-byte aligned address:
// segreduce_blocked_kernel's tiles of nt x vt slots (nt * vt - 4 merged
// positions). pdl (the default on Hopper, ATTU_SEGREDUCE_PDL): the tile
// kernel and the fix-ups are launched as programmatic dependents. The
// partition kernel then triggers at its start, so the tile kernel's launch
// and first CTAs overlap the search; the fix-ups' launch overlaps the carry
// scan's last CTAs. Each dependent waits in wait_for_primary_grid() before
// reading that kernel's results. Every buffer is allocated before the first
// launch so that no other stream work sits between the partition and the
// tile kernels. Without pdl the same kernels are plain launches (for A/B
// runs), with the same results bit for bit.
template <int nt, int vt, int min_blocks, bool pdl, typename T, typename segments_it,
          typename output_it, typename op_t, bool lean = true>
void segreduce_blocked_impl(const T* input, int count, segments_it segments,
                            int num_segments, output_it output, op_t op, T init,
                            context_t& ctx) {
  if (num_segments <= 0) return;
  if (count <= 0) count = 0;
  const int nv = nt * vt - 4;
  const int num_tiles = (int)div_up((long long)count + num_segments, (long long)nv);
  mem_t<seg_run_t<T>> runs(num_tiles, ctx);
  mem_t<seg_run_t<T>> carry_in(num_tiles > 1 ? num_tiles : 0, ctx);
  mem_t<int> part(num_tiles + 1, ctx);
  lbs_partitions_into(part.data(), segments, count, num_segments, nv, ctx, pdl);
  launch_maybe_dependent(
      segreduce_blocked_kernel<nt, vt, min_blocks, T, segments_it, output_it, op_t, pdl, lean>,
      num_tiles, nt, 0, pdl, ctx, input, count, segments, num_segments, (const int*)part.data(), nv,
      output, op, init, runs.data());
  segreduce_carry_tiles<pdl>(runs.data(), carry_in.data(), part.data(), num_tiles, nv, count,
                             segments, num_segments, output, op, init, ctx);
}

// ATTU_SEGREDUCE_PDL=0 launches segreduce_blocked_kernel and its fix-ups
// as plain launches instead of programmatic dependents (for A/B runs;
// tests set it through this). On by default: on an H200 (session 26) the
// dependent launches were 1-2% faster at 64M and 256M, means 10 to 1000.
// Devices before Hopper always take the plain launches.
inline bool& segreduce_pdl_on() {
  static bool on = env_switch("ATTU_SEGREDUCE_PDL", true);
  return on;
}
// ATTU_SEGREDUCE_LEAN=0 keeps the blocked kernel's fold with a global
// store at each tail (for A/B runs; the bench flips it through this).
inline bool& segreduce_lean_on() {
  static bool on = env_switch("ATTU_SEGREDUCE_LEAN", true);
  return on;
}
// ATTU_SEGREDUCE_BLOCKED=0 sends 4-byte arrays to the tails kernel too
// (for A/B runs; tests set it through this).
inline bool& segreduce_blocked_on() {
  static bool on = env_switch("ATTU_SEGREDUCE_BLOCKED", true);
  return on;
}

}  // namespace detail

// output[s] = fold of f(index) over the items of segment s; init if empty.
template <typename launch_arg_t = empty_t, typename func_t, typename segments_it,
          typename output_it, typename op_t, typename T>
void transform_segreduce(func_t f, int count, segments_it segments,
                         int num_segments, output_it output, op_t op, T init,
                         context_t& ctx) {
  detail::segreduce_impl<launch_arg_t, T, false>(
      [=] __device__(int index) { return (T)f(index); }, count,
      segments, num_segments, output, op, init, ctx);
}

template <typename launch_arg_t = empty_t, typename input_it, typename segments_it,
          typename output_it, typename op_t, typename T>
void segreduce(input_it input, int count, segments_it segments, int num_segments,
               output_it output, op_t op, T init, context_t& ctx) {
  // An array of T under an order-free operator, with segments of hundreds
  // to a few thousand items on average: a warp a segment, the very long
  // ones in chunks (segreduce_warp.cuh). A launch box given by the caller
  // keeps the tiles.
  if constexpr (std::is_pointer<input_it>::value && std::is_pointer<segments_it>::value &&
                std::is_same<std::remove_cv_t<std::remove_pointer_t<input_it>>, T>::value &&
                std::is_same<std::remove_cv_t<std::remove_pointer_t<segments_it>>, int>::value &&
                std::is_same<launch_arg_t, empty_t>::value && segreduce_warp_ok<op_t, T>::value) {
    if (warp_segments_wanted(count, num_segments)) {
      segreduce_warp<T>(input, count, segments, num_segments, output, op, init, ctx);
      return;
    }
  }
  // An array of 4-byte values at a 16-byte aligned address: vector loads
  // straight into each thread's registers (segreduce_blocked_kernel).
  if constexpr (std::is_pointer<input_it>::value && sizeof(T) == 4 &&
                std::is_same<std::remove_cv_t<std::remove_pointer_t<input_it>>, T>::value &&
                std::is_same<launch_arg_t, empty_t>::value) {
    if (detail::segreduce_blocked_on() && ((uintptr_t)input & 15) == 0) {
      // Programmatic dependent launches need Hopper (sm_90) or later.
      const bool pdl = detail::segreduce_pdl_on() && ctx.ptx_version() >= 900;
      using seg_t = segments_it;
      if (pdl && detail::segreduce_lean_on())
        detail::segreduce_blocked_impl<256, 16, 8, true, T, seg_t, output_it, op_t, true>(
            input, count, segments, num_segments, output, op, init, ctx);
      else if (pdl)
        detail::segreduce_blocked_impl<256, 16, 8, true, T, seg_t, output_it, op_t, false>(
            input, count, segments, num_segments, output, op, init, ctx);
      else
        detail::segreduce_blocked_impl<256, 16, 8, false, T>(input, count, segments, num_segments,
                                                             output, op, init, ctx);
      return;
    }
  }
  detail::segreduce_impl<launch_arg_t, T, false>(
      [=] __device__(int index) { return (T)input[index]; }, count,
      segments, num_segments, output, op, init, ctx);
}

namespace detail {
// The value behaviour of lbs_segreduce with caching (a functor: nvcc does not
// allow extended lambdas inside functions with parameter packs).
template <typename T, typename func_t, typename tpl_t>
struct lbs_cached_value_t {
  func_t f;
  tpl_t caching;
  __device__ T operator()(int index, int seg, int rank) const {
    auto v = load_cached(caching, seg,
                         cuda::std::make_index_sequence<cuda::std::tuple_size<tpl_t>::value>());
    return (T)f(index, seg, rank, v);
  }
};
}  // namespace detail

// output[s] = fold of f(index, seg, rank[, cached]) over segment s's items.
// The cached per-segment values are read through the L1 (consecutive items
// touch the same segment, so the loads hit).
template <typename launch_arg_t = empty_t, typename func_t, typename segments_it,
          typename... its, typename output_it, typename op_t, typename T>
void lbs_segreduce(func_t f, int count, segments_it segments, int num_segments,
                   cuda::std::tuple<its...> caching, output_it output, op_t op,
                   T init, context_t& ctx) {
  detail::segreduce_impl<launch_arg_t, T, true>(
      detail::lbs_cached_value_t<T, func_t, cuda::std::tuple<its...>>{f, caching},
      count, segments, num_segments, output, op, init, ctx);
}

template <typename launch_arg_t = empty_t, typename func_t, typename segments_it,
          typename output_it, typename op_t, typename T>
void lbs_segreduce(func_t f, int count, segments_it segments, int num_segments,
                   output_it output, op_t op, T init, context_t& ctx) {
  detail::segreduce_impl<launch_arg_t, T, true>(
      [=] __device__(int index, int seg, int rank) { return (T)f(index, seg, rank); },
      count, segments, num_segments, output, op, init, ctx);
}

// Sparse matrix (CSR) times dense vector: output[row] = sum over the row's
// nonzeros of matrix[i] * vector[columns[i]]; empty rows get 0.
template <typename launch_arg_t = empty_t, typename matrix_it, typename columns_it,
          typename vector_it, typename segments_it, typename output_it>
void spmv(matrix_it matrix, columns_it columns, vector_it vector, int count,
          segments_it segments, int num_segments, output_it output,
          context_t& ctx) {
  using T = detail::value_of_t<matrix_it>;
  detail::segreduce_impl<launch_arg_t, T, false>(
      [=] __device__(int index) {
        return (T)(matrix[index] * vector[columns[index]]);
      },
      count, segments, num_segments, output, plus_t<T>(), T(), ctx);
}

}  // namespace gpu
}  // namespace attu
