// intervals.cuh: interval_expand, interval_gather, interval_scatter and
// interval_move (seeds/003), each one transform_lbs with the per-interval
// values cached by the tile.
//
// `segments` is the exclusive scan of the interval lengths, `count` their
// sum, num_segments the number of intervals. For interval s and rank r:
//   expand:  output[segments[s] + r]       = input[s]
//   gather:  output[segments[s] + r]       = input[gather[s] + r]
//   scatter: output[scatter[s] + r]        = input[segments[s] + r]
//   move:    output[scatter[s] + r]        = input[gather[s] + r]
#pragma once

#include "gpu/patterns/load_balance.cuh"

namespace attu {
namespace gpu {

template <typename launch_arg_t = empty_t, typename input_it,
          typename segments_it, typename output_it>
void interval_expand(input_it input, int count, segments_it segments,
                     int num_segments, output_it output, context_t& ctx) {
  transform_lbs<launch_arg_t>(
      [=] __device__(int index, int, int, auto cached) {
        output[index] = cuda::std::get<0>(cached);
      },
      count, segments, num_segments, cuda::std::make_tuple(input), ctx);
}

template <typename launch_arg_t = empty_t, typename input_it,
          typename segments_it, typename gather_it, typename output_it>
void interval_gather(input_it input, int count, segments_it segments,
                     int num_segments, gather_it gather, output_it output,
                     context_t& ctx) {
  transform_lbs<launch_arg_t>(
      [=] __device__(int index, int, int rank, auto cached) {
        output[index] = input[cuda::std::get<0>(cached) + rank];
      },
      count, segments, num_segments, cuda::std::make_tuple(gather), ctx);
}

template <typename launch_arg_t = empty_t, typename input_it,
          typename segments_it, typename scatter_it, typename output_it>
void interval_scatter(input_it input, int count, segments_it segments,
                      int num_segments, scatter_it scatter, output_it output,
                      context_t& ctx) {
  transform_lbs<launch_arg_t>(
      [=] __device__(int index, int, int rank, auto cached) {
        output[cuda::std::get<0>(cached) + rank] = input[index];
      },
      count, segments, num_segments, cuda::std::make_tuple(scatter), ctx);
}

template <typename launch_arg_t = empty_t, typename input_it,
          typename segments_it, typename scatter_it, typename gather_it,
          typename output_it>
void interval_move(input_it input, int count, segments_it segments,
                   int num_segments, scatter_it scatter, gather_it gather,
                   output_it output, context_t& ctx) {
  transform_lbs<launch_arg_t>(
      [=] __device__(int index, int, int rank, auto cached) {
        output[cuda::std::get<0>(cached) + rank] =
            input[cuda::std::get<1>(cached) + rank];
      },
      count, segments, num_segments, cuda::std::make_tuple(scatter, gather), ctx);
}

}  // namespace gpu
}  // namespace attu
