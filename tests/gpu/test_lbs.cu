// test_lbs.cu: load_balance_search, transform_lbs (with tuple caching),
// segreduce / transform_segreduce (4-, 8- and 16-byte values) / lbs_segreduce / spmv, the interval
// moves and lbs_workcreate against the CPU references, over segment
// geometries with empty segments, one huge segment and millions of tiny
// ones; a non-commutative operator for the segmented reductions.
#include "gpu/patterns/patterns.cuh"
#include "gpu/reference/intervals_reference.hpp"
#include "gpu/reference/load_balance_reference.hpp"
#include "tests/gpu/test_util.cuh"

using namespace attu;
using namespace attu::gpu;
using attu::test::runner_t;

// Composition of affine maps mod 2^32 (associative, not commutative).
struct affine_t {
  unsigned a, b;
  __host__ __device__ bool operator==(const affine_t& o) const { return a == o.a && b == o.b; }
};
struct compose_t {
  __host__ __device__ affine_t operator()(const affine_t& f, const affine_t& g) const {
    return affine_t{g.a * f.a, g.a * f.b + g.b};
  }
};

// The same mod 2^64: 16-byte values, which segreduce's tails kernel runs
// in its wide box (segreduce_wide_box_t).
struct affine64_t {
  unsigned long long a, b;
  __host__ __device__ bool operator==(const affine64_t& o) const { return a == o.a && b == o.b; }
};
struct compose64_t {
  __host__ __device__ affine64_t operator()(const affine64_t& f, const affine64_t& g) const {
    return affine64_t{g.a * f.a, g.a * f.b + g.b};
  }
};

// The first and the last item of a fold (associative, not commutative).
struct first_t {
  __host__ __device__ int operator()(int a, int) const { return a; }
};
struct last_t {
  __host__ __device__ int operator()(int, int b) const { return b; }
};

struct seg_rank_t {
  int* so;
  int* ro;
  __device__ void operator()(int i, int seg, int rank) const {
    so[i] = seg;
    ro[i] = rank;
  }
};

struct geo_case_t {
  int count;
  test::geometry_t geo;
  int mean;
};

static std::vector<geo_case_t> geo_cases(int nv, bool big) {
  std::vector<geo_case_t> c;
  for (int n : {0, 1, nv - 1, nv, nv + 1, 5 * nv + 3})
    for (auto g : {test::geo_random, test::geo_empty_heavy, test::geo_one_huge, test::geo_tiny})
      c.push_back({n, g, 7});
  c.push_back({1 << 20, test::geo_random, 10});
  c.push_back({1 << 20, test::geo_random, 1000});
  c.push_back({1 << 20, test::geo_empty_heavy, 50});
  c.push_back({1 << 20, test::geo_one_huge, 0});
  c.push_back({3 << 20, test::geo_tiny, 0});  // ~3M tiny segments
  if (big) {
    c.push_back({100 << 20, test::geo_random, 10});
    c.push_back({100 << 20, test::geo_one_huge, 0});
  }
  return test::small_filter(c, [](const geo_case_t& g) { return g.count; });
}

// Segment starts for count items: runs of empty segments (0 to 2, one
// time in 8 up to 99) between segments of 0 to 4 items.
static std::vector<int> empty_runs(int count) {
  std::vector<int> segs;
  unsigned x = 12345;
  int pos = 0;
  while (pos < count) {
    x = x * 1664525u + 1013904223u;
    const int run = (int)((x >> 8) % (((x >> 4) & 7) == 0 ? 100 : 3));
    for (int e = run; e > 0; --e) segs.push_back(pos);
    segs.push_back(pos);
    pos = std::min(count, pos + (int)((x >> 20) % 5));
  }
  if (segs.empty()) segs.push_back(0);
  return segs;
}

// Segment starts for count items in the warp paths' range of means
// (warp_segments.cuh) with segments past kWarpChunkLen among them: 0 to
// 2000 items, one segment in 300 of 20,000 to 300,000 items, and one of
// 1M items (listed as chunks, folded or copied by the chunk kernels).
static std::vector<int> long_mix(int count) {
  std::vector<int> segs;
  unsigned x = 777;
  int pos = 0, k = 0;
  while (pos < count) {
    x = x * 1664525u + 1013904223u;
    segs.push_back(pos);
    int len = (int)((x >> 8) % 2001);
    if (++k % 300 == 0) len = 20000 + (int)((x >> 4) % 280001);
    if (k == 1000) len = 1 << 20;
    pos = std::min(count, pos + len);
  }
  return segs;
}

static std::string name_of(const geo_case_t& c, size_t segs) {
  return "n=" + std::to_string(c.count) + " " + test::geometry_name(c.geo) +
         " segs=" + std::to_string(segs);
}

int main() {
  ATTU_GPU_TEST_MAIN_PROLOGUE();
  runner_t r;
  context_t ctx;
  std::printf("device: %s, %d SMs\n", ctx.props().name, ctx.sm_count());
  const int nv = lbs_box_t::cta_dim(ctx.ptx_version()).nv();
  // segmented reductions of values (no per-item segment) have their own
  // tiles: their edges too
  const int snv = segreduce_box_t::cta_dim(ctx.ptx_version()).nv();
  // and the interval moves (lbs_move)
  const int mnv = lbs_move_box_t::cta_dim(ctx.ptx_version()).nv();

  r.run("load_balance_search over all geometries, 1M, 100M", [&] {
    for (auto c : geo_cases(nv, true)) {
      auto segs = test::make_segments(c.count, c.geo, c.mean, c.count * 7 + c.geo);
      mem_t<int> d_segs = to_mem(segs, ctx), out(c.count, ctx);
      out.memset(0xff);
      load_balance_search(c.count, (const int*)d_segs.data(), (int)segs.size(), out.data(), ctx);
      test::expect_equal(r, out.to_host(), ref::load_balance_search(c.count, segs),
                         name_of(c, segs.size()).c_str());
    }
  });

  // transform_lbs with two cached iterators and the rank, against the
  // reference: as dispatched, or (marks) through the interval moves' marks
  // directly, whatever the mean
  auto check_cached = [&](const geo_case_t& c, const std::vector<int>& segs, int seed, bool marks) {
    int ns = (int)segs.size();
    auto va = test::random_values<int>(ns, -1000, 1000, seed);
    auto vb = test::random_values<long long>(ns, 1, 1LL << 40, seed + 1);
    mem_t<int> d_segs = to_mem(segs, ctx), d_va = to_mem(va, ctx);
    mem_t<long long> d_vb = to_mem(vb, ctx), out(c.count, ctx);
    out.memset(0xff);
    long long* o = out.data();
    auto f = [=] __device__(int index, int seg, int rank, cuda::std::tuple<int, long long> v) {
      o[index] = cuda::std::get<0>(v) * 1000003LL + cuda::std::get<1>(v) * 7 + rank * 31 + seg;
    };
    auto cache = cuda::std::make_tuple((const int*)d_va.data(), (const long long*)d_vb.data());
    if (marks) detail::transform_lbs_v3<empty_t>(f, c.count, (const int*)d_segs.data(), ns, cache, ctx);
    else transform_lbs(f, c.count, (const int*)d_segs.data(), ns, cache, ctx);
    std::vector<long long> want(c.count);
    ref::transform_lbs([&](int i, int s, int rank) {
      want[i] = va[s] * 1000003LL + vb[s] * 7 + rank * 31 + s;
    }, c.count, segs);
    test::expect_equal(r, out.to_host(), want, ((marks ? "marks cached " : "") + name_of(c, ns)).c_str());
  };

  r.run("transform_lbs with tuple caching (two iterators) and rank", [&] {
    for (auto c : geo_cases(nv, false)) {
      auto segs = test::make_segments(c.count, c.geo, c.mean, c.count * 3 + c.geo);
      check_cached(c, segs, (int)segs.size(), false);
    }
  });

  // transform_lbs through the interval moves' marks (the default below a
  // mean segment of 512 items), called directly so that long segments take
  // it too: every geometry around its tile, the merge path's and the
  // moves', with caching; load_balance_search (no caching) as dispatched,
  // and through the merge path (ATTU_LBS_V3=0).
  r.run("transform_lbs and load_balance_search through the moves' marks, all geometries", [&] {
    const bool saved = detail::lbs_v3_on(), saved_pdl = detail::lbs_pdl_on();
    const int knv = detail::lbs_marks_box_t::cta_dim(ctx.ptx_version()).nv();
    for (int tile : {knv, nv, mnv})
      for (auto c : geo_cases(tile, false)) {
        auto segs = test::make_segments(c.count, c.geo, c.mean, c.count * 5 + c.geo);
        int ns = (int)segs.size();
        detail::lbs_pdl_on() = c.count % 2 == 0;  // the marks tiles as the partition's dependent, or not
        check_cached(c, segs, ns + 3, true);
        mem_t<int> d_segs = to_mem(segs, ctx), seg_out(c.count, ctx);
        for (bool v3 : {true, false}) {
          detail::lbs_v3_on() = v3;
          seg_out.memset(0xff);
          load_balance_search(c.count, (const int*)d_segs.data(), ns, seg_out.data(), ctx);
          test::expect_equal(r, seg_out.to_host(), ref::load_balance_search(c.count, segs),
                             ((v3 ? "lbs " : "lbs, merge path ") + name_of(c, ns)).c_str());
        }
      }
    detail::lbs_v3_on() = saved;
    detail::lbs_pdl_on() = saved_pdl;
  });

  r.run("transform_lbs: the direct count of tiles with few ends and the merge, long segments", [&] {
    // Means 300 to 20000 (empty segments among them in the empty-heavy
    // geometry) put tiles with 0 to 8 ends and tiles with more side by
    // side; each geometry runs with the direct count on and off, the
    // items aligned to 32 or mapped from the tile's first, with and
    // without caching.
    const bool saved = detail::lbs_direct_on(), saved_align = detail::lbs_align_on(), saved_v3 = detail::lbs_v3_on();
    detail::lbs_v3_on() = false;  // (mean 300 would take the marks)
    for (int mode = 0; mode < 4; ++mode) {  // direct / merge, items aligned / from a0
      const bool direct = mode % 2 == 0;
      detail::lbs_direct_on() = direct;
      detail::lbs_align_on() = mode < 2;
      for (int mean : {300, 1000, 5000, 20000})
        for (auto g : {test::geo_random, test::geo_empty_heavy, test::geo_one_huge})
          for (int n : {nv - 1, nv + 1, 3 << 20}) {
            auto segs = test::make_segments(n, g, mean, n * 3 + mean + g);
            int ns = (int)segs.size();
            auto va = test::random_values<int>(ns, -1000, 1000, ns + 5);
            mem_t<int> d_segs = to_mem(segs, ctx), d_va = to_mem(va, ctx), out(n, ctx), seg_out(n, ctx);
            out.memset(0xff);
            int* o = out.data();
            transform_lbs(
                [=] __device__(int index, int seg, int rank, cuda::std::tuple<int> v) {
                  o[index] = cuda::std::get<0>(v) * 7919 + rank * 31 + seg;
                },
                n, (const int*)d_segs.data(), ns, cuda::std::make_tuple((const int*)d_va.data()), ctx);
            std::vector<int> want(n);
            ref::transform_lbs([&](int i, int s, int rank) { want[i] = va[s] * 7919 + rank * 31 + s; }, n, segs);
            std::string what = std::string(direct ? "direct" : "merge") + (mode < 2 ? " aligned" : "") + " mean " + std::to_string(mean) + " " +
                               test::geometry_name(g) + " n=" + std::to_string(n);
            test::expect_equal(r, out.to_host(), want, ("cached " + what).c_str());
            seg_out.memset(0xff);
            load_balance_search(n, (const int*)d_segs.data(), ns, seg_out.data(), ctx);
            test::expect_equal(r, seg_out.to_host(), ref::load_balance_search(n, segs), ("lbs " + what).c_str());
          }
    }
    detail::lbs_direct_on() = saved;
    detail::lbs_align_on() = saved_align;
    detail::lbs_v3_on() = saved_v3;
  });

  r.run("segreduce int plus over all geometries (init for empty), 1M, 100M", [&] {
    for (auto c : geo_cases(snv, true)) {
      auto segs = test::make_segments(c.count, c.geo, c.mean, c.count * 5 + c.geo);
      int ns = (int)segs.size();
      auto in = test::random_values<int>(c.count, -1000, 1000, c.count + 99);
      mem_t<int> d_in = to_mem(in, ctx), d_segs = to_mem(segs, ctx), out(ns, ctx);
      out.memset(0xff);
      segreduce(d_in.data(), c.count, (const int*)d_segs.data(), ns, out.data(),
                plus_t<int>(), -7, ctx);
      auto want = ref::segreduce<int>([&](int i, int, int) { return in[i]; }, c.count,
                                      segs, plus_t<int>(), -7);
      test::expect_equal(r, out.to_host(), want, name_of(c, ns).c_str());
    }
  });

  r.run("segreduce's blocked tiles and the tails kernel: geometries, offsets, order", [&] {
    // The blocked kernel reads 4-byte arrays at 16-byte aligned addresses
    // (offsets 0 and 4 of the buffer; offset 1 takes the tails kernel); its
    // tiles hold nt * vt - 4 merged positions. "first" and "last" are
    // associative and not commutative: a fold out of item order shows.
    // The blocked kernel runs twice (segreduce_blocked_impl's pdl flag):
    // as programmatic dependents (the default), then with plain launches
    // (ATTU_SEGREDUCE_PDL=0); on a device before Hopper both are plain.
    // Mode 3: the dependent launches with the fold that stores each tail
    // to global memory (ATTU_SEGREDUCE_LEAN=0).
    const bool saved = detail::segreduce_blocked_on(), saved_pdl = detail::segreduce_pdl_on(),
               saved_lean = detail::segreduce_lean_on();
    for (int mode : {0, 1, 2, 3}) {
      const bool blocked = mode != 2, pdl = mode == 0 || mode == 3;
      detail::segreduce_blocked_on() = blocked;
      detail::segreduce_pdl_on() = pdl;
      detail::segreduce_lean_on() = mode != 3;
      const int bnv = blocked ? 256 * 16 - 4 : snv;
      // means 3000 and 6000: tiles inside one segment (no end: their runs
      // only carry) beside tiles with ends
      auto cases = geo_cases(bnv, true);
      cases.push_back({4 << 20, test::geo_random, 3000});
      cases.push_back({4 << 20, test::geo_random, 6000});
      for (auto c : cases) {
        for (int off : {0, 4, 1}) {
          if (c.count > (8 << 20) && off) continue;
          auto segs = test::make_segments(c.count, c.geo, c.mean, c.count * 11 + c.geo + off);
          int ns = (int)segs.size();
          auto in = test::random_values<int>(c.count + off, -1000, 1000, c.count + 7 * off);
          std::vector<int> shifted(in.begin() + off, in.end());
          mem_t<int> d_in = to_mem(in, ctx), d_segs = to_mem(segs, ctx), out(ns, ctx);
          std::string what = std::string(!blocked ? "tails" : mode == 3 ? "blocked pdl, not lean" : pdl ? "blocked pdl" : "blocked launches") + " off " +
                             std::to_string(off) + " " +
                             name_of(c, ns);
          auto check = [&](auto op, int init, const char* opname) {
            out.memset(0xff);
            segreduce(d_in.data() + off, c.count, (const int*)d_segs.data(), ns, out.data(), op,
                      init, ctx);
            test::expect_equal(r, out.to_host(),
                               ref::segreduce<int>([&](int i, int, int) { return shifted[i]; },
                                                   c.count, segs, op, init),
                               (std::string(opname) + " " + what).c_str());
          };
          check(plus_t<int>(), -7, "plus");
          if (c.count <= (8 << 20)) {
            check(first_t(), -3, "first");
            check(last_t(), -5, "last");
          }
        }
      }
    }
    detail::segreduce_blocked_on() = saved;
    detail::segreduce_pdl_on() = saved_pdl;
    detail::segreduce_lean_on() = saved_lean;
  });

  r.run("segreduce's warp path (segreduce_warp.cuh): mean >= 256, unaligned, empty, ops", [&] {
    // 2M items (past ATTU_WARP_SEGMENTS_MIN_COUNT) in segments of 0 to 2 *
    // mean items with empty ones between, read from offsets 0..3 of the
    // buffer (the 16-byte vectors start anywhere in a segment); int plus,
    // min and max, int64 plus exactly; float plus against a double sum;
    // and 12M items of long_mix (segments past kWarpChunkLen, up to 1M
    // items: the chunk kernel's partials and their combine). A wrong path
    // taken shows only in bench_core's timings (the answers are the same
    // by design).
    // Each geometry with the loads a lane keeps in flight picked by the
    // mean (0: 4 at means 300, 500 and the long mix's, 8 at 2500) and
    // forced to 4 and 8.
    // The chunk kernel's count words (the context's, zeroed again by its
    // last block, or the pool's with a memset) and its launch (as the warp
    // kernel's dependent or plain) cycle over the calls: the long mix
    // meets all four at every rounds setting.
    const int saved_rounds = segreduce_warp_rounds();
    const bool saved_keep = warp_chunk_keep_on(), saved_chunk_pdl = warp_chunk_pdl_on();
    int call = 0;
    for (int rounds : {0, 4, 8})
    for (int mean : {600, 1000, 5000, -2})  // half the segments empty: means 300 / 500 / 2500
      for (int off : {0, 1, 2, 3}) {
        segreduce_warp_rounds() = rounds;
        warp_chunk_keep_on() = (call & 1) != 0;
        warp_chunk_pdl_on() = (call & 2) != 0;
        ++call;
        const int n = mean > 0 ? 2 << 20 : 12 << 20;
        auto segs = mean > 0 ? test::make_segments(n - off, test::geo_empty_heavy, mean, mean * 7 + off)
                             : long_mix(n - off);
        if (off == 3) {
          int mid = segs[segs.size() / 2];
          segs.insert(segs.begin() + segs.size() / 2, mid);  // another empty segment
        }
        int ns = (int)segs.size();
        std::string what = (mean > 0 ? "mean " + std::to_string(mean) : std::string("long mix")) + " offset " +
                           std::to_string(off) + " rounds " + std::to_string(rounds) +
                           (warp_chunk_keep_on() ? " kept words" : " pool words") +
                           (warp_chunk_pdl_on() ? " pdl" : " plain");
        auto in = test::random_values<int>(n, -1000000, 1000000, mean + off);
        mem_t<int> d_in = to_mem(in, ctx), d_segs = to_mem(segs, ctx), out(ns, ctx);
        std::vector<int> shifted(in.begin() + off, in.end());
        out.memset(0xff);
        segreduce(d_in.data() + off, n - off, (const int*)d_segs.data(), ns, out.data(), plus_t<int>(), -7, ctx);
        test::expect_equal(r, out.to_host(),
                           ref::segreduce<int>([&](int i, int, int) { return shifted[i]; }, n - off, segs,
                                               plus_t<int>(), -7),
                           ("int plus " + what).c_str());
        out.memset(0xff);
        segreduce(d_in.data() + off, n - off, (const int*)d_segs.data(), ns, out.data(), minimum_t<int>(), 5, ctx);
        test::expect_equal(r, out.to_host(),
                           ref::segreduce<int>([&](int i, int, int) { return shifted[i]; }, n - off, segs,
                                               minimum_t<int>(), 5),
                           ("int min " + what).c_str());
        out.memset(0xff);
        segreduce(d_in.data() + off, n - off, (const int*)d_segs.data(), ns, out.data(), maximum_t<int>(), 5, ctx);
        test::expect_equal(r, out.to_host(),
                           ref::segreduce<int>([&](int i, int, int) { return shifted[i]; }, n - off, segs,
                                               maximum_t<int>(), 5),
                           ("int max " + what).c_str());
        std::vector<long long> wide(shifted.begin(), shifted.end());
        for (auto& w : wide) w *= 1000003LL;
        mem_t<long long> d_wide = to_mem(wide, ctx), wout(ns, ctx);
        wout.memset(0xff);
        segreduce((const long long*)d_wide.data(), n - off, (const int*)d_segs.data(), ns, wout.data(),
                  plus_t<long long>(), -9LL, ctx);
        test::expect_equal(r, wout.to_host(),
                           ref::segreduce<long long>([&](int i, int, int) { return wide[i]; }, n - off, segs,
                                                     plus_t<long long>(), -9LL),
                           ("int64 plus " + what).c_str());
        std::vector<float> fl(n);
        for (int i = 0; i < n; ++i) fl[i] = float(in[i]) / 1024.0f;
        mem_t<float> d_fl = to_mem(fl, ctx), fout(ns, ctx);
        fout.memset(0xff);
        segreduce((const float*)d_fl.data() + off, n - off, (const int*)d_segs.data(), ns, fout.data(),
                  plus_t<float>(), -1.5f, ctx);
        auto got = fout.to_host();
        bool ok = true;
        for (int k = 0; k < ns && ok; ++k) {
          int a = segs[k], b = k + 1 < ns ? segs[k + 1] : n - off;
          double want = 0, mag = 0;
          for (int i = a; i < b; ++i) { want += fl[i + off]; mag += std::fabs(fl[i + off]); }
          if (a == b) ok = got[k] == -1.5f;
          else ok = std::fabs(got[k] - want) <= 1e-5 * mag + 1e-3;
          if (!ok) std::printf("  float segment %d [%d, %d): %g, want %g\n", k, a, b, got[k], want);
        }
        if (!ok) r.fail("float plus " + what);
      }
    segreduce_warp_rounds() = saved_rounds;
    warp_chunk_keep_on() = saved_keep;
    warp_chunk_pdl_on() = saved_chunk_pdl;
  });

  r.run("transform_segreduce non-commutative (affine composition)", [&] {
    for (auto c : geo_cases(snv, false)) {
      auto segs = test::make_segments(c.count, c.geo, c.mean, c.count * 11 + c.geo);
      int ns = (int)segs.size();
      auto raw = test::random_values<unsigned>(2 * (size_t)c.count, 1, 0xffffffffLL, c.count + 5);
      std::vector<affine_t> in(c.count);
      for (int i = 0; i < c.count; ++i) in[i] = {raw[2 * i] | 1u, raw[2 * i + 1]};
      mem_t<affine_t> d_in = to_mem(in, ctx), out(ns, ctx);
      mem_t<int> d_segs = to_mem(segs, ctx);
      out.memset(0xff);
      const affine_t* p = d_in.data();
      transform_segreduce([=] __device__(int i) { return p[i]; }, c.count,
                          (const int*)d_segs.data(), ns, out.data(), compose_t(),
                          affine_t{1, 0}, ctx);
      auto want = ref::segreduce<affine_t>([&](int i, int, int) { return in[i]; }, c.count,
                                           segs, compose_t(), affine_t{1, 0});
      test::expect_equal(r, out.to_host(), want, name_of(c, ns).c_str());
    }
  });

  r.run("transform_segreduce non-commutative, 16-byte values (the wide box)", [&] {
    const int wnv = segreduce_wide_box_t::cta_dim(ctx.ptx_version()).nv();
    for (auto c : geo_cases(wnv, false)) {
      auto segs = test::make_segments(c.count, c.geo, c.mean, c.count * 13 + c.geo);
      int ns = (int)segs.size();
      auto raw = test::random_values<unsigned long long>(2 * (size_t)c.count, 1, 0x7fffffffffffffffLL, c.count + 9);
      std::vector<affine64_t> in(c.count);
      for (int i = 0; i < c.count; ++i) in[i] = {raw[2 * i] | 1ull, raw[2 * i + 1]};
      mem_t<affine64_t> d_in = to_mem(in, ctx), out(ns, ctx);
      mem_t<int> d_segs = to_mem(segs, ctx);
      out.memset(0xff);
      const affine64_t* p = d_in.data();
      transform_segreduce([=] __device__(int i) { return p[i]; }, c.count,
                          (const int*)d_segs.data(), ns, out.data(), compose64_t(),
                          affine64_t{1, 0}, ctx);
      auto want = ref::segreduce<affine64_t>([&](int i, int, int) { return in[i]; }, c.count,
                                             segs, compose64_t(), affine64_t{1, 0});
      test::expect_equal(r, out.to_host(), want, (name_of(c, ns) + " 16-byte").c_str());
    }
  });

  r.run("lbs_segreduce with caching, and without", [&] {
    for (auto c : geo_cases(nv, false)) {
      auto segs = test::make_segments(c.count, c.geo, c.mean, c.count * 13 + c.geo);
      int ns = (int)segs.size();
      auto w = test::random_values<long long>(ns, -50, 50, ns + 3);
      mem_t<int> d_segs = to_mem(segs, ctx);
      mem_t<long long> d_w = to_mem(w, ctx), out(ns, ctx), out2(ns, ctx);
      out.memset(0xff);
      out2.memset(0xff);
      lbs_segreduce(
          [=] __device__(int index, int seg, int rank, cuda::std::tuple<long long> v) {
            return cuda::std::get<0>(v) * rank + index % 3;
          },
          c.count, (const int*)d_segs.data(), ns,
          cuda::std::make_tuple((const long long*)d_w.data()), out.data(),
          maximum_t<long long>(), -1LL, ctx);
      lbs_segreduce([=] __device__(int index, int seg, int rank) { return (long long)seg * rank + 1; },
                    c.count, (const int*)d_segs.data(), ns, out2.data(),
                    plus_t<long long>(), 0LL, ctx);
      auto want = ref::segreduce<long long>(
          [&](int i, int s, int rank) { return w[s] * rank + i % 3; }, c.count, segs,
          maximum_t<long long>(), -1LL);
      auto want2 = ref::segreduce<long long>(
          [&](int, int s, int rank) { return (long long)s * rank + 1; }, c.count, segs,
          plus_t<long long>(), 0LL);
      test::expect_equal(r, out.to_host(), want, name_of(c, ns).c_str());
      test::expect_equal(r, out2.to_host(), want2, name_of(c, ns).c_str());
    }
  });

  r.run("spmv (CSR, empty rows) against a host product", [&] {
    for (int nnz : test::small_filter(std::vector<int>{0, 1, snv - 1, snv, snv + 1, 1 << 20}, [](int n) { return n; })) {
      auto rows = test::make_segments(nnz, test::geo_empty_heavy, 8, nnz + 1);
      int ns = (int)rows.size(), ncols = 5000;
      auto vals = test::random_values<long long>(nnz, -9, 9, 1);
      auto cols = test::random_values<int>(nnz, 0, ncols - 1, 2);
      auto x = test::random_values<long long>(ncols, -9, 9, 3);
      mem_t<long long> d_vals = to_mem(vals, ctx), d_x = to_mem(x, ctx), y(ns, ctx);
      mem_t<int> d_cols = to_mem(cols, ctx), d_rows = to_mem(rows, ctx);
      y.memset(0xff);
      spmv((const long long*)d_vals.data(), (const int*)d_cols.data(),
           (const long long*)d_x.data(), nnz, (const int*)d_rows.data(), ns, y.data(), ctx);
      auto want = ref::segreduce<long long>([&](int i, int, int) { return vals[i] * x[cols[i]]; },
                                            nnz, rows, plus_t<long long>(), 0LL);
      test::expect_equal(r, y.to_host(), want, ("nnz=" + std::to_string(nnz)).c_str());
    }
  });

  r.run("interval_expand / gather / scatter / move, every lbs_move kernel", [&] {
    // and the warp path's geometries (warp_segments.cuh: 1M+ items, mean
    // 256-4096, none over 16384): half the intervals empty, and random.
    // Each geometry runs with lbs_move's tile-marked segments
    // (lbs_move_v3_kernel) and the counted ends and CTA scan
    // (lbs_move_kernel); outputs are poisoned before each call.
    auto cases = geo_cases(mnv, false);
    cases.push_back({2 << 20, test::geo_empty_heavy, 800});
    cases.push_back({2 << 20, test::geo_random, 3000});
    // mean -1: runs of up to 99 empty intervals between intervals of 0 to
    // 4 items (runs of equal ends, many ends inside one window)
    cases.push_back({5 * mnv + 3, test::geo_random, -1});
    cases.push_back({1 << 20, test::geo_random, -1});
    // mean -2: long_mix (intervals past kWarpChunkLen: the chunk kernel)
    cases.push_back({12 << 20, test::geo_random, -2});
    const bool saved_v3 = detail::lbs_move_v3_on(), saved_pdl = detail::lbs_pdl_on();
    const bool saved_keep = warp_chunk_keep_on(), saved_chunk_pdl = warp_chunk_pdl_on();
    // 0: counted ends (v1), 3: tile-marked segments (v3) as the partition's
    // programmatic dependent, 4: v3 as a plain launch; the warp path's
    // chunk kernel with its count words and launch cycling over the cases
    int call = 0;
    for (int mode : {3, 4, 0}) {
    for (auto c : cases) {
      detail::lbs_move_v3_on() = mode >= 3;
      detail::lbs_pdl_on() = mode == 3;
      warp_chunk_keep_on() = (call & 1) != 0;
      warp_chunk_pdl_on() = (call & 2) != 0;
      ++call;
      auto segs = c.mean >= 0 ? test::make_segments(c.count, c.geo, c.mean, c.count * 17 + c.geo)
                  : c.mean == -1 ? empty_runs(c.count)
                                 : long_mix(c.count);
      int ns = (int)segs.size();
      std::vector<int> len(ns);
      for (int s = 0; s < ns; ++s) len[s] = ref::interval_end(segs, s, c.count) - segs[s];
      // gather sources: intervals of a random permutation of a source array
      std::vector<int> order(ns);
      for (int s = 0; s < ns; ++s) order[s] = ns - 1 - s;
      std::vector<int> gather(ns), scatter(ns);
      int pos = 0;
      for (int s : order) { gather[s] = pos; pos += len[s]; }
      pos = 0;
      for (int s = 0; s < ns; ++s) scatter[s] = c.count - segs[s] - len[s];  // mirrored
      auto src = test::random_values<int>(std::max(c.count, ns), -(1 << 30), 1 << 30, c.count + 41);
      mem_t<int> d_src = to_mem(src, ctx), d_segs = to_mem(segs, ctx),
                 d_g = to_mem(gather, ctx), d_s = to_mem(scatter, ctx), out(c.count, ctx);
      const int* S = d_segs.data();
      std::string nm = name_of(c, ns) + (mode == 0 ? " v1" : mode == 3 ? " v3" : " v3 plain");
      out.memset(0xff);
      interval_expand((const int*)d_src.data(), c.count, S, ns, out.data(), ctx);
      std::vector<int> src_ns(src.begin(), src.begin() + ns);
      test::expect_equal(r, out.to_host(), ref::interval_expand(src_ns, c.count, segs),
                         ("expand " + nm).c_str());
      out.memset(0xff);
      interval_gather((const int*)d_src.data(), c.count, S, ns, (const int*)d_g.data(),
                      out.data(), ctx);
      test::expect_equal(r, out.to_host(), ref::interval_gather(src, c.count, segs, gather),
                         ("gather " + nm).c_str());
      out.memset(0xff);
      interval_scatter((const int*)d_src.data(), c.count, S, ns, (const int*)d_s.data(),
                       out.data(), ctx);
      std::vector<int> want(c.count, -1);
      ref::interval_scatter(src, c.count, segs, scatter, &want);
      test::expect_equal(r, out.to_host(), want, ("scatter " + nm).c_str());
      out.memset(0xff);
      interval_move((const int*)d_src.data(), c.count, S, ns, (const int*)d_s.data(),
                    (const int*)d_g.data(), out.data(), ctx);
      std::fill(want.begin(), want.end(), -1);
      ref::interval_move(src, c.count, segs, scatter, gather, &want);
      test::expect_equal(r, out.to_host(), want, ("move " + nm).c_str());
      // another tile shape (64 x 11: two warps, odd vt), always tiles
      out.memset(0xff);
      interval_move<launch_params_t<64, 11>>((const int*)d_src.data(), c.count, S, ns,
                                             (const int*)d_s.data(), (const int*)d_g.data(),
                                             out.data(), ctx);
      test::expect_equal(r, out.to_host(), want, ("move 64x11 " + nm).c_str());
      // 8-byte items (lbs_move_v3_kernel leaves their registers to the compiler)
      std::vector<long long> src64(ns);
      for (int s = 0; s < ns; ++s) src64[s] = (long long)src[s] * 4097 + s;
      mem_t<long long> d_src64 = to_mem(src64, ctx), out64(c.count, ctx);
      out64.memset(0xff);
      interval_expand((const long long*)d_src64.data(), c.count, S, ns, out64.data(), ctx);
      test::expect_equal(r, out64.to_host(), ref::interval_expand(src64, c.count, segs),
                         ("expand int64 " + nm).c_str());
    }
    }
    detail::lbs_move_v3_on() = saved_v3;
    detail::lbs_pdl_on() = saved_pdl;
    warp_chunk_keep_on() = saved_keep;
    warp_chunk_pdl_on() = saved_chunk_pdl;
  });

  r.run("lbs_workcreate: upsweep counts, downsweep segments and order", [&] {
    for (auto c : geo_cases(nv, false)) {
      auto segs = test::make_segments(c.count, c.geo, c.mean, c.count * 19 + c.geo);
      int ns = (int)segs.size();
      auto ask = test::random_values<int>(c.count, -3, 4, c.count + 77);  // <= 0: none
      mem_t<int> d_segs = to_mem(segs, ctx), d_ask = to_mem(ask, ctx);
      mem_t<int> mark(ns, ctx);
      const int* A = d_ask.data();
      auto wc = lbs_workcreate(c.count, (const int*)d_segs.data(), ns, ctx);
      auto got = wc.upsweep([=] __device__(int index, int seg, int rank, cuda::std::tuple<int> v) {
        return A[index] + (cuda::std::get<0>(v) & 0);
      }, cuda::std::make_tuple((const int*)d_segs.data()));
      // host: creators in item order
      std::vector<int> want_segs, want_src;
      long long total = 0;
      for (int i = 0; i < c.count; ++i)
        if (ask[i] > 0) { want_segs.push_back((int)total); want_src.push_back(i); total += ask[i]; }
      if (got.count != total || got.num_segments != (int)want_segs.size()) {
        r.fail("counts " + name_of(c, ns));
        continue;
      }
      mem_t<int> src(got.num_segments, ctx), segof(got.num_segments, ctx);
      src.memset(0xff);
      int* o = src.data();
      int* so = segof.data();
      mem_t<int> new_segs = wc.downsweep(
          [=] __device__(int dest_seg, int index, int seg, int rank, cuda::std::tuple<int>) {
            o[dest_seg] = index;
            so[dest_seg] = seg;
          }, cuda::std::make_tuple((const int*)d_segs.data()));
      test::expect_equal(r, new_segs.to_host(), want_segs, ("segments " + name_of(c, ns)).c_str());
      test::expect_equal(r, src.to_host(), want_src, ("sources " + name_of(c, ns)).c_str());
      auto lbs = ref::load_balance_search(c.count, segs);
      std::vector<int> want_seg_of;
      for (int i : want_src) want_seg_of.push_back(lbs[i]);
      test::expect_equal(r, segof.to_host(), want_seg_of, ("seg " + name_of(c, ns)).c_str());
    }
  });

  if (test::timing_enabled()) {
    int n = 64 << 20;
    for (int mean : {10, 1000}) {
      auto segs = test::make_segments(n, test::geo_random, mean, 5);
      int ns = (int)segs.size();
      auto vals = test::random_values<int>(n, 1, 1000, 6);
      std::vector<float> fv(vals.begin(), vals.end());
      mem_t<float> d_v = to_mem(fv, ctx), out(ns, ctx);
      mem_t<int> d_segs = to_mem(segs, ctx), seg_out(n, ctx), rank_out(n, ctx);
      const int* S = d_segs.data();
      double t_sr = test::time_ms(ctx, 7, [&] {
        segreduce((const float*)d_v.data(), n, S, ns, out.data(), plus_t<float>(), 0.f, ctx);
      });
      int* so = seg_out.data();
      int* ro = rank_out.data();
      double t_lbs = test::time_ms(ctx, 7, [&] {
        transform_lbs([=] __device__(int i, int seg, int rank) { so[i] = seg; ro[i] = rank; },
                      n, S, ns, ctx);
      });
      std::printf("timing 64M mean %d: segreduce float %.3f ms (%.0f GB/s), "
                  "transform_lbs seg+rank %.3f ms\n", mean, t_sr,
                  (n * 4.0 + ns * 8.0) / t_sr / 1e6, t_lbs);
#ifdef ATTU_GPU_SWEEP
      auto want = out.to_host();
      auto sweep = [&](auto box, const char* name) {
        using B = decltype(box);
        out.memset(0xff);
        double t = test::time_ms(ctx, 7, [&] {
          segreduce<B>((const float*)d_v.data(), n, S, ns, out.data(), plus_t<float>(), 0.f, ctx);
        });
        double t2 = test::time_ms(ctx, 7, [&] {
          transform_lbs<B>(seg_rank_t{so, ro}, n, S, ns, ctx);
        });
        bool ok = out.to_host() == want;  // integers in floats: exact sums
        std::printf("sweep mean %d %s: segreduce %.3f ms, lbs %.3f ms %s\n", mean, name, t, t2,
                    ok ? "ok" : "MISMATCH");
      };
      sweep(launch_params_t<128, 8>(), "128x8");
      sweep(launch_params_t<128, 16>(), "128x16");
      sweep(launch_params_t<256, 12>(), "256x12");
      sweep(launch_params_t<128, 12>(), "128x12");
      sweep(launch_params_t<256, 4>(), "256x4");
#endif
    }
    {
      auto segs = test::make_segments(n, test::geo_random, 10, 9);
      int ns = (int)segs.size();
      mem_t<int> d_segs = to_mem(segs, ctx), src(n, ctx), dst(n, ctx);
      double t = test::time_ms(ctx, 7, [&] {
        interval_move((const int*)src.data(), n, (const int*)d_segs.data(), ns,
                      (const int*)d_segs.data(), (const int*)d_segs.data(), dst.data(), ctx);
      });
      std::printf("timing 64M interval_move mean 10: %.3f ms\n", t);
    }
  }
  return r.finish();
}
