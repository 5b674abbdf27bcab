// test_search.cu: warp_partition_point, sorted_search (lower / upper), inner_join, bulk_insert
// and bulk_remove against the CPU references: sizes around the tile, 1M,
// duplicates-heavy and duplicate-free keys, empty sides, 64M into 64M.
#include "gpu/patterns/patterns.cuh"
#include "gpu/reference/intervals_reference.hpp"
#include "gpu/reference/search_reference.hpp"
#include "tests/gpu/test_util.cuh"

using namespace attu;
using namespace attu::gpu;
using attu::test::runner_t;

// One warp a case: the first m in [lo, hi) with m >= x (pred: m < x).
__global__ void partition_point_kernel(const long long* lo, const long long* hi,
                                       const long long* x, long long* out, int n) {
  int c = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
  if (c >= n) return;
  long long xc = x[c];
  long long got = warp_partition_point(lo[c], hi[c], [=](long long m) { return m < xc; });
  if ((threadIdx.x & 31) == 0) out[c] = got;
}

int main() {
  ATTU_GPU_TEST_MAIN_PROLOGUE();
  runner_t r;
  context_t ctx;
  std::printf("device: %s, %d SMs\n", ctx.props().name, ctx.sm_count());
  const int nv = search_box_t<int>::cta_dim(ctx.ptx_version()).nv();

  struct sizes_t { int a, b; long long range; };
  std::vector<sizes_t> cases = {
      {0, 0, 10}, {0, 5, 10}, {5, 0, 10}, {1, 1, 3}, {nv - 1, 1, 100}, {1, nv - 1, 100},
      {nv, nv, 1000}, {nv + 1, nv - 1, 50}, {3 * nv + 5, 2 * nv + 1, 1 << 30},
      {1 << 20, 1 << 20, 1 << 19}, {1 << 20, 1000, 1 << 20}, {1000, 1 << 20, 1 << 20},
      {1 << 20, 1 << 20, 1 << 30}, {16 << 20, 16 << 20, 1LL << 31},
      // past 2048 tiles: the two-level partition (merge_partition.cuh),
      // skewed both ways and with runs of equal keys across its groups
      {12 << 20, 100, 1 << 20}, {100, 12 << 20, 1 << 20}, {8 << 20, 8 << 20, 100}};
  auto size_of = [](const sizes_t& c) { return (long long)c.a + c.b; };
  cases = test::small_filter(cases, size_of);

  r.run("warp_partition_point: empty ranges, answers at both ends and inside, ranges to 2^40", [&] {
    std::vector<long long> lo, hi, x;
    auto add = [&](long long l, long long h, long long t) { lo.push_back(l); hi.push_back(h); x.push_back(t); };
    for (long long l : {0LL, 5LL, 1LL << 33})
      for (long long len : {0LL, 1LL, 2LL, 31LL, 32LL, 33LL, 1000LL, 1LL << 26})
        for (long long off : {-1LL, 0LL, 1LL, len / 2, len - 1, len, len + 1})
          add(l, l + len, l + off);
    std::mt19937_64 rng(42);
    for (int i = 0; i < 20000; ++i) {
      long long l = (long long)(rng() % (1ULL << 40));
      long long len = (long long)(rng() % (1ULL << (rng() % 41)));
      add(l, l + len, l - 2 + (long long)(rng() % (unsigned long long)(len + 4)));
    }
    int n = (int)lo.size();
    mem_t<long long> d_lo = to_mem(lo, ctx), d_hi = to_mem(hi, ctx), d_x = to_mem(x, ctx), out(n, ctx);
    out.memset(0xff);
    partition_point_kernel<<<div_up(n, 4), 128, 0, ctx.stream()>>>(d_lo.data(), d_hi.data(), d_x.data(),
                                                                  out.data(), n);
    ATTU_CUDA_CHECK_LAUNCH();
    std::vector<long long> want(n);
    for (int i = 0; i < n; ++i) want[i] = std::min(std::max(x[i], lo[i]), hi[i]);
    test::expect_equal(r, out.to_host(), want, "warp_partition_point");
  });

  // Both tile kernels (sorted_search.cuh: v3, the default; the first,
  // ATTU_SORTED_SEARCH_V3=0) on every case, v3 also with its loads and
  // stores aligned to 32 items (ATTU_SEARCH_ALIGN=1).
  const bool v3_saved = attu::gpu::detail::sorted_search_v3_on();
  const bool align_saved = attu::gpu::detail::search_align_on();
  const char* const kernel_names[] = {" (v3 tiles)", " (first tiles)", " (v3 tiles, aligned)"};
  auto pick_kernel = [](int k) {  // 0: v3, 1: the first, 2: v3 aligned
    attu::gpu::detail::sorted_search_v3_on() = k != 1;
    attu::gpu::detail::search_align_on() = k == 2;
  };
  auto restore_kernel = [&] {
    attu::gpu::detail::sorted_search_v3_on() = v3_saved;
    attu::gpu::detail::search_align_on() = align_saved;
  };
  for (int kernel : {0, 1, 2})
  for (bool upper : {false, true}) {
    r.run(std::string("sorted_search ") + (upper ? "bounds_upper" : "bounds_lower") +
              kernel_names[kernel] + " (int keys, duplicates), up to 16M into 16M",
          [&] {
            pick_kernel(kernel);
            for (auto c : cases) {
              auto needles = test::random_sorted<int>(c.a, -(c.range / 2), c.range / 2, c.a * 3 + 1);
              auto hay = test::random_sorted<int>(c.b, -(c.range / 2), c.range / 2, c.b * 5 + 2);
              mem_t<int> d_n = to_mem(needles, ctx), d_h = to_mem(hay, ctx), out(c.a, ctx);
              out.memset(0xff);
              if (upper)
                sorted_search<bounds_upper>((const int*)d_n.data(), c.a, (const int*)d_h.data(),
                                            c.b, out.data(), less_t<int>(), ctx);
              else
                sorted_search<bounds_lower>((const int*)d_n.data(), c.a, (const int*)d_h.data(),
                                            c.b, out.data(), less_t<int>(), ctx);
              test::expect_equal(r, out.to_host(),
                                 ref::sorted_search(needles, hay, upper, less_t<int>()),
                                 ("a=" + std::to_string(c.a) + " b=" + std::to_string(c.b)).c_str());
            }
          });
  }
  restore_kernel();

  // Other tile shapes (many warps and tiles, even vt, one item a thread),
  // every kernel, lower and upper, sizes around the tiles' edges.
  r.run("sorted_search at tiles 64 x 5, 128 x 16, 32 x 1 and 256 x 11, every kernel", [&] {
    auto check = [&](auto box, int kernel, bool upper, int na, int nb, long long range) {
      using box_t = decltype(box);
      pick_kernel(kernel);
      auto needles = test::random_sorted<int>(na, -(range / 2), range / 2, na * 7 + 5);
      auto hay = test::random_sorted<int>(nb, -(range / 2), range / 2, nb * 3 + 9);
      mem_t<int> d_n = to_mem(needles, ctx), d_h = to_mem(hay, ctx), out(na, ctx);
      out.memset(0xff);
      if (upper)
        sorted_search<bounds_upper, box_t>((const int*)d_n.data(), na, (const int*)d_h.data(), nb,
                                           out.data(), less_t<int>(), ctx);
      else
        sorted_search<bounds_lower, box_t>((const int*)d_n.data(), na, (const int*)d_h.data(), nb,
                                           out.data(), less_t<int>(), ctx);
      test::expect_equal(r, out.to_host(), ref::sorted_search(needles, hay, upper, less_t<int>()),
                         (std::string(kernel_names[kernel]) + " nv=" + std::to_string(box_t::nv) +
                          " a=" + std::to_string(na) + " b=" + std::to_string(nb) +
                          " range=" + std::to_string(range)).c_str());
    };
    auto shape = [&](auto box) {
      const int bnv = decltype(box)::nv;
      for (int kernel : {0, 1, 2})
        for (bool upper : {false, true})
          for (auto c : std::vector<sizes_t>{{1, 1, 3}, {bnv - 1, 1, 100}, {1, bnv - 1, 100},
                                             {bnv + 1, bnv - 1, 50}, {7 * bnv + 3, 5 * bnv + 1, 1 << 30},
                                             {300000, 200000, 7}, {200000, 300000, 1 << 30},
                                             {100000, 30, 1 << 20}, {30, 100000, 1 << 20}})
            if (test::keep_size((long long)c.a + c.b)) check(box, kernel, upper, c.a, c.b, c.range);
    };
    shape(launch_params_t<64, 5>());
    shape(launch_params_t<128, 16>());
    shape(launch_params_t<32, 1>());
    shape(launch_params_t<256, 11>());  // 8-byte keys' default box
    restore_kernel();
  });

  r.run("merge_partitions: two levels against one (merge_partition.cuh)", [&] {
    // the two-level form forced (two_level_min 0) against the one-level
    // form, point for point, over skewed and duplicate-heavy inputs
    for (auto c : std::vector<sizes_t>{{12 << 20, 100, 1 << 20}, {100, 12 << 20, 1 << 20},
                                       {8 << 20, 8 << 20, 100}, {5 << 20, 7 << 20, 1LL << 31},
                                       {3 * nv + 5, 2 * nv + 1, 1 << 30}}) {
      if (test::small_filter(std::vector<sizes_t>{c}, size_of).empty()) continue;
      auto needles = test::random_sorted<int>(c.a, -(c.range / 2), c.range / 2, c.a * 7 + 3);
      auto hay = test::random_sorted<int>(c.b, -(c.range / 2), c.range / 2, c.b * 11 + 4);
      mem_t<int> d_n = to_mem(needles, ctx), d_h = to_mem(hay, ctx);
      for (int pnv : {nv, 97}) {
        int parts = int(((long long)c.a + c.b + pnv - 1) / pnv) + 1;
        mem_t<int> one(parts, ctx), two(parts, ctx);
        one.memset(0xff);
        two.memset(0xff);
        attu::gpu::detail::search_pred_t<bounds_lower, const int*, const int*, less_t<int>> pred{
            d_n.data(), d_h.data(), less_t<int>()};
        merge_partitions(pred, c.a, c.b, pnv, parts, one.data(), ctx, 1 << 30);
        merge_partitions(pred, c.a, c.b, pnv, parts, two.data(), ctx, 0);
        test::expect_equal(r, two.to_host(), one.to_host(),
                           ("a=" + std::to_string(c.a) + " b=" + std::to_string(c.b) + " nv=" +
                            std::to_string(pnv)).c_str());
      }
    }
  });

  for (int kernel : {0, 1, 2})
  r.run(std::string("sorted_search with descending order (greater_t) and double keys") +
            kernel_names[kernel], [&] {
    pick_kernel(kernel);
    auto needles = test::random_sorted<int>(50000, -5000, 5000, 1);
    auto hay = test::random_sorted<int>(70000, -5000, 5000, 2);
    std::vector<double> n2(needles.rbegin(), needles.rend()), h2(hay.rbegin(), hay.rend());
    for (auto& x : n2) x *= 0.5;
    for (auto& x : h2) x *= 0.5;
    mem_t<double> d_n = to_mem(n2, ctx), d_h = to_mem(h2, ctx);
    mem_t<int> out(n2.size(), ctx);
    out.memset(0xff);
    sorted_search<bounds_lower>((const double*)d_n.data(), (int)n2.size(),
                                (const double*)d_h.data(), (int)h2.size(), out.data(),
                                greater_t<double>(), ctx);
    test::expect_equal(r, out.to_host(), ref::sorted_search(n2, h2, false, greater_t<double>()),
                       "descending");
    restore_kernel();
  });

  r.run("inner_join: pairs ordered by (a, b), duplicates on both sides", [&] {
    std::vector<sizes_t> jc = {{0, 10, 10}, {10, 0, 10}, {1, 1, 1}, {nv + 1, nv - 1, 300},
                               {100000, 80000, 40000}, {1 << 20, 1 << 20, 1 << 20},
                               {16 << 20, 16 << 20, 8 << 20}};
    for (auto c : test::small_filter(jc, size_of)) {
      auto a = test::random_sorted<int>(c.a, 0, c.range - 1, c.a + 1);
      auto b = test::random_sorted<int>(c.b, 0, c.range - 1, c.b + 2);
      mem_t<int> d_a = to_mem(a, ctx), d_b = to_mem(b, ctx);
      mem_t<int2> pairs = inner_join((const int*)d_a.data(), c.a, (const int*)d_b.data(), c.b,
                                     less_t<int>(), ctx);
      auto got2 = pairs.to_host();
      std::vector<std::pair<int, int>> got(got2.size());
      for (size_t i = 0; i < got2.size(); ++i) got[i] = {got2[i].x, got2[i].y};
      test::expect_equal(r, got, ref::inner_join(a, b, less_t<int>()),
                         ("a=" + std::to_string(c.a) + " b=" + std::to_string(c.b)).c_str());
    }
  });

  r.run("bulk_insert: inserts at the same position keep order, at the ends too", [&] {
    for (auto c : test::small_filter(std::vector<sizes_t>{{0, 0, 0}, {0, 10, 0}, {10, 0, 0}, {1, 1, 0},
                                       {nv + 3, nv - 1, 0}, {300000, 1 << 20, 0}}, size_of)) {
      auto a = test::random_values<int>(c.a, -1000000, -1, c.a + 3);
      // insert positions in [0, b], sorted; zeros allowed (front inserts)
      std::vector<int> where(c.a);
      std::mt19937 rng(c.a + 4);
      for (auto& w : where) w = (int)(rng() % (c.b + 1));
      std::sort(where.begin(), where.end());
      auto b = test::random_values<int>(c.b, 1, 1000000, c.b + 5);
      mem_t<int> d_a = to_mem(a, ctx), d_w = to_mem(where, ctx), d_b = to_mem(b, ctx),
                 out(c.a + c.b, ctx);
      out.memset(0xff);
      bulk_insert((const int*)d_a.data(), (const int*)d_w.data(), c.a, (const int*)d_b.data(),
                  c.b, out.data(), ctx);
      test::expect_equal(r, out.to_host(), ref::bulk_insert(a, where, b),
                         ("a=" + std::to_string(c.a) + " b=" + std::to_string(c.b)).c_str());
    }
  });

  r.run("bulk_remove: sorted unique indices, none, all", [&] {
    for (int n : test::small_filter(std::vector<int>{0, 1, nv - 1, nv + 1, 1 << 20}, [](int n) { return n; })) {
      auto in = test::random_values<int>(n, -1000000, 1000000, n + 9);
      for (int mode = 0; mode < 3; ++mode) {
        std::vector<int> idx;
        for (int i = 0; i < n; ++i)
          if (mode == 2 || (mode == 1 && (in[i] & 1))) idx.push_back(i);
        mem_t<int> d_in = to_mem(in, ctx), d_idx = to_mem(idx, ctx), out(n - idx.size(), ctx);
        out.memset(0xff);
        bulk_remove((const int*)d_in.data(), n, (const int*)d_idx.data(), (int)idx.size(),
                    out.data(), ctx);
        test::expect_equal(r, out.to_host(), ref::bulk_remove(in, idx),
                           ("n=" + std::to_string(n) + " mode=" + std::to_string(mode)).c_str());
      }
    }
  });

  if (test::timing_enabled()) {
    int n = 64 << 20;
    auto a = test::random_ascending(n, 60, 1);
    auto b = test::random_ascending(n, 60, 2);
    mem_t<int> d_a = to_mem(a, ctx), d_b = to_mem(b, ctx), out(n, ctx);
    double t = test::time_ms(ctx, 7, [&] {
      sorted_search<bounds_lower>((const int*)d_a.data(), n, (const int*)d_b.data(), n,
                                  out.data(), less_t<int>(), ctx);
    });
    auto ja = test::random_ascending(16 << 20, 1, 3);  // keys in [0, ~8M)
    auto jb = test::random_ascending(16 << 20, 1, 4);
    mem_t<int> d_ja = to_mem(ja, ctx), d_jb = to_mem(jb, ctx);
    size_t npairs = 0;
    double tj = test::time_ms(ctx, 5, [&] {
      auto p = inner_join((const int*)d_ja.data(), 16 << 20, (const int*)d_jb.data(), 16 << 20,
                          less_t<int>(), ctx);
      npairs = p.size();
    });
    std::printf("timing: sorted_search 64M into 64M %.3f ms; inner_join 16Mx16M (%zu pairs) %.3f ms\n",
                t, npairs, tj);
  }
  return r.finish();
}
