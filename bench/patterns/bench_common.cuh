// bench_common.cuh: what the pattern benchmarks share: device buffers of
// random non-zero data made on the device, GPU-event timing (median of
// several runs after warm-ups), and the result table.
//
// A row prints attu's pattern and the matching CUB algorithm side by side:
// milliseconds, G items/s and GB/s, where GB/s counts the bytes the operation
// must move at least (each input read once, each output written once), so it
// compares directly with the measured device-to-device copy row.
#pragma once

#include "gpu/patterns/context.cuh"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace bench {

using attu::gpu::context_t;

inline int g_reps = 7;  // timed runs per measurement (median)

template <typename T>
struct dbuf {
  T* p = nullptr;
  size_t n = 0;
  dbuf() = default;
  explicit dbuf(size_t count) : n(count) {
    ATTU_CUDA_CHECK(cudaMalloc(&p, (count ? count : 1) * sizeof(T)));
  }
  ~dbuf() { if (p) cudaFree(p); }
  dbuf(const dbuf&) = delete;
  dbuf& operator=(const dbuf&) = delete;
  operator T*() const { return p; }
};

__host__ __device__ inline unsigned long long mix64(unsigned long long x) {
  x ^= x >> 33; x *= 0xff51afd7ed558ccdull;
  x ^= x >> 33; x *= 0xc4ceb9fe1a85ec53ull;
  x ^= x >> 33;
  return x;
}

// Random non-zero values; integers span `range` (0: the full type) and floats
// lie in (-1e6, 1e6).
template <typename T>
__global__ void fill_random_kernel(T* out, size_t n, unsigned long long seed, long long range) {
  size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  for (; i < n; i += (size_t)gridDim.x * blockDim.x) {
    unsigned long long r = mix64(i * 0x9e3779b97f4a7c15ull + seed);
    T v;
    if (T(0.5) != T(0)) {  // floating point
      v = T((double)(r >> 11) / 9007199254740992.0 * 2e6 - 1e6);
      if (v == T(0)) v = T(0.5);
    } else if (range) {
      v = T(1 + (long long)(r % (unsigned long long)range));
    } else {
      v = T(r);
      if (v == T(0)) v = T(1);
    }
    out[i] = v;
  }
}

template <typename T>
void fill_random(T* p, size_t n, unsigned long long seed, long long range = 0) {
  fill_random_kernel<<<1024, 256>>>(p, n, seed, range);
  ATTU_CUDA_CHECK_LAUNCH();
  // The fill runs on the legacy stream; contexts use non-blocking streams.
  ATTU_CUDA_CHECK(cudaDeviceSynchronize());
}

// Median milliseconds of run() over g_reps timed runs after the warm-ups;
// prep() runs before each, outside the timed region (e.g. restoring the input
// of an in-place sort). Warm-ups: at least 2, and on until they have kept
// the device busy 20 ms (at most 200): after the host's allocations and
// fills the device is slow for a few milliseconds, and a short kernel's
// first rows read up to 20% slow (session 10: the float sum's row read
// 0.85x of DeviceReduce where the same call timed again later read 1.00x).
template <typename prep_t, typename run_t>
double time_ms(context_t& ctx, prep_t prep, run_t run, int reps = -1) {
  if (reps < 0) reps = g_reps;
  cudaEvent_t a, b;
  ATTU_CUDA_CHECK(cudaEventCreate(&a));
  ATTU_CUDA_CHECK(cudaEventCreate(&b));
  std::vector<float> t;
  float warm = 0;
  for (int i = 0, warmups = 0; (int)t.size() < reps; ++i) {
    prep();
    ATTU_CUDA_CHECK(cudaEventRecord(a, ctx.stream()));
    run();
    ATTU_CUDA_CHECK(cudaEventRecord(b, ctx.stream()));
    ATTU_CUDA_CHECK(cudaEventSynchronize(b));
    float ms = 0;
    ATTU_CUDA_CHECK(cudaEventElapsedTime(&ms, a, b));
    if (warmups < 2 || (warm < 20.0f && warmups < 200)) {
      warm += ms;
      ++warmups;
    } else {
      t.push_back(ms);
    }
  }
  cudaEventDestroy(a);
  cudaEventDestroy(b);
  std::sort(t.begin(), t.end());
  return t[t.size() / 2];
}

inline void no_prep() {}

inline void print_header() {
  std::printf("| pattern | type | items | attu ms | attu G items/s | attu GB/s | CUB algorithm | CUB ms | CUB G items/s | CUB GB/s | attu/CUB speed |\n");
  std::printf("|---|---|---|---|---|---|---|---|---|---|---|\n");
}

inline std::string items_str(size_t n) {
  char b[32];
  if (n >= (1u << 30) && n % (1u << 30) == 0) std::snprintf(b, sizeof b, "%zuG", n >> 30);
  else if (n >= (1u << 20) && n % (1u << 20) == 0) std::snprintf(b, sizeof b, "%zuM", n >> 20);
  else std::snprintf(b, sizeof b, "%zu", n);
  return b;
}

// One row; cub_ms <= 0 means no CUB counterpart.
inline void row(const char* pattern, const char* type, size_t n, double bytes, double ms,
                const char* cub_name, double cub_ms) {
  double gi = n / ms / 1e6, gb = bytes / ms / 1e6;
  if (cub_ms > 0)
    std::printf("| %s | %s | %s | %.3f | %.2f | %.0f | %s | %.3f | %.2f | %.0f | %.2fx |\n", pattern,
                type, items_str(n).c_str(), ms, gi, gb, cub_name, cub_ms, n / cub_ms / 1e6,
                bytes / cub_ms / 1e6, cub_ms / ms);
  else
    std::printf("| %s | %s | %s | %.3f | %.2f | %.0f | %s | - | - | - | - |\n", pattern, type,
                items_str(n).c_str(), ms, gi, gb, cub_name);
  std::fflush(stdout);
}

// Sizes from argv ("1M 64M 1G"), or the defaults.
inline std::vector<size_t> parse_sizes(int argc, char** argv, std::vector<size_t> defaults) {
  std::vector<size_t> s;
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--reps") && i + 1 < argc) { g_reps = std::atoi(argv[++i]); continue; }
    char* end = nullptr;
    double v = std::strtod(argv[i], &end);
    size_t m = 1;
    if (*end == 'K' || *end == 'k') m = 1u << 10;
    if (*end == 'M' || *end == 'm') m = 1u << 20;
    if (*end == 'G' || *end == 'g') m = 1u << 30;
    if (v > 0) s.push_back(size_t(v * m));
  }
  return s.empty() ? defaults : s;
}

// ATTU_BENCH_ONLY=a,b,...: run only the named groups (each bench's main
// names its groups); unset, run all. For short profiling runs.
// The positive numbers of a comma-separated environment variable (the
// mean segments of ATTU_BENCH_SEGSORT_MEANS / ATTU_BENCH_SEGREDUCE_MEANS),
// or defaults when it is not set.
inline std::vector<long long> env_numbers(const char* name, std::vector<long long> defaults) {
  const char* m = std::getenv(name);
  if (!m) return defaults;
  std::vector<long long> v;
  for (const char* p = m; *p;) {
    char* end;
    long long x = std::strtoll(p, &end, 10);
    if (end == p) break;
    if (x > 0) v.push_back(x);
    p = *end == ',' ? end + 1 : end;
  }
  return v;
}

inline bool bench_wanted(const char* group) {
  const char* only = std::getenv("ATTU_BENCH_ONLY");
  if (!only || !*only) return true;
  size_t n = std::strlen(group);
  for (const char* p = only; *p;) {
    const char* e = std::strchr(p, ',');
    size_t len = e ? size_t(e - p) : std::strlen(p);
    if (len == n && !std::strncmp(p, group, n)) return true;
    if (!e) break;
    p = e + 1;
  }
  return false;
}

// Free device memory in bytes.
inline size_t free_bytes() {
  size_t f = 0, t = 0;
  ATTU_CUDA_CHECK(cudaMemGetInfo(&f, &t));
  return f;
}

}  // namespace bench
