// backend_gpu_internal.cuh: what the GPU backend's translation units share
// (backend_gpu.cu: memory, movement, scans, joins, the constructor;
// backend_gpu_compute.cu: sorts, segment heads, reductions, key encoding
// and the host-staged primitives; backend_gpu_partition.cu: partition). Not a public header.
#pragma once

#include "gpu/backend/backend_gpu.h"

#include <atomic>
#include <new>
#include <stdexcept>

#include "gpu/patterns/patterns.cuh"

namespace attu {
namespace gpu_backend {

using namespace attu::gpu;

// The backend's state. Invariant: `used` is the sum of the bytes of every
// attu_buf handed out by gpu_alloc and not yet freed; gpu_alloc refuses
// (53200) an allocation that would take it past `budget`. Pattern scratch
// comes from the same pool but is short-lived and not counted.
struct gpu_impl {
  context_t ctx;
  char name[320];
  size_t budget = 0;
  std::atomic<size_t> used{0};
  // The CPU backend that runs the host-staged primitives (eval,
  // lbs_segreduce, reduce, segreduce's rank aggregates) on copies of the
  // device buffers: the reference semantics, byte for byte.
  attu_backend* host = nullptr;
  // eval runs programs of the numeric subset on the device (expr_device.cuh)
  // when set: on unless ATTU_GPU_EVAL=0 at creation (every SQL logic test
  // passed with it on an H100, docs/testing.md).
  bool device_eval = true;
  // lbs_segreduce runs on the device (one warp per segment) when its
  // program and reductions are in the device subset: on unless
  // ATTU_GPU_LBS=0 at creation (then it is staged through the host).
  bool device_lbs = true;
};

inline gpu_impl* IMPL(attu_backend* be) { return static_cast<gpu_impl*>(be->impl); }
inline context_t& CTX(attu_backend* be) { return IMPL(be)->ctx; }

// Downloads through a pinned host buffer, one per thread, kept and grown
// between calls: device-to-host copies into it run asynchronously, so
// several share one synchronization.
constexpr size_t kStagingMaxBytes = (size_t)64 << 20;
// The bytes n copies take in the pinned buffer (each aligned to 16).
size_t staged_bytes(int n, const size_t* bytes);
// host[i] <- bytes[i] bytes at dev[i], for i < n, through the pinned buffer
// with one synchronization (at most kStagingMaxBytes in all: the caller
// checks). Throws on a CUDA error (callers run it guarded).
void download_staged(attu_backend* be, int n, void* const* host, const void* const* dev, const size_t* bytes);
inline int64_t* I64(const attu_buf* b) { return static_cast<int64_t*>(b->ptr); }

// Thrown inside guarded bodies when an attu_error was already set.
struct already_set_t {};
// Thrown when a device float sum may overflow: guarded() returns
// kFloatRisk and the caller reruns the host reference.
struct float_risk_t {};
constexpr int kFloatRisk = -2;

// Runs body(); maps exceptions to attu_error (53200 for device or host
// memory exhaustion, XX000 with CUDA's file:line message otherwise).
// Returns 0 or -1.
template <typename body_t>
int guarded(attu_error* err, body_t body) {
  try {
    body();
    return 0;
  } catch (const already_set_t&) {
    return -1;
  } catch (const float_risk_t&) {
    return kFloatRisk;
  } catch (const cuda_error& e) {
    if (e.code == cudaErrorMemoryAllocation) {
      cudaGetLastError();  // not sticky; clear it for the next call
      return attu_error_set(err, ATTU_SQLSTATE_OUT_OF_MEMORY, 0,
                            "out of GPU memory (%s)", e.what());
    }
    return attu_error_set(err, "XX000", 0, "GPU backend: %s", e.what());
  } catch (const std::bad_alloc&) {
    return attu_error_oom(err);
  } catch (const std::length_error& e) {
    return attu_error_set(err, "54000", 0, "GPU backend: %s", e.what());
  } catch (const std::exception& e) {
    return attu_error_set(err, "XX000", 0, "GPU backend: %s", e.what());
  }
}

// transform_compact's downsweep behaviour that writes each kept index
// (out[dest] = source), as int64 row numbers or int32 positions.
struct store_index_t {
  template <typename T>
  __device__ void operator()(int dst, int src, T* out) const { out[dst] = (T)src; }
};

// Defined in backend_gpu.cu.
attu_buf* gpu_alloc(attu_backend* be, size_t bytes, attu_error* err);
void gpu_free(attu_backend* be, attu_buf* b);

// Defined in backend_gpu_partition.cu (backend.h's partition).
int gpu_partition(attu_backend* be, const attu_vec* keys, int64_t key_base, size_t n, int shift, attu_buf* keys_out,
                  size_t keys_width, int ncols, const attu_gather_col* cols, attu_error* err);
// Defined there too (backend.h's count_keys).
int gpu_count_keys(attu_backend* be, const attu_vec* keys, int64_t key_base, size_t n, attu_buf* counts,
                   size_t nkeys, attu_error* err);
// Defined in backend_gpu_compute.cu: fills the compute entries of the table.
void install_compute(attu_backend* be);
// ATTU_GPU_TRACE=1: every primitive prints its wall time (backend_gpu_trace.cu).
void install_trace(attu_backend* be);

}  // namespace gpu_backend
}  // namespace attu
