// select.cuh: select_if, single-pass stream compaction: the items of an
// array that a predicate keeps, copied in order to the front of an output.
//
// transform_compact (compact.cuh) keeps moderngpu's two passes (an upsweep
// that counts, so the caller can size the output exactly, and a downsweep
// that calls the behaviour again), which reads the input twice. select_if
// reads it once: each tile loads its items, evaluates the predicate, scans
// its keep flags with a decoupled look-back for the tile's output offset
// (CUB's tile status and prefix callback, as the single-pass scan), stages
// the kept items in shared memory in order, and stores them coalesced. The
// output must have room for every item (the count is known only at the
// end); the number kept is written to *num_selected (device memory), so
// nothing synchronizes with the host.
//
// pred(x) -> bool must be a pure function of the item.
#pragma once

#include <cub/agent/single_pass_scan_operators.cuh>
#include <cub/block/block_exchange.cuh>
#include <cub/block/block_scan.cuh>

#include "gpu/patterns/scan.cuh"

namespace attu {
namespace gpu {
namespace detail {

template <typename launch_t, typename T, typename pred_t, typename tile_state_t>
__global__ __launch_bounds__(launch_t::nt) void select_if_kernel(const T* __restrict__ input, int count,
                                                                 pred_t pred, T* __restrict__ output,
                                                                 int* __restrict__ num_selected,
                                                                 tile_state_t tile_state) {
  enum { nt = launch_t::sm_ptx::nt, vt = launch_t::sm_ptx::vt, nv = nt * vt };
  using exchange_t = cub::BlockExchange<T, nt, vt>;
  using scan_t = cub::BlockScan<int, nt>;
  using prefix_op_t = cub::TilePrefixCallbackOp<int, plus_t<int>, tile_state_t>;
  __shared__ union {
    typename exchange_t::TempStorage exchange;
    struct {
      typename scan_t::TempStorage scan;
      typename prefix_op_t::TempStorage prefix;
    } scan;
    T staged[nv];
  } shared;
  __shared__ int s_prefix, s_kept;
  int tid = threadIdx.x, cta = blockIdx.x;
  int tile_begin = cta * nv;
  int tile_count = min(nv, count - tile_begin);
  // coalesced loads, then each thread's items in order (blocked)
  T x[vt];
  auto load = [=](int i) { return input[i]; };
  load_striped<nt, vt>(load, tid, tile_begin, tile_count, x);
  exchange_t(shared.exchange).StripedToBlocked(x);
  bool keep[vt];
  int kept = 0;
#pragma unroll
  for (int i = 0; i < vt; ++i) {
    keep[i] = tid * vt + i < tile_count && pred(x[i]);
    kept += keep[i];
  }
  __syncthreads();
  // exclusive position among the kept items, from the start of the array
  int excl;
  if (cta == 0) {
    int agg;
    scan_t(shared.scan.scan).ExclusiveSum(kept, excl, agg);
    if (!tid) {
      if (tile_count == nv) tile_state.SetInclusive(0, agg);
      s_prefix = 0;
      s_kept = agg;
    }
  } else {
    prefix_op_t prefix_op(tile_state, shared.scan.prefix, plus_t<int>(), cta);
    scan_t(shared.scan.scan).ExclusiveScan(kept, excl, plus_t<int>(), prefix_op);
    if (!tid) s_prefix = excl;  // thread 0's exclusive value is the tile's prefix
    if (tid == nt - 1) s_kept = excl + kept;  // the inclusive total; the prefix is subtracted below
  }
  __syncthreads();
  int prefix = s_prefix;
  int tile_kept = cta == 0 ? s_kept : s_kept - prefix;
  // stage the kept items at their tile-local positions, then store striped
  int pos = excl - prefix;
#pragma unroll
  for (int i = 0; i < vt; ++i)
    if (keep[i]) shared.staged[pos++] = x[i];
  __syncthreads();
  for (int i = tid; i < tile_kept; i += nt) output[prefix + i] = shared.staged[i];
  if (tile_begin + tile_count == count && !tid) *num_selected = prefix + tile_kept;
}

template <typename tile_state_t>
__global__ void select_tile_state_init_kernel(tile_state_t state, int num_tiles) {
  state.InitializeStatus(num_tiles);
}

}  // namespace detail

// output[0, k) = the items input[i] with pred(input[i]), in order;
// *num_selected = k (device memory). output has room for count items.
template <typename launch_arg_t = empty_t, typename T, typename pred_t>
void select_if(const T* input, int count, pred_t pred, T* output, int* num_selected, context_t& ctx) {
  using launch_t = launch_of_t<launch_arg_t, stream_box_t<T>>;
  int nv = launch_t::cta_dim(ctx.ptx_version()).nv();
  int num_tiles = count > 0 ? div_up(count, nv) : 0;
  if (!num_tiles) {
    ATTU_CUDA_CHECK(cudaMemsetAsync(num_selected, 0, sizeof(int), ctx.stream()));
    return;
  }
  using tile_state_t = cub::ScanTileState<int>;
  size_t bytes = 0;
  ATTU_CUDA_CHECK(tile_state_t::AllocationSize(num_tiles, bytes));
  mem_t<unsigned char> storage(bytes, ctx);
  tile_state_t state;
  ATTU_CUDA_CHECK(state.Init(num_tiles, storage.data(), bytes));
  detail::select_tile_state_init_kernel<<<div_up(num_tiles, 128), 128, 0, ctx.stream()>>>(state, num_tiles);
  ATTU_CUDA_CHECK_LAUNCH();
  detail::select_if_kernel<launch_t, T><<<num_tiles, launch_t::nt, 0, ctx.stream()>>>(
      input, count, pred, output, num_selected, state);
  ATTU_CUDA_CHECK_LAUNCH();
}

}  // namespace gpu
}  // namespace attu
