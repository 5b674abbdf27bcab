// lookback.cuh: the tile status of the single-pass patterns (scan,
// select_if), kept by the context between calls.
//
// A decoupled look-back needs every tile's status word marked "not yet
// set" before its kernel starts. CUB allocates the words and runs a kernel
// that marks them on every call: 2-3 us of a 64M-item scan's ~220 us on an
// H100, and one more launch in a query's chain of small calls. Here the
// context keeps two buffers used in turn: a call's kernel looks back
// through one, and its threads mark the other's words for the next call.
// Once the buffers are big enough a call costs neither an allocation nor a
// kernel of its own.
//
// Invariant: a buffer's words [0, clean) (and the padding before them) are
// marked for the layout key, and nothing reads or writes them until a call
// takes that buffer. clean is raised only once the kernel that marks them
// has been launched without error (lookback_end); anything else, a layout
// change or a bigger call, runs the marking kernel first, as CUB does.
// Calls on one context are ordered by its stream, so the kernel that marks
// a buffer has finished before the next call's kernel looks back through
// it.
#pragma once

#include <algorithm>

#include <cub/agent/single_pass_scan_operators.cuh>

#include "gpu/patterns/context.cuh"

namespace attu {
namespace gpu {

template <typename tile_state_t>
__global__ void lookback_mark_kernel(tile_state_t state, int num_tiles) {
  state.InitializeStatus(num_tiles);
}

// What a single-pass kernel gets: its own tiles' statuses, all "not yet
// set", and the other buffer's, which its threads mark through
// lookback_mark_next.
template <typename tile_state_t>
struct lookback_t {
  tile_state_t state;
  tile_state_t next;
  int next_tiles = 0;  // how many of next's tiles the launch marks
  int next_index = 0;
};

// In the kernel, every thread once: thread t of the grid (blockIdx.x *
// blockDim.x + threadIdx.x) marks next's tile t, block 0 the padding.
template <typename tile_state_t>
__device__ __forceinline__ void lookback_mark_next(tile_state_t& next, int next_tiles) {
  if (next_tiles > 0) next.InitializeStatus(next_tiles);
}

namespace detail {

// A layout's name: bytes a tile and the interface's own size (the packed
// word of a primitive T against three arrays of a wider one).
template <typename tile_state_t>
long long lookback_key() {
  size_t a = 0, b = 0;
  ATTU_CUDA_CHECK(tile_state_t::AllocationSize(1, a));
  ATTU_CUDA_CHECK(tile_state_t::AllocationSize(1025, b));
  return (long long)(b - a) * 64 + (long long)sizeof(tile_state_t);
}

// The most tiles a buffer of `bytes` holds in this layout.
template <typename tile_state_t>
int lookback_capacity(size_t bytes) {
  size_t a = 0, b = 0;
  ATTU_CUDA_CHECK(tile_state_t::AllocationSize(1, a));
  ATTU_CUDA_CHECK(tile_state_t::AllocationSize(1025, b));
  const size_t per = std::max<size_t>(1, (b - a) / 1024);
  long long t = (long long)std::min<size_t>(bytes / per, (size_t)1 << 30);
  for (size_t need = 0; t > 0; --t) {
    ATTU_CUDA_CHECK(tile_state_t::AllocationSize((int)t, need));
    if (need <= bytes) break;
  }
  return (int)t;
}

}  // namespace detail

// Statuses for a launch of num_tiles tiles whose grid has grid_threads
// threads (they mark that many of the other buffer's tiles at most).
template <typename tile_state_t>
lookback_t<tile_state_t> lookback_begin(int num_tiles, long long grid_threads, context_t& ctx) {
  using buffer_t = context_t::lookback_buffer_t;
  const long long key = detail::lookback_key<tile_state_t>();
  size_t need = 0;
  ATTU_CUDA_CHECK(tile_state_t::AllocationSize(num_tiles, need));
  lookback_t<tile_state_t> r;
  const int ci = ctx.lookback_turn();
  r.next_index = ci ^ 1;
  buffer_t& cur = ctx.lookback_buffer(ci);
  buffer_t& nxt = ctx.lookback_buffer(r.next_index);
  for (buffer_t* b : {&cur, &nxt}) {
    if (b->bytes >= need) continue;
    const size_t bytes = std::max(need, 2 * b->bytes);
    void* p = ctx.alloc(bytes);
    ctx.free(b->p);
    *b = buffer_t{p, bytes, 0, 0};
  }
  ATTU_CUDA_CHECK(r.state.Init(num_tiles, cur.p, cur.bytes));
  const bool marked = cur.key == key && cur.clean >= num_tiles;
  cur.key = key;
  cur.clean = 0;  // this call's kernel leaves its words set
  if (!marked) {
    lookback_mark_kernel<<<(num_tiles + 127) / 128, 128, 0, ctx.stream()>>>(r.state, num_tiles);
    ATTU_CUDA_CHECK_LAUNCH();
  }
  r.next_tiles = (int)std::min<long long>(detail::lookback_capacity<tile_state_t>(nxt.bytes), grid_threads);
  if (r.next_tiles > 0) ATTU_CUDA_CHECK(r.next.Init(r.next_tiles, nxt.p, nxt.bytes));
  nxt.key = key;
  nxt.clean = 0;  // until lookback_end
  return r;
}

// After the kernel's launch succeeded: the other buffer is marked.
template <typename tile_state_t>
void lookback_end(const lookback_t<tile_state_t>& r, context_t& ctx) {
  ctx.lookback_buffer(r.next_index).clean = r.next_tiles;
}

}  // namespace gpu
}  // namespace attu
