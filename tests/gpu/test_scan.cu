// test_scan.cu: transform / cta_transform / launch boxes / occupancy,
// reduce, scan (+ scan_event) and compaction against the CPU references.
// Sizes around each pattern's tile (0, 1, tile-1, tile, tile+1), 1M and
// 100M; outputs poisoned before every run; a non-commutative operator
// (composition of affine maps) for the scans and reductions; floats on
// exact whole numbers.
#include "gpu/patterns/patterns.cuh"
#include "gpu/reference/compact_reference.hpp"
#include "gpu/reference/scan_reference.hpp"
#include "tests/gpu/test_util.cuh"

#include <cmath>
#include <cstring>
#include <type_traits>

using namespace attu;
using namespace attu::gpu;
using attu::test::runner_t;

// x -> a*x + b (mod 2^32); op(f, g) = "f then g": associative, not commutative.
struct affine_t {
  unsigned a, b;
  __host__ __device__ bool operator==(const affine_t& o) const { return a == o.a && b == o.b; }
};
struct compose_t {
  __host__ __device__ affine_t operator()(const affine_t& f, const affine_t& g) const {
    return affine_t{g.a * f.a, g.a * f.b + g.b};
  }
};

// The same maps mod 2^16 in 4 bytes: a 4-byte item gets the 4-byte box
// (vt 24 on sm_90), so the per-thread scan runs its longest chain.
struct affine16_t {
  unsigned short a, b;
  __host__ __device__ bool operator==(const affine16_t& o) const { return a == o.a && b == o.b; }
};
struct compose16_t {
  __host__ __device__ affine16_t operator()(const affine16_t& f, const affine16_t& g) const {
    return affine16_t{(unsigned short)(g.a * f.a), (unsigned short)(g.a * f.b + g.b)};
  }
};

struct odd_t {
  __device__ bool operator()(int i, const int* q) const { return (q[i] & 1) != 0; }
};
struct copy_t {
  __device__ void operator()(int dst, int src, const int* q, int* o) const { o[dst] = q[src]; }
};

struct index_t {
  __device__ int operator()(int i) const { return i; }
};

static std::vector<affine_t> random_affine(size_t n, uint64_t seed) {
  auto v = test::random_values<unsigned>(2 * n, 1, 0xffffffffLL, seed);
  std::vector<affine_t> out(n);
  for (size_t i = 0; i < n; ++i) out[i] = {v[2 * i] | 1u, v[2 * i + 1]};
  return out;
}

static std::vector<int> sizes_around(int nv, bool big) {
  std::vector<int> s = {0, 1, 2, 31, nv - 1, nv, nv + 1, 3 * nv + 7, 1 << 20};
  if (big) s.push_back(100 << 20);
  return test::small_filter(s, [](int n) { return n; });
}

int main() {
  ATTU_GPU_TEST_MAIN_PROLOGUE();
  runner_t r;
  context_t ctx;
  std::printf("device: %s, %d SMs\n", ctx.props().name, ctx.sm_count());
  const int stream_nv = stream_box_t<int>::cta_dim(ctx.ptx_version()).nv();
  const int scan_nv = scan_box_t<int>::cta_dim(ctx.ptx_version()).nv();

  r.run("transform: f(index, args...) with restrict pointer args", [&] {
    for (int n : test::small_filter(std::vector<int>{0, 1, 127, 128, 129, 1 << 20}, [](int n) { return n; })) {
      auto in = test::random_values<int>(n, -1000, 1000, n + 1);
      mem_t<int> d_in = to_mem(in, ctx), d_out(n, ctx);
      d_out.memset(0xff);
      transform<128>([] __device__(int i, const int* a, int* b, int k) { b[i] = a[i] * k + i; },
                     n, ctx, (const int*)d_in.data(), d_out.data(), 3);
      std::vector<int> want(n);
      for (int i = 0; i < n; ++i) want[i] = in[i] * 3 + i;
      test::expect_equal(r, d_out.to_host(), want, "transform");
    }
  });

  r.run("transform: behaviours that capture their pointers, 1, 4 and 8 indices a thread, around 2M and the tile", [&] {
    // Past kTransformVtMin (2M) capturing behaviours run striped several
    // indices a thread (transform_capture_vt): every index exactly once,
    // at counts around the threshold and around whole striped tiles.
    const int saved = detail::transform_capture_vt();
    const int big = detail::kTransformVtMin;
    for (int cvt : {4, 8, 1}) {
      detail::transform_capture_vt() = cvt;
      for (int n : test::small_filter(std::vector<int>{big - 1, big, big + 1, big + 128 * cvt - 1, big + 128 * cvt + 1,
                                                       (3 << 20) + 5},
                                      [](int n) { return n; })) {
        mem_t<int> d_out(n, ctx), d_hits(n, ctx);
        d_out.memset(0xff);
        d_hits.memset(0);
        int* o = d_out.data();
        int* h = d_hits.data();
        transform([=] __device__(int i) { o[i] = i * 7 + 1; atomicAdd(&h[i], 1); }, n, ctx);
        std::vector<int> want(n);
        for (int i = 0; i < n; ++i) want[i] = i * 7 + 1;
        std::string what = "vt " + std::to_string(cvt) + " n=" + std::to_string(n);
        test::expect_equal(r, d_out.to_host(), want, ("captured " + what).c_str());
        test::expect_equal(r, d_hits.to_host(), std::vector<int>(n, 1), ("each index once " + what).c_str());
      }
    }
    detail::transform_capture_vt() = saved;
  });

  r.run("cta_transform and launch_box override (arch pick)", [&] {
    using box = launch_box_t<arch_cta_t<500, 64, 2>, arch_cta_t<900, 128, 3>,
                             arch_cta_t<2000, 32, 1>>;
    cta_dim_t d = box::cta_dim(900);
    if (d.nt != 128 || d.vt != 3) r.fail("launch box picked the wrong arch entry");
    if (box::cta_dim(700).nt != 64) r.fail("launch box fallback");
    int n = 1000;
    mem_t<int> out(n, ctx);
    out.memset(0xff);
    int* o = out.data();
    cta_transform<box>([=] __device__(int tid, int cta) {
      for (int i = 0; i < box::vt; ++i) {
        int idx = cta * box::nv + i * box::nt + tid;
        if (idx < n) o[idx] = cta;
      }
    }, n, ctx);
    std::vector<int> want(n);
    for (int i = 0; i < n; ++i) want[i] = i / (128 * 3);
    test::expect_equal(r, out.to_host(), want, "cta_transform");
    int occ = occupancy(detail::reduce_tiles_kernel<box, int, index_t, plus_t<int>>, 128);
    if (occ < 1) r.fail("occupancy < 1");
  });

  r.run("cta_launch with a device-side CTA count", [&] {
    mem_t<int> num(1, ctx), out(5000, ctx);
    int h = 5000;
    ATTU_CUDA_CHECK(cudaMemcpy(num.data(), &h, sizeof h, cudaMemcpyHostToDevice));
    ATTU_CUDA_CHECK(cudaDeviceSynchronize());  // the context's stream does not wait for it
    out.memset(0);
    int* o = out.data();
    cta_launch<launch_params_t<64>>([=] __device__(int tid, int cta) {
      if (!tid) atomicAdd(&o[cta], 1);
    }, (const int*)num.data(), ctx);
    test::expect_equal(r, out.to_host(), std::vector<int>(5000, 1), "dynamic cta_launch");
  });

  // reduce's vector path (16-byte loads) has its own tiles: 4- and 8-byte items
  const int vec_nv4 = detail::kVecThreads * detail::kVecPerThread * 4;
  const int vec_nv8 = detail::kVecThreads * detail::kVecPerThread * 2;
  r.run("reduce int (plus), sizes around the tile and the vector tile, 1M, 100M", [&] {
    std::vector<int> sizes = sizes_around(stream_nv, true);
    for (int n : sizes_around(vec_nv4, false)) sizes.push_back(n);
    for (int n : sizes) {
      auto in = test::random_values<int>(n, -100, 100, 7 + n);
      mem_t<int> d = to_mem(in, ctx), red(1, ctx);
      red.memset(0xff);
      reduce(d.data(), n, red.data(), plus_t<int>(), ctx, -12345);
      int want = ref::reduce(in, plus_t<int>(), -12345);
      if (red.to_host()[0] != want)
        r.fail("n=" + std::to_string(n) + " got " + std::to_string(red.to_host()[0]) +
               " want " + std::to_string(want));
    }
  });

  r.run("transform_reduce: max of a behaviour, int64", [&] {
    for (int n : test::small_filter(std::vector<int>{1, 5000, 1 << 20}, [](int n) { return n; })) {
      auto in = test::random_values<long long>(n, -(1LL << 40), 1LL << 40, 11 + n);
      mem_t<long long> d = to_mem(in, ctx), red(1, ctx);
      const long long* p = d.data();
      transform_reduce([=] __device__(int i) { return p[i] * 2 - i; }, n, red.data(),
                       maximum_t<long long>(), ctx);
      long long want = in[0] * 2;
      for (int i = 1; i < n; ++i) want = std::max(want, in[i] * 2 - i);
      if (red.to_host()[0] != want) r.fail("n=" + std::to_string(n));
    }
  });

  r.run("reduce non-commutative (affine composition)", [&] {
    for (int n : sizes_around(stream_box_t<affine_t>::cta_dim(900).nv(), false)) {
      auto in = random_affine(n, 3 + n);
      mem_t<affine_t> d = to_mem(in, ctx), red(1, ctx);
      red.memset(0xff);
      reduce(d.data(), n, red.data(), compose_t(), ctx, affine_t{1, 0});
      affine_t want = ref::reduce(in, compose_t(), affine_t{1, 0});
      if (!(red.to_host()[0] == want)) r.fail("n=" + std::to_string(n));
    }
  });

  for (bool inclusive : {false, true}) {
    const char* kind = inclusive ? "inclusive" : "exclusive";
    r.run(std::string("scan int plus ") + kind + ", around the tile, 1M, 100M", [&] {
      for (int n : sizes_around(scan_nv, true)) {
        auto in = test::random_values<int>(n, -1000, 1000, 17 + n);
        mem_t<int> d = to_mem(in, ctx), out(n, ctx), red(1, ctx);
        out.memset(0xff);
        red.memset(0xff);
        if (inclusive) scan<scan_type_inc>(d.data(), n, out.data(), plus_t<int>(), red.data(), ctx);
        else scan<scan_type_exc>(d.data(), n, out.data(), plus_t<int>(), red.data(), ctx);
        int want_red;
        auto want = ref::scan(in, inclusive, plus_t<int>(), 0, &want_red);
        test::expect_equal(r, out.to_host(), want, ("n=" + std::to_string(n)).c_str());
        if (red.to_host()[0] != want_red) r.fail("reduction n=" + std::to_string(n));
      }
    });
    r.run(std::string("scan non-commutative affine ") + kind, [&] {
      int nv = scan_box_t<affine_t>::cta_dim(900).nv();
      for (int n : sizes_around(nv, false)) {
        auto in = random_affine(n, 23 + n);
        mem_t<affine_t> d = to_mem(in, ctx), out(n, ctx), red(1, ctx);
        out.memset(0xff);
        affine_t init{1, 0}, want_red;
        if (inclusive) scan<scan_type_inc>(d.data(), n, out.data(), compose_t(), red.data(), ctx, init);
        else scan<scan_type_exc>(d.data(), n, out.data(), compose_t(), red.data(), ctx, init);
        auto want = ref::scan(in, inclusive, compose_t(), init, &want_red);
        test::expect_equal(r, out.to_host(), want, ("n=" + std::to_string(n)).c_str());
        if (!(red.to_host()[0] == want_red)) r.fail("reduction n=" + std::to_string(n));
      }
    });
  }

  // The single-pass kernel on ints, floats and non-commutative 4- and
  // 8-byte maps. The float items are whole numbers whose partial sums stay
  // within 2^24 in any order (|x| <= 16 up to 1M items; -1, 0 or 1, about
  // one in 8.5 nonzero, at 100M), so the scan must match the serial
  // reference exactly.
  r.run("scan int plus, inclusive and exclusive, around the tile, 1M, 100M", [&] {
    for (int n : sizes_around(scan_nv, true)) {
      auto in = test::random_values<int>(n, -1000, 1000, 61 + n);
      mem_t<int> d = to_mem(in, ctx), out(n, ctx), red(1, ctx);
      for (bool inclusive : {false, true}) {
        out.memset(0xff);
        red.memset(0xff);
        if (inclusive) scan<scan_type_inc>(d.data(), n, out.data(), plus_t<int>(), red.data(), ctx);
        else scan<scan_type_exc>(d.data(), n, out.data(), plus_t<int>(), red.data(), ctx, 7);
        int want_red;
        auto want = ref::scan(in, inclusive, plus_t<int>(), inclusive ? 0 : 7, &want_red);
        std::string what = std::string(inclusive ? "inc" : "exc") + " n=" + std::to_string(n);
        test::expect_equal(r, out.to_host(), want, what.c_str());
        if (red.to_host()[0] != want_red) r.fail("reduction " + what);
      }
    }
  });
  r.run("scan float plus (whole numbers, exact), around the tile, 1M, 100M", [&] {
    for (int n : sizes_around(scan_box_t<float>::cta_dim(ctx.ptx_version()).nv(), true)) {
      std::vector<float> in(n);
      if (n <= (1 << 20)) {
        auto v = test::random_values<int>(n, -16, 16, 71 + n);
        for (int i = 0; i < n; ++i) in[i] = (float)v[i];
      } else {
        auto v = test::random_values<int>(n, -8, 8, 73 + n);
        for (int i = 0; i < n; ++i) in[i] = v[i] == 8 ? 1.0f : v[i] == -8 ? -1.0f : 0.0f;
      }
      mem_t<float> d = to_mem(in, ctx), out(n, ctx), red(1, ctx);
      for (bool inclusive : {false, true}) {
        out.memset(0xff);  // NaN: compares unequal to every value
        red.memset(0xff);
        if (inclusive) scan<scan_type_inc>(d.data(), n, out.data(), plus_t<float>(), red.data(), ctx);
        else scan<scan_type_exc>(d.data(), n, out.data(), plus_t<float>(), red.data(), ctx, 0.0f);
        float want_red;
        auto want = ref::scan(in, inclusive, plus_t<float>(), 0.0f, &want_red);
        std::string what = std::string(inclusive ? "inc" : "exc") + " n=" + std::to_string(n);
        test::expect_equal(r, out.to_host(), want, what.c_str());
        if (!(red.to_host()[0] == want_red)) r.fail("reduction " + what);
      }
    }
  });
  // exclusive and inclusive scans of `in` under a non-commutative op,
  // outputs and reduction poisoned, against the CPU reference
  auto check_non_commutative = [&](const auto& in, auto op, auto init) {
    using V = std::decay_t<decltype(init)>;
    const int n = (int)in.size();
    mem_t<V> d = to_mem(in, ctx), out(n, ctx), red(1, ctx);
    for (bool inclusive : {false, true}) {
      out.memset(0xff);
      red.memset(0xff);
      if (inclusive) scan<scan_type_inc>(d.data(), n, out.data(), op, red.data(), ctx, init);
      else scan<scan_type_exc>(d.data(), n, out.data(), op, red.data(), ctx, init);
      V want_red;
      auto want = ref::scan(in, inclusive, op, init, &want_red);
      std::string what = std::string(inclusive ? "inc" : "exc") + " n=" + std::to_string(n);
      test::expect_equal(r, out.to_host(), want, what.c_str());
      if (!(red.to_host()[0] == want_red)) r.fail("reduction " + what);
    }
  };
  r.run("scan non-commutative 4-byte maps (mod 2^16), around the tile, 1M", [&] {
    for (int n : sizes_around(scan_box_t<affine16_t>::cta_dim(ctx.ptx_version()).nv(), false)) {
      auto v = test::random_values<unsigned>(2 * (size_t)n, 0, 0xffff, 81 + n);
      std::vector<affine16_t> in(n);
      for (int i = 0; i < n; ++i) in[i] = {(unsigned short)(v[2 * i] | 1u), (unsigned short)v[2 * i + 1]};
      check_non_commutative(in, compose16_t(), affine16_t{1, 0});
    }
  });
  r.run("scan non-commutative affine (8 bytes), around the tile, 1M", [&] {
    for (int n : sizes_around(scan_box_t<affine_t>::cta_dim(ctx.ptx_version()).nv(), false)) {
      auto in = random_affine(n, 91 + n);
      check_non_commutative(in, compose_t(), affine_t{1, 0});
    }
  });

  // The two single-pass kernels of 4-byte arrays (scan_vector_kernel for
  // 16-byte aligned arrays, the striped kernel otherwise or with
  // ATTU_SCAN_VECTOR=0), each against the reference: sizes around the
  // tile, a non-commutative 4-byte map, misaligned input or output (the
  // striped kernel serves them), in place.
  r.run("scan vector and striped kernels: around the tile, 1M, misaligned, in place", [&] {
    const bool saved = detail::scan_vector_on();
    const int nv = scan_box_t<int>::cta_dim(ctx.ptx_version()).nv();
    for (bool vec : {true, false}) {
      detail::scan_vector_on() = vec;
      const std::string mode = vec ? "vector " : "striped ";
      for (int n : sizes_around(nv, false)) {
        for (int shift : {0, 1, 3}) {  // items before the input (and output) pointer
          auto in = test::random_values<int>(n + shift, -1000, 1000, 101 + n + shift);
          mem_t<int> d = to_mem(in, ctx), out(n + 4, ctx), red(1, ctx);
          std::vector<int> mine(in.begin() + shift, in.end());
          for (int oshift : {0, shift}) {
            out.memset(0xff);
            red.memset(0xff);
            scan<scan_type_inc>(d.data() + shift, n, out.data() + oshift, plus_t<int>(), red.data(), ctx);
            int want_red;
            auto want = ref::scan(mine, true, plus_t<int>(), 0, &want_red);
            auto got = out.to_host();
            std::vector<int> got_n(got.begin() + oshift, got.begin() + oshift + n);
            std::string what = mode + "n=" + std::to_string(n) + " shift=" + std::to_string(shift) +
                               " out shift=" + std::to_string(oshift);
            test::expect_equal(r, got_n, want, what.c_str());
            if (red.to_host()[0] != want_red) r.fail("reduction " + what);
            for (int i = 0; i < oshift; ++i)
              if (got[i] != -1) r.fail("store before the output " + what);
            if (got[oshift + n] != -1) r.fail("store past the output " + what);
          }
        }
        auto v = test::random_values<unsigned>(2 * (size_t)n, 0, 0xffff, 111 + n);
        std::vector<affine16_t> in16(n);
        for (int i = 0; i < n; ++i) in16[i] = {(unsigned short)(v[2 * i] | 1u), (unsigned short)v[2 * i + 1]};
        check_non_commutative(in16, compose16_t(), affine16_t{1, 0});
        auto in = test::random_values<int>(n, -9, 9, 121 + n);
        mem_t<int> d = to_mem(in, ctx);
        scan<scan_type_exc>(d.data(), n, d.data(), plus_t<int>(), (int*)nullptr, ctx, 5);
        test::expect_equal(r, d.to_host(), ref::scan(in, false, plus_t<int>(), 5),
                           (mode + "in place n=" + std::to_string(n)).c_str());
      }
    }
    detail::scan_vector_on() = saved;
  });

  r.run("scan with a small launch box override and in-place output", [&] {
    int n = 100003;
    auto in = test::random_values<int>(n, 1, 9, 5);
    mem_t<int> d = to_mem(in, ctx);
    scan<scan_type_exc, launch_params_t<64, 3>>(d.data(), n, d.data(), plus_t<int>(),
                                                (int*)nullptr, ctx);
    test::expect_equal(r, d.to_host(), ref::scan(in, false, plus_t<int>()), "in place");
  });

  r.run("transform_scan_event: reduction in pinned memory at the event", [&] {
    int n = test::keep_size(5 << 20) ? 5 << 20 : 100000;
    auto in = test::random_values<long long>(n, 0, 1000, 9);
    mem_t<long long> d = to_mem(in, ctx), out(n, ctx);
    pinned_t<long long> red(1);
    red[0] = -1;
    const long long* p = d.data();
    transform_scan_event<scan_type_exc>([=] __device__(int i) { return p[i] + 1; }, n,
                                        out.data(), plus_t<long long>(), red.data(), ctx,
                                        ctx.event());
    ATTU_CUDA_CHECK(cudaEventSynchronize(ctx.event()));
    long long want = 0;
    for (auto x : in) want += x + 1;
    if (red[0] != want) r.fail("event reduction " + std::to_string(red[0]));
    std::vector<long long> in1(in);
    for (auto& x : in1) ++x;
    test::expect_equal(r, out.to_host(), ref::scan(in1, false, plus_t<long long>()), "scan");
  });

  r.run("transform_compact: upsweep count, downsweep order, around the tile, 100M", [&] {
    int nv = stream_compact_t<>::nt * stream_compact_t<>::vt;
    for (int n : sizes_around(nv, true)) {
      auto in = test::random_values<int>(n, -1000000, 1000000, 31 + n);
      mem_t<int> d = to_mem(in, ctx);
      const int* p = d.data();
      auto keep = [](int x) { return (x & 3) != 0 && x > -500000; };
      auto compact = transform_compact(n, ctx);
      int count = compact.upsweep([=] __device__(int i) { return (p[i] & 3) != 0 && p[i] > -500000; });
      auto want = ref::compact(n, [&](int i) { return keep(in[i]); });
      if (count != (int)want.size()) {
        r.fail("count n=" + std::to_string(n));
        continue;
      }
      mem_t<int> out(count, ctx);
      out.memset(0xff);
      int* o = out.data();
      compact.downsweep([=] __device__(int dest, int src) { o[dest] = src; });
      test::expect_equal(r, out.to_host(), want, ("n=" + std::to_string(n)).c_str());
    }
  });

  r.run("transform_compact upsweep_mask: byte masks with and without validity, aligned and not, around the tile, 100M", [&] {
    int nv = stream_compact_t<>::nt * stream_compact_t<>::vt;
    for (int n : sizes_around(nv, true)) {
      // mask bytes 0..3 (any nonzero keeps), validity bytes 0/1; a second
      // run reads both from an odd offset (the byte-per-item path)
      auto mv = test::random_values<int>((size_t)n + 1, 0, 3, 41 + n);
      auto vv = test::random_values<int>((size_t)n + 1, 0, 4, 43 + n);
      std::vector<uint8_t> mb(mv.begin(), mv.end()), vb(vv.size());
      for (size_t i = 0; i < vv.size(); ++i) vb[i] = vv[i] != 0;
      mem_t<uint8_t> dm = to_mem(mb, ctx), dv = to_mem(vb, ctx);
      for (int shift : {0, 1})
        for (bool valid : {false, true}) {
          const uint8_t* m = dm.data() + shift;
          const uint8_t* v = valid ? dv.data() + shift : nullptr;
          auto want = ref::compact(n, [&](int i) { return mb[i + shift] && (!valid || vb[i + shift]); });
          auto compact = transform_compact(n, ctx);
          int count = compact.upsweep_mask(m, v);
          std::string tag = "n=" + std::to_string(n) + " shift=" + std::to_string(shift) + (valid ? " valid" : "");
          if (count != (int)want.size()) {
            r.fail("count " + tag);
            continue;
          }
          mem_t<int> out(count, ctx);
          out.memset(0xff);
          int* o = out.data();
          compact.downsweep([=] __device__(int dest, int src) { o[dest] = src; });
          test::expect_equal(r, out.to_host(), want, tag.c_str());
        }
    }
  });

  r.run("transform_compact with __restrict__ args: a copy_if", [&] {
    for (int n : test::small_filter(std::vector<int>{1, 4095, 4096, 4097, 1 << 20}, [](int n) { return n; })) {
      auto in = test::random_values<int>(n, -1000, 1000, n + 3);
      mem_t<int> d = to_mem(in, ctx);
      auto compact = transform_compact(n, ctx);
      int count = compact.upsweep([] __device__(int i, const int* q) { return q[i] > 0; },
                                  (const int*)d.data());
      mem_t<int> out(count, ctx);
      out.memset(0xff);
      compact.downsweep([] __device__(int dst, int src, const int* q, int* o) { o[dst] = q[src]; },
                        (const int*)d.data(), out.data());
      std::vector<int> want;
      for (int x : in) if (x > 0) want.push_back(x);
      test::expect_equal(r, out.to_host(), want, ("n=" + std::to_string(n)).c_str());
    }
  });

  r.run("transform_compact: keep none, keep all", [&] {
    int n = 70001;
    auto c1 = transform_compact(n, ctx);
    if (c1.upsweep([] __device__(int) { return false; }) != 0) r.fail("keep none");
    c1.downsweep([] __device__(int, int) { __trap(); });
    auto c2 = transform_compact(n, ctx);
    if (c2.upsweep([] __device__(int) { return true; }) != n) r.fail("keep all");
    mem_t<int> out(n, ctx);
    int* o = out.data();
    c2.downsweep([=] __device__(int d, int s) { o[d] = s; });
    std::vector<int> want(n);
    for (int i = 0; i < n; ++i) want[i] = i;
    test::expect_equal(r, out.to_host(), want, "keep all");
  });

  r.run("reduce of floats and doubles (vector path): against a double-precision sum", [&] {
    for (int n : test::small_filter(std::vector<int>{0, 1, 4095, 4096, 4097, vec_nv8 - 1, vec_nv8 + 1,
                                                     vec_nv4 - 1, vec_nv4, vec_nv4 + 1, 3 * vec_nv4 + 7,
                                                     1 << 20, 16 << 20},
                                    [](int n) { return n; })) {
      auto xi = test::random_values<int>(n, -1000000, 1000000, 51 + n);
      std::vector<float> xf(n);
      std::vector<double> xd(n);
      double want = 0, mag = 0;
      for (int i = 0; i < n; ++i) {
        xf[i] = xi[i] / 1000.0f;
        xd[i] = xi[i] / 1000.0;
        want += xd[i];
        mag += std::fabs(xd[i]);
      }
      mem_t<float> df = to_mem(xf, ctx), rf(1, ctx);
      mem_t<double> dd = to_mem(xd, ctx), rd(1, ctx);
      rf.memset(0xff);
      rd.memset(0xff);
      reduce(df.data(), n, rf.data(), plus_t<float>(), ctx, 0.0f);
      reduce(dd.data(), n, rd.data(), plus_t<double>(), ctx, 0.0);
      double gf = rf.to_host()[0], gd = rd.to_host()[0];
      // float: each of n additions rounds by at most 2^-24 of the running magnitude
      if (std::fabs(gf - want) > 1e-6 * mag + 1e-3)
        r.fail("float n=" + std::to_string(n) + ": " + std::to_string(gf) + " want " + std::to_string(want));
      if (std::fabs(gd - want) > 1e-12 * mag + 1e-9)
        r.fail("double n=" + std::to_string(n) + ": " + std::to_string(gd) + " want " + std::to_string(want));
    }
  });

  // Stores aligned and not; an input pointer that is not 16-byte aligned.
  r.run("select_if: single pass, order kept, around the tile, keep none / some / all, 100M", [&] {
    int nv = select_box_t<int>::cta_dim(ctx.ptx_version()).nv();
    const bool saved = detail::select_align_on();
    for (int form = 0; form < 3; ++form)  // stores aligned, stores from the tile's first, input shifted
    for (int n : sizes_around(nv, form == 0)) {
      const bool align = form != 1;
      const int shift = form == 2 ? 1 : 0;
      detail::select_align_on() = align;
      auto in = test::random_values<int>(n + shift, -1000000, 1000000, 41 + n);
      mem_t<int> d = to_mem(in, ctx);
      in.erase(in.begin(), in.begin() + shift);
      const int* p = d.data() + shift;
      for (int mode = 0; mode < 4; ++mode) {
        std::vector<int> want;
        for (int x : in)
          if (mode == 2 || (mode == 1 && (x & 3) != 0 && x > -500000) || (mode == 3 && (x & 15) == 0))
            want.push_back(x);
        mem_t<int> out(n > 0 ? n : 1, ctx), cnt(1, ctx);
        out.memset(0xab);  // poisoned: every kept slot must be written
        cnt.memset(0xff);
        if (mode == 0) select_if(p, n, [] __device__(int) { return false; }, out.data(), cnt.data(), ctx);
        else if (mode == 1)
          select_if(p, n, [] __device__(int x) { return (x & 3) != 0 && x > -500000; }, out.data(),
                    cnt.data(), ctx);
        else if (mode == 2) select_if(p, n, [] __device__(int) { return true; }, out.data(), cnt.data(), ctx);
        else select_if(p, n, [] __device__(int x) { return (x & 15) == 0; }, out.data(), cnt.data(), ctx);
        int k = cnt.to_host()[0];
        static const char* forms[] = {"", "unaligned stores ", "input shifted "};
        std::string what = std::string(forms[form]) + "n=" +
                           std::to_string(n) + " mode " + std::to_string(mode);
        if (k != (int)want.size()) {
          r.fail(what + ": count " + std::to_string(k) + " want " + std::to_string(want.size()));
          continue;
        }
        auto got = out.to_host();
        got.resize(want.size());
        test::expect_equal(r, got, want, what.c_str());
      }
    }
    // 8-byte items (the tile is 128 x 12 on sm_90)
    for (int n : sizes_around(select_box_t<long long>::cta_dim(ctx.ptx_version()).nv(), false)) {
      detail::select_align_on() = true;
      auto in = test::random_values<long long>(n, -1000000, 1000000, 43 + n);
      for (long long& x : in) x *= 1000003;  // past 32 bits
      mem_t<long long> d = to_mem(in, ctx);
      std::vector<long long> want;
      for (long long x : in)
        if (x % 3 != 0) want.push_back(x);
      mem_t<long long> out(n > 0 ? n : 1, ctx);
      mem_t<int> cnt(1, ctx);
      out.memset(0xab);
      cnt.memset(0xff);
      select_if(d.data(), n, [] __device__(long long x) { return x % 3 != 0; }, out.data(), cnt.data(), ctx);
      int k = cnt.to_host()[0];
      std::string what = "int64 n=" + std::to_string(n);
      if (k != (int)want.size()) {
        r.fail(what + ": count " + std::to_string(k) + " want " + std::to_string(want.size()));
        continue;
      }
      auto got = out.to_host();
      got.resize(want.size());
      test::expect_equal(r, got, want, what.c_str());
    }
    detail::select_align_on() = saved;
  });

  // The look-back statuses live in the context between calls (lookback.cuh):
  // each kernel marks the other buffer for the next. A chain of calls queued
  // back to back, of growing and shrinking sizes, 4- and 8-byte statuses and
  // another layout (the affine pair) between them, must each come out as
  // if its statuses had been freshly marked. The chain runs twice.
  r.run("single-pass statuses kept between calls: sizes, types and patterns in turn", [&] {
    for (int pass = 0; pass < 2; ++pass) {
      context_t c2;  // a fresh context: its buffers start empty
      const int sizes[] = {1, scan_nv * 300 + 7, scan_nv - 1, scan_nv * 2000 + 1, 5, scan_nv * 2000,
                           scan_nv * 2001, 3 * scan_nv, scan_nv * 4000 + 11, 2};
      struct step_t { int n; int kind; mem_t<int> in, out, cnt; mem_t<long long> in8, out8;
                      mem_t<affine_t> ina, outa; std::vector<int> h; std::vector<long long> h8;
                      std::vector<affine_t> ha; };
      std::vector<step_t> steps;
      int seed = 0;
      for (int round = 0; round < 3; ++round)
        for (int n : sizes) {
          if (!test::keep_size(n)) continue;
          step_t s{};
          s.n = n;
          s.kind = (seed++) % 4;  // 0 scan int, 1 select_if int, 2 scan int64, 3 scan affine
          if (s.kind == 2) {
            s.h8 = test::random_values<long long>(n, -1000000, 1000000, 300 + seed);
            s.in8 = to_mem(s.h8, c2);
            s.out8 = mem_t<long long>(n, c2);
            s.out8.memset(0xff);
            scan<scan_type_inc>(s.in8.data(), n, s.out8.data(), plus_t<long long>(), (long long*)nullptr, c2);
          } else if (s.kind == 3) {
            if (n > (1 << 22)) n = s.n = 1 << 22;
            s.ha = random_affine(n, 400 + seed);
            s.ina = to_mem(s.ha, c2);
            s.outa = mem_t<affine_t>(n, c2);
            s.outa.memset(0xff);
            scan<scan_type_exc>(s.ina.data(), n, s.outa.data(), compose_t(), (affine_t*)nullptr, c2, affine_t{1, 0});
          } else {
            s.h = test::random_values<int>(n, -1000, 1000, 200 + seed);
            s.in = to_mem(s.h, c2);
            s.out = mem_t<int>(n, c2);
            s.out.memset(0xff);
            s.cnt = mem_t<int>(1, c2);
            s.cnt.memset(0xff);
            if (s.kind == 0) scan<scan_type_exc>(s.in.data(), n, s.out.data(), plus_t<int>(), (int*)nullptr, c2);
            else select_if(s.in.data(), n, [] __device__(int x) { return x % 3 != 0; }, s.out.data(), s.cnt.data(), c2);
          }
          steps.push_back(std::move(s));
        }
      for (step_t& s : steps) {
        std::string what = "pass " + std::to_string(pass) + " n=" + std::to_string(s.n) + " kind " +
                           std::to_string(s.kind);
        if (s.kind == 0) {
          test::expect_equal(r, s.out.to_host(), ref::scan(s.h, false, plus_t<int>()), what.c_str());
        } else if (s.kind == 2) {
          test::expect_equal(r, s.out8.to_host(), ref::scan(s.h8, true, plus_t<long long>()), what.c_str());
        } else if (s.kind == 3) {
          test::expect_equal(r, s.outa.to_host(), ref::scan(s.ha, false, compose_t(), affine_t{1, 0}), what.c_str());
        } else {
          std::vector<int> want;
          for (int x : s.h)
            if (x % 3 != 0) want.push_back(x);
          int k = s.cnt.to_host()[0];
          if (k != (int)want.size()) {
            r.fail(what + ": count " + std::to_string(k) + " want " + std::to_string(want.size()));
            continue;
          }
          auto got = s.out.to_host();
          got.resize(want.size());
          test::expect_equal(r, got, want, what.c_str());
        }
      }
    }
  });

  r.run("CUDA errors carry file and line", [&] {
    try {
      ATTU_CUDA_CHECK(cudaMemcpy(nullptr, (void*)1, 4, cudaMemcpyDeviceToDevice));
      r.fail("no exception");
    } catch (const cuda_error& e) {
      if (!std::strstr(e.what(), "test_scan.cu:")) r.fail(std::string("message: ") + e.what());
    }
  });

  if (test::timing_enabled()) {
    int n = 64 << 20;
    auto in = test::random_values<int>(n, 1, 1 << 20, 1);
    mem_t<int> d = to_mem(in, ctx), out(n, ctx), red(1, ctx);
    double copy = test::time_ms(ctx, 7, [&] {
      ATTU_CUDA_CHECK(cudaMemcpyAsync(out.data(), d.data(), n * 4ll, cudaMemcpyDeviceToDevice, ctx.stream()));
    });
    double tr = test::time_ms(ctx, 7, [&] { reduce(d.data(), n, red.data(), plus_t<int>(), ctx); });
    double ts = test::time_ms(ctx, 7, [&] {
      scan<scan_type_exc>(d.data(), n, out.data(), plus_t<int>(), red.data(), ctx);
    });
    const int* p = d.data();
    int* o = out.data();
    double tc = test::time_ms(ctx, 7, [&] {
      auto c = transform_compact(n, ctx);
      c.upsweep([] __device__(int i, const int* q) { return (q[i] & 1) != 0; }, p);
      c.downsweep([] __device__(int dst, int src, const int* q, int* out) { out[dst] = q[src]; },
                  p, o);
    });
    std::printf("timing 64M int: copy %.3f ms (%.0f GB/s), reduce %.3f ms, scan %.3f ms, "
                "compact(50%%) %.3f ms\n", copy, 2.0 * n * 4 / copy / 1e6, tr, ts, tc);
#ifdef ATTU_GPU_SWEEP
    // Launch-box sweep (built only with -DATTU_GPU_SWEEP): time and check
    // against the default box's output.
    auto want = out.to_host();
    scan<scan_type_exc>(d.data(), n, out.data(), plus_t<int>(), red.data(), ctx);
    want = out.to_host();
    auto sweep_scan = [&](auto box, const char* name) {
      using B = decltype(box);
      out.memset(0xff);
      double t = test::time_ms(ctx, 7, [&] {
        scan<scan_type_exc, B>(d.data(), n, out.data(), plus_t<int>(), red.data(), ctx);
      });
      double tr2 = test::time_ms(ctx, 7, [&] { reduce<B>(d.data(), n, red.data(), plus_t<int>(), ctx); });
      bool ok = out.to_host() == want;
      std::printf("sweep scan %s: %.3f ms, reduce %.3f ms %s\n", name, t, tr2, ok ? "ok" : "MISMATCH");
    };
    sweep_scan(launch_params_t<128, 16>(), "128x16");
    sweep_scan(launch_params_t<256, 8>(), "256x8");
    sweep_scan(launch_params_t<256, 16>(), "256x16");
    sweep_scan(launch_params_t<512, 8>(), "512x8");
    sweep_scan(launch_params_t<512, 12>(), "512x12");
    sweep_scan(launch_params_t<128, 24>(), "128x24");
    auto sweep_compact = [&](auto box, const char* name) {
      using B = decltype(box);
      double t = test::time_ms(ctx, 7, [&] {
        auto c = transform_compact<B>(n, ctx);
        c.upsweep(odd_t(), p);
        c.downsweep(copy_t(), p, o);
      });
      std::printf("sweep compact %s: %.3f ms\n", name, t);
    };
    sweep_compact(launch_params_t<256, 8>(), "256x8");
    sweep_compact(launch_params_t<128, 16>(), "128x16");
    sweep_compact(launch_params_t<512, 8>(), "512x8");
    sweep_compact(launch_params_t<256, 32>(), "256x32");
#endif
  }
  return r.finish();
}
