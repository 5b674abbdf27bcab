// test_backend.cu: the GPU backend's primitives (gpu/backend, partial)
// against the CPU backend (engine/backend_cpu.c) on the same inputs: fill,
// iota, gather (with -1 and validity), scatter, compact (mask validity),
// scan (inclusive / exclusive, total), sorted_search (unsorted needles),
// inner_join (inner and left), lbs (empty segments). Sizes 0, 1, a few
// thousand and 1M; outputs poisoned first.
#include "gpu/backend/backend_gpu.h"
#include "tests/gpu/test_util.cuh"

#include <cstring>

using attu::test::runner_t;

namespace {

struct side_t {
  attu_backend* be;
  attu_error err;
};

attu_buf* put(attu_backend* be, const void* data, size_t bytes) {
  attu_error err;
  attu_error_clear(&err);
  attu_buf* b = be->alloc(be, bytes, &err);
  if (!b) throw std::runtime_error(err.message);
  // poison, then the data
  std::vector<unsigned char> poison(bytes, 0xab);
  if (bytes && be->upload(be, b, 0, poison.data(), bytes, &err)) throw std::runtime_error(err.message);
  if (data && bytes && be->upload(be, b, 0, data, bytes, &err)) throw std::runtime_error(err.message);
  return b;
}

template <typename T>
attu_buf* put(attu_backend* be, const std::vector<T>& v) {
  return put(be, v.data(), v.size() * sizeof(T));
}

template <typename T>
std::vector<T> get(attu_backend* be, const attu_buf* b, size_t n) {
  std::vector<T> v(n);
  attu_error err;
  attu_error_clear(&err);
  if (n && be->download(be, v.data(), b, 0, n * sizeof(T), &err)) throw std::runtime_error(err.message);
  return v;
}

std::vector<size_t> sizes() {
  return attu::test::small_filter(std::vector<size_t>{0, 1, 2, 4097, 1u << 20},
                                  [](size_t n) { return (long long)n; });
}

}  // namespace

int main() {
  ATTU_GPU_TEST_MAIN_PROLOGUE();
  runner_t r;
  attu_error err;
  attu_error_clear(&err);
  attu_backend* gpu = attu_backend_gpu_new_partial(&err);
  if (!gpu) {
    std::printf("skipped: %s\n", err.message);
    return 77;
  }
  attu_backend* cpu = attu_backend_cpu_new(2, &err);
  if (!cpu) {
    std::printf("CPU backend: %s\n", err.message);
    return 1;
  }
  std::printf("backend: %s\n", gpu->name);
  attu_backend* both[2] = {cpu, gpu};

  r.run("fill (widths 1, 4, 8) and iota", [&] {
    for (size_t n : sizes()) {
      for (size_t w : {1, 4, 8}) {
        std::vector<std::vector<unsigned char>> out;
        for (auto* be : both) {
          attu_buf* b = put(be, nullptr, n * w);
          if (be->fill(be, b, w, 0x1122334455667788ull, n, &err)) r.fail(err.message);
          out.push_back(get<unsigned char>(be, b, n * w));
          be->free(be, b);
        }
        attu::test::expect_equal(r, out[1], out[0], ("fill n=" + std::to_string(n)).c_str());
      }
      std::vector<std::vector<int64_t>> out;
      for (auto* be : both) {
        attu_buf* b = put(be, nullptr, n * 8);
        if (be->iota(be, b, -5, n, &err)) r.fail(err.message);
        out.push_back(get<int64_t>(be, b, n));
        be->free(be, b);
      }
      attu::test::expect_equal(r, out[1], out[0], ("iota n=" + std::to_string(n)).c_str());
    }
  });

  r.run("gather with -1 indices and validity; scatter of a permutation", [&] {
    for (size_t n : sizes()) {
      size_t m = n + 3;
      auto src = attu::test::random_values<int64_t>(m, -(1LL << 40), 1LL << 40, n + 1);
      auto valid = attu::test::random_values<uint8_t>(m, 0, 1, n + 2);
      auto idx = attu::test::random_values<int64_t>(n, -1, (long long)m - 1, n + 3);
      std::vector<std::vector<int64_t>> vals;
      std::vector<std::vector<uint8_t>> vv;
      for (auto* be : both) {
        attu_buf *s = put(be, src), *sv = put(be, valid), *ix = put(be, idx);
        attu_buf *d = put(be, nullptr, n * 8), *dv = put(be, nullptr, n);
        if (be->gather(be, d, dv, s, sv, 8, ix, n, &err)) r.fail(err.message);
        vals.push_back(get<int64_t>(be, d, n));
        vv.push_back(get<uint8_t>(be, dv, n));
        for (auto* b : {s, sv, ix, d, dv}) be->free(be, b);
      }
      attu::test::expect_equal(r, vals[1], vals[0], "gather values");
      attu::test::expect_equal(r, vv[1], vv[0], "gather validity");
      // scatter: reverse permutation, 4-byte values
      std::vector<int64_t> perm(n);
      for (size_t i = 0; i < n; ++i) perm[i] = (int64_t)(n - 1 - i);
      auto v4 = attu::test::random_values<int32_t>(n, -1000, 1000, n + 4);
      std::vector<std::vector<int32_t>> sc;
      for (auto* be : both) {
        attu_buf *s = put(be, v4), *ix = put(be, perm), *d = put(be, nullptr, n * 4);
        if (be->scatter(be, d, s, 4, ix, n, &err)) r.fail(err.message);
        sc.push_back(get<int32_t>(be, d, n));
        for (auto* b : {s, ix, d}) be->free(be, b);
      }
      attu::test::expect_equal(r, sc[1], sc[0], "scatter");
    }
  });

  r.run("compact of a BOOL mask with validity", [&] {
    for (size_t n : sizes()) {
      auto m = attu::test::random_values<uint8_t>(n, 0, 1, n + 5);
      auto v = attu::test::random_values<uint8_t>(n, 0, 3, n + 6);
      std::vector<std::vector<int64_t>> out;
      for (auto* be : both) {
        attu_buf *mb = put(be, m), *vb = put(be, v);
        attu_vec mask{attu_type{ATTU_TYPE_BOOL, 0, 0}, mb, vb, nullptr};
        attu_buf* idx = nullptr;
        size_t count = 0;
        if (be->compact(be, &mask, n, &idx, &count, &err)) r.fail(err.message);
        out.push_back(get<int64_t>(be, idx, count));
        be->free(be, idx);
        be->free(be, mb);
        be->free(be, vb);
      }
      attu::test::expect_equal(r, out[1], out[0], ("n=" + std::to_string(n)).c_str());
    }
  });

  r.run("scan int64 inclusive / exclusive with total", [&] {
    for (size_t n : sizes())
      for (bool inc : {false, true}) {
        auto in = attu::test::random_values<int64_t>(n, -(1LL << 30), 1LL << 30, n + 7);
        std::vector<std::vector<int64_t>> out;
        int64_t tot[2] = {0, 0};
        for (int k = 0; k < 2; ++k) {
          auto* be = both[k];
          attu_buf *a = put(be, in), *o = put(be, nullptr, n * 8);
          if (be->scan(be, a, o, n, inc, &tot[k], &err)) r.fail(err.message);
          out.push_back(get<int64_t>(be, o, n));
          be->free(be, a);
          be->free(be, o);
        }
        attu::test::expect_equal(r, out[1], out[0], ("n=" + std::to_string(n)).c_str());
        if (tot[0] != tot[1]) r.fail("total n=" + std::to_string(n));
      }
  });

  r.run("sorted_search of unsorted needles; inner and left join; lbs", [&] {
    for (size_t n : sizes()) {
      auto hay = attu::test::random_sorted<int64_t>(n, 0, (long long)n / 2 + 1, n + 8);
      auto needles = attu::test::random_values<int64_t>(n + 1, -1, (long long)n / 2 + 2, n + 9);
      for (bool upper : {false, true}) {
        std::vector<std::vector<int64_t>> out;
        for (auto* be : both) {
          attu_buf *h = put(be, hay), *nd = put(be, needles), *o = put(be, nullptr, (n + 1) * 8);
          if (be->sorted_search(be, nd, n + 1, h, n, upper, o, &err)) r.fail(err.message);
          out.push_back(get<int64_t>(be, o, n + 1));
          for (auto* b : {h, nd, o}) be->free(be, b);
        }
        attu::test::expect_equal(r, out[1], out[0], "sorted_search");
      }
      auto a = attu::test::random_sorted<int64_t>(n, 0, (long long)n + 1, n + 10);
      for (bool left : {false, true}) {
        std::vector<std::vector<int64_t>> ai, bi;
        for (auto* be : both) {
          attu_buf *ab = put(be, a), *hb = put(be, hay);
          attu_buf *x = nullptr, *y = nullptr;
          size_t np = 0;
          if (be->inner_join(be, ab, n, hb, n, left, &x, &y, &np, &err)) r.fail(err.message);
          ai.push_back(get<int64_t>(be, x, np));
          bi.push_back(get<int64_t>(be, y, np));
          for (auto* b : {ab, hb, x, y}) be->free(be, b);
        }
        attu::test::expect_equal(r, ai[1], ai[0], left ? "left join a" : "join a");
        attu::test::expect_equal(r, bi[1], bi[0], left ? "left join b" : "join b");
      }
      auto segs32 = attu::test::make_segments((int)n, attu::test::geo_empty_heavy, 5, n + 11);
      std::vector<int64_t> offs(segs32.begin(), segs32.end());
      size_t nseg = offs.size();
      offs.push_back((int64_t)n);
      std::vector<std::vector<int64_t>> out;
      for (auto* be : both) {
        attu_buf *ob = put(be, offs), *so = put(be, nullptr, n * 8);
        if (be->lbs(be, ob, nseg, n, so, &err)) r.fail(err.message);
        out.push_back(get<int64_t>(be, so, n));
        be->free(be, ob);
        be->free(be, so);
      }
      attu::test::expect_equal(r, out[1], out[0], "lbs");
    }
  });

  cpu->destroy(cpu);
  gpu->destroy(gpu);
  return r.finish();
}
