// load_balance.cuh: the load-balancing search (seeds/002-003) and
// transform_lbs with tuple caching of per-segment values.
//
// Input: `count` work items split into `num_segments` segments by the
// segments descriptor (exclusive scan of the segment sizes; segments[0] = 0,
// empty segments allowed). The search is a merge of the item indices
// 0..count-1 with the segment ends end(s) = segments[s + 1] (count for the
// last): end(s) goes before item a when end(s) <= a, so an item's segment is
// the number of ends merged before it. Tiles cut the merged sequence (items
// plus ends) into equal pieces of nv, so a tile has at most nv items and at
// most nv segments whatever the geometry: one huge segment, millions of empty
// ones, anything between.
//
// Per tile: a partition kernel finds where each tile's merge starts; the tile
// loads its ends into shared memory, each thread merges vt consecutive merged
// positions serially and records the segment of each of its items in shared
// memory; then the behaviour is called in item order, striped over the CTA.
// The interval moves (lbs_move) instead count each end at the item it
// precedes and scan those counts over the CTA (lbs_count_segments: no
// merge-path search, no serial merge; session 12 on an H100: interval_move
// at mean 10 7% faster, transform_lbs the same way 3% slower at mean 10 and
// 2% faster at mean 1000, so it keeps the merge). The interval moves'
// default kernel (lbs_move_v3_kernel; ATTU_LBS_MOVE_V3=0 for the counted
// one, lbs_move_kernel) marks in shared memory each item that starts a
// segment (the last end of a run of equal ends writes it: no atomics) and
// each warp's first item, then each lane takes the highest mark at or below
// its item by one ballot, bfind and shfl (or, with none in its row of 32,
// the row before's last). Since session 31 transform_lbs runs through the
// same marks kernel below a mean segment of 512 items (transform_lbs_v3,
// lbs_marks_wanted), and keeps the merge above.
//
// transform_lbs: f(index, seg, rank) or f(index, seg, rank, cached) where
// cached is a cuda::std::tuple of it[seg] for each iterator of the caching
// tuple: the tile loads those per-segment values once into shared memory.
// load_balance_search: output[index] = seg.
#pragma once

#include <algorithm>
#include <climits>
#include <cstdlib>

#include <cub/block/block_scan.cuh>
#include <cuda/std/tuple>
#include <cuda/std/type_traits>

#include "gpu/patterns/dependent_launch.cuh"
#include "gpu/patterns/memory.cuh"
#include "gpu/patterns/search.cuh"
#include "gpu/patterns/transform.cuh"

namespace attu {
namespace gpu {

// end(s) for a segments descriptor.
template <typename segments_it>
struct segment_ends_t {
  segments_it segments;
  int num_segments, count;
  __device__ int operator[](int s) const {
    return s + 1 < num_segments ? (int)segments[s + 1] : count;
  }
};

using lbs_box_t = launch_box_t<arch_cta_t<700, 128, 8>, arch_cta_t<900, 256, 8>>;

// lbs_move (interval_expand / gather / scatter / move): each item a load
// whose address comes out of the tile's search, so the tile's phases (ends,
// cached segment values, the search) are latency the loads wait behind.
// Smaller tiles keep more of them in flight: on an H100 (session 10,
// bench_core's interval_move boxes) 256 x 6 beat 256 x 8 by 8-18% and
// every larger tile (128 x 12 to 128 x 24 lost 25-60%). On an H200
// (session 33, lbs_move_v3_kernel held to 32 registers) 128 x 7 beat
// 256 x 6, the default until then: interval_move at mean 10 0.190-0.193
// against 0.199-0.202 ms at 64M and 0.724-0.731 against 0.747-0.748 at
// 256M, at mean 100 0.166-0.170 against 0.176-0.181 and 0.625-0.626
// against 0.662-0.666; 64 x 7 and 256 x 7 were within 1-2% of it,
// 128 x 6, 96 x 6, 160 x 6 and 192 x 7 2-6% slower, and 8 items a thread
// (which spill at 32 registers, or run fewer CTAs unbounded) 15-40%.
using lbs_move_box_t = launch_box_t<arch_cta_t<700, 128, 8>, arch_cta_t<900, 128, 7>>;

namespace detail {

// part[t] = number of segment ends merged before tile t's first position.
// trigger: launched before a programmatic dependent (segreduce's
// ATTU_SEGREDUCE_PDL), each block lets that dependent launch at once; the
// dependent still waits for this whole grid before it reads part[].
template <typename segments_it>
__global__ void lbs_partition_kernel(segments_it segments, int count,
                                     int num_segments, int nv, int num_parts,
                                     int* __restrict__ part, bool per_warp, bool trigger) {
  if (trigger) trigger_dependent_launch();
  int gid = blockIdx.x * blockDim.x + threadIdx.x;
  int t = per_warp ? gid / 32 : gid;  // a warp or a thread a point
  if (t >= num_parts) return;
  segment_ends_t<segments_it> ends{segments, num_segments, count};
  long long total = (long long)count + num_segments;
  int diag = (int)min((long long)t * nv, total);
  auto b_first = [&](int a, int b) { return ends[b] <= a; };
  if (per_warp) {
    int b = merge_path_b_warp(count, num_segments, diag, b_first);
    if ((threadIdx.x & 31) == 0) part[t] = b;
  } else {
    part[t] = merge_path_b(count, num_segments, diag, b_first);
  }
}

// part[0, num_tiles] for tiles of nv merged positions, into a buffer of
// num_tiles + 1 (trigger: see lbs_partition_kernel).
template <typename segments_it>
void lbs_partitions_into(int* part, segments_it segments, int count, int num_segments, int nv,
                         context_t& ctx, bool trigger = false) {
  long long total = (long long)count + num_segments;
  int num_tiles = (int)div_up(total, (long long)nv);
  bool per_warp = num_tiles + 1 <= kWarpPartitionMaxPoints;
  lbs_partition_kernel<<<div_up(num_tiles + 1, per_warp ? 4 : 128), 128, 0, ctx.stream()>>>(
      segments, count, num_segments, nv, num_tiles + 1, part, per_warp, trigger);
  ATTU_CUDA_CHECK_LAUNCH();
}

template <typename segments_it>
mem_t<int> lbs_partitions(segments_it segments, int count, int num_segments,
                          int nv, context_t& ctx) {
  long long total = (long long)count + num_segments;
  int num_tiles = (int)div_up(total, (long long)nv);
  mem_t<int> part(num_tiles + 1, ctx);
  lbs_partitions_into(part.data(), segments, count, num_segments, nv, ctx);
  return part;
}

// The merged range of one tile and its ends in shared memory.
// s_ends[j] = end(b0 + j) for j in [0, nb); start_b0 = start of segment b0.
struct lbs_range_t {
  int a0, a1, b0, b1;
  __device__ int na() const { return a1 - a0; }
  __device__ int nb() const { return b1 - b0; }
};

// Tile cta's range given part[cta] = b0 and part[cta + 1] = b1.
__device__ inline lbs_range_t lbs_range_of(int b0, int b1, int cta, int nv, int count,
                                           int num_segments) {
  int total = count + num_segments;
  int diag0 = cta * nv, diag1 = min(diag0 + nv, total);
  lbs_range_t r;
  r.b0 = b0;
  r.b1 = b1;
  r.a0 = diag0 - r.b0;
  r.a1 = diag1 - r.b1;
  return r;
}

__device__ inline lbs_range_t lbs_tile_range(const int* part, int cta, int nv,
                                             int count, int num_segments) {
  return lbs_range_of(part[cta], part[cta + 1], cta, nv, count, num_segments);
}

// Loads the tile's ends and the start of its first segment.
template <int nt, typename segments_it>
__device__ inline int lbs_load_ends(const lbs_range_t& r, segments_it segments,
                                    int count, int num_segments, int* s_ends) {
  segment_ends_t<segments_it> ends{segments, num_segments, count};
  for (int j = threadIdx.x; j < r.nb(); j += nt) s_ends[j] = ends[r.b0 + j];
  return r.b0 > 0 ? (int)segments[r.b0] : 0;
}

// The thread's merge start (local a, local b) for merged offset d.
__device__ inline void lbs_thread_start(const lbs_range_t& r, const int* s_ends,
                                        int d, int& a, int& b) {
  int a0 = r.a0;
  b = merge_path_b(r.na(), r.nb(), d,
                   [&](int ai, int bi) { return s_ends[bi] <= a0 + ai; });
  a = d - b;
}

// Shared arrays indexed by item are padded by one word every 32: threads
// that each walk vt consecutive items then hit distinct banks.
__device__ inline int smem_pad(int j) { return j + (j >> 5); }

// Serial merge of vt positions from (a, b): s_seg[pad(a)] = b0 + b for items.
template <int vt>
__device__ inline void lbs_serial_segments(const lbs_range_t& r, const int* s_ends,
                                           int a, int b, int* s_seg) {
  int na = r.na(), nb = r.nb(), a0 = r.a0;
#pragma unroll
  for (int i = 0; i < vt; ++i) {
    bool take_b = b < nb && (a >= na || s_ends[b] <= a0 + a);
    if (take_b) {
      ++b;
    } else if (a < na) {
      s_seg[smem_pad(a)] = r.b0 + b;
      ++a;
    }
  }
}

// The segment of each of the tile's items without a merge (lbs_move): every
// end counts at the item it precedes (an end e is merged before item e), and
// a CTA scan of the counts over the items, in blocked order, gives each item
// the number of ends before it. s_seg, cleared by the caller before its
// first barrier, holds the counts, then the segments (padded, smem_pad).
// The caller's barrier must follow, as after lbs_serial_segments.
template <int nt, int vt, typename scan_t>
__device__ inline void lbs_count_segments(const lbs_range_t& r, const int* s_ends, int* s_seg,
                                          typename scan_t::TempStorage& storage) {
  int tid = threadIdx.x, na = r.na(), a0 = r.a0;
  for (int j = tid; j < r.nb(); j += nt) {
    int p = s_ends[j] - a0;
    if (p < na) atomicAdd(&s_seg[smem_pad(p)], 1);
  }
  __syncthreads();
  int q0 = tid * vt, c[vt], sum = 0;
#pragma unroll
  for (int i = 0; i < vt; ++i) {
    c[i] = q0 + i < na ? s_seg[smem_pad(q0 + i)] : 0;
    sum += c[i];
  }
  int before;
  scan_t(storage).ExclusiveSum(sum, before);
  int seg = r.b0 + before;
#pragma unroll
  for (int i = 0; i < vt; ++i) {
    seg += c[i];
    if (q0 + i < na) s_seg[smem_pad(q0 + i)] = seg;
  }
}

template <typename it>
using value_of_t = cuda::std::decay_t<decltype(cuda::std::declval<it>()[0])>;

template <typename tpl_t> struct cached_tuple;
template <typename... its>
struct cached_tuple<cuda::std::tuple<its...>> {
  using type = cuda::std::tuple<value_of_t<its>...>;
};

template <typename tpl_t, size_t... I>
__device__ inline typename cached_tuple<tpl_t>::type load_cached(
    const tpl_t& its, int seg, cuda::std::index_sequence<I...>) {
  return typename cached_tuple<tpl_t>::type(cuda::std::get<I>(its)[seg]...);
}

struct no_cache_t {};

// The static shared memory of a transform_lbs tile. The per-segment cached
// values of segments b0..b1 (at most nv + 1 tuples) live in dynamic shared
// memory, raw storage because tuples have constructors.
// Tiles of transform_lbs with at most this many segment ends take the
// direct count (transform_lbs_kernel); ATTU_LBS_DIRECT=0 turns it off
// (A/B runs; tests set it through lbs_direct_on()).
constexpr int kLbsDirectEnds = 8;
inline bool& lbs_direct_on() {
  static bool on = env_switch("ATTU_LBS_DIRECT", true);
  return on;
}

// transform_lbs's items a warp's aligned run of 32 (transform_lbs_kernel);
// ATTU_LBS_ALIGN=0 maps them from the tile's first item (A/B runs).
inline bool& lbs_align_on() {
  static bool on = env_switch("ATTU_LBS_ALIGN", true);
  return on;
}

template <int nv>
struct lbs_shared_t {
  int ends[nv];
  int seg[nv + nv / 32];
};

template <typename launch_t, typename func_t, typename segments_it, typename tpl_t>
__global__ __launch_bounds__(launch_t::nt) void transform_lbs_kernel(
    func_t f, int count, segments_it segments, int num_segments,
    const int* __restrict__ part, tpl_t caching, bool direct, bool align) {
  enum { nt = launch_t::sm_ptx::nt, vt = launch_t::sm_ptx::vt, nv = nt * vt };
  constexpr bool caching_on = !std::is_same<tpl_t, no_cache_t>::value;
  using cache_t = typename std::conditional<caching_on, cached_tuple<tpl_t>,
                                            cuda::std::type_identity<no_cache_t>>::type::type;
  __shared__ lbs_shared_t<nv> shared;
  extern __shared__ __align__(16) unsigned char lbs_dynamic_smem[];
  cache_t* s_cache = reinterpret_cast<cache_t*>(lbs_dynamic_smem);

  int tid = threadIdx.x;
  lbs_range_t r = lbs_tile_range(part, blockIdx.x, nv, count, num_segments);
  int start_b0 = lbs_load_ends<nt>(r, segments, count, num_segments, shared.ends);
  if constexpr (caching_on) {
    // Segments referenced by this tile's items: b0 .. min(b1, last).
    int nseg = min(r.b1, num_segments - 1) - r.b0 + 1;
    for (int j = tid; j < nseg; j += nt)
      s_cache[j] = load_cached(caching, r.b0 + j,
                               cuda::std::make_index_sequence<cuda::std::tuple_size<tpl_t>::value>());
  }
  __syncthreads();
  // A tile with few ends (long segments): each item counts the ends at or
  // before it, read as shared-memory broadcasts; no merge path, no serial
  // merge and no second barrier.
  // The items' loop starts at the 32-item boundary at or before a0, so a
  // warp's 32 items are one aligned run of the output (a tile's first
  // item falls anywhere: unaligned, each warp's stores of 4-byte values
  // span two 128-byte lines and five sectors, two of them partial).
  const int j0 = tid - (align ? r.a0 & 31 : 0);
  if (direct && r.nb() <= kLbsDirectEnds) {
    const int nb = r.nb();
    for (int j = j0; j < r.na(); j += nt) {
      if (j < 0) continue;
      int index = r.a0 + j, seg = r.b0, start = start_b0;
      for (int k = 0; k < nb; ++k) {
        int e = shared.ends[k];
        if (e <= index) {
          ++seg;
          start = e;
        }
      }
      if constexpr (caching_on) f(index, seg, index - start, s_cache[seg - r.b0]);
      else f(index, seg, index - start);
    }
    return;
  }
  int d = min(tid * vt, r.na() + r.nb());
  int a, b;
  lbs_thread_start(r, shared.ends, d, a, b);
  lbs_serial_segments<vt>(r, shared.ends, a, b, shared.seg);
  __syncthreads();
  for (int j = j0; j < r.na(); j += nt) {
    if (j < 0) continue;
    int index = r.a0 + j;
    int seg = shared.seg[smem_pad(j)];
    int start = seg == r.b0 ? start_b0 : shared.ends[seg - r.b0 - 1];
    if constexpr (caching_on) f(index, seg, index - start, s_cache[seg - r.b0]);
    else f(index, seg, index - start);
  }
}

template <typename launch_arg_t, typename func_t, typename segments_it,
          typename tpl_t>
void transform_lbs_impl(func_t f, int count, segments_it segments,
                        int num_segments, tpl_t caching, context_t& ctx) {
  using launch_t = launch_of_t<launch_arg_t, lbs_box_t>;
  if (count <= 0 || num_segments <= 0) return;
  int nv = launch_t::cta_dim(ctx.ptx_version()).nv();
  mem_t<int> part = lbs_partitions(segments, count, num_segments, nv, ctx);
  int num_tiles = (int)part.size() - 1;
  size_t cache_bytes = 0;
  auto kernel = transform_lbs_kernel<launch_t, func_t, segments_it, tpl_t>;
  if constexpr (!std::is_same<tpl_t, no_cache_t>::value) {
    cache_bytes = (nv + 1) * sizeof(typename cached_tuple<tpl_t>::type);
    // Past 48 KB in all, a kernel must opt in to more shared memory.
    ATTU_CUDA_CHECK(cudaFuncSetAttribute(
        kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)cache_bytes));
  }
  kernel<<<num_tiles, launch_t::nt, cache_bytes, ctx.stream()>>>(
      f, count, segments, num_segments, part.data(), caching, lbs_direct_on(), lbs_align_on());
  ATTU_CUDA_CHECK_LAUNCH();
}

// transform_lbs split in two behaviours, for the moves: every item's value
// comes from load(index, seg, rank, cached) -> T, then store(index, seg,
// rank, cached, value) runs; all of a thread's loads are issued before its
// first store, which a single behaviour cannot promise the compiler.
template <typename launch_t, typename T, typename load_t, typename store_t,
          typename segments_it, typename tpl_t>
__global__ __launch_bounds__(launch_t::nt) void lbs_move_kernel(
    load_t load, store_t store, int count, segments_it segments, int num_segments,
    const int* __restrict__ part, tpl_t caching) {
  enum { nt = launch_t::sm_ptx::nt, vt = launch_t::sm_ptx::vt, nv = nt * vt };
  using cache_t = typename cached_tuple<tpl_t>::type;
  using scan_t = cub::BlockScan<int, nt>;
  __shared__ lbs_shared_t<nv> shared;
  __shared__ typename scan_t::TempStorage scan_storage;
  extern __shared__ __align__(16) unsigned char lbs_dynamic_smem[];
  cache_t* s_cache = reinterpret_cast<cache_t*>(lbs_dynamic_smem);
  int tid = threadIdx.x;
  lbs_range_t r = lbs_tile_range(part, blockIdx.x, nv, count, num_segments);
  int start_b0 = lbs_load_ends<nt>(r, segments, count, num_segments, shared.ends);
  int nseg = min(r.b1, num_segments - 1) - r.b0 + 1;
  for (int j = tid; j < nseg; j += nt)
    s_cache[j] = load_cached(caching, r.b0 + j,
                             cuda::std::make_index_sequence<cuda::std::tuple_size<tpl_t>::value>());
  for (int k = tid; k < nv + nv / 32; k += nt) shared.seg[k] = 0;
  __syncthreads();
  lbs_count_segments<nt, vt, scan_t>(r, shared.ends, shared.seg, scan_storage);
  __syncthreads();
  T v[vt];
  int seg_of[vt], rank_of[vt];
#pragma unroll
  for (int i = 0; i < vt; ++i) {
    int j = tid + i * nt;
    if (j < r.na()) {
      int index = r.a0 + j;
      int seg = shared.seg[smem_pad(j)];
      int start = seg == r.b0 ? start_b0 : shared.ends[seg - r.b0 - 1];
      seg_of[i] = seg;
      rank_of[i] = index - start;
      v[i] = load(index, seg, index - start, s_cache[seg - r.b0]);
    }
  }
#pragma unroll
  for (int i = 0; i < vt; ++i) {
    int j = tid + i * nt;
    if (j < r.na())
      store(r.a0 + j, seg_of[i], rank_of[i], s_cache[seg_of[i] - r.b0], v[i]);
  }
}

// lbs_move's second form (lbs_move_v3_kernel), the default: the tile marks
// each item that starts a segment in shared memory and every lane finds its
// item's segment with one ballot. ATTU_LBS_MOVE_V3=0 turns it off (the
// counted ends and CTA scan of lbs_move_kernel instead), read once; tests
// and the bench switch it through this for A/B runs. Measured on an H100
// (docs/performance.md, session 25), interval_move at mean 10, 64M:
// lbs_move_kernel 0.350 ms, this kernel 0.253. Tried and dropped: v2, a
// warp finding its items' segments itself by ballots over the tile's ends
// (0.283; about 100 warp instructions per 32 items, issue-bound), and v2
// run by resident CTAs loading the next tile's ends ahead (0.356).
// ATTU_LBS_PDL=0 launches lbs_move_v3_kernel (the interval moves' and
// transform_lbs's marks tiles) as a plain launch after the partition
// kernel instead of its programmatic dependent (for A/B runs; the bench
// and tests switch it through this, read once).
inline bool& lbs_pdl_on() {
  static bool on = env_switch("ATTU_LBS_PDL", true);
  return on;
}

inline bool& lbs_move_v3_on() {
  static bool on = env_switch("ATTU_LBS_MOVE_V3", true);
  return on;
}

// The position of the highest set bit of x, -1 when x is 0 (one FLO).
__device__ inline int highest_bit(unsigned x) {
  int pos;
  asm("bfind.u32 %0, %1;" : "=r"(pos) : "r"(x));
  return pos;
}

// lbs_move with the search done once a tile instead of once a window (a
// warp's own search spent about 100 warp instructions per 32 items, and
// an H100 ran it issue-bound at mean 10). Local positions: item a0 + p is
// position p of the tile, segment b0 + sl its local segment sl (sl = the
// number of the tile's ends at or before the item).
// - Marks (16-bit): s_mark[p] = sl + 1 when item p starts a segment or is
//   a warp's first item (p = 32 vt w), else 0. Of a run of equal ends
//   (empty segments) only the last writes, with its own count (index + 1):
//   every end below a1 has all its equal ends in the tile (they all merge
//   before that item) and the ends before b0 are at or below a0, so the
//   count is exact. A warp's first item, when no segment starts there, is
//   written by the thread of the segment covering it, or keeps the default
//   1 (segment b0) from the clear. So no two threads write one mark (no
//   atomics), and every warp's first item holds a mark.
// - s_start[sl] = the local start of segment sl (segment b0's may lie before
//   a0: start_b0 - a0, in wrapping arithmetic, exact once subtracted from
//   p), beside its cached values s_cache[sl].
// A warp walks its 32 vt items a row of 32 at a time: a lane loads its
// mark, ballots the nonzero ones, takes the value of the highest at or
// below it (bfind, shfl): its segment, or with none the segment of the
// row's last item before (carried from lane 31, a shfl a row); its rank is
// p - s_start[sl]. Until session 31 every window of 32 items held a mark
// (no carry), which a long segment's thread wrote one by one: nv / 32
// stores at mean 1000 and beyond, 32 vt times fewer now.
// Registers keep each item's cached values from its load to its store (no
// second shared load). Shared memory at 128 x 7 with int pairs cached: 5.4
// KB static + 7.2 KB dynamic a CTA, 16 CTAs a multiprocessor (the driver
// sizes the carveout for occupancy). Two barriers
// a tile: after clearing the marks (the thread's first ends and cached
// values already loading) and after writing them. Every geometry is exact:
// empty segments (each run one mark), one huge segment (warp marks only),
// tiles with no ends (all marks default), ends at a1 (p = na: no mark), the
// partial last tile (rows past na read cleared marks and carry; their
// items are masked).
//
// Registers: 4-byte items up to 7 a thread are held to 32 registers (2048
// threads a multiprocessor, 16 CTAs of 128 x 7; unbounded 256 x 6 took 48,
// 5 CTAs; no spills at 32). Wider items or more of them are left to the
// compiler: at 32, 8-byte items spilled, and so did vt 8 of 4-byte ones
// (12 bytes, and 15-20% slower than 7).
template <typename T, int nt, int vt>
constexpr int lbs_move_v3_min_ctas() {
  // at most 32 CTAs a multiprocessor
  return sizeof(T) > 4 || vt > 7 || 2048 / nt < 1 ? 1 : 2048 / nt > 32 ? 32 : 2048 / nt;
}

template <typename launch_t, typename T, typename load_t, typename store_t,
          typename segments_it, typename tpl_t>
__global__ __launch_bounds__(launch_t::nt, (lbs_move_v3_min_ctas<T, launch_t::nt, launch_t::vt>())) void lbs_move_v3_kernel(
    load_t load, store_t store, int count, segments_it segments, int num_segments,
    const int* __restrict__ part, tpl_t caching) {
  enum { nt = launch_t::sm_ptx::nt, vt = launch_t::sm_ptx::vt, nv = nt * vt };
  static_assert(nt % 32 == 0, "lbs_move_v3_kernel: whole warps");
  using cache_t = typename cached_tuple<tpl_t>::type;
  constexpr auto seq = cuda::std::make_index_sequence<cuda::std::tuple_size<tpl_t>::value>();
  static_assert(nv + 1 <= 0xffff, "lbs_move_v3_kernel: marks are 16-bit");
  __shared__ __align__(16) unsigned short s_mark[nv];
  __shared__ int s_start[nv + 1];
  extern __shared__ __align__(16) unsigned char lbs_dynamic_smem[];
  cache_t* s_cache = reinterpret_cast<cache_t*>(lbs_dynamic_smem);
  const int tid = threadIdx.x;
  // (launched as the partition kernel's programmatic dependent, or not:
  // then this returns at once)
  wait_for_primary_grid();
  const lbs_range_t r = lbs_tile_range(part, blockIdx.x, nv, count, num_segments);
  const int na = r.na(), nb = r.nb();
  // Segments referenced by the tile's items: b0 .. min(b1, last), nb or nb + 1.
  const int nseg = min(r.b1, num_segments - 1) - r.b0 + 1;
  segment_ends_t<segments_it> ends{segments, num_segments, count};
  // End j's value and the next end's (a1 past the tile's last: its
  // segment runs to the tile's end).
  auto load_end = [&](int j, int& e, int& e_next) {
    e = e_next = 0;
    if (j < nb) {
      e = ends[r.b0 + j];
      e_next = j + 1 < nb ? ends[r.b0 + j + 1] : r.a1;
    }
  };
  // Segment j's cached values; for end j, the last of its run and below
  // a1, segment j + 1's mark, start and window marks.
  auto place = [&](int j, int e, int e_next, const cache_t& c) {
    s_cache[j] = c;
    if (j < nb && e_next != e) {
      const int p = e - r.a0, pe = min(e_next - r.a0, na);
      if (p < na) {
        s_mark[p] = (unsigned short)(j + 2);
        s_start[j + 1] = p;
      }
      // the warps' first items it covers after its start (none at short
      // means; a long segment writes at most one a warp)
      for (int w = p / (32 * vt) + 1; 32 * vt * w < pe; ++w) s_mark[32 * vt * w] = (unsigned short)(j + 2);
    }
  };
  int e0 = 0, e0_next = 0;
  cache_t c0v{};
  if (tid < nseg) {
    load_end(tid, e0, e0_next);
    c0v = load_cached(caching, r.b0 + tid, seq);
  }
  const int start_b0 = r.b0 > 0 ? (int)segments[r.b0] : 0;
  // 16 bytes (8 marks) a store, 4 vt a warp's items; the warps' firsts:
  // segment b0
  constexpr int n16 = nv / 8;
#pragma unroll
  for (int k = 0; k < (n16 + nt - 1) / nt; ++k) {
    const int q = tid + k * nt;
    if (n16 % nt == 0 || q < n16) reinterpret_cast<int4*>(s_mark)[q] = make_int4(q % (4 * vt) == 0, 0, 0, 0);
  }
  if (tid == 0) s_start[0] = (int)((unsigned)start_b0 - (unsigned)r.a0);
  __syncthreads();
  if (tid < nseg) place(tid, e0, e0_next, c0v);
  for (int j = tid + nt; j < nseg; j += nt) {
    int e, e_next;
    load_end(j, e, e_next);
    place(j, e, e_next, load_cached(caching, r.b0 + j, seq));
  }
  __syncthreads();

  const int lane = tid & 31, warp = tid >> 5;
  const int c0 = warp * 32 * vt;  // the warp's first item
  if (c0 >= na) return;
  const unsigned at_or_below = 0xffffffffu >> (31 - lane);
  T v[vt];
  int seg_of[vt], rank_of[vt];
  cache_t c_of[vt];
  int carry = 0;  // the local segment of the warp's item before this row (row 0's lane 0 holds a mark)
#pragma unroll
  for (int i = 0; i < vt; ++i) {
    const int p = c0 + 32 * i + lane;
    const int m = s_mark[p];
    const unsigned marks = __ballot_sync(~0u, m != 0) & at_or_below;
    const int from = __shfl_sync(~0u, m, marks ? highest_bit(marks) : 0) - 1;
    const int sl = marks ? from : carry;
    carry = __shfl_sync(~0u, sl, 31);
    const int rank = (int)((unsigned)p - (unsigned)s_start[sl]);
    if (p < na) {
      seg_of[i] = r.b0 + sl;
      rank_of[i] = rank;
      c_of[i] = s_cache[sl];
      v[i] = load(r.a0 + p, r.b0 + sl, rank, c_of[i]);
    }
  }
#pragma unroll
  for (int i = 0; i < vt; ++i) {
    const int p = c0 + 32 * i + lane;
    if (p < na) store(r.a0 + p, seg_of[i], rank_of[i], c_of[i], v[i]);
  }
}

template <typename launch_arg_t, typename T, typename load_t, typename store_t,
          typename segments_it, typename tpl_t>
void lbs_move(load_t load, store_t store, int count, segments_it segments,
              int num_segments, tpl_t caching, context_t& ctx) {
  using launch_t = launch_of_t<launch_arg_t, lbs_move_box_t>;
  if (count <= 0 || num_segments <= 0) return;
  int nv = launch_t::cta_dim(ctx.ptx_version()).nv();
  size_t cache_bytes = (nv + 1) * sizeof(typename cached_tuple<tpl_t>::type);
  const bool v3 = lbs_move_v3_on();
  // v3's tiles as the partition kernel's programmatic dependent (Hopper)
  const bool pdl = v3 && lbs_pdl_on() && ctx.ptx_version() >= 900;
  const int num_tiles = (int)div_up((long long)count + num_segments, (long long)nv);
  mem_t<int> part(num_tiles + 1, ctx);
  lbs_partitions_into(part.data(), segments, count, num_segments, nv, ctx, pdl);
  auto kernel = v3 ? lbs_move_v3_kernel<launch_t, T, load_t, store_t, segments_it, tpl_t>
                   : lbs_move_kernel<launch_t, T, load_t, store_t, segments_it, tpl_t>;
  ATTU_CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)cache_bytes));
  launch_maybe_dependent(kernel, num_tiles, launch_t::nt, cache_bytes, pdl, ctx, load, store, count, segments,
                         num_segments, (const int*)part.data(), caching);
}

// transform_lbs through lbs_move_v3_kernel's marks: the move's load
// returns nothing and its store calls f, so each lane finds its item's
// segment by one ballot over the tile's marks instead of the merge path's
// search and serial merge. The default below a mean segment of
// kLbsMarksMaxMean items, on tiles of lbs_marks_box_t; longer segments keep
// transform_lbs_kernel, whose tiles with few ends count them directly.
// Measured (session 31, an H200, transform_lbs writing seg and rank, ms at
// 64M / 256M, alternately three times): mean 10 merge path 0.216 / 0.801,
// marks 128 x 12 0.174 / 0.640 (79% / 83% of the copy); mean 100 0.172 /
// 0.631 against 0.150 / 0.544; mean 300 0.200 / 0.742 against 0.146 /
// 0.526; mean 1000 (direct counts) 0.139-0.141 / 0.506-0.510 against
// 0.144 / 0.525. ATTU_LBS_V3=0 keeps the merge path everywhere (read once;
// tests and the bench switch it through this).
inline bool& lbs_v3_on() {
  static bool on = env_switch("ATTU_LBS_V3", true);
  return on;
}
constexpr long long kLbsMarksMaxMean = 512;
inline bool lbs_marks_wanted(int count, int num_segments) {
  return lbs_v3_on() && (long long)count < kLbsMarksMaxMean * num_segments;
}
// 128 x 12 beat 256 x 6 (the moves' box; 0.181 ms at mean 10, 64M),
// 128 x 6 / 8 / 16, 64 x 8 / 16 and 256 x 8 by 1-10% at means 10-1000.
using lbs_marks_box_t = launch_box_t<arch_cta_t<700, 128, 8>, arch_cta_t<900, 128, 12>>;

struct lbs_no_value_t {};

template <typename cache_t>
struct lbs_load_nothing_t {
  __device__ lbs_no_value_t operator()(int, int, int, const cache_t&) const { return {}; }
};

template <typename func_t, typename cache_t, bool caching_on>
struct lbs_store_call_t {
  func_t f;
  __device__ void operator()(int index, int seg, int rank, const cache_t& c, lbs_no_value_t) const {
    if constexpr (caching_on) f(index, seg, rank, c);
    else f(index, seg, rank);
  }
};

template <typename launch_arg_t, typename func_t, typename segments_it, typename tpl_t>
void transform_lbs_v3(func_t f, int count, segments_it segments, int num_segments, tpl_t caching,
                      context_t& ctx) {
  using cache_t = typename cached_tuple<tpl_t>::type;
  lbs_move<launch_of_t<launch_arg_t, lbs_marks_box_t>, lbs_no_value_t>(
      lbs_load_nothing_t<cache_t>{}, lbs_store_call_t<func_t, cache_t, true>{f}, count, segments, num_segments,
      caching, ctx);
}

template <typename launch_arg_t, typename func_t, typename segments_it>
void transform_lbs_v3(func_t f, int count, segments_it segments, int num_segments, no_cache_t, context_t& ctx) {
  using cache_t = cuda::std::tuple<>;
  lbs_move<launch_of_t<launch_arg_t, lbs_marks_box_t>, lbs_no_value_t>(
      lbs_load_nothing_t<cache_t>{}, lbs_store_call_t<func_t, cache_t, false>{f}, count, segments, num_segments,
      cuda::std::tuple<>(), ctx);
}

}  // namespace detail

// f(index, seg, rank, cuda::std::tuple<values...>) for every work item;
// `caching` is a cuda::std::tuple of iterators indexed by segment.
template <typename launch_arg_t = empty_t, typename func_t,
          typename segments_it, typename... its>
void transform_lbs(func_t f, int count, segments_it segments, int num_segments,
                   cuda::std::tuple<its...> caching, context_t& ctx) {
  if (detail::lbs_marks_wanted(count, num_segments)) {
    detail::transform_lbs_v3<launch_arg_t>(f, count, segments, num_segments, caching, ctx);
    return;
  }
  detail::transform_lbs_impl<launch_arg_t>(f, count, segments, num_segments,
                                           caching, ctx);
}

// f(index, seg, rank) for every work item.
template <typename launch_arg_t = empty_t, typename func_t, typename segments_it>
void transform_lbs(func_t f, int count, segments_it segments, int num_segments,
                   context_t& ctx) {
  if (detail::lbs_marks_wanted(count, num_segments)) {
    detail::transform_lbs_v3<launch_arg_t>(f, count, segments, num_segments, detail::no_cache_t(), ctx);
    return;
  }
  detail::transform_lbs_impl<launch_arg_t>(f, count, segments, num_segments,
                                           detail::no_cache_t(), ctx);
}

// output[index] = the segment of work item index.
template <typename launch_arg_t = empty_t, typename segments_it, typename output_it>
void load_balance_search(int count, segments_it segments, int num_segments,
                         output_it output, context_t& ctx) {
  transform_lbs<launch_arg_t>(
      [=] __device__(int index, int seg, int) { output[index] = seg; }, count,
      segments, num_segments, ctx);
}

}  // namespace gpu
}  // namespace attu
