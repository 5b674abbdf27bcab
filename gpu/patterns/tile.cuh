// tile.cuh: helpers shared by the tiled patterns. A tile is the nv = nt * vt
// consecutive items one CTA owns; "striped" means item i of thread tid is at
// tile offset i * nt + tid (coalesced across a warp), "blocked" means it is
// at tid * vt + i (what a serial per-thread pass wants). CUB's BlockExchange
// converts between the two through shared memory.
#pragma once

#include <cub/block/block_exchange.cuh>

#include "gpu/patterns/transform.cuh"

namespace attu {
namespace gpu {

// Default box for streaming patterns (reduce; scan and select_if have their
// own, scan_box_t and select_box_t) over values of type T:
// about 96 bytes of work per thread keeps enough loads in flight on Hopper.
// sm_90: 128 x 24 ints was the fastest of the boxes swept on an H100 for a
// 64M int scan (0.237 ms against 0.256 for 256 x 12; docs/testing.md).
template <typename T>
using stream_box_t = launch_box_t<
    arch_cta_t<700, 256, (sizeof(T) <= 4 ? 8 : sizeof(T) <= 8 ? 4 : 2)>,
    arch_cta_t<900, 128, (sizeof(T) <= 4 ? 24 : sizeof(T) <= 8 ? 12 : 6)>>;

// x[i] = f(tile_begin + i * nt + tid) for the items of this tile (striped).
// Slots past tile_count are left untouched.
template <int nt, int vt, typename T, typename func_t>
__device__ inline void load_striped(func_t& f, int tid, int tile_begin,
                                    int tile_count, T (&x)[vt]) {
  if (tile_count == nt * vt) {
#pragma unroll
    for (int i = 0; i < vt; ++i) x[i] = f(tile_begin + i * nt + tid);
  } else {
#pragma unroll
    for (int i = 0; i < vt; ++i)
      if (i * nt + tid < tile_count) x[i] = f(tile_begin + i * nt + tid);
  }
}

// out[tile_begin + i * nt + tid] = x[i] for the items of this tile.
template <int nt, int vt, typename T, typename out_it>
__device__ inline void store_striped(out_it out, int tid, int tile_begin,
                                     int tile_count, const T (&x)[vt]) {
#pragma unroll
  for (int i = 0; i < vt; ++i)
    if (i * nt + tid < tile_count) out[tile_begin + i * nt + tid] = x[i];
}

// The tile's staging through shared memory (s: the tile's nt * vt slots),
// for patterns that load striped (coalesced), work on blocked runs and
// store striped again. Slots at or past count are neither read nor written.

// s[i * nt + tid] = x[i]
template <int nt, int vt, typename T>
__device__ inline void striped_to_shared(const T (&x)[vt], int tid, int count, T* s) {
#pragma unroll
  for (int i = 0; i < vt; ++i)
    if (i * nt + tid < count) s[i * nt + tid] = x[i];
}

// x[i] = s[tid * vt + i]
template <int vt, typename T>
__device__ inline void shared_to_blocked(const T* s, int tid, int count, T (&x)[vt]) {
#pragma unroll
  for (int i = 0; i < vt; ++i)
    if (tid * vt + i < count) x[i] = s[tid * vt + i];
}

// s[tid * vt + i] = x[i]
template <int vt, typename T>
__device__ inline void blocked_to_shared(const T (&x)[vt], int tid, int count, T* s) {
#pragma unroll
  for (int i = 0; i < vt; ++i)
    if (tid * vt + i < count) s[tid * vt + i] = x[i];
}

// out[i * nt + tid] = s[i * nt + tid]: the staged tile out, coalesced.
template <int nt, int vt, typename T, typename out_it>
__device__ inline void shared_to_striped_store(const T* s, int tid, int count, out_it out) {
#pragma unroll
  for (int i = 0; i < vt; ++i)
    if (i * nt + tid < count) out[i * nt + tid] = s[i * nt + tid];
}

// s[i] = in[i] for the tile's count items: every load in flight (registers)
// before the first shared store.
template <int nt, int vt, typename T, typename in_it>
__device__ inline void load_to_shared(in_it in, int tid, int count, T* s) {
  T x[vt];
#pragma unroll
  for (int i = 0; i < vt; ++i)
    if (i * nt + tid < count) x[i] = in[i * nt + tid];
  striped_to_shared<nt, vt>(x, tid, count, s);
}

}  // namespace gpu
}  // namespace attu
