// context.cuh: the execution context every pattern runs in, and CUDA error
// checking.
//
// A context_t owns (or borrows) one CUDA stream, an event for timing, and
// allocates temporaries from the device's stream-ordered memory pool
// (cudaMallocAsync / cudaFreeAsync on that stream), so a pattern's scratch
// space costs no device synchronization. Every CUDA call in the library goes
// through ATTU_CUDA_CHECK, which throws attu::gpu::cuda_error carrying the
// failing expression, file and line.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <string>

namespace attu {
namespace gpu {

// A pattern's A/B switch (ATTU_SCAN_VECTOR, ATTU_LBS_PDL, ...), for the
// bench and the tests: default_on, the variable turns it off with "0";
// otherwise it turns it on with "1". Each switch reads it once, into a
// static that the bench and tests then set directly.
inline bool env_switch(const char* name, bool default_on) {
  const char* e = getenv(name);
  return default_on ? !(e && *e == '0') : (e && *e == '1');
}

// An error from the CUDA runtime: code plus "file:line: expr: message".
struct cuda_error : std::runtime_error {
  cudaError_t code;
  cuda_error(cudaError_t c, const std::string& what)
      : std::runtime_error(what), code(c) {}
};

inline void check_cuda(cudaError_t e, const char* expr, const char* file,
                       int line) {
  if (e == cudaSuccess) return;
  (void)cudaGetLastError();  // clear the sticky-free error state
  throw cuda_error(e, std::string(file) + ":" + std::to_string(line) + ": " +
                          expr + ": " + cudaGetErrorName(e) + ": " +
                          cudaGetErrorString(e));
}

#define ATTU_CUDA_CHECK(expr) \
  ::attu::gpu::check_cuda((expr), #expr, __FILE__, __LINE__)
// After a kernel launch: reports launch configuration errors at the call site.
#define ATTU_CUDA_CHECK_LAUNCH() \
  ::attu::gpu::check_cuda(cudaGetLastError(), "kernel launch", __FILE__, __LINE__)

class context_t {
 public:
  // Borrow `stream` (0 = the legacy default stream is not used: a private
  // non-blocking stream is created instead).
  explicit context_t(cudaStream_t stream = 0) : stream_(stream) {
    ATTU_CUDA_CHECK(cudaGetDevice(&device_));
    ATTU_CUDA_CHECK(cudaGetDeviceProperties(&props_, device_));
    ptx_version_ = props_.major * 100 + props_.minor * 10;
    if (!stream_) {
      ATTU_CUDA_CHECK(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking));
      own_stream_ = true;
    }
    ATTU_CUDA_CHECK(cudaEventCreate(&event_));
    ATTU_CUDA_CHECK(cudaEventCreate(&timer_[0]));
    ATTU_CUDA_CHECK(cudaEventCreate(&timer_[1]));
    // Keep freed pool memory cached instead of returning it to the driver at
    // every synchronization: patterns allocate scratch on every call.
    ATTU_CUDA_CHECK(cudaDeviceGetDefaultMemPool(&pool_, device_));
    uint64_t threshold = UINT64_MAX;
    ATTU_CUDA_CHECK(cudaMemPoolSetAttribute(
        pool_, cudaMemPoolAttrReleaseThreshold, &threshold));
  }
  ~context_t() {
    if (warp_chunk_words_) cudaFreeAsync(warp_chunk_words_, stream_);
    for (lookback_buffer_t& b : lookback_)
      if (b.p) cudaFreeAsync(b.p, stream_);
    cudaEventDestroy(timer_[1]);
    cudaEventDestroy(timer_[0]);
    cudaEventDestroy(event_);
    if (own_stream_) {
      cudaStreamSynchronize(stream_);
      cudaStreamDestroy(stream_);
    }
  }
  context_t(const context_t&) = delete;
  context_t& operator=(const context_t&) = delete;

  const cudaDeviceProp& props() const { return props_; }
  // Compute capability as 100*major + 10*minor (900 on Hopper), the key the
  // launch boxes are chosen by on the host.
  int ptx_version() const { return ptx_version_; }
  int sm_count() const { return props_.multiProcessorCount; }
  int device() const { return device_; }
  cudaStream_t stream() const { return stream_; }
  cudaEvent_t event() const { return event_; }

  // Stream-ordered allocation: valid for work queued on stream() after this
  // call. Zero bytes yields nullptr.
  void* alloc(size_t bytes) {
    if (!bytes) return nullptr;
    void* p = nullptr;
    ATTU_CUDA_CHECK(cudaMallocAsync(&p, bytes, stream_));
    return p;
  }
  void free(void* p) {
    if (p) ATTU_CUDA_CHECK(cudaFreeAsync(p, stream_));
  }
  // The look-back tile status kept between calls (lookback.cuh): two
  // buffers used in turn; key names the layout whose words were marked
  // "not yet set", clean how many tiles' words are.
  struct lookback_buffer_t {
    void* p = nullptr;
    size_t bytes = 0;
    long long key = 0;
    long long clean = 0;
  };
  lookback_buffer_t& lookback_buffer(int i) { return lookback_[i]; }
  int lookback_turn() { return lookback_turn_ ^= 1; }
  // Two device words kept zero between calls of the warp paths' chunk
  // kernels (warp_segments.cuh: the listed count and the finished blocks;
  // the chunk kernel's last block zeroes them again), so a call needs no
  // memset on the stream. Zeroed once, on first use, in stream order.
  int* warp_chunk_words() {
    if (!warp_chunk_words_) {
      ATTU_CUDA_CHECK(cudaMallocAsync((void**)&warp_chunk_words_, 2 * sizeof(int), stream_));
      ATTU_CUDA_CHECK(cudaMemsetAsync(warp_chunk_words_, 0, 2 * sizeof(int), stream_));
    }
    return warp_chunk_words_;
  }
  void synchronize() { ATTU_CUDA_CHECK(cudaStreamSynchronize(stream_)); }

  // Stream timer: elapsed milliseconds between timer_begin and timer_end.
  void timer_begin() { ATTU_CUDA_CHECK(cudaEventRecord(timer_[0], stream_)); }
  double timer_end() {
    ATTU_CUDA_CHECK(cudaEventRecord(timer_[1], stream_));
    ATTU_CUDA_CHECK(cudaEventSynchronize(timer_[1]));
    float ms = 0;
    ATTU_CUDA_CHECK(cudaEventElapsedTime(&ms, timer_[0], timer_[1]));
    return ms;
  }

 private:
  cudaStream_t stream_ = 0;
  bool own_stream_ = false;
  int device_ = 0;
  int ptx_version_ = 0;
  cudaDeviceProp props_{};
  cudaEvent_t event_ = nullptr;
  cudaEvent_t timer_[2] = {nullptr, nullptr};
  cudaMemPool_t pool_ = nullptr;
  lookback_buffer_t lookback_[2];
  int lookback_turn_ = 0;
  int* warp_chunk_words_ = nullptr;
};

// True when at least one CUDA device is usable (tests skip otherwise).
inline bool cuda_device_available() {
  int n = 0;
  if (cudaGetDeviceCount(&n) != cudaSuccess) {
    (void)cudaGetLastError();
    return false;
  }
  return n > 0;
}

}  // namespace gpu
}  // namespace attu
