// segmented_sort.cuh: sort keys (and values) within each segment, in place.
//
// Segments are given by a descriptor array of start offsets (ascending;
// segments[0] is normally 0; repeated starts are empty segments; items before
// segments[0] form one more segment).
//
// Short-circuiting. The array is cut at grid points k * T (T = tile_span)
// snapped back to the start of the segment that contains them when that
// segment is short (<= S items), so that every short segment lies whole in one
// block. Each block sorts its range (<= T + S <= nv items) by the pair
// (segment within the block, key) with CUB's BlockMergeSort: every short
// segment is then finished. A long segment (> S items) is split only at grid
// points; its pieces come out of the block stage sorted, and merge rounds
// (merge.cuh jobs) fuse them pairwise, piece 2^r*odd with its left neighbours
// in round r, touching only long segments. So the more and smaller the
// segments, the fewer the rounds: with no segment over S there are none.
//
// Every item is read and written once by the block stage; a long segment of
// L items costs about log2(L / T) merge rounds over its items. The rounds
// ping-pong between the array and a temporary: each moves every item of the
// segments still merging (a trailing group without a partner is copied), and
// a segment that took an odd number of rounds is copied back once at the
// end (before, each round merged into the temporary and copied back). A block whose
// runs are all short (<= rank_max items) skips the merge sort: each item's place is
// the count of the items of its run that sort before it.
#pragma once

#include "gpu/patterns/merge.cuh"
#include "gpu/patterns/mergesort.cuh"
#include "gpu/patterns/segmented_radix_sort.cuh"
#include "gpu/patterns/sort.cuh"

#include <cub/block/block_merge_sort.cuh>
#include <cub/block/block_scan.cuh>

namespace attu {
namespace gpu {

template <typename key_t>
struct segsort_launch {
  static constexpr int nt = 256;
  // an odd vt: a thread's vt consecutive shared slots (the blocked reads
  // and writes around the block sort) fall in distinct banks
  static constexpr int vt = sizeof(key_t) <= 4 ? 15 : sizeof(key_t) <= 8 ? 9 : 4;
  static constexpr int nv = nt * vt;
  static constexpr int short_max = nv / 8;       // S: longest "short" segment
  static constexpr int tile_span = nv - short_max;  // T: grid spacing
  // A block whose runs are all this short sorts by counting ranks instead of
  // CUB's BlockMergeSort (cost: run length per item). Measured on an H100,
  // 64M pairs: runs <= 31 items, counting 2.25 ms against 6.35 ms merge
  // sort; runs <= 199, counting 6.6 ms against 5.7 ms.
  static constexpr int rank_max = 64;
};

namespace segsort_detail {

template <typename key_t>
struct item_t {
  int seg;  // segment index within the block
  key_t key;
};

template <typename key_t, typename comp_t>
struct item_comp {
  comp_t comp;
  __device__ __forceinline__ bool operator()(const item_t<key_t>& x,
                                             const item_t<key_t>& y) const {
    return x.seg < y.seg || (x.seg == y.seg && comp(x.key, y.key));
  }
};

// Segment containing position pos: [*a, *b). Items before segments[0] form a
// segment of their own.
__device__ __forceinline__ void segment_of(const int* __restrict__ segments, int num_segments,
                                           long long count, long long pos, long long* a,
                                           long long* b) {
  int lo = 0, hi = num_segments;  // first index with segments[i] > pos
  while (lo < hi) {
    int mid = (lo + hi) >> 1;
    if (segments[mid] <= pos) lo = mid + 1; else hi = mid;
  }
  int s = lo - 1;
  *a = s < 0 ? 0 : segments[s];
  *b = lo < num_segments ? segments[lo] : count;
}

__device__ __forceinline__ int lower_bound_seg(const int* __restrict__ segments,
                                               int num_segments, long long pos) {
  int lo = 0, hi = num_segments;
  while (lo < hi) {
    int mid = (lo + hi) >> 1;
    if (segments[mid] < pos) lo = mid + 1; else hi = mid;
  }
  return lo;
}

// bounds[k] for k in [0, ctas]: start of block k's range.
template <typename key_t>
__global__ void segsort_bounds_kernel(const int* __restrict__ segments, int num_segments,
                                      long long count, long long ctas,
                                      long long* __restrict__ bounds) {
  using L = segsort_launch<key_t>;
  long long k = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (k > ctas) return;
  long long pos = k * L::tile_span;
  if (k == 0 || pos >= count) { bounds[k] = k == 0 ? 0 : count; return; }
  long long a, b;
  segment_of(segments, num_segments, count, pos, &a, &b);
  bounds[k] = (b - a > L::short_max) ? pos : a;
}

// Longest long segment (0 when none), and whether any exists.
__global__ void segsort_maxlen_kernel(const int* __restrict__ segments, int num_segments,
                                      long long count, int short_max,
                                      unsigned long long* __restrict__ maxlen) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i > num_segments) return;
  long long a = i == 0 ? 0 : segments[i - 1];
  long long b = i < num_segments ? segments[i] : count;
  long long len = b - a;
  if (len > short_max) atomicMax(maxlen, (unsigned long long)len);
}

// Blocks a multiprocessor the block stage is compiled for (its register
// budget; bench_sort builds with -DATTU_SEGSORT_MINB=N tune it). Left to
// itself the compiler took 128 registers (2 blocks, 25% occupancy) and the
// short-run path waited on latency. On an H100 (session 10, 64M pairs,
// against DeviceSegmentedSort) 4 blocks (64 registers, some spilled) gave
// 1.12x / 12.4x / 2.3x / 0.67x at mean segments 16 / 100 / 1000 / 100000,
// against 0.74x / 9.4x / 1.9x / 0.62x unbounded and 0.99x ... 0.66x at 3.
#ifndef ATTU_SEGSORT_MINB
#define ATTU_SEGSORT_MINB 4
#endif

// Block stage: sorts [bounds[k], bounds[k+1]) by (segment, key).
template <typename key_t, typename val_t, bool has_vals, bool gen_indices, typename comp_t>
__global__ void __launch_bounds__(256, ATTU_SEGSORT_MINB)
segsort_block_kernel(key_t* __restrict__ keys, val_t* __restrict__ vals,
                     const int* __restrict__ segments, int num_segments,
                     const long long* __restrict__ bounds, comp_t comp) {
  using L = segsort_launch<key_t>;
  constexpr int nt = L::nt, vt = L::vt, nv = L::nv;
  using it_t = item_t<key_t>;
  using sort_t = cub::BlockMergeSort<it_t, nt, vt, val_t>;
  using scan_t = cub::BlockScan<int, nt>;
  struct stage_t {
    key_t keys[nv];
    unsigned char flags[nv];
    int starts[nv + 1];  // local segment s is [starts[s], starts[s + 1])
  };
  __shared__ union {
    typename sort_t::TempStorage sort;
    stage_t stage;
    val_t vals[nv];
  } s;
  __shared__ typename scan_t::TempStorage scan_tmp;
  __shared__ int seg_range[2];

  const int tid = threadIdx.x;
  const long long lo = bounds[blockIdx.x], hi = bounds[blockIdx.x + 1];
  const int len = int(hi - lo);
  if (len <= 1) {
    if (len == 1 && gen_indices && tid == 0) vals[lo] = val_t(lo);
    return;
  }
  if (tid == 0) seg_range[0] = lower_bound_seg(segments, num_segments, lo + 1);
  if (tid == 1) seg_range[1] = lower_bound_seg(segments, num_segments, hi);
  for (int i = tid; i < nv; i += nt) s.stage.flags[i] = 0;
  load_to_shared<nt, vt>(keys + lo, tid, len, s.stage.keys);
  __syncthreads();
  // Heads of segments that start strictly inside the range.
  for (int i = seg_range[0] + tid; i < seg_range[1]; i += nt)
    s.stage.flags[segments[i] - lo] = 1;
  __syncthreads();

  it_t items[vt];
  int count_flags = 0;
#pragma unroll
  for (int u = 0; u < vt; ++u) {
    int i = tid * vt + u;
    if (i < len) items[u].key = s.stage.keys[i];
    count_flags += s.stage.flags[i];
    items[u].seg = count_flags;  // inclusive within the thread
  }
  int prefix, num_heads;
  scan_t(scan_tmp).ExclusiveSum(count_flags, prefix, num_heads);
#pragma unroll
  for (int u = 0; u < vt; ++u) items[u].seg += prefix;

  // Where each local segment starts, and the longest one in the range.
  if (tid == 0) {
    s.stage.starts[0] = 0;
    s.stage.starts[num_heads + 1] = len;
  }
#pragma unroll
  for (int u = 0; u < vt; ++u) {
    int i = tid * vt + u;
    if (i < len && s.stage.flags[i]) s.stage.starts[items[u].seg] = i;
  }
  __syncthreads();
  int longest = 0;
#pragma unroll
  for (int u = 0; u < vt; ++u) {
    int i = tid * vt + u;
    if (i < len) {
      int sg = items[u].seg;
      int l = s.stage.starts[sg + 1] - s.stage.starts[sg];
      longest = l > longest ? l : longest;
    }
  }
  if (!__syncthreads_or(longest > L::rank_max)) {
    // Short-segment path: every run in the range has at most rank_max items,
    // so each item finds its place by counting, in shared memory, the items
    // of its run that precede it in sorted order (ties: by position, which
    // keeps the sort stable). Cost: the run's length per item, no barriers.
    val_t v[vt];
    int dest[vt];
#pragma unroll
    for (int u = 0; u < vt; ++u) {
      int i = tid * vt + u;
      if (i < len) {
        if (has_vals) v[u] = gen_indices ? val_t(lo + i) : vals[lo + i];
        int sg = items[u].seg;
        int a = s.stage.starts[sg], b = s.stage.starts[sg + 1];
        key_t k = items[u].key;
        int r = a;
        for (int j = a; j < b; ++j) {
          key_t kj = s.stage.keys[j];
          r += (comp(kj, k) || (j < i && !comp(k, kj))) ? 1 : 0;
        }
        dest[u] = r;
      }
    }
    __syncthreads();  // all reads of the staged keys (and of vals) are done
#pragma unroll
    for (int u = 0; u < vt; ++u)
      if (tid * vt + u < len) s.stage.keys[dest[u]] = items[u].key;
    __syncthreads();
    shared_to_striped_store<nt, vt>(s.stage.keys, tid, len, keys + lo);
    if (has_vals) {
      __syncthreads();
#pragma unroll
      for (int u = 0; u < vt; ++u)
        if (tid * vt + u < len) s.vals[dest[u]] = v[u];
      __syncthreads();
      shared_to_striped_store<nt, vt>(s.vals, tid, len, vals + lo);
    }
    return;
  }

  val_t v[vt];
  if (has_vals) {
    __syncthreads();
    if constexpr (gen_indices) {
#pragma unroll
      for (int u = 0; u < vt; ++u) v[u] = val_t(lo + tid * vt + u);
    } else {
      load_to_shared<nt, vt>(vals + lo, tid, len, s.vals);
      __syncthreads();
      shared_to_blocked(s.vals, tid, len, v);
    }
  }
  __syncthreads();
  it_t oob;
  oob.seg = 0x7fffffff;
  oob.key = items[0].key;
  sort_t(s.sort).StableSort(items, v, item_comp<key_t, comp_t>{comp}, len, oob);
  __syncthreads();
  // Blocked -> striped through shared memory for coalesced stores.
#pragma unroll
  for (int u = 0; u < vt; ++u) {
    int i = tid * vt + u;
    if (i < len) s.stage.keys[i] = items[u].key;
  }
  __syncthreads();
  shared_to_striped_store<nt, vt>(s.stage.keys, tid, len, keys + lo);
  if (has_vals) {
    __syncthreads();
    blocked_to_shared(v, tid, len, s.vals);
    __syncthreads();
    shared_to_striped_store<nt, vt>(s.vals, tid, len, vals + lo);
  }
}

// Pieces of a long segment [a, b): the block stage cut it at the grid
// points inside it, so piece 0 starts at a and piece q >= 1 at (m0 + q) * T.
template <typename key_t>
__device__ __forceinline__ long long segsort_pieces(long long a, long long b) {
  using L = segsort_launch<key_t>;
  return (b + L::tile_span - 1) / L::tile_span - a / L::tile_span;
}

// Rounds that merge a segment of p pieces into one run: ceil(log2 p).
__device__ __forceinline__ int segsort_rounds_of(long long p) {
  int r = 0;
  while ((1ll << r) < p) ++r;
  return r;
}

// Jobs of merge round r: one candidate per grid point m * T (m in [1, M]).
// Rounds ping-pong between the array and a temporary, so every item of a
// segment still merging moves each round: a grid point at the middle of a
// group of 2 * 2^r pieces anchors its merge; one that starts a group
// without a right half (the segment's last) anchors a copy of it.
template <typename key_t>
__global__ void segsort_round_jobs_kernel(const int* __restrict__ segments, int num_segments,
                                          long long count, int round, int num_points,
                                          merge_job_t* __restrict__ jobs,
                                          long long* __restrict__ counts) {
  using L = segsort_launch<key_t>;
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  if (j >= num_points) return;
  long long m = j + 1;
  long long x = m * L::tile_span;
  merge_job_t job{0, 0, 0, 0, 0};
  if (x < count) {
    long long a, b;
    segment_of(segments, num_segments, count, x, &a, &b);
    if (b - a > L::short_max && a < x) {
      long long m0 = a / L::tile_span;
      long long q = m - m0;  // x starts piece q of this segment (q >= 1)
      long long half = 1ll << round;
      long long pieces = segsort_pieces<key_t>(a, b);
      if ((q & (2 * half - 1)) == half) {
        long long lo = (q - half == 0) ? a : (m0 + q - half) * L::tile_span;
        long long hi = (m0 + q + half) * L::tile_span;
        if (hi > b) hi = b;
        job = merge_job_t{lo, x - lo, x, hi - x, lo};
      } else if ((q & (2 * half - 1)) == 0 && q + half >= pieces) {
        job = merge_job_t{x, b - x, x, 0, x};
      }
    }
  }
  jobs[j] = job;
  counts[j] = merge_detail::job_tiles(job);
}

// After the rounds: a long segment that took an odd number of rounds ends
// in the temporary; one copy job brings it back. Job i is segment i - 1
// ([0, segments[0]) for i = 0), i in [0, num_segments].
template <typename key_t>
__global__ void segsort_final_jobs_kernel(const int* __restrict__ segments, int num_segments,
                                          long long count, merge_job_t* __restrict__ jobs,
                                          long long* __restrict__ counts) {
  using L = segsort_launch<key_t>;
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i > num_segments) return;
  long long a = i == 0 ? 0 : segments[i - 1];
  long long b = i < num_segments ? segments[i] : count;
  merge_job_t job{0, 0, 0, 0, 0};
  if (b - a > L::short_max && (segsort_rounds_of(segsort_pieces<key_t>(a, b)) & 1))
    job = merge_job_t{a, b - a, a, 0, a};
  jobs[i] = job;
  counts[i] = merge_detail::job_tiles(job);
}

template <typename key_t, typename val_t, bool has_vals, bool gen_indices, typename comp_t,
          typename context_t>
void segsort_impl(key_t* keys, val_t* vals, long long count, const int* segments,
                  int num_segments, comp_t comp, context_t& ctx) {
  using L = segsort_launch<key_t>;
  cudaStream_t st = ctx.stream();
  if (count <= 0) return;
  if constexpr (segsort_radix_eligible<key_t, comp_t>::value) {
    // Long segments: a radix pass a digit beats log2(L / T) merge rounds.
    if (segsort_radix_wanted<key_t, val_t, has_vals>(count, num_segments)) {
      segsort_radix_detail::sort_impl<(sort_direction<comp_t>::value < 0), key_t, val_t, has_vals,
                                      gen_indices>(keys, vals, count, segments, num_segments, ctx);
      return;
    }
  }
  if (num_segments == 0) {
    // One segment, the whole array: mergesort's keys-only tiles (no
    // segment numbers to carry) and merge rounds over every item.
    mergesort_detail::mergesort_impl<key_t, val_t, has_vals, gen_indices>(keys, vals, count,
                                                                          comp, ctx);
    return;
  }
  long long ctas = (count + L::tile_span - 1) / L::tile_span;
  int num_points = int(ctas - 1);  // interior grid points
  size_t bounds_bytes = ((ctas + 1) * sizeof(long long) + 255) & ~size_t(255);
  size_t jobs_bytes = ((size_t)(num_points > 0 ? num_points : 1) * sizeof(merge_job_t) + 255) & ~size_t(255);
  size_t counts_bytes = ((size_t)(num_points + 1) * sizeof(long long) + 255) & ~size_t(255);
  char* mem = (char*)sort_detail::sort_alloc(bounds_bytes + jobs_bytes + counts_bytes + 256, ctx);
  long long* bounds = (long long*)mem;
  merge_job_t* jobs = (merge_job_t*)(mem + bounds_bytes);
  long long* counts = (long long*)(mem + bounds_bytes + jobs_bytes);
  unsigned long long* maxlen = (unsigned long long*)(mem + bounds_bytes + jobs_bytes + counts_bytes);

  segsort_bounds_kernel<key_t><<<int((ctas + 1 + 255) / 256), 256, 0, st>>>(
      segments, num_segments, count, ctas, bounds);
  ATTU_CUDA_CHECK_LAUNCH();
  segsort_block_kernel<key_t, val_t, has_vals, gen_indices, comp_t>
      <<<int(ctas), L::nt, 0, st>>>(keys, vals, segments, num_segments, bounds, comp);
  ATTU_CUDA_CHECK_LAUNCH();

  if (num_points > 0) {
    ATTU_CUDA_CHECK(cudaMemsetAsync(maxlen, 0, sizeof *maxlen, st));
    segsort_maxlen_kernel<<<(num_segments + 1 + 255) / 256, 256, 0, st>>>(
        segments, num_segments, count, L::short_max, maxlen);
    ATTU_CUDA_CHECK_LAUNCH();
    unsigned long long host_max = 0;
    ATTU_CUDA_CHECK(cudaMemcpyAsync(&host_max, maxlen, sizeof host_max,
                                   cudaMemcpyDeviceToHost, st));
    ATTU_CUDA_CHECK(cudaStreamSynchronize(st));
    if (host_max > (unsigned long long)L::short_max) {
      // Pieces of the longest segment: at most ceil(len / T) + 1.
      long long pieces = (long long)((host_max + L::tile_span - 1) / L::tile_span) + 1;
      int rounds = 0;
      while ((1ll << rounds) < pieces) ++rounds;
      key_t* tmp_keys = (key_t*)sort_detail::sort_alloc(count * sizeof(key_t), ctx);
      val_t* tmp_vals = has_vals ? (val_t*)sort_detail::sort_alloc(count * sizeof(val_t), ctx)
                                 : nullptr;
      long long max_ctas = (count + merge_launch::nv - 1) / merge_launch::nv + num_points + 1;
      for (int r = 0; r < rounds; ++r) {
        segsort_round_jobs_kernel<key_t><<<(num_points + 255) / 256, 256, 0, st>>>(
            segments, num_segments, count, r, num_points, jobs, counts);
        ATTU_CUDA_CHECK_LAUNCH();
        key_t* src_k = r % 2 ? tmp_keys : keys;
        val_t* src_v = r % 2 ? tmp_vals : vals;
        merge_detail::run_merge_jobs<key_t, val_t, has_vals>(
            src_k, src_v, src_k, src_v, r % 2 ? keys : tmp_keys, r % 2 ? vals : tmp_vals, jobs,
            counts, num_points, max_ctas, comp, ctx, false);
      }
      // Segments that took an odd number of rounds are in the temporary.
      int num_final = num_segments + 1;
      size_t fj_bytes = ((size_t)num_final * sizeof(merge_job_t) + 255) & ~size_t(255);
      char* fmem = (char*)sort_detail::sort_alloc(fj_bytes + (size_t)(num_final + 1) * sizeof(long long), ctx);
      merge_job_t* fjobs = (merge_job_t*)fmem;
      long long* fcounts = (long long*)(fmem + fj_bytes);
      segsort_final_jobs_kernel<key_t><<<(num_final + 255) / 256, 256, 0, st>>>(
          segments, num_segments, count, fjobs, fcounts);
      ATTU_CUDA_CHECK_LAUNCH();
      merge_detail::run_merge_jobs<key_t, val_t, has_vals>(
          tmp_keys, tmp_vals, tmp_keys, tmp_vals, keys, vals, fjobs, fcounts, num_final,
          (count + merge_launch::nv - 1) / merge_launch::nv + num_final, comp, ctx, false);
      sort_detail::sort_free(fmem, ctx);
      sort_detail::sort_free(tmp_keys, ctx);
      if (has_vals) sort_detail::sort_free(tmp_vals, ctx);
    }
  }
  sort_detail::sort_free(mem, ctx);
}

}  // namespace segsort_detail

// Key-value segmented sort, in place. comp(x, y) is x < y. Stable.
template <typename key_t, typename val_t, typename comp_t, typename context_t>
void segmented_sort(key_t* keys, val_t* vals, long long count, const int* segments,
                    int num_segments, comp_t comp, context_t& ctx) {
  segsort_detail::segsort_impl<key_t, val_t, true, false>(keys, vals, count, segments,
                                                          num_segments, comp, ctx);
}

// Key-value segmented sort whose values are generated: on return indices[i]
// is the original position of the key now at i (its gather index).
template <typename key_t, typename comp_t, typename context_t>
void segmented_sort_indices(key_t* keys, int* indices, long long count, const int* segments,
                            int num_segments, comp_t comp, context_t& ctx) {
  segsort_detail::segsort_impl<key_t, int, true, true>(keys, indices, count, segments,
                                                       num_segments, comp, ctx);
}

// Key-only segmented sort.
template <typename key_t, typename comp_t, typename context_t>
void segmented_sort(key_t* keys, long long count, const int* segments, int num_segments,
                    comp_t comp, context_t& ctx) {
  segsort_detail::segsort_impl<key_t, int, false, false>(keys, (int*)nullptr, count, segments,
                                                         num_segments, comp, ctx);
}

}  // namespace gpu
}  // namespace attu
