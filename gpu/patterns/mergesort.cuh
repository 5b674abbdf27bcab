// mergesort.cuh: comparison sort of keys or key-value pairs, in place,
// stable, for any strict weak order comp(x, y) meaning x < y.
//
// Blocks sort tiles of nv items with CUB's BlockMergeSort (keys alone, or
// keys with their values), then merge rounds (merge.cuh jobs) double the
// sorted runs, ping-ponging between the array and a temporary, until one
// run remains. segmented_sort with no segment descriptor (the whole array
// one segment) is this sort. For keys with a bit order (integers, floats
// under less_t / greater_t) radix_sort (sort.cuh) is faster; mergesort is
// for every other order (compound keys, collations, user comparators).
#pragma once

#include "gpu/patterns/merge.cuh"
#include "gpu/patterns/sort.cuh"
#include "gpu/patterns/tile.cuh"

#include <cub/block/block_merge_sort.cuh>

#include <type_traits>
#include <utility>

namespace attu {
namespace gpu {

// Block tiles: an odd vt, so that the staging of a tile between its striped
// (coalesced) and blocked (one thread's vt consecutive items) layouts hits
// distinct shared-memory banks; the tile (keys and values) fits 48 KB.
// minb: blocks a multiprocessor the register budget is cut for; vt4: items
// a thread for keys of 4 bytes (bench_sort builds with
// -DATTU_MERGESORT_MINB=N -DATTU_MERGESORT_VT4=V tune them).
#ifndef ATTU_MERGESORT_MINB
#define ATTU_MERGESORT_MINB 4
#endif
#ifndef ATTU_MERGESORT_VT4
#define ATTU_MERGESORT_VT4 17
#endif
template <typename key_t>
struct mergesort_launch {
  static constexpr int nt = 256;
  static constexpr int vt = sizeof(key_t) <= 4 ? ATTU_MERGESORT_VT4 : sizeof(key_t) <= 8 ? 11 : 3;
  static constexpr int nv = nt * vt;
  static constexpr int minb = ATTU_MERGESORT_MINB;
};

namespace mergesort_detail {

// Sorts tile blockIdx.x ([k * nv, k * nv + nv) of the array) from (keys,
// vals) into the same positions of (out_keys, out_vals), which may be the
// same arrays. With gen_indices the values are generated: each key's
// original position.
template <typename key_t, typename val_t, bool has_vals, bool gen_indices, typename comp_t>
__global__ void __launch_bounds__(256, mergesort_launch<key_t>::minb)
mergesort_block_kernel(const key_t* keys, const val_t* vals, key_t* out_keys, val_t* out_vals,
                       long long count, comp_t comp) {
  using L = mergesort_launch<key_t>;
  constexpr int nt = L::nt, vt = L::vt, nv = L::nv;
  using item_t = std::conditional_t<has_vals, val_t, cub::NullType>;
  using sort_t = cub::BlockMergeSort<key_t, nt, vt, item_t>;
  __shared__ union {
    typename sort_t::TempStorage sort;
    key_t keys[nv];
    val_t vals[has_vals ? nv : 1];
  } s;

  const int tid = threadIdx.x;
  const long long lo = (long long)blockIdx.x * nv;
  const int len = int(count - lo < nv ? count - lo : nv);

  // Striped loads (all in flight before the first shared store), then each
  // thread takes its vt consecutive items.
  key_t k[vt];
  item_t v[vt];
  load_to_shared<nt, vt>(keys + lo, tid, len, s.keys);
  __syncthreads();
  shared_to_blocked(s.keys, tid, len, k);
  if constexpr (has_vals) {
    if constexpr (gen_indices) {
#pragma unroll
      for (int u = 0; u < vt; ++u) v[u] = val_t(lo + tid * vt + u);
    } else {
      __syncthreads();  // the keys' blocked reads are done
      load_to_shared<nt, vt>(vals + lo, tid, len, s.vals);
      __syncthreads();
      shared_to_blocked(s.vals, tid, len, v);
    }
  }
  __syncthreads();  // the staging area becomes the sort's storage

  // A partial tile: CUB pads each thread's missing items with its largest
  // valid key, seeded by oob_default; seeding with the thread's own first
  // key keeps the padding after its valid items for any comparator (the
  // sort is stable, and the padding never enters the merges).
  if (len == nv) {
    if constexpr (has_vals) sort_t(s.sort).StableSort(k, v, comp);
    else sort_t(s.sort).StableSort(k, comp);
  } else {
    if constexpr (has_vals) sort_t(s.sort).StableSort(k, v, comp, len, k[0]);
    else sort_t(s.sort).StableSort(k, comp, len, k[0]);
  }
  __syncthreads();

  // Blocked -> striped through shared memory: coalesced stores.
  blocked_to_shared(k, tid, len, s.keys);
  __syncthreads();
  shared_to_striped_store<nt, vt>(s.keys, tid, len, out_keys + lo);
  if constexpr (has_vals) {
    __syncthreads();
    blocked_to_shared(v, tid, len, s.vals);
    __syncthreads();
    shared_to_striped_store<nt, vt>(s.vals, tid, len, out_vals + lo);
  }
}

template <typename key_t, typename val_t, bool has_vals, bool gen_indices, typename comp_t,
          typename context_t>
void mergesort_impl(key_t* keys, val_t* vals, long long count, comp_t comp, context_t& ctx) {
  using L = mergesort_launch<key_t>;
  if (count <= 0) return;
  cudaStream_t st = ctx.stream();
  long long tiles = (count + L::nv - 1) / L::nv;
  if (tiles <= 1) {
    mergesort_block_kernel<key_t, val_t, has_vals, gen_indices, comp_t>
        <<<(unsigned)tiles, L::nt, 0, st>>>(keys, vals, keys, vals, count, comp);
    ATTU_CUDA_CHECK_LAUNCH();
    return;
  }

  // Merge rounds: the first has the most jobs (one per pair of tiles).
  int max_jobs = int((tiles + 1) / 2);
  // the tile starts of every round (the first has the most: one a merge
  // tile, plus a partial one a job)
  long long max_parts = (count + merge_launch::nv - 1) / merge_launch::nv + max_jobs;
  // One allocation for the tile starts and the temporaries (each call into
  // the pool is host time the small sorts' short kernels wait behind).
  auto round_up = [](size_t b) { return (b + 255) & ~size_t(255); };
  size_t parts_bytes = round_up((size_t)max_parts * sizeof(merge_part_t));
  size_t key_bytes = round_up((size_t)count * sizeof(key_t));
  size_t val_bytes = has_vals ? round_up((size_t)count * sizeof(val_t)) : 0;
  char* mem = (char*)sort_detail::sort_alloc(parts_bytes + key_bytes + val_bytes, ctx);
  merge_part_t* parts = (merge_part_t*)mem;
  key_t* tmp_keys = (key_t*)(mem + parts_bytes);
  val_t* tmp_vals = has_vals ? (val_t*)(mem + parts_bytes + key_bytes) : nullptr;
  // The rounds ping-pong between the array and the temporary; with an odd
  // number of them the blocks write their tiles into the temporary, so the
  // last round lands in the array (no copy back).
  int rounds = 0;
  for (long long w = L::nv; w < count; w *= 2) ++rounds;
  key_t *src_k = keys, *dst_k = tmp_keys;
  val_t *src_v = vals, *dst_v = tmp_vals;
  if (rounds & 1) {
    std::swap(src_k, dst_k);
    std::swap(src_v, dst_v);
  }
  mergesort_block_kernel<key_t, val_t, has_vals, gen_indices, comp_t>
      <<<(unsigned)tiles, L::nt, 0, st>>>(keys, vals, src_k, src_v, count, comp);
  ATTU_CUDA_CHECK_LAUNCH();
  for (long long w = L::nv; w < count; w *= 2) {
    // the round's jobs, computed where they are used (merge.cuh, round_jobs_t)
    int num_jobs = int((count + 2 * w - 1) / (2 * w));
    merge_detail::round_jobs_t js{count, w, (2 * w + merge_launch::nv - 1) / merge_launch::nv, num_jobs};
    long long max_ctas = (count + merge_launch::nv - 1) / merge_launch::nv + num_jobs;
    merge_detail::run_merge_batch<key_t, val_t, has_vals>(src_k, src_v, src_k, src_v, dst_k, dst_v,
                                                          js, max_ctas, comp, ctx, false, parts);
    std::swap(src_k, dst_k);
    std::swap(src_v, dst_v);
  }
  // (the rounds' parity above: src_k is keys again here)
  sort_detail::sort_free(mem, ctx);
}

}  // namespace mergesort_detail

// Key-value sort.
template <typename key_t, typename val_t, typename comp_t, typename context_t>
void mergesort(key_t* keys, val_t* vals, long long count, comp_t comp, context_t& ctx) {
  mergesort_detail::mergesort_impl<key_t, val_t, true, false>(keys, vals, count, comp, ctx);
}

// Key-only sort.
template <typename key_t, typename comp_t, typename context_t>
void mergesort(key_t* keys, long long count, comp_t comp, context_t& ctx) {
  mergesort_detail::mergesort_impl<key_t, int, false, false>(keys, (int*)nullptr, count, comp,
                                                             ctx);
}

}  // namespace gpu
}  // namespace attu
