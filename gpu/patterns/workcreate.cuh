// workcreate.cuh: lbs_workcreate, dynamic work creation over a load-balanced
// search (seeds/003, moderngpu's expt::lbs_workcreate).
//
// upsweep(f): f(index, seg, rank[, cached]) -> int is called once per work
// item and says how many new work items it creates (0 = none; > 0 opens one
// new segment of that many items). The answers are stored, so f may be
// non-deterministic (claiming a vertex with atomicCAS, say). Returns
// {count, num_segments} of the new work.
// downsweep(f): f(dest_seg, index, seg, rank[, cached]) is called only for
// the items that asked for work, with the new segment's index (new segments
// are numbered in item order); returns the new work's segments descriptor.
//
// Passes: transform_lbs stores each item's answer; a compaction numbers the
// creators and lays their counts out in creator order; a scan of those
// counts is the new descriptor; a second transform_lbs calls the downsweep
// behaviour on the creators.
#pragma once

#include "gpu/patterns/compact.cuh"
#include "gpu/patterns/load_balance.cuh"
#include "gpu/patterns/scan.cuh"

namespace attu {
namespace gpu {

namespace detail {
// Behaviours of the two passes (functors: nvcc does not allow extended
// lambdas inside functions with parameter packs).
template <typename func_t>
struct workcreate_up_t {
  func_t f;
  int* work;
  template <typename... cached_t>
  __device__ void operator()(int index, int seg, int rank, cached_t... c) const {
    int n = f(index, seg, rank, c...);
    work[index] = n > 0 ? n : 0;
  }
};
template <typename func_t>
struct workcreate_down_t {
  func_t f;
  const int* work;
  const int* dest;
  template <typename... cached_t>
  __device__ void operator()(int index, int seg, int rank, cached_t... c) const {
    if (work[index] > 0) f(dest[index], index, seg, rank, c...);
  }
};
}  // namespace detail

template <typename launch_arg_t, typename segments_it>
struct workcreate_t {
  struct count_t {
    int count;
    int num_segments;
  };

  workcreate_t(int count, segments_it segments, int num_segments, context_t& ctx)
      : ctx_(&ctx), count_(count > 0 ? count : 0), segments_(segments),
        num_segments_(num_segments), work_(count_, ctx), dest_(count_, ctx) {}

  template <typename func_t, typename... its>
  count_t upsweep(func_t f, cuda::std::tuple<its...> caching) {
    transform_lbs<launch_arg_t>(detail::workcreate_up_t<func_t>{f, work_.data()},
                                count_, segments_, num_segments_, caching, *ctx_);
    return finish_upsweep();
  }
  template <typename func_t>
  count_t upsweep(func_t f) {
    transform_lbs<launch_arg_t>(detail::workcreate_up_t<func_t>{f, work_.data()},
                                count_, segments_, num_segments_, *ctx_);
    return finish_upsweep();
  }

  template <typename func_t, typename... its>
  mem_t<int> downsweep(func_t f, cuda::std::tuple<its...> caching) {
    transform_lbs<launch_arg_t>(
        detail::workcreate_down_t<func_t>{f, work_.data(), dest_.data()}, count_,
        segments_, num_segments_, caching, *ctx_);
    return std::move(new_segments_);
  }
  template <typename func_t>
  mem_t<int> downsweep(func_t f) {
    transform_lbs<launch_arg_t>(
        detail::workcreate_down_t<func_t>{f, work_.data(), dest_.data()}, count_,
        segments_, num_segments_, *ctx_);
    return std::move(new_segments_);
  }

 // Public only because nvcc wants device lambdas in accessible functions.
  count_t finish_upsweep() {
    const int* work = work_.data();
    int* dest = dest_.data();
    auto compact = transform_compact(count_, *ctx_);
    int creators = compact.upsweep([=] __device__(int i) { return work[i] > 0; });
    new_segments_ = mem_t<int>(creators, *ctx_);
    int* segs = new_segments_.data();
    compact.downsweep([=] __device__(int d, int s) {
      dest[s] = d;
      segs[d] = work[s];
    });
    mem_t<long long> total(1, *ctx_);
    transform_scan<scan_type_exc>(
        [=] __device__(int i) { return (long long)segs[i]; }, creators, segs,
        plus_t<long long>(), total.data(), *ctx_);
    long long n = 0;
    dtoh(&n, total.data(), 1, *ctx_);
    if (n > 0x7fffffffLL)
      throw std::length_error("lbs_workcreate: more than 2^31-1 new work items");
    return count_t{(int)n, creators};
  }

 private:
  context_t* ctx_;
  int count_;
  segments_it segments_;
  int num_segments_;
  mem_t<int> work_, dest_, new_segments_;
};

template <typename launch_arg_t = empty_t, typename segments_it>
workcreate_t<launch_arg_t, segments_it> lbs_workcreate(int count, segments_it segments,
                                                       int num_segments, context_t& ctx) {
  return workcreate_t<launch_arg_t, segments_it>(count, segments, num_segments, ctx);
}

}  // namespace gpu
}  // namespace attu
