// warp_segments.cuh: when a pattern may give each segment a warp of its own.
//
// segreduce_warp.cuh and interval_move's warp path (intervals.cuh) read a
// segment with one warp: no partition search, no tile scan, just the
// segment's items in flight. That wins when segments are hundreds to a few
// thousand items long, and only if none is very long (its warp would read
// long after the others finished). The sizes tell the first; one small
// kernel and a wait for its four-byte answer tell the second.
#pragma once

#include "gpu/patterns/context.cuh"

#include <cuda_runtime.h>

#include <cstdlib>

namespace attu {
namespace gpu {

// The warp path's bounds: inputs of at least ATTU_WARP_SEGMENTS_MIN_COUNT
// items (below it the length check's round trip to the host is not worth
// it), a mean segment of at least ATTU_WARP_SEGMENTS_MIN_MEAN items (the
// environment variable of that name overrides; 0 turns the path off), and
// no segment over ATTU_WARP_SEGMENTS_MAX_LEN items.
#ifndef ATTU_WARP_SEGMENTS_MIN_COUNT
#define ATTU_WARP_SEGMENTS_MIN_COUNT (1 << 20)
#endif
#ifndef ATTU_WARP_SEGMENTS_MIN_MEAN
#define ATTU_WARP_SEGMENTS_MIN_MEAN 256
#endif
#ifndef ATTU_WARP_SEGMENTS_MAX_LEN
#define ATTU_WARP_SEGMENTS_MAX_LEN 16384
#endif

namespace warp_segments_detail {

// The longest segment (segments [segments[s], segments[s + 1] or count)).
// A template (of the offset type) so that a header may define it.
template <typename offset_t>
__global__ void maxlen_kernel(const offset_t* __restrict__ segments, int num_segments, int count,
                              unsigned int* __restrict__ maxlen) {
  int s = blockIdx.x * blockDim.x + threadIdx.x;
  if (s >= num_segments) return;
  int b = s + 1 < num_segments ? segments[s + 1] : count;
  int len = b - segments[s];
  if (len > 0) atomicMax(maxlen, unsigned(len));
}

inline long long env_or(const char* name, long long dflt) {
  const char* e = getenv(name);
  return e && *e ? atoll(e) : dflt;
}

}  // namespace warp_segments_detail

// Whether the warp path serves this call: by its sizes, then (one small
// kernel and a wait for it) by its longest segment.
inline bool warp_segments_wanted(int count, const int* segments, int num_segments, context_t& ctx) {
  using namespace warp_segments_detail;
  static const long long min_mean = env_or("ATTU_WARP_SEGMENTS_MIN_MEAN", ATTU_WARP_SEGMENTS_MIN_MEAN);
  if (min_mean <= 0 || num_segments <= 0 || count < ATTU_WARP_SEGMENTS_MIN_COUNT) return false;
  // A mean past a quarter of the longest allowed makes a longer segment
  // likely: the tiles then serve without the check's round trip.
  const long long mean = (long long)count / num_segments;
  if (mean < min_mean || mean > ATTU_WARP_SEGMENTS_MAX_LEN / 4) return false;
  // The check's answer comes back through a pinned word of this thread
  // (a pageable copy costs the round trip several microseconds more).
  thread_local unsigned int* host_word = nullptr;
  if (!host_word) ATTU_CUDA_CHECK(cudaMallocHost(&host_word, sizeof *host_word));
  unsigned int* d = (unsigned int*)ctx.alloc(sizeof(unsigned int));
  ATTU_CUDA_CHECK(cudaMemsetAsync(d, 0, sizeof(unsigned int), ctx.stream()));
  maxlen_kernel<int><<<(num_segments + 255) / 256, 256, 0, ctx.stream()>>>(segments, num_segments, count, d);
  ATTU_CUDA_CHECK_LAUNCH();
  ATTU_CUDA_CHECK(cudaMemcpyAsync(host_word, d, sizeof *host_word, cudaMemcpyDeviceToHost, ctx.stream()));
  ATTU_CUDA_CHECK(cudaStreamSynchronize(ctx.stream()));
  ctx.free(d);
  return *host_word <= ATTU_WARP_SEGMENTS_MAX_LEN;
}

}  // namespace gpu
}  // namespace attu
