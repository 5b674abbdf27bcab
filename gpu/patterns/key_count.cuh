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
// larger than the L2 are a trip to memory each. So the keys are first put
// in order of their run (one keys-only radix partition, partition.cuh):
// the key range cut into 256 runs of R = ceil(nkeys / 256) keys, the
// partition ranking and writing each key j as (run << S) | (j - run * R)
// (key_run_map; S the bits of R: the map keeps the keys' order, its digit
// at shift S is the run, and a key's offset in its run is its low S bits).
// Then blocks count each run in shared memory: 16-bit counters, two to a
// word, then the run's counts written out, coalesced. A run of up to
// max_window keys (112K: 224 KB of shared memory) is one block's, read
// once; the run is sized to the key range for this (at 25M keys, runs of
// 97,657 keys, 195 KB); a larger run (past 28.7M keys) is cut into windows
// of at most max_window keys, each counted by its own block reading the
// whole run. (Session 17's runs were 2^shift keys, the top 8 bits of the
// range: at 25M keys runs of 131,072 keys, two windows of 2^16 each, every
// run read twice.) Tried and dropped: two blocks of a thread block cluster
// counting two windows together, each reading half of the run and adding
// to its partner's counters through distributed shared memory (the run
// read once): the remote atomics made the count slower, bench_query's join
// 1.99-2.12 ms against 1.64-1.70 (H100, docs/performance.md session 17).
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

#include "gpu/patterns/partition.cuh"

namespace attu {
namespace gpu {

namespace key_count_detail {

constexpr int nt = 1024;
constexpr unsigned int take_back = 1u << 15;   // 32768, half a counter's range
constexpr int max_window = 112 * 1024;         // counters a block: 224 KB of 16-bit ones

// The partition's image of a key (see Method): run d = j / R of the key j
// = k - base, at offset j - d R, as (d << bits) | offset. inv = floor((2^32
// - 1) / R) estimates d from below by at most one (j < 2^31), which one
// comparison mends. Keys must lie in [base, base + nkeys).
struct key_run_map {
  long long base;
  unsigned int run, inv;
  int bits;
  __device__ __forceinline__ long long operator()(long long k) const {
    const unsigned int j = (unsigned int)(k - base);
    unsigned int d = __umulhi(j, inv), off = j - d * run;
    if (off >= run) { ++d; off -= run; }
    return ((long long)d << bits) | off;
  }
};

// One block per (run, window of the run). run_starts: the partition's
// digit_starts (run d is [run_starts[d], run_starts[d + 1]), the last ends
// at count); its keys are key_run_map images, their offsets in the low
// `bits` bits. The run's keys [d R, d R + R) (less past nkeys) are cut into
// windows_per_run windows of wsize keys (even), the last shorter.
__global__ void __launch_bounds__(nt)
key_count_kernel(const int* __restrict__ keys, size_t count, const unsigned long long* __restrict__ run_starts,
                 unsigned int run, int bits, int windows_per_run, int wsize, int* __restrict__ counts, size_t nkeys,
                 int* __restrict__ overflow, unsigned int* __restrict__ noverflow) {
  extern __shared__ unsigned int sh[];   // wsize / 2 words
  const int digit = blockIdx.x / windows_per_run, w = blockIdx.x % windows_per_run;
  const long long run_first = (long long)digit * run;
  const long long first = run_first + (long long)w * wsize;   // the window's first key
  if (first >= (long long)nkeys || (long long)w * wsize >= (long long)run) return;   // the whole block: no barrier reached
  long long end = first + wsize;
  if (end > run_first + (long long)run) end = run_first + run;
  if (end > (long long)nkeys) end = (long long)nkeys;
  const int nwords = wsize / 2, lo_off = w * wsize;
  const unsigned int mask = (1u << bits) - 1u;
  for (int i = threadIdx.x; i < nwords; i += nt) sh[i] = 0;
  __syncthreads();
  const size_t lo = run_starts[digit], hi = digit == 255 ? count : run_starts[digit + 1];
  auto add = [&](int image) {
    const int local = int((unsigned int)image & mask) - lo_off;
    if ((unsigned int)local >= (unsigned int)wsize) return;   // another window of this run
    const int word = local >> 1, half = (local & 1) * 16;
    const unsigned int old = atomicAdd(&sh[word], 1u << half);
    if (((old >> half) & 0xffffu) == take_back - 1) {
      atomicSub(&sh[word], take_back << half);
      overflow[atomicAdd(noverflow, 1u)] = int(first + local);
    }
  };
  // the run's keys, four at a time where 16-byte aligned
  size_t head = lo;
  while (head < hi && (head & 3)) ++head;
  const size_t nvec = (hi - head) / 4;
  for (size_t i = lo + threadIdx.x; i < head; i += nt) add(keys[i]);
  const int4* vec = reinterpret_cast<const int4*>(keys + head);
  size_t v = threadIdx.x;
  for (; v + nt < nvec; v += 2 * nt) {
    const int4 a = __ldcs(vec + v), b = __ldcs(vec + v + nt);
    add(a.x); add(a.y); add(a.z); add(a.w);
    add(b.x); add(b.y); add(b.z); add(b.w);
  }
  if (v < nvec) {
    const int4 a = __ldcs(vec + v);
    add(a.x); add(a.y); add(a.z); add(a.w);
  }
  for (size_t i = head + nvec * 4 + threadIdx.x; i < hi; i += nt) add(keys[i]);
  __syncthreads();
  // the window's counts, a word (two keys) a thread a step
  for (int i = threadIdx.x; i < nwords; i += nt) {
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
// (4 bytes a key for the partitioned keys, the overflow list) comes from
// the context's pool.
template <typename in_t, typename context_t>
void count_keys(const in_t* keys_in, long long key_base, size_t count, int* counts, size_t nkeys,
                context_t& ctx) {
  using namespace key_count_detail;
  if (count > 0x7fffffffull) throw std::runtime_error("count_keys: more than 2^31-1 keys");
  if (nkeys > 0x7fffffffull - 65536) throw std::runtime_error("count_keys: key range past 2^31 - 2^16");
  cudaStream_t st = ctx.stream();
  if (nkeys == 0) return;
  if (count == 0) {
    ATTU_CUDA_CHECK(cudaMemsetAsync(counts, 0, nkeys * sizeof(int), st));
    return;
  }
  // runs of R keys (see Method), cut into windows of at most max_window
  const unsigned int run = (unsigned int)((nkeys + 255) / 256);
  int bits = 0;
  while ((1u << bits) < run) ++bits;
  const key_run_map map{key_base, run, (unsigned int)(0xffffffffu / run), bits};
  const int windows_per_run = int((run + max_window - 1) / max_window);
  int wsize = int((run + windows_per_run - 1) / windows_per_run);
  wsize += wsize & 1;
  const size_t smem = size_t(wsize / 2) * 4;
  const size_t starts_bytes = 256 * sizeof(unsigned long long);
  const size_t nover = count / take_back + 1;
  const size_t keys_bytes = (count * sizeof(int) + 255) & ~size_t(255);
  char* mem = (char*)ctx.alloc(keys_bytes + starts_bytes + 256 + nover * sizeof(int));
  int* part = (int*)mem;
  unsigned long long* starts = (unsigned long long*)(mem + keys_bytes);
  unsigned int* noverflow = (unsigned int*)(mem + keys_bytes + starts_bytes);
  int* overflow = (int*)(mem + keys_bytes + starts_bytes + 256);
  ATTU_CUDA_CHECK(cudaMemsetAsync(noverflow, 0, sizeof(unsigned int), st));
  sort_detail::radix_partition_pass<int, in_t, int, int, false>(keys_in, map, part, nullptr, nullptr, count, bits,
                                                                ctx, starts);
  // past 48 KB of shared memory a kernel must opt in
  ATTU_CUDA_CHECK(cudaFuncSetAttribute(key_count_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem));
  key_count_kernel<<<256 * windows_per_run, nt, smem, st>>>(part, count, starts, run, bits, windows_per_run, wsize,
                                                            counts, nkeys, overflow, noverflow);
  ATTU_CUDA_CHECK_LAUNCH();
  key_count_overflow_kernel<<<64, 256, 0, st>>>(overflow, noverflow, counts);
  ATTU_CUDA_CHECK_LAUNCH();
  ctx.free(mem);
}

}  // namespace gpu
}  // namespace attu
