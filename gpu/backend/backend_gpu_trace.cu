// backend_gpu_trace.cu: ATTU_GPU_TRACE=1 wraps every primitive of the GPU
// backend so that each call prints its name and wall time to stderr, with
// the device synchronized at the end of the call (so the time includes the
// work the call queued). A diagnostic for where a query's stages spend
// their time (EXPLAIN ANALYZE gives stages, this gives primitives); it
// slows everything down and is never on by default.
//
// ATTU_GPU_TRACE=timeline instead leaves the stream unsynchronized: each
// call records two events around itself and its host entry and exit, and
// the records of a query are printed when its results come down
// (download_many, the executor's last call): per call the host time, the
// GPU time between its events, and the gap the GPU sat idle before it,
// then the query's wall time against the GPU's busy time. What a query
// loses to launches, read-backs and host work is the difference.
#include <chrono>
#include <cstdio>
#include <cstring>
#include <vector>

#include "gpu/backend/backend_gpu_internal.cuh"

namespace attu {
namespace gpu_backend {
namespace {

template <typename F>
struct traced;

bool g_timeline = false;

struct span {
  const char* name;
  double h0, h1;          // host entry and exit, ms on the steady clock
  cudaEvent_t e0, e1;
};
thread_local std::vector<span> t_spans;
thread_local std::vector<cudaEvent_t> t_free_events;

double now_ms() {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

cudaEvent_t take_event() {
  if (!t_free_events.empty()) {
    cudaEvent_t e = t_free_events.back();
    t_free_events.pop_back();
    return e;
  }
  cudaEvent_t e = nullptr;
  if (cudaEventCreate(&e) != cudaSuccess) return nullptr;
  return e;
}

// Prints the spans gathered since the last flush and recycles their events.
void flush_timeline() {
  if (t_spans.empty()) return;
  cudaEventSynchronize(t_spans.back().e1);
  double h_first = t_spans.front().h0, busy = 0, host_sum = 0, stages = 0;
  float prev_end = 0;
  std::fprintf(stderr, "[timeline] %zu calls\n", t_spans.size());
  for (size_t i = 0; i < t_spans.size(); i++) {
    span& s = t_spans[i];
    float g0 = 0, g1 = 0;
    cudaEventElapsedTime(&g0, t_spans.front().e0, s.e0);
    cudaEventElapsedTime(&g1, t_spans.front().e0, s.e1);
    double gap = i ? g0 - prev_end : 0;
    std::fprintf(stderr, "[timeline] %-16s host %+8.3f %7.3f ms  gpu %+8.3f %7.3f ms  idle-before %7.3f\n", s.name,
                 s.h0 - h_first, s.h1 - s.h0, g0, g1 - g0, gap > 0 ? gap : 0.0);
    busy += g1 - g0;
    // the stages: every call but the buffers' bookkeeping (alloc / free
    // queue no kernel; their spans are the events' own spacing)
    if (std::strcmp(s.name, "alloc") && std::strcmp(s.name, "free")) stages += g1 - g0;
    host_sum += s.h1 - s.h0;
    if (g1 > prev_end) prev_end = g1;
    t_free_events.push_back(s.e0);
    t_free_events.push_back(s.e1);
  }
  double wall = t_spans.back().h1 - h_first;
  std::fprintf(stderr, "[timeline] wall %.3f ms, gpu span %.3f ms, gpu busy %.3f ms (stages %.3f ms), in calls %.3f ms\n",
               wall, (double)prev_end, busy, stages, host_sum);
  t_spans.clear();
}

// One wrapper per primitive: the original function lives in `orig`.
template <typename R, typename... A>
struct traced<R (*)(A...)> {
  template <R (**orig)(A...), const char* name>
  static R call(A... args) {
    if (g_timeline) return timeline_call<orig, name>(args...);
    auto t0 = std::chrono::steady_clock::now();
    R r = (*orig)(args...);
    cudaError_t e = cudaDeviceSynchronize();
    double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    std::fprintf(stderr, "[gpu] %-16s %9.3f ms%s\n", name, ms, e == cudaSuccess ? "" : " (CUDA error)");
    return r;
  }

  template <R (**orig)(A...), const char* name, typename... B>
  static R timeline_call(attu_backend* be, B... rest) {
    span s{name, now_ms(), 0, take_event(), take_event()};
    cudaStream_t st = CTX(be).stream();
    if (s.e0) cudaEventRecord(s.e0, st);
    R r = (*orig)(be, rest...);
    if (s.e1) cudaEventRecord(s.e1, st);
    s.h1 = now_ms();
    if (s.e0 && s.e1) t_spans.push_back(s);
    if (std::strcmp(name, "download_many") == 0) flush_timeline();
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
ATTU_TRACED(select_window)
ATTU_TRACED(select_window_set)
ATTU_TRACED(segment_heads)
ATTU_TRACED(segreduce)
ATTU_TRACED(scan)
ATTU_TRACED(reduce)
ATTU_TRACED(eval_reduce)
ATTU_TRACED(partition)
ATTU_TRACED(count_keys)
ATTU_TRACED(sorted_search)
ATTU_TRACED(inner_join)
ATTU_TRACED(lbs)
ATTU_TRACED(lbs_segreduce)
ATTU_TRACED(segmented_sort)
ATTU_TRACED(key_encode)
ATTU_TRACED(window_rank)
ATTU_TRACED(group_dense)
ATTU_TRACED(partition_first)
ATTU_TRACED(dense_runs)
ATTU_TRACED(dense_index)
ATTU_TRACED(dense_probe)
#undef ATTU_TRACED

}  // namespace

// The wrappers keep one set of originals: tracing is for one GPU backend
// per process (bench_query, attud), which is how it is used.
void install_trace(attu_backend* be) {
  const char* tr = getenv("ATTU_GPU_TRACE");
  g_timeline = tr && std::strcmp(tr, "timeline") == 0;
  for (auto f : {trace_alloc, trace_upload, trace_download, trace_download_many, trace_fill, trace_iota, trace_gather, trace_gather_cols,
                 trace_scatter, trace_eval, trace_compact, trace_sort, trace_sort_heads, trace_top_k, trace_select_window, trace_select_window_set, trace_segment_heads,
                 trace_segreduce, trace_scan, trace_reduce, trace_eval_reduce, trace_partition, trace_count_keys, trace_sorted_search, trace_inner_join,
                 trace_lbs, trace_lbs_segreduce, trace_segmented_sort, trace_key_encode, trace_window_rank,
                 trace_group_dense, trace_partition_first, trace_dense_runs, trace_dense_index, trace_dense_probe})
    f(be);
}

}  // namespace gpu_backend
}  // namespace attu
