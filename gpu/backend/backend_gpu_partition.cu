// backend_gpu_partition.cu: the GPU backend's partition (backend.h), one
// radix_partition pass (gpu/patterns/partition.cuh) per column moved, every
// pass ranking the same int64 keys, so every column lands in the same
// order. Its own translation unit: the onesweep kernel's instantiations
// for 1-, 4- and 8-byte values compile apart from the rest of the backend.
#include "gpu/backend/backend_gpu_internal.cuh"
#include "gpu/patterns/partition.cuh"

namespace attu {
namespace gpu_backend {

namespace {

template <typename val_t>
void move_column(const int64_t* keys, int64_t* keys_out, const void* src, void* dst, size_t n, int shift,
                 context_t& ctx) {
  radix_partition(reinterpret_cast<const long long*>(keys), reinterpret_cast<long long*>(keys_out),
                  static_cast<const val_t*>(src), static_cast<val_t*>(dst), n, shift, ctx);
}

void move(size_t width, const int64_t* keys, int64_t* keys_out, const void* src, void* dst, size_t n, int shift,
          context_t& ctx) {
  switch (width) {
    case 1: move_column<uint8_t>(keys, keys_out, src, dst, n, shift, ctx); break;
    case 4: move_column<uint32_t>(keys, keys_out, src, dst, n, shift, ctx); break;
    default: move_column<uint64_t>(keys, keys_out, src, dst, n, shift, ctx); break;
  }
}

}  // namespace

int gpu_partition(attu_backend* be, const attu_buf* keys, size_t n, int shift, attu_buf* keys_out, int ncols,
                  const attu_gather_col* cols, attu_error* err) {
  if (shift < 0 || shift > 56 || n > 0x7fffffffull) return 1;
  for (int c = 0; c < ncols; ++c)
    if (cols[c].width != 1 && cols[c].width != 4 && cols[c].width != 8) return 1;
  if (n == 0) return 0;
  if (attu_backend_interrupted(err)) return -1;
  return guarded(err, [&] {
    context_t& ctx = CTX(be);
    const int64_t* k = static_cast<const int64_t*>(keys->ptr);
    int64_t* ko = keys_out ? static_cast<int64_t*>(keys_out->ptr) : nullptr;
    // the keys travel with the first value moved (or alone, as 8-byte values)
    if (!ncols) move(8, k, nullptr, k, ko, n, shift, ctx);
    for (int c = 0; c < ncols; ++c) {
      move(cols[c].width, k, c == 0 ? ko : nullptr, cols[c].src->ptr, cols[c].dst->ptr, n, shift, ctx);
      if (cols[c].src_valid && cols[c].dst_valid)
        move(1, k, nullptr, cols[c].src_valid->ptr, cols[c].dst_valid->ptr, n, shift, ctx);
    }
  });
}

}  // namespace gpu_backend
}  // namespace attu
