// partition.cuh: radix_partition, a stable partition of keys (and a column
// of values) by one 8-bit digit of the keys, out of place.
//
//   keys_out / vals_out = keys_in / vals_in ordered by
//       digit(k) = (order-preserving bits of k >> shift) & 0xff,
//   items of one digit in their input order.
//
// It is one pass of the LSD radix sort (sort.cuh): one read of the keys for
// the digit's histogram, its scan, then one onesweep kernel that ranks each
// tile, finds the earlier tiles' counts by decoupled look-back and writes
// each digit's run through shared memory, so the scattered stores still
// leave the multiprocessor as coalesced runs. What it is for: a random
// gather whose source is larger than the L2 (a join reading the other
// side's column at each row's partner) becomes 256 gathers over slices of
// 1/256 of the source once the rows are partitioned by their partner's high
// bits; the GPU's tiles run roughly in order, so the slices in use at any
// moment stay in the L2.
//
// Several value columns partitioned by the same keys: call once per column
// with the same keys_in and shift; the passes agree (the ranking is a
// function of the keys alone), and keys_out may be null on all but one.
// The keys may be read narrower than they are ranked and written, less a
// base (a join's INT32 keys become the int64 rows of their partners).
#pragma once

#include "gpu/patterns/sort.cuh"

namespace attu {
namespace gpu {

namespace sort_detail {

// The histogram of one digit in one read of the keys (sort_histogram_kernel
// counts every pass's digit; a partition needs one), read as the sort's
// histogram reads them (for_each_key_wide).
template <typename key_t, typename in_t, int nt>
__global__ void __launch_bounds__(nt)
partition_histogram_kernel(const in_t* __restrict__ keys, long long key_base, size_t count, int shift,
                           unsigned long long* __restrict__ hist) {
  using traits = sort_key_traits<key_t>;
  __shared__ unsigned int sh[256];
  for (int i = threadIdx.x; i < 256; i += nt) sh[i] = 0;
  __syncthreads();
  for_each_key_wide<in_t, nt>(keys, count, [&](in_t k) {
    atomicAdd(&sh[(traits::to_bits(key_t((long long)k - key_base)) >> shift) & 0xff], 1u);
  });
  __syncthreads();
  for (int i = threadIdx.x; i < 256; i += nt)
    if (sh[i]) atomicAdd(&hist[i], (unsigned long long)sh[i]);
}

}  // namespace sort_detail

// keys_in / vals_in: count items (count < 2^31); keys_out (may be null) and
// vals_out: count slots each, not overlapping the inputs. shift: 0 to
// 8 * sizeof(key_t) - 8. val_t is any trivially copyable type (the kernel
// stages a tile of values in shared memory: 1, 2, 4 or 8 bytes are the
// sizes its tile is laid out for). The keys partitioned are
// key_t(keys_in[i] - key_base) (the difference taken in 64 bits), written
// as out_t: in_t may be wider or
// narrower than key_t, the type ranked (a join's partner rows are below
// 2^31: they rank as int32, a tile of 32-bit keys, whether read as int64
// rows or as INT32 keys less kmin, and are written as int64 rows).
namespace sort_detail {

// The pass itself, with a value column (has_vals) or the keys alone.
template <typename key_t, typename in_t, typename val_t, typename out_t, bool has_vals, typename context_t>
void radix_partition_pass(const in_t* keys_in, long long key_base, out_t* keys_out, const val_t* vals_in,
                          val_t* vals_out, size_t count, int shift, context_t& ctx) {
  using traits = sort_key_traits<key_t>;
  using bits_t = typename traits::bits_t;
  using L = sort_launch<bits_t, val_t, has_vals>;
  static_assert(std::is_integral<key_t>::value && std::is_integral<in_t>::value, "radix_partition: integer keys");
  if (shift < 0 || shift > 8 * int(sizeof(key_t)) - 8) throw std::runtime_error("radix_partition: shift out of range");
  if (count > 0x7fffffffull) throw std::runtime_error("radix_partition: more than 2^31-1 items");
  if (count == 0) return;
  cudaStream_t st = ctx.stream();
  const size_t tiles = (count + L::nv - 1) / L::nv;
  size_t hist_bytes = 256 * sizeof(unsigned long long);
  size_t ctr_bytes = 64 * sizeof(unsigned int);
  size_t head = (hist_bytes + ctr_bytes + 255) & ~size_t(255);
  size_t lb_bytes = tiles * 256 * sizeof(uint64_t);
  char* mem = (char*)sort_detail::sort_alloc(head + lb_bytes, ctx);
  unsigned long long* hist = (unsigned long long*)mem;
  unsigned int* ctr = (unsigned int*)(mem + hist_bytes);
  uint64_t* lb = (uint64_t*)(mem + head);
  ATTU_CUDA_CHECK(cudaMemsetAsync(mem, 0, head + lb_bytes, st));
  int hist_blocks = int(tiles < 132 * 8 ? tiles : 132 * 8);
  sort_detail::partition_histogram_kernel<key_t, in_t, 512>
      <<<hist_blocks, 512, 0, st>>>(keys_in, key_base, count, shift, hist);
  ATTU_CUDA_CHECK_LAUNCH();
  sort_detail::sort_scan_kernel<<<1, 256, 0, st>>>(hist);
  ATTU_CUDA_CHECK_LAUNCH();
  // first and last at once: reads in_t, writes key_t; no next pass.
  sort_detail::sort_onesweep_kernel<key_t, val_t, has_vals, false, true, true, in_t, out_t><<<int(tiles), L::nt, 0, st>>>(
      keys_in, keys_out, vals_in, vals_out, count, shift, hist, lb, sort_detail::pass_mark(0), ctr, key_base);
  ATTU_CUDA_CHECK_LAUNCH();
  sort_detail::sort_free(mem, ctx);
}

}  // namespace sort_detail

template <typename key_t, typename in_t, typename val_t, typename out_t = key_t, typename context_t>
void radix_partition(const in_t* keys_in, long long key_base, out_t* keys_out, const val_t* vals_in,
                     val_t* vals_out, size_t count, int shift, context_t& ctx) {
  sort_detail::radix_partition_pass<key_t, in_t, val_t, out_t, true>(keys_in, key_base, keys_out, vals_in, vals_out,
                                                                     count, shift, ctx);
}

// The keys alone (keys_out not null): one read of the keys for the
// histogram, one for the pass, one write of keys_out and nothing else (a
// join whose probing rows need not move, only their partners' order).
template <typename key_t, typename in_t, typename out_t = key_t, typename context_t>
void radix_partition_keys(const in_t* keys_in, long long key_base, out_t* keys_out, size_t count, int shift,
                          context_t& ctx) {
  sort_detail::radix_partition_pass<key_t, in_t, key_t, out_t, false>(keys_in, key_base, keys_out, nullptr, nullptr,
                                                                      count, shift, ctx);
}

// The keys as they are (in_t = key_t, no base).
template <typename key_t, typename val_t, typename context_t>
void radix_partition(const key_t* keys_in, key_t* keys_out, const val_t* vals_in, val_t* vals_out, size_t count,
                     int shift, context_t& ctx) {
  radix_partition<key_t, key_t, val_t, key_t>(keys_in, 0, keys_out, vals_in, vals_out, count, shift, ctx);
}

}  // namespace gpu
}  // namespace attu
