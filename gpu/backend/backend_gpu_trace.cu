// backend_gpu_trace.cu: ATTU_GPU_TRACE=1 wraps every primitive of the GPU
// backend so that each call prints its name and wall time to stderr, with
// the device synchronized at the end of the call (so the time includes the
// work the call queued). A diagnostic for where a query's stages spend
// their time (EXPLAIN ANALYZE gives stages, this gives primitives); it
// slows everything down and is never on by default.
#include <chrono>
#include <cstdio>

#include "gpu/backend/backend_gpu_internal.cuh"

namespace attu {
namespace gpu_backend {
namespace {

template <typename F>
struct traced;

// One wrapper per primitive: the original function lives in `orig`.
template <typename R, typename... A>
struct traced<R (*)(A...)> {
  template <R (**orig)(A...), const char* name>
  static R call(A... args) {
    auto t0 = std::chrono::steady_clock::now();
    R r = (*orig)(args...);
    cudaError_t e = cudaDeviceSynchronize();
    double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    std::fprintf(stderr, "[gpu] %-16s %9.3f ms%s\n", name, ms, e == cudaSuccess ? "" : " (CUDA error)");
    return r;
  }
};

#define ATTU_TRACED(m)                                                              \
  static decltype(attu_backend::m) orig_##m;                                        \
  static constexpr char name_##m[] = #m;                                            \
  void trace_##m(attu_backend* be) {                                                \
    if (!be->m) return;                                                             \
    orig_##m = be->m;                                                               \
    be->m = &traced<decltype(attu_backend::m)>::template call<&orig_##m, name_##m>; \
  }

ATTU_TRACED(alloc)
ATTU_TRACED(upload)
ATTU_TRACED(download)
ATTU_TRACED(download_many)
ATTU_TRACED(fill)
ATTU_TRACED(iota)
ATTU_TRACED(gather)
ATTU_TRACED(gather_cols)
ATTU_TRACED(scatter)
ATTU_TRACED(eval)
ATTU_TRACED(compact)
ATTU_TRACED(sort)
ATTU_TRACED(sort_heads)
ATTU_TRACED(top_k)
ATTU_TRACED(segment_heads)
ATTU_TRACED(segreduce)
ATTU_TRACED(scan)
ATTU_TRACED(reduce)
ATTU_TRACED(sorted_search)
ATTU_TRACED(inner_join)
ATTU_TRACED(lbs)
ATTU_TRACED(lbs_segreduce)
ATTU_TRACED(segmented_sort)
ATTU_TRACED(key_encode)
ATTU_TRACED(window_rank)
ATTU_TRACED(group_dense)
ATTU_TRACED(dense_runs)
ATTU_TRACED(dense_index)
ATTU_TRACED(dense_probe)
#undef ATTU_TRACED

}  // namespace

// The wrappers keep one set of originals: tracing is for one GPU backend
// per process (bench_query, attud), which is how it is used.
void install_trace(attu_backend* be) {
  for (auto f : {trace_alloc, trace_upload, trace_download, trace_download_many, trace_fill, trace_iota, trace_gather, trace_gather_cols,
                 trace_scatter, trace_eval, trace_compact, trace_sort, trace_sort_heads, trace_top_k, trace_segment_heads,
                 trace_segreduce, trace_scan, trace_reduce, trace_sorted_search, trace_inner_join,
                 trace_lbs, trace_lbs_segreduce, trace_segmented_sort, trace_key_encode, trace_window_rank,
                 trace_group_dense, trace_dense_runs, trace_dense_index, trace_dense_probe})
    f(be);
}

}  // namespace gpu_backend
}  // namespace attu
