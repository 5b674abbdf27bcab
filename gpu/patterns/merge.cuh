// merge.cuh: stable merge of two sorted sequences by merge path, for keys or
// key-value pairs, and the batched "merge jobs" machinery that mergesort and
// segmented_sort use for their merge rounds.
//
// A merge job merges A = a[a_begin, a_begin + a_count) with
// B = b[b_begin, b_begin + b_count) into c[c_begin, c_begin + a_count + b_count).
// Each job is cut into tiles of nv outputs. One thread per tile finds where
// the tile's first and last output diagonals cross the merge path
// (merge_partition_kernel); a block then loads its slice of A and B into shared
// memory (values beside their keys), each thread finds its own vt outputs by a
// second, short merge-path search and merges them serially
// (merge_jobs_kernel); outputs leave through shared memory, coalesced.
//
// Stability: on equal keys A's element goes first (merge path with
// "lower bound" semantics), and within A and within B the order is kept.
#pragma once

#include "gpu/patterns/search.cuh"
#include "gpu/patterns/sort.cuh"

#include <cub/device/device_scan.cuh>

namespace attu {
namespace gpu {

struct merge_job_t {
  long long a_begin, a_count, b_begin, b_count, c_begin;
};

// A tile's start: one merge-path search a tile boundary. The tile ends
// where the next tile of its job starts, or at the job's end.
struct merge_part_t {
  int job;    // which job this tile belongs to
  int a0;     // A items before the tile, relative to the job's a_begin
  int d0;     // first output diagonal of the tile, relative to the job
};

// vt is odd so that threads walking vt consecutive shared slots hit distinct
// banks (an even vt made the serial merge's reads and the blocked stores
// 8- to 16-way conflicted: the kernel waited on shared memory).
// minb: blocks a multiprocessor the register budget is cut for (bench_sort
// builds with -DATTU_MERGE_MINB=N tune it).
#ifndef ATTU_MERGE_MINB
#define ATTU_MERGE_MINB 3
#endif
// 17 items a thread, as mergesort's block tiles: a mergesort round's jobs
// (2W = 2 x 256 x 17 items and up) are then whole merge tiles, where 15 left
// a partial tile a job (395 tiles for the 1M-pair first round against 242).
// On an H100 (session 12, run 10: vt 13 / 15 / 17 at 3 blocks, 17 at 2)
// 17 beat 15 at every size: mergesort pairs 1M 0.164 -> 0.148-0.153 ms,
// 64M 6.65 -> 6.49, 256M 28.9 -> 28.2; merge pairs 256M 1.58 -> 1.56.
#ifndef ATTU_MERGE_VT
#define ATTU_MERGE_VT 17
#endif
struct merge_launch {
  static constexpr int nt = 256;
  static constexpr int vt = ATTU_MERGE_VT;
  static constexpr int nv = nt * vt;
  static constexpr int minb = ATTU_MERGE_MINB;
};

namespace merge_detail {

// Number of A items among the first `diag` outputs of the stable merge.
template <typename a_it, typename b_it, typename comp_t>
__device__ __forceinline__ long long merge_path(a_it a, long long a_count, b_it b,
                                                long long b_count, long long diag,
                                                comp_t comp) {
  long long lo = diag > b_count ? diag - b_count : 0;
  long long hi = diag < a_count ? diag : a_count;
  while (lo < hi) {
    long long mid = (lo + hi) >> 1;
    if (!comp(b[diag - 1 - mid], a[mid]))
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo;
}

// Tile index -> job index: the last job whose first tile is <= cta.
__device__ __forceinline__ int find_job(const long long* __restrict__ cta_start,
                                        int num_jobs, long long cta) {
  int lo = 0, hi = num_jobs;  // answer in [0, num_jobs)
  while (hi - lo > 1) {
    int mid = (lo + hi) >> 1;
    if (cta_start[mid] <= cta) lo = mid; else hi = mid;
  }
  return lo;
}

// Tiles per job, written beside each job by whoever builds the jobs.
__device__ __forceinline__ long long job_tiles(const merge_job_t& j) {
  long long n = j.a_count + j.b_count;
  return (n + merge_launch::nv - 1) / merge_launch::nv;
}

// Where a batch's jobs and their tiles come from (the kernels' jobs_t):
// listed_jobs_t reads them from device arrays (any batch: segmented_sort's
// long segments, a plain merge); round_jobs_t computes those of one
// mergesort round, whose jobs all have 2W items but the last, so no jobs
// array, no per-job tile counts and no scan of them exist.
struct listed_jobs_t {
  const merge_job_t* jobs;
  const long long* cta_start;  // num_jobs + 1 entries: each job's first tile, then the total
  int num_jobs;
  __device__ __forceinline__ long long total() const { return cta_start[num_jobs]; }
  __device__ __forceinline__ int find(long long cta) const { return find_job(cta_start, num_jobs, cta); }
  __device__ __forceinline__ merge_job_t job(int j) const { return jobs[j]; }
  __device__ __forceinline__ long long start(int j) const { return cta_start[j]; }
};

// The one job of a plain two-array merge.
struct single_job_t {
  long long a_count, b_count;
  int num_jobs;  // 1
  __device__ __forceinline__ merge_job_t job(int) const { return merge_job_t{0, a_count, 0, b_count, 0}; }
  __device__ __forceinline__ long long total() const { return job_tiles(job(0)); }
  __device__ __forceinline__ int find(long long) const { return 0; }
  __device__ __forceinline__ long long start(int) const { return 0; }
};

struct round_jobs_t {
  long long count, width;  // job j merges [2jW, (2j+1)W) and [(2j+1)W, (2j+2)W) of count items
  long long per_job;       // tiles of a job of 2W items
  int num_jobs;
  __device__ __forceinline__ merge_job_t job(int j) const {
    long long lo = (long long)j * 2 * width;
    long long mid = lo + width < count ? lo + width : count;
    long long hi = lo + 2 * width < count ? lo + 2 * width : count;
    return merge_job_t{lo, mid - lo, mid, hi - mid, lo};
  }
  __device__ __forceinline__ long long total() const {
    return (long long)(num_jobs - 1) * per_job + job_tiles(job(num_jobs - 1));
  }
  __device__ __forceinline__ int find(long long cta) const {
    long long j = cta / per_job;
    return int(j < num_jobs - 1 ? j : num_jobs - 1);
  }
  __device__ __forceinline__ long long start(int j) const { return (long long)j * per_job; }
};

template <typename key_t, typename jobs_t, typename comp_t>
__global__ void __launch_bounds__(256)
merge_partition_kernel(const key_t* __restrict__ a, const key_t* __restrict__ b, jobs_t js,
                       long long max_ctas, merge_part_t* __restrict__ parts, comp_t comp,
                       bool per_warp) {
  // a warp (few tiles: warp_partition_point) or a thread a tile start
  long long gid = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  long long cta = per_warp ? gid / 32 : gid;
  if (cta >= max_ctas || cta >= js.total()) return;
  int j = js.find(cta);
  merge_job_t job = js.job(j);
  long long d0 = (cta - js.start(j)) * merge_launch::nv;
  const key_t* A = a + job.a_begin;
  const key_t* B = b + job.b_begin;
  long long a0;
  if (per_warp) {
    long long lo = d0 > job.b_count ? d0 - job.b_count : 0;
    long long hi = d0 < job.a_count ? d0 : job.a_count;
    a0 = warp_partition_point(lo, hi, [&](long long m) { return !comp(B[d0 - 1 - m], A[m]); });
  } else {
    a0 = merge_path(A, job.a_count, B, job.b_count, d0, comp);
  }
  if (!per_warp || (threadIdx.x & 31) == 0) {
    merge_part_t p;
    p.job = j;
    p.a0 = int(a0);
    p.d0 = int(d0);
    parts[cta] = p;
  }
}

// A merge tile's shared memory: its keys, then (aligned) its values.
template <typename key_t>
constexpr size_t merge_keys_bytes() {
  return ((size_t)merge_launch::nv * sizeof(key_t) + 15) & ~size_t(15);
}
template <typename key_t, typename val_t, bool has_vals>
constexpr size_t merge_smem_bytes() {
  return merge_keys_bytes<key_t>() + (has_vals ? (size_t)merge_launch::nv * sizeof(val_t) : 0);
}

template <typename key_t, typename val_t, bool has_vals, typename jobs_t, typename comp_t>
__global__ void __launch_bounds__(merge_launch::nt, merge_launch::minb)
merge_jobs_kernel(const key_t* __restrict__ a_keys, const val_t* __restrict__ a_vals,
                  const key_t* __restrict__ b_keys, const val_t* __restrict__ b_vals,
                  key_t* __restrict__ c_keys, val_t* __restrict__ c_vals, jobs_t js,
                  const merge_part_t* __restrict__ parts, comp_t comp) {
  constexpr int nt = merge_launch::nt, vt = merge_launch::vt, nv = merge_launch::nv;
  static_assert(sizeof(key_t) + (has_vals ? sizeof(val_t) : 0) <= 12,
                "merge tiles hold 4352 keys (+ values) in shared memory: key + value <= 12 "
                "bytes; sort wider records by index");
  // Dynamic shared memory: 12-byte records take 52 KB a tile, past the 48 KB
  // of static arrays (run_merge_batch opts in).
  extern __shared__ __align__(16) unsigned char merge_smem[];
  key_t* s_keys = reinterpret_cast<key_t*>(merge_smem);
  val_t* s_vals = reinterpret_cast<val_t*>(merge_smem + merge_keys_bytes<key_t>());
  long long total = js.total();
  for (long long cta = blockIdx.x; cta < total; cta += gridDim.x) {
    merge_part_t p = parts[cta];
    merge_job_t job = js.job(p.job);
    long long n = job.a_count + job.b_count;
    int d1 = int((long long)p.d0 + nv < n ? p.d0 + nv : n);
    // the tile's end: the next tile's start in the same job, else the job's end
    int a1 = int(job.a_count);
    if (d1 < n) a1 = parts[cta + 1].a0;
    int b0 = p.d0 - p.a0, b1 = d1 - a1;
    int a_len = a1 - p.a0, b_len = b1 - b0, len = a_len + b_len;
    const key_t* A = a_keys + job.a_begin + p.a0;
    const key_t* B = b_keys + job.b_begin + b0;
    const val_t* AV = has_vals ? a_vals + job.a_begin + p.a0 : nullptr;
    const val_t* BV = has_vals ? b_vals + job.b_begin + b0 : nullptr;
    // The tile's A slice then its B slice, keys and values alike, so a merged
    // output finds its value in shared memory by its source index. Every
    // load of the tile is issued before the first shared store: vt loads in
    // flight a thread instead of one.
    {
      key_t k[vt];
      val_t v[has_vals ? vt : 1];
#pragma unroll
      for (int u = 0; u < vt; ++u) {
        int i = threadIdx.x + u * nt;
        if (i < len) {
          k[u] = i < a_len ? A[i] : B[i - a_len];
          if (has_vals) v[u] = i < a_len ? AV[i] : BV[i - a_len];
        }
      }
#pragma unroll
      for (int u = 0; u < vt; ++u) {
        int i = threadIdx.x + u * nt;
        if (i < len) {
          s_keys[i] = k[u];
          if (has_vals) s_vals[i] = v[u];
        }
      }
    }
    __syncthreads();

    // This thread's outputs: [diag, diag + vt) of the tile. vt is odd, so
    // the blocked accesses below (thread t at t * vt + u) fall in distinct
    // banks.
    int diag = threadIdx.x * vt < len ? threadIdx.x * vt : len;
    int ai = int(merge_path(s_keys, a_len, s_keys + a_len, b_len, diag, comp));
    int bi = a_len + diag - ai;
    key_t out[vt];
    val_t vout[has_vals ? vt : 1];
    key_t ak = s_keys[ai < a_len ? ai : 0], bk = s_keys[bi < len ? bi : 0];
#pragma unroll
    for (int u = 0; u < vt; ++u) {
      bool take_a = bi >= len || (ai < a_len && !comp(bk, ak));
      out[u] = take_a ? ak : bk;
      if (has_vals) vout[u] = s_vals[take_a ? ai : (bi < len ? bi : 0)];
      if (take_a) { ++ai; if (ai < a_len) ak = s_keys[ai]; }
      else { ++bi; if (bi < len) bk = s_keys[bi]; }
    }
    __syncthreads();
#pragma unroll
    for (int u = 0; u < vt; ++u) {
      int o = threadIdx.x * vt + u;
      if (o < len) {
        s_keys[o] = out[u];
        if (has_vals) s_vals[o] = vout[u];
      }
    }
    __syncthreads();
    key_t* C = c_keys + job.c_begin + p.d0;
#pragma unroll
    for (int u = 0; u < vt; ++u) {
      int i = threadIdx.x + u * nt;
      if (i < len) {
        C[i] = s_keys[i];
        if (has_vals) c_vals[job.c_begin + p.d0 + i] = s_vals[i];
      }
    }
    __syncthreads();
  }
}

// Copies each tile's outputs from tmp back to data (same positions).
template <typename key_t, typename val_t, bool has_vals, typename jobs_t>
__global__ void __launch_bounds__(256)
merge_copy_back_kernel(const key_t* __restrict__ tmp_keys, const val_t* __restrict__ tmp_vals,
                       key_t* __restrict__ keys, val_t* __restrict__ vals, jobs_t js,
                       const merge_part_t* __restrict__ parts) {
  constexpr int nv = merge_launch::nv;
  long long total = js.total();
  for (long long cta = blockIdx.x; cta < total; cta += gridDim.x) {
    merge_part_t p = parts[cta];
    merge_job_t job = js.job(p.job);
    long long n = job.a_count + job.b_count;
    long long d1 = (long long)p.d0 + nv < n ? p.d0 + nv : n;
    long long base = job.c_begin + p.d0;
    int len = int(d1 - p.d0);
    for (int i = threadIdx.x; i < len; i += blockDim.x) {
      keys[base + i] = tmp_keys[base + i];
      if (has_vals) vals[base + i] = tmp_vals[base + i];
    }
  }
}

// Runs a batch of jobs (jobs_t: listed_jobs_t or round_jobs_t) of at most
// max_ctas tiles: one merge-path search a tile boundary, then the tiles. If
// copy_back, outputs go to c first and are then copied into (a_keys,
// a_vals) at the same positions (the jobs' inputs and outputs then share
// one index space). parts_room: max_ctas parts the caller keeps across
// calls (mergesort's rounds), else this call allocates its own.
template <typename key_t, typename val_t, bool has_vals, typename jobs_t, typename comp_t,
          typename context_t>
void run_merge_batch(const key_t* a_keys, const val_t* a_vals, const key_t* b_keys,
                     const val_t* b_vals, key_t* c_keys, val_t* c_vals, jobs_t js,
                     long long max_ctas, comp_t comp, context_t& ctx, bool copy_back,
                     merge_part_t* parts_room = nullptr) {
  if (js.num_jobs <= 0 || max_ctas <= 0) return;
  cudaStream_t st = ctx.stream();
  merge_part_t* parts = parts_room;
  if (!parts) {
    size_t parts_bytes = ((size_t)max_ctas * sizeof(merge_part_t) + 255) & ~size_t(255);
    parts = (merge_part_t*)sort_detail::sort_alloc(parts_bytes, ctx);
  }
  bool per_warp = max_ctas <= kWarpPartitionMaxPoints;
  int pgrid = int(per_warp ? (max_ctas + 7) / 8 : (max_ctas + 255) / 256);
  merge_partition_kernel<key_t, jobs_t, comp_t><<<pgrid, 256, 0, st>>>(a_keys, b_keys, js, max_ctas,
                                                                       parts, comp, per_warp);
  ATTU_CUDA_CHECK_LAUNCH();
  int grid = int(max_ctas < 65535ll * 16 ? max_ctas : 65535ll * 16);
  constexpr size_t smem = merge_smem_bytes<key_t, val_t, has_vals>();
  auto kernel = merge_jobs_kernel<key_t, val_t, has_vals, jobs_t, comp_t>;
  if constexpr (smem > 48 * 1024) {
    // every launch (a host call of about a microsecond, 12-byte records
    // only): the opt-in belongs to the device, which may have been reset
    ATTU_CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                         (int)smem));
  }
  kernel<<<grid, merge_launch::nt, smem, st>>>(a_keys, a_vals, b_keys, b_vals, c_keys, c_vals,
                                              js, parts, comp);
  ATTU_CUDA_CHECK_LAUNCH();
  if (copy_back) {
    merge_copy_back_kernel<key_t, val_t, has_vals, jobs_t><<<grid, 256, 0, st>>>(
        c_keys, c_vals, const_cast<key_t*>(a_keys), const_cast<val_t*>(a_vals), js, parts);
    ATTU_CUDA_CHECK_LAUNCH();
  }
  if (!parts_room) sort_detail::sort_free(parts, ctx);
}

// Runs a batch of jobs already on the device whose tile counts are in
// counts[0, num_jobs) (counts has num_jobs + 1 entries; the last is scratch):
// their scan gives each job's first tile, then run_merge_batch.
// max_ctas bounds the total tiles.
template <typename key_t, typename val_t, bool has_vals, typename comp_t, typename context_t>
void run_merge_jobs(const key_t* a_keys, const val_t* a_vals, const key_t* b_keys,
                    const val_t* b_vals, key_t* c_keys, val_t* c_vals,
                    const merge_job_t* jobs, long long* counts, int num_jobs,
                    long long max_ctas, comp_t comp, context_t& ctx, bool copy_back) {
  if (num_jobs <= 0 || max_ctas <= 0) return;
  cudaStream_t st = ctx.stream();
  size_t scan_bytes = 0;
  ATTU_CUDA_CHECK(cub::DeviceScan::ExclusiveSum(nullptr, scan_bytes, counts, counts,
                                               num_jobs + 1, st));
  size_t start_bytes = ((size_t)(num_jobs + 1) * sizeof(long long) + 255) & ~size_t(255);
  char* mem = (char*)sort_detail::sort_alloc(start_bytes + scan_bytes, ctx);
  long long* cta_start = (long long*)mem;
  void* scan_tmp = mem + start_bytes;
  ATTU_CUDA_CHECK(cub::DeviceScan::ExclusiveSum(scan_tmp, scan_bytes, counts, cta_start,
                                               num_jobs + 1, st));
  run_merge_batch<key_t, val_t, has_vals>(a_keys, a_vals, b_keys, b_vals, c_keys, c_vals,
                                          listed_jobs_t{jobs, cta_start, num_jobs}, max_ctas, comp,
                                          ctx, copy_back);
  sort_detail::sort_free(mem, ctx);
}

template <typename key_t, typename val_t, bool has_vals, typename comp_t, typename context_t>
void merge_impl(const key_t* a_keys, const val_t* a_vals, long long a_count,
                const key_t* b_keys, const val_t* b_vals, long long b_count, key_t* c_keys,
                val_t* c_vals, comp_t comp, context_t& ctx) {
  long long n = a_count + b_count;
  if (n == 0) return;
  long long tiles = (n + merge_launch::nv - 1) / merge_launch::nv;
  run_merge_batch<key_t, val_t, has_vals>(a_keys, a_vals, b_keys, b_vals, c_keys, c_vals,
                                          single_job_t{a_count, b_count, 1}, tiles, comp, ctx, false);
}

}  // namespace merge_detail

// Key-value merge: c = stable merge of sorted a and sorted b under comp
// (comp(x, y) is x < y). On ties a's items come first.
template <typename key_t, typename val_t, typename comp_t, typename context_t>
void merge(const key_t* a_keys, const val_t* a_vals, long long a_count, const key_t* b_keys,
           const val_t* b_vals, long long b_count, key_t* c_keys, val_t* c_vals, comp_t comp,
           context_t& ctx) {
  merge_detail::merge_impl<key_t, val_t, true>(a_keys, a_vals, a_count, b_keys, b_vals,
                                               b_count, c_keys, c_vals, comp, ctx);
}

// Key-only merge.
template <typename key_t, typename comp_t, typename context_t>
void merge(const key_t* a_keys, long long a_count, const key_t* b_keys, long long b_count,
           key_t* c_keys, comp_t comp, context_t& ctx) {
  merge_detail::merge_impl<key_t, int, false>(a_keys, (const int*)nullptr, a_count, b_keys,
                                              (const int*)nullptr, b_count, c_keys,
                                              (int*)nullptr, comp, ctx);
}

}  // namespace gpu
}  // namespace attu
