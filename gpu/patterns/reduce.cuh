// reduce.cuh: transform_reduce and reduce (seeds/003).
//
// Two kernels: each CTA reduces its tile (a behaviour call per item in
// striped order, regrouped into blocked order so the fold keeps the items'
// order: op must be associative but need not be commutative), then one CTA
// folds the tile partials and stores the result. An empty input stores init.
#pragma once

#include <cub/block/block_reduce.cuh>

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
  transform_reduce<launch_arg_t>(
      [=] __device__(int i) { return (T)input[i]; }, count, reduction, op, ctx, init);
}

}  // namespace gpu
}  // namespace attu
