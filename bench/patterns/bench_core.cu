// bench_core.cu: attu's memory-bound patterns against CUB, side by side with
// the device-to-device copy that bounds them.
//
//   bench_core [sizes...] [--reps N]     e.g. bench_core 1M 16M 64M 256M 1G
//
// transform (y = 2x), reduce vs cub::DeviceReduce::Sum, exclusive scan vs
// cub::DeviceScan::ExclusiveSum (int32, int64, float), transform_compact
// and select_if keeping 50% vs cub::DeviceSelect::If, segreduce (float, mean segment 10 and
// 1000) vs cub::DeviceSegmentedReduce::Sum, transform_lbs writing seg+rank,
// sorted_search of sorted needles vs thrust::lower_bound, interval_move.
// GB/s counts each input read once and each output written once.
#include "bench/patterns/bench_common.cuh"
#include "gpu/patterns/patterns.cuh"
#include "gpu/patterns/sort.cuh"

#include <cub/device/device_reduce.cuh>
#include <cub/device/device_scan.cuh>
#include <cub/device/device_segmented_reduce.cuh>
#include <cub/device/device_select.cuh>
#include <thrust/binary_search.h>
#include <thrust/execution_policy.h>

#include <random>

using namespace bench;
namespace ag = attu::gpu;

namespace bc {

void bench_copy(context_t& ctx, size_t n) {
  dbuf<int> a(n), b(n);
  fill_random(a.p, n, 1);
  double ms = time_ms(ctx, no_prep, [&] {
    ATTU_CUDA_CHECK(cudaMemcpyAsync(b.p, a.p, n * sizeof(int), cudaMemcpyDeviceToDevice, ctx.stream()));
  });
  row("device-to-device copy", "int32", n, 2.0 * n * sizeof(int), ms, "cudaMemcpyAsync", -1);
}

template <typename T>
void bench_transform(context_t& ctx, size_t n, const char* type) {
  dbuf<T> a(n), b(n);
  fill_random(a.p, n, 2);
  double ours = time_ms(ctx, no_prep, [&] {
    ag::transform([] __device__(int i, const T* x, T* y) { y[i] = x[i] * T(2); }, int(n), ctx,
                  (const T*)a.p, b.p);
  });
  double copy = time_ms(ctx, no_prep, [&] {
    ATTU_CUDA_CHECK(cudaMemcpyAsync(b.p, a.p, n * sizeof(T), cudaMemcpyDeviceToDevice, ctx.stream()));
  });
  row("transform y=2x", type, n, 2.0 * n * sizeof(T), ours, "copy (cudaMemcpyAsync)", copy);
}

template <typename T>
void bench_reduce(context_t& ctx, size_t n, const char* type) {
  dbuf<T> a(n), r(1);
  fill_random(a.p, n, 3, 1000);
  double ours = time_ms(ctx, no_prep, [&] { ag::reduce(a.p, int(n), r.p, ag::plus_t<T>(), ctx); });
  size_t tb = 0;
  ATTU_CUDA_CHECK(cub::DeviceReduce::Sum(nullptr, tb, a.p, r.p, int(n)));
  dbuf<char> tmp(tb);
  double theirs = time_ms(ctx, no_prep, [&] {
    ATTU_CUDA_CHECK(cub::DeviceReduce::Sum(tmp.p, tb, a.p, r.p, int(n), ctx.stream()));
  });
  row("reduce sum", type, n, 1.0 * n * sizeof(T), ours, "DeviceReduce::Sum", theirs);
  if (getenv("ATTU_BENCH_REDUCE_VECS")) {
    // the vector path with 2 and 4 vectors a thread a tile (default 8)
    double v2 = time_ms(ctx, no_prep, [&] {
      ag::detail::reduce_vectors<T, ag::plus_t<T>, 2>(a.p, int(n), r.p, ag::plus_t<T>(), ctx, T());
    });
    row("reduce sum (2 vectors)", type, n, 1.0 * n * sizeof(T), v2, "DeviceReduce::Sum", theirs);
    double v4 = time_ms(ctx, no_prep, [&] {
      ag::detail::reduce_vectors<T, ag::plus_t<T>, 4>(a.p, int(n), r.p, ag::plus_t<T>(), ctx, T());
    });
    row("reduce sum (4 vectors)", type, n, 1.0 * n * sizeof(T), v4, "DeviceReduce::Sum", theirs);
    // reduce() again, last: the first row's time must not depend on its place
    double again = time_ms(ctx, no_prep, [&] { ag::reduce(a.p, int(n), r.p, ag::plus_t<T>(), ctx); });
    row("reduce sum (again)", type, n, 1.0 * n * sizeof(T), again, "DeviceReduce::Sum", theirs);
  }
}

template <typename T>
void bench_scan(context_t& ctx, size_t n, const char* type, const char* label = "") {
  dbuf<T> a(n), b(n);
  fill_random(a.p, n, 4, 1000);
  double ours = time_ms(ctx, no_prep, [&] {
    ag::scan(a.p, int(n), b.p, ag::plus_t<T>(), (T*)nullptr, ctx);
  });
  size_t tb = 0;
  ATTU_CUDA_CHECK(cub::DeviceScan::ExclusiveSum(nullptr, tb, a.p, b.p, int(n)));
  dbuf<char> tmp(tb);
  double theirs = time_ms(ctx, no_prep, [&] {
    ATTU_CUDA_CHECK(cub::DeviceScan::ExclusiveSum(tmp.p, tb, a.p, b.p, int(n), ctx.stream()));
  });
  std::string name = std::string("exclusive scan") + label;
  row(name.c_str(), type, n, 2.0 * n * sizeof(T), ours, "DeviceScan::ExclusiveSum", theirs);
}

// ATTU_BENCH_SCAN_BOXES=1: the scan over other launch boxes (nt x vt) on
// sm_90, to tune stream_box_t per type.
template <typename T, int nt, int vt>
void bench_scan_box(context_t& ctx, size_t n, const char* type, const char* note = "") {
  using box_t = ag::launch_box_t<ag::arch_cta_t<700, nt, vt>, ag::arch_cta_t<900, nt, vt>>;
  dbuf<T> a(n), b(n);
  fill_random(a.p, n, 4, 1000);
  double ours = time_ms(ctx, no_prep, [&] {
    ag::scan<ag::scan_type_exc, box_t>(a.p, int(n), b.p, ag::plus_t<T>(), (T*)nullptr, ctx);
  });
  char name[96];
  std::snprintf(name, sizeof name, "exclusive scan, box %dx%d%s", nt, vt, note);
  row(name, type, n, 2.0 * n * sizeof(T), ours, "-", 0);
}

template <typename T>
void bench_scan_boxes(context_t& ctx, size_t n, const char* type) {
  bench_scan_box<T, 128, 24>(ctx, n, type);
  bench_scan_box<T, 128, 16>(ctx, n, type);
  bench_scan_box<T, 256, 12>(ctx, n, type);
  bench_scan_box<T, 256, 16>(ctx, n, type);
  bench_scan_box<T, 256, 8>(ctx, n, type);
  bench_scan_box<T, 512, 8>(ctx, n, type);
  bench_scan_box<T, 128, 32>(ctx, n, type);
  bench_scan_box<T, 128, 28>(ctx, n, type);
  bench_scan_box<T, 96, 32>(ctx, n, type);
}

// ATTU_BENCH_SCAN_TUNING=1: the single-pass scan's look-back delay (scan.cuh:
// CUB's default or its sm_90 tuning) over a few boxes.
template <typename T, int nt, int vt, typename delay_t>
void bench_scan_delay(context_t& ctx, size_t n, const char* type, const char* delay) {
  using box_t = ag::launch_box_t<ag::arch_cta_t<700, nt, vt>, ag::arch_cta_t<900, nt, vt>>;
  dbuf<T> a(n), b(n);
  fill_random(a.p, n, 4, 1000);
  const T* in = a.p;
  // (an aligned 4-byte array goes through the vector kernel, as scan() does)
  double ours = time_ms(ctx, no_prep, [&] {
    if (!ag::detail::scan_vector_impl<ag::scan_type_exc, box_t, delay_t>(in, int(n), b.p, ag::plus_t<T>(), T(),
                                                                         (T*)nullptr, false, ctx))
      ag::detail::scan_impl<ag::scan_type_exc, box_t, delay_t>([=] __device__(int i) { return in[i]; }, int(n), b.p,
                                                             ag::plus_t<T>(), T(), (T*)nullptr, false, ctx, nullptr);
  });
  char name[96];
  std::snprintf(name, sizeof name, "exclusive scan, box %dx%d, %s", nt, vt, delay);
  row(name, type, n, 2.0 * n * sizeof(T), ours, "-", 0);
}

template <typename T, int nt, int vt>
void bench_scan_delays(context_t& ctx, size_t n, const char* type) {
  bench_scan_delay<T, nt, vt, cub::detail::fixed_delay_constructor_t<350, 450>>(ctx, n, type, "delay 350/450");
  bench_scan_delay<T, nt, vt, ag::detail::scan_delay_t<T>>(ctx, n, type, "CUB's sm_90 delay");
}

// ATTU_BENCH_SCAN_DATA=1: the single-pass scan on data of four kinds, twice
// on the same buffers, each round beside DeviceScan on the same data.
// whole: the items are the whole numbers 1..1000 (as the int32 row's),
// else fill_random's (floats in (-1e6, 1e6); integers over `range`, 0 the
// full type): whether the data rather than the type moves the float row
// (scan.cuh's header). It was ATTU_BENCH_SCAN_MODES until session 26,
// when the split chains it set against the serial one were removed.
template <typename T>
void bench_scan_data(context_t& ctx, size_t n, const char* type, bool whole, long long range, const char* data) {
  dbuf<T> a(n), b(n);
  if (whole) {
    dbuf<int> w(n);
    fill_random(w.p, n, 4, 1000);
    const int* q = w.p;
    T* p = a.p;
    ag::transform([=] __device__(int i) { p[i] = T(q[i]); }, int(n), ctx);
    ATTU_CUDA_CHECK(cudaStreamSynchronize(ctx.stream()));
  } else {
    fill_random(a.p, n, 4, range);
  }
  size_t tb = 0;
  ATTU_CUDA_CHECK(cub::DeviceScan::ExclusiveSum(nullptr, tb, a.p, b.p, int(n)));
  dbuf<char> tmp(tb);
  for (int round = 0; round < 2; ++round) {
    double ours = time_ms(ctx, no_prep, [&] { ag::scan(a.p, int(n), b.p, ag::plus_t<T>(), (T*)nullptr, ctx); });
    double theirs = time_ms(ctx, no_prep, [&] {
      ATTU_CUDA_CHECK(cub::DeviceScan::ExclusiveSum(tmp.p, tb, a.p, b.p, int(n), ctx.stream()));
    });
    char name[128];
    std::snprintf(name, sizeof name, "exclusive scan, %s", data);
    row(name, type, n, 2.0 * n * sizeof(T), ours, "DeviceScan::ExclusiveSum", theirs);
  }
}

struct is_odd {
  __host__ __device__ bool operator()(int x) const { return x & 1; }
};

void bench_compact(context_t& ctx, size_t n) {
  dbuf<int> a(n), b(n), cnt(1);
  fill_random(a.p, n, 5);
  const int* in = a.p;
  int* out = b.p;
  int kept = 0;
  double ours = time_ms(ctx, no_prep, [&] {
    auto c = ag::transform_compact(int(n), ctx);
    kept = c.upsweep([=] __device__(int i) { return (in[i] & 1) != 0; });
    c.downsweep([=] __device__(int dest, int src) { out[dest] = in[src]; });
  });
  size_t tb = 0;
  ATTU_CUDA_CHECK(cub::DeviceSelect::If(nullptr, tb, a.p, b.p, cnt.p, int(n), is_odd()));
  dbuf<char> tmp(tb);
  double theirs = time_ms(ctx, no_prep, [&] {
    ATTU_CUDA_CHECK(cub::DeviceSelect::If(tmp.p, tb, a.p, b.p, cnt.p, int(n), is_odd(), ctx.stream()));
  });
  row("transform_compact keep 50%", "int32", n, 4.0 * n + 4.0 * kept, ours, "DeviceSelect::If", theirs);
  // the single-pass form
  double one = time_ms(ctx, no_prep, [&] {
    ag::select_if(in, int(n), [] __device__(int x) { return (x & 1) != 0; }, out, cnt.p, ctx);
  });
  row("select_if keep 50%", "int32", n, 4.0 * n + 4.0 * kept, one, "DeviceSelect::If", theirs);
}

// ATTU_BENCH_SELECT_BOXES=1: select_if over other launch boxes (nt x vt).
template <int nt, int vt>
void bench_select_box(context_t& ctx, size_t n, const char* note = "") {
  using box_t = ag::launch_box_t<ag::arch_cta_t<700, nt, vt>, ag::arch_cta_t<900, nt, vt>>;
  dbuf<int> a(n), b(n), cnt(1);
  fill_random(a.p, n, 5);
  const int* in = a.p;
  int* out = b.p;
  double one = time_ms(ctx, no_prep, [&] {
    ag::select_if<box_t>(in, int(n), [] __device__(int x) { return (x & 1) != 0; }, out, cnt.p, ctx);
  });
  int kept = 0;
  ATTU_CUDA_CHECK(cudaMemcpy(&kept, cnt.p, sizeof kept, cudaMemcpyDeviceToHost));
  char name[64];
  std::snprintf(name, sizeof name, "select_if keep 50%%, box %dx%d%s", nt, vt, note);
  row(name, "int32", n, 4.0 * n + 4.0 * kept, one, "-", -1);
}

// ATTU_BENCH_SELECT_BOUNDS=1: select_if held to 1280 threads a
// multiprocessor (select_min_ctas, the default) and unbounded, checked
// against the host.
template <int min_ctas>
void bench_select_bound(context_t& ctx, size_t n) {
  dbuf<int> a(n), b(n), cnt(1);
  fill_random(a.p, n, 5);
  const int* in = a.p;
  int* out = b.p;
  ATTU_CUDA_CHECK(cudaMemset(out, 0xab, n * sizeof(int)));
  double one = time_ms(ctx, no_prep, [&] {
    ag::select_if<ag::empty_t, ag::detail::select_delay_t, min_ctas>(
        in, int(n), [] __device__(int x) { return (x & 1) != 0; }, out, cnt.p, ctx);
  });
  int kept = 0;
  ATTU_CUDA_CHECK(cudaMemcpy(&kept, cnt.p, sizeof kept, cudaMemcpyDeviceToHost));
  std::vector<int> h(n), o(kept > 0 ? kept : 1);
  ATTU_CUDA_CHECK(cudaMemcpy(h.data(), a.p, n * sizeof(int), cudaMemcpyDeviceToHost));
  if (kept > 0) ATTU_CUDA_CHECK(cudaMemcpy(o.data(), out, size_t(kept) * sizeof(int), cudaMemcpyDeviceToHost));
  size_t k = 0;
  bool ok = true;
  for (size_t i = 0; i < n && ok; ++i)
    if (h[i] & 1) ok = k < size_t(kept) && o[k++] == h[i];
  ok = ok && k == size_t(kept);
  char name[96];
  std::snprintf(name, sizeof name, "select_if keep 50%%, %s%s",
                min_ctas < 0 ? "1280 threads an SM (default)" : "no register bound", ok ? "" : " WRONG");
  row(name, "int32", n, 4.0 * n + 4.0 * kept, one, "-", -1);
}

template <int nt, int vt, typename delay_t>
void bench_select_delay(context_t& ctx, size_t n, const char* delay) {
  using box_t = ag::launch_box_t<ag::arch_cta_t<700, nt, vt>, ag::arch_cta_t<900, nt, vt>>;
  dbuf<int> a(n), b(n), cnt(1);
  fill_random(a.p, n, 5);
  const int* in = a.p;
  int* out = b.p;
  double one = time_ms(ctx, no_prep, [&] {
    ag::select_if<box_t, delay_t>(in, int(n), [] __device__(int x) { return (x & 1) != 0; }, out, cnt.p, ctx);
  });
  int kept = 0;
  ATTU_CUDA_CHECK(cudaMemcpy(&kept, cnt.p, sizeof kept, cudaMemcpyDeviceToHost));
  char name[96];
  std::snprintf(name, sizeof name, "select_if keep 50%%, box %dx%d, %s", nt, vt, delay);
  row(name, "int32", n, 4.0 * n + 4.0 * kept, one, "-", -1);
}

template <int nt, int vt>
void bench_select_delays(context_t& ctx, size_t n) {
  bench_select_delay<nt, vt, cub::detail::fixed_delay_constructor_t<350, 450>>(ctx, n, "delay 350/450");
  bench_select_delay<nt, vt, ag::detail::select_delay_t>(ctx, n, "CUB's sm_90 delay");
}

// ATTU_BENCH_DELAY_SWEEP=1: the default tiles of the scan (int32) and of
// select_if under other look-back delays (cub's delay constructors: a
// first wait of L2WriteLatency ns before the look-back reads, then Delay
// ns between its polls), twice
void bench_delay_sweep(context_t& ctx, size_t n) {
  namespace cd = cub::detail;
  for (int round = 0; round < 2; ++round) {
    bench_scan_delay<int, 128, 36, ag::detail::scan_delay_t<int>>(ctx, n, "int32", "648/1245 (default)");
    bench_scan_delay<int, 128, 36, cd::fixed_delay_constructor_t<648, 600>>(ctx, n, "int32", "648/600");
    bench_scan_delay<int, 128, 36, cd::fixed_delay_constructor_t<648, 300>>(ctx, n, "int32", "648/300");
    bench_scan_delay<int, 128, 36, cd::fixed_delay_constructor_t<648, 0>>(ctx, n, "int32", "648/0");
    bench_scan_delay<int, 128, 36, cd::fixed_delay_constructor_t<350, 450>>(ctx, n, "int32", "350/450");
    bench_scan_delay<int, 128, 36, cd::fixed_delay_constructor_t<150, 600>>(ctx, n, "int32", "150/600");
    bench_scan_delay<int, 128, 36, cd::fixed_delay_constructor_t<1000, 2000>>(ctx, n, "int32", "1000/2000");
    bench_scan_delay<int, 128, 36, cd::no_delay_constructor_t<600>>(ctx, n, "int32", "none/600");
    bench_scan_delay<int, 128, 36, cd::exponential_backoff_constructor_t<64, 600>>(ctx, n, "int32", "backoff 64/600");
    bench_select_delay<128, 32, ag::detail::select_delay_t>(ctx, n, "76/1150 (default)");
    bench_select_delay<128, 32, cd::fixed_delay_constructor_t<76, 600>>(ctx, n, "76/600");
    bench_select_delay<128, 32, cd::fixed_delay_constructor_t<76, 300>>(ctx, n, "76/300");
    bench_select_delay<128, 32, cd::fixed_delay_constructor_t<76, 0>>(ctx, n, "76/0");
    bench_select_delay<128, 32, cd::fixed_delay_constructor_t<350, 450>>(ctx, n, "350/450");
    bench_select_delay<128, 32, cd::fixed_delay_constructor_t<648, 1245>>(ctx, n, "648/1245");
    bench_select_delay<128, 32, cd::fixed_delay_constructor_t<76, 2000>>(ctx, n, "76/2000");
    bench_select_delay<128, 32, cd::no_delay_constructor_t<600>>(ctx, n, "none/600");
    bench_select_delay<128, 32, cd::exponential_backoff_constructor_t<32, 600>>(ctx, n, "backoff 32/600");
  }
}

// Segment starts, lengths uniform in [1, 2*mean-1]; plus the end offset.
// The lengths are drawn from seed 43, or ATTU_BENCH_SEGMENT_SEED (another
// draw of the same geometry).
std::vector<int> make_segments(size_t n, long long mean) {
  static const char* const seed_env = getenv("ATTU_BENCH_SEGMENT_SEED");
  std::mt19937_64 rng(seed_env ? strtoull(seed_env, nullptr, 10) : 43);
  std::uniform_int_distribution<long long> len(1, 2 * mean - 1);
  std::vector<int> s;
  long long pos = 0;
  while (pos < (long long)n) { s.push_back(int(pos)); pos += len(rng); }
  s.push_back(int(n));
  return s;
}

// box: the launch box (empty_t: segreduce's default); box_name labels the row.
template <typename box = ag::empty_t>
void bench_segreduce(context_t& ctx, size_t n, long long mean, const char* box_name = "") {
  auto segs = make_segments(n, mean);
  int num = int(segs.size()) - 1;
  dbuf<int> d_segs(segs.size());
  ATTU_CUDA_CHECK(cudaMemcpy(d_segs.p, segs.data(), segs.size() * 4, cudaMemcpyHostToDevice));
  ATTU_CUDA_CHECK(cudaDeviceSynchronize());  // before the context's non-blocking stream reads it
  dbuf<float> a(n), out(num);
  fill_random(a.p, n, 6);
  double ours = time_ms(ctx, no_prep, [&] {
    ag::segreduce<box>(a.p, int(n), d_segs.p, num, out.p, ag::plus_t<float>(), 0.0f, ctx);
  });
  size_t tb = 0;
  ATTU_CUDA_CHECK(cub::DeviceSegmentedReduce::Sum(nullptr, tb, a.p, out.p, num, d_segs.p, d_segs.p + 1));
  dbuf<char> tmp(tb);
  double theirs = time_ms(ctx, no_prep, [&] {
    ATTU_CUDA_CHECK(cub::DeviceSegmentedReduce::Sum(tmp.p, tb, a.p, out.p, num, d_segs.p, d_segs.p + 1, ctx.stream()));
  });
  char name[64];
  std::snprintf(name, sizeof name, "segreduce sum, mean segment %lld%s", mean, box_name);
  row(name, "float", n, 4.0 * n + 8.0 * num, ours, "DeviceSegmentedReduce::Sum", theirs);
}

// The write ceiling beside transform_lbs: the same 8 bytes an item
// written by a plain transform (seg and rank of segments of 1024 items).
void bench_write_pairs(context_t& ctx, size_t n) {
  dbuf<int> a(n), b(n);
  int* so = a.p;
  int* ro = b.p;
  double ours = time_ms(ctx, no_prep, [&] {
    ag::transform([=] __device__(int i) { so[i] = i >> 10; ro[i] = i & 1023; }, int(n), ctx);
  });
  row("transform writing two int32 (the write ceiling)", "int32", n, 8.0 * n, ours, "-", -1);
  // ATTU_BENCH_TRANSFORM_CAPTURE=1: behaviours that capture their
  // pointers at 1, 4 and 8 indices a thread, alternately twice (the
  // write-only one above and y = 2x)
  if (!getenv("ATTU_BENCH_TRANSFORM_CAPTURE")) return;
  dbuf<int> x(n);
  fill_random(x.p, n, 5);
  const int* xp = x.p;
  const int saved = ag::detail::transform_capture_vt();
  for (int round = 0; round < 2; ++round)
    for (int cvt : {1, 4, 8}) {
      ag::detail::transform_capture_vt() = cvt;
      char name[80];
      double w = time_ms(ctx, no_prep, [&] {
        ag::transform([=] __device__(int i) { so[i] = i >> 10; ro[i] = i & 1023; }, int(n), ctx);
      });
      std::snprintf(name, sizeof name, "transform writing two int32, captured, vt %d", cvt);
      row(name, "int32", n, 8.0 * n, w, "-", -1);
      double c = time_ms(ctx, no_prep, [&] {
        ag::transform([=] __device__(int i) { ro[i] = xp[i] * 2; }, int(n), ctx);
      });
      std::snprintf(name, sizeof name, "transform y=2x, captured, vt %d", cvt);
      row(name, "int32", n, 8.0 * n, c, "-", -1);
    }
  ag::detail::transform_capture_vt() = saved;
}

template <typename box = ag::empty_t>
void bench_lbs(context_t& ctx, size_t n, long long mean, const char* box_name = "") {
  auto segs = make_segments(n, mean);
  int num = int(segs.size()) - 1;
  dbuf<int> d_segs(segs.size()), seg_out(n), rank_out(n);
  ATTU_CUDA_CHECK(cudaMemcpy(d_segs.p, segs.data(), segs.size() * 4, cudaMemcpyHostToDevice));
  ATTU_CUDA_CHECK(cudaDeviceSynchronize());  // before the context's non-blocking stream reads it
  int* so = seg_out.p;
  int* ro = rank_out.p;
  double ours = time_ms(ctx, no_prep, [&] {
    ag::transform_lbs<box>([=] __device__(int i, int seg, int rank) { so[i] = seg; ro[i] = rank; },
                           int(n), d_segs.p, num, ctx);
  });
  char name[64];
  std::snprintf(name, sizeof name, "transform_lbs seg+rank, mean segment %lld%s", mean, box_name);
  row(name, "int32", n, 8.0 * n + 4.0 * num, ours, "-", -1);
}

template <typename box = ag::empty_t>
void bench_interval_move(context_t& ctx, size_t n, long long mean, const char* box_name = "") {
  auto segs = make_segments(n, mean);
  int num = int(segs.size()) - 1;
  segs.pop_back();
  // Gather from the segments in reverse order, scatter in order.
  std::vector<int> gather(num), scatter(num);
  {
    long long pos = 0;
    for (int s = 0; s < num; ++s) scatter[s] = segs[s];
    std::vector<int> lens(num);
    for (int s = 0; s < num; ++s) lens[s] = (s + 1 < num ? segs[s + 1] : int(n)) - segs[s];
    for (int s = num - 1; s >= 0; --s) { gather[s] = int(pos); pos += lens[s]; }
  }
  // interval_move's segments are the scan of lengths: segs itself.
  dbuf<int> d_segs(num), d_g(num), d_s(num), in(n), out(n);
  ATTU_CUDA_CHECK(cudaMemcpy(d_segs.p, segs.data(), num * 4, cudaMemcpyHostToDevice));
  ATTU_CUDA_CHECK(cudaMemcpy(d_g.p, gather.data(), num * 4, cudaMemcpyHostToDevice));
  ATTU_CUDA_CHECK(cudaMemcpy(d_s.p, scatter.data(), num * 4, cudaMemcpyHostToDevice));
  ATTU_CUDA_CHECK(cudaDeviceSynchronize());  // before the context's non-blocking stream reads it
  fill_random(in.p, n, 7);
  double ours = time_ms(ctx, no_prep, [&] {
    ag::interval_move<box>((const int*)in.p, int(n), (const int*)d_segs.p, num, (const int*)d_s.p,
                      (const int*)d_g.p, out.p, ctx);
  });
  char name[64];
  std::snprintf(name, sizeof name, "interval_move, mean segment %lld%s", mean, box_name);
  row(name, "int32", n, 8.0 * n + 12.0 * num, ours, "-", -1);
}

template <typename box = ag::empty_t>
void bench_sorted_search(context_t& ctx, size_t n, const char* suffix = "") {
  dbuf<int> needles(n), hay(n), idx(n);
  fill_random(needles.p, n, 8, 1ll << 30);
  fill_random(hay.p, n, 9, 1ll << 30);
  ag::radix_sort(needles.p, n, ag::less_t<int>(), ctx);
  ag::radix_sort(hay.p, n, ag::less_t<int>(), ctx);
  ctx.synchronize();
  double ours = time_ms(ctx, no_prep, [&] {
    ag::sorted_search<ag::bounds_lower, box>(needles.p, int(n), hay.p, int(n), idx.p,
                                             ag::less_t<int>(), ctx);
  });
  double theirs = time_ms(ctx, no_prep, [&] {
    thrust::lower_bound(thrust::cuda::par.on(ctx.stream()), hay.p, hay.p + n, needles.p,
                        needles.p + n, idx.p);
  });
  char name[64];
  std::snprintf(name, sizeof name, "sorted_search lower, n needles into n%s", suffix);
  row(name, "int32", n, 12.0 * n, ours, "thrust::lower_bound", theirs);
}

}  // namespace bc

int main(int argc, char** argv) {
  if (!attu::gpu::cuda_device_available()) {
    std::printf("skipped: no CUDA device\n");
    return 77;
  }
  try {
    context_t ctx;
    auto sizes = parse_sizes(argc, argv, {1u << 20, 16u << 20, 64u << 20, 256u << 20, 1u << 30});
    std::printf("device: %s, %d SMs\n\n", ctx.props().name, ctx.sm_count());
    print_header();
    // groups for ATTU_BENCH_ONLY: copy, transform, reduce, scan, compact,
    // segreduce, lbs, interval_move, sorted_search
    if (bench_wanted("copy"))
      for (size_t n : sizes) bc::bench_copy(ctx, n);
    for (size_t n : sizes) {
      if (bench_wanted("transform")) bc::bench_transform<int>(ctx, n, "int32");
      if (bench_wanted("reduce")) {
        bc::bench_reduce<int>(ctx, n, "int32");
        bc::bench_reduce<long long>(ctx, n, "int64");
        bc::bench_reduce<float>(ctx, n, "float");
      }
      if (bench_wanted("scan")) {
        bc::bench_scan<int>(ctx, n, "int32");
        bc::bench_scan<long long>(ctx, n, "int64");
        bc::bench_scan<float>(ctx, n, "float");
        if (getenv("ATTU_BENCH_SCAN_BOXES")) {
          bc::bench_scan_boxes<int>(ctx, n, "int32");
          bc::bench_scan_boxes<float>(ctx, n, "float");
          bc::bench_scan_box<long long, 128, 12>(ctx, n, "int64");
          bc::bench_scan_box<long long, 224, 24>(ctx, n, "int64");
          bc::bench_scan_box<long long, 128, 24>(ctx, n, "int64");
          bc::bench_scan_box<long long, 256, 12>(ctx, n, "int64");
        }
      }
      // ATTU_BENCH_SCAN_VECTOR=1: the striped kernel (ATTU_SCAN_VECTOR=0)
      // and the vector kernel (the default for aligned 4-byte arrays)
      // alternately three times at the default box and at session 30's
      // 128 x 28, then the vector kernel over other boxes of an odd number
      // of vectors a thread
      if (bench_wanted("scan") && getenv("ATTU_BENCH_SCAN_VECTOR")) {
        const bool saved = ag::detail::scan_vector_on();
        for (int round = 0; round < 3; ++round)
          for (bool on : {false, true}) {
            ag::detail::scan_vector_on() = on;
            const char* note = on ? " (vector)" : " (striped, VECTOR=0)";
            bc::bench_scan<int>(ctx, n, "int32", note);
            bc::bench_scan<float>(ctx, n, "float", note);
            bc::bench_scan_box<int, 128, 28>(ctx, n, "int32", note);
          }
        ag::detail::scan_vector_on() = true;
        for (int round = 0; round < 2; ++round) {
          bc::bench_scan_box<int, 128, 44>(ctx, n, "int32", " (vector)");
          bc::bench_scan_box<int, 128, 52>(ctx, n, "int32", " (vector)");
          bc::bench_scan_box<int, 160, 36>(ctx, n, "int32", " (vector)");
        }
        ag::detail::scan_vector_on() = saved;
      }
      if (bench_wanted("scan") && getenv("ATTU_BENCH_SCAN_DATA")) {
        bc::bench_scan_data<int>(ctx, n, "int32", false, 1000, "1..1000");
        bc::bench_scan_data<float>(ctx, n, "float", false, 0, "random in (-1e6, 1e6)");
        bc::bench_scan_data<float>(ctx, n, "float", true, 0, "whole 1..1000");
        bc::bench_scan_data<int>(ctx, n, "int32", false, 0, "full range");
      }
      if (bench_wanted("scan") && getenv("ATTU_BENCH_SCAN_TUNING")) {
        bc::bench_scan_delays<int, 128, 24>(ctx, n, "int32");
        bc::bench_scan_delays<int, 256, 12>(ctx, n, "int32");
        bc::bench_scan_delays<long long, 128, 12>(ctx, n, "int64");
        bc::bench_scan_delays<long long, 256, 12>(ctx, n, "int64");
      }
      if (bench_wanted("compact")) bc::bench_compact(ctx, n);
      if (getenv("ATTU_BENCH_DELAY_SWEEP")) bc::bench_delay_sweep(ctx, n);
      if (bench_wanted("compact") && getenv("ATTU_BENCH_SCAN_TUNING")) {
        bc::bench_select_delays<128, 24>(ctx, n);
        bc::bench_select_delays<384, 17>(ctx, n);
      }
      if (getenv("ATTU_BENCH_SELECT_BOUNDS"))
        for (int round = 0; round < 2; ++round) {
          bc::bench_select_bound<0>(ctx, n);
          bc::bench_select_bound<-1>(ctx, n);
        }
      // ATTU_BENCH_SELECT_MODES=1: select_if storing from the tile's first
      // kept item and from the output's 32-item boundary, alternately twice
      if (bench_wanted("compact") && getenv("ATTU_BENCH_SELECT_MODES")) {
        const bool saved = ag::detail::select_align_on();
        for (int round = 0; round < 2; ++round)
          for (bool on : {false, true}) {
            ag::detail::select_align_on() = on;
            bc::bench_select_box<128, 24>(ctx, n, on ? ", stores aligned" : ", stores from the tile's first");
          }
        ag::detail::select_align_on() = saved;
      }
      if (bench_wanted("compact") && getenv("ATTU_BENCH_SELECT_BOXES")) {
        bc::bench_select_box<128, 24>(ctx, n);
        bc::bench_select_box<384, 17>(ctx, n);
        bc::bench_select_box<256, 12>(ctx, n);
        bc::bench_select_box<128, 16>(ctx, n);
        bc::bench_select_box<256, 16>(ctx, n);
        bc::bench_select_box<384, 8>(ctx, n);
        bc::bench_select_box<128, 28>(ctx, n);
        bc::bench_select_box<96, 32>(ctx, n);
        bc::bench_select_box<192, 32>(ctx, n);
        bc::bench_select_box<128, 24>(ctx, n, " (again)");
        bc::bench_select_box<128, 32>(ctx, n, " (again)");
        bc::bench_select_box<128, 32>(ctx, n);
        bc::bench_select_box<64, 24>(ctx, n);
      }
      // ATTU_BENCH_SELECT_WIDE=1: the 32-item boxes of 128 to 256 threads
      // under the 1280-thread bound, alternately twice
      if (bench_wanted("compact") && getenv("ATTU_BENCH_SELECT_WIDE"))
        for (int round = 0; round < 2; ++round) {
          bc::bench_select_box<128, 32>(ctx, n);
          bc::bench_select_box<160, 32>(ctx, n);
          bc::bench_select_box<192, 32>(ctx, n);
          bc::bench_select_box<224, 32>(ctx, n);
          bc::bench_select_box<256, 32>(ctx, n);
          bc::bench_select_box<192, 28>(ctx, n);
        }
    }
    for (size_t n : sizes) {
      if (n > (256u << 20)) continue;
      // ATTU_BENCH_SEGREDUCE_MEANS=100,300,1000 replaces the mean segments
      // (of segreduce, lbs and interval_move)
      const std::vector<long long> means = env_numbers("ATTU_BENCH_SEGREDUCE_MEANS", {10, 1000});
      for (long long mean : means) {
        if (bench_wanted("segreduce")) bc::bench_segreduce(ctx, n, mean);
        // ATTU_BENCH_WARP_ROUNDS=1: segreduce's warp path with 4 and 8
        // loads a lane in flight, alternately twice (means of the warp path)
        if (bench_wanted("segreduce") && getenv("ATTU_BENCH_WARP_ROUNDS")) {
          const int saved = ag::segreduce_warp_rounds();
          for (int round = 0; round < 2; ++round)
            for (int r : {4, 8}) {
              ag::segreduce_warp_rounds() = r;
              char note[32];
              std::snprintf(note, sizeof note, " (%d rounds)", r);
              bc::bench_segreduce(ctx, n, mean, note);
            }
          ag::segreduce_warp_rounds() = saved;
        }
        // ATTU_BENCH_WARP_CHUNK=1: the warp paths (segreduce, interval_move)
        // with the chunk kernel's count words from the pool (a memset a
        // call) or the context's, launched plainly or as the warp kernel's
        // dependent (the default: kept, pdl), alternately twice
        if (getenv("ATTU_BENCH_WARP_CHUNK") && mean >= 256) {
          const bool saved_keep = ag::warp_chunk_keep_on(), saved_pdl = ag::warp_chunk_pdl_on();
          for (int round = 0; round < 2; ++round)
            for (int mode = 0; mode < 4; ++mode) {
              ag::warp_chunk_keep_on() = mode & 1;
              ag::warp_chunk_pdl_on() = mode >> 1;
              static const char* names[] = {" (memset, plain)", " (kept, plain)", " (memset, pdl)", " (kept, pdl)"};
              if (bench_wanted("segreduce")) bc::bench_segreduce(ctx, n, mean, names[mode]);
              if (bench_wanted("interval_move")) bc::bench_interval_move(ctx, n, mean, names[mode]);
            }
          ag::warp_chunk_keep_on() = saved_keep;
          ag::warp_chunk_pdl_on() = saved_pdl;
        }
        // ATTU_BENCH_SEGREDUCE_MODES=1: the tails kernel beside the blocked
        // tiles of 4-byte arrays, alternately twice
        if (bench_wanted("segreduce") && getenv("ATTU_BENCH_SEGREDUCE_MODES")) {
          const bool saved = ag::detail::segreduce_blocked_on();
          for (int round = 0; round < 2; ++round)
            for (bool on : {false, true}) {
              ag::detail::segreduce_blocked_on() = on;
              bc::bench_segreduce(ctx, n, mean, on ? " (blocked)" : " (tails)");
            }
          ag::detail::segreduce_blocked_on() = saved;
        }
        // ATTU_BENCH_SEGREDUCE_PDL=1: the blocked tiles with plain launches
        // (ATTU_SEGREDUCE_PDL=0) beside their programmatic dependent
        // launches (the default), alternately twice
        if (bench_wanted("segreduce") && getenv("ATTU_BENCH_SEGREDUCE_PDL")) {
          const bool saved = ag::detail::segreduce_pdl_on();
          for (int round = 0; round < 2; ++round)
            for (bool on : {false, true}) {
              ag::detail::segreduce_pdl_on() = on;
              bc::bench_segreduce(ctx, n, mean,
                                  on ? " (blocked pdl, default)" : " (blocked launches, PDL=0)");
            }
          ag::detail::segreduce_pdl_on() = saved;
        }
        // ATTU_BENCH_SEGREDUCE_LEAN=1: the blocked kernel's fold with a
        // global store at each tail (ATTU_SEGREDUCE_LEAN=0) beside the lean
        // fold (tails' values in shared memory, stored by the ends' threads:
        // the default), alternately twice
        if (bench_wanted("segreduce") && getenv("ATTU_BENCH_SEGREDUCE_LEAN")) {
          const bool saved = ag::detail::segreduce_lean_on();
          for (int round = 0; round < 2; ++round)
            for (bool on : {false, true}) {
              ag::detail::segreduce_lean_on() = on;
              bc::bench_segreduce(ctx, n, mean, on ? " (blocked lean, default)" : " (blocked, LEAN=0)");
            }
          ag::detail::segreduce_lean_on() = saved;
        }
        // the tile kernels beside the warp path (a launch box keeps them)
        if (bench_wanted("segreduce") && mean >= 100)
          bc::bench_segreduce<ag::launch_params_t<256, 8>>(ctx, n, mean, " (tiles)");
        if (bench_wanted("segreduce") && getenv("ATTU_BENCH_SEGREDUCE_BOXES")) {
          bc::bench_segreduce<ag::launch_params_t<128, 16>>(ctx, n, mean, " (128x16)");
          bc::bench_segreduce<ag::launch_params_t<64, 12>>(ctx, n, mean, " (64x12)");
          bc::bench_segreduce<ag::launch_params_t<64, 20>>(ctx, n, mean, " (64x20)");
          bc::bench_segreduce<ag::launch_params_t<32, 16>>(ctx, n, mean, " (32x16)");
          bc::bench_segreduce<ag::launch_params_t<64, 16>>(ctx, n, mean, " (64x16)");
          bc::bench_segreduce<ag::launch_params_t<128, 12>>(ctx, n, mean, " (128x12)");
          bc::bench_segreduce<ag::launch_params_t<128, 20>>(ctx, n, mean, " (128x20)");
        }
        if (bench_wanted("lbs")) bc::bench_lbs(ctx, n, mean);
        // ATTU_BENCH_LBS_MODES=1: transform_lbs with the direct count of
        // tiles with few ends off and on, alternately twice
        if (bench_wanted("lbs") && getenv("ATTU_BENCH_LBS_MODES")) {
          // (and the items mapped from the tile's first or aligned to 32)
          const bool saved = ag::detail::lbs_direct_on(), saved_align = ag::detail::lbs_align_on();
          for (int round = 0; round < 2; ++round)
            for (int mode = 0; mode < 4; ++mode) {
              ag::detail::lbs_direct_on() = mode % 2 == 1;
              ag::detail::lbs_align_on() = mode >= 2;
              static const char* names[] = {" (merge)", " (direct)", " (merge, aligned)", " (direct, aligned)"};
              bc::bench_lbs(ctx, n, mean, names[mode]);
            }
          ag::detail::lbs_direct_on() = saved;
          ag::detail::lbs_align_on() = saved_align;
        }
        // ATTU_BENCH_LBS_V3=1: transform_lbs by the merge path
        // (ATTU_LBS_V3=0) and as dispatched (through the interval moves'
        // marks below a mean of 512) alternately three times, then the
        // marks over other boxes
        if (bench_wanted("lbs") && getenv("ATTU_BENCH_LBS_V3")) {
          const bool saved = ag::detail::lbs_v3_on();
          for (int round = 0; round < 3; ++round)
            for (bool on : {false, true}) {
              ag::detail::lbs_v3_on() = on;
              bc::bench_lbs(ctx, n, mean, on ? " (default)" : " (merge path, V3=0)");
            }
          ag::detail::lbs_v3_on() = true;
          if (mean < ag::detail::kLbsMarksMaxMean) {
            bc::bench_lbs<ag::launch_params_t<128, 8>>(ctx, n, mean, " (marks, 128x8)");
            bc::bench_lbs<ag::launch_params_t<128, 16>>(ctx, n, mean, " (marks, 128x16)");
            bc::bench_lbs<ag::launch_params_t<64, 16>>(ctx, n, mean, " (marks, 64x16)");
          }
          ag::detail::lbs_v3_on() = saved;
        }
        // ATTU_BENCH_LBS_PDL=1: the marks tiles (transform_lbs below a
        // mean of 512, the interval moves' tiles) as plain launches
        // (ATTU_LBS_PDL=0) and as the partition's programmatic dependents
        // (the default) alternately three times
        if (getenv("ATTU_BENCH_LBS_PDL") && mean < 256) {
          const bool saved = ag::detail::lbs_pdl_on();
          for (int round = 0; round < 3; ++round)
            for (bool on : {false, true}) {
              ag::detail::lbs_pdl_on() = on;
              const char* note = on ? " (pdl, default)" : " (plain launch, PDL=0)";
              if (bench_wanted("lbs")) bc::bench_lbs(ctx, n, mean, note);
              if (bench_wanted("interval_move")) bc::bench_interval_move(ctx, n, mean, note);
            }
          ag::detail::lbs_pdl_on() = saved;
        }
        // ATTU_BENCH_MOVE_BOXES=1: the interval moves' tiles (128 x 7, the
        // default) beside other boxes, alternately twice
        if (bench_wanted("interval_move") && getenv("ATTU_BENCH_MOVE_BOXES") && mean < 256) {
          for (int round = 0; round < 2; ++round) {
            bc::bench_interval_move<ag::launch_params_t<128, 7>>(ctx, n, mean, " (128x7)");
            bc::bench_interval_move<ag::launch_params_t<256, 6>>(ctx, n, mean, " (256x6)");
            bc::bench_interval_move<ag::launch_params_t<128, 6>>(ctx, n, mean, " (128x6)");
            bc::bench_interval_move<ag::launch_params_t<64, 7>>(ctx, n, mean, " (64x7)");
            bc::bench_interval_move<ag::launch_params_t<256, 7>>(ctx, n, mean, " (256x7)");
            bc::bench_interval_move<ag::launch_params_t<128, 8>>(ctx, n, mean, " (128x8)");
          }
        }
        if (bench_wanted("lbs") && getenv("ATTU_BENCH_LBS_BOXES")) {
          if (mean == means[0]) bc::bench_write_pairs(ctx, n);
          bc::bench_lbs<ag::launch_params_t<256, 16>>(ctx, n, mean, " (256x16)");
          bc::bench_lbs<ag::launch_params_t<512, 8>>(ctx, n, mean, " (512x8)");
          bc::bench_lbs<ag::launch_params_t<128, 32>>(ctx, n, mean, " (128x32)");
          bc::bench_lbs<ag::launch_params_t<1024, 4>>(ctx, n, mean, " (1024x4)");
          bc::bench_lbs<ag::launch_params_t<128, 8>>(ctx, n, mean, " (128x8)");
          bc::bench_lbs(ctx, n, mean, " (again)");
        }
        if (bench_wanted("interval_move")) bc::bench_interval_move(ctx, n, mean);
        // the load-balanced tiles beside the warp path (a launch box keeps them)
        if (bench_wanted("interval_move") && mean >= 100)
          bc::bench_interval_move<ag::launch_params_t<256, 6>>(ctx, n, mean, " (tiles)");
        // ATTU_BENCH_MOVE_MODES=1: the tiles (256 x 6) with lbs_move's
        // counted ends and CTA scan (v1) and its tile-marked segments (v3),
        // alternately twice
        if (bench_wanted("interval_move") && getenv("ATTU_BENCH_MOVE_MODES")) {
          const bool saved = ag::detail::lbs_move_v3_on();
          for (int round = 0; round < 2; ++round)
            for (bool v3 : {false, true}) {
              ag::detail::lbs_move_v3_on() = v3;
              bc::bench_interval_move<ag::launch_params_t<256, 6>>(ctx, n, mean, v3 ? " (v3)" : " (v1)");
            }
          ag::detail::lbs_move_v3_on() = saved;
        }
        if (bench_wanted("interval_move") && getenv("ATTU_BENCH_LBS_BOXES")) {
          bc::bench_interval_move<ag::launch_params_t<128, 8>>(ctx, n, mean, " (128x8)");
          bc::bench_interval_move<ag::launch_params_t<64, 8>>(ctx, n, mean, " (64x8)");
          bc::bench_interval_move<ag::launch_params_t<256, 8>>(ctx, n, mean, " (256x8)");
          bc::bench_interval_move<ag::launch_params_t<128, 4>>(ctx, n, mean, " (128x4)");
        }
      }
      if (bench_wanted("sorted_search")) bc::bench_sorted_search(ctx, n);
      // ATTU_BENCH_SEARCH_MODES=1: the first tile kernel, v3 and v3
      // aligned (sorted_search.cuh), alternately twice;
      // ATTU_BENCH_SEARCH_BOXES=1: v3 at other tile shapes (the default is
      // 256 x 11)
      if (bench_wanted("sorted_search") && getenv("ATTU_BENCH_SEARCH_MODES")) {
        const bool saved3 = ag::detail::sorted_search_v3_on();
        const bool saved_align = ag::detail::search_align_on();
        const char* const names[] = {" (first)", " (v3)", " (v3, aligned)"};
        for (int round = 0; round < 2; ++round)
          for (int k : {0, 1, 2}) {
            ag::detail::sorted_search_v3_on() = k > 0;
            ag::detail::search_align_on() = k == 2;
            bc::bench_sorted_search(ctx, n, names[k]);
          }
        ag::detail::sorted_search_v3_on() = saved3;
        ag::detail::search_align_on() = saved_align;
      }
      if (bench_wanted("sorted_search") && getenv("ATTU_BENCH_SEARCH_BOXES")) {
        const bool saved3 = ag::detail::sorted_search_v3_on();
        ag::detail::sorted_search_v3_on() = true;
        bc::bench_sorted_search<ag::launch_params_t<256, 13>>(ctx, n, " (v3 256x13)");
        bc::bench_sorted_search<ag::launch_params_t<256, 15>>(ctx, n, " (v3 256x15)");
        bc::bench_sorted_search<ag::launch_params_t<128, 11>>(ctx, n, " (v3 128x11)");
        bc::bench_sorted_search<ag::launch_params_t<128, 15>>(ctx, n, " (v3 128x15)");
        bc::bench_sorted_search<ag::launch_params_t<128, 13>>(ctx, n, " (v3 128x13)");
        bc::bench_sorted_search<ag::launch_params_t<256, 11>>(ctx, n, " (v3 256x11, again)");
        bc::bench_sorted_search<ag::launch_params_t<256, 13>>(ctx, n, " (v3 256x13, again)");
        bc::bench_sorted_search<ag::launch_params_t<192, 13>>(ctx, n, " (v3 192x13)");
        bc::bench_sorted_search<ag::launch_params_t<384, 13>>(ctx, n, " (v3 384x13)");
        ag::detail::sorted_search_v3_on() = saved3;
      }
    }
  } catch (const std::exception& e) {
    std::printf("error: %s\n", e.what());
    return 1;
  }
  return 0;
}
