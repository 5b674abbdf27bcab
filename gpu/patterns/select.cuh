// select.cuh: select_if, single-pass stream compaction: the items of an
// array that a predicate keeps, copied in order to the front of an output.
//
// transform_compact (compact.cuh) keeps moderngpu's two passes (an upsweep
// that counts, so the caller can size the output exactly, and a downsweep
// that calls the behaviour again), which reads the input twice. select_if
// reads it once: each tile loads its items, evaluates the predicate, scans
// its keep flags with a decoupled look-back for the tile's output offset
// (CUB's tile status and prefix callback, as the single-pass scan), stages
// the kept items in shared memory in order, and stores them coalesced
// (the tile statuses are the scan's: lookback.cuh). The output must have
// room for every item (the count is known only at the end); the number
// kept is written to *num_selected (device memory), so nothing
// synchronizes with the host.
//
// The kernel, select_if_v2_striped_kernel (v2), cuts the CTA barriers of
// the first kernel (an exchange, a block scan with the look-back as its
// prefix callback, staging: five) to two and drops the striped-to-blocked
// exchange. It loads the
// first kernel's striped rows: the CTA's row i is the tile's items
// [nt i, nt i + nt), warp w holds its 32-item segment w, and the tile's
// order is row-major over (row, warp). Each warp ballots its rows' keep
// flags, lane i keeping row i's ballot; barrier one publishes the vt x
// warps segment counts; every warp sums its rows' counts (a lane a row)
// and scans them across its lanes for its segments' starts, and stages
// its kept items in tile order at once (the first warp after running the
// look-back with the tile's total: CUB's TilePrefixCallbackOp, whose
// operator() is the first warp's). After barrier two the whole CTA
// stores the staged items straight from the output's 32-item boundary,
// as the first kernel does. The loaded items live until they are staged,
// past barrier one.
//
// Measured (session 26, keep 50%, alternately twice in one process): on an
// H200, 64M first kernel 0.141 ms, v2 striped 0.137-0.138, 256M
// 0.542-0.544 against 0.524-0.528; on an H100, 64M 0.176-0.178 against
// 0.174-0.176, 256M 0.660-0.664 against 0.652-0.654. The first kernel was
// then removed, as was a v2 over each warp's own contiguous run of 32 x vt
// items (warp-local staging, the store finding each item's warp region),
// which timed between the two (H200 64M 0.140-0.145, 256M 0.525).
//
// pred(x) -> bool must be a pure function of the item.
#pragma once

#include <cstdlib>

#include <cub/agent/single_pass_scan_operators.cuh>
#include <cub/block/block_scan.cuh>

#include "gpu/patterns/scan.cuh"

namespace attu {
namespace gpu {

// select_if's default tiles: 32 items of 4 bytes a thread (scan's
// streaming box has 24), 128 threads until session 34. Measured (session 27, keep 50%, bench_core's select boxes):
// on an H100 0.170-0.171 ms at 64M against 0.172-0.176 for 128 x 24, and
// 0.631-0.633 against 0.660-0.663 at 256M (of the copy: 86%); on an H200
// 0.137 against 0.140-0.142, and 0.489 against 0.523-0.529. 192 x 32,
// 128 x 28 and 96 x 32 were within 1-2% of it on the H100; 256 x 12,
// 128 x 16 and 64 x 24 10-15% slower. Wider items keep the streaming box.
// Session 34, with the kernel held to 1280 threads a multiprocessor
// (select_min_ctas, below), 4-byte items take 224 x 32 (5 CTAs of 7 warps
// at 56 registers): on an H200, alternately twice in one process, 64M
// 0.131-0.132 ms against 128 x 32's 0.134-0.136, 256M 0.487-0.488
// against 0.499-0.502; 256 x 32 0.133 and 0.489-0.491, 192 x 32 0.133 and
// 0.488-0.495, 160 x 32 and 192 x 28 no faster than 128 x 32.
template <typename T>
using select_box_t = launch_box_t<
    arch_cta_t<700, 256, (sizeof(T) <= 4 ? 8 : sizeof(T) <= 8 ? 4 : 2)>,
    arch_cta_t<900, (sizeof(T) <= 4 ? 224 : 128), (sizeof(T) <= 4 ? 32 : sizeof(T) <= 8 ? 12 : 6)>>;

// select_if's kernel is held to 1280 threads a multiprocessor: at 128 x
// 32, 48 registers a thread (10 CTAs of 128; 224 x 32, the default since,
// gets 56 registers, 5 CTAs). Left to itself ptxas gives the 128 x 32
// kernel 71 registers, 7 CTAs: 28 warps, most of them waiting at the
// tile's second barrier for the look-back. Measured (session 34, H200,
// keep 50%, alternately twice in one process): 64M 0.134-0.135 ms against
// 0.139-0.140, 256M 0.502-0.504 against 0.522-0.526. At 40 registers
// (12 CTAs) the items spill: 0.152 and 0.581. A fifth warp of its own for
// the look-back (so the item warps stage while it waits) was no faster
// than this bound (0.135-0.138 at 64M, 7-8 CTAs).
constexpr int kSelectResidentThreads = 1280;
template <int nt>
constexpr int select_min_ctas() {
  return kSelectResidentThreads / nt;
}

namespace detail {

// How long a tile waits before its look-back (as the scan's delay_t): CUB's
// delay for its sm_90 select_if over 4-byte items (on an H100, 0.176 ms
// for 64M ints against 0.194 with CUB's default delay; DeviceSelect::If
// 0.185; docs/performance.md, session 21).
using select_delay_t = cub::detail::fixed_delay_constructor_t<76, 1150>;

// select_if's stores from the output's 32-item boundary (the kernel's
// last loop); ATTU_SELECT_ALIGN=0 stores from the tile's first (A/B runs).
inline bool& select_align_on() {
  static bool on = env_switch("ATTU_SELECT_ALIGN", true);
  return on;
}

// v2's look-back, by the first warp alone (every lane calls):
// the tile's exclusive prefix among the kept items into *s_prefix; tile 0
// publishes its total at once (full tiles only: a partial tile 0 is the
// last). The caller's barrier publishes *s_prefix.
template <typename prefix_op_t, typename tile_state_t>
__device__ __forceinline__ void warp0_tile_prefix(tile_state_t& tile_state,
                                                  typename prefix_op_t::TempStorage& storage, int cta,
                                                  bool full, int tile_kept, int* s_prefix) {
  const int lane = threadIdx.x & 31;
  int prefix = 0;
  if (cta == 0) {
    if (!lane && full) tile_state.SetInclusive(0, tile_kept);
  } else {
    prefix_op_t prefix_op(tile_state, storage, plus_t<int>(), cta);
    prefix = prefix_op(tile_kept);  // lane 0's is the tile's exclusive prefix
  }
  if (!lane) *s_prefix = prefix;
}

// v2 over striped rows (the header comment's second paragraph).
// Invariants: after barrier one, s_count[i * warps + w] is the kept count
// of warp w's segment of row i; in every warp, lane i < vt then holds in
// seg the tile rank of the first kept item of its own warp's segment of
// row i (the rows before i, then the warps before it in row i), and lane
// 31 of incl the tile's total.
// min_ctas: __launch_bounds__'s CTAs a multiprocessor (0: none).
template <typename launch_t, typename delay_t, int min_ctas, typename T, typename pred_t, typename tile_state_t>
__global__ __launch_bounds__(launch_t::nt, min_ctas > 0 ? min_ctas : 1) void select_if_v2_striped_kernel(
    const T* __restrict__ input, int count, pred_t pred, T* __restrict__ output, int* __restrict__ num_selected,
    tile_state_t tile_state, tile_state_t next_state, int next_tiles, bool align) {
  enum { nt = launch_t::sm_ptx::nt, vt = launch_t::sm_ptx::vt, nv = nt * vt, warps = nt / 32 };
  static_assert(nt % 32 == 0 && vt <= 32, "select_if_v2_striped_kernel: whole warps, a lane a row");
  using prefix_op_t = cub::TilePrefixCallbackOp<int, plus_t<int>, tile_state_t, delay_t>;
  __shared__ T staged[nv];
  __shared__ int s_count[vt * warps];
  __shared__ int s_prefix;
  __shared__ typename prefix_op_t::TempStorage prefix_storage;
  const int tid = threadIdx.x, lane = tid & 31, warp = tid >> 5, cta = blockIdx.x;
  lookback_mark_next(next_state, next_tiles);
  const int tile_begin = cta * nv;
  const int tile_count = min(nv, count - tile_begin);
  T x[vt];
  auto load = [=](int i) { return input[i]; };
  load_striped<nt, vt>(load, tid, tile_begin, tile_count, x);
  const int valid = tile_count - tid;  // row i's item exists iff nt * i < valid
  unsigned my_row = 0;  // lane i < vt: the warp's ballot of row i
#pragma unroll
  for (int i = 0; i < vt; ++i) {
    const unsigned row = __ballot_sync(~0u, nt * i < valid && pred(x[i]));
    if (lane == i) my_row = row;
  }
  if (lane < vt) s_count[lane * warps + warp] = __popc(my_row);
  __syncthreads();  // one: the segments' counts
  int row_total = 0, within = 0;  // lane j: row j's count, and its warps' before this one
  if (lane < vt) {
#pragma unroll
    for (int w = 0; w < warps; ++w) {
      const int c = s_count[lane * warps + w];
      if (w < warp) within += c;
      row_total += c;
    }
  }
  int incl = row_total;
#pragma unroll
  for (int d = 1; d < 32; d *= 2) {
    const int y = __shfl_up_sync(~0u, incl, d);
    if (lane >= d) incl += y;
  }
  const int seg = incl - row_total + within;
  const int tile_kept = __shfl_sync(~0u, incl, 31);
  if (warp == 0) warp0_tile_prefix<prefix_op_t>(tile_state, prefix_storage, cta, tile_count == nv, tile_kept, &s_prefix);
  // stage in tile order: the segment's start, then the lanes below
  const unsigned below = (1u << lane) - 1;
#pragma unroll
  for (int i = 0; i < vt; ++i) {
    const unsigned row = __shfl_sync(~0u, my_row, i);
    const int at = __shfl_sync(~0u, seg, i);
    if (row >> lane & 1) staged[at + __popc(row & below)] = x[i];
  }
  __syncthreads();  // two: the staged items and the tile's prefix
  const int prefix = s_prefix;
  for (int r = tid - (align ? prefix & 31 : 0); r < tile_kept; r += nt)
    if (r >= 0) output[prefix + r] = staged[r];
  if (tile_begin + tile_count == count && !tid) *num_selected = prefix + tile_kept;
}

}  // namespace detail

// output[0, k) = the items input[i] with pred(input[i]), in order;
// *num_selected = k (device memory). output has room for count items.
// min_ctas: the kernel's bound on CTAs a multiprocessor; -1 (the default)
// select_min_ctas (1280 threads a multiprocessor), 0 none (bench_core's A/B).
template <typename launch_arg_t = empty_t, typename delay_t = detail::select_delay_t, int min_ctas = -1,
          typename T, typename pred_t>
void select_if(const T* input, int count, pred_t pred, T* output, int* num_selected, context_t& ctx) {
  using launch_t = launch_of_t<launch_arg_t, select_box_t<T>>;
  constexpr int ctas = min_ctas < 0 ? select_min_ctas<launch_t::nt>() : min_ctas;
  int nv = launch_t::cta_dim(ctx.ptx_version()).nv();
  int num_tiles = count > 0 ? div_up(count, nv) : 0;
  if (!num_tiles) {
    ATTU_CUDA_CHECK(cudaMemsetAsync(num_selected, 0, sizeof(int), ctx.stream()));
    return;
  }
  using tile_state_t = cub::ScanTileState<int>;
  auto lb = lookback_begin<tile_state_t>(num_tiles, (long long)num_tiles * launch_t::nt, ctx);
  detail::select_if_v2_striped_kernel<launch_t, delay_t, ctas, T><<<num_tiles, launch_t::nt, 0, ctx.stream()>>>(
      input, count, pred, output, num_selected, lb.state, lb.next, lb.next_tiles, detail::select_align_on());
  ATTU_CUDA_CHECK_LAUNCH();
  lookback_end(lb, ctx);
}

}  // namespace gpu
}  // namespace attu
