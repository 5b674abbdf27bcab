// backend_gpu_partition.cu: the GPU backend's partition (backend.h), one
// radix_partition pass (gpu/patterns/partition.cuh) per column moved, every
// pass ranking the same int64 keys, so every column lands in the same
// order; and its count_keys (gpu/patterns/key_count.cuh: tiles ordered by
// run, then a block a run counting in shared memory). Its own translation
// unit: the onesweep kernel's instantiations
// for 1-, 4- and 8-byte values compile apart from the rest of the backend.
#include "gpu/backend/backend_gpu_internal.cuh"
#include "gpu/patterns/key_count.cuh"
#include "gpu/patterns/partition.cuh"

namespace attu {
namespace gpu_backend {

namespace {

// The keys less the base are partner rows (below 2^31, backend.h): they
// rank as int32 (a tile of 32-bit keys) and are written as int64 rows.
template <typename in_t, typename val_t>
void move_column(const in_t* keys, long long base, int64_t* keys_out, const void* src, void* dst, size_t n, int shift,
                 context_t& ctx) {
  radix_partition<int, in_t, val_t, long long>(keys, base, reinterpret_cast<long long*>(keys_out),
                                               static_cast<const val_t*>(src), static_cast<val_t*>(dst), n, shift, ctx);
}

template <typename in_t>
void move(size_t width, const in_t* keys, long long base, int64_t* keys_out, const void* src, void* dst, size_t n,
          int shift, context_t& ctx) {
  switch (width) {
    case 1: move_column<in_t, uint8_t>(keys, base, keys_out, src, dst, n, shift, ctx); break;
    case 4: move_column<in_t, uint32_t>(keys, base, keys_out, src, dst, n, shift, ctx); break;
    default: move_column<in_t, uint64_t>(keys, base, keys_out, src, dst, n, shift, ctx); break;
  }
}

// Every column by the same keys: the first pass writes the keys too (with
// no column, a keys-only pass writes them).
template <typename in_t>
void move_all(const in_t* k, long long base, int64_t* ko, size_t n, int shift, int ncols, const attu_gather_col* cols,
              context_t& ctx) {
  if (!ncols && ko) radix_partition_keys<int, in_t, long long>(k, base, reinterpret_cast<long long*>(ko), n, shift, ctx);
  for (int c = 0; c < ncols; ++c) {
    move<in_t>(cols[c].width, k, base, c == 0 ? ko : nullptr, cols[c].src->ptr, cols[c].dst->ptr, n, shift, ctx);
    if (cols[c].src_valid && cols[c].dst_valid)
      move<in_t>(1, k, base, nullptr, cols[c].src_valid->ptr, cols[c].dst_valid->ptr, n, shift, ctx);
  }
}

}  // namespace

int gpu_partition(attu_backend* be, const attu_vec* keys, int64_t key_base, size_t n, int shift, attu_buf* keys_out,
                  size_t keys_width, int ncols, const attu_gather_col* cols, attu_error* err) {
  const attu_type_id kt = keys->type.id;
  const bool k32 = kt == ATTU_TYPE_INT32 || kt == ATTU_TYPE_DATE;
  const bool k64 = kt == ATTU_TYPE_INT64 || attu_type_is_int64_datetime(kt);
  // the keys rank as int32 (k = key - key_base below 2^31, backend.h): a
  // digit inside their 31 bits
  if (shift < 0 || shift > 23 || n > 0x7fffffffull || (!k32 && !k64)) return 1;
  if (keys_width != 8 && (keys_width != 4 || ncols)) return 1;
  for (int c = 0; c < ncols; ++c)
    if (cols[c].width != 1 && cols[c].width != 4 && cols[c].width != 8) return 1;
  if (n == 0) return 0;
  if (attu_backend_interrupted(err)) return -1;
  return guarded(err, [&] {
    context_t& ctx = CTX(be);
    if (keys_width == 4 && keys_out) {
      // the keys alone, written as int32 rows
      int* ko32 = static_cast<int*>(keys_out->ptr);
      if (k32)
        radix_partition_keys<int, int32_t, int>(static_cast<const int32_t*>(keys->data->ptr), (long long)key_base,
                                                ko32, n, shift, ctx);
      else
        radix_partition_keys<int, long long, int>(static_cast<const long long*>(keys->data->ptr), (long long)key_base,
                                                  ko32, n, shift, ctx);
      return;
    }
    int64_t* ko = keys_out ? static_cast<int64_t*>(keys_out->ptr) : nullptr;
    if (k32)
      move_all(static_cast<const int32_t*>(keys->data->ptr), (long long)key_base, ko, n, shift, ncols, cols, ctx);
    else
      move_all(static_cast<const long long*>(keys->data->ptr), (long long)key_base, ko, n, shift, ncols, cols, ctx);
  });
}

int gpu_count_keys(attu_backend* be, const attu_vec* keys, int64_t key_base, size_t n, attu_buf* counts,
                   size_t nkeys, attu_error* err) {
  const attu_type_id kt = keys->type.id;
  const bool k32 = kt == ATTU_TYPE_INT32 || kt == ATTU_TYPE_DATE;
  const bool k64 = kt == ATTU_TYPE_INT64 || attu_type_is_int64_datetime(kt);
  if ((!k32 && !k64) || n > 0x7fffffffull - 65536 || nkeys > 0x7fffffffull - 65536) return 1;
  if (nkeys == 0) return 0;
  if (attu_backend_interrupted(err)) return -1;
  return guarded(err, [&] {
    context_t& ctx = CTX(be);
    int* out = static_cast<int*>(counts->ptr);
    // ATTU_KEY_COUNT_REGIONS=0: the pieces form alone (comparisons)
    static const bool regions = [] {
      const char* e = getenv("ATTU_KEY_COUNT_REGIONS");
      return !(e && e[0] == '0');
    }();
    if (k32)
      count_keys<int32_t>(static_cast<const int32_t*>(keys->data->ptr), (long long)key_base, n, out, nkeys, ctx,
                          regions);
    else
      count_keys<long long>(static_cast<const long long*>(keys->data->ptr), (long long)key_base, n, out, nkeys, ctx,
                            regions);
  });
}

}  // namespace gpu_backend
}  // namespace attu
