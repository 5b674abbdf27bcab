// reduce.cuh: transform_reduce and reduce (seeds/003).
//
// Two kernels: each CTA reduces its tile (a behaviour call per item in
// striped order, regrouped into blocked order so the fold keeps the items'
// order: op must be associative but need not be commutative), then one CTA
// folds the tile partials and stores the result. An empty input stores init.
#pragma once

#include <cub/block/block_reduce.cuh>
#include <cstdint>
#include <type_traits>

#include "gpu/patterns/memory.cuh"
#include "gpu/patterns/operators.cuh"
#include "gpu/patterns/tile.cuh"

namespace attu {
namespace gpu {
namespace detail {

// partials[cta] = fold of the tile's f(index) in index order.
template <typename launch_t, typename T, typename func_t, typename op_t>
__global__ __launch_bounds__(launch_t::nt) void reduce_tiles_kernel(
    func_t f, int count, op_t op, T* __restrict__ partials) {
  enum { nt = launch_t::sm_ptx::nt, vt = launch_t::sm_ptx::vt, nv = nt * vt };
  using exchange_t = cub::BlockExchange<T, nt, vt>;
  using reduce_t = cub::BlockReduce<T, nt>;
  __shared__ union {
    typename exchange_t::TempStorage exchange;
    typename reduce_t::TempStorage reduce;
  } shared;
  int tid = threadIdx.x, cta = blockIdx.x;
  int tile_begin = cta * nv;
  int tile_count = min(nv, count - tile_begin);
  T x[vt];
  load_striped<nt, vt>(f, tid, tile_begin, tile_count, x);
  exchange_t(shared.exchange).StripedToBlocked(x);
  int mine = min(vt, tile_count - tid * vt);  // valid blocked items
  T acc = x[0];
#pragma unroll
  for (int i = 1; i < vt; ++i)
    if (i < mine) acc = op(acc, x[i]);
  __syncthreads();
  T total = reduce_t(shared.reduce).Reduce(acc, op, div_up(tile_count, (int)vt));
  if (!tid) partials[cta] = total;
}

// *out = fold of partials[0, n), one CTA; init when n == 0. Each thread folds
// ipt consecutive partials per round, so a round covers nt * ipt of them.
template <int nt, typename T, typename op_t, typename out_it>
__global__ __launch_bounds__(nt) void reduce_spine_kernel(
    const T* __restrict__ partials, int n, op_t op, T init, out_it out) {
  enum { ipt = 16, nv = nt * ipt };
  using reduce_t = cub::BlockReduce<T, nt>;
  __shared__ typename reduce_t::TempStorage storage;
  T running = init;
  for (int base = 0; base < n; base += nv) {
    int first = base + threadIdx.x * ipt;
    int mine = min((int)ipt, n - first);  // may be <= 0
    T acc = mine > 0 ? partials[first] : init;
#pragma unroll
    for (int i = 1; i < ipt; ++i)
      if (i < mine) acc = op(acc, partials[first + i]);
    int valid_threads = min(nt, div_up(n - base, (int)ipt));
    T chunk = reduce_t(storage).Reduce(acc, op, valid_threads);
    if (!threadIdx.x) running = base ? op(running, chunk) : chunk;
    __syncthreads();
  }
  if (!threadIdx.x) out[0] = running;
}

// Reductions whose result does not depend on the order of the items:
// integer sums (modular), minima and maxima of integers. (Float sums do,
// through rounding; a general op need not even commute.)
template <typename op_t, typename T>
struct order_free : std::false_type {};
template <typename T>
struct order_free<plus_t<T>, T> : std::is_integral<T> {};
template <typename T>
struct order_free<minimum_t<T>, T> : std::is_integral<T> {};
template <typename T>
struct order_free<maximum_t<T>, T> : std::is_integral<T> {};
template <typename op_t, typename T>
constexpr bool order_free_v = order_free<op_t, T>::value;

// Reductions the vector path may reorder: the order-free ones, and float
// sums, whose result then depends on the order only through rounding (a
// fixed order for a given GPU: the grid is the number of SMs times 8).
template <typename op_t, typename T>
constexpr bool reorderable_v =
    order_free_v<op_t, T> || (std::is_same_v<op_t, plus_t<T>> && std::is_floating_point_v<T>);

// An array of 4- or 8-byte items, 16-byte aligned, with a reorderable op
// (reorderable_v): a grid of resident CTAs strides over tiles of 16-byte vectors (each
// thread loads kVecPerThread of them at once: a quarter or half of the
// load instructions of item-wise loads), folds everything it loads in any
// order, and reduces once per CTA at the end, so the spine sees one
// partial per CTA instead of one per tile.
// 8 vectors a thread a tile (4 and 2 measured the same: 0.97-1.08x of
// DeviceReduce for int32, int64 and float sums on an H100, session 10,
// bench_core with ATTU_BENCH_REDUCE_VECS; the float row's 0.85x in earlier
// tables was the bench's warm-up, not the kernel).
constexpr int kVecThreads = 256, kVecPerThread = 8;

template <typename T, typename op_t, int vec_per_thread = kVecPerThread>
__global__ __launch_bounds__(kVecThreads) void reduce_vec_kernel(const T* __restrict__ in, int count, op_t op,
                                                                 T* __restrict__ partials) {
  constexpr int per = 16 / sizeof(T);
  constexpr int tile_items = kVecThreads * vec_per_thread * per;
  using reduce_t = cub::BlockReduce<T, kVecThreads>;
  __shared__ typename reduce_t::TempStorage storage;
  int tid = threadIdx.x;
  T acc{};
  bool has = false;
  long long full_tiles = count / tile_items;
  for (long long t = blockIdx.x; t < full_tiles; t += gridDim.x) {
    const uint4* v = reinterpret_cast<const uint4*>(in + t * tile_items);
    uint4 x[vec_per_thread];
#pragma unroll
    for (int j = 0; j < vec_per_thread; ++j) x[j] = v[j * kVecThreads + tid];
    const T* e = reinterpret_cast<const T*>(&x[0]);
#pragma unroll
    for (int q = 0; q < vec_per_thread * per; ++q) {
      acc = has ? op(acc, e[q]) : e[q];
      has = true;
    }
  }
  // the items past the last full tile, item by item, on the first CTA
  if (blockIdx.x == 0)
    for (long long i = full_tiles * tile_items + tid; i < count; i += kVecThreads) {
      acc = has ? op(acc, in[i]) : in[i];
      has = true;
    }
  // with a full tile every thread has items; with none (fewer items than a
  // tile: one CTA) threads [0, count) do
  int valid = full_tiles > 0 ? kVecThreads : min(kVecThreads, count);
  T total = reduce_t(storage).Reduce(acc, op, valid);
  if (!tid) partials[blockIdx.x] = total;
}

// vec_per_thread: a tuning knob (bench_core's ATTU_BENCH_REDUCE_VECS).
template <typename T, typename op_t, int vec_per_thread = kVecPerThread>
void reduce_vectors(const T* input, int count, T* reduction, op_t op, context_t& ctx, T init) {
  constexpr int tile_items = kVecThreads * vec_per_thread * (16 / sizeof(T));
  if (count <= 0) {
    reduce_spine_kernel<256, T><<<1, 256, 0, ctx.stream()>>>((const T*)nullptr, 0, op, init, reduction);
    ATTU_CUDA_CHECK_LAUNCH();
    return;
  }
  // CTAs with no item would hand the spine a value that is not op's
  // identity (an integer min / max has none here): never launch more CTAs
  // than there are full tiles (at least one, which also takes the tail).
  long long full_tiles = count / tile_items;
  int grid = (int)std::max<long long>(1, std::min<long long>(full_tiles, (long long)ctx.sm_count() * 8));
  mem_t<T> partials(grid, ctx);
  reduce_vec_kernel<T, op_t, vec_per_thread><<<grid, kVecThreads, 0, ctx.stream()>>>(input, count, op,
                                                                                 partials.data());
  ATTU_CUDA_CHECK_LAUNCH();
  reduce_spine_kernel<256, T><<<1, 256, 0, ctx.stream()>>>(partials.data(), grid, op, init, reduction);
  ATTU_CUDA_CHECK_LAUNCH();
}

}  // namespace detail

// reduction[0] = f(0) op f(1) op ... op f(count - 1); init when count == 0.
// `reduction` is a device pointer (or mapped pinned host memory).
template <typename launch_arg_t = empty_t, typename func_t, typename T,
          typename op_t>
void transform_reduce(func_t f, int count, T* reduction, op_t op,
                      context_t& ctx, T init = T()) {
  using launch_t = launch_of_t<launch_arg_t, stream_box_t<T>>;
  int nv = launch_t::cta_dim(ctx.ptx_version()).nv();
  int num_tiles = count > 0 ? div_up(count, nv) : 0;
  mem_t<T> partials(num_tiles, ctx);
  if (num_tiles) {
    detail::reduce_tiles_kernel<launch_t, T>
        <<<num_tiles, launch_t::nt, 0, ctx.stream()>>>(f, count, op, partials.data());
    ATTU_CUDA_CHECK_LAUNCH();
  }
  detail::reduce_spine_kernel<256, T>
      <<<1, 256, 0, ctx.stream()>>>(partials.data(), num_tiles, op, init, reduction);
  ATTU_CUDA_CHECK_LAUNCH();
}

// reduction[0] = input[0] op ... op input[count - 1]; init when empty.
template <typename launch_arg_t = empty_t, typename input_it, typename T,
          typename op_t>
void reduce(input_it input, int count, T* reduction, op_t op, context_t& ctx,
            T init = T()) {
  if constexpr (std::is_pointer_v<input_it> &&
                std::is_same_v<std::remove_cv_t<std::remove_pointer_t<input_it>>, T> &&
                detail::reorderable_v<op_t, T> && (sizeof(T) == 4 || sizeof(T) == 8)) {
    if (reinterpret_cast<uintptr_t>(input) % 16 == 0) {
      detail::reduce_vectors(input, count, reduction, op, ctx, init);
      return;
    }
  }
  transform_reduce<launch_arg_t>(
      [=] __device__(int i) { return (T)input[i]; }, count, reduction, op, ctx, init);
}

}  // namespace gpu
}  // namespace attu
