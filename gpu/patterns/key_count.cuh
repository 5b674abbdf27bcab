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
// in order of their high digit (one keys-only radix partition,
// partition.cuh: 256 runs, each of keys within a window of 2^shift), and
// then one block per 65,536-key window counts the run holding it in
// shared memory: 16-bit counters, two to a word (128 KB), then writes the
// window's counts out, coalesced. A window is 2^16 keys, a digit's run
// 2^shift: when shift > 16 each run is read by 2^(shift-16) blocks, each
// counting its own window (twice the reads at 2^25 keys; one read below
// 2^24). Tried and dropped: two blocks of a thread block cluster counting
// two windows together, each reading half of the run and adding to its
// partner's counters through distributed shared memory (the run read
// once): the remote atomics made the count slower, bench_query's join
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
// Limits: count < 2^31 and nkeys <= 2^31 - 2^16 (shift at most 23,
// partition.cuh).
#pragma once

#include "gpu/patterns/partition.cuh"

namespace attu {
namespace gpu {

namespace key_count_detail {

constexpr int window_bits = 16;
constexpr int window = 1 << window_bits;
constexpr int nt = 1024;
constexpr unsigned int take_back = 1u << 15;   // 32768, half a counter's range
constexpr size_t smem_bytes = size_t(window) * 2;

// One block per (digit, window of the digit's run). run_starts: the
// partition's digit_starts (run d is [run_starts[d], run_starts[d + 1]),
// the last ends at count). A window is 2^16 keys, or the whole run when
// the run is smaller (shift < 16): windows never overlap.
__global__ void __launch_bounds__(nt)
key_count_kernel(const int* __restrict__ keys, size_t count, const unsigned long long* __restrict__ run_starts,
                 int shift, int windows_per_run, int* __restrict__ counts, size_t nkeys,
                 int* __restrict__ overflow, unsigned int* __restrict__ noverflow) {
  extern __shared__ unsigned int sh[];   // wsize / 2 words (rounded up)
  const int digit = blockIdx.x / windows_per_run, w = blockIdx.x % windows_per_run;
  const int wsize = shift >= window_bits ? window : 1 << shift;
  const long long first = ((long long)digit << shift) + (long long)w * wsize;
  if (first >= (long long)nkeys) return;   // the whole block: no barrier reached
  const long long end = first + wsize < (long long)nkeys ? first + wsize : (long long)nkeys;
  const int nwords = (wsize + 1) / 2;
  for (int i = threadIdx.x; i < nwords; i += nt) sh[i] = 0;
  __syncthreads();
  const size_t lo = run_starts[digit], hi = digit == 255 ? count : run_starts[digit + 1];
  auto add = [&](int k) {
    const long long local = (long long)k - first;
    if (local < 0 || local >= wsize) return;   // another window of this run
    const int word = int(local >> 1), half = int(local & 1) * 16;
    const unsigned int old = atomicAdd(&sh[word], 1u << half);
    if (((old >> half) & 0xffffu) == take_back - 1) {
      atomicSub(&sh[word], take_back << half);
      overflow[atomicAdd(noverflow, 1u)] = k;
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
  if (nkeys > 0x7fffffffull - window) throw std::runtime_error("count_keys: key range past 2^31 - 2^16");
  cudaStream_t st = ctx.stream();
  if (nkeys == 0) return;
  if (count == 0) {
    ATTU_CUDA_CHECK(cudaMemsetAsync(counts, 0, nkeys * sizeof(int), st));
    return;
  }
  // the digit: the top 8 bits of the key range (a window of 2^shift keys a run)
  int bits = 1;
  while (bits < 31 && (1ull << bits) < nkeys) ++bits;
  const int shift = bits > 8 ? bits - 8 : 0;
  const int windows_per_run = shift > window_bits ? 1 << (shift - window_bits) : 1;
  const size_t starts_bytes = 256 * sizeof(unsigned long long);
  const size_t nover = count / take_back + 1;
  const size_t keys_bytes = (count * sizeof(int) + 255) & ~size_t(255);
  char* mem = (char*)ctx.alloc(keys_bytes + starts_bytes + 256 + nover * sizeof(int));
  int* part = (int*)mem;
  unsigned long long* starts = (unsigned long long*)(mem + keys_bytes);
  unsigned int* noverflow = (unsigned int*)(mem + keys_bytes + starts_bytes);
  int* overflow = (int*)(mem + keys_bytes + starts_bytes + 256);
  ATTU_CUDA_CHECK(cudaMemsetAsync(noverflow, 0, sizeof(unsigned int), st));
  sort_detail::radix_partition_pass<int, in_t, int, int, false>(keys_in, key_base, part, nullptr, nullptr, count,
                                                                shift, ctx, starts);
  // past 48 KB of shared memory a kernel must opt in
  ATTU_CUDA_CHECK(cudaFuncSetAttribute(key_count_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                       (int)smem_bytes));
  const int wsize = shift >= window_bits ? window : 1 << shift;
  key_count_kernel<<<256 * windows_per_run, nt, size_t((wsize + 1) / 2) * 4, st>>>(part, count, starts, shift, windows_per_run,
                                                                  counts, nkeys, overflow, noverflow);
  ATTU_CUDA_CHECK_LAUNCH();
  key_count_overflow_kernel<<<64, 256, 0, st>>>(overflow, noverflow, counts);
  ATTU_CUDA_CHECK_LAUNCH();
  ctx.free(mem);
}

}  // namespace gpu
}  // namespace attu
