// memory.cuh: RAII device buffers (mem_t) and pinned host buffers (pinned_t).
//
// mem_t<T> owns `size` elements of device memory taken from the context's
// stream-ordered pool; it is move-only and frees (stream-ordered) on
// destruction, so a temporary can die while kernels that use it are still
// queued on the same stream. Host copies go through the context's stream.
#pragma once

#include "gpu/patterns/context.cuh"

#include <cstring>
#include <utility>
#include <vector>

namespace attu {
namespace gpu {

template <typename T>
class mem_t {
 public:
  mem_t() = default;
  mem_t(size_t size, context_t& ctx)
      : ctx_(&ctx), size_(size),
        data_(static_cast<T*>(ctx.alloc(size * sizeof(T)))) {}
  mem_t(mem_t&& o) noexcept { swap(o); }
  mem_t& operator=(mem_t&& o) noexcept {
    mem_t tmp(std::move(o));
    swap(tmp);
    return *this;
  }
  mem_t(const mem_t&) = delete;
  mem_t& operator=(const mem_t&) = delete;
  ~mem_t() { reset(); }

  void reset() {
    if (data_) cudaFreeAsync(data_, ctx_->stream());  // no throw in dtor
    data_ = nullptr;
    size_ = 0;
  }
  void swap(mem_t& o) noexcept {
    std::swap(ctx_, o.ctx_);
    std::swap(size_, o.size_);
    std::swap(data_, o.data_);
  }

  T* data() const { return data_; }
  size_t size() const { return size_; }
  context_t& context() const { return *ctx_; }

  // Copies to a host vector (synchronizes the stream).
  std::vector<T> to_host() const {
    std::vector<T> h(size_);
    if (size_) {
      ATTU_CUDA_CHECK(cudaMemcpyAsync(h.data(), data_, size_ * sizeof(T),
                                      cudaMemcpyDeviceToHost, ctx_->stream()));
    }
    ctx_->synchronize();
    return h;
  }
  // Fills every byte with `byte` (tests poison outputs with 0xff, say).
  void memset(int byte) {
    if (size_) {
      ATTU_CUDA_CHECK(cudaMemsetAsync(data_, byte, size_ * sizeof(T), ctx_->stream()));
    }
  }

 private:
  context_t* ctx_ = nullptr;
  size_t size_ = 0;
  T* data_ = nullptr;
};

// Small host-to-device copies without a synchronization: the bytes go
// into a page-locked ring (one per thread) and the copy is queued from
// there, so the caller's host range may die on return while the copy is
// still queued. The ring is kSegs segments, each with an event recorded
// behind its latest copy; a segment is reused only once that event has
// completed (in practice long before: 8 x 64 KB of uploads ago). A kernel's
// specs, an expression program, a handful of values: each upload used to
// wait for the whole stream to drain first.
class upload_ring_t {
 public:
  enum { kSegs = 8, kSegBytes = 64 << 10 };
  ~upload_ring_t() {
    // at thread exit; errors then have no one to go to
    for (int i = 0; i < kSegs; ++i)
      if (ev_[i]) cudaEventDestroy(ev_[i]);
    if (buf_) cudaFreeHost(buf_);
  }
  // Queues host[0, bytes) -> dev on `stream`; false (nothing done) when
  // the copy is larger than a segment.
  bool put(void* dev, const void* host, size_t bytes, cudaStream_t stream) {
    if (bytes > kSegBytes) return false;
    if (!buf_) {
      ATTU_CUDA_CHECK(cudaMallocHost(&buf_, (size_t)kSegs * kSegBytes));
      for (int i = 0; i < kSegs; ++i) ATTU_CUDA_CHECK(cudaEventCreateWithFlags(&ev_[i], cudaEventDisableTiming));
    }
    // a full segment, or one whose copies went to another stream, is
    // left for the next one, taken once its event says its copies are done
    if (off_ + bytes > kSegBytes || (off_ && stream != stream_)) {
      seg_ = (seg_ + 1) % kSegs;
      off_ = 0;
      if (used_[seg_]) ATTU_CUDA_CHECK(cudaEventSynchronize(ev_[seg_]));
    }
    char* p = buf_ + (size_t)seg_ * kSegBytes + off_;
    memcpy(p, host, bytes);
    ATTU_CUDA_CHECK(cudaMemcpyAsync(dev, p, bytes, cudaMemcpyHostToDevice, stream));
    // recorded behind every copy, while its stream surely lives (a
    // context's stream dies with the context; an event recorded later on
    // it would be recorded on a destroyed stream)
    ATTU_CUDA_CHECK(cudaEventRecord(ev_[seg_], stream));
    used_[seg_] = true;
    stream_ = stream;
    off_ = (off_ + bytes + 15) & ~(size_t)15;
    return true;
  }

 private:
  char* buf_ = nullptr;
  cudaEvent_t ev_[kSegs] = {};
  bool used_[kSegs] = {};
  int seg_ = 0;
  size_t off_ = 0;
  cudaStream_t stream_ = 0;
};

// host[0, bytes) -> dev on the context's stream; the host range may die on
// return (small copies through the thread's upload ring, larger ones
// waited for).
inline void upload_bytes(void* dev, const void* host, size_t bytes, context_t& ctx) {
  if (!bytes) return;
  static thread_local upload_ring_t ring;
  if (ring.put(dev, host, bytes, ctx.stream())) return;
  ATTU_CUDA_CHECK(cudaMemcpyAsync(dev, host, bytes, cudaMemcpyHostToDevice, ctx.stream()));
  ctx.synchronize();
}

// Uploads a host range to a new device buffer (stream-ordered; the host
// range may die on return).
template <typename T>
mem_t<T> to_mem(const T* host, size_t n, context_t& ctx) {
  mem_t<T> m(n, ctx);
  upload_bytes(m.data(), host, n * sizeof(T), ctx);
  return m;
}
template <typename T>
mem_t<T> to_mem(const std::vector<T>& host, context_t& ctx) {
  return to_mem(host.data(), host.size(), ctx);
}
template <typename T>
std::vector<T> from_mem(const mem_t<T>& m) { return m.to_host(); }

// Copies n elements device -> host and synchronizes.
template <typename T>
void dtoh(T* host, const T* dev, size_t n, context_t& ctx) {
  if (!n) return;
  ATTU_CUDA_CHECK(cudaMemcpyAsync(host, dev, n * sizeof(T),
                                  cudaMemcpyDeviceToHost, ctx.stream()));
  ctx.synchronize();
}

// Page-locked host memory, mapped into the device address space (UVA), so a
// kernel can store a scalar result the host reads after an event
// (scan_event).
template <typename T>
class pinned_t {
 public:
  explicit pinned_t(size_t size = 1) : size_(size) {
    ATTU_CUDA_CHECK(cudaHostAlloc(reinterpret_cast<void**>(&data_),
                                  size * sizeof(T), cudaHostAllocMapped));
  }
  ~pinned_t() { if (data_) cudaFreeHost(data_); }
  pinned_t(const pinned_t&) = delete;
  pinned_t& operator=(const pinned_t&) = delete;
  T* data() const { return data_; }
  T& operator[](size_t i) const { return data_[i]; }
  size_t size() const { return size_; }

 private:
  size_t size_ = 0;
  T* data_ = nullptr;
};

}  // namespace gpu
}  // namespace attu
