// test_util.cuh: the tiny harness the GPU pattern tests share: a case
// runner that prints every case and a "N passed, M failed" summary, exits 77
// (ctest: skipped) without a CUDA device, plus random data, segment
// geometries and timing helpers. Plain main() programs: no test framework
// under nvcc.
#pragma once

#include <cstdio>
#include <cstdlib>
#include <algorithm>
#include <chrono>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "gpu/patterns/context.cuh"
#include "gpu/patterns/memory.cuh"

namespace attu {
namespace test {

struct runner_t {
  int passed = 0, failed = 0;
  std::string current;
  bool case_ok = true;

  void run(const std::string& name, const std::function<void()>& body) {
    current = name;
    case_ok = true;
    auto t0 = std::chrono::steady_clock::now();
    try {
      body();
    } catch (const std::exception& e) {
      std::printf("  exception: %s\n", e.what());
      case_ok = false;
    }
    double ms = std::chrono::duration<double, std::milli>(
                    std::chrono::steady_clock::now() - t0).count();
    std::printf("%s %s (%.0f ms)\n", case_ok ? "ok  " : "FAIL", name.c_str(), ms);
    std::fflush(stdout);
    (case_ok ? passed : failed)++;
  }
  // Records a failed expectation (first few details printed).
  void fail(const std::string& what) {
    if (case_ok) std::printf("  %s: %s\n", current.c_str(), what.c_str());
    case_ok = false;
  }
  int finish() {
    std::printf("%d passed, %d failed\n", passed, failed);
    return failed ? 1 : 0;
  }
};

// Compares two vectors; reports the first mismatch.
template <typename T, typename eq_t>
bool expect_equal(runner_t& r, const std::vector<T>& got, const std::vector<T>& want,
                  const char* what, eq_t eq) {
  if (got.size() != want.size()) {
    r.fail(std::string(what) + ": size " + std::to_string(got.size()) + " != " +
           std::to_string(want.size()));
    return false;
  }
  for (size_t i = 0; i < got.size(); ++i)
    if (!eq(got[i], want[i])) {
      r.fail(std::string(what) + ": first mismatch at " + std::to_string(i) +
             " of " + std::to_string(got.size()));
      return false;
    }
  return true;
}
template <typename T>
bool expect_equal(runner_t& r, const std::vector<T>& got, const std::vector<T>& want,
                  const char* what) {
  return expect_equal(r, got, want, what, [](const T& a, const T& b) { return a == b; });
}

// Random values in [lo, hi], never all zero (the first is forced non-zero).
template <typename T>
std::vector<T> random_values(size_t n, long long lo, long long hi, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_int_distribution<long long> d(lo, hi);
  std::vector<T> v(n);
  for (auto& x : v) x = (T)d(rng);
  if (n && v[0] == T(0)) v[0] = T(1);
  return v;
}

template <typename T>
std::vector<T> random_sorted(size_t n, long long lo, long long hi, uint64_t seed) {
  auto v = random_values<T>(n, lo, hi, seed);
  std::sort(v.begin(), v.end());
  return v;
}

// A sorted int array in O(n): steps of 0..max_step (mean max_step / 2).
inline std::vector<int> random_ascending(size_t n, int max_step, uint64_t seed) {
  std::mt19937 rng((unsigned)seed);
  std::vector<int> v(n);
  int x = 0;
  for (auto& y : v) {
    x += (int)(rng() % (max_step + 1));
    y = x;
  }
  return v;
}

// Segment geometries over `count` items; returns the descriptor.
enum geometry_t { geo_random, geo_empty_heavy, geo_one_huge, geo_tiny };
inline const char* geometry_name(geometry_t g) {
  switch (g) {
    case geo_random: return "random";
    case geo_empty_heavy: return "empty-heavy";
    case geo_one_huge: return "one-huge";
    default: return "tiny";
  }
}
inline std::vector<int> make_segments(int count, geometry_t g, int mean, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<int> segs;
  if (g == geo_one_huge) {
    // empty segments around one segment holding everything
    segs = {0, 0, 0};
    segs.push_back(0);  // the huge one (index 3)
    for (int i = 0; i < 3; ++i) segs.push_back(count);
    return segs;
  }
  int pos = 0;
  while (pos < count || segs.empty()) {
    segs.push_back(pos);
    int len;
    if (g == geo_tiny) len = (int)(rng() % 3);                      // 0..2
    else if (g == geo_empty_heavy) len = rng() % 2 ? 0 : (int)(rng() % (2 * mean + 1));
    else len = (int)(rng() % (2 * mean + 1));
    pos = std::min(count, pos + len);
  }
  // trailing empty segments
  segs.push_back(count);
  segs.push_back(count);
  return segs;
}

// Median of `reps` timed runs (ms) after one warm-up, on the context's stream.
template <typename f_t>
double time_ms(gpu::context_t& ctx, int reps, f_t f) {
  f();
  std::vector<double> t;
  for (int i = 0; i < reps; ++i) {
    ctx.timer_begin();
    f();
    t.push_back(ctx.timer_end());
  }
  std::sort(t.begin(), t.end());
  return t[t.size() / 2];
}

// ATTU_GPU_SMALL=1 keeps only small sizes (for compute-sanitizer runs).
inline bool keep_size(long long n) {
  const char* e = std::getenv("ATTU_GPU_SMALL");
  return !(e && *e && *e != '0') || n <= 200000;
}
template <typename T, typename size_of_t>
std::vector<T> small_filter(std::vector<T> v, size_of_t size_of) {
  std::vector<T> out;
  for (auto& x : v)
    if (keep_size(size_of(x))) out.push_back(x);
  return out;
}

inline bool timing_enabled() {
  const char* e = std::getenv("ATTU_GPU_TIMING");
  return e && *e && *e != '0';
}

// Standard preamble of every GPU test main().
#define ATTU_GPU_TEST_MAIN_PROLOGUE()                     \
  if (!::attu::gpu::cuda_device_available()) {            \
    std::printf("skipped: no CUDA device\n");             \
    return 77;                                            \
  }

}  // namespace test
}  // namespace attu
