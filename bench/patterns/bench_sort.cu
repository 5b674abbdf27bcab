// bench_sort.cu: attu's sorting patterns against CUB, side by side, plus the
// device-to-device copy that bounds every memory-bound pattern.
//
//   bench_sort [sizes...] [--reps N]     e.g. bench_sort 1M 16M 64M 256M 1G
//
// radix_sort vs cub::DeviceRadixSort (keys int32/int64/float, pairs int/int),
// mergesort vs cub::DeviceMergeSort, merge vs cub::DeviceMerge, and
// segmented_sort (pairs int/int, 64M items unless sizes are given, mean
// segment 16 / 100 / 1000 / 100000) vs cub::DeviceSegmentedSort and
// cub::DeviceSegmentedRadixSort, and radix_partition (one 8-bit digit,
// out of place: a join's pairs by their partners' top bits) vs
// cub::DeviceRadixSort over that digit alone (begin_bit .. begin_bit + 8). In-place sorts get their input restored
// before each run, outside the timed region. GB/s counts keys (and values)
// read once and written once.
#include "bench/patterns/bench_common.cuh"
#include "gpu/patterns/merge.cuh"
#include "gpu/patterns/mergesort.cuh"
#include "gpu/patterns/partition.cuh"
#include "gpu/patterns/segmented_sort.cuh"
#include "gpu/patterns/sort.cuh"

#include <cub/device/device_merge.cuh>
#include <cub/device/device_merge_sort.cuh>
#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_segmented_radix_sort.cuh>
#include <cub/device/device_segmented_sort.cuh>

#include <random>

using namespace bench;
namespace ag = attu::gpu;

namespace {

void bench_copy(context_t& ctx, size_t n) {
  dbuf<int> a(n), b(n);
  fill_random(a.p, n, 1);
  double ms = time_ms(ctx, no_prep, [&] {
    ATTU_CUDA_CHECK(cudaMemcpyAsync(b.p, a.p, n * sizeof(int), cudaMemcpyDeviceToDevice, ctx.stream()));
  });
  row("device-to-device copy", "int32", n, 2.0 * n * sizeof(int), ms, "cudaMemcpyAsync", -1);
}

template <typename key_t>
void bench_radix_keys(context_t& ctx, size_t n, const char* type) {
  if (free_bytes() < 4 * n * sizeof(key_t) + (256u << 20)) return;
  dbuf<key_t> src(n), k(n), alt(n);
  fill_random(src.p, n, 2);
  auto restore = [&] {
    ATTU_CUDA_CHECK(cudaMemcpyAsync(k.p, src.p, n * sizeof(key_t), cudaMemcpyDeviceToDevice, ctx.stream()));
  };
  double ours = time_ms(ctx, restore, [&] { ag::radix_sort(k.p, n, ag::less_t<key_t>(), ctx); });
  cub::DoubleBuffer<key_t> db(k.p, alt.p);
  size_t tb = 0;
  ATTU_CUDA_CHECK(cub::DeviceRadixSort::SortKeys(nullptr, tb, db, (int)n));
  dbuf<char> tmp(tb);
  double theirs = time_ms(ctx, [&] { restore(); db = cub::DoubleBuffer<key_t>(k.p, alt.p); }, [&] {
    ATTU_CUDA_CHECK(cub::DeviceRadixSort::SortKeys(tmp.p, tb, db, (int)n, 0, 8 * sizeof(key_t), ctx.stream()));
  });
  row("radix_sort keys", type, n, 2.0 * n * sizeof(key_t), ours, "DeviceRadixSort::SortKeys", theirs);
}

template <typename key_t, typename val_t>
void bench_radix_pairs(context_t& ctx, size_t n, const char* type) {
  if (free_bytes() < 4 * n * (sizeof(key_t) + sizeof(val_t)) + (256u << 20)) return;
  dbuf<key_t> ksrc(n), k(n), kalt(n);
  dbuf<val_t> vsrc(n), v(n), valt(n);
  fill_random(ksrc.p, n, 3);
  fill_random(vsrc.p, n, 4);
  auto restore = [&] {
    ATTU_CUDA_CHECK(cudaMemcpyAsync(k.p, ksrc.p, n * sizeof(key_t), cudaMemcpyDeviceToDevice, ctx.stream()));
    ATTU_CUDA_CHECK(cudaMemcpyAsync(v.p, vsrc.p, n * sizeof(val_t), cudaMemcpyDeviceToDevice, ctx.stream()));
  };
  double ours = time_ms(ctx, restore, [&] { ag::radix_sort(k.p, v.p, n, ag::less_t<key_t>(), ctx); });
  cub::DoubleBuffer<key_t> dk(k.p, kalt.p);
  cub::DoubleBuffer<val_t> dv(v.p, valt.p);
  size_t tb = 0;
  ATTU_CUDA_CHECK(cub::DeviceRadixSort::SortPairs(nullptr, tb, dk, dv, (int)n));
  dbuf<char> tmp(tb);
  double theirs = time_ms(ctx, [&] {
    restore();
    dk = cub::DoubleBuffer<key_t>(k.p, kalt.p);
    dv = cub::DoubleBuffer<val_t>(v.p, valt.p);
  }, [&] {
    ATTU_CUDA_CHECK(cub::DeviceRadixSort::SortPairs(tmp.p, tb, dk, dv, (int)n, 0, 8 * sizeof(key_t), ctx.stream()));
  });
  row("radix_sort pairs", type, n, 2.0 * n * (sizeof(key_t) + sizeof(val_t)), ours,
      "DeviceRadixSort::SortPairs", theirs);
}

// The join's partition: int64 partner rows of [0, n / 4) (25M for 100M
// pairs) by their top 8 bits, carrying 8-byte values, and the same with
// int32 keys read; both ranked as int32 and written as int64 rows, as the
// GPU backend's partition does. CUB sorts the pairs
// over those 8 bits (one pass, into its alternate buffers). GB/s: keys and
// values read once and written once.
template <typename in_t>
void bench_partition(context_t& ctx, size_t n, const char* type) {
  if (free_bytes() < n * (4 * 8 + 2 * sizeof(in_t)) + (256u << 20)) return;
  size_t range = n / 4 > 2 ? n / 4 : 2;
  int bits = 64 - __builtin_clzll((unsigned long long)(range - 1));
  int shift = bits > 8 ? bits - 8 : 0;
  std::vector<in_t> hk(n);
  std::mt19937_64 rng(5);
  for (auto& k : hk) k = in_t(rng() % range);
  dbuf<in_t> k(n), kalt(n);
  dbuf<long long> ko(n), v(n), vo(n), valt(n);
  ATTU_CUDA_CHECK(cudaMemcpy(k.p, hk.data(), n * sizeof(in_t), cudaMemcpyHostToDevice));
  fill_random(v.p, n, 6);
  double ours = time_ms(ctx, no_prep, [&] {
    // as the GPU backend does it: ranked as int32, written as int64 rows
    ag::radix_partition<int, in_t, long long, long long>(k.p, 0, ko.p, v.p, vo.p, n, shift, ctx);
  });
  cub::DoubleBuffer<in_t> dk(k.p, kalt.p);
  cub::DoubleBuffer<long long> dv(v.p, valt.p);
  size_t tb = 0;
  ATTU_CUDA_CHECK(cub::DeviceRadixSort::SortPairs(nullptr, tb, dk, dv, (int)n, shift, shift + 8));
  dbuf<char> tmp(tb);
  // one pass leaves CUB's output in the alternate buffers: the input stays
  double theirs = time_ms(ctx, [&] {
    dk = cub::DoubleBuffer<in_t>(k.p, kalt.p);
    dv = cub::DoubleBuffer<long long>(v.p, valt.p);
  }, [&] {
    ATTU_CUDA_CHECK(cub::DeviceRadixSort::SortPairs(tmp.p, tb, dk, dv, (int)n, shift, shift + 8, ctx.stream()));
  });
  row("radix_partition", type, n, double(n) * (sizeof(in_t) + 8 + 8 + 8), ours, "DeviceRadixSort 8 bits", theirs);
}

void bench_mergesort(context_t& ctx, size_t n) {
  if (free_bytes() < 6 * n * 8 + (256u << 20)) return;
  dbuf<int> ksrc(n), k(n), vsrc(n), v(n);
  fill_random(ksrc.p, n, 5);
  fill_random(vsrc.p, n, 6);
  auto restore = [&] {
    ATTU_CUDA_CHECK(cudaMemcpyAsync(k.p, ksrc.p, n * 4, cudaMemcpyDeviceToDevice, ctx.stream()));
    ATTU_CUDA_CHECK(cudaMemcpyAsync(v.p, vsrc.p, n * 4, cudaMemcpyDeviceToDevice, ctx.stream()));
  };
  double ours = time_ms(ctx, restore, [&] { ag::mergesort(k.p, v.p, (long long)n, ag::less_t<int>(), ctx); });
  size_t tb = 0;
  ATTU_CUDA_CHECK(cub::DeviceMergeSort::SortPairs(nullptr, tb, k.p, v.p, (long long)n, ag::less_t<int>()));
  dbuf<char> tmp(tb);
  double theirs = time_ms(ctx, restore, [&] {
    ATTU_CUDA_CHECK(cub::DeviceMergeSort::SortPairs(tmp.p, tb, k.p, v.p, (long long)n, ag::less_t<int>(), ctx.stream()));
  });
  row("mergesort pairs", "int/int", n, 2.0 * n * 8, ours, "DeviceMergeSort::SortPairs", theirs);
}

void bench_merge(context_t& ctx, size_t n) {
  if (free_bytes() < 4 * n * 8 + (256u << 20)) return;
  size_t na = n / 2, nb = n - n / 2;
  dbuf<int> a(na), b(nb), av(na), bv(nb), c(n), cv(n);
  fill_random(a.p, na, 7, 1ll << 30);
  fill_random(b.p, nb, 8, 1ll << 30);
  fill_random(av.p, na, 9);
  fill_random(bv.p, nb, 10);
  {
    ag::radix_sort(a.p, na, ag::less_t<int>(), ctx);
    ag::radix_sort(b.p, nb, ag::less_t<int>(), ctx);
    ctx.synchronize();
  }
  double ours = time_ms(ctx, no_prep, [&] {
    ag::merge(a.p, av.p, (long long)na, b.p, bv.p, (long long)nb, c.p, cv.p, ag::less_t<int>(), ctx);
  });
  size_t tb = 0;
  ATTU_CUDA_CHECK(cub::DeviceMerge::MergePairs(nullptr, tb, a.p, av.p, (long long)na, b.p, bv.p,
                                               (long long)nb, c.p, cv.p, ag::less_t<int>()));
  dbuf<char> tmp(tb);
  double theirs = time_ms(ctx, no_prep, [&] {
    ATTU_CUDA_CHECK(cub::DeviceMerge::MergePairs(tmp.p, tb, a.p, av.p, (long long)na, b.p, bv.p,
                                                 (long long)nb, c.p, cv.p, ag::less_t<int>(), ctx.stream()));
  });
  row("merge pairs", "int/int", n, 2.0 * n * 8, ours, "DeviceMerge::MergePairs", theirs);
}

// Segment starts with lengths uniform in [1, 2*mean-1] (mean `mean`).
std::vector<int> make_segments(size_t n, long long mean) {
  std::mt19937_64 rng(42);
  std::uniform_int_distribution<long long> len(1, 2 * mean - 1);
  std::vector<int> s;
  long long pos = 0;
  while (pos < (long long)n) { s.push_back(int(pos)); pos += len(rng); }
  s.push_back(int(n));  // CUB reads begin/end offsets from one array of num+1
  return s;
}

void bench_segsort(context_t& ctx, size_t n, long long mean) {
  if (free_bytes() < 6 * n * 8 + (256u << 20)) return;
  auto segs = make_segments(n, mean);
  int num = int(segs.size()) - 1;
  dbuf<int> d_segs(segs.size());
  ATTU_CUDA_CHECK(cudaMemcpy(d_segs.p, segs.data(), segs.size() * 4, cudaMemcpyHostToDevice));
  ATTU_CUDA_CHECK(cudaDeviceSynchronize());  // before the context's non-blocking stream reads it
  dbuf<int> ksrc(n), k(n), kalt(n), vsrc(n), v(n), valt(n);
  fill_random(ksrc.p, n, 11);
  fill_random(vsrc.p, n, 12);
  auto restore = [&] {
    ATTU_CUDA_CHECK(cudaMemcpyAsync(k.p, ksrc.p, n * 4, cudaMemcpyDeviceToDevice, ctx.stream()));
    ATTU_CUDA_CHECK(cudaMemcpyAsync(v.p, vsrc.p, n * 4, cudaMemcpyDeviceToDevice, ctx.stream()));
  };
  double ours = time_ms(ctx, restore, [&] {
    ag::segmented_sort(k.p, v.p, (long long)n, d_segs.p, num, ag::less_t<int>(), ctx);
  });
  char name[64];
  std::snprintf(name, sizeof name, "segmented_sort pairs, mean %lld", mean);
  // CUB DeviceSegmentedSort (the faster of its two entry points here).
  cub::DoubleBuffer<int> dk(k.p, kalt.p), dv(v.p, valt.p);
  size_t tb = 0;
  ATTU_CUDA_CHECK(cub::DeviceSegmentedSort::SortPairs(nullptr, tb, dk, dv, (int)n, num, d_segs.p, d_segs.p + 1));
  dbuf<char> tmp(tb);
  auto reset = [&] {
    restore();
    dk = cub::DoubleBuffer<int>(k.p, kalt.p);
    dv = cub::DoubleBuffer<int>(v.p, valt.p);
  };
  double seg = time_ms(ctx, reset, [&] {
    ATTU_CUDA_CHECK(cub::DeviceSegmentedSort::SortPairs(tmp.p, tb, dk, dv, (int)n, num, d_segs.p,
                                                        d_segs.p + 1, ctx.stream()));
  });
  row(name, "int/int", n, 2.0 * n * 8, ours, "DeviceSegmentedSort::SortPairs", seg);
  if (mean >= 1000) {
    size_t tb2 = 0;
    ATTU_CUDA_CHECK(cub::DeviceSegmentedRadixSort::SortPairs(nullptr, tb2, dk, dv, (int)n, num,
                                                             d_segs.p, d_segs.p + 1));
    dbuf<char> tmp2(tb2);
    double rad = time_ms(ctx, reset, [&] {
      ATTU_CUDA_CHECK(cub::DeviceSegmentedRadixSort::SortPairs(tmp2.p, tb2, dk, dv, (int)n, num, d_segs.p,
                                                               d_segs.p + 1, 0, 32, ctx.stream()));
    });
    row(name, "int/int", n, 2.0 * n * 8, ours, "DeviceSegmentedRadixSort::SortPairs", rad);
  }
}

}  // namespace

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
    // groups for ATTU_BENCH_ONLY: copy, radix, partition, mergesort, merge, segsort
    if (bench_wanted("copy"))
      for (size_t n : sizes) bench_copy(ctx, n);
    if (bench_wanted("radix"))
      for (size_t n : sizes) {
        bench_radix_keys<int>(ctx, n, "int32");
        bench_radix_keys<float>(ctx, n, "float");
        bench_radix_keys<long long>(ctx, n, "int64");
        bench_radix_pairs<int, int>(ctx, n, "int/int");
        bench_radix_pairs<long long, int>(ctx, n, "int64/int");
      }
    if (bench_wanted("partition"))
      for (size_t n : sizes) {
        bench_partition<long long>(ctx, n, "int64/int64");
        bench_partition<int>(ctx, n, "int32>int64/int64");
      }
    // ATTU_BENCH_SORT_RADIX_ONLY=1: the copies and the radix sorts only
    // (tuning runs of the onesweep tiles; ATTU_BENCH_ONLY=copy,radix)
    const char* ro = std::getenv("ATTU_BENCH_SORT_RADIX_ONLY");
    if (ro && *ro == '1') return 0;
    if (bench_wanted("mergesort"))
      for (size_t n : sizes)
        if (n <= (256u << 20)) bench_mergesort(ctx, n);
    if (bench_wanted("merge"))
      for (size_t n : sizes) bench_merge(ctx, n);
    size_t segn = 64u << 20;
    // ATTU_BENCH_SEGSORT_MEANS=10000,30000 replaces the mean segments (the
    // radix path's threshold runs, with ATTU_SEGSORT_RADIX_MIN_TILES)
    const std::vector<long long> means = env_numbers("ATTU_BENCH_SEGSORT_MEANS", {16, 100, 1000, 100000});
    if (bench_wanted("segsort"))
      for (long long mean : means) bench_segsort(ctx, segn, mean);
  } catch (const std::exception& e) {
    std::printf("error: %s\n", e.what());
    return 1;
  }
  return 0;
}
