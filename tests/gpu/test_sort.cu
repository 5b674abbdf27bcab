// test_sort.cu: the sorting patterns (radix_sort, radix_partition, count_keys, merge,
// mergesort, segmented_sort, segmented_sort_indices) against their CPU
// references.
//
// Sizes 0, 1, tile-1, tile, tile+1, 1M and 100M (radix sort); random keys,
// never all zeros, some with a small range so that ties test stability;
// segment geometries with empty segments, one huge segment, millions of tiny
// ones. Values are the original indices, so a pair sort is checked exactly:
// keys ascending under comp, values a permutation, keys[i] == original[vals[i]]
// and ties in original order; that is the stable sort and nothing else.
// Exits 77 ("skipped: no CUDA device") without a GPU.
#include "gpu/patterns/key_count.cuh"
#include "gpu/patterns/merge.cuh"
#include "gpu/patterns/mergesort.cuh"
#include "gpu/patterns/partition.cuh"
#include "gpu/patterns/segmented_sort.cuh"
#include "gpu/patterns/sort.cuh"
#include "gpu/reference/key_count_reference.hpp"
#include "gpu/reference/sort_reference.hpp"

#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

namespace {

using test_context = attu::gpu::context_t;

int g_passed = 0, g_failed = 0;

void report(bool ok, const std::string& name) {
  if (ok) {
    ++g_passed;
  } else {
    ++g_failed;
    std::printf("FAIL %s\n", name.c_str());
  }
  std::fflush(stdout);
}

// Host -> device, finished before returning. The patterns run on the
// context's non-blocking stream, which does not wait for the legacy stream's
// cudaMemcpy: from pageable memory that call may return before its DMA
// lands, and a sort launched right after read stale keys (seen in session
// 10 once the mergesort tiles got faster).
template <typename T>
void upload(T* d, const std::vector<T>& h) {
  if (!h.empty()) ATTU_CUDA_CHECK(cudaMemcpy(d, h.data(), h.size() * sizeof(T), cudaMemcpyHostToDevice));
  ATTU_CUDA_CHECK(cudaDeviceSynchronize());
}

template <typename T>
T* to_device(const std::vector<T>& h) {
  T* d = nullptr;
  ATTU_CUDA_CHECK(cudaMalloc(&d, (h.size() ? h.size() : 1) * sizeof(T)));
  upload(d, h);
  return d;
}
template <typename T>
std::vector<T> to_host(const T* d, size_t n) {
  std::vector<T> h(n);
  ATTU_CUDA_CHECK(cudaDeviceSynchronize());
  if (n) ATTU_CUDA_CHECK(cudaMemcpy(h.data(), d, n * sizeof(T), cudaMemcpyDeviceToHost));
  return h;
}

std::mt19937_64 rng(20261122);

// Random non-zero keys; range 0 means full range.
template <typename key_t>
std::vector<key_t> random_keys(size_t n, long long range) {
  std::vector<key_t> v(n);
  for (size_t i = 0; i < n; ++i) {
    unsigned long long r = rng();
    key_t k;
    if (std::is_floating_point<key_t>::value) {
      double x = range ? double((long long)(r % (unsigned long long)range) - range / 2) / 4.0
                       : (double((long long)r) / 9.2e18) * 1e6;
      k = key_t(x == 0 ? 0.5 : x);
    } else if (range) {
      k = key_t((long long)(r % (unsigned long long)range) - (std::is_signed<key_t>::value ? range / 2 : 0));
      if (k == 0) k = key_t(1);
    } else {
      k = key_t(r);
      if (k == 0) k = key_t(7);
    }
    v[i] = k;
  }
  return v;
}

// Exact check of a stable pair sort whose values were 0..n-1: see file top.
template <typename key_t, typename comp_t>
bool check_stable_perm(const std::vector<key_t>& orig, const std::vector<key_t>& keys,
                       const std::vector<int>& vals, comp_t comp, size_t lo, size_t hi) {
  std::vector<char> seen(hi - lo, 0);
  for (size_t i = lo; i < hi; ++i) {
    long long v = vals[i];
    if (v < (long long)lo || v >= (long long)hi || seen[v - lo]) return false;
    seen[v - lo] = 1;
    if (!(keys[i] == orig[v]) && !(keys[i] != keys[i])) return false;
    if (i > lo) {
      if (comp(keys[i], keys[i - 1])) return false;
      if (!comp(keys[i - 1], keys[i]) && vals[i - 1] > v) return false;  // tie: stable
    }
  }
  return true;
}

// ---- radix sort -------------------------------------------------------------
template <typename key_t, typename comp_t>
void test_radix_pairs(test_context& ctx, size_t n, long long range, comp_t comp, const char* what) {
  auto keys = random_keys<key_t>(n, range);
  std::vector<int> vals(n);
  for (size_t i = 0; i < n; ++i) vals[i] = int(i);
  key_t* dk = to_device(keys);
  int* dv = to_device(vals);
  attu::gpu::radix_sort(dk, dv, n, comp, ctx);
  auto hk = to_host(dk, n);
  auto hv = to_host(dv, n);
  report(check_stable_perm(keys, hk, hv, comp, 0, n),
         std::string("radix_sort pairs ") + what + " n=" + std::to_string(n));
  cudaFree(dk);
  cudaFree(dv);
}

template <typename key_t, typename comp_t>
void test_radix_keys(test_context& ctx, size_t n, long long range, comp_t comp, const char* what) {
  auto keys = random_keys<key_t>(n, range);
  key_t* dk = to_device(keys);
  attu::gpu::radix_sort(dk, n, comp, ctx);
  auto hk = to_host(dk, n);
  attu::ref::sort_keys(keys, comp);
  report(hk == keys, std::string("radix_sort keys ") + what + " n=" + std::to_string(n));
  cudaFree(dk);
}

// Keys that start off a 16-byte boundary (the histogram reads 16 bytes a
// thread from the first boundary on, the head one key at a time): sorted in
// place at offset `off` keys into a poisoned buffer, whose other slots stay.
template <typename key_t>
void test_radix_keys_offset(test_context& ctx, size_t n, size_t off, const char* what) {
  auto keys = random_keys<key_t>(n, 0);
  std::vector<key_t> buf(n + off + 3, key_t(0x5e));
  std::copy(keys.begin(), keys.end(), buf.begin() + off);
  key_t* db = to_device(buf);
  attu::gpu::radix_sort(db + off, n, attu::gpu::less_t<key_t>(), ctx);
  auto hb = to_host(db, buf.size());
  attu::ref::sort_keys(keys, attu::gpu::less_t<key_t>());
  std::copy(keys.begin(), keys.end(), buf.begin() + off);
  report(hb == buf, std::string("radix_sort keys ") + what + " n=" + std::to_string(n) + " at offset " +
                        std::to_string(off));
  cudaFree(db);
}

// 64-bit values take the narrower tile: checked against the reference.
void test_radix_wide_vals(test_context& ctx, size_t n) {
  auto keys = random_keys<unsigned>(n, 1000);
  auto vals = random_keys<long long>(n, 0);
  unsigned* dk = to_device(keys);
  long long* dv = to_device(vals);
  attu::gpu::radix_sort(dk, dv, n, attu::gpu::less_t<unsigned>(), ctx);
  auto hk = to_host(dk, n);
  auto hv = to_host(dv, n);
  attu::ref::sort_pairs(keys, vals, attu::gpu::less_t<unsigned>());
  report(hk == keys && hv == vals, "radix_sort pairs u32/i64 n=" + std::to_string(n));
  cudaFree(dk);
  cudaFree(dv);
}

// ---- radix_partition --------------------------------------------------------
// Keys (int64 row numbers of [0, range) as a join's partners, or signed
// keys of either sign) with values of 1, 4 and 8 bytes; the keys written by
// the first call only, as the backend moves several columns; outputs
// poisoned; the digit at the top of the keys' range and at shift 0.
void test_partition(test_context& ctx, size_t n, long long range, int shift) {
  auto keys = random_keys<long long>(n, range);
  if (range > 0)
    for (auto& k : keys) k = k < 0 ? -k : k;  // a row number
  std::vector<long long> v8(n);
  std::vector<unsigned> v4(n);
  std::vector<unsigned char> v1(n);
  for (size_t i = 0; i < n; ++i) {
    v8[i] = (long long)i * 3 + 1;
    v4[i] = unsigned(i) ^ 0x9e3779b9u;
    v1[i] = (unsigned char)(i * 7);
  }
  long long *dk = to_device(keys), *dv8 = to_device(v8);
  unsigned* dv4 = to_device(v4);
  unsigned char* dv1 = to_device(v1);
  std::vector<long long> pk(n, 0x5eadbeef5eadbeefLL), p8(n, 0x5eadbeef5eadbeefLL);
  std::vector<unsigned> p4(n, 0x5eadbeefu);
  std::vector<unsigned char> p1(n, 0xab);
  long long *ok = to_device(pk), *o8 = to_device(p8);
  unsigned* o4 = to_device(p4);
  unsigned char* o1 = to_device(p1);
  attu::gpu::radix_partition(dk, ok, dv8, o8, n, shift, ctx);
  attu::gpu::radix_partition(dk, (long long*)nullptr, dv4, o4, n, shift, ctx);
  attu::gpu::radix_partition(dk, (long long*)nullptr, dv1, o1, n, shift, ctx);
  auto hk = to_host(ok, n);
  auto h8 = to_host(o8, n);
  auto h4 = to_host(o4, n);
  auto h1 = to_host(o1, n);
  auto bits = [](long long k) { return attu::gpu::sort_key_traits<long long>::to_bits(k); };
  auto rk = keys, rk4 = keys, rk1 = keys;
  attu::ref::radix_partition(rk, v8, shift, bits);
  attu::ref::radix_partition(rk4, v4, shift, bits);
  attu::ref::radix_partition(rk1, v1, shift, bits);
  std::string what = " n=" + std::to_string(n) + " range=" + std::to_string(range) + " shift=" + std::to_string(shift);
  report(hk == rk && h8 == v8, "radix_partition keys + 8-byte values" + what);
  report(h4 == v4 && h1 == v1, "radix_partition 4- and 1-byte values by the same keys" + what);
  cudaFree(dk); cudaFree(dv8); cudaFree(dv4); cudaFree(dv1);
  cudaFree(ok); cudaFree(o8); cudaFree(o4); cudaFree(o1);
}

// int32 keys partitioned as int64 key - base (a join's needles, whose
// partner row is key - kmin), against the reference over those values.
void test_partition_narrow(test_context& ctx, size_t n, int shift) {
  auto raw = random_keys<int>(n, 1 << 26);
  const long long base = -(1LL << 25);  // every key - base >= 0
  std::vector<long long> keys(n), vals(n);
  for (size_t i = 0; i < n; ++i) {
    keys[i] = (long long)raw[i] - base;
    vals[i] = (long long)i;
  }
  int* dk = to_device(raw);
  long long* dv = to_device(vals);
  std::vector<long long> poison(n, 0x5eadbeef5eadbeefLL);
  long long *ok = to_device(poison), *ov = to_device(poison);
  // ranked as int64, and as int32 (the backend's join partition: keys less
  // the base below 2^31), both written as int64
  attu::gpu::radix_partition<long long, int, long long, long long>(dk, base, ok, dv, ov, n, shift, ctx);
  auto hk = to_host(ok, n), hv = to_host(ov, n);
  upload(ok, poison);
  upload(ov, poison);
  attu::gpu::radix_partition<int, int, long long, long long>(dk, base, ok, dv, ov, n, shift, ctx);
  auto hk32 = to_host(ok, n), hv32 = to_host(ov, n);
  // the keys alone (the split join's partners): no value column moved
  upload(ok, poison);
  attu::gpu::radix_partition_keys<int, int, long long>(dk, base, ok, n, shift, ctx);
  auto hko = to_host(ok, n);
  auto bits = [](long long k) { return attu::gpu::sort_key_traits<long long>::to_bits(k); };
  attu::ref::radix_partition(keys, vals, shift, bits);
  report(hko == keys, "radix_partition_keys int32 keys less a base, no values n=" + std::to_string(n) + " shift=" +
                          std::to_string(shift));
  report(hk == keys && hv == vals,
         "radix_partition int32 keys less a base n=" + std::to_string(n) + " shift=" + std::to_string(shift));
  report(hk32 == keys && hv32 == vals,
         "radix_partition int32 keys less a base, ranked in 32 bits n=" + std::to_string(n) + " shift=" +
             std::to_string(shift));
  cudaFree(dk); cudaFree(dv); cudaFree(ok); cudaFree(ov);
}

// ---- count_keys ---------------------------------------------------------------
// Keys less a base in [0, nkeys): uniform, skewed (one key a large share,
// so that its 16-bit counter passes 32768 many times over) and all equal.
template <typename in_t>
void test_count_keys(test_context& ctx, size_t n, size_t nkeys, long long base, int skew, const char* what,
                     bool regions_ok = true) {
  std::mt19937_64 rng(n * 7919 + nkeys + skew);
  std::vector<in_t> keys(n);
  for (size_t i = 0; i < n; ++i) {
    size_t k = rng() % nkeys;
    if (skew == 1 && rng() % 3 == 0) k = nkeys / 2;   // a third of the keys one key
    if (skew == 2) k = nkeys - 1;                      // every key the last
    keys[i] = in_t((long long)k + base);
  }
  in_t* dk = n ? to_device(keys) : nullptr;
  std::vector<int> poison(nkeys ? nkeys : 1, 0x5eadbeef);
  int* dc = to_device(poison);
  attu::gpu::count_keys<in_t>(dk, base, n, dc, nkeys, ctx, regions_ok);
  auto got = to_host(dc, nkeys);
  auto want = attu::ref::count_keys(keys, base, nkeys);
  report(got == want, std::string("count_keys ") + what + (regions_ok ? "" : " pieces") + " n=" + std::to_string(n) +
                          " nkeys=" + std::to_string(nkeys) + " skew=" + std::to_string(skew));
  if (dk) cudaFree(dk);
  cudaFree(dc);
}

// ---- merge --------------------------------------------------------------------
void test_merge(test_context& ctx, size_t na, size_t nb, long long range) {
  auto ak = random_keys<int>(na, range), bk = random_keys<int>(nb, range);
  std::sort(ak.begin(), ak.end());
  std::sort(bk.begin(), bk.end());
  std::vector<int> av(na), bv(nb);
  for (size_t i = 0; i < na; ++i) av[i] = int(i);
  for (size_t i = 0; i < nb; ++i) bv[i] = int(na + i);
  int *dak = to_device(ak), *dav = to_device(av), *dbk = to_device(bk), *dbv = to_device(bv);
  std::vector<int> poison(na + nb, 0x5eadbeef);
  int *dck = to_device(poison), *dcv = to_device(poison);
  attu::gpu::merge(dak, dav, (long long)na, dbk, dbv, (long long)nb, dck, dcv, attu::gpu::less_t<int>(), ctx);
  auto ck = to_host(dck, na + nb), cv = to_host(dcv, na + nb);
  std::vector<int> rk, rv;
  attu::ref::merge(ak, av, bk, bv, rk, rv, attu::gpu::less_t<int>());
  report(ck == rk && cv == rv,
         "merge pairs na=" + std::to_string(na) + " nb=" + std::to_string(nb));
  // keys only, into a fresh poisoned output
  upload(dck, poison);
  attu::gpu::merge(dak, (long long)na, dbk, (long long)nb, dck, attu::gpu::less_t<int>(), ctx);
  ck = to_host(dck, na + nb);
  report(ck == rk, "merge keys na=" + std::to_string(na) + " nb=" + std::to_string(nb));
  cudaFree(dak); cudaFree(dav); cudaFree(dbk); cudaFree(dbv); cudaFree(dck); cudaFree(dcv);
}

// A comparator with no bit order: by last decimal digit, then descending.
struct digit_then_desc {
  __host__ __device__ bool operator()(int a, int b) const {
    int da = (a % 10 + 10) % 10, db = (b % 10 + 10) % 10;
    return da < db || (da == db && a > b);
  }
};

template <typename key_t, typename comp_t>
void test_mergesort(test_context& ctx, size_t n, long long range, comp_t comp, const char* what) {
  auto keys = random_keys<key_t>(n, range);
  std::vector<int> vals(n);
  for (size_t i = 0; i < n; ++i) vals[i] = int(i);
  key_t* dk = to_device(keys);
  int* dv = to_device(vals);
  attu::gpu::mergesort(dk, dv, (long long)n, comp, ctx);
  auto hk = to_host(dk, n);
  auto hv = to_host(dv, n);
  report(check_stable_perm(keys, hk, hv, comp, 0, n),
         std::string("mergesort pairs ") + what + " n=" + std::to_string(n));
  // keys only
  upload(dk, keys);
  attu::gpu::mergesort(dk, (long long)n, comp, ctx);
  hk = to_host(dk, n);
  attu::ref::sort_keys(keys, comp);
  report(hk == keys, std::string("mergesort keys ") + what + " n=" + std::to_string(n));
  cudaFree(dk);
  cudaFree(dv);
}

// ---- segmented sort -----------------------------------------------------------
// Segment starts with mean length `mean` (lengths uniform in [0, 2*mean]:
// empty segments included), optionally not starting at 0.
std::vector<int> random_segments(size_t n, double mean, int first) {
  std::vector<int> s;
  long long pos = first;
  std::uniform_int_distribution<long long> len(0, (long long)(2 * mean));
  while (pos < (long long)n) {
    s.push_back(int(pos));
    pos += len(rng);
  }
  return s;
}

// radix: every call goes straight to the radix path (segmented_radix_sort.cuh),
// whatever the segments' mean, so that tile-edge lengths reach it.
template <typename key_t, typename comp_t, bool radix = false>
void test_segsort(test_context& ctx, size_t n, const std::vector<int>& segs, long long range,
                  comp_t comp, const std::string& what) {
  namespace ag = attu::gpu;
  constexpr bool desc = ag::sort_direction<comp_t>::value < 0;
  auto sort_pairs = [&](key_t* k, int* v, const int* sg, int ns) {
    if constexpr (radix)
      ag::segsort_radix_detail::sort_impl<desc, key_t, int, true, false>(k, v, (long long)n, sg, ns, ctx);
    else
      ag::segmented_sort(k, v, (long long)n, sg, ns, comp, ctx);
  };
  auto sort_indices = [&](key_t* k, int* v, const int* sg, int ns) {
    if constexpr (radix)
      ag::segsort_radix_detail::sort_impl<desc, key_t, int, true, true>(k, v, (long long)n, sg, ns, ctx);
    else
      ag::segmented_sort_indices(k, v, (long long)n, sg, ns, comp, ctx);
  };
  auto sort_keys = [&](key_t* k, const int* sg, int ns) {
    if constexpr (radix)
      ag::segsort_radix_detail::sort_impl<desc, key_t, int, false, false>(k, (int*)nullptr, (long long)n, sg,
                                                                         ns, ctx);
    else
      ag::segmented_sort(k, (long long)n, sg, ns, comp, ctx);
  };
  const std::string tag = radix ? " [radix]" : "";
  auto keys = random_keys<key_t>(n, range);
  std::vector<int> vals(n);
  for (size_t i = 0; i < n; ++i) vals[i] = int(i);
  key_t* dk = to_device(keys);
  int* dv = to_device(vals);
  int* ds = to_device(segs);
  sort_pairs(dk, dv, ds, int(segs.size()));
  auto hk = to_host(dk, n);
  auto hv = to_host(dv, n);
  bool ok = true;
  for (auto [a, b] : attu::ref::segment_ranges(segs, n))
    ok = ok && check_stable_perm(keys, hk, hv, comp, a, b);
  report(ok, "segmented_sort pairs " + what + tag);

  // segmented_sort_indices: indices poisoned first; their initial contents
  // are ignored.
  std::vector<int> poison(n, -7);
  upload(dk, keys);
  upload(dv, poison);
  sort_indices(dk, dv, ds, int(segs.size()));
  auto ik = to_host(dk, n);
  auto iv = to_host(dv, n);
  report(ik == hk && iv == hv, "segmented_sort_indices " + what + tag);

  // keys only, against the reference
  upload(dk, keys);
  sort_keys(dk, ds, int(segs.size()));
  auto kk = to_host(dk, n);
  std::vector<int> none;
  attu::ref::segmented_sort(keys, none, segs, comp);
  report(kk == keys, "segmented_sort keys " + what + tag);
  cudaFree(dk);
  cudaFree(dv);
  cudaFree(ds);
}

}  // namespace

int main() {
  if (!attu::gpu::cuda_device_available()) {
    std::printf("skipped: no CUDA device\n");
    return 77;
  }
  try {
    test_context ctx;
    using attu::gpu::greater_t;
    using attu::gpu::less_t;
    // radix sort: each onesweep tile's edges (32-bit keys alone, 32-bit
    // pairs, 64-bit keys or values), read from the tuning so they follow it
    std::vector<size_t> radix_sizes = {0, 1, 2, 100000, 1 << 20};
    for (size_t nv : {size_t(attu::gpu::sort_launch<uint32_t, uint32_t, false>::nv),
                      size_t(attu::gpu::sort_launch<uint32_t, uint32_t, true>::nv),
                      size_t(attu::gpu::sort_launch<uint64_t, uint32_t, true>::nv)})
      for (size_t n : {nv - 1, nv, nv + 1, 2 * nv + 1}) radix_sizes.push_back(n);
    for (size_t n : radix_sizes) {
      // 32-bit pairs packed into 64-bit items (with one scratch array, the
      // default, and with two) and apart
      const int pack_default = attu::gpu::sort_detail::sort_pack_pairs();
      for (int pack : {1, 2, 0}) {
        attu::gpu::sort_detail::sort_pack_pairs() = pack;
        const std::string how = pack == 0 ? " apart" : pack == 1 ? " packed" : " packed twice";
        test_radix_pairs<int>(ctx, n, 0, less_t<int>(), ("i32" + how).c_str());
        test_radix_pairs<int>(ctx, n, 100, less_t<int>(), ("i32 ties" + how).c_str());
        test_radix_pairs<int>(ctx, n, 100, greater_t<int>(), ("i32 desc ties" + how).c_str());
        test_radix_pairs<unsigned>(ctx, n, 0, greater_t<unsigned>(), ("u32 desc" + how).c_str());
      }
      attu::gpu::sort_detail::sort_pack_pairs() = pack_default;
      test_radix_keys<int>(ctx, n, 0, less_t<int>(), "i32");
      test_radix_keys<unsigned>(ctx, n, 0, greater_t<unsigned>(), "u32 desc");
      test_radix_keys<float>(ctx, n, 0, less_t<float>(), "f32");
      test_radix_pairs<float>(ctx, n, 64, greater_t<float>(), "f32 desc ties");
      test_radix_keys<long long>(ctx, n, 0, less_t<long long>(), "i64");
      test_radix_pairs<double>(ctx, n, 1000, less_t<double>(), "f64 ties");
      test_radix_wide_vals(ctx, n);
    }
    for (size_t n : {size_t(2), size_t(3), size_t(5), size_t(100003), size_t(1) << 20})
      for (size_t off : {size_t(1), size_t(2), size_t(3)}) {
        test_radix_keys_offset<int>(ctx, n, off, "i32");
        test_radix_keys_offset<long long>(ctx, n, off, "i64");
      }
    test_radix_pairs<int>(ctx, 100000000, 0, less_t<int>(), "i32");
    test_radix_keys<unsigned>(ctx, 100000000, 0, less_t<unsigned>(), "u32");

    // radix_partition: int64 keys (a join's partner rows) take the 64-bit
    // tile; a row range of 2^25 at its top digit (shift 17, as the join
    // partitions 25M partner rows), signed keys of any value at the top
    // digit and at the bottom one
    const size_t pnv = attu::gpu::sort_launch<uint64_t, uint64_t, true>::nv;
    for (size_t n : {size_t(0), size_t(1), size_t(2), pnv - 1, pnv, pnv + 1, 2 * pnv + 1, size_t(100000),
                     size_t(1) << 20}) {
      test_partition(ctx, n, 1LL << 25, 17);
      test_partition(ctx, n, 0, 56);
      test_partition(ctx, n, 0, 0);
      test_partition_narrow(ctx, n, 18);
    }
    test_partition(ctx, size_t(1) << 24, 1LL << 25, 17);
    // the keys-only pass ranks 32-bit keys in its own tile
    const size_t knv = attu::gpu::sort_launch<uint32_t, int, false>::nv;
    for (size_t n : {knv - 1, knv, knv + 1, 3 * knv + 5}) test_partition_narrow(ctx, n, 18);

    // count_keys: key ranges of fewer keys than runs (one key a run), runs
    // of odd and even sizes, past one tile of keys, the join's 25M partner
    // rows (264 runs of 94,697 keys on 132 multiprocessors), the key
    // ranges about where runs reach max_window keys and past it (windows
    // of a run: 2^27 + 5 at 512 runs is three); int32 keys less a base and
    // int64 rows
    for (size_t nkeys : {size_t(1), size_t(2), size_t(255), size_t(256), size_t(257), size_t(65535),
                         size_t(65536), size_t(65537), size_t(1) << 24, (size_t(1) << 24) + 3, size_t(25000000),
                         size_t(1) << 25, size_t(29360128), size_t(29360129), (size_t(1) << 27) + 5})
      for (size_t n : {size_t(0), size_t(1), size_t(1000), size_t(1) << 20}) {
        test_count_keys<int>(ctx, n, nkeys, 1000, 0, "i32");
        test_count_keys<long long>(ctx, n, nkeys, 0, 0, "i64");
        test_count_keys<int>(ctx, n, nkeys, 1000, 0, "i32", false);
      }
    for (int skew : {1, 2})
      for (size_t nkeys : {size_t(100), size_t(65536), size_t(25000000)}) {
        test_count_keys<int>(ctx, size_t(3) << 20, nkeys, -5, skew, "i32");
        test_count_keys<long long>(ctx, 200000, nkeys, 7, skew, "i64");
      }
    test_count_keys<int>(ctx, 100000000, 25000000, 0, 0, "i32");
    test_count_keys<int>(ctx, 100000000, 25000000, 0, 0, "i32", false);
    test_count_keys<int>(ctx, 100000000, 25000000, 0, 1, "i32");
    // the region form about its limits: keys filling every region to
    // about its mean (a tile's spare), a range of region_runs x 56K keys
    // (the region form's widest) and one key past it (the pieces form)
    test_count_keys<int>(ctx, size_t(1) << 22, size_t(1) << 14, 0, 0, "i32");
    test_count_keys<int>(ctx, size_t(1) << 22, size_t(58720256), 3, 0, "i32");
    test_count_keys<int>(ctx, size_t(1) << 22, size_t(58720257), 3, 0, "i32");

    // merge: sizes at its tile's edges (merge_launch::nv outputs a tile)
    const size_t mnv = attu::gpu::merge_launch::nv;
    const size_t msizes[][2] = {{0, 0}, {0, 5}, {5, 0}, {1, 1}, {mnv - 1, 1}, {mnv / 2, mnv / 2},
                                {mnv - 2, 1}, {mnv + 1, 3000}, {4095, 1}, {2048, 2048},
                                {4097, 3000}, {1 << 20, 12345}, {1 << 20, 1 << 20}};
    for (auto& m : msizes) {
      test_merge(ctx, m[0], m[1], 0);
      test_merge(ctx, m[0], m[1], 50);
    }
    test_merge(ctx, 10000000, 10000000, 1 << 20);

    // mergesort: sizes at the block tiles' edges (4- and 8-byte keys), one
    // and two merge rounds past them
    std::vector<size_t> ssizes = {0, 1, 2, 3583, 3584, 3585, 4095, 4096, 4097, 100000, 1 << 20};
    for (size_t nv : {size_t(attu::gpu::mergesort_launch<int>::nv),
                      size_t(attu::gpu::mergesort_launch<double>::nv)})
      for (size_t n : {nv - 1, nv, nv + 1, 2 * nv - 1, 2 * nv + 1, 4 * nv + 3}) ssizes.push_back(n);
    for (size_t n : ssizes) {
      test_mergesort<int>(ctx, n, 0, less_t<int>(), "i32");
      test_mergesort<int>(ctx, n, 1000, digit_then_desc(), "digit-desc");
      test_mergesort<double>(ctx, n, 100, greater_t<double>(), "f64 desc ties");
    }
    test_mergesort<int>(ctx, 20000000, 0, less_t<int>(), "i32");

    // segmented sort geometries
    const size_t n1 = 1 << 20;
    test_segsort<int>(ctx, 0, {}, 0, less_t<int>(), "empty input");
    test_segsort<int>(ctx, 1, {0}, 0, less_t<int>(), "one item");
    test_segsort<int>(ctx, 5000, {}, 0, less_t<int>(), "no descriptor");
    test_segsort<int>(ctx, n1, {}, 0, less_t<int>(), "no descriptor 1M (radix)");
    test_segsort<int>(ctx, n1, {}, 0, digit_then_desc(), "no descriptor 1M (mergesort rounds)");
    test_segsort<double>(ctx, 300001, {}, 30, greater_t<double>(), "no descriptor, f64 desc ties");
    test_segsort<int>(ctx, n1, {0}, 0, less_t<int>(), "one huge segment 1M");
    test_segsort<int>(ctx, n1, {0, 0, 0, 10, 10, int(n1 / 2), int(n1 / 2), int(n1) - 1}, 30,
                      less_t<int>(), "empty segments + huge ones");
    test_segsort<int>(ctx, n1, random_segments(n1, 3, 0), 0, less_t<int>(), "tiny mean 3");
    test_segsort<int>(ctx, n1, random_segments(n1, 16, 17), 20, less_t<int>(), "mean 16, first 17");
    test_segsort<int>(ctx, n1, random_segments(n1, 300, 0), 0, greater_t<int>(), "mean 300 desc");
    test_segsort<int>(ctx, n1, random_segments(n1, 600, 0), 0, less_t<int>(), "mean 600");
    test_segsort<int>(ctx, n1, random_segments(n1, 5000, 0), 100, digit_then_desc(), "mean 5000 digit");
    test_segsort<float>(ctx, n1, random_segments(n1, 100000, 0), 0, less_t<float>(), "f32 mean 100000");
    test_segsort<long long>(ctx, n1, random_segments(n1, 1500, 0), 0, less_t<long long>(), "i64 mean 1500");
    {
      // tile-edge geometries: segments of exactly S, S+1, T, T+1, nv items
      // (segsort_launch's, which follow the tuning), and the old tile's
      using SL = attu::gpu::segsort_launch<int>;
      std::vector<int> s;
      int lens[] = {SL::short_max, SL::short_max + 1, SL::tile_span, SL::tile_span + 1, SL::nv,
                    1, 0, SL::short_max - 1, 7000, SL::tile_span - 1,
                    512, 513, 3584, 3585, 4096};
      const int nl = int(sizeof lens / sizeof lens[0]);
      long long pos = 0;
      for (int rep = 0; pos < 300000; ++rep) { s.push_back(int(pos)); pos += lens[rep % nl]; }
      test_segsort<int>(ctx, 300000, s, 0, less_t<int>(), "tile-edge lengths");
    }
    {
      // the radix path of long segments (segmented_radix_sort.cuh): its
      // tiles' edges (segments of nv - 1, nv, nv + 1 items of each tile
      // shape, empty and one-item segments between them, items before
      // segments[0]), ties, descending, 64-bit and unsigned keys; and
      // segmented_sort choosing it by the mean
      std::vector<int> s32, s64, spk;
      for (int which = 0; which < 3; ++which) {
        const int nv = which == 0   ? attu::gpu::sort_launch<uint32_t, int, true>::nv
                       : which == 1 ? attu::gpu::sort_launch<uint64_t, int, true>::nv
                                    : attu::gpu::sort_detail::sort_launch_packed::nv;
        std::vector<int>& s = which == 0 ? s32 : which == 1 ? s64 : spk;
        int lens[] = {nv - 1, nv, nv + 1, 0, 1, 2 * nv + 1, 0, 0, 3, 5 * nv, 17};
        long long pos = 5;
        for (int rep = 0; pos < 400000; ++rep) { s.push_back(int(pos)); pos += lens[rep % 11]; }
      }
      // 32-bit pairs packed (two scratch arrays, the default; one) and apart
      const int pack_default = attu::gpu::sort_detail::sort_pack_pairs();
      for (int pack : {2, 1, 0}) {
        attu::gpu::sort_detail::sort_pack_pairs() = pack;
        const std::string how = " pack " + std::to_string(pack);
        test_segsort<int, less_t<int>, true>(ctx, 400000, s32, 0, less_t<int>(), "tile-edge lengths" + how);
        test_segsort<int, greater_t<int>, true>(ctx, 400000, s32, 40, greater_t<int>(),
                                                "tile-edge desc ties" + how);
        test_segsort<int, less_t<int>, true>(ctx, 400000, spk, 0, less_t<int>(), "packed tile-edge" + how);
        test_segsort<float, greater_t<float>, true>(ctx, 400000, spk, 30, greater_t<float>(),
                                                    "f32 packed tile-edge desc ties" + how);
      }
      attu::gpu::sort_detail::sort_pack_pairs() = pack_default;
      test_segsort<long long, less_t<long long>, true>(ctx, 400000, s64, 1000, less_t<long long>(),
                                                       "i64 tile-edge ties");
      test_segsort<unsigned, less_t<unsigned>, true>(ctx, 400000, s32, 0, less_t<unsigned>(), "u32 tile-edge");
      test_segsort<int, less_t<int>, true>(ctx, 3, {1}, 0, less_t<int>(), "three items");
      test_segsort<int, less_t<int>, true>(ctx, 100000, {}, 0, less_t<int>(), "no descriptor");
      test_segsort<int>(ctx, 8 * n1, random_segments(8 * n1, 100000, 3), 0, greater_t<int>(),
                        "8M mean 100000 desc");
      test_segsort<int>(ctx, 8 * n1, random_segments(8 * n1, 60000, 0), 50, less_t<int>(),
                        "8M mean 60000 ties");
      test_segsort<long long>(ctx, 4 * n1, random_segments(4 * n1, 200000, 0), 0, less_t<long long>(),
                              "i64 4M mean 200000");
    }
    const size_t n20 = 20000000;
    test_segsort<int>(ctx, n20, random_segments(n20, 2, 0), 0, less_t<int>(), "millions of tiny (20M, mean 2)");
    test_segsort<int>(ctx, n20, random_segments(n20, 1000000, 0), 0, less_t<int>(), "20M mean 1M");
  } catch (const std::exception& e) {
    std::printf("FAIL exception: %s\n", e.what());
    ++g_failed;
  }
  std::printf("%d passed, %d failed\n", g_passed, g_failed);
  return g_failed ? 1 : 0;
}
