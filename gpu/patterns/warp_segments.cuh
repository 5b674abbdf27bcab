// warp_segments.cuh: when a pattern gives each segment a warp of its own,
// and what it does with the segments too long for one warp.
//
// segreduce_warp.cuh and interval_move's warp path (intervals.cuh) read a
// segment with one warp: no partition search, no tile scan, just the
// segment's items in flight. That wins when segments are hundreds to a few
// thousand items long; the sizes alone decide (warp_segments_wanted).
//
// A segment longer than kWarpChunkLen items would keep its warp reading
// long after the others finished, so its warp does not read it: it lists
// the segment's chunks of kWarpChunkLen items (warp_list_chunks) and a
// second kernel, whose warps take the listed chunks in turn, reads them
// (its grid is fixed and small; with nothing listed it ends at once). So
// no call waits for the host: the longest segment used to be found by a
// kernel and a wait for its four-byte answer before the launch, 15-20 us
// of a 64M-item call on an H200 (docs/performance.md, session 29).
//
// The list's count word and the chunk kernel's finished-blocks word are
// the context's (context_t::warp_chunk_words), zero between calls: the
// chunk kernel's last block zeroes them again, so a call queues no memset.
// The chunk kernel is launched as the warp kernel's programmatic dependent
// (Hopper), placed while the warp kernel drains, and waits for it before
// reading the count. On an H200 (session 33) the two took segreduce at
// mean 300 from 0.086-0.087 to 0.082-0.083 ms at 64M items (of the copy:
// 78% -> 81%), at mean 1000 0.076-0.077 to 0.072-0.074.
#pragma once

#include "gpu/patterns/context.cuh"
#include "gpu/patterns/dependent_launch.cuh"

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdlib>

namespace attu {
namespace gpu {

// The warp path's bounds: inputs of at least ATTU_WARP_SEGMENTS_MIN_COUNT
// items, and a mean segment of at least ATTU_WARP_SEGMENTS_MIN_MEAN items
// (the environment variable of that name overrides; 0 turns the path off)
// and at most a quarter of kWarpChunkLen (past that, long segments are
// common and the tiles serve better).
#ifndef ATTU_WARP_SEGMENTS_MIN_COUNT
#define ATTU_WARP_SEGMENTS_MIN_COUNT (1 << 20)
#endif
#ifndef ATTU_WARP_SEGMENTS_MIN_MEAN
#define ATTU_WARP_SEGMENTS_MIN_MEAN 256
#endif
#ifndef ATTU_WARP_SEGMENTS_MAX_LEN
#define ATTU_WARP_SEGMENTS_MAX_LEN 16384
#endif

constexpr int kWarpChunkLen = ATTU_WARP_SEGMENTS_MAX_LEN;

// One listed chunk: items [begin + k * kWarpChunkLen, ...) of segment seg,
// whose items are [begin, end), k = this entry's index - first (the
// segment's chunks are the entries first, first + 1, ...).
struct warp_chunk_t {
  int seg, first, begin, end;
};

// The list a warp kernel fills and the chunk kernel reads. Capacity: a
// segment past kWarpChunkLen items has at most twice len / kWarpChunkLen
// chunks, so all of them together at most 2 * count / kWarpChunkLen.
struct warp_chunks_t {
  warp_chunk_t* chunks;
  int* count;  // listed entries, zero before the warp kernel
  int* done;   // per segment (at its first entry): chunks finished, for a combine
  int* blocks_done;  // the chunk kernel's finished blocks (zero before it)
  int len;     // the chunk length (kWarpChunkLen; ATTU_WARP_CHUNK_LEN for A/B runs)
  bool pool_words;   // count and blocks_done from the pool (freed), else the context's
};

namespace warp_segments_detail {
inline long long env_or(const char* name, long long dflt) {
  const char* e = getenv(name);
  return e && *e ? atoll(e) : dflt;
}
}  // namespace warp_segments_detail

// Whether the warp path serves this call, by its sizes.
inline bool warp_segments_wanted(int count, int num_segments) {
  using namespace warp_segments_detail;
  static const long long min_mean = env_or("ATTU_WARP_SEGMENTS_MIN_MEAN", ATTU_WARP_SEGMENTS_MIN_MEAN);
  if (min_mean <= 0 || num_segments <= 0 || count < ATTU_WARP_SEGMENTS_MIN_COUNT) return false;
  const long long mean = (long long)count / num_segments;
  return mean >= min_mean && mean <= kWarpChunkLen / 4;
}

// The chunk length: kWarpChunkLen, or ATTU_WARP_CHUNK_LEN (at least 256;
// for A/B runs).
inline int warp_chunk_len() {
  static const int len = [] {
    const long long v = warp_segments_detail::env_or("ATTU_WARP_CHUNK_LEN", kWarpChunkLen);
    return (int)std::max(256LL, std::min(v, 1LL << 24));
  }();
  return len;
}

// The most chunks a call of count items lists.
inline size_t warp_chunks_capacity(int count) { return 2 * ((size_t)count / warp_chunk_len()) + 2; }

// A/B switches (read once; the bench and tests set them here):
// ATTU_WARP_CHUNK_KEEP=0 takes the count words from the pool, zeroed by a
// memset on the stream each call, instead of the context's words that the
// chunk kernel zeroes again; ATTU_WARP_CHUNK_PDL=0 launches the chunk
// kernel plainly instead of as the warp kernel's programmatic dependent.
inline bool& warp_chunk_keep_on() {
  static bool on = env_switch("ATTU_WARP_CHUNK_KEEP", true);
  return on;
}
inline bool& warp_chunk_pdl_on() {
  static bool on = env_switch("ATTU_WARP_CHUNK_PDL", true);
  return on;
}

// The list's buffers for a call of count items (entries and done words
// from ctx's pool; the two count words the context's, already zero);
// warp_chunks_launch frees them after the chunk kernel's launch.
inline warp_chunks_t warp_chunks_alloc(int count, context_t& ctx) {
  const size_t cap = warp_chunks_capacity(count);
  warp_chunks_t w;
  w.len = warp_chunk_len();
  w.chunks = (warp_chunk_t*)ctx.alloc(cap * sizeof(warp_chunk_t));
  w.done = (int*)ctx.alloc(cap * sizeof(int));
  w.pool_words = !warp_chunk_keep_on();
  if (w.pool_words) {
    w.count = (int*)ctx.alloc(2 * sizeof(int));
    ATTU_CUDA_CHECK(cudaMemsetAsync(w.count, 0, 2 * sizeof(int), ctx.stream()));
  } else {
    w.count = ctx.warp_chunk_words();
  }
  w.blocks_done = w.count + 1;
  return w;
}
inline void warp_chunks_free(const warp_chunks_t& w, context_t& ctx) {
  ctx.free(w.chunks);
  ctx.free(w.done);
  if (w.pool_words) ctx.free(w.count);
}

// When the chunk kernel could not be launched after the warp kernel (the
// launch threw): the context's words may hold a count no chunk kernel will
// clear, so they are zeroed on the stream, and the list's buffers freed,
// before the caller sees the error (whose report these calls keep: their
// own errors are not checked).
inline void warp_chunks_abandon(const warp_chunks_t& w, context_t& ctx) {
  if (!w.pool_words) cudaMemsetAsync(w.count, 0, 2 * sizeof(int), ctx.stream());
  cudaFreeAsync(w.chunks, ctx.stream());
  cudaFreeAsync(w.done, ctx.stream());
  if (w.pool_words) cudaFreeAsync(w.count, ctx.stream());
}

// Whether the chunk kernel goes as the warp kernel's programmatic
// dependent (Hopper and later).
inline bool warp_chunk_dependent(context_t& ctx) { return warp_chunk_pdl_on() && ctx.ptx_version() >= 900; }

// The chunk kernel's start, every thread: waits for the warp kernel (when
// launched as its dependent) and reads how many chunks it listed.
__device__ inline int warp_chunks_begin(const warp_chunks_t& w) {
  wait_for_primary_grid();
  return *(volatile int*)w.count;
}

// The chunk kernel's end, every thread of every block: the last block to
// finish zeroes the two count words for the next call (every block read
// the count at its start, before its thread 0 counts the block here).
__device__ inline void warp_chunks_end(const warp_chunks_t& w) {
  __syncthreads();
  if (threadIdx.x == 0) {
    __threadfence();
    if (atomicAdd(w.blocks_done, 1) == (int)gridDim.x - 1) {
      *(volatile int*)w.count = 0;
      *(volatile int*)w.blocks_done = 0;
    }
  }
}

// The chunk kernel's grid: a few blocks of 256 threads a multiprocessor,
// enough warps to keep the memory busy on any one long segment.
inline int warp_chunk_blocks(context_t& ctx) { return 2 * ctx.sm_count(); }

// A warp path's two launches over the list w: launch_warp_kernel() (a
// plain launch on ctx's stream, which lists the long segments' chunks),
// then chunk_kernel<<<warp_chunk_blocks, block>>>(args...) as its
// programmatic dependent where warp_chunk_dependent says so; then w's
// buffers are freed. Either launch failing abandons the list
// (warp_chunks_abandon) before the error reaches the caller.
template <typename warp_launch_t, typename... params_t, typename... args_t>
void warp_chunks_launch(const warp_chunks_t& w, context_t& ctx, warp_launch_t launch_warp_kernel,
                        void (*chunk_kernel)(params_t...), int block, args_t... args) {
  try {
    launch_warp_kernel();
    ATTU_CUDA_CHECK_LAUNCH();
    launch_maybe_dependent(chunk_kernel, warp_chunk_blocks(ctx), block, 0, warp_chunk_dependent(ctx), ctx,
                           args...);
  } catch (...) {
    warp_chunks_abandon(w, ctx);
    throw;
  }
  warp_chunks_free(w, ctx);
}

// Warp-collective (all 32 lanes): lists segment seg ([a, b), longer than
// w.len) as its chunks.
__device__ inline void warp_list_chunks(const warp_chunks_t& w, int seg, int a, int b) {
  const int lane = threadIdx.x & 31;
  const int n = (b - a + w.len - 1) / w.len;
  int first = 0;
  if (lane == 0) {
    first = atomicAdd(w.count, n);
    w.done[first] = 0;
  }
  first = __shfl_sync(0xffffffffu, first, 0);
  for (int k = lane; k < n; k += 32) w.chunks[first + k] = warp_chunk_t{seg, first, a, b};
}

// A listed chunk's items [lo, hi) and its place among its segment's chunks.
struct warp_chunk_range_t {
  int lo, hi, k, n;
};
__device__ inline warp_chunk_range_t warp_chunk_range(const warp_chunks_t& w, const warp_chunk_t& c, int entry) {
  warp_chunk_range_t r;
  r.k = entry - c.first;
  r.n = (c.end - c.begin + w.len - 1) / w.len;
  r.lo = c.begin + r.k * w.len;
  r.hi = min(c.end, r.lo + w.len);
  return r;
}

}  // namespace gpu
}  // namespace attu
