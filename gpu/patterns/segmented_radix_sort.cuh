// segmented_radix_sort.cuh: LSD radix sort within each segment, for long
// segments.
//
// segmented_sort's block stage and merge rounds cost about log2(L / T)
// passes over a segment of L items: for segments of ~100,000 items that is
// six or seven moves of every item. A radix sort costs one pass per 8-bit
// digit whatever the segment length, so for long segments it wins, provided
// each pass keeps every item inside its segment.
//
// The passes are sort.cuh's onesweep kernel over segment-aligned tiles: tile
// k covers [start[k], start[k+1]) inside one segment (a segment of L items
// gets ceil(L / nv) tiles, the last one short), the histogram counts each
// segment's digits apart, and each segment's digit starts begin at the
// segment's first item. A segment's first tile publishes its counts as
// inclusive at once, so the look-back of a later tile stops inside its own
// segment: every pass is a stable counting sort of each segment by one
// digit, all segments at once, and after the key's passes (an even number)
// each segment is sorted, back in the caller's buffers.
//
// Cost: the histogram read plus one read and write of keys and values a
// digit (4 for 32-bit keys), as a plain radix sort, plus the short last
// tile of each segment. Many short segments would make many near-empty
// tiles: segmented_sort sends only long ones here (segsort_radix_wanted).
#pragma once

#include "gpu/patterns/sort.cuh"

#include <cub/block/block_scan.cuh>

#include <cstdlib>
#include <type_traits>

namespace attu {
namespace gpu {

// Which (key, comparator) pairs the radix path sorts: integer keys of 4 or
// 8 bytes under less_t / greater_t, whose bit order is the comparator's.
// Not floats: less_t holds -0.0 and +0.0 equal (a stable sort keeps their
// order) where the bits put -0.0 first, and the bits would rewrite neither.
template <typename key_t, typename comp_t>
struct segsort_radix_eligible {
  static constexpr bool value = sort_direction<comp_t>::value != 0 && std::is_integral<key_t>::value &&
                                (sizeof(key_t) == 4 || sizeof(key_t) == 8);
};

// Mean segment length, in radix tiles, from which segmented_sort takes the
// radix path; the environment variable of the same name overrides it at run
// time (0 turns the path off). Measured on an H100 (session 22, 64M int/int
// pairs, docs/performance.md): the merge path against the radix path at
// mean segments 10,000 / 30,000 / 100,000 / 1M took 3.62-3.67 / 4.12-4.16 /
// 4.74 / 6.27-6.33 ms against 2.65 / 2.32 / 2.24 / 2.30 ms: the radix path
// wins from about one tile (8,832 items) up. Below it each segment's short
// tile would leave most of a tile's threads idle.
#ifndef ATTU_SEGSORT_RADIX_MIN_TILES
#define ATTU_SEGSORT_RADIX_MIN_TILES 1
#endif

namespace segsort_radix_detail {

// Segment s of [0, num_segments]: [s == 0 ? 0 : segments[s-1], s < num_segments ?
// segments[s] : count) (the items before segments[0] are segment 0).
__device__ __forceinline__ int seg_begin(const int* __restrict__ segments, int s) {
  return s == 0 ? 0 : segments[s - 1];
}
__device__ __forceinline__ int seg_end(const int* __restrict__ segments, int num_segments, int count,
                                       int s) {
  return s < num_segments ? segments[s] : count;
}

// One block: first_tile[s] = the tiles of the segments before s (exclusive
// scan of ceil(len / nv)), first_tile[num_segments + 1] and *ntiles = all tiles.
template <int nt>
__global__ void __launch_bounds__(nt)
tile_counts_kernel(const int* __restrict__ segments, int num_segments, int count, int nv,
                   int* __restrict__ first_tile, unsigned int* __restrict__ ntiles) {
  using scan_t = cub::BlockScan<int, nt>;
  __shared__ typename scan_t::TempStorage tmp;
  int carry = 0;
  const int total = num_segments + 1;
  for (int b = 0; b < total; b += nt) {
    int s = b + threadIdx.x, tiles = 0;
    if (s < total) {
      int len = seg_end(segments, num_segments, count, s) - seg_begin(segments, s);
      tiles = len > 0 ? (len + nv - 1) / nv : 0;
    }
    int excl, sum;
    scan_t(tmp).ExclusiveSum(tiles, excl, sum);
    if (s < total) first_tile[s] = carry + excl;
    carry += sum;
    __syncthreads();  // tmp reused
  }
  if (threadIdx.x == 0) {
    first_tile[total] = carry;
    *ntiles = unsigned(carry);
  }
}

// Tile k's start and segment (a binary search of first_tile); start[ntiles]
// = count. A template (of the offset type) so that a header may define it.
template <typename offset_t>
__global__ void tile_table_kernel(const offset_t* __restrict__ segments, int num_segments, int count,
                                  int nv, const int* __restrict__ first_tile, int max_tiles,
                                  int* __restrict__ start, int* __restrict__ seg) {
  int k = blockIdx.x * blockDim.x + threadIdx.x;
  const int total = num_segments + 1, ntiles = first_tile[total];
  if (k > max_tiles || k > ntiles) return;
  if (k == ntiles) { start[k] = count; return; }
  int lo = 0, hi = total;  // last s with first_tile[s] <= k whose segment has tiles
  while (hi - lo > 1) {
    int mid = (lo + hi) >> 1;
    if (first_tile[mid] <= k) lo = mid; else hi = mid;
  }
  start[k] = seg_begin(segments, lo) + (k - first_tile[lo]) * nv;
  seg[k] = lo;
}

// Every pass's digit counts of each segment (hist[(s * passes + p) * 256 + d])
// in one read of the keys. A block takes a run of consecutive tiles,
// counting in shared memory and adding to the global table when the segment
// changes and at the end (one long segment does not funnel every block's
// atomics onto the same words tile by tile).
template <typename key_t, bool descending, int nt>
__global__ void __launch_bounds__(nt)
histogram_kernel(const key_t* __restrict__ keys, sort_detail::sort_seg_tiles tiles, int tiles_per_block,
                 unsigned long long* __restrict__ hist) {
  using traits = sort_key_traits<key_t>;
  using bits_t = typename traits::bits_t;
  constexpr int passes = sort_launch<bits_t>::passes;
  __shared__ unsigned int sh[passes][256];
  const int ntiles = int(*tiles.ntiles);
  const int t0 = blockIdx.x * tiles_per_block;
  const int t1 = min(ntiles, t0 + tiles_per_block);
  if (t0 >= t1) return;
  for (int i = threadIdx.x; i < passes * 256; i += nt) (&sh[0][0])[i] = 0;
  auto flush = [&](int s) {
    __syncthreads();
    unsigned long long* h = hist + size_t(s) * passes * 256;
    for (int i = threadIdx.x; i < passes * 256; i += nt) {
      unsigned int v = (&sh[0][0])[i];
      if (v) {
        atomicAdd(&h[i], (unsigned long long)v);
        (&sh[0][0])[i] = 0;
      }
    }
    __syncthreads();
  };
  auto count_key = [&](key_t k) {
    bits_t b = traits::to_bits(k);
    if (descending) b = ~b;
#pragma unroll
    for (int p = 0; p < passes; ++p) atomicAdd(&sh[p][(b >> (8 * p)) & 0xff], 1u);
  };
  __syncthreads();
  int cur = tiles.seg[t0];
  // Tiles of one segment are consecutive and contiguous: count the block's
  // run of them one segment at a time, four loads in flight a thread.
  int t = t0;
  while (t < t1) {
    int u = t;
    while (u < t1 && tiles.seg[u] == cur) ++u;
    const int a = tiles.start[t], b = tiles.start[u];
    constexpr int per = 4;
    int i = a + threadIdx.x;
    for (; i + (per - 1) * nt < b; i += per * nt) {
      key_t k[per];
#pragma unroll
      for (int j = 0; j < per; ++j) k[j] = keys[i + j * nt];
#pragma unroll
      for (int j = 0; j < per; ++j) count_key(k[j]);
    }
    for (; i < b; i += nt) count_key(keys[i]);
    flush(cur);
    t = u;
    if (t < t1) cur = tiles.seg[t];
  }
}

// Exclusive scan of each (segment, pass)'s 256 counts, plus the segment's
// first item: where each digit of the segment starts in that pass.
template <int passes>
__global__ void __launch_bounds__(256)
scan_kernel(const int* __restrict__ segments, unsigned long long* __restrict__ hist) {
  using scan_t = cub::BlockScan<unsigned long long, 256>;
  __shared__ typename scan_t::TempStorage tmp;
  const int s = blockIdx.x / passes;
  unsigned long long* h = hist + size_t(blockIdx.x) * 256;
  unsigned long long v = h[threadIdx.x], out;
  scan_t(tmp).ExclusiveSum(v, out);
  h[threadIdx.x] = out + (unsigned long long)seg_begin(segments, s);
}

template <typename val_t>
__global__ void iota_kernel(val_t* __restrict__ out, int count) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < count) out[i] = val_t(i);
}

template <bool descending, typename key_t, typename val_t, bool has_vals, bool gen_indices,
          typename context_t>
void sort_impl(key_t* keys, val_t* vals, long long count, const int* segments, int num_segments,
               context_t& ctx) {
  using traits = sort_key_traits<key_t>;
  using bits_t = typename traits::bits_t;
  // 32-bit pairs travel packed (sort.cuh's sort_pack) in its tile shape
  constexpr bool can_pack = has_vals && sizeof(bits_t) == 4 && sizeof(val_t) == 4;
  int pack_mode = can_pack ? sort_detail::sort_pack_pairs() : 0;
  using L0 = sort_launch<bits_t, val_t, has_vals>;
  static_assert(sizeof(key_t) == sizeof(bits_t), "key and its bits have one size");
  constexpr int passes = L0::passes;  // even: the result lands back in keys / vals
  const int nv = pack_mode ? sort_detail::sort_launch_packed::nv : L0::nv;
  if (count < 2) return;
  if (count > 0x7fffffffll) throw std::runtime_error("segmented_sort: more than 2^31-1 items");
  cudaStream_t st = ctx.stream();
  const int n = int(count), total = num_segments + 1;
  // Upper bound of the tiles: every segment adds at most one short tile.
  const long long max_tiles = (count + nv - 1) / nv + total;

  auto up = [](size_t b) { return (b + 255) & ~size_t(255); };
  size_t hist_bytes = up(size_t(total) * passes * 256 * sizeof(unsigned long long));
  size_t ctr_bytes = up(64 * sizeof(unsigned int));
  size_t lb_bytes = up(size_t(max_tiles) * 256 * sizeof(uint64_t));
  size_t first_bytes = up(size_t(total + 1) * sizeof(int));
  size_t start_bytes = up(size_t(max_tiles + 1) * sizeof(int));
  size_t seg_bytes = up(size_t(max_tiles) * sizeof(int));
  size_t key_bytes = up(size_t(count) * sizeof(bits_t));
  size_t val_bytes = has_vals ? up(size_t(count) * sizeof(val_t)) : 0;
  const size_t cleared = hist_bytes + ctr_bytes + lb_bytes;
  bool second = false;
  char* mem = sort_detail::sort_alloc_packed(cleared + first_bytes + start_bytes + seg_bytes + key_bytes + val_bytes,
                                             pack_mode == 2 ? size_t(count) * sizeof(uint64_t) : 0, &second, ctx);
  if (pack_mode == 2 && !second) pack_mode = 1;
  unsigned long long* hist = (unsigned long long*)mem;
  unsigned int* ctr = (unsigned int*)(mem + hist_bytes);  // [0, passes): tile tickets; [passes]: ntiles
  uint64_t* lb = (uint64_t*)(mem + hist_bytes + ctr_bytes);
  int* first_tile = (int*)(mem + cleared);
  int* tile_start = (int*)(mem + cleared + first_bytes);
  int* tile_seg = (int*)(mem + cleared + first_bytes + start_bytes);
  bits_t* tmp_keys = (bits_t*)(mem + cleared + first_bytes + start_bytes + seg_bytes);
  val_t* tmp_vals = has_vals ? (val_t*)((char*)tmp_keys + key_bytes) : nullptr;

  // Histograms, tickets and look-back words cleared once (each pass marks
  // its words with its number, as a plain radix sort's).
  ATTU_CUDA_CHECK(cudaMemsetAsync(mem, 0, cleared, st));
  if (gen_indices) {
    iota_kernel<<<(n + 255) / 256, 256, 0, st>>>(vals, n);
    ATTU_CUDA_CHECK_LAUNCH();
  }
  unsigned int* ntiles = ctr + passes;
  tile_counts_kernel<1024><<<1, 1024, 0, st>>>(segments, num_segments, n, nv, first_tile, ntiles);
  ATTU_CUDA_CHECK_LAUNCH();
  tile_table_kernel<int><<<int((max_tiles + 1 + 255) / 256), 256, 0, st>>>(
      segments, num_segments, n, nv, first_tile, int(max_tiles), tile_start, tile_seg);
  ATTU_CUDA_CHECK_LAUNCH();
  sort_detail::sort_seg_tiles tiles{tile_start, tile_seg, ntiles, passes * 256};

  const int hist_tiles_per_block = 8;
  histogram_kernel<key_t, descending, 512>
      <<<int((max_tiles + hist_tiles_per_block - 1) / hist_tiles_per_block), 512, 0, st>>>(
          keys, tiles, hist_tiles_per_block, hist);
  ATTU_CUDA_CHECK_LAUNCH();
  scan_kernel<passes><<<total * passes, 256, 0, st>>>(segments, hist);
  ATTU_CUDA_CHECK_LAUNCH();

  const int grid = int(max_tiles);
  if constexpr (can_pack) {
    if (pack_mode) {
      // tmp_keys and tmp_vals are one run of count * 8 bytes
      uint64_t* packed2 = pack_mode == 2 ? reinterpret_cast<uint64_t*>((char*)tmp_keys + key_bytes + val_bytes) : nullptr;
      sort_detail::sort_packed_passes<descending, key_t, val_t, true>(keys, vals, reinterpret_cast<uint64_t*>(tmp_keys),
                                                                     packed2, passes, size_t(count), grid, hist, lb, ctr,
                                                                     tiles, st);
      sort_detail::sort_free(mem, ctx);
      return;
    }
  }
  using L = L0;
  void* kin = keys;
  void* kout = tmp_keys;
  val_t* vin = vals;
  val_t* vout = tmp_vals;
  using sort_detail::pass_mark;
  for (int p = 0; p < passes; ++p) {
    const unsigned long long* ds = hist + p * 256;
    unsigned int* c = ctr + p;
    if (p == 0)
      sort_detail::sort_onesweep_kernel<key_t, val_t, has_vals, descending, true, false, key_t, key_t, true>
          <<<grid, L::nt, 0, st>>>(kin, kout, vin, vout, count, 8 * p, ds, lb, pass_mark(p), c, 0, tiles);
    else if (p == passes - 1)
      sort_detail::sort_onesweep_kernel<key_t, val_t, has_vals, descending, false, true, key_t, key_t, true>
          <<<grid, L::nt, 0, st>>>(kin, kout, vin, vout, count, 8 * p, ds, lb, pass_mark(p), c, 0, tiles);
    else
      sort_detail::sort_onesweep_kernel<key_t, val_t, has_vals, descending, false, false, key_t, key_t, true>
          <<<grid, L::nt, 0, st>>>(kin, kout, vin, vout, count, 8 * p, ds, lb, pass_mark(p), c, 0, tiles);
    ATTU_CUDA_CHECK_LAUNCH();
    std::swap(kin, kout);
    std::swap(vin, vout);
  }
  sort_detail::sort_free(mem, ctx);
}

}  // namespace segsort_radix_detail

// Whether segmented_sort should take the radix path for these segments: the
// mean segment at least ATTU_SEGSORT_RADIX_MIN_TILES radix tiles (the
// environment variable of that name overrides; 0 turns the path off).
template <typename key_t, typename val_t, bool has_vals>
inline bool segsort_radix_wanted(long long count, int num_segments) {
  using L = sort_launch<typename sort_key_traits<key_t>::bits_t, val_t, has_vals>;
  static const long long min_tiles = [] {
    const char* e = getenv("ATTU_SEGSORT_RADIX_MIN_TILES");
    return e && *e ? atoll(e) : (long long)ATTU_SEGSORT_RADIX_MIN_TILES;
  }();
  if (min_tiles <= 0 || count > 0x7fffffffll) return false;
  return count / ((long long)num_segments + 1) >= min_tiles * L::nv;
}

}  // namespace gpu
}  // namespace attu
