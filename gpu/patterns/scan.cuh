// scan.cuh: transform_scan, scan and their _event forms (seeds/003).
//
// Three kernels: an upsweep reduces each tile (reduce.cuh), a one-CTA spine
// turns the tile reductions into exclusive tile prefixes and stores the
// total reduction, and a downsweep rescans each tile seeded with its prefix.
// The reduction is known after the spine, a third of the way through the
// traffic: scan_event records the caller's event right there, so a host
// waiting on it can read the total from pinned memory before the downsweep
// ends (seeds/003).
//
// Semantics (op associative, not necessarily commutative; no identity is
// ever applied to the data):
//   inclusive: out[i] = x0 op x1 op ... op xi
//   exclusive: out[0] = init, out[i] = x0 op ... op x(i-1)
//   reduction  = x0 op ... op x(n-1), or init when n == 0.
// init is meant to be op's identity (T() for plus), so both forms agree with
// the textbook definitions; it is never combined with the data.
#pragma once

#include <cub/block/block_scan.cuh>

#include "gpu/patterns/reduce.cuh"

namespace attu {
namespace gpu {

enum scan_type_t { scan_type_exc, scan_type_inc };

namespace detail {

// In place: partials[i] = partials[0] op ... op partials[i-1] (partials[0]
// is left as is and never read as a prefix); *reduction = fold of all.
template <int nt, typename T, typename op_t, typename red_it>
__global__ __launch_bounds__(nt) void scan_spine_kernel(
    T* __restrict__ partials, int n, op_t op, T init, red_it reduction,
    bool want_reduction) {
  using scan_t = cub::BlockScan<T, nt>;
  __shared__ typename scan_t::TempStorage storage;
  __shared__ T s_running;
  bool have_running = false;  // uniform across the CTA
  for (int base = 0; base < n; base += nt) {
    int valid = min(nt, n - base);
    T x = threadIdx.x < valid ? partials[base + threadIdx.x] : partials[base];
    T excl, agg;
    scan_t(storage).ExclusiveScan(x, excl, op, agg);  // thread 0: undefined
    T prefix;
    if (have_running) prefix = threadIdx.x ? op(s_running, excl) : s_running;
    else prefix = excl;
    __syncthreads();
    if (threadIdx.x < valid && (have_running || threadIdx.x))
      partials[base + threadIdx.x] = prefix;
    // Fold only the valid items into the running total.
    if (threadIdx.x == valid - 1) {
      T last = (have_running || threadIdx.x) ? op(prefix, x) : x;
      s_running = last;
    }
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

template <scan_type_t scan_type, typename launch_arg_t, typename func_t,
          typename out_it, typename op_t, typename T, typename red_it>
void scan_impl(func_t f, int count, out_it output, op_t op, T init,
               red_it reduction, bool want_reduction, context_t& ctx,
               cudaEvent_t event) {
  using launch_t = launch_of_t<launch_arg_t, stream_box_t<T>>;
  int nv = launch_t::cta_dim(ctx.ptx_version()).nv();
  int num_tiles = count > 0 ? div_up(count, nv) : 0;
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
