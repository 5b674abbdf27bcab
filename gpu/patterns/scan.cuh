// scan.cuh: transform_scan, scan and their _event forms (seeds/003).
//
// scan / transform_scan run in a single pass (CUB's decoupled look-back
// tile status): each item is read once and written once.
// scan_event / transform_scan_event run three kernels: an upsweep reduces
// each tile (reduce.cuh), a one-CTA spine turns the tile reductions into
// exclusive tile prefixes and stores the total reduction, and a downsweep
// rescans each tile seeded with its prefix. The reduction is known after
// the spine, a third of the way through the traffic: the caller's event is
// recorded right there, so a host waiting on it can read the total from
// pinned memory before the downsweep ends (seeds/003).
//
// Semantics (op associative, not necessarily commutative; no identity is
// ever applied to the data):
//   inclusive: out[i] = x0 op x1 op ... op xi
//   exclusive: out[0] = init, out[i] = x0 op ... op x(i-1)
//   reduction  = x0 op ... op x(n-1), or init when n == 0.
// init is meant to be op's identity (T() for plus), so both forms agree with
// the textbook definitions; it is never combined with the data.
//
// Float against int32 (H100, session 25, 64M items, the 128 x 24 tiles of
// that time: float 0.250 ms, int32 0.221): the two instantiations are one
// kernel. Their PTX differs only in
// add.f32 for add.s32; both take 48 registers and 12,976 bytes of shared
// memory (10 CTAs an SM); cub::ScanTileState<float> is the packed status
// of <int> (one 8-byte {status, value} word), with the same box and delay
// (scan_delay_t). The bench's floats lie in (-1e6, 1e6): no subnormals
// (and FP32 adds of subnormals run at full rate anyway). What may differ
// is below the PTX: integer adds are associative, so ptxas may shorten
// the thread's serial chain of 23 adds (CUB counts on it: its ThreadReduce
// keeps int plus sequential on sm_90 but folds float plus as a binary
// tree), while the float chain stays 23 dependent FADDs (~92 cycles)
// between the exchange's shared loads and the block scan, on the way to
// the tile's published aggregate: a few percent of a tile's life, not 13%.
// The same kernel read 0.219-0.221 ms for floats against int32's
// 0.217-0.222 in session 21 (run 4), and in session 25's run DeviceScan's
// float row lagged its int32 row more (0.294 against 0.232 ms) though its
// float fold is a tree: most of that gap is the run's float row (after the
// int64 row's buffers, 5 reps, or the float data's bits), not the kernel.
// Splitting the chain (four chains of 6 side by side, then their folds in
// order: 8 dependent ops) was tried and removed in session 26: on an H200
// it timed as the serial chain within noise at 64M-1G, int32 and float.
// bench_core's ATTU_BENCH_SCAN_DATA rows time the scan beside DeviceScan on
// random floats, whole-number floats and int32 data (whether the data
// rather than the type moves the float row).
#pragma once

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <type_traits>

#include <cub/agent/single_pass_scan_operators.cuh>
#include <cub/block/block_scan.cuh>

#include "gpu/patterns/lookback.cuh"
#include "gpu/patterns/reduce.cuh"

namespace attu {
namespace gpu {

enum scan_type_t { scan_type_exc, scan_type_inc };

// The single-pass scan's default tiles: 128 x 36 items of 4 bytes (reduce's
// streaming box has 24). Session 27 (the striped kernel, bench_core's scan
// boxes, 64M / 256M) chose 128 x 28: on an H100 int32 0.215 / 0.824 ms
// against 0.217-0.220 / 0.844-0.849 for 128 x 24; on an H200, twice,
// int32 0.168-0.169 / 0.637-0.638 against 0.172-0.176 / 0.659-0.664
// (128 x 32 and 96 x 32 no better than 128 x 24 on either card). Session
// 31 (an H200, the vector kernel, which needs an odd number of 4-item
// vectors a thread: vt 20, 28, 36, ...), alternately three times: 128 x
// 36 int32 0.164-0.169 / 0.626-0.628 ms, float 0.162-0.164 / 0.617-0.623,
// against 128 x 28's 0.168-0.170 / 0.635-0.637 (vector) and 0.168-0.171 /
// 0.637-0.641 (striped); 128 x 44, 128 x 52 and 160 x 36 within 1% of
// 128 x 36, 96 x 36-44 and 64 x 52 slower. The striped kernel (4-byte items
// that are not an aligned array) times the same at 128 x 36 and 128 x 28.
// Wider items keep the streaming box.
template <typename T>
using scan_box_t = launch_box_t<
    arch_cta_t<700, 256, (sizeof(T) <= 4 ? 8 : sizeof(T) <= 8 ? 4 : 2)>,
    arch_cta_t<900, 128, (sizeof(T) <= 4 ? 36 : sizeof(T) <= 8 ? 12 : 6)>>;

namespace detail {

// In place: partials[i] = partials[0] op ... op partials[i-1] for i > 0
// (partials[0] is left as is and never read as a prefix); *reduction = fold
// of all. One CTA; each thread scans ipt consecutive partials per round.
template <int nt, typename T, typename op_t, typename red_it>
__global__ __launch_bounds__(nt) void scan_spine_kernel(
    T* __restrict__ partials, int n, op_t op, T init, red_it reduction,
    bool want_reduction) {
  enum { ipt = 16, nv = nt * ipt };
  using scan_t = cub::BlockScan<T, nt>;
  __shared__ typename scan_t::TempStorage storage;
  __shared__ T s_running;
  bool have_running = false;  // uniform across the CTA
  for (int base = 0; base < n; base += nv) {
    int first = base + threadIdx.x * ipt;
    int mine = min((int)ipt, n - first);  // may be <= 0
    T x[ipt];
#pragma unroll
    for (int i = 0; i < ipt; ++i) x[i] = i < mine ? partials[first + i] : partials[base];
    T agg_mine = x[0];
#pragma unroll
    for (int i = 1; i < ipt; ++i)
      if (i < mine) agg_mine = op(agg_mine, x[i]);
    T excl, total;
    scan_t(storage).ExclusiveScan(agg_mine, excl, op, total);  // thread 0: undefined
    // Threads past the end contribute garbage only after every valid item,
    // so the prefixes of valid items are exact; total is not used.
    bool has_prefix = have_running || threadIdx.x;
    T prefix = excl;
    if (have_running) prefix = threadIdx.x ? op(s_running, excl) : s_running;
    __syncthreads();
    T acc = prefix;
#pragma unroll
    for (int i = 0; i < ipt; ++i) {
      if (i < mine) {
        bool first_ever = !has_prefix && i == 0;
        if (!first_ever) partials[first + i] = acc;
        acc = first_ever ? x[i] : op(acc, x[i]);
      }
    }
    // The thread holding the round's last item publishes the running fold.
    if (mine > 0 && first + mine == min(n, base + (int)nv)) s_running = acc;
    have_running = true;
    __syncthreads();
  }
  if (!threadIdx.x && want_reduction) reduction[0] = n ? s_running : init;
}

// Rescans each tile seeded with partials[cta] (for cta > 0).
template <scan_type_t scan_type, typename launch_t, typename T, typename func_t,
          typename out_it, typename op_t>
__global__ __launch_bounds__(launch_t::nt) void scan_downsweep_kernel(
    func_t f, int count, out_it output, op_t op, T init,
    const T* __restrict__ partials) {
  enum { nt = launch_t::sm_ptx::nt, vt = launch_t::sm_ptx::vt, nv = nt * vt };
  using exchange_t = cub::BlockExchange<T, nt, vt>;
  using scan_t = cub::BlockScan<T, nt>;
  __shared__ union {
    typename exchange_t::TempStorage exchange;
    typename scan_t::TempStorage scan;
  } shared;
  int tid = threadIdx.x, cta = blockIdx.x;
  int tile_begin = cta * nv;
  int tile_count = min(nv, count - tile_begin);
  T x[vt];
  load_striped<nt, vt>(f, tid, tile_begin, tile_count, x);
  exchange_t(shared.exchange).StripedToBlocked(x);
  // Inclusive scan of the thread's own items (garbage past the end of a
  // partial tile only flows into slots that are never stored).
  T incl[vt];
  incl[0] = x[0];
#pragma unroll
  for (int i = 1; i < vt; ++i) incl[i] = op(incl[i - 1], x[i]);
  __syncthreads();
  T thread_excl;
  scan_t(shared.scan).ExclusiveScan(incl[vt - 1], thread_excl, op);
  bool has_prefix = tid > 0 || cta > 0;
  T prefix = thread_excl;
  if (cta > 0) {
    T carry = partials[cta];
    prefix = tid ? op(carry, thread_excl) : carry;
  }
  T y[vt];
#pragma unroll
  for (int i = 0; i < vt; ++i) {
    if (scan_type == scan_type_inc) {
      y[i] = has_prefix ? op(prefix, incl[i]) : incl[i];
    } else if (i == 0) {
      y[i] = has_prefix ? prefix : init;
    } else {
      y[i] = has_prefix ? op(prefix, incl[i - 1]) : incl[i - 1];
    }
  }
  __syncthreads();
  exchange_t(shared.exchange).BlockedToStriped(y);
  store_striped<nt, vt>(output, tid, tile_begin, tile_count, y);
}

// Single pass (decoupled look-back, CUB's tile status and prefix callback):
// each tile scans itself, publishes its aggregate, and learns its prefix
// from its predecessors' published values, so the data is read once and
// written once. The thread holding the last item stores the reduction.
// The statuses come from the context (lookback.cuh): no allocation and no
// marking kernel a call; the kernel's threads mark the next call's.
//
// delay_t is how long a tile waits before its look-back reads its
// predecessors' words (CUB's delay constructors). The default is CUB's own
// tuning of its sm_90 scans of 4- and 8-byte items: on an H100
// (docs/performance.md, session 21) int32 scans of 64M items took 0.219
// against 0.232 ms with CUB's default delay of 350 ns (DeviceScan 0.233).
template <typename T>
using scan_delay_t = cub::detail::fixed_delay_constructor_t<(sizeof(T) <= 4 ? 648 : 632),
                                                            (sizeof(T) <= 4 ? 1245 : 1290)>;

// The middle of a single-pass tile, shared by both kernels below: x holds
// the thread's vt consecutive items of the tile (blocked); y gets their
// scanned values. Tile 0 publishes its aggregate at once, the others learn
// their prefix through the look-back (warp 0, inside the block scan, whose
// barriers every thread passes: the caller may reuse the shared memory its
// blocked loads read once this returns). The thread holding the grid's last
// item stores the reduction.
template <scan_type_t scan_type, int nt, int vt, typename delay_t, typename T, typename op_t,
          typename tile_state_t, typename red_it>
__device__ __forceinline__ void scan_tile_blocked(
    const T (&x)[vt], T (&y)[vt], int tid, int cta, int tile_count, int count, op_t op, T init,
    tile_state_t& tile_state, typename cub::BlockScan<T, nt>::TempStorage& scan_storage,
    typename cub::TilePrefixCallbackOp<T, op_t, tile_state_t, delay_t>::TempStorage& prefix_storage,
    red_it reduction, bool want_reduction) {
  enum { nv = nt * vt };
  using scan_t = cub::BlockScan<T, nt>;
  using prefix_op_t = cub::TilePrefixCallbackOp<T, op_t, tile_state_t, delay_t>;
  // The thread's items scanned as one serial chain: incl[i] = x0 op ... op
  // xi, its fold incl[vt - 1]. (Garbage past the end of a partial tile
  // only flows into slots that are never stored.)
  T incl[vt];
  incl[0] = x[0];
#pragma unroll
  for (int i = 1; i < vt; ++i) incl[i] = op(incl[i - 1], x[i]);
  T prefix;
  bool has_prefix;  // false only for the grid's first thread
  if (cta == 0) {
    T agg;
    scan_t(scan_storage).ExclusiveScan(incl[vt - 1], prefix, op, agg);
    if (!tid && tile_count == nv) tile_state.SetInclusive(0, agg);
    has_prefix = tid > 0;
  } else {
    prefix_op_t prefix_op(tile_state, prefix_storage, op, cta);
    scan_t(scan_storage).ExclusiveScan(incl[vt - 1], prefix, op, prefix_op);
    has_prefix = true;
  }
#pragma unroll
  for (int i = 0; i < vt; ++i) {
    if (scan_type == scan_type_inc) {
      y[i] = has_prefix ? op(prefix, incl[i]) : incl[i];
    } else if (i == 0) {
      y[i] = has_prefix ? prefix : init;
    } else {
      y[i] = has_prefix ? op(prefix, incl[i - 1]) : incl[i - 1];
    }
  }
  if (want_reduction && cta * nv + tile_count == count) {
    int last = tile_count - 1;  // blocked position of the last item
    if (tid == last / vt) {
      int li = last % vt;
      T red = incl[0];
#pragma unroll
      for (int i = 0; i < vt; ++i)
        if (i == li) red = has_prefix ? op(prefix, incl[i]) : incl[i];
      reduction[0] = red;
    }
  }
}

template <scan_type_t scan_type, typename launch_t, typename delay_t, typename T, typename func_t,
          typename out_it, typename op_t, typename tile_state_t, typename red_it>
__global__ __launch_bounds__(launch_t::nt) void scan_single_pass_kernel(
    func_t f, int count, out_it output, op_t op, T init, tile_state_t tile_state,
    tile_state_t next_state, int next_tiles, red_it reduction, bool want_reduction) {
  enum { nt = launch_t::sm_ptx::nt, vt = launch_t::sm_ptx::vt, nv = nt * vt };
  using exchange_t = cub::BlockExchange<T, nt, vt>;
  using scan_t = cub::BlockScan<T, nt>;
  using prefix_op_t = cub::TilePrefixCallbackOp<T, op_t, tile_state_t, delay_t>;
  __shared__ typename exchange_t::TempStorage exchange;
  __shared__ typename scan_t::TempStorage scan_storage;
  __shared__ typename prefix_op_t::TempStorage prefix_storage;
  int tid = threadIdx.x, cta = blockIdx.x;
  lookback_mark_next(next_state, next_tiles);
  int tile_begin = cta * nv;
  int tile_count = min(nv, count - tile_begin);
  T x[vt];
  load_striped<nt, vt>(f, tid, tile_begin, tile_count, x);
  exchange_t(exchange).StripedToBlocked(x);
  T y[vt];
  scan_tile_blocked<scan_type, nt, vt, delay_t>(x, y, tid, cta, tile_count, count, op, init, tile_state,
                                                scan_storage, prefix_storage, reduction, want_reduction);
  // every thread is past the block scan's barriers: the loads' exchange is read
  exchange_t(exchange).BlockedToStriped(y);
  store_striped<nt, vt>(output, tid, tile_begin, tile_count, y);
}

// The single pass over an array of 4-byte items at a 16-byte aligned
// address, written to another such array (or in place): the striped
// kernel's tile and look-back, but a full tile moves as 16-byte vectors in
// warp-striped order (vector j of thread t holds items 4 (j nt + t) to
// 4 (j nt + t) + 3 of the tile: each warp instruction reads or writes 512
// contiguous bytes), a quarter of the striped kernel's loads and stores.
// The tile passes through shared memory as vectors both ways: stored at
// vector j nt + t, read back blocked as vector t vv + k (vv = vt / 4 odd,
// so a quarter-warp's 16-byte accesses land in 8 distinct bank groups:
// no conflicts either way). A partial tile (the grid's last) moves item by
// item. Unlike session 29's blocked vectors (a thread's own vt items
// loaded and stored as vectors: a warp's store touched 32 lines a quarter
// at a time), every global access here is whole lines.
template <scan_type_t scan_type, typename launch_t, typename delay_t, typename T, typename op_t,
          typename tile_state_t, typename red_it>
__global__ __launch_bounds__(launch_t::nt) void scan_vector_kernel(
    const T* input, int count, T* output, op_t op, T init, tile_state_t tile_state,
    tile_state_t next_state, int next_tiles, red_it reduction, bool want_reduction) {
  enum { nt = launch_t::sm_ptx::nt, vt = launch_t::sm_ptx::vt, nv = nt * vt, vv = vt / 4 };
  static_assert(sizeof(T) == 4 && vt % 4 == 0 && vv % 2 == 1,
                "scan_vector_kernel: 4-byte items, an odd number of vectors a thread");
  using scan_t = cub::BlockScan<T, nt>;
  using prefix_op_t = cub::TilePrefixCallbackOp<T, op_t, tile_state_t, delay_t>;
  __shared__ __align__(16) T s_tile[nv];
  __shared__ typename scan_t::TempStorage scan_storage;
  __shared__ typename prefix_op_t::TempStorage prefix_storage;
  const int tid = threadIdx.x, cta = blockIdx.x;
  lookback_mark_next(next_state, next_tiles);
  const int tile_begin = cta * nv;
  const int tile_count = min((int)nv, count - tile_begin);
  uint4* s4 = reinterpret_cast<uint4*>(s_tile);
  if (tile_count == nv) {
    const uint4* in4 = reinterpret_cast<const uint4*>(input + tile_begin);
    uint4 v[vv];
#pragma unroll
    for (int j = 0; j < vv; ++j) v[j] = in4[j * nt + tid];
#pragma unroll
    for (int j = 0; j < vv; ++j) s4[j * nt + tid] = v[j];
  } else {
    load_to_shared<nt, vt>(input + tile_begin, tid, tile_count, s_tile);
  }
  __syncthreads();
  T x[vt];
#pragma unroll
  for (int k = 0; k < vv; ++k) {
    const uint4 u = s4[tid * vv + k];
    memcpy(&x[4 * k], &u, sizeof u);
  }
  T y[vt];
  scan_tile_blocked<scan_type, nt, vt, delay_t>(x, y, tid, cta, tile_count, count, op, init, tile_state,
                                                scan_storage, prefix_storage, reduction, want_reduction);
  // every thread is past the block scan's barriers: its blocked reads are done
#pragma unroll
  for (int k = 0; k < vv; ++k) {
    uint4 u;
    memcpy(&u, &y[4 * k], sizeof u);
    s4[tid * vv + k] = u;
  }
  __syncthreads();
  if (tile_count == nv) {
    uint4* out4 = reinterpret_cast<uint4*>(output + tile_begin);
#pragma unroll
    for (int j = 0; j < vv; ++j) out4[j * nt + tid] = s4[j * nt + tid];
  } else {
    shared_to_striped_store<nt, vt>(s_tile, tid, tile_count, output + tile_begin);
  }
}

// ATTU_SCAN_VECTOR=0 keeps 4-byte arrays on the striped kernel (for A/B
// runs; the bench and the tests flip it through this).
inline bool& scan_vector_on() {
  static bool on = env_switch("ATTU_SCAN_VECTOR", true);
  return on;
}

template <scan_type_t scan_type, typename launch_arg_t, typename delay_arg_t = void,
          typename func_t, typename out_it, typename op_t, typename T, typename red_it>
void scan_impl(func_t f, int count, out_it output, op_t op, T init,
               red_it reduction, bool want_reduction, context_t& ctx,
               cudaEvent_t event) {
  using launch_t = launch_of_t<launch_arg_t, scan_box_t<T>>;
  using delay_t = std::conditional_t<std::is_void<delay_arg_t>::value, scan_delay_t<T>, delay_arg_t>;
  int nv = launch_t::cta_dim(ctx.ptx_version()).nv();
  int num_tiles = count > 0 ? div_up(count, nv) : 0;
  if (!event && num_tiles) {
    // Single pass: nobody waits for the reduction before the end.
    using tile_state_t = cub::ScanTileState<T>;
    auto lb = lookback_begin<tile_state_t>(num_tiles, (long long)num_tiles * launch_t::nt, ctx);
    scan_single_pass_kernel<scan_type, launch_t, delay_t, T><<<num_tiles, launch_t::nt, 0, ctx.stream()>>>(
        f, count, output, op, init, lb.state, lb.next, lb.next_tiles, reduction, want_reduction);
    ATTU_CUDA_CHECK_LAUNCH();
    lookback_end(lb, ctx);
    return;
  }
  mem_t<T> partials(num_tiles, ctx);
  if (num_tiles) {
    reduce_tiles_kernel<launch_t, T>
        <<<num_tiles, launch_t::nt, 0, ctx.stream()>>>(f, count, op, partials.data());
    ATTU_CUDA_CHECK_LAUNCH();
  }
  scan_spine_kernel<256, T><<<1, 256, 0, ctx.stream()>>>(
      partials.data(), num_tiles, op, init, reduction, want_reduction);
  ATTU_CUDA_CHECK_LAUNCH();
  if (event) ATTU_CUDA_CHECK(cudaEventRecord(event, ctx.stream()));
  if (num_tiles) {
    scan_downsweep_kernel<scan_type, launch_t, T>
        <<<num_tiles, launch_t::nt, 0, ctx.stream()>>>(f, count, output, op,
                                                       init, partials.data());
    ATTU_CUDA_CHECK_LAUNCH();
  }
}

// scan of an array through scan_vector_kernel when it applies (4-byte
// items, both arrays 16-byte aligned, a box of an odd number of vectors a
// thread, the switch on); false leaves the call to scan_impl.
template <scan_type_t scan_type, typename launch_arg_t, typename delay_arg_t = void, typename T, typename op_t,
          typename red_it>
bool scan_vector_impl(const T* input, int count, T* output, op_t op, T init, red_it reduction,
                      bool want_reduction, context_t& ctx) {
  using launch_t = launch_of_t<launch_arg_t, scan_box_t<T>>;
  if constexpr (sizeof(T) != 4 || launch_t::sm_ptx::vt % 4 != 0 || (launch_t::sm_ptx::vt / 4) % 2 != 1) {
    return false;
  } else {
    if (!scan_vector_on() || count <= 0 || ((uintptr_t)input | (uintptr_t)output) % 16) return false;
    // launch_t::sm_ptx is the box of the device code being compiled; the
    // host asks for the device's box, which must be the same one
    const auto dim = launch_t::cta_dim(ctx.ptx_version());
    if (dim.nt != launch_t::sm_ptx::nt || dim.vt != launch_t::sm_ptx::vt) return false;
    using delay_t = std::conditional_t<std::is_void<delay_arg_t>::value, scan_delay_t<T>, delay_arg_t>;
    using tile_state_t = cub::ScanTileState<T>;
    const int nv = dim.nv();
    const int num_tiles = div_up(count, nv);
    auto lb = lookback_begin<tile_state_t>(num_tiles, (long long)num_tiles * launch_t::nt, ctx);
    scan_vector_kernel<scan_type, launch_t, delay_t, T><<<num_tiles, launch_t::nt, 0, ctx.stream()>>>(
        input, count, output, op, init, lb.state, lb.next, lb.next_tiles, reduction, want_reduction);
    ATTU_CUDA_CHECK_LAUNCH();
    lookback_end(lb, ctx);
    return true;
  }
}

}  // namespace detail

// Scan of f(0), f(1), ...; reduction is a T* (device or mapped pinned host
// memory) or nullptr to discard the total.
template <scan_type_t scan_type = scan_type_exc, typename launch_arg_t = empty_t,
          typename func_t, typename out_it, typename op_t, typename T>
void transform_scan(func_t f, int count, out_it output, op_t op, T* reduction,
                    context_t& ctx, T init = T()) {
  detail::scan_impl<scan_type, launch_arg_t>(f, count, output, op, init,
                                             reduction, reduction != nullptr,
                                             ctx, nullptr);
}

// As transform_scan; `event` is recorded on the context's stream as soon as
// the reduction has been stored (before the downsweep runs).
template <scan_type_t scan_type = scan_type_exc, typename launch_arg_t = empty_t,
          typename func_t, typename out_it, typename op_t, typename T>
void transform_scan_event(func_t f, int count, out_it output, op_t op,
                          T* reduction, context_t& ctx, cudaEvent_t event,
                          T init = T()) {
  detail::scan_impl<scan_type, launch_arg_t>(f, count, output, op, init,
                                             reduction, reduction != nullptr,
                                             ctx, event);
}

template <scan_type_t scan_type = scan_type_exc, typename launch_arg_t = empty_t,
          typename input_it, typename out_it, typename op_t, typename T>
void scan(input_it input, int count, out_it output, op_t op, T* reduction,
          context_t& ctx, T init = T()) {
  if constexpr (std::is_pointer<input_it>::value && std::is_same<out_it, T*>::value &&
                std::is_same<std::remove_cv_t<std::remove_pointer_t<input_it>>, T>::value) {
    if (detail::scan_vector_impl<scan_type, launch_arg_t>(static_cast<const T*>(input), count, output, op, init,
                                                          reduction, reduction != nullptr, ctx))
      return;
  }
  transform_scan<scan_type, launch_arg_t>(
      [=] __device__(int i) { return (T)input[i]; }, count, output, op,
      reduction, ctx, init);
}

template <scan_type_t scan_type = scan_type_exc, typename launch_arg_t = empty_t,
          typename input_it, typename out_it, typename op_t, typename T>
void scan_event(input_it input, int count, out_it output, op_t op,
                T* reduction, context_t& ctx, cudaEvent_t event, T init = T()) {
  transform_scan_event<scan_type, launch_arg_t>(
      [=] __device__(int i) { return (T)input[i]; }, count, output, op,
      reduction, ctx, event, init);
}

// Sum-scan of an int-like array; no reduction.
template <scan_type_t scan_type = scan_type_exc, typename launch_arg_t = empty_t,
          typename T>
void scan(const T* input, int count, T* output, context_t& ctx) {
  scan<scan_type, launch_arg_t>(input, count, output, plus_t<T>(), (T*)nullptr, ctx);
}

}  // namespace gpu
}  // namespace attu
