// key_count.cuh: count_keys, how many times each key of a dense range
// occurs.
//
//   counts[k] = #{ i : keys_in[i] - key_base == k },  0 <= k < nkeys
//
// Every key less the base must lie in [0, nkeys) (a join's partner rows:
// each is a row of the other side). What it is for: a sum over a join's
// pairs of a value of the side that has at most one row per key is that
// side's sum of value * count (executor_split_sum.c); its values are then
// read once, in order, instead of once a pair at random.
//
// Method. A histogram with one counter per key does not fit a
// multiprocessor's shared memory (25M keys), and global atomics on a table
// larger than the L2 are a trip to memory each. So the key range is cut
// into D runs of R = ceil(nkeys / D) keys, each small enough for one
// block's shared memory (16-bit counters, two to a word: at most
// max_window keys, 224 KB), and the keys are brought together by run in
// two kernels:
//
//  1. key_run_tile_kernel: each tile of T keys is ordered by run in shared
//     memory (a counting pass of shared atomics, a scan of the D counts, a
//     second pass placing each key at its run's cursor; the order inside
//     a run is whatever the atomics gave, which a count does not see) and
//     written back over its own place, coalesced, as each key's offset in
//     its run; the tile's count and first position of every run go to two
//     D x tiles tables, run-major.
//  2. key_run_count_kernel: one block per run reads the run's piece of
//     every tile (the tables' row of the run, then the pieces, a warp 32
//     tiles at a time, four pieces a step, the lanes along each piece),
//     counts in shared memory, then writes the run's counts out,
//     coalesced. (A first form had each lane find its item's piece by a
//     binary search of the warp's 32 lengths through shuffles: 0.33 ms
//     for 100M keys on the H100, against 0.29 ms for phase 1.)
//
// Every key is read twice and written once, with no global histogram and
// no look-back: session 17's form (a radix partition pass by the run:
// histogram, onesweep, then the count) read the keys three times, and its
// onesweep, ranking stably, moved 800 MB at 1.6 TB/s on the H100.
//
// That is the pieces form. Where the range has at most region_runs runs
// of region_max_run keys (58.7M keys), the region form runs first: phase 1
// appends each tile's piece of a run to the run's own region as 16-bit
// offsets, and phase 2 streams a region a block (see the region kernels
// below); it falls back to the pieces form on the device when a region
// fills. At 100M keys in 25M (H100, ncu): pieces 0.29 + 0.30 ms, regions
// 0.36 + 0.13 ms. In the pieces form D is a
// multiple of the multiprocessors (whole waves of the count's one block a
// multiprocessor), at most max_runs (the tiles' pieces of a run shorten as
// D grows); a run past max_window keys (nkeys past D x max_window) is cut
// into windows, each counted by its own block reading the whole run.
// Tried and dropped: two blocks of a thread block cluster counting two
// windows of a run together through distributed shared memory (slower,
// session 17).
//
// Overflow of a 16-bit counter. A thread whose atomic add sees the counter
// at 32767 before it (so it made it 32768) takes 32768 back off with a
// second atomic and records the key in an overflow list (global, appended
// with an atomic, at most count / 32768 entries); a last kernel adds
// 32768 to the count of every key listed. Between one thread's add and
// its take-back (its next instruction) other threads may add to the same
// counter: the counter wraps only if 32768 adds to that one key land in
// between. A wrap makes the counts sum to less than count (it loses 2^16
// in its field, or carries one into the neighbour: -65535 in all), which
// the caller checks (executor_split_sum.c compares the counted pairs with
// the number of pairs); only a second take-back of the same counter
// overlapping the first across a wrap (65,535 adds to one key between
// one thread's two consecutive atomics) could borrow it back unseen.
//
// Limits: count < 2^31 and nkeys <= 2^31 - 2^16.
#pragma once

#include "gpu/patterns/context.cuh"

#include <cub/block/block_scan.cuh>

#include <stdexcept>

namespace attu {
namespace gpu {

namespace key_count_detail {

constexpr int tile_threads = 512, tile_per_thread = 32;
constexpr int tile_keys = tile_threads * tile_per_thread;   // T: 16,384 keys, 64 KB of shared memory
constexpr int max_runs = tile_threads;                      // D: one run a thread in the tile's scan
constexpr int count_threads = 1024;
constexpr unsigned int take_back = 1u << 15;   // 32768, half a counter's range
constexpr int max_window = 112 * 1024;         // counters a block: 224 KB of 16-bit ones
static_assert(max_runs == tile_threads, "the tile's scan gives each run a thread");
constexpr int region_runs = 2 * tile_threads;   // the region form: two runs a thread in the tile's scan
constexpr int region_max_run = 56 * 1024;       // its runs: 16-bit offsets, two count blocks a multiprocessor
constexpr int region_count_threads = 512;

// A key's run: j = k - base in [0, nkeys) lies in run d = j / R at offset
// j - d R. inv = floor((2^32 - 1) / R) estimates d from below by at most
// one (j < 2^31), which one comparison mends.
struct key_run_map {
  long long base;
  unsigned int run, inv;
  __device__ __forceinline__ unsigned int run_of(long long k, unsigned int* off) const {
    const unsigned int j = (unsigned int)(k - base);
    unsigned int d = __umulhi(j, inv), o = j - d * run;
    if (o >= run) { ++d; o -= run; }
    *off = o;
    return d;
  }
};

// A tile's keys into registers (warp-striped: coalesced loads), each
// counted into its run's shared counter; both tile kernels start so.
template <typename in_t>
__device__ __forceinline__ void load_and_count_runs(const in_t* __restrict__ keys, size_t first, int valid,
                                                    const key_run_map& map, int* cursor,
                                                    in_t (&k)[tile_per_thread]) {
#pragma unroll
  for (int u = 0; u < tile_per_thread; ++u) {
    const int i = u * tile_threads + threadIdx.x;
    k[u] = i < valid ? keys[first + i] : in_t(0);
  }
#pragma unroll
  for (int u = 0; u < tile_per_thread; ++u) {
    unsigned int off;
    if (u * tile_threads + int(threadIdx.x) < valid) atomicAdd(&cursor[map.run_of(k[u], &off)], 1);
  }
}

// One more of key `first + local` in a window's 16-bit counters (two to a
// word), with the take-back of Method's overflow paragraph.
__device__ __forceinline__ void count_in_window(unsigned int* sh, unsigned int local, long long first,
                                                int* __restrict__ overflow, unsigned int* __restrict__ noverflow) {
  const int word = int(local >> 1), half = int(local & 1) * 16;
  const unsigned int old = atomicAdd(&sh[word], 1u << half);
  if (((old >> half) & 0xffffu) == take_back - 1) {
    atomicSub(&sh[word], take_back << half);
    overflow[atomicAdd(noverflow, 1u)] = int(first + local);
  }
}

// A window's counts [first, end) out of its counters, a word (two keys) a
// thread a step; nthreads: the block's.
__device__ __forceinline__ void write_window_counts(const unsigned int* sh, int nwords, long long first,
                                                    long long end, int* __restrict__ counts, int nthreads) {
  for (int i = threadIdx.x; i < nwords; i += nthreads) {
    const long long k = first + 2 * i;
    if (k >= end) break;
    const unsigned int c = sh[i];
    if (k + 1 < end && (reinterpret_cast<uintptr_t>(counts + k) & 7) == 0) {
      reinterpret_cast<int2*>(counts + k)[0] = make_int2(int(c & 0xffffu), int(c >> 16));
    } else {
      counts[k] = int(c & 0xffffu);
      if (k + 1 < end) counts[k + 1] = int(c >> 16);
    }
  }
}

// Phase 1: tile `blockIdx.x` of the keys ordered by run, written over its
// own place in out as offsets in the run. seg_len / seg_first: D x ntiles,
// [run * ntiles + tile]: how many of the tile's keys fall in the run and
// where (from the tile's start) they begin.
template <typename in_t>
__global__ void __launch_bounds__(tile_threads)
key_run_tile_kernel(const in_t* __restrict__ keys, size_t count, key_run_map map, int nruns,
                    int* __restrict__ out, int* __restrict__ seg_len, int* __restrict__ seg_first, int ntiles,
                    const int* __restrict__ spilled) {
  if (spilled && !*spilled) return;   // the region form counted
  using scan_t = cub::BlockScan<int, tile_threads>;
  __shared__ typename scan_t::TempStorage scan_storage;
  __shared__ int cursor[max_runs];
  extern __shared__ int placed[];   // tile_keys offsets
  const int tid = threadIdx.x, tile = blockIdx.x;
  const size_t first = size_t(tile) * tile_keys;
  const int valid = int(count - first < size_t(tile_keys) ? count - first : size_t(tile_keys));
  cursor[tid] = 0;   // tile_threads == max_runs
  __syncthreads();
  in_t k[tile_per_thread];
  load_and_count_runs(keys, first, valid, map, cursor, k);
  __syncthreads();
  const int mine = tid < nruns ? cursor[tid] : 0;
  int start;
  scan_t(scan_storage).ExclusiveSum(mine, start);
  if (tid < nruns) {
    seg_len[size_t(tid) * ntiles + tile] = mine;
    seg_first[size_t(tid) * ntiles + tile] = start;
    cursor[tid] = start;
  }
  __syncthreads();
#pragma unroll
  for (int u = 0; u < tile_per_thread; ++u) {
    if (u * tile_threads + tid < valid) {
      unsigned int off;
      const unsigned int d = map.run_of(k[u], &off);
      placed[atomicAdd(&cursor[d], 1)] = int(off);
    }
  }
  __syncthreads();
  for (int i = tid; i < valid; i += tile_threads) out[first + i] = placed[i];
}

// Phase 2: one block per (run, window of the run): the run's piece of
// every tile, counted in shared memory for the window's keys [wfirst,
// wfirst + wsize) of the run (wsize even), then written to counts.
__global__ void __launch_bounds__(count_threads)
key_run_count_kernel(const int* __restrict__ placed, const int* __restrict__ seg_len,
                     const int* __restrict__ seg_first, int ntiles, unsigned int run, int windows_per_run, int wsize,
                     int* __restrict__ counts, size_t nkeys, int* __restrict__ overflow,
                     unsigned int* __restrict__ noverflow, const int* __restrict__ spilled) {
  if (spilled && !*spilled) return;   // the region form counted
  extern __shared__ unsigned int sh[];   // wsize / 2 words
  const int d = blockIdx.x / windows_per_run, w = blockIdx.x % windows_per_run;
  const long long run_first = (long long)d * run;
  const int lo_off = w * wsize;
  if (run_first + lo_off >= (long long)nkeys || (unsigned int)lo_off >= run) return;   // the whole block
  long long end = run_first + lo_off + wsize;
  if (end > run_first + (long long)run) end = run_first + run;
  if (end > (long long)nkeys) end = (long long)nkeys;
  const long long first = run_first + lo_off;   // the window's first key
  const int nwords = wsize / 2;
  for (int i = threadIdx.x; i < nwords; i += count_threads) sh[i] = 0;
  __syncthreads();
  auto add = [&](int off) {
    const int local = off - lo_off;
    if ((unsigned int)local >= (unsigned int)wsize) return;   // another window of this run
    count_in_window(sh, (unsigned int)local, first, overflow, noverflow);
  };
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  const int* lens = seg_len + size_t(d) * ntiles;
  const int* firsts = seg_first + size_t(d) * ntiles;
  // A warp takes 32 tiles' pieces at a time (a lane reads one tile's
  // length and place), then four pieces a step: each lane loads items lane
  // and lane + 32 of each (a piece averages T / D keys, 62 at 25M keys),
  // eight loads in flight before the eight counts; longer pieces (skewed
  // keys) go on four loads at a time.
  for (int t0 = warp * 32; t0 < ntiles; t0 += (count_threads / 32) * 32) {
    const int t = t0 + lane;
    const int len = t < ntiles ? lens[t] : 0;
    const long long at = t < ntiles ? (long long)t * tile_keys + firsts[t] : 0;
    const int pieces = ntiles - t0 < 32 ? ntiles - t0 : 32;
    for (int s = 0; s < pieces; s += 4) {
      int ls[4], v[8];
      long long as[4];
#pragma unroll
      for (int q = 0; q < 4; ++q) {
        ls[q] = __shfl_sync(0xffffffffu, len, s + q);
        as[q] = __shfl_sync(0xffffffffu, at, s + q);
        v[2 * q] = lane < ls[q] ? __ldcs(placed + as[q] + lane) : -1;
        v[2 * q + 1] = lane + 32 < ls[q] ? __ldcs(placed + as[q] + lane + 32) : -1;
      }
#pragma unroll
      for (int q = 0; q < 8; ++q)
        if (v[q] >= 0) add(v[q]);
#pragma unroll
      for (int q = 0; q < 4; ++q) {
        for (int i = lane + 64; i < ls[q]; i += 4 * 32) {
          int x[4];
#pragma unroll
          for (int r = 0; r < 4; ++r) x[r] = i + r * 32 < ls[q] ? __ldcs(placed + as[q] + i + r * 32) : -1;
#pragma unroll
          for (int r = 0; r < 4; ++r)
            if (x[r] >= 0) add(x[r]);
        }
      }
    }
  }
  __syncthreads();
  write_window_counts(sh, nwords, first, end, counts, count_threads);
}

// ---- the region form (runs of at most region_max_run keys) -------------------
//
// Phase 1 again, but a tile appends its piece of each run to the run's own
// region (a global cursor a run, one atomic a tile and run) as 16-bit
// offsets, so that phase 2 streams each run's keys from one contiguous
// region, half the bytes of the pieces form's int32 offsets, instead of
// reading a piece of every tile. Regions hold cap offsets (the mean run
// with a quarter and a tile to spare); a tile whose piece does not fit
// raises *spilled and writes nothing past cap, and then the pieces form,
// launched after it in any case, runs instead (each of its kernels, and
// the region form's count, first reads *spilled and returns at once when
// it is not theirs to run): skewed keys cost the region pass, never a
// wrong count and never a read-back to the host.
template <typename in_t>
__global__ void __launch_bounds__(tile_threads)
key_run_region_kernel(const in_t* __restrict__ keys, size_t count, key_run_map map, int nruns,
                      unsigned short* __restrict__ region, unsigned int cap, unsigned int* __restrict__ fill,
                      int* __restrict__ spilled) {
  using scan_t = cub::BlockScan<int, tile_threads>;
  __shared__ typename scan_t::TempStorage scan_storage;
  __shared__ int cursor[region_runs], start_of[region_runs];
  __shared__ unsigned int region_at[region_runs];
  __shared__ int over;
  extern __shared__ unsigned int packed[];   // tile_keys: run << 16 | offset
  const int tid = threadIdx.x, tile = blockIdx.x;
  const size_t first = size_t(tile) * tile_keys;
  const int valid = int(count - first < size_t(tile_keys) ? count - first : size_t(tile_keys));
  for (int i = tid; i < region_runs; i += tile_threads) cursor[i] = 0;
  if (tid == 0) over = 0;
  __syncthreads();
  in_t k[tile_per_thread];
  load_and_count_runs(keys, first, valid, map, cursor, k);
  __syncthreads();
  // two runs a thread: their counts, their first places in the tile, their
  // places in their regions
  const int r0 = 2 * tid, r1 = 2 * tid + 1;
  const int c0 = r0 < nruns ? cursor[r0] : 0, c1 = r1 < nruns ? cursor[r1] : 0;
  int s0;
  scan_t(scan_storage).ExclusiveSum(c0 + c1, s0);
  const int rr[2] = {r0, r1}, cc[2] = {c0, c1}, ss[2] = {s0, s0 + c0};
#pragma unroll
  for (int q = 0; q < 2; ++q) {
    if (rr[q] >= nruns) continue;
    start_of[rr[q]] = ss[q];
    cursor[rr[q]] = ss[q];
    if (cc[q] > 0) {
      const unsigned int at = atomicAdd(&fill[rr[q]], (unsigned int)cc[q]);
      if (at > cap - cc[q] || cc[q] > (int)cap) over = 1;
      region_at[rr[q]] = at;
    }
  }
  __syncthreads();
  if (over) {   // the pieces form counts instead
    if (tid == 0) atomicExch(spilled, 1);
    return;
  }
#pragma unroll
  for (int u = 0; u < tile_per_thread; ++u) {
    if (u * tile_threads + tid < valid) {
      unsigned int off;
      const unsigned int d = map.run_of(k[u], &off);
      packed[atomicAdd(&cursor[d], 1)] = d << 16 | off;
    }
  }
  __syncthreads();
  for (int i = tid; i < valid; i += tile_threads) {
    const unsigned int v = packed[i], d = v >> 16;
    region[size_t(d) * cap + region_at[d] + (unsigned int)(i - start_of[d])] = (unsigned short)(v & 0xffffu);
  }
}

// Phase 2 of the region form: one block per run (two blocks a
// multiprocessor), its region streamed 16 bytes (eight offsets) a load,
// two loads in flight, counted in shared memory.
__global__ void __launch_bounds__(region_count_threads, 2)
key_run_region_count_kernel(const unsigned short* __restrict__ region, unsigned int cap,
                            const unsigned int* __restrict__ fill, const int* __restrict__ spilled,
                            unsigned int run, int* __restrict__ counts, size_t nkeys,
                            int* __restrict__ overflow, unsigned int* __restrict__ noverflow) {
  if (*spilled) return;   // the pieces form counts
  extern __shared__ unsigned int sh[];   // (run + 1) / 2 words
  const int d = blockIdx.x;
  const long long first = (long long)d * run;
  long long end = first + run;
  if (end > (long long)nkeys) end = (long long)nkeys;
  const int nwords = int((run + 1) / 2);
  for (int i = threadIdx.x; i < nwords; i += region_count_threads) sh[i] = 0;
  __syncthreads();
  auto add = [&](unsigned int local) { count_in_window(sh, local, first, overflow, noverflow); };
  const unsigned short* offs = region + size_t(d) * cap;   // 16-byte aligned: cap is a multiple of 8
  const unsigned int n = fill[d];
  const uint4* vec = reinterpret_cast<const uint4*>(offs);
  const unsigned int nvec = n / 8;
  auto add8 = [&](uint4 a) {
    add(a.x & 0xffffu); add(a.x >> 16); add(a.y & 0xffffu); add(a.y >> 16);
    add(a.z & 0xffffu); add(a.z >> 16); add(a.w & 0xffffu); add(a.w >> 16);
  };
  unsigned int v = threadIdx.x;
  for (; v + region_count_threads < nvec; v += 2 * region_count_threads) {
    const uint4 a = __ldcs(vec + v), b = __ldcs(vec + v + region_count_threads);
    add8(a);
    add8(b);
  }
  if (v < nvec) add8(__ldcs(vec + v));
  for (unsigned int i = nvec * 8 + threadIdx.x; i < n; i += region_count_threads) add(offs[i]);
  __syncthreads();
  write_window_counts(sh, nwords, first, end, counts, region_count_threads);
}

// The counts taken back: 32768 more for every key listed (a key may be
// listed several times).
__global__ void key_count_overflow_kernel(const int* __restrict__ overflow, const unsigned int* __restrict__ noverflow,
                                          int* __restrict__ counts) {
  const unsigned int n = *noverflow;
  for (unsigned int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
    atomicAdd(&counts[overflow[i]], int(take_back));
}

}  // namespace key_count_detail

// keys_in: count items, each keys_in[i] - key_base in [0, nkeys); counts:
// nkeys int32 slots, written whole. in_t: int32 or int64 keys. Scratch
// (4 bytes a key for the keys ordered by run, the tiles' tables, the
// overflow list) comes from the context's pool.
// regions_ok = false: the pieces form alone (tests, and the backend's
// ATTU_KEY_COUNT_REGIONS=0 for comparisons).
template <typename in_t, typename context_t>
void count_keys(const in_t* keys_in, long long key_base, size_t count, int* counts, size_t nkeys,
                context_t& ctx, bool regions_ok = true) {
  using namespace key_count_detail;
  if (count > 0x7fffffffull) throw std::runtime_error("count_keys: more than 2^31-1 keys");
  if (nkeys > 0x7fffffffull - 65536) throw std::runtime_error("count_keys: key range past 2^31 - 2^16");
  cudaStream_t st = ctx.stream();
  if (nkeys == 0) return;
  if (count == 0) {
    ATTU_CUDA_CHECK(cudaMemsetAsync(counts, 0, nkeys * sizeof(int), st));
    return;
  }
  const size_t sms = size_t(ctx.sm_count() > 0 ? ctx.sm_count() : 1);
  auto up = [](size_t b) { return (b + 255) & ~size_t(255); };
  const int ntiles = int((count + tile_keys - 1) / tile_keys);
  const size_t nover = count / take_back + 1;
  // The pieces form's D runs: whole waves of one block a multiprocessor,
  // each run at most max_window keys where D <= max_runs allows, never
  // more runs than keys.
  size_t nruns = (nkeys + max_window - 1) / max_window;
  nruns = (nruns + sms - 1) / sms * sms;
  if (nruns > size_t(max_runs)) nruns = max_runs;
  if (nruns > nkeys) nruns = nkeys;
  const unsigned int run = (unsigned int)((nkeys + nruns - 1) / nruns);
  nruns = (nkeys + run - 1) / run;   // no empty run at the end
  const key_run_map map{key_base, run, (unsigned int)(0xffffffffu / run)};
  const int windows_per_run = int((run + max_window - 1) / max_window);
  int wsize = int((run + windows_per_run - 1) / windows_per_run);
  wsize += wsize & 1;
  // The region form's runs: at most region_max_run keys, whole waves of
  // two blocks a multiprocessor; taken where region_runs of them cover
  // the key range.
  const bool regions = regions_ok && nkeys <= size_t(region_runs) * region_max_run;
  size_t rruns = 0, cap = 0;
  unsigned int rrun = 0;
  if (regions) {
    rruns = (nkeys + region_max_run - 1) / region_max_run;
    rruns = (rruns + 2 * sms - 1) / (2 * sms) * (2 * sms);
    if (rruns > size_t(region_runs)) rruns = region_runs;
    if (rruns > nkeys) rruns = nkeys;
    rrun = (unsigned int)((nkeys + rruns - 1) / rruns);
    rruns = (nkeys + rrun - 1) / rrun;
    cap = (count + rruns - 1) / rruns;
    cap = (cap + cap / 4 + tile_keys + 7) & ~size_t(7);
    if (cap > 0xffffffffull - tile_keys) cap = 0xffffffffull - tile_keys;
  }
  const key_run_map rmap{key_base, rrun ? rrun : 1, (unsigned int)(0xffffffffu / (rrun ? rrun : 1))};
  const size_t table = size_t(nruns) * ntiles * sizeof(int);
  const size_t keys_bytes = up(count * sizeof(int)), table_bytes = up(table);
  const size_t region_bytes = regions ? up(rruns * cap * sizeof(unsigned short)) : 0;
  const size_t head_bytes = up(256 + size_t(region_runs) * sizeof(unsigned int));   // spilled, noverflow, fill
  char* mem = (char*)ctx.alloc(head_bytes + region_bytes + keys_bytes + 2 * table_bytes + nover * sizeof(int));
  int* spilled = (int*)mem;
  unsigned int* noverflow = (unsigned int*)(mem + 4);
  unsigned int* fill = (unsigned int*)(mem + 256);
  unsigned short* region = (unsigned short*)(mem + head_bytes);
  char* rest = mem + head_bytes + region_bytes;
  int* placed = (int*)rest;
  int* seg_len = (int*)(rest + keys_bytes);
  int* seg_first = (int*)(rest + keys_bytes + table_bytes);
  int* overflow = (int*)(rest + keys_bytes + 2 * table_bytes);
  ATTU_CUDA_CHECK(cudaMemsetAsync(mem, 0, head_bytes, st));
  const size_t tile_smem = size_t(tile_keys) * sizeof(int);
  if (regions) {
    // past 48 KB of shared memory a kernel must opt in
    ATTU_CUDA_CHECK(cudaFuncSetAttribute(key_run_region_kernel<in_t>, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                         (int)tile_smem));
    key_run_region_kernel<in_t><<<ntiles, tile_threads, tile_smem, st>>>(keys_in, count, rmap, int(rruns), region,
                                                                        (unsigned int)cap, fill, spilled);
    ATTU_CUDA_CHECK_LAUNCH();
    const size_t rsmem = size_t((rrun + 1) / 2) * 4;
    ATTU_CUDA_CHECK(cudaFuncSetAttribute(key_run_region_count_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                         (int)rsmem));
    ATTU_CUDA_CHECK(cudaFuncSetAttribute(key_run_region_count_kernel,
                                         cudaFuncAttributePreferredSharedMemoryCarveout, 100));
    key_run_region_count_kernel<<<int(rruns), region_count_threads, rsmem, st>>>(
        region, (unsigned int)cap, fill, spilled, rrun, counts, nkeys, overflow, noverflow);
    ATTU_CUDA_CHECK_LAUNCH();
  }
  // the pieces form: the count where the region form was not taken or
  // spilled (its kernels return at once where it counted)
  const int* gate = regions ? spilled : nullptr;
  ATTU_CUDA_CHECK(cudaFuncSetAttribute(key_run_tile_kernel<in_t>, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                       (int)tile_smem));
  key_run_tile_kernel<in_t><<<ntiles, tile_threads, tile_smem, st>>>(keys_in, count, map, int(nruns), placed, seg_len,
                                                                    seg_first, ntiles, gate);
  ATTU_CUDA_CHECK_LAUNCH();
  const size_t count_smem = size_t(wsize / 2) * 4;
  ATTU_CUDA_CHECK(cudaFuncSetAttribute(key_run_count_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                       (int)count_smem));
  key_run_count_kernel<<<int(nruns) * windows_per_run, count_threads, count_smem, st>>>(
      placed, seg_len, seg_first, ntiles, run, windows_per_run, wsize, counts, nkeys, overflow, noverflow, gate);
  ATTU_CUDA_CHECK_LAUNCH();
  key_count_overflow_kernel<<<64, 256, 0, st>>>(overflow, noverflow, counts);
  ATTU_CUDA_CHECK_LAUNCH();
  ctx.free(mem);
}

}  // namespace gpu
}  // namespace attu
