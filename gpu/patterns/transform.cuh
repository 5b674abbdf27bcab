// transform.cuh: the low-level transforms (seeds/003): transform (one call
// per index), cta_launch (one call per thread of each CTA), cta_transform
// (enough CTAs of nt*vt items to cover a count), and the occupancy query.
//
// Extra arguments after the context are forwarded to the behaviour; pointer
// arguments arrive __restrict__-qualified, which lets the compiler keep
// loads in flight across stores (the caller promises no aliasing).
#pragma once

#include "gpu/patterns/context.cuh"
#include "gpu/patterns/launch_box.cuh"

#include <cstdlib>

namespace attu {
namespace gpu {

template <typename T> struct restrict_of { using type = T; };
template <typename T> struct restrict_of<T*> { using type = T* __restrict__; };
template <typename T> using restrict_t = typename restrict_of<T>::type;

template <typename T>
__host__ __device__ constexpr T div_up(T x, T y) { return (x + y - 1) / y; }

namespace detail {
template <int nt, typename func_t, typename... args_t>
__global__ __launch_bounds__(nt) void transform_kernel(func_t f, int count,
                                                      restrict_t<args_t>... args) {
  int index = blockIdx.x * nt + threadIdx.x;
  if (index < count) f(index, args...);
}

// vt indices a thread, strided by the CTA. With the behaviour's pointers
// __restrict__, the compiler may issue every call's loads before the first
// store, so a thread keeps vt loads in flight instead of one: one index a
// thread reached 56% of the copy bandwidth on the H100 (too few bytes in
// flight per SM).
template <int nt, int vt, typename func_t, typename... args_t>
__global__ __launch_bounds__(nt) void transform_vt_kernel(func_t f, int count,
                                                         restrict_t<args_t>... args) {
  long long base = (long long)blockIdx.x * nt * vt + threadIdx.x;  // may pass INT_MAX
  if (base + (vt - 1) * nt < count) {
#pragma unroll
    for (int k = 0; k < vt; ++k) f((int)(base + k * nt), args...);
  } else {
#pragma unroll
    for (int k = 0; k < vt; ++k)
      if (base + k * nt < count) f((int)(base + k * nt), args...);
  }
}

// Below this many indices one index a thread fills the GPU better.
constexpr int kTransformVtMin = 1 << 21;

template <int nt, typename func_t, typename... args_t>
__global__ __launch_bounds__(nt) void cta_kernel(func_t f, restrict_t<args_t>... args) {
  f((int)threadIdx.x, (int)blockIdx.x, args...);
}

// Persistent grid for a CTA count only known on the device.
template <int nt, typename func_t, typename... args_t>
__global__ __launch_bounds__(nt) void cta_dynamic_kernel(func_t f, const int* num_ctas,
                                                        restrict_t<args_t>... args) {
  int n = *num_ctas;
  for (int cta = blockIdx.x; cta < n; cta += gridDim.x) {
    f((int)threadIdx.x, cta, args...);
    __syncthreads();  // the behaviour may reuse its shared memory next pass
  }
}
}  // namespace detail

// Resident CTAs per SM for `kernel` at `nt` threads and `smem` dynamic bytes.
template <typename kernel_t>
int occupancy(kernel_t kernel, int nt, size_t smem = 0) {
  int n = 0;
  ATTU_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&n, kernel, nt, smem));
  return n;
}

// f(index, args...) for each index in [0, count). On large counts every
// thread runs several indices, striped: behaviours that take their
// pointers as arguments (restrict-qualified) have their loads hoisted
// ahead of the stores; behaviours that capture them run 4 indices a
// thread too (session 24, an H200: one index a thread was bound by the
// rate CTAs launch at, 64M items in 512K CTAs: a captured y = 2x 0.325
// -> 0.165 ms, two int32 written 0.323 -> 0.122 ms).
namespace detail {
// ATTU_TRANSFORM_CAPTURE_VT: indices a thread for behaviours that capture
// their pointers, on large counts (4, or 8; 1: one a thread, for A/B runs).
inline int& transform_capture_vt() {
  static int vt = [] {
    const char* e = getenv("ATTU_TRANSFORM_CAPTURE_VT");
    return e && *e ? atoi(e) : 4;
  }();
  return vt;
}
}  // namespace detail

template <int nt = 128, typename func_t, typename... args_t>
void transform(func_t f, int count, context_t& ctx, args_t... args) {
  if (count <= 0) return;
  constexpr int vt = sizeof...(args_t) > 0 ? 4 : 1;
  if (vt == 1 && count >= detail::kTransformVtMin && detail::transform_capture_vt() > 1) {
    const int cvt = detail::transform_capture_vt();
    if (cvt >= 8) {
      detail::transform_vt_kernel<nt, 8, func_t, args_t...>
          <<<div_up(count, nt * 8), nt, 0, ctx.stream()>>>(f, count, args...);
    } else {
      detail::transform_vt_kernel<nt, 4, func_t, args_t...>
          <<<div_up(count, nt * 4), nt, 0, ctx.stream()>>>(f, count, args...);
    }
    ATTU_CUDA_CHECK_LAUNCH();
    return;
  }
  if (vt > 1 && count >= detail::kTransformVtMin) {
    detail::transform_vt_kernel<nt, vt, func_t, args_t...>
        <<<div_up(count, nt * vt), nt, 0, ctx.stream()>>>(f, count, args...);
  } else {
    detail::transform_kernel<nt, func_t, args_t...>
        <<<div_up(count, nt), nt, 0, ctx.stream()>>>(f, count, args...);
  }
  ATTU_CUDA_CHECK_LAUNCH();
}

// f(tid, cta, args...) on each thread of num_ctas CTAs of launch_t::nt.
template <typename launch_t, typename func_t, typename... args_t>
void cta_launch(func_t f, int num_ctas, context_t& ctx, args_t... args) {
  if (num_ctas <= 0) return;
  cta_dim_t d = launch_t::cta_dim(ctx.ptx_version());
  (void)d;
  detail::cta_kernel<launch_t::nt, func_t, args_t...>
      <<<num_ctas, launch_t::nt, 0, ctx.stream()>>>(f, args...);
  ATTU_CUDA_CHECK_LAUNCH();
}
template <int nt, typename func_t, typename... args_t>
void cta_launch(func_t f, int num_ctas, context_t& ctx, args_t... args) {
  cta_launch<launch_params_t<nt>>(f, num_ctas, ctx, args...);
}
// The CTA count lives in device memory (produced by an earlier kernel): a
// grid of resident CTAs loops over it.
template <typename launch_t, typename func_t, typename... args_t>
void cta_launch(func_t f, const int* num_ctas, context_t& ctx, args_t... args) {
  auto k = detail::cta_dynamic_kernel<launch_t::nt, func_t, args_t...>;
  int grid = ctx.sm_count() * occupancy(k, launch_t::nt);
  k<<<grid, launch_t::nt, 0, ctx.stream()>>>(f, num_ctas, args...);
  ATTU_CUDA_CHECK_LAUNCH();
}

// Enough CTAs of launch_t::nv items to cover count; f(tid, cta, args...).
// The behaviour handles the partial last tile.
template <typename launch_t, typename func_t, typename... args_t>
void cta_transform(func_t f, int count, context_t& ctx, args_t... args) {
  if (count <= 0) return;
  cta_dim_t d = launch_t::cta_dim(ctx.ptx_version());
  cta_launch<launch_t>(f, div_up(count, d.nv()), ctx, args...);
}
template <int nt, int vt = 1, typename func_t, typename... args_t>
void cta_transform(func_t f, int count, context_t& ctx, args_t... args) {
  cta_transform<launch_params_t<nt, vt>>(f, count, ctx, args...);
}

}  // namespace gpu
}  // namespace attu
