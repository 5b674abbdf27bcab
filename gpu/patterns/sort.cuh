// sort.cuh: LSD radix sort of keys and key-value pairs ("onesweep").
//
// One pass reads every key once to build the digit histograms of all passes
// (sort_histogram_kernel); a single block scans them into the global start of
// every digit (sort_scan_kernel). Each pass then is ONE kernel
// (sort_onesweep_kernel): a tile ranks its keys by the current 8-bit digit
// with CUB's BlockRadixRankMatchEarlyCounts, publishes its per-digit counts
// early, finds the counts of all earlier tiles by decoupled look-back, and
// scatters keys (and values) to their final place for that pass. Tiles take
// their index from an atomic counter, so a tile only ever waits on tiles that
// have already started: look-back cannot deadlock.
//
// Keys are mapped to unsigned bits whose unsigned order is the key order
// (sort_key_traits): signed integers flip the sign bit, floats flip all bits
// when negative and the sign bit otherwise (values are never altered: -0.0
// ranks just before +0.0, NaN with the sign bit clear after +inf). The sort is
// stable. Keys of 4 bytes take 4 passes and keys of 8 bytes 8, an even
// count, so the result lands back in the caller's buffer with no extra copy.
// 32-bit keys with 4-byte values travel as one 64-bit item, key above value
// (sort_pack): the tile's shared-memory exchange and its stores then happen
// once an item instead of once for the keys and again for the values.
//
// Invariant of the look-back words: one 64-bit word per (tile, digit); the top
// two bits say what the low bits hold (01: this tile's count of the digit,
// 10: the count over this tile and all before it), the next four which pass
// wrote it (1 to 8); a word of another pass, or 0, is not yet written. The
// value, its flag and its pass travel in one store, so no fence is needed
// between them. Every pass of a sort uses the same words, cleared once
// before the first: a pass overwrites the word its tile wrote in the pass
// before, and a reader waits for its own pass's mark (a clear per pass
// wrote as many bytes again as the words themselves: 293 MB written per
// pass of 64M int32 keys, 271 MB without, against the keys' 256 MB).
#pragma once

#include "gpu/patterns/context.cuh"
#include "gpu/patterns/operators.cuh"

#include <cub/block/block_load.cuh>
#include <cub/block/block_radix_rank.cuh>
#include <cub/block/block_scan.cuh>
#include <cuda_runtime.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <string>
#include <type_traits>

namespace attu {
namespace gpu {

// less_t / greater_t (operators.cuh) name the two bit orders the radix sort
// knows; mergesort and segmented_sort take any comparator.

// ---- key <-> order-preserving unsigned bits --------------------------------
template <typename key_t, typename = void>
struct sort_key_traits;

template <typename key_t>
struct sort_key_traits<key_t, std::enable_if_t<std::is_integral<key_t>::value &&
                                                std::is_unsigned<key_t>::value>> {
  using bits_t = std::conditional_t<sizeof(key_t) <= 4, uint32_t, uint64_t>;
  __host__ __device__ static bits_t to_bits(key_t k) { return bits_t(k); }
  __host__ __device__ static key_t from_bits(bits_t b) { return key_t(b); }
};

template <typename key_t>
struct sort_key_traits<key_t, std::enable_if_t<std::is_integral<key_t>::value &&
                                                std::is_signed<key_t>::value>> {
  static_assert(sizeof(key_t) == 4 || sizeof(key_t) == 8, "sort keys: 32 or 64-bit integers");
  using bits_t = std::conditional_t<sizeof(key_t) == 4, uint32_t, uint64_t>;
  static constexpr bits_t sign = bits_t(1) << (8 * sizeof(bits_t) - 1);
  __host__ __device__ static bits_t to_bits(key_t k) { return bits_t(k) ^ sign; }
  __host__ __device__ static key_t from_bits(bits_t b) { return key_t(b ^ sign); }
};

template <typename key_t>
struct sort_key_traits<key_t, std::enable_if_t<std::is_floating_point<key_t>::value>> {
  static_assert(sizeof(key_t) == 4 || sizeof(key_t) == 8, "sort keys: float or double");
  using bits_t = std::conditional_t<sizeof(key_t) == 4, uint32_t, uint64_t>;
  static constexpr bits_t sign = bits_t(1) << (8 * sizeof(bits_t) - 1);
  __host__ __device__ static bits_t to_bits(key_t k) {
    bits_t b;
    memcpy(&b, &k, sizeof b);
    return (b & sign) ? ~b : (b | sign);
  }
  __host__ __device__ static key_t from_bits(bits_t b) {
    b = (b & sign) ? (b ^ sign) : ~b;
    key_t k;
    memcpy(&k, &b, sizeof k);
    return k;
  }
};

// Which comparators select ascending / descending radix order.
template <typename comp_t> struct sort_direction { static constexpr int value = 0; };  // unknown
template <typename T> struct sort_direction<less_t<T>> { static constexpr int value = 1; };
template <typename T> struct sort_direction<greater_t<T>> { static constexpr int value = -1; };

// ---- tuning -------------------------------------------------------------------
// A onesweep tile's shape: threads (NT), items a thread (VT) and the blocks
// a multiprocessor the kernel is compiled for (MINB, its register budget),
// for 32-bit keys alone (K32), 32-bit keys with values of 4 bytes or less
// (P32) and 64-bit keys or wider values (64). The shared tile (keys and
// values share it, one after the other) stays under the static 48 KB.
// Measured on an H100 against DeviceRadixSort (docs/performance.md
// "Onesweep tile sizes", session 9, and "Session 14"):
//  - 32-bit keys alone: 512 x 20 at 2 blocks (64 registers, no spill):
//    1.01x, where 384 x 16 at 3 blocks gave 0.96x and 384 x 20 at 3 (CUB's
//    shape) spilled 208 bytes of the 56 registers (0.59x); 448 x 18, 320 x
//    20 and 256 x 20 0.92-0.96x;
//  - 32-bit pairs: 384 x 23 at 2 blocks (0.93-1.00x); 512 x 16, 448 x 20
//    and 320 x 23 were no faster;
//  - 64-bit keys: 384 x 15 at 2 blocks (1.02-1.06x).
// The macros are for tuning runs (bench_sort built with -DATTU_SORT_...).
#ifndef ATTU_SORT_NT_K32
#define ATTU_SORT_NT_K32 512
#endif
#ifndef ATTU_SORT_VT_K32
#define ATTU_SORT_VT_K32 20
#endif
#ifndef ATTU_SORT_MINB_K32
#define ATTU_SORT_MINB_K32 2
#endif
#ifndef ATTU_SORT_NT_P32
#define ATTU_SORT_NT_P32 384
#endif
#ifndef ATTU_SORT_VT_P32
#define ATTU_SORT_VT_P32 23
#endif
#ifndef ATTU_SORT_MINB_PAIRS
#define ATTU_SORT_MINB_PAIRS 2
#endif
#ifndef ATTU_SORT_NT_64
#define ATTU_SORT_NT_64 384
#endif
#ifndef ATTU_SORT_VT_64
#define ATTU_SORT_VT_64 15
#endif
#ifndef ATTU_SORT_MINB_K64
#define ATTU_SORT_MINB_K64 2
#endif
// Packed 32-bit pairs (sort_pack below): 64-bit items in a tile of their
// own shape; over 48 KB of shared memory the tile is dynamic. 384 x 19 at
// 2 blocks (80 registers, no spill, 58 KB): int/int pairs 1.05x / 1.12-1.15x
// of DeviceRadixSort at 64M / 256M with two scratch arrays (session 23,
// run 2); 384 x 15 1.00x / 1.03x, 384 x 18 1.03-1.05x / 1.06-1.10x, 448 x 16
// 1.04-1.06x / 1.08-1.13x, 320 x 20 1.01-1.02x / 1.03-1.04x, 384 x 20
// spilled (0.85x).
#ifndef ATTU_SORT_NT_PK
#define ATTU_SORT_NT_PK 384
#endif
#ifndef ATTU_SORT_VT_PK
#define ATTU_SORT_VT_PK 19
#endif
#ifndef ATTU_SORT_MINB_PK
#define ATTU_SORT_MINB_PK 2
#endif
// Keys alone rank into shared memory before the look-back (0: after it,
// as with values; 2: with values too, no faster for pairs in session 14's
// run 10; a tuning switch).
#ifndef ATTU_SORT_KEYS_BEFORE_LOOKBACK
#define ATTU_SORT_KEYS_BEFORE_LOOKBACK 1
#endif

template <typename bits_t, typename val_t = uint32_t, bool has_vals = true>
struct sort_launch {
  static constexpr int nt = sizeof(bits_t) == 4 && sizeof(val_t) <= 4 ? (has_vals ? ATTU_SORT_NT_P32 : ATTU_SORT_NT_K32)
                                                                      : ATTU_SORT_NT_64;
  static constexpr int vt = sizeof(bits_t) == 4 && sizeof(val_t) <= 4 ? (has_vals ? ATTU_SORT_VT_P32 : ATTU_SORT_VT_K32)
                                                                      : ATTU_SORT_VT_64;
  static constexpr int nv = nt * vt;
  static constexpr int radix_bits = 8;
  static constexpr int digits = 1 << radix_bits;
  static constexpr int passes = 8 * sizeof(bits_t) / radix_bits;
};

namespace sort_detail {

constexpr uint64_t kFlagAgg = 1ull << 62;
constexpr uint64_t kFlagInc = 2ull << 62;
constexpr int kPassShift = 58;
constexpr uint64_t kValMask = (1ull << kPassShift) - 1;
// The mark of pass p (0-based) in its words.
__host__ __device__ constexpr uint64_t pass_mark(int p) { return uint64_t(p + 1) << kPassShift; }
// Whether word w was written by the pass whose mark is mark.
__device__ __forceinline__ bool written_by(uint64_t w, uint64_t mark) {
  return (w & (uint64_t(15) << kPassShift)) == mark;
}

template <typename bits_t, bool descending>
struct digit_of {
  int shift;
  __device__ __forceinline__ uint32_t Digit(bits_t b) const {
    if (descending) b = ~b;
    return uint32_t(b >> shift) & 0xffu;
  }
};

// f(key) for each of keys[0, count), spread over the grid: 16 bytes a
// thread at a time, two such loads in flight (a histogram's counting is
// shared-memory atomics, so the loads must be wide and early for the read
// to run near the copy); the keys before the first 16-byte boundary and the
// tail one at a time.
template <typename key_t, int nt, typename f_t>
__device__ __forceinline__ void for_each_key_wide(const key_t* __restrict__ keys, size_t count, f_t f) {
  constexpr int per_vec = 16 / sizeof(key_t);
  size_t head = (16 - (reinterpret_cast<uintptr_t>(keys) & 15)) / sizeof(key_t) % per_vec;
  if (head > count) head = count;
  const size_t nvec = (count - head) / per_vec;
  const uint4* vec = reinterpret_cast<const uint4*>(keys + head);
  const size_t tid = size_t(blockIdx.x) * nt + threadIdx.x, stride = size_t(gridDim.x) * nt;
  if (tid < head) f(keys[tid]);
  size_t i = tid;
  for (; i + stride < nvec; i += 2 * stride) {
    uint4 a = vec[i], b = vec[i + stride];
    const key_t* ka = reinterpret_cast<const key_t*>(&a);
    const key_t* kb = reinterpret_cast<const key_t*>(&b);
#pragma unroll
    for (int j = 0; j < per_vec; ++j) f(ka[j]);
#pragma unroll
    for (int j = 0; j < per_vec; ++j) f(kb[j]);
  }
  if (i < nvec) {
    uint4 a = vec[i];
    const key_t* ka = reinterpret_cast<const key_t*>(&a);
#pragma unroll
    for (int j = 0; j < per_vec; ++j) f(ka[j]);
  }
  for (size_t t = head + nvec * per_vec + tid; t < count; t += stride) f(keys[t]);
}

// Histogram of every pass in one read of the keys (for_each_key_wide). Each
// block keeps shared counters for all passes and adds them to the global
// table (passes x 256) at the end.
template <typename key_t, bool descending, int nt>
__global__ void __launch_bounds__(nt)
sort_histogram_kernel(const key_t* __restrict__ keys, size_t count,
                      unsigned long long* __restrict__ hist) {
  using traits = sort_key_traits<key_t>;
  using bits_t = typename traits::bits_t;
  constexpr int passes = sort_launch<bits_t>::passes;
  __shared__ unsigned int sh[passes][256];
  for (int i = threadIdx.x; i < passes * 256; i += nt) (&sh[0][0])[i] = 0;
  __syncthreads();
  for_each_key_wide<key_t, nt>(keys, count, [&](key_t k) {
    bits_t b = traits::to_bits(k);
    if (descending) b = ~b;
#pragma unroll
    for (int p = 0; p < passes; ++p) atomicAdd(&sh[p][(b >> (8 * p)) & 0xff], 1u);
  });
  __syncthreads();
  for (int i = threadIdx.x; i < passes * 256; i += nt) {
    unsigned int v = (&sh[0][0])[i];
    if (v) atomicAdd(&hist[i], (unsigned long long)v);
  }
}

// Exclusive scan of each pass's 256 counts: the global start of each digit.
// A template (of the count type) so that a header may define it: every
// translation unit that sorts instantiates its own, as for the others.
template <typename count_t>
__global__ void __launch_bounds__(256)
sort_scan_kernel(count_t* __restrict__ hist) {
  using scan_t = cub::BlockScan<count_t, 256>;
  __shared__ typename scan_t::TempStorage tmp;
  count_t* h = hist + blockIdx.x * 256;
  count_t v = h[threadIdx.x], out;
  scan_t(tmp).ExclusiveSum(v, out);
  h[threadIdx.x] = out;
}

// One radix pass. keys_in/keys_out hold order-preserving bits except on the
// first pass (reads key_t and converts) and the last (writes key_t back).
// Integer keys: the first pass reads in_t (key_t for a sort) and ranks
// key_t(k - key_base), the difference taken in 64 bits (key_base is 0 for
// a sort; radix_partition's join keys are partner rows: INT32 keys less
// kmin); out_t (key_t for a sort): the last pass writes out_t(key) (a
// partition ranks 32-bit keys and writes 64-bit rows). Float keys are read
// as they are.
// Tiles of a segmented pass (segmented_radix_sort.cuh): tile k covers
// [start[k], start[k+1]) inside segment seg[k] (no tile spans two segments),
// ntiles of them; the digit starts of segment s are digit_start + s *
// digit_stride. A tile that is the first of its segment looks back no
// further, so each segment is sorted as an array of its own.
struct sort_seg_tiles {
  const int* start;
  const int* seg;
  const unsigned int* ntiles;
  int digit_stride;
};

// Packed pairs (pack != pack_none; 32-bit keys with 4-byte values): a
// thread holds each pair as one 64-bit item, the key's bits above the
// value's, and ranks it by a digit of the upper half (shift counts from bit
// 32). The tile then goes through shared memory once, 8 bytes an item,
// instead of once for the keys and once again for the values. Passes
// alternate between the caller's two arrays (split: keys_in_v / vals_in,
// keys_out_v / vals_out; the first pass converts the keys, the last
// converts them back) and one scratch array of packed items, so the
// scratch is no larger than the unpacked sort's.
// pack_packed: packed items in and out (the middle passes when the sort may
// take a second scratch array).
enum sort_pack : int { pack_none = 0, pack_split_to_packed = 1, pack_packed_to_split = 2, pack_packed = 3 };

struct sort_launch_packed {
  static constexpr int nt = ATTU_SORT_NT_PK;
  static constexpr int vt = ATTU_SORT_VT_PK;
  static constexpr int nv = nt * vt;
};

// A tile's shared memory: the rank's storage, then the tile's keys, then
// its values, one after the other in one union.
template <typename bits_t, typename val_t, bool has_vals, int nt, int vt>
struct sort_tile_smem {
  using rank_t = cub::BlockRadixRankMatchEarlyCounts<nt, 8, false>;
  union {
    typename rank_t::TempStorage rank;
    bits_t keys[nt * vt];
    val_t vals[has_vals ? nt * vt : 1];
  };
  int digit_offset[256];  // global start of the digit minus tile prefix
  unsigned int tile;
};

template <typename key_t, typename val_t, bool has_vals, int pack>
struct sort_kernel_shape {
  using bits_t = std::conditional_t<pack != pack_none, uint64_t, typename sort_key_traits<key_t>::bits_t>;
  using L = std::conditional_t<pack != pack_none, sort_launch_packed, sort_launch<bits_t, val_t, has_vals>>;
  static constexpr int min_blocks = pack != pack_none ? ATTU_SORT_MINB_PK
                                    : has_vals        ? ATTU_SORT_MINB_PAIRS
                                    : sizeof(key_t) == 8 ? ATTU_SORT_MINB_K64
                                                         : ATTU_SORT_MINB_K32;
  using smem_t = sort_tile_smem<bits_t, val_t, has_vals, L::nt, L::vt>;
  // Past the static 48 KB the tile lives in dynamic shared memory.
  static constexpr size_t dyn_smem = sizeof(smem_t) > 48 * 1024 ? sizeof(smem_t) : 0;
};

template <typename key_t, typename val_t, bool has_vals, bool descending,
          bool first, bool last, typename in_t = key_t, typename out_t = key_t,
          bool segmented = false, int pack = pack_none>
__global__ void __launch_bounds__(sort_kernel_shape<key_t, val_t, has_vals, pack>::L::nt,
                                  sort_kernel_shape<key_t, val_t, has_vals, pack>::min_blocks)
sort_onesweep_kernel(const void* __restrict__ keys_in_v, void* __restrict__ keys_out_v,
                     const val_t* __restrict__ vals_in, val_t* __restrict__ vals_out,
                     size_t count, int shift,
                     const unsigned long long* __restrict__ digit_start,
                     uint64_t* __restrict__ lookback, uint64_t mark,
                     unsigned int* __restrict__ tile_counter, long long key_base = 0,
                     sort_seg_tiles seg_tiles = sort_seg_tiles{}) {
  using traits = sort_key_traits<key_t>;
  using shape = sort_kernel_shape<key_t, val_t, has_vals, pack>;
  using bits_t = typename shape::bits_t;
  using L = typename shape::L;
  static_assert(pack == pack_none || (sizeof(key_t) == 4 && sizeof(val_t) == 4 && !has_vals),
                "packed pairs: 32-bit keys, 4-byte values, passed as has_vals = false");
  constexpr bool load_split = pack == pack_split_to_packed, store_split = pack == pack_packed_to_split;

  constexpr int nt = L::nt, vt = L::vt, nv = L::nv;
  using rank_t = typename shape::smem_t::rank_t;
  constexpr int bins_per_thread = (256 + nt - 1) / nt;
  static_assert(bins_per_thread == 1, "one digit per thread at most");

  using smem_t = typename shape::smem_t;
  extern __shared__ __align__(16) unsigned char sort_dyn_smem[];
  smem_t* sp;
  if constexpr (shape::dyn_smem > 0) {
    sp = reinterpret_cast<smem_t*>(sort_dyn_smem);
  } else {
    __shared__ smem_t s_static;
    sp = &s_static;
  }
  smem_t& s = *sp;

  const int tid = threadIdx.x;
  if (tid == 0) s.tile = atomicAdd(tile_counter, 1u);
  __syncthreads();
  const unsigned int tile = s.tile;
  size_t base;
  int valid;
  bool first_tile;  // publishes its counts as inclusive and looks back no further
  if constexpr (segmented) {
    if (tile >= *seg_tiles.ntiles) return;  // the grid is an upper bound; uniform per block
    const int a = seg_tiles.start[tile], sg = seg_tiles.seg[tile];
    base = size_t(a);
    valid = seg_tiles.start[tile + 1] - a;
    first_tile = tile == 0 || seg_tiles.seg[tile - 1] != sg;
    digit_start += size_t(sg) * seg_tiles.digit_stride;
  } else {
    base = size_t(tile) * nv;
    valid = int(count - base < size_t(nv) ? count - base : size_t(nv));
    first_tile = tile == 0;
  }

  // Warp-striped load: warp w owns [w*32*vt, (w+1)*32*vt) of the tile; the
  // rank algorithm visits items in this order, which keeps the sort stable.
  const int warp = tid / 32, lane = tid % 32;
  const int wbase = warp * 32 * vt + lane;
  // Item u's bits (the warp's u-th column): on the first pass, integer
  // keys less the base (0 for a sort; a partition's keys may be read
  // narrower or wider than they rank), floats as they are. The loads go
  // through one pointer to this warp's first item, so the items' addresses
  // are that pointer plus constants, not a 64-bit index sum each.
  const in_t* in_first = static_cast<const in_t*>(keys_in_v) + base + wbase;
  const bits_t* bits_first = static_cast<const bits_t*>(keys_in_v) + base + wbase;
  const uint32_t* key32_first = static_cast<const uint32_t*>(keys_in_v) + base + wbase;
  const uint32_t* val32_first = reinterpret_cast<const uint32_t*>(vals_in) + base + wbase;
  auto load_bits = [&](int u) -> bits_t {
    if constexpr (load_split) {
      uint32_t k;
      if (first) {
        if constexpr (std::is_integral<key_t>::value)
          k = uint32_t(traits::to_bits(key_t((long long)in_first[u * 32] - key_base)));
        else
          k = uint32_t(traits::to_bits(reinterpret_cast<const key_t*>(in_first)[u * 32]));
      } else {
        k = key32_first[u * 32];
      }
      return (bits_t(k) << 32) | val32_first[u * 32];
    }
    if (first) {
      if constexpr (std::is_integral<key_t>::value)
        return traits::to_bits(key_t((long long)in_first[u * 32] - key_base));
      else
        return traits::to_bits(reinterpret_cast<const key_t*>(in_first)[u * 32]);
    }
    return bits_first[u * 32];
  };
  bits_t keys[vt];
  if (!has_vals && valid == nv) {
    // keys alone, a full tile (every tile but the last): no bounds to
    // test. (With values, the two paths cost the tile of 23 items its
    // register budget: 0.76x of CUB for int/int pairs against 0.92x with
    // the bounds tested everywhere, session 14's device run 2.)
#pragma unroll
    for (int u = 0; u < vt; ++u) keys[u] = load_bits(u);
  } else {
#pragma unroll
    for (int u = 0; u < vt; ++u) {
      // Out-of-range items rank last (largest digit in the sort direction)
      // and are never written.
      keys[u] = wbase + u * 32 < valid ? load_bits(u) : (descending ? bits_t(0) : ~bits_t(0));
    }
  }

  int ranks[vt];
  int excl[1];
  digit_of<bits_t, descending> dig{shift};
  uint64_t* lb = lookback + size_t(tile) * 256;
  const int oob = nv - valid;
  int c = 0;  // this tile's count of digit tid
  rank_t(s.rank).RankKeys(keys, ranks, dig, excl, [&](int (&bins)[1]) {
    // Early publication of this tile's per-digit counts.
    if (tid < 256) {
      c = bins[0];
      if (tid == 255) c -= oob;  // padding items all fall in the last digit
      uint64_t word = (first_tile ? kFlagInc : kFlagAgg) | mark | uint64_t(c);
      *(volatile uint64_t*)&lb[tid] = word;
    }
  });

  // Keys alone: the tile's keys go into shared memory at their ranks
  // before the look-back (the rank storage is dead once every thread has
  // its ranks), so their registers are free while a thread spins below.
  // With values the look-back comes first: the tiles after this one wait
  // on its inclusive counts, and the values' pass has 2 blocks a
  // multiprocessor to hide that wait, not 3.
  constexpr bool keys_first = ATTU_SORT_KEYS_BEFORE_LOOKBACK == 2 || (!has_vals && ATTU_SORT_KEYS_BEFORE_LOOKBACK);
  if constexpr (keys_first) {
    __syncthreads();
#pragma unroll
    for (int u = 0; u < vt; ++u) s.keys[ranks[u]] = keys[u];
  }

  // Decoupled look-back: digit tid's count over all earlier tiles.
  if (tid < 256) {
    long long before = 0;
    if (!first_tile) {
      long long t = (long long)tile - 1;
      while (true) {
        uint64_t w = *(volatile uint64_t*)&lookback[size_t(t) * 256 + tid];
        if (!written_by(w, mark)) continue;  // tile t has not published yet: spin
        before += (long long)(w & kValMask);
        if (w & kFlagInc) break;
        --t;
      }
      *(volatile uint64_t*)&lb[tid] = kFlagInc | mark | uint64_t(before + c);
    }
    s.digit_offset[tid] = int((long long)digit_start[tid] + before - excl[0]);
  }
  __syncthreads();
  if constexpr (!keys_first) {
#pragma unroll
    for (int u = 0; u < vt; ++u) s.keys[ranks[u]] = keys[u];
    __syncthreads();
  }

  // Read back in striped order: consecutive threads, consecutive sorted keys,
  // so the writes of one digit run are coalesced.
  int dest[vt];  // count < 2^31: positions fit an int
#pragma unroll
  for (int u = 0; u < vt; ++u) {
    int i = tid + u * nt;
    bits_t b = s.keys[i];
    dest[u] = s.digit_offset[dig.Digit(b)] + i;
    // keys_out_v may be null on a last pass (radix_partition moving a
    // further value column by the same keys): the keys are then not written
    if constexpr (store_split) {
      if (i < valid) {
        const uint32_t k = uint32_t(b >> 32);
        if (last)
          static_cast<key_t*>(keys_out_v)[dest[u]] = traits::from_bits(typename traits::bits_t(k));
        else
          static_cast<uint32_t*>(keys_out_v)[dest[u]] = k;
        reinterpret_cast<uint32_t*>(vals_out)[dest[u]] = uint32_t(b);
      }
    } else if (i < valid && (!last || keys_out_v)) {
      if (last)
        static_cast<out_t*>(keys_out_v)[dest[u]] = out_t(traits::from_bits(b));
      else
        static_cast<bits_t*>(keys_out_v)[dest[u]] = b;
    }
  }

  if (has_vals) {
    val_t v[vt];
#pragma unroll
    for (int u = 0; u < vt; ++u) {
      int i = wbase + u * 32;
      if (i < valid) v[u] = vals_in[base + i];
    }
    __syncthreads();  // everyone done reading s.keys
#pragma unroll
    for (int u = 0; u < vt; ++u) {
      int i = wbase + u * 32;
      if (i < valid) s.vals[ranks[u]] = v[u];
    }
    __syncthreads();
#pragma unroll
    for (int u = 0; u < vt; ++u) {
      int i = tid + u * nt;
      if (i < valid) vals_out[dest[u]] = s.vals[i];
    }
  }
}

// Scratch comes from the context's stream-ordered pool.
template <typename context_t>
inline void* sort_alloc(size_t bytes, context_t& ctx) {
  return ctx.alloc(bytes);
}
template <typename context_t>
inline void sort_free(void* p, context_t& ctx) {
  ctx.free(p);
}

// How 32-bit keys with 4-byte values sort (sort_pack): 0 apart (keys,
// then values, through the tile: 0.93x of DeviceRadixSort at 64M), 1 packed
// with the scratch of the unpacked sort (passes alternate between the
// caller's arrays and one packed array: 0.99x), 2 (the default) packed
// with a second scratch array, 8 bytes an item more (the middle passes
// read and write packed items only: 1.05x). ATTU_SORT_PACK_PAIRS sets it
// for A/B runs; tests set it to cover every path.
inline int& sort_pack_pairs() {
  static int mode = [] {
    const char* e = getenv("ATTU_SORT_PACK_PAIRS");
    return e && *e ? atoi(e) : 2;
  }();
  return mode;
}

// Launches one onesweep pass. A kernel whose tile needs more than the
// static 48 KB of shared memory is allowed its dynamic size once per device
// (the first 64), at its first launch there, not at every launch.
template <typename shape, auto kernel, typename... args_t>
void sort_launch_pass(int grid, cudaStream_t st, args_t... args) {
  if constexpr (shape::dyn_smem > 0) {
    static std::atomic<uint64_t> allowed{0};
    int dev = 0;
    ATTU_CUDA_CHECK(cudaGetDevice(&dev));
    const uint64_t bit = dev < 64 ? uint64_t(1) << dev : 0;
    if (!bit || !(allowed.load(std::memory_order_relaxed) & bit)) {
      ATTU_CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, int(shape::dyn_smem)));
      allowed.fetch_or(bit, std::memory_order_relaxed);
    }
  }
  kernel<<<grid, shape::L::nt, shape::dyn_smem, st>>>(args...);
  ATTU_CUDA_CHECK_LAUNCH();
}

// The passes of a packed pair sort (sort_pack). With packed2 (mode 2): the
// first pass from the caller's keys / vals to packed items, the middle ones
// between packed and packed2, the last back to the caller's. Without it
// (mode 1): even passes from the caller's arrays to packed, odd passes
// back. npasses is even, so the last pass is odd and ends in the caller's.
// Segmented (segmented_radix_sort.cuh): tiles as sort_seg_tiles says, grid
// their upper bound.
template <bool descending, typename key_t, typename val_t, bool segmented>
void sort_packed_passes(key_t* keys, val_t* vals, uint64_t* packed, uint64_t* packed2, int npasses, size_t count,
                        int grid, const unsigned long long* hist, uint64_t* lb, unsigned int* ctr,
                        sort_seg_tiles tiles, cudaStream_t st) {
  using S1 = sort_kernel_shape<key_t, val_t, false, pack_split_to_packed>;
  using S2 = sort_kernel_shape<key_t, val_t, false, pack_packed_to_split>;
  using S3 = sort_kernel_shape<key_t, val_t, false, pack_packed>;
  uint64_t* pin = packed;
  for (int p = 0; p < npasses; ++p) {
    const unsigned long long* ds = hist + p * 256;
    unsigned int* c = ctr + p;
    const int sh = 32 + 8 * p;
    const uint64_t mk = pass_mark(p);
    if (p == 0)
      sort_launch_pass<S1, sort_onesweep_kernel<key_t, val_t, false, descending, true, false, key_t, key_t, segmented, pack_split_to_packed>>(
                           grid, st, (const void*)keys, (void*)packed, (const val_t*)vals, (val_t*)nullptr, count, sh, ds, lb, mk, c, 0LL, tiles);
    else if (p == npasses - 1)
      sort_launch_pass<S2, sort_onesweep_kernel<key_t, val_t, false, descending, false, true, key_t, key_t, segmented, pack_packed_to_split>>(
                           grid, st, (const void*)pin, (void*)keys, (const val_t*)nullptr, vals, count, sh, ds, lb, mk, c, 0LL, tiles);
    else if (packed2) {
      uint64_t* pout = pin == packed ? packed2 : packed;
      sort_launch_pass<S3, sort_onesweep_kernel<key_t, val_t, false, descending, false, false, key_t, key_t, segmented, pack_packed>>(
                           grid, st, (const void*)pin, (void*)pout, (const val_t*)nullptr, (val_t*)nullptr, count, sh, ds, lb, mk, c, 0LL, tiles);
      pin = pout;
    } else if (p % 2 == 0)
      sort_launch_pass<S1, sort_onesweep_kernel<key_t, val_t, false, descending, false, false, key_t, key_t, segmented, pack_split_to_packed>>(
                           grid, st, (const void*)keys, (void*)packed, (const val_t*)vals, (val_t*)nullptr, count, sh, ds, lb, mk, c, 0LL, tiles);
    else
      sort_launch_pass<S2, sort_onesweep_kernel<key_t, val_t, false, descending, false, false, key_t, key_t, segmented, pack_packed_to_split>>(
                           grid, st, (const void*)packed, (void*)keys, (const val_t*)nullptr, vals, count, sh, ds, lb, mk, c, 0LL, tiles);
  }
}

// Allocates a sort's scratch of `bytes`, plus `extra` for a second packed
// array where the device has room for it; *with_extra says which it got.
template <typename context_t>
inline char* sort_alloc_packed(size_t bytes, size_t extra, bool* with_extra, context_t& ctx) {
  *with_extra = false;
  if (extra) {
    try {
      char* m = (char*)sort_alloc(bytes + extra, ctx);
      *with_extra = true;
      return m;
    } catch (const cuda_error& e) {
      if (e.code != cudaErrorMemoryAllocation) throw;
    }
  }
  return (char*)sort_alloc(bytes, ctx);
}

template <bool descending, typename key_t, typename val_t, bool has_vals, typename context_t>
void radix_sort_impl(key_t* keys, val_t* vals, size_t count, context_t& ctx, int end_bit) {
  using traits = sort_key_traits<key_t>;
  using bits_t = typename traits::bits_t;
  using L = sort_launch<bits_t, val_t, has_vals>;
  static_assert(sizeof(key_t) == sizeof(bits_t), "key and its bits have one size");
  if (count < 2) return;
  // The passes over the digits below end_bit (an even number of them, so
  // the result lands back in keys / vals): the caller vouches that every
  // key's order-preserving bits agree above it.
  int npasses = (end_bit + L::radix_bits - 1) / L::radix_bits;
  npasses = std::max(2, std::min(L::passes, npasses + (npasses & 1)));
  cudaStream_t st = ctx.stream();
  const size_t tiles = (count + L::nv - 1) / L::nv;
  if (count > 0x7fffffffull) throw std::runtime_error("radix_sort: more than 2^31-1 items");

  // One allocation: histograms, tile counters, look-back words, ping-pong keys
  // and values.
  size_t hist_bytes = L::passes * 256 * sizeof(unsigned long long);
  size_t ctr_bytes = 64 * sizeof(unsigned int);
  // every pass's, marked by pass (packed pairs take smaller tiles: more)
  constexpr bool can_pack = has_vals && sizeof(bits_t) == 4 && sizeof(val_t) == 4;
  const size_t lb_tiles = !can_pack ? tiles : std::max(tiles, (count + sort_kernel_shape<key_t, val_t, false, pack_split_to_packed>::L::nv - 1) /
                                              sort_kernel_shape<key_t, val_t, false, pack_split_to_packed>::L::nv);
  size_t lb_bytes = lb_tiles * 256 * sizeof(uint64_t);
  size_t key_bytes = (count * sizeof(bits_t) + 255) & ~size_t(255);
  size_t val_bytes = has_vals ? (count * sizeof(val_t) + 255) & ~size_t(255) : 0;
  size_t head = (hist_bytes + ctr_bytes + 255) & ~size_t(255);
  // Packed pairs take a second scratch array where the device has room for
  // it, else alternate with the caller's arrays (mode 1).
  // (Two passes have no middle pass to use it.)
  int pack_mode = can_pack ? sort_pack_pairs() : 0;
  if (pack_mode == 2 && npasses <= 2) pack_mode = 1;
  bool second = false;
  char* mem = sort_alloc_packed(head + lb_bytes + key_bytes + val_bytes,
                                pack_mode == 2 ? count * sizeof(uint64_t) : 0, &second, ctx);
  if (pack_mode == 2 && !second) pack_mode = 1;
  unsigned long long* hist = (unsigned long long*)mem;
  unsigned int* ctr = (unsigned int*)(mem + hist_bytes);
  uint64_t* lb = (uint64_t*)(mem + head);
  bits_t* tmp_keys = (bits_t*)(mem + head + lb_bytes);
  val_t* tmp_vals = has_vals ? (val_t*)(mem + head + lb_bytes + key_bytes) : nullptr;

  // Clears the histograms, tile counters and the look-back words (once:
  // each pass marks its words with its number).
  ATTU_CUDA_CHECK(cudaMemsetAsync(mem, 0, head + lb_bytes, st));
  int hist_blocks = int(tiles < 132 * 8 ? tiles : 132 * 8);
  sort_histogram_kernel<key_t, descending, 512><<<hist_blocks, 512, 0, st>>>(keys, count, hist);
  ATTU_CUDA_CHECK_LAUNCH();
  sort_scan_kernel<<<L::passes, 256, 0, st>>>(hist);
  ATTU_CUDA_CHECK_LAUNCH();

  if constexpr (can_pack) {
    if (pack_mode != 0) {
      // tmp_keys and tmp_vals are one run of count * 8 bytes
      uint64_t* packed2 = pack_mode == 2 ? reinterpret_cast<uint64_t*>(mem + head + lb_bytes + key_bytes + val_bytes) : nullptr;
      const int pgrid = int((count + sort_launch_packed::nv - 1) / sort_launch_packed::nv);
      sort_packed_passes<descending, key_t, val_t, false>(keys, vals, reinterpret_cast<uint64_t*>(tmp_keys), packed2,
                                                         npasses, count, pgrid, hist, lb, ctr, sort_seg_tiles{}, st);
      sort_free(mem, ctx);
      return;
    }
  }

  void* kin = keys;
  void* kout = tmp_keys;
  val_t* vin = vals;
  val_t* vout = tmp_vals;
  for (int p = 0; p < npasses; ++p) {
    const unsigned long long* ds = hist + p * 256;
    unsigned int* c = ctr + p;
    int grid = int(tiles);
    if (p == 0)
      sort_onesweep_kernel<key_t, val_t, has_vals, descending, true, false>
          <<<grid, L::nt, 0, st>>>(kin, kout, vin, vout, count, 8 * p, ds, lb, pass_mark(p), c);
    else if (p == npasses - 1)
      sort_onesweep_kernel<key_t, val_t, has_vals, descending, false, true>
          <<<grid, L::nt, 0, st>>>(kin, kout, vin, vout, count, 8 * p, ds, lb, pass_mark(p), c);
    else
      sort_onesweep_kernel<key_t, val_t, has_vals, descending, false, false>
          <<<grid, L::nt, 0, st>>>(kin, kout, vin, vout, count, 8 * p, ds, lb, pass_mark(p), c);
    ATTU_CUDA_CHECK_LAUNCH();
    std::swap(kin, kout);
    std::swap(vin, vout);
  }
  // An even number of passes: the result is back in keys / vals.
  sort_free(mem, ctx);
}

}  // namespace sort_detail

// Sort keys in place, ascending (comp = less_t) or descending (greater_t).
// Stable. count may be 0 or 1. end_bit: the keys' order-preserving bits
// (sort_key_traits, flipped for descending) agree above it, so only the
// digits below it are sorted (a packed image of 13 bits: two 8-bit passes
// instead of four).
template <typename key_t, typename comp_t, typename context_t>
void radix_sort(key_t* keys, size_t count, comp_t, context_t& ctx, int end_bit = 8 * sizeof(key_t)) {
  constexpr int dir = sort_direction<comp_t>::value;
  static_assert(dir != 0, "radix_sort: comp must be attu::less_t or attu::greater_t");
  sort_detail::radix_sort_impl<(dir < 0), key_t, int, false>(keys, (int*)nullptr, count, ctx, end_bit);
}

// Sort key-value pairs in place by key. Stable: equal keys keep the order of
// their values. end_bit as above.
template <typename key_t, typename val_t, typename comp_t, typename context_t>
void radix_sort(key_t* keys, val_t* vals, size_t count, comp_t, context_t& ctx, int end_bit = 8 * sizeof(key_t)) {
  constexpr int dir = sort_direction<comp_t>::value;
  static_assert(dir != 0, "radix_sort: comp must be attu::less_t or attu::greater_t");
  sort_detail::radix_sort_impl<(dir < 0), key_t, val_t, true>(keys, vals, count, ctx, end_bit);
}

}  // namespace gpu
}  // namespace attu
