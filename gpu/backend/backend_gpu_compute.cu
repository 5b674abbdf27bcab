// backend_gpu_compute.cu: the GPU backend's ordering and aggregation
// primitives, plus the ones it stages through the host.
//
// On the device:
//  - sort / top_k / segmented_sort: the pattern library's stable merge sort
//    (mergesort.cuh, segmented_sort.cuh) over int64 row numbers with a
//    comparator that reads the key columns directly: NULL placement first,
//    then the value in the column's own type (NaN above every number), then
//    direction. Ties compare equal, so stability gives input order, exactly
//    as the CPU backend's merge sort.
//  - segment_heads: one flag per position, compacted (compact.cuh).
//  - key_encode: one transform (the CPU's order-preserving bit image).
//  - segreduce of the streaming aggregates (COUNT(*), COUNT, SUM, MIN, MAX,
//    AVG_SUM, ANY) over many segments: one thread per segment walking its
//    rows in order, so float sums add in the CPU's order and integer
//    overflow (22003) is detected at the same row.
//
// Staged through the host (device buffers copied down, the CPU backend's
// reference code run, outputs copied back): eval and lbs_segreduce (the
// expression interpreter: text through dictionaries, PostgreSQL's casts,
// rounding and error rules), reduce (a single segment gives one device
// thread nothing to share) and segreduce with rank aggregates
// (NTH_SMALLEST/LARGEST[_ARG]) or fewer segments than kMinDeviceSegments.
// Results are therefore identical to the CPU backend's by construction; the
// cost is the transfer, which the executor's plans keep to the columns an
// expression reads.
#include "gpu/backend/backend_gpu_internal.cuh"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <map>
#include <vector>

extern "C" {
#include "engine/expr_program.h"
}
#include "gpu/backend/column_partials.cuh"
#include "gpu/backend/expr_device.cuh"
#include "gpu/backend/expr_jit.cuh"
#include "gpu/backend/lbs_kernel.cuh"
#include "gpu/patterns/mergesort.cuh"
#include "gpu/patterns/sort.cuh"
#include "gpu/patterns/segmented_sort.cuh"

namespace attu {
namespace gpu_backend {

namespace {

constexpr size_t kMaxCount = 0x7fffffff;
// Below this many segments segreduce runs on the host (one device thread
// per segment would leave the GPU idle).
constexpr size_t kMinDeviceSegments = 1024;

// ---- key columns on the device -----------------------------------------------

struct dkey_t {
  int type;
  const void* data;
  const uint8_t* valid;
  int desc;
  int nulls_first;
};

__device__ inline int fcmp_d(double a, double b) {
  if (isnan(a)) return isnan(b) ? 0 : 1;
  if (isnan(b)) return -1;
  return a < b ? -1 : a > b;
}

// attu_cpu_value_cmp on the device.
__device__ inline int value_cmp(int type, const void* d, int64_t i, int64_t j) {
  switch (type) {
    case ATTU_TYPE_BOOL: {
      int a = static_cast<const uint8_t*>(d)[i], b = static_cast<const uint8_t*>(d)[j];
      return (a > b) - (a < b);
    }
    case ATTU_TYPE_INT16:
    case ATTU_TYPE_INT32:
    case ATTU_TYPE_DATE:
    case ATTU_TYPE_TEXT: {
      int32_t a = static_cast<const int32_t*>(d)[i], b = static_cast<const int32_t*>(d)[j];
      return (a > b) - (a < b);
    }
    case ATTU_TYPE_FLOAT32:
      return fcmp_d(static_cast<const float*>(d)[i], static_cast<const float*>(d)[j]);
    case ATTU_TYPE_FLOAT64:
      return fcmp_d(static_cast<const double*>(d)[i], static_cast<const double*>(d)[j]);
    default: {
      int64_t a = static_cast<const int64_t*>(d)[i], b = static_cast<const int64_t*>(d)[j];
      return (a > b) - (a < b);
    }
  }
}

// The CPU backend's key_cmp: NULLs sort greater unless nulls_first; DESC
// inverts only the value comparison.
__device__ inline int rows_cmp(const dkey_t* keys, int nkeys, int64_t i, int64_t j) {
  for (int k = 0; k < nkeys; ++k) {
    const dkey_t& key = keys[k];
    int ni = key.valid && !key.valid[i], nj = key.valid && !key.valid[j];
    if (ni || nj) {
      if (ni && nj) continue;
      int c = ni ? 1 : -1;
      return key.nulls_first ? -c : c;
    }
    int c = value_cmp(key.type, key.data, i, j);
    if (c) return key.desc ? -c : c;
  }
  return 0;
}

struct row_less_t {
  const dkey_t* keys;
  int nkeys;
  __device__ bool operator()(int64_t a, int64_t b) const { return rows_cmp(keys, nkeys, a, b) < 0; }
};

// Scratch (mem_t) is freed in stream order (cudaFreeAsync) and small host
// ranges are staged by upload_bytes, so a primitive whose results stay on
// the device returns without waiting for its kernels: the caller's next
// read-back waits for them all (a sort of 29,510 rows waited five times).
mem_t<dkey_t> upload_keys(const attu_sort_key* keys, int nkeys, context_t& ctx) {
  std::vector<dkey_t> h((size_t)(nkeys > 0 ? nkeys : 0));
  for (int k = 0; k < nkeys; ++k) {
    h[k].type = keys[k].col.type.id;
    h[k].data = keys[k].col.data ? keys[k].col.data->ptr : nullptr;
    h[k].valid = keys[k].col.valid ? static_cast<const uint8_t*>(keys[k].col.valid->ptr) : nullptr;
    h[k].desc = keys[k].desc;
    h[k].nulls_first = keys[k].nulls_first;
  }
  mem_t<dkey_t> d = to_mem(h, ctx);
  return d;
}

// attu_cpu_key_bits on the device (defined with key_encode below).
__device__ inline int64_t key_bits(int type, const void* d, int64_t i);

// Up to four keys: an LSD radix sort over the keys, last key first. Each
// pass gathers the key's order-preserving image (key_bits: -0 ties with 0,
// one NaN above every number, exactly the comparator's order and ties) in
// the current row order and radix-sorts (image, row) pairs stably, so the
// rows the key ties keep the order the later keys gave them; the result is
// the merge sort's, several times faster on large inputs. A key with NULLs
// takes a second pass right after its own: its NULL rows tie in the value
// pass (one image for all), and a pass over the NULL flag alone (NULLS
// FIRST or LAST, whatever the direction) puts them before or after the
// rest, keeping every group's order. (The comparator merge sort they took
// before ran 0.4 ms for the 29,510 rows of the cities query's window keys.)
bool radix_sortable(const attu_sort_key* keys, int nkeys) {
  if (nkeys < 1 || nkeys > 4) return false;
  for (int j = 0; j < nkeys; ++j) {
    if (!keys[j].col.data) return false;
    switch (keys[j].col.type.id) {
      case ATTU_TYPE_BOOL:
      case ATTU_TYPE_INT16:
      case ATTU_TYPE_INT32:
      case ATTU_TYPE_DATE:
      case ATTU_TYPE_TEXT:
      case ATTU_TYPE_INT64:
      case ATTU_TYPE_TIMESTAMP:
      case ATTU_TYPE_TIMESTAMPTZ:
      case ATTU_TYPE_TIME:
      case ATTU_TYPE_TIMETZ:
      case ATTU_TYPE_DECIMAL:
      case ATTU_TYPE_FLOAT32:
      case ATTU_TYPE_FLOAT64: break;
      default: return false;
    }
  }
  return true;
}

// A sort's caller may also want the heads of the runs of equal keys in
// sort order (GROUP BY). When the last radix sort's image orders by all the
// keys (one key, or the packed image of several), the heads come from that
// sorted image, read in order, instead of segment_heads comparing every
// key through the permutation (random reads).
struct heads_request_t {
  attu_backend* be = nullptr;  // null: not wanted
  attu_buf* heads = nullptr;   // set when done
  size_t count = 0;
};

struct image_head_t {
  template <typename img_t>
  __device__ bool operator()(int i, const img_t* o) const {
    return i == 0 || o[i] != o[i - 1];
  }
};

template <typename img_t>
void heads_of_image(context_t& ctx, const img_t* o, size_t n, heads_request_t* hr) {
  auto compact = transform_compact((int)n, ctx);
  int kept = compact.upsweep(image_head_t(), o);
  attu_error err;
  attu_error_clear(&err);
  hr->heads = gpu_alloc(hr->be, (size_t)kept * sizeof(int64_t), &err);
  if (!hr->heads) throw std::bad_alloc();
  compact.downsweep(store_index_t(), I64(hr->heads));
  hr->count = (size_t)kept;
}

// The passes carry the permutation as int32 (n < 2^31 here): 12 or 8 bytes
// an item through each radix pass instead of 16 or 12.
template <typename img_t>
void radix_pass(context_t& ctx, const attu_sort_key& k, int32_t* perm, size_t n, heads_request_t* hr = nullptr) {
  mem_t<img_t> img(n, ctx);
  img_t* o = img.data();
  const int32_t* p = perm;
  int type = k.col.type.id;
  const void* d = k.col.data->ptr;
  const uint8_t* v = k.col.valid ? static_cast<const uint8_t*>(k.col.valid->ptr) : nullptr;
  // NULL rows all get image 0 (their slot may hold anything): they tie
  transform([=] __device__(int i) { o[i] = v && !v[p[i]] ? img_t(0) : (img_t)key_bits(type, d, p[i]); }, (int)n, ctx);
  // Keys whose images lie in [0, 2^b) need only the digits below bit b
  // (their order-preserving bits agree above it, either direction): a
  // BOOL's one bit, a TEXT code below its dictionary's size (the cities
  // query's window sorts by state: one pass pair instead of four passes).
  int end_bit = 8 * (int)sizeof(img_t);
  if (type == ATTU_TYPE_BOOL) end_bit = 1;
  if (type == ATTU_TYPE_TEXT && k.col.dict && k.col.dict->count > 0) {
    end_bit = 1;
    while (end_bit < 31 && ((int64_t)1 << end_bit) < (int64_t)k.col.dict->count) ++end_bit;
  }
  if (k.desc) radix_sort(o, perm, n, greater_t<img_t>(), ctx, end_bit);
  else radix_sort(o, perm, n, less_t<img_t>(), ctx, end_bit);
  if (hr && hr->be) heads_of_image(ctx, (const img_t*)o, n, hr);
}

// The pass over a key's NULL flag after its value pass: NULL rows first or
// last, each side in the order it has.
void null_pass(context_t& ctx, const attu_sort_key& k, int32_t* perm, size_t n) {
  mem_t<int32_t> img(n, ctx);
  int32_t* o = img.data();
  const int32_t* p = perm;
  const uint8_t* v = static_cast<const uint8_t*>(k.col.valid->ptr);
  int32_t null_rank = k.nulls_first ? 0 : 1;
  transform([=] __device__(int i) { o[i] = v[p[i]] ? 1 - null_rank : null_rank; }, (int)n, ctx);
  radix_sort(o, perm, n, less_t<int32_t>(), ctx, 1);  // a one-bit image
}

// Several integer keys (no floats) whose value ranges together fit in 64
// bits, or one 8-byte key whose range fits 32 bits, sort as one: each key's offset from its minimum (its maximum minus
// the value, DESC) in its own bit field, the first key highest, so one
// stable radix sort of the packed image orders the rows as the LSD passes
// over the keys would, in one key's passes instead of one per key. A
// group-by over (c_nation, s_nation, d_year) packs into 13 bits. A key
// with NULLs takes one more bit above its field, its NULL rows the flag
// alone: set for NULLS LAST, clear (and set on the others) for NULLS
// FIRST, whatever the direction; its range counts only non-NULL rows.
// Returns false (nothing done) when the keys do not fit or are not all
// integers.
bool packable(const attu_sort_key& k) {
  switch (k.col.type.id) {
    case ATTU_TYPE_BOOL: case ATTU_TYPE_INT16: case ATTU_TYPE_INT32: case ATTU_TYPE_DATE:
    case ATTU_TYPE_TEXT: case ATTU_TYPE_INT64: case ATTU_TYPE_TIMESTAMP: case ATTU_TYPE_TIMESTAMPTZ: case ATTU_TYPE_TIME: case ATTU_TYPE_TIMETZ: case ATTU_TYPE_DECIMAL: return true;
    default: return false;
  }
}

constexpr int kPackThreads = 256;
struct min_ll_t {
  __device__ long long operator()(long long a, long long b) const { return a < b ? a : b; }
};
struct max_ll_t {
  __device__ long long operator()(long long a, long long b) const { return a > b ? a : b; }
};

// Per key: the minimum and maximum of key_bits (atomics on one pair a key,
// after a block-wide reduction). With `unsorted` (a key without NULLs),
// also whether some row's key comes before the previous row's in the
// key's direction: 0 left there means the rows are in order already.
__global__ void __launch_bounds__(kPackThreads) key_range_kernel(int type, const void* d, const uint8_t* valid,
                                                                 long long n, long long* mm, int desc,
                                                                 int* unsorted) {
  using reduce_t = cub::BlockReduce<long long, kPackThreads>;
  __shared__ typename reduce_t::TempStorage s1, s2;
  long long lo = LLONG_MAX, hi = LLONG_MIN;
  bool out_of_order = false;
  for (long long i = (long long)blockIdx.x * kPackThreads + threadIdx.x; i < n; i += (long long)gridDim.x * kPackThreads) {
    if (valid && !valid[i]) continue;  // a NULL row's slot holds anything
    long long v = key_bits(type, d, i);
    lo = min(lo, v);
    hi = max(hi, v);
    if (unsorted && i > 0) {
      long long prev = key_bits(type, d, i - 1);
      out_of_order |= desc ? prev < v : prev > v;
    }
  }
  if (out_of_order) *unsorted = 1;
  long long blo = reduce_t(s1).Reduce(lo, min_ll_t());
  long long bhi = reduce_t(s2).Reduce(hi, max_ll_t());
  if (!threadIdx.x) {
    atomicMin(mm, blo);
    atomicMax(mm + 1, bhi);
  }
}

struct packed_key_t {
  int type;
  const void* d;
  long long base;  // the minimum (ASC) or maximum (DESC)
  int desc;
  int shift;
  const uint8_t* valid;  // with NULLs: a flag bit above the value's bits
  int bits;              // the value's bits
  int nulls_first;
};
constexpr int kPackMaxKeys = 4;
struct packed_keys_t {
  packed_key_t k[kPackMaxKeys];
  int n;
};

// The packed image of the rows in q's order (img_t: 32 or 64 bits, as the
// fields need), radix-sorted with q.
template <typename img_t>
void packed_sort(context_t& ctx, const packed_keys_t& pk, int32_t* q, size_t n, heads_request_t* hr, int bits,
                 bool in_order) {
  mem_t<img_t> img(n, ctx);
  img_t* o = img.data();
  const int32_t* p = q;
  transform([=] __device__(int i) {
    img_t v = 0;
    for (int j = 0; j < pk.n; ++j) {
      const packed_key_t& k = pk.k[j];
      unsigned long long field;
      if (k.valid && !k.valid[p[i]]) {
        // NULL: the flag alone, set for NULLS LAST, clear for NULLS FIRST
        field = k.nulls_first ? 0ull : 1ull << k.bits;
      } else {
        long long x = key_bits(k.type, k.d, p[i]);
        field = k.desc ? (unsigned long long)k.base - (unsigned long long)x
                       : (unsigned long long)x - (unsigned long long)k.base;
        if (k.valid && k.nulls_first) field |= 1ull << k.bits;  // after the NULLs
      }
      v |= (img_t)(field << k.shift);
    }
    o[i] = v;
  }, (int)n, ctx);
  // the image's bits above `bits` are all 0: only the digits below sort
  if (!in_order) radix_sort(o, q, n, less_t<img_t>(), ctx, bits);
  if (hr && hr->be) heads_of_image(ctx, (const img_t*)o, n, hr);
}

// q is the identity on entry (sort_rows'), so a single key without NULLs
// whose rows are in order already (a table loaded in key order: the cities
// by state) is sorted: key_range_kernel tells, and no pass runs (*in_order
// set; q stays the identity).
bool radix_rows_packed(context_t& ctx, const attu_sort_key* keys, int nkeys, int32_t* q, size_t n,
                       heads_request_t* hr, bool* in_order) {
  *in_order = false;
  // one 8-byte key gains when its range fits 32 bits (half the passes: a
  // join's int64 key images of a few thousand distinct keys)
  bool wide_one = nkeys == 1 && attu_type_width(keys[0].col.type.id) == 8;
  if ((nkeys < 2 && !wide_one) || nkeys > kPackMaxKeys) return false;
  for (int j = 0; j < nkeys; ++j)
    if (!packable(keys[j])) return false;
  // the ranges, then (one key without NULLs) the out-of-order flag
  std::vector<long long> init((size_t)(2 * nkeys + 1));
  for (int j = 0; j < nkeys; ++j) { init[(size_t)(2 * j)] = LLONG_MAX; init[(size_t)(2 * j + 1)] = LLONG_MIN; }
  init[(size_t)(2 * nkeys)] = 0;
  mem_t<long long> mm = to_mem(init, ctx);
  bool check_order = nkeys == 1 && !keys[0].col.valid;
  int* unsorted = check_order ? reinterpret_cast<int*>(mm.data() + 2 * nkeys) : nullptr;
  int blocks = (int)std::min<long long>((long long)ctx.sm_count() * 4,
                                        std::max<long long>(1, ((long long)n + kPackThreads * 16 - 1) / (kPackThreads * 16)));
  for (int j = 0; j < nkeys; ++j) {
    const uint8_t* v = keys[j].col.valid ? static_cast<const uint8_t*>(keys[j].col.valid->ptr) : nullptr;
    key_range_kernel<<<blocks, kPackThreads, 0, ctx.stream()>>>(keys[j].col.type.id, keys[j].col.data->ptr, v,
                                                               (long long)n, mm.data() + 2 * j, keys[j].desc,
                                                               unsorted);
    ATTU_CUDA_CHECK_LAUNCH();
  }
  std::vector<long long> r((size_t)(2 * nkeys + 1));
  dtoh(r.data(), mm.data(), r.size(), ctx);
  bool sorted = check_order && r[(size_t)(2 * nkeys)] == 0;
  packed_keys_t pk{};
  pk.n = nkeys;
  int total = 0;
  for (int j = nkeys - 1; j >= 0; --j) {  // the last key lowest
    unsigned long long span = (unsigned long long)r[(size_t)(2 * j + 1)] - (unsigned long long)r[(size_t)(2 * j)];
    int bits = 0;
    while (bits < 64 && (span >> bits) != 0) ++bits;
    if (r[(size_t)(2 * j + 1)] < r[(size_t)(2 * j)]) bits = 0;  // no value (n == 0, or all NULL)
    const uint8_t* v = keys[j].col.valid ? static_cast<const uint8_t*>(keys[j].col.valid->ptr) : nullptr;
    pk.k[j] = packed_key_t{keys[j].col.type.id, keys[j].col.data->ptr,
                           keys[j].desc ? r[(size_t)(2 * j + 1)] : r[(size_t)(2 * j)], keys[j].desc ? 1 : 0, total,
                           v, bits, keys[j].nulls_first ? 1 : 0};
    total += bits + (v ? 1 : 0);
    if (total > 63 || (wide_one && total > 32)) return false;
  }
  *in_order = sorted;
  if (sorted && !(hr && hr->be)) return true;  // no image wanted either
  if (total <= 32) packed_sort<uint32_t>(ctx, pk, q, n, hr, total, sorted);
  else packed_sort<uint64_t>(ctx, pk, q, n, hr, total, sorted);
  return true;
}

// ---- the first key first, its ties after --------------------------------------------
//
// The LSD passes sort by the last key first and gather every other key's
// image in the order the passes before left: for ORDER BY x, a over 100M
// rows, a's four passes and a random gather of x's image (3.4 ms) before
// x's eight. When the first key is wide and almost unique (a double, a
// bigint, a timestamp), its passes alone nearly order the rows: msd_first
// sorts by it (its image read in row order), then finds its runs of equal
// images and sorts only the rows in them by the other keys (a stable
// segmented sort with the comparator), as the LSD order would have them.
// Ties on more than a quarter of the rows send the sort back to the LSD
// passes (the first key's passes then lost: a key of few values should not
// come here often, and a narrow one never does).
size_t msd_min_rows() {
  const char* v = getenv("ATTU_GPU_MSD_MIN_ROWS");  // the tests take the path on small inputs
  return v && *v ? (size_t)strtoull(v, nullptr, 10) : ((size_t)1 << 20);
}

struct tied_t {  // position i's image equals a neighbour's
  const int64_t* o;
  int n;
  __device__ bool operator()(int i) const {
    return (i > 0 && o[i] == o[i - 1]) || (i + 1 < n && o[i] == o[i + 1]);
  }
};

struct run_head_t {  // tied position k starts a run of equal images
  const int64_t* pos;
  const int64_t* o;
  __device__ bool operator()(int k) const {
    return k == 0 || pos[k] != pos[k - 1] + 1 || o[pos[k]] != o[pos[k - 1]];
  }
};


// q: the permutation (int32) the caller sorts; perm: the one it came as,
// to start over from. Returns false (q as it came) when the LSD passes
// should run instead.
bool msd_first(context_t& ctx, const attu_sort_key* keys, int nkeys, int32_t* q, const int64_t* perm, size_t n) {
  const attu_sort_key& k0 = keys[0];
  int t = k0.col.type.id;
  bool narrow = t == ATTU_TYPE_BOOL || t == ATTU_TYPE_INT16 || t == ATTU_TYPE_INT32 || t == ATTU_TYPE_DATE ||
                t == ATTU_TYPE_TEXT;
  if (nkeys < 2 || narrow || k0.col.valid || n < msd_min_rows()) return false;
  mem_t<int64_t> img(n, ctx);
  int64_t* o = img.data();
  {
    const int32_t* p = q;
    const void* d = k0.col.data->ptr;
    transform([=] __device__(int i) { o[i] = key_bits(t, d, p[i]); }, (int)n, ctx);
  }
  if (k0.desc) radix_sort(o, q, n, greater_t<int64_t>(), ctx, 64);
  else radix_sort(o, q, n, less_t<int64_t>(), ctx, 64);
  auto tied = transform_compact((int)n, ctx);
  int m = tied.upsweep(tied_t{o, (int)n});
  if (m == 0) return true;
  if ((size_t)m > n / 4) {
    transform([=] __device__(int i) { q[i] = (int32_t)perm[i]; }, (int)n, ctx);
    return false;
  }
  mem_t<int64_t> pos((size_t)m, ctx);
  tied.downsweep(store_index_t(), pos.data());
  const int64_t* pp = pos.data();
  auto heads = transform_compact(m, ctx);
  int nseg = heads.upsweep(run_head_t{pp, o});
  mem_t<int> seg((size_t)nseg, ctx);
  heads.downsweep(store_index_t(), seg.data());
  mem_t<int64_t> rows((size_t)m, ctx);
  int64_t* r = rows.data();
  transform([=] __device__(int k) { r[k] = q[pp[k]]; }, m, ctx);
  mem_t<dkey_t> dk = upload_keys(keys + 1, nkeys - 1, ctx);
  segmented_sort(r, (long long)m, seg.data(), nseg, row_less_t{dk.data(), nkeys - 1}, ctx);
  transform([=] __device__(int k) { q[pp[k]] = (int32_t)r[k]; }, m, ctx);
  return true;
}

void radix_rows(context_t& ctx, const attu_sort_key* keys, int nkeys, int64_t* perm, size_t n,
                heads_request_t* hr = nullptr) {
  mem_t<int32_t> p32(n, ctx);
  int32_t* q = p32.data();
  const int64_t* p = perm;
  transform([=] __device__(int i) { q[i] = (int32_t)p[i]; }, (int)n, ctx);
  bool in_order = false;
  bool packed = radix_rows_packed(ctx, keys, nkeys, q, n, hr, &in_order);
  if (in_order) return;  // perm is the identity it came in as
  if (!packed && !hr && msd_first(ctx, keys, nkeys, q, perm, n)) packed = true;  // ordered: widen below
  if (!packed) {
    for (int j = nkeys - 1; j >= 0; --j) {
      int t = keys[j].col.type.id;
      bool narrow = t == ATTU_TYPE_BOOL || t == ATTU_TYPE_INT16 || t == ATTU_TYPE_INT32 || t == ATTU_TYPE_DATE || t == ATTU_TYPE_TEXT;
      // only a single key's image orders by all the keys (and not with
      // NULLs, whose flag pass comes last)
      heads_request_t* h = nkeys == 1 && !keys[j].col.valid ? hr : nullptr;
      if (narrow) radix_pass<int32_t>(ctx, keys[j], q, n, h);
      else radix_pass<int64_t>(ctx, keys[j], q, n, h);
      if (keys[j].col.valid) null_pass(ctx, keys[j], q, n);
    }
  }
  int64_t* w = perm;
  transform([=] __device__(int i) { w[i] = q[i]; }, (int)n, ctx);
}

// Which of the (at most four) keys' validity columns mark a row NULL: one
// pass over them all and one read-back, where a check per key waited for
// the device once per key. Bit j of the result: key j has a NULL.
unsigned keys_with_nulls(context_t& ctx, const attu_sort_key* keys, int nkeys, size_t n) {
  const uint8_t* v[4] = {};
  bool any = false;
  for (int j = 0; j < nkeys && j < 4; ++j) {
    v[j] = keys[j].col.valid ? static_cast<const uint8_t*>(keys[j].col.valid->ptr) : nullptr;
    any |= v[j] != nullptr;
  }
  if (!any || !n) return 0;
  mem_t<unsigned> flag(1, ctx);
  flag.memset(0);
  unsigned* f = flag.data();
  transform([=] __device__(int i) {
    unsigned m = 0;
#pragma unroll
    for (int j = 0; j < 4; ++j)
      if (v[j] && !v[j][i]) m |= 1u << j;
    if (m) atomicOr(f, m);
  }, (int)n, ctx);
  unsigned got = 0;
  dtoh(&got, f, 1, ctx);
  return got;
}

// Sorts perm[0, n) (row numbers, initially the identity) stably by the keys.
// Small inputs (a final ORDER BY of a few hundred groups, say) sort in one
// block: a bitonic network over (row, position) pairs in shared memory,
// the keys passed by value. One launch and no synchronization, where the
// radix path costs a NULL check read back by the host and several passes
// (~0.1 ms however few the rows). Ties keep the input order (the position
// breaks them), as the other paths do.
constexpr int kSmallSortMax = 2048;
constexpr int kSmallSortKeys = 8;
struct small_keys_t {
  dkey_t k[kSmallSortKeys];
};

// one_key: a single key of a type key_bits images; each row's image and
// NULL flag then sit in shared memory next to it, and a comparison reads
// no global memory (the 52 rows of the cities query's ORDER BY took 36 us
// comparing through the column, one dependent load per network step).
__global__ void __launch_bounds__(1024) small_sort_kernel(small_keys_t keys, int nkeys, int64_t* perm, int n, int npow,
                                                          bool one_key) {
  __shared__ int64_t srow[kSmallSortMax];
  __shared__ int spos[kSmallSortMax];
  __shared__ long long simg[kSmallSortMax];
  __shared__ uint8_t snull[kSmallSortMax];
  for (int i = threadIdx.x; i < npow; i += blockDim.x) {
    srow[i] = i < n ? perm[i] : 0;
    spos[i] = i < n ? i : INT_MAX;  // padding sorts after every row
    if (one_key && i < n) {
      const dkey_t& k = keys.k[0];
      bool null = k.valid && !k.valid[srow[i]];
      snull[i] = null;
      simg[i] = null ? 0 : key_bits(k.type, k.data, srow[i]);
    }
  }
  __syncthreads();
  // x before y: padding last; rows by their keys, ties by position
  auto before = [&](int x, int y) {
    if (spos[x] == INT_MAX || spos[y] == INT_MAX) return spos[x] < spos[y];
    int c;
    if (one_key) {
      const dkey_t& k = keys.k[0];
      if (snull[x] || snull[y]) {
        c = snull[x] && snull[y] ? 0 : snull[x] ? 1 : -1;  // NULL greater ...
        if (k.nulls_first) c = -c;                         // ... unless placed first
      } else {
        c = (simg[x] > simg[y]) - (simg[x] < simg[y]);
        if (k.desc) c = -c;
      }
    } else {
      c = rows_cmp(keys.k, nkeys, srow[x], srow[y]);
    }
    return c < 0 || (c == 0 && spos[x] < spos[y]);
  };
  for (int k = 2; k <= npow; k <<= 1) {
    for (int j = k >> 1; j > 0; j >>= 1) {
      for (int i = threadIdx.x; i < npow; i += blockDim.x) {
        int p = i ^ j;
        if (p > i) {
          bool ascending = (i & k) == 0;
          if (ascending ? before(p, i) : before(i, p)) {
            int64_t r = srow[i];
            srow[i] = srow[p];
            srow[p] = r;
            int q = spos[i];
            spos[i] = spos[p];
            spos[p] = q;
            if (one_key) {  // the images travel with their rows
              long long g = simg[i];
              simg[i] = simg[p];
              simg[p] = g;
              uint8_t u = snull[i];
              snull[i] = snull[p];
              snull[p] = u;
            }
          }
        }
      }
      __syncthreads();
    }
  }
  for (int i = threadIdx.x; i < n; i += blockDim.x) perm[i] = srow[i];
}

// One key without NULLs over up to kBlockSortMax rows (a join's sorted
// side of 29,510 cities) sorts in one block: the rows' order-preserving
// images (key_bits, complemented for DESC) and their minimum and maximum
// first, then stable LSD counting passes of 8 bits over only the bits in
// which the images differ (a state's dictionary code: one pass). One launch
// and no read-back, where the radix path read back the key's range and ran
// a pass of several launches (0.08 ms for those 29,510 rows).
//
// A pass: warp w owns the rows [w * per, (w + 1) * per) in order. It counts
// its rows' digits (a __match_any_sync a step of 32 rows; the group's lowest
// lane adds), the block turns the 32 x 256 counts into each warp's first
// position per digit (digit-major, then warp), and each warp walks its rows
// again, a row going to its position plus its rank among the step's rows
// of its digit. Rows of equal digits keep their order: the pass is stable.
constexpr int kBlockSortMax = 65536;
// ATTU_GPU_BLOCK_SORT=0: such sorts take the radix path (the tests compare both)
bool block_sort_on() {
  const char* e = getenv("ATTU_GPU_BLOCK_SORT");
  return !(e && strcmp(e, "0") == 0);
}
constexpr int kBlockSortThreads = 1024;
constexpr int kBlockSortWarps = kBlockSortThreads / 32;

__global__ void __launch_bounds__(kBlockSortThreads)
    block_sort_kernel(dkey_t k, int64_t* __restrict__ perm, int n, uint64_t* __restrict__ img,
                      int32_t* __restrict__ row, uint64_t* __restrict__ img2, int32_t* __restrict__ row2) {
  __shared__ int cnt[kBlockSortWarps][256];
  __shared__ int wsum[kBlockSortWarps];
  __shared__ unsigned long long smin, smax;
  const int t = threadIdx.x, lane = t & 31, w = t >> 5;
  if (t == 0) {
    smin = ~0ull;
    smax = 0;
  }
  __syncthreads();
  unsigned long long lo = ~0ull, hi = 0;
#pragma unroll 4
  for (int i = t; i < n; i += kBlockSortThreads) {
    int64_t r = perm[i];
    uint64_t u = (uint64_t)key_bits(k.type, k.data, r) ^ (1ull << 63);
    if (k.desc) u = ~u;
    img[i] = u;
    row[i] = (int32_t)r;
    lo = u < lo ? u : lo;
    hi = u > hi ? u : hi;
  }
  atomicMin(&smin, lo);
  atomicMax(&smax, hi);
  __syncthreads();
  const unsigned long long diff = smin ^ smax;
  const int bits = diff ? 64 - __clzll((long long)diff) : 0;
  const int per = (n + kBlockSortWarps - 1) / kBlockSortWarps;
  const int wb = w * per < n ? w * per : n, we = wb + per < n ? wb + per : n;
  const unsigned below = (1u << lane) - 1;
  for (int shift = 0; shift < bits; shift += 8) {
    for (int d = lane; d < 256; d += 32) cnt[w][d] = 0;
    __syncwarp();
    // four steps' images loaded ahead of their counting: the loads, not
    // the counting, are what a step waits on
    for (int s0 = wb; s0 < we; s0 += 4 * 32) {
      uint64_t u[4];
#pragma unroll
      for (int q = 0; q < 4; ++q) {
        int i = s0 + 32 * q + lane;
        u[q] = i < we ? img[i] : 0;
      }
#pragma unroll
      for (int q = 0; q < 4; ++q) {
        int i = s0 + 32 * q + lane;
        int d = i < we ? (int)((u[q] >> shift) & 255) : 256 + lane;  // a lane past the end matches no row
        unsigned peers = __match_any_sync(0xffffffffu, d);
        if (i < we && (peers & below) == 0) cnt[w][d] += __popc(peers);
        __syncwarp();
      }
    }
    __syncthreads();
    // first position of (digit d, warp w): every smaller digit's rows,
    // then digit d's rows in the warps before w
    int tot = 0;
    if (t < 256)
      for (int v = 0; v < kBlockSortWarps; ++v) tot += cnt[v][t];
    int x = tot;  // inclusive scan of the 256 totals: in each warp, then over the warps
#pragma unroll
    for (int o = 1; o < 32; o <<= 1) {
      int y = __shfl_up_sync(0xffffffffu, x, o);
      if (lane >= o) x += y;
    }
    if (lane == 31) wsum[w] = x;
    __syncthreads();
    if (t < 256) {
      int run = x - tot;
      for (int v = 0; v < w; ++v) run += wsum[v];
      for (int v = 0; v < kBlockSortWarps; ++v) {
        int c = cnt[v][t];
        cnt[v][t] = run;
        run += c;
      }
    }
    __syncthreads();
    for (int s0 = wb; s0 < we; s0 += 4 * 32) {
      uint64_t u[4];
      int32_t r[4];
#pragma unroll
      for (int q = 0; q < 4; ++q) {
        int i = s0 + 32 * q + lane;
        u[q] = i < we ? img[i] : 0;
        r[q] = i < we ? row[i] : 0;
      }
#pragma unroll
      for (int q = 0; q < 4; ++q) {
        int i = s0 + 32 * q + lane;
        int d = i < we ? (int)((u[q] >> shift) & 255) : 256 + lane;
        unsigned peers = __match_any_sync(0xffffffffu, d);
        if (i < we) {
          int pos = cnt[w][d] + __popc(peers & below);
          img2[pos] = u[q];
          row2[pos] = r[q];
        }
        __syncwarp();
        if (i < we && (peers & below) == 0) cnt[w][d] += __popc(peers);
        __syncwarp();
      }
    }
    __syncthreads();  // the pass's output is whole before the next reads it
    uint64_t* ti = img;
    img = img2;
    img2 = ti;
    int32_t* tr = row;
    row = row2;
    row2 = tr;
  }
  if (bits == 0) return;  // every key equal: perm is already in order
  for (int i = t; i < n; i += kBlockSortThreads) perm[i] = row[i];
}

void sort_rows(attu_backend* be, const attu_sort_key* keys, int nkeys, int64_t* perm, size_t n,
               heads_request_t* hr = nullptr) {
  context_t& ctx = CTX(be);
  if (n < 2 || nkeys <= 0) return;
  if (n <= (size_t)kSmallSortMax && nkeys <= kSmallSortKeys) {
    small_keys_t sk{};
    for (int k = 0; k < nkeys; ++k) {
      sk.k[k].type = keys[k].col.type.id;
      sk.k[k].data = keys[k].col.data ? keys[k].col.data->ptr : nullptr;
      sk.k[k].valid = keys[k].col.valid ? static_cast<const uint8_t*>(keys[k].col.valid->ptr) : nullptr;
      sk.k[k].desc = keys[k].desc;
      sk.k[k].nulls_first = keys[k].nulls_first;
    }
    int npow = 2;
    while (npow < (int)n) npow <<= 1;
    bool one_key = nkeys == 1 && radix_sortable(keys, 1);
    small_sort_kernel<<<1, std::min(npow / 2, 1024), 0, ctx.stream()>>>(sk, nkeys, perm, (int)n, npow, one_key);
    ATTU_CUDA_CHECK_LAUNCH();
    return;
  }
  if (n <= (size_t)kBlockSortMax && nkeys == 1 && !keys[0].col.valid && !(hr && hr->be) && block_sort_on() &&
      radix_sortable(keys, 1)) {
    dkey_t k{};
    k.type = keys[0].col.type.id;
    k.data = keys[0].col.data->ptr;
    k.desc = keys[0].desc;
    mem_t<uint64_t> img(2 * n, ctx);
    mem_t<int32_t> row(2 * n, ctx);
    block_sort_kernel<<<1, kBlockSortThreads, 0, ctx.stream()>>>(k, perm, (int)n, img.data(), row.data(),
                                                                  img.data() + n, row.data() + n);
    ATTU_CUDA_CHECK_LAUNCH();
    return;
  }
  // A key column with a validity buffer but no NULL in it (a computed key,
  // such as b / 10 over a NOT NULL b) sorts like one without: no NULL
  // pass, and the packed image stays open to it.
  std::vector<attu_sort_key> eff(keys, keys + nkeys);
  if (nkeys <= 4) {
    unsigned nulls = keys_with_nulls(ctx, keys, nkeys, n);
    for (int j = 0; j < nkeys; ++j)
      if (!(nulls >> j & 1u)) eff[(size_t)j].col.valid = nullptr;
  }
  if (radix_sortable(eff.data(), nkeys)) {
    radix_rows(ctx, eff.data(), nkeys, perm, n, hr);
    return;
  }
  mem_t<dkey_t> dk = upload_keys(keys, nkeys, ctx);
  mergesort(perm, (long long)n, row_less_t{dk.data(), nkeys}, ctx);
}

int gpu_sort(attu_backend* be, const attu_sort_key* keys, int nkeys, size_t n, attu_buf* perm,
             attu_error* err) {
  if (n > kMaxCount) return attu_error_set(err, "54000", 0, "GPU backend: sort of %zu rows", n);
  return guarded(err, [&] {
    int64_t* p = I64(perm);
    transform([=] __device__(int i) { p[i] = i; }, (int)n, CTX(be));
    sort_rows(be, keys, nkeys, p, n);
  });
}

int gpu_segment_heads(attu_backend* be, const attu_vec* keys, int nkeys, const attu_buf* perm,
                      size_t n, attu_buf** heads_out, size_t* nheads_out, attu_error* err);

// sort, then the heads of its runs of equal keys: from the sorted image when
// the radix path's last image orders by all the keys, else segment_heads.
int gpu_sort_heads(attu_backend* be, const attu_sort_key* keys, int nkeys, size_t n, attu_buf* perm,
                   attu_buf** heads_out, size_t* nheads_out, attu_error* err) {
  if (n > kMaxCount) return attu_error_set(err, "54000", 0, "GPU backend: sort of %zu rows", n);
  heads_request_t hr;
  hr.be = be;
  int rc = guarded(err, [&] {
    int64_t* p = I64(perm);
    transform([=] __device__(int i) { p[i] = i; }, (int)n, CTX(be));
    sort_rows(be, keys, nkeys, p, n, &hr);
  });
  if (rc) {
    gpu_free(be, hr.heads);
    return rc;
  }
  if (hr.heads) {
    *heads_out = hr.heads;
    *nheads_out = hr.count;
    return 0;
  }
  std::vector<attu_vec> kv((size_t)(nkeys > 0 ? nkeys : 1));
  for (int k = 0; k < nkeys; ++k) kv[(size_t)k] = keys[k].col;
  return gpu_segment_heads(be, kv.data(), nkeys, perm, n, heads_out, nheads_out, err);
}


// ---- top-k by selection ----------------------------------------------------------
//
// The k first rows of a large input without sorting it: a radix select on
// the first key finds the image bound its k-th row lies under, one pass of
// a digit at a time over the rows that still share the chosen digits
// (each pass a histogram of the next 8 bits and one read-back), stopping
// once the rows below the bound are few. Those rows (every row whose first
// key orders at or before the bound's, ties included) are the candidates:
// the k first of the whole input are the k first of them, so they are
// gathered and sorted by all the keys, stably, as the full sort would.
// The image is order-preserving but need not be strict (a NULL may share
// the extreme image with a value): ties only add candidates. When ties
// leave more than half the rows as candidates, the full sort runs instead.
constexpr size_t kSelectMinRows = 1 << 20;
constexpr int kSelectThreads = 256;

// ATTU_GPU_SELECT_MIN_ROWS overrides (the tests take the selection on small inputs).
size_t select_min_rows() {
  const char* v = getenv("ATTU_GPU_SELECT_MIN_ROWS");
  return v && *v ? (size_t)strtoull(v, nullptr, 10) : kSelectMinRows;
}

struct select_image_t {
  int type;
  const void* d;
  const uint8_t* v;
  unsigned long long flip, null_img;
  __device__ unsigned long long operator()(long long i) const {
    if (v && !v[i]) return null_img;
    return ((unsigned long long)key_bits(type, d, i) ^ (1ull << 63)) ^ flip;
  }
};

// hist[digit] += rows whose image agrees with prefix above bit shift + 8
__global__ void __launch_bounds__(kSelectThreads) select_hist_kernel(select_image_t img, long long n,
                                                                     unsigned long long prefix, int shift,
                                                                     unsigned long long* hist) {
  __shared__ unsigned h[256];
  h[threadIdx.x] = 0;
  __syncthreads();
  const int hi = shift + 8;
  const long long stride = (long long)gridDim.x * blockDim.x;
  for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
    unsigned long long u = img(i);
    if (hi < 64 && (u >> hi) != (prefix >> hi)) continue;
    atomicAdd(&h[(u >> shift) & 255], 1u);
  }
  __syncthreads();
  if (h[threadIdx.x]) atomicAdd(&hist[threadIdx.x], (unsigned long long)h[threadIdx.x]);
}

struct select_keep_t {
  select_image_t img;
  unsigned long long bound;  // keep rows whose image >> shift is at most this
  int shift;
  __device__ bool operator()(int i) const { return (img(i) >> shift) <= bound; }
};

// The window [first, first + cnt) of the candidates' own order, as rows of
// the input: rows[0, m) are the candidates' row numbers, in row order when
// ordered (a stable sort by the keys then orders ties as the full sort),
// else in any order (the row number becomes the last key). Their keys are
// gathered (a key without data, the row number, takes the rows themselves)
// and sorted; out[i] = the row at candidate position first + i.
void sort_candidates(attu_backend* be, const attu_sort_key* keys, int nkeys, const int64_t* rows, size_t m,
                     bool ordered, size_t first, size_t cnt, int64_t* out) {
  context_t& ctx = CTX(be);
  std::vector<attu_buf*> owned;
  struct free_all_t {
    attu_backend* be;
    std::vector<attu_buf*>& b;
    ~free_all_t() {
      for (attu_buf* x : b) gpu_free(be, x);
    }
  } free_all{be, owned};
  attu_error aerr;
  attu_error_clear(&aerr);
  std::vector<attu_sort_key> ck(keys, keys + nkeys);
  if (!ordered) {
    attu_sort_key rk{};
    rk.col.type = attu_type_make(ATTU_TYPE_INT64);
    ck.push_back(rk);  // data NULL: the rows, gathered below
  }
  const int64_t* r = rows;
  const int kept = (int)m;
  for (size_t j = 0; j < ck.size(); ++j) {
    size_t w = attu_type_width(ck[j].col.type.id);
    attu_buf* d = gpu_alloc(be, std::max<size_t>(1, m * w), &aerr);
    if (!d) throw std::bad_alloc();
    owned.push_back(d);
    if (!ck[j].col.data) {  // the row number: the candidates' rows themselves
      int64_t* o = I64(d);
      transform([=] __device__(int i) { o[i] = r[i]; }, kept, ctx);
      ck[j].col.data = d;
      continue;
    }
    void* dd = d->ptr;
    const void* sd = ck[j].col.data->ptr;
    if (w == 1)
      transform([=] __device__(int i) { static_cast<uint8_t*>(dd)[i] = static_cast<const uint8_t*>(sd)[r[i]]; }, kept, ctx);
    else if (w == 4)
      transform([=] __device__(int i) { static_cast<uint32_t*>(dd)[i] = static_cast<const uint32_t*>(sd)[r[i]]; }, kept, ctx);
    else if (w == 8)
      transform([=] __device__(int i) { static_cast<uint64_t*>(dd)[i] = static_cast<const uint64_t*>(sd)[r[i]]; }, kept, ctx);
    else
      throw std::runtime_error("top_k: a sort key of an unexpected width");
    ck[j].col.data = d;
    if (ck[j].col.valid) {
      attu_buf* dv = gpu_alloc(be, std::max<size_t>(1, m), &aerr);
      if (!dv) throw std::bad_alloc();
      owned.push_back(dv);
      uint8_t* o = static_cast<uint8_t*>(dv->ptr);
      const uint8_t* sv = static_cast<const uint8_t*>(ck[j].col.valid->ptr);
      transform([=] __device__(int i) { o[i] = sv[r[i]]; }, kept, ctx);
      ck[j].col.valid = dv;
    }
  }
  mem_t<int64_t> order(m, ctx);
  int64_t* q = order.data();
  transform([=] __device__(int i) { q[i] = i; }, kept, ctx);
  sort_rows(be, ck.data(), (int)ck.size(), q, m);
  const int64_t* qq = q + first;
  transform([=] __device__(int i) { out[i] = r[qq[i]]; }, (int)cnt, ctx);
}

// Returns false (nothing written) when the selection does not pay.
bool top_k_select(attu_backend* be, const attu_sort_key* keys, int nkeys, size_t n, size_t k, attu_buf* perm) {
  context_t& ctx = CTX(be);
  const attu_sort_key& k0 = keys[0];
  select_image_t img{k0.col.type.id, k0.col.data->ptr,
                     k0.col.valid ? static_cast<const uint8_t*>(k0.col.valid->ptr) : nullptr,
                     k0.desc ? ~0ull : 0ull, k0.nulls_first ? 0ull : ~0ull};
  int blocks = ctx.sm_count() * (2048 / kSelectThreads);
  mem_t<unsigned long long> hist(256, ctx);
  unsigned long long prefix = 0;
  size_t below = 0, ties = n;  // rows before the chosen digits, rows sharing them
  int shift = 64;
  const size_t enough = std::max<size_t>(4 * k, (size_t)1 << 16);
  while (shift > 0) {
    shift -= 8;
    hist.memset(0);
    select_hist_kernel<<<blocks, kSelectThreads, 0, ctx.stream()>>>(img, (long long)n, prefix, shift, hist.data());
    ATTU_CUDA_CHECK_LAUNCH();
    unsigned long long h[256];
    dtoh(h, hist.data(), 256, ctx);
    int chosen = 255;
    for (int b = 0; b < 256; ++b) {
      if (below + h[b] >= k) {
        chosen = b;
        break;
      }
      below += h[b];
    }
    prefix |= (unsigned long long)chosen << shift;
    ties = h[chosen];
    if (below + ties <= enough) break;
  }
  size_t m = below + ties;
  if (m > n / 2) return false;  // ties everywhere: sorting all is as good
  // the candidates, in row order
  auto compact = transform_compact((int)n, ctx);
  int kept = compact.upsweep(select_keep_t{img, prefix >> shift, shift});
  if ((size_t)kept != m) throw std::runtime_error("top_k: the candidates' count disagrees with the histogram");
  mem_t<int64_t> rows((size_t)kept, ctx);
  compact.downsweep(store_index_t(), rows.data());
  sort_candidates(be, keys, nkeys, rows.data(), m, true, 0, k, I64(perm));
  return true;
}

// ---- a window of the order by sampling -------------------------------------------
//
// Rows at positions [start, start + cnt) of sort's order, the window small
// against n (ORDER BY ... LIMIT / OFFSET anywhere in the order): a random
// sample of the first key's image, sorted, brackets the window's images by
// [lo, hi] with a margin of several standard deviations of a sample rank
// (the count of sampled images under a given one is binomial); one pass
// over the rows counts those under lo and appends the row numbers of those
// within [lo, hi], the candidates. The rows under lo come before every
// candidate in the order and the rows over hi after, ties included (the
// image is order-preserving, strict or not), so when at most start rows
// lie under lo and the candidates reach position start + cnt, the window
// is the candidates' positions [start - below, start - below + cnt) in
// their own order: they are sorted by all the keys, the row number last
// (the append keeps no order), and the window read off. Ties of the first
// key that overflow the candidates' room (a window among many NULLs, or a
// key of few values) take a second bracket in the total order (every key,
// then the row number: two sampled rows, compared by the comparator),
// which has no ties. An unlucky sample writes nothing; the caller then
// takes the histogram selection or the full sort.
constexpr int kWindowThreads = 256;

// splitmix64 of the sample's number: positions independent and uniform
// enough for the binomial margin, and the same every run
__device__ inline unsigned long long sample_hash(int j) {
  unsigned long long z = (unsigned long long)j * 0x9e3779b97f4a7c15ull + 0x632be59bd9b4e019ull;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

__global__ void window_sample_kernel(select_image_t img, long long n, int s, unsigned long long* out) {
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  if (j >= s) return;
  out[j] = img((long long)(sample_hash(j) % (unsigned long long)n));
}

// select_image_t with the key's type and validity fixed at compile time,
// for the passes over every row: a generic image (a switch on the type a
// row) made the narrow pass issue-bound (60% of the SM's issue against
// 49% of DRAM's bandwidth: 336 us for 100M doubles on an H200).
template <int TYPE, bool VALID>
struct typed_image_t {
  select_image_t g;
  __device__ unsigned long long operator()(long long i) const {
    if (VALID && !g.v[i]) return g.null_img;
    return ((unsigned long long)key_bits(TYPE, g.d, i) ^ (1ull << 63)) ^ g.flip;
  }
};

// f(the image as a typed_image_t where the type has one, else img)
template <typename F>
void with_typed_image(const select_image_t& img, F&& f) {
  const bool valid = img.v != nullptr;
  switch (img.type) {
    case ATTU_TYPE_FLOAT64:
      if (valid) f(typed_image_t<ATTU_TYPE_FLOAT64, true>{img});
      else f(typed_image_t<ATTU_TYPE_FLOAT64, false>{img});
      return;
    case ATTU_TYPE_INT64:
      if (valid) f(typed_image_t<ATTU_TYPE_INT64, true>{img});
      else f(typed_image_t<ATTU_TYPE_INT64, false>{img});
      return;
    case ATTU_TYPE_INT32:
      if (valid) f(typed_image_t<ATTU_TYPE_INT32, true>{img});
      else f(typed_image_t<ATTU_TYPE_INT32, false>{img});
      return;
    default: f(img); return;
  }
}

// Where a row lies against the bracket: 0 before it, 1 inside, 2 after.
// By the first key's image (the fast pass: one column read, one compare)...
template <typename image_t = select_image_t>
struct window_by_image_t {
  image_t img;
  unsigned long long lo, hi;
  __device__ int operator()(long long i) const {
    unsigned long long u = img(i);
    return u < lo ? 0 : u <= hi ? 1 : 2;
  }
};

// ... or by the total order, every key and then the row number (two
// sampled rows lo and hi, -1 for an open side): exact whatever the ties
// of the first key.
__device__ inline int rows_total_cmp(const dkey_t* keys, int nkeys, int64_t i, int64_t j) {
  int c = rows_cmp(keys, nkeys, i, j);
  return c ? c : (i > j) - (i < j);
}
struct window_by_rows_t {
  const dkey_t* keys;
  int nkeys;
  long long lo, hi;
  __device__ int operator()(long long i) const {
    if (lo >= 0 && rows_total_cmp(keys, nkeys, i, lo) < 0) return 0;
    if (hi >= 0 && rows_total_cmp(keys, nkeys, i, hi) > 0) return 2;
    return 1;
  }
};

// One pass over the rows, each classified by where(i) into 0 (before the
// window's brackets: counted into counts[0]), 1..K (stream c - 1: its row
// numbers go to outs[c - 1] while they fit caps[c - 1], counted into
// counts[c]) or K + 1 (after: nothing). Each block reads a run of whole
// tiles and gathers each stream's rows in shared memory (a warp's rows of
// all its items with one shared atomic), appending them to the stream's output with one global
// atomic only when its buffer may not hold another tile: a narrow bracket
// has a few candidates in every tile, and a global atomic a tile on one
// counter serialized the pass at half the copy's rate (380 us for 100M
// doubles on an H200; the set pass's three streams, 950 us). Buffers hold
// row numbers less the run's first (n < 2^31). The classifications of a
// thread's items come first, so their loads are all in flight together.
template <int K>
struct pass_shape_t {
  static constexpr int items = K == 1 ? 8 : 4;  // rows a thread classifies per tile
  static constexpr int tile = kWindowThreads * items;
  static constexpr int buffer = 2 * tile;       // a stream's buffer: flushed past one tile's room
};

template <int K>
struct pass_out_t {
  int64_t* out[K];
  long long cap[K];
};

template <int K, typename where_t>
__global__ void __launch_bounds__(kWindowThreads) window_pass_kernel(where_t where, long long n, long long run,
                                                                     pass_out_t<K> po, unsigned long long* counts) {
  using shape = pass_shape_t<K>;
  __shared__ unsigned buf[K][shape::buffer];
  __shared__ unsigned held[K];
  __shared__ unsigned long long flush_base[K];
  __shared__ unsigned long long warp_below[kWindowThreads / 32];
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  const long long first = (long long)blockIdx.x * run, last = min(first + run, n);
  if (threadIdx.x < K) held[threadIdx.x] = 0;
  __syncthreads();
  // stream q's h buffered rows to its output; every thread calls it
  auto flush = [&](int q, unsigned h) {
    if (threadIdx.x == 0) {
      flush_base[q] = atomicAdd(&counts[1 + q], (unsigned long long)h);
      held[q] = 0;
    }
    __syncthreads();
    for (unsigned j = threadIdx.x; j < h; j += kWindowThreads) {
      unsigned long long slot = flush_base[q] + j;
      if ((long long)slot < po.cap[q]) po.out[q][slot] = first + buf[q][j];
    }
    __syncthreads();  // the buffer is the next tile's
  };
  unsigned long long below = 0;
  for (long long base = first; base < last; base += shape::tile) {
    int w[shape::items];
#pragma unroll
    for (int t = 0; t < shape::items; ++t) {
      long long i = base + t * kWindowThreads + threadIdx.x;
      w[t] = i < last ? where(i) : K + 1;
    }
#pragma unroll
    for (int t = 0; t < shape::items; ++t) below += w[t] == 0;
    // a stream's rows of the warp's items: one shared atomic for all of them
    const unsigned below_lane = (1u << lane) - 1;
#pragma unroll
    for (int q = 0; q < K; ++q) {
      unsigned mask[shape::items], total = 0;
#pragma unroll
      for (int t = 0; t < shape::items; ++t) {
        mask[t] = __ballot_sync(~0u, w[t] == q + 1);
        total += __popc(mask[t]);
      }
      if (!total) continue;
      unsigned o = 0;
      if (lane == 0) o = atomicAdd(&held[q], total);
      o = __shfl_sync(~0u, o, 0);
#pragma unroll
      for (int t = 0; t < shape::items; ++t) {
        if (w[t] == q + 1)
          buf[q][o + __popc(mask[t] & below_lane)] = (unsigned)(base + t * kWindowThreads + threadIdx.x - first);
        o += __popc(mask[t]);
      }
    }
    __syncthreads();
    unsigned h[K];
#pragma unroll
    for (int q = 0; q < K; ++q) h[q] = held[q];
    __syncthreads();  // every thread has read held before the next tile adds to it
#pragma unroll
    for (int q = 0; q < K; ++q)
      if (h[q] > shape::buffer - shape::tile) flush(q, h[q]);
  }
  unsigned h[K];
#pragma unroll
  for (int q = 0; q < K; ++q) h[q] = held[q];
  __syncthreads();
#pragma unroll
  for (int q = 0; q < K; ++q)
    if (h[q]) flush(q, h[q]);
  for (int d = 16; d; d >>= 1) below += __shfl_down_sync(~0u, below, d);
  if (lane == 0) warp_below[warp] = below;
  __syncthreads();
  if (threadIdx.x == 0) {
    unsigned long long b = 0;
    for (int v = 0; v < kWindowThreads / 32; ++v) b += warp_below[v];
    if (b) atomicAdd(&counts[0], b);
  }
}

// Launches the pass over n rows: blocks of whole tiles, two blocks' worth
// of threads a multiprocessor at most.
template <int K, typename where_t>
void launch_window_pass(context_t& ctx, where_t where, size_t n, const pass_out_t<K>& po,
                        unsigned long long* counts) {
  using shape = pass_shape_t<K>;
  long long blocks = ctx.sm_count() * (2048 / kWindowThreads);
  const long long tiles = ((long long)n + shape::tile - 1) / shape::tile;
  if (blocks > tiles) blocks = tiles;
  if (blocks < 1) blocks = 1;
  const long long run = (tiles + blocks - 1) / blocks * shape::tile;  // each block's rows, whole tiles
  blocks = std::max<long long>(1, ((long long)n + run - 1) / run);
  window_pass_kernel<K><<<(unsigned)blocks, kWindowThreads, 0, ctx.stream()>>>(where, (long long)n, run, po, counts);
  ATTU_CUDA_CHECK_LAUNCH();
}

// ---- narrowing a window's candidates ---------------------------------------------
//
// The pass's candidates are those whose first-key image lies in the
// sample's bracket [lo, hi]: some n / 150 rows of a window in the middle
// (a five-sigma margin of a 2^19 sample), where a window of a few rows
// needs few of them. Sorting them all by every key cost 20 radix passes
// (300 us for 690k candidates of (double, int, row number)). Instead their
// images are gathered once and radix-selected: below the bits lo and hi
// share, an 8-bit digit's histogram (of the candidates agreeing with the
// digits chosen so far) tells which digits the window's first and last
// positions fall in; one digit for both narrows again, digits apart end
// the search. The candidates in the final range of images are kept, the
// window shifted by those under it, and only they are sorted.
__global__ void __launch_bounds__(kSelectThreads) narrow_hist_kernel(const unsigned long long* u, long long m,
                                                                     unsigned long long prefix, int fixed,
                                                                     int shift, unsigned long long* hist) {
  __shared__ unsigned h[256];
  h[threadIdx.x] = 0;
  __syncthreads();
  const long long stride = (long long)gridDim.x * blockDim.x;
  for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < m; i += stride) {
    unsigned long long v = u[i];
    if (fixed < 64 && (v >> fixed) != (prefix >> fixed)) continue;
    atomicAdd(&h[(v >> shift) & 255], 1u);
  }
  __syncthreads();
  if (h[threadIdx.x]) atomicAdd(&hist[threadIdx.x], (unsigned long long)h[threadIdx.x]);
}

// out[] += rows[i] whose image u[i] lies in [lo, hi] (in any order: the
// candidates' sort takes the row number as its last key)
__global__ void narrow_keep_kernel(const unsigned long long* u, const int64_t* rows, long long m,
                                   unsigned long long lo, unsigned long long hi, int64_t* out, unsigned* count) {
  long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  const bool in = i < m && u[i] >= lo && u[i] <= hi;
  const unsigned mask = __ballot_sync(~0u, in);
  if (!mask) return;
  const int lane = threadIdx.x & 31;
  unsigned o = 0;
  if (lane == 0) o = atomicAdd(count, (unsigned)__popc(mask));
  o = __shfl_sync(~0u, o, 0) + __popc(mask & ((1u << lane) - 1));
  if (in) out[o] = rows[i];
}

// Candidates at most this many, or at most four times the window, are
// sorted as they are (ATTU_GPU_WINDOW_NARROW_MIN overrides: the tests
// narrow tiny candidate sets to exercise the search).
size_t narrow_min() {
  const char* v = getenv("ATTU_GPU_WINDOW_NARROW_MIN");
  return v && *v ? (size_t)strtoull(v, nullptr, 10) : 4096;
}

// Returns the kept count (their rows in kept, first lowered by the
// candidates under them), or m when narrowing does not pay.
// The radix search: u[0, m) are the candidates' images, all in [lo, hi];
// finds a range [rlo, rhi] of images holding the candidates at positions
// r0 and r1 of their order, with *below candidates under it and *keep in
// it, at most `enough` unless r0 and r1 lie in different digits or the
// images tie. Returns false when it found nothing (cannot happen: declined).
bool narrow_range(context_t& ctx, const unsigned long long* ud, size_t m, unsigned long long lo,
                  unsigned long long hi, size_t r0, size_t r1, size_t enough, unsigned long long* rlo_out,
                  unsigned long long* rhi_out, size_t* below_out, size_t* keep_out) {
  const int top = lo == hi ? 0 : 63 - __builtin_clzll(lo ^ hi);  // the highest bit the bracket's images differ in
  int shift = std::max(0, top - 7), fixed = shift + 8;
  unsigned long long prefix = lo;  // bits at and above fixed: shared by every candidate
  auto upper = [](unsigned long long v, int b) { return b >= 64 ? 0ull : v >> b << b; };
  size_t below = 0, keep = m;
  unsigned long long rlo = 0, rhi = 0, h[256];
  mem_t<unsigned long long> hist(256, ctx);
  int blocks = (int)std::min<long long>(ctx.sm_count() * 4, ((long long)m + kSelectThreads - 1) / kSelectThreads);
  for (;;) {
    hist.memset(0);
    narrow_hist_kernel<<<blocks, kSelectThreads, 0, ctx.stream()>>>(ud, (long long)m, prefix, fixed, shift,
                                                                    hist.data());
    ATTU_CUDA_CHECK_LAUNCH();
    dtoh(h, hist.data(), 256, ctx);
    size_t acc = below, at0 = 0;
    int b0 = -1, b1 = -1;
    for (int b = 0; b < 256 && b1 < 0; ++b) {
      if (b0 < 0 && acc + h[b] > r0) {
        b0 = b;
        at0 = acc;
      }
      if (b0 >= 0 && acc + h[b] > r1) b1 = b;
      acc += h[b];
    }
    if (b0 < 0 || b1 < 0) return false;
    const unsigned long long base = upper(prefix, fixed);
    rlo = base | (unsigned long long)b0 << shift;
    rhi = base | (unsigned long long)b1 << shift | ((1ull << shift) - 1);
    keep = 0;
    for (int b = b0; b <= b1; ++b) keep += h[b];
    below = at0;
    if (b0 != b1 || keep <= enough || shift == 0) break;
    prefix = rlo;  // the digit chosen: bits from shift up are fixed
    fixed = shift;
    shift = std::max(0, shift - 8);
  }
  *rlo_out = rlo;
  *rhi_out = rhi;
  *below_out = below;
  *keep_out = keep;
  return true;
}

// The candidates' images, gathered once for the search.
mem_t<unsigned long long> candidate_images(context_t& ctx, const select_image_t& img, const int64_t* rows, size_t m) {
  mem_t<unsigned long long> u(m, ctx);
  unsigned long long* ud = u.data();
  transform([=] __device__(int i) { ud[i] = img(rows[i]); }, (int)m, ctx);
  return u;
}

// Returns the kept count (their rows in kept, first lowered by the
// candidates under them), or m when narrowing does not pay.
size_t narrow_window(context_t& ctx, const select_image_t& img, unsigned long long lo, unsigned long long hi,
                     const int64_t* rows, size_t m, size_t& first, size_t cnt, mem_t<int64_t>& kept) {
  const size_t enough = std::max<size_t>(4 * cnt, narrow_min());
  if (m <= 2 * enough || lo >= hi || m > kMaxCount) return m;
  mem_t<unsigned long long> u = candidate_images(ctx, img, rows, m);
  unsigned long long rlo, rhi;
  size_t below, keep;
  if (!narrow_range(ctx, u.data(), m, lo, hi, first, first + cnt - 1, enough, &rlo, &rhi, &below, &keep) ||
      keep >= m)
    return m;
  kept = mem_t<int64_t>(keep, ctx);
  mem_t<unsigned> count(1, ctx);
  count.memset(0);
  narrow_keep_kernel<<<(unsigned)((m + 255) / 256), 256, 0, ctx.stream()>>>(u.data(), rows, (long long)m, rlo, rhi,
                                                                           kept.data(), count.data());
  ATTU_CUDA_CHECK_LAUNCH();
  first -= below;
  return keep;
}

__global__ void window_sample_rows_kernel(long long n, int s, int64_t* out) {
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  if (j >= s) return;
  out[j] = (int64_t)(sample_hash(j) % (unsigned long long)n);
}

// The bracket's sample positions, its margins and the candidates' room
// (window_select's comment).
struct window_plan_t {
  int s;
  long long jl, ju, cap;
};

bool plan_window(size_t n, size_t start, size_t cnt, int sample_log2, window_plan_t& w) {
  // the sample: a larger one narrows the bracket of a window in the middle
  // (its margin grows as the root of the sample, the rows per sampled one
  // as the sample's inverse), a smaller one sorts sooner. Since the
  // candidates are narrowed by a radix search rather than sorted, more of
  // them cost little: a narrow window takes 2^18 (ORDER BY's middle row of
  // 100M: 0.80 -> 0.65 ms on an H200), the set's brackets, whose
  // candidates are taken whole, 2^19 (ATTU_GPU_WINDOW_SAMPLE_LOG2: its
  // size's log2, 10 to 24, for measurements)
  const char* sv = getenv("ATTU_GPU_WINDOW_SAMPLE_LOG2");
  int lg = sv && *sv ? atoi(sv) : sample_log2;
  if (lg < 10 || lg > 24) lg = sample_log2;
  w.s = (int)std::min<size_t>(n / 16, (size_t)1 << lg);
  if (w.s < 256) return false;  // too few rows to sample: the histogram or the sort
  // standard deviations: a miss about once in 3.5 million brackets a side
  // (ATTU_GPU_WINDOW_Z overrides: the tests narrow it to see misses declined)
  const char* zv = getenv("ATTU_GPU_WINDOW_Z");
  const double z = zv && *zv ? atof(zv) : 5.0;
  const double s = w.s;
  auto margin = [&](double p) { return z * std::sqrt(s * p * (1 - p)) + 2; };
  const double plo = (double)start / (double)n, phi = (double)(start + cnt) / (double)n;
  w.jl = (long long)std::floor(plo * s - margin(plo));
  w.ju = (long long)std::ceil(phi * s + margin(phi));
  const double expect = (double)n * (double)(std::min<long long>(w.ju, w.s) - std::max<long long>(w.jl, 0)) / s;
  w.cap = (long long)(2 * expect) + 4096 + (long long)cnt;
  // cap is only the candidates' room; the work is one pass over the rows
  // plus the sort of the ~cnt + margin candidates, against the sort of all
  // n (a window of n / 4 rows, session 13: sort_wide of 100M rows)
  return (size_t)w.cap <= n;
}

// One pass of where over the rows, then the window from the candidates
// (narrowed first when the bracket is by the first key's image, nw).
// Returns false when the bracket missed the window or overflowed cap.
template <typename where_t>
bool window_pass(attu_backend* be, const attu_sort_key* keys, int nkeys, size_t n, size_t start, size_t cnt,
                 const window_plan_t& w, where_t where, unsigned long long* counts, attu_buf* perm,
                 const window_by_image_t<>* nw) {
  context_t& ctx = CTX(be);
  mem_t<int64_t> rows((size_t)w.cap, ctx);
  pass_out_t<1> po{{rows.data()}, {w.cap}};
  launch_window_pass<1>(ctx, where, n, po, counts);
  unsigned long long c[2];
  dtoh(c, counts, 2, ctx);
  const size_t below = c[0];
  size_t m = c[1];
  if ((long long)m > w.cap || below > start || below + m < start + cnt) return false;
  size_t first = start - below;
  mem_t<int64_t> kept;
  const int64_t* r = rows.data();
  if (nw) {
    size_t k = narrow_window(CTX(be), nw->img, nw->lo, nw->hi, r, m, first, cnt, kept);
    if (k < m) {
      m = k;
      r = kept.data();
    }
  }
  sort_candidates(be, keys, nkeys, r, m, false, first, cnt, I64(perm));
  return true;
}

// Returns false (nothing written) when the sample's bracket missed the
// window or its candidates did not fit their room in either order.
bool window_select(attu_backend* be, const attu_sort_key* keys, int nkeys, size_t n, size_t start, size_t cnt,
                   attu_buf* perm) {
  context_t& ctx = CTX(be);
  window_plan_t w;
  if (!plan_window(n, start, cnt, 18, w)) return false;
  const attu_sort_key& k0 = keys[0];
  select_image_t img{k0.col.type.id, k0.col.data->ptr,
                     k0.col.valid ? static_cast<const uint8_t*>(k0.col.valid->ptr) : nullptr,
                     k0.desc ? ~0ull : 0ull, k0.nulls_first ? 0ull : ~0ull};
  const int s = w.s;
  const long long jl = w.jl, ju = w.ju;
  mem_t<unsigned long long> sample((size_t)s, ctx);
  window_sample_kernel<<<(s + 255) / 256, 256, 0, ctx.stream()>>>(img, (long long)n, s, sample.data());
  ATTU_CUDA_CHECK_LAUNCH();
  radix_sort(sample.data(), (size_t)s, less_t<unsigned long long>(), ctx);
  // [lo, hi]: no bound on a side whose margin runs past the sample
  mem_t<unsigned long long> bounds(4, ctx);
  unsigned long long* bd = bounds.data();
  const unsigned long long* sp = sample.data();
  transform([=] __device__(int i) {
    if (i == 0) bd[0] = jl < 0 ? 0ull : sp[jl];
    if (i == 1) bd[1] = ju >= s ? ~0ull : sp[ju];
    if (i >= 2) bd[i] = 0;  // the pass's counts
  }, 4, ctx);
  unsigned long long lohi[2];
  dtoh(lohi, bd, 2, ctx);
  const window_by_image_t<> by_image{img, lohi[0], lohi[1]};
  bool passed = false;
  with_typed_image(img, [&](auto timg) {
    window_by_image_t<decltype(timg)> where{timg, lohi[0], lohi[1]};
    passed = window_pass(be, keys, nkeys, n, start, cnt, w, where, bd + 2, perm, &by_image);
  });
  if (passed) return true;
  // The image's bracket missed or overflowed. Overflow comes of ties of the
  // first key (many NULLs or few values about the window): the bracket of
  // the total order has none. The sample's rows are sorted by their
  // numbers, then stably by the keys (the comparator's merge sort).
  for (int j = 0; j < nkeys; ++j)
    if (!keys[j].col.data) return false;  // a row-number key: rows_cmp reads data
  mem_t<int64_t> rs((size_t)s, ctx);
  window_sample_rows_kernel<<<(s + 255) / 256, 256, 0, ctx.stream()>>>((long long)n, s, rs.data());
  ATTU_CUDA_CHECK_LAUNCH();
  radix_sort(rs.data(), (size_t)s, less_t<int64_t>(), ctx);
  mem_t<dkey_t> dk = upload_keys(keys, nkeys, ctx);
  mergesort(rs.data(), (long long)s, row_less_t{dk.data(), nkeys}, ctx);
  mem_t<long long> rb(2, ctx);
  long long* rbd = rb.data();
  const int64_t* rp = rs.data();
  transform([=] __device__(int i) {
    if (i == 0) rbd[0] = jl < 0 ? -1 : rp[jl];
    if (i == 1) rbd[1] = ju >= s ? -1 : rp[ju];
    if (i >= 2) bd[i] = 0;  // the pass's counts, again
  }, 4, ctx);
  long long lr[2];
  dtoh(lr, rbd, 2, ctx);
  return window_pass(be, keys, nkeys, n, start, cnt, w, window_by_rows_t{dk.data(), nkeys, lr[0], lr[1]}, bd + 2, perm,
                     nullptr);
}

// ---- the window as a set (select_window_set) ----------------------------------
// A caller that needs the window's rows but not their order (an aggregate
// such as count(*) or sum over LIMIT / OFFSET of an ORDER BY) takes them
// from two brackets, one about each end of the window (window_select's
// sample, margins and images): one pass sorts every row into five classes
// by its first key's image, in order: under the first bracket (counted),
// in it (candidates A), between the brackets (in the window whatever the
// rest of the keys: written to the output as they come), in the second
// (candidates B), over it (counted). Only the candidates are sorted, A's
// tail and B's head completing the window, so a window of half the rows
// costs the sample, one pass and two small sorts where the ordered window
// sorts all its rows. Declined (nothing written) when the brackets
// overlap (a narrow window: select_window), missed the window's ends, or
// their candidates overflowed their room (ties of the first key).
// The set pass's classes: 0 under A, 1 in A, 2 between, 3 in B, 4 over B.
template <typename image_t>
struct window_by_brackets_t {
  image_t img;
  unsigned long long lo_a, hi_a, lo_b, hi_b;
  __device__ int operator()(long long i) const {
    unsigned long long u = img(i);
    return u < lo_a ? 0 : u <= hi_a ? 1 : u < lo_b ? 2 : u <= hi_b ? 3 : 4;
  }
};

// out[0, cnt) = the candidates at positions [first, first + cnt) of their
// order, in any order, the window reaching one end of them (a wide
// window's A tail or B head): all of a bracket's candidates were sorted
// for it (300 us for 690k of them on an H200, twice a query). Here the
// radix search finds a range of images holding the boundary position, the
// candidates beyond it on the window's side are taken whole, and only the
// range's few are sorted for their share.
void candidates_as_set(attu_backend* be, const attu_sort_key* keys, int nkeys, const select_image_t& img,
                       unsigned long long lo, unsigned long long hi, const int64_t* rows, size_t m, size_t first,
                       size_t cnt, int64_t* out) {
  context_t& ctx = CTX(be);
  const bool tail = first + cnt == m;
  const size_t r = tail ? first : cnt;  // the window: positions from r on (a tail) or before r (a head)
  const size_t enough = narrow_min();
  unsigned long long rlo = 0, rhi = 0;
  size_t below = 0, keep = m;
  mem_t<unsigned long long> u;
  bool split = m > 2 * enough && lo < hi && m <= kMaxCount && (tail || first == 0) && r > 0 && r < m;
  if (split) {
    u = candidate_images(ctx, img, rows, m);
    split = narrow_range(ctx, u.data(), m, lo, hi, r, r, enough, &rlo, &rhi, &below, &keep) && keep < m;
  }
  if (!split) {
    sort_candidates(be, keys, nkeys, rows, m, false, first, cnt, out);
    return;
  }
  const size_t whole = tail ? m - below - keep : below;  // beyond the range, on the window's side
  mem_t<unsigned> count(2, ctx);
  count.memset(0);
  const unsigned blocks = (unsigned)((m + 255) / 256);
  if (whole)  // rows over the range exist (rhi < ~0) for a tail, under it (rlo > 0) for a head
    narrow_keep_kernel<<<blocks, 256, 0, ctx.stream()>>>(u.data(), rows, (long long)m, tail ? rhi + 1 : 0ull,
                                                         tail ? ~0ull : rlo - 1, out, count.data());
  ATTU_CUDA_CHECK_LAUNCH();
  mem_t<int64_t> ties(keep, ctx);
  narrow_keep_kernel<<<blocks, 256, 0, ctx.stream()>>>(u.data(), rows, (long long)m, rlo, rhi, ties.data(),
                                                       count.data() + 1);
  ATTU_CUDA_CHECK_LAUNCH();
  if (tail) sort_candidates(be, keys, nkeys, ties.data(), keep, false, r - below, below + keep - r, out + whole);
  else sort_candidates(be, keys, nkeys, ties.data(), keep, false, 0, r - below, out + whole);
}

bool window_select_set(attu_backend* be, const attu_sort_key* keys, int nkeys, size_t n, size_t start, size_t cnt,
                       attu_buf* perm) {
  context_t& ctx = CTX(be);
  window_plan_t wa, wb;
  // each end's bracket: window_select's plan of a one-row window there
  if (!plan_window(n, start, 1, 19, wa) || !plan_window(n, start + cnt - 1, 1, 19, wb)) return false;
  const int s = wa.s;
  if (wa.ju >= wb.jl || wa.ju >= s || wb.jl < 0) return false;   // overlapping brackets: a narrow window
  const long long cap_a = wa.cap, cap_b = wb.cap;
  const attu_sort_key& k0 = keys[0];
  select_image_t img{k0.col.type.id, k0.col.data->ptr,
                     k0.col.valid ? static_cast<const uint8_t*>(k0.col.valid->ptr) : nullptr,
                     k0.desc ? ~0ull : 0ull, k0.nulls_first ? 0ull : ~0ull};
  mem_t<unsigned long long> sample((size_t)s, ctx);
  window_sample_kernel<<<(s + 255) / 256, 256, 0, ctx.stream()>>>(img, (long long)n, s, sample.data());
  ATTU_CUDA_CHECK_LAUNCH();
  radix_sort(sample.data(), (size_t)s, less_t<unsigned long long>(), ctx);
  mem_t<unsigned long long> bounds(8, ctx);
  unsigned long long* bd = bounds.data();
  const unsigned long long* sp = sample.data();
  const long long jla = wa.jl, jua = wa.ju, jlb = wb.jl, jub = wb.ju;
  transform([=] __device__(int i) {
    if (i == 0) bd[0] = jla < 0 ? 0ull : sp[jla];
    if (i == 1) bd[1] = sp[jua];
    if (i == 2) bd[2] = sp[jlb];
    if (i == 3) bd[3] = jub >= s ? ~0ull : sp[jub];
    if (i >= 4) bd[i] = 0;  // the pass's counts
  }, 8, ctx);
  unsigned long long b4[4];
  dtoh(b4, bd, 4, ctx);
  mem_t<int64_t> ra((size_t)cap_a, ctx), rb((size_t)cap_b, ctx);
  int64_t* out = I64(perm);
  pass_out_t<3> po{{ra.data(), out, rb.data()}, {cap_a, (long long)cnt, cap_b}};
  with_typed_image(img, [&](auto timg) {
    launch_window_pass<3>(ctx, window_by_brackets_t<decltype(timg)>{timg, b4[0], b4[1], b4[2], b4[3]}, n, po, bd + 4);
  });
  unsigned long long c[4];
  dtoh(c, bd + 4, 4, ctx);
  const unsigned long long below = c[0], ma = c[1], mmid = c[2], mb = c[3];
  // both ends inside their bracket, every stream within its room
  if ((long long)ma > cap_a || (long long)mb > cap_b || mmid > cnt || below > start || below + ma < start ||
      below + ma + mmid > start + cnt || below + ma + mmid + mb < start + cnt)
    return false;
  const size_t tail_a = (size_t)(below + ma - start), head_b = (size_t)(start + cnt - (below + ma + mmid));
  if (tail_a)
    candidates_as_set(be, keys, nkeys, img, b4[0], b4[1], ra.data(), (size_t)ma, (size_t)(start - below), tail_a,
                      out + mmid);
  if (head_b) candidates_as_set(be, keys, nkeys, img, b4[2], b4[3], rb.data(), (size_t)mb, 0, head_b, out + mmid + tail_a);
  return true;
}

// radix_sortable, with a row-number key (col.data NULL; the selections
// gather the candidates' rows for it) counted as a sortable one.
bool sortable_with_row_numbers(const attu_sort_key* keys, int nkeys) {
  std::vector<attu_sort_key> kk(keys, keys + nkeys);
  for (attu_sort_key& k : kk)
    if (!k.col.data) k.col.data = keys[0].col.data;  // a stand-in: radix_sortable checks data only
  return radix_sortable(kk.data(), nkeys);
}

int gpu_top_k(attu_backend* be, const attu_sort_key* keys, int nkeys, size_t n, size_t k,
              attu_buf* perm, attu_error* err) {
  if (n > kMaxCount) return attu_error_set(err, "54000", 0, "GPU backend: top_k of %zu rows", n);
  if (k == 0) return 0;
  if (k > n) k = n;
  // a row-number key (col.data NULL) takes the row ids: the selection
  // gathers them for its candidates, the full sort materializes them
  if (!keys[0].col.data) return attu_error_set(err, "XX000", 0, "GPU backend: top_k by the row number alone");
  std::vector<attu_sort_key> kk(keys, keys + nkeys);
  bool rownum = false;
  for (int j = 0; j < nkeys; ++j) rownum |= !keys[j].col.data;
  if (n >= select_min_rows() && k <= n / 8 && sortable_with_row_numbers(keys, nkeys)) {
    bool done = false;
    int rc = guarded(err, [&] {
      done = window_select(be, keys, nkeys, n, 0, k, perm) || top_k_select(be, keys, nkeys, n, k, perm);
    });
    if (rc || done) return rc;
  }
  return guarded(err, [&] {
    context_t& ctx = CTX(be);
    mem_t<int64_t> rows(rownum ? n : 0, ctx);
    attu_buf rb{rows.data(), n * sizeof(int64_t)};
    if (rownum) {
      int64_t* o = rows.data();
      transform([=] __device__(int i) { o[i] = i; }, (int)n, ctx);
      for (int j = 0; j < nkeys; ++j)
        if (!keys[j].col.data) kk[(size_t)j].col.data = &rb;
    }
    mem_t<int64_t> all(n, ctx);
    int64_t* p = all.data();
    transform([=] __device__(int i) { p[i] = i; }, (int)n, ctx);
    sort_rows(be, kk.data(), nkeys, p, n);
    ATTU_CUDA_CHECK(cudaMemcpyAsync(perm->ptr, p, k * sizeof(int64_t), cudaMemcpyDeviceToDevice,
                                    ctx.stream()));
  });
}

// select_window and select_window_set: the window cut at n, the cases
// answered at once (*done, returns 0 or an error) and those declined.
// Returns 1 when the selection should run.
static int window_prologue(const attu_sort_key* keys, int nkeys, size_t n, size_t start, size_t& cnt, size_t widest,
                    bool* done, attu_error* err, const char* what) {
  *done = false;
  if (n > kMaxCount) return attu_error_set(err, "54000", 0, "GPU backend: %s of %zu rows", what, n);
  if (start >= n || cnt == 0) {
    *done = true;
    return 0;
  }
  if (cnt > n - start) cnt = n - start;
  if (!keys[0].col.data) return attu_error_set(err, "XX000", 0, "GPU backend: %s by the row number alone", what);
  if (n < select_min_rows() || cnt > widest || !sortable_with_row_numbers(keys, nkeys)) return 0;
  return 1;
}

int gpu_select_window(attu_backend* be, const attu_sort_key* keys, int nkeys, size_t n, size_t start,
                      size_t cnt, attu_buf* perm, bool* done, attu_error* err) {
  int go = window_prologue(keys, nkeys, n, start, cnt, n / 4, done, err, "select_window");
  if (go != 1) return go;
  return guarded(err, [&] { *done = window_select(be, keys, nkeys, n, start, cnt, perm); });
}

int gpu_select_window_set(attu_backend* be, const attu_sort_key* keys, int nkeys, size_t n, size_t start,
                          size_t cnt, attu_buf* perm, bool* done, attu_error* err) {
  int go = window_prologue(keys, nkeys, n, start, cnt, n, done, err, "select_window_set");
  if (go != 1) return go;
  return guarded(err, [&] { *done = window_select_set(be, keys, nkeys, n, start, cnt, perm); });
}

int gpu_segmented_sort(attu_backend* be, const attu_sort_key* keys, int nkeys,
                       const attu_buf* offsets, size_t nseg, attu_buf* perm, size_t n,
                       attu_error* err) {
  if (n > kMaxCount || nseg > kMaxCount)
    return attu_error_set(err, "54000", 0, "GPU backend: segmented_sort of %zu rows", n);
  if (nseg == 0 || n == 0 || nkeys <= 0) return 0;
  return guarded(err, [&] {
    context_t& ctx = CTX(be);
    // The segments cover positions [first, last) of perm; positions outside
    // are left alone, as on the CPU.
    int64_t first = 0, last = 0;
    dtoh(&first, I64(offsets), 1, ctx);
    dtoh(&last, I64(offsets) + nseg, 1, ctx);
    if (first < 0 || last > (int64_t)n || last < first)
      throw std::runtime_error("segmented_sort: offsets outside the permutation");
    if (last - first < 2) return;
    mem_t<int> seg32(nseg, ctx);
    int* s32 = seg32.data();
    const int64_t* off = I64(offsets);
    transform([=] __device__(int s) { s32[s] = (int)(off[s] - first); }, (int)nseg, ctx);
    mem_t<dkey_t> dk = upload_keys(keys, nkeys, ctx);
    segmented_sort(I64(perm) + first, (long long)(last - first), s32, (int)nseg,
                   row_less_t{dk.data(), nkeys}, ctx);
  });
}

// ---- segment heads -------------------------------------------------------------

struct head_flag_t {
  const dkey_t* keys;
  int nkeys;
  const int64_t* perm;
  __device__ bool operator()(int i) const {
    if (i == 0) return true;
    int64_t a = perm ? perm[i] : i, b = perm ? perm[i - 1] : i - 1;
    for (int c = 0; c < nkeys; ++c) {
      const dkey_t& k = keys[c];
      int na = k.valid && !k.valid[a], nb = k.valid && !k.valid[b];
      if (na != nb) return true;
      if (!na && value_cmp(k.type, k.data, a, b) != 0) return true;
    }
    return false;
  }
};

int gpu_segment_heads(attu_backend* be, const attu_vec* keys, int nkeys, const attu_buf* perm,
                      size_t n, attu_buf** heads_out, size_t* nheads_out, attu_error* err) {
  if (n > kMaxCount)
    return attu_error_set(err, "54000", 0, "GPU backend: segment_heads of %zu rows", n);
  attu_buf* out = nullptr;
  int rc = guarded(err, [&] {
    context_t& ctx = CTX(be);
    std::vector<attu_sort_key> sk((size_t)(nkeys > 0 ? nkeys : 0));
    for (int c = 0; c < nkeys; ++c) sk[c] = attu_sort_key{keys[c], false, false};
    mem_t<dkey_t> dk = upload_keys(sk.data(), nkeys, ctx);
    auto compact = transform_compact((int)n, ctx);
    int kept = compact.upsweep(head_flag_t{dk.data(), nkeys, perm ? I64(perm) : nullptr});
    out = gpu_alloc(be, (size_t)kept * sizeof(int64_t), err);
    if (!out) throw already_set_t();
    compact.downsweep(store_index_t(), I64(out));
    *nheads_out = (size_t)kept;
  });
  if (rc) {
    gpu_free(be, out);
    return -1;
  }
  *heads_out = out;
  return 0;
}

// ---- key encoding ----------------------------------------------------------------

// attu_cpu_key_bits on the device.
__device__ inline int64_t key_bits(int type, const void* d, int64_t i) {
  double f;
  switch (type) {
    case ATTU_TYPE_BOOL: return static_cast<const uint8_t*>(d)[i];
    case ATTU_TYPE_INT16:
    case ATTU_TYPE_INT32:
    case ATTU_TYPE_DATE:
    case ATTU_TYPE_TEXT: return static_cast<const int32_t*>(d)[i];
    case ATTU_TYPE_FLOAT32: f = static_cast<const float*>(d)[i]; break;
    case ATTU_TYPE_FLOAT64: f = static_cast<const double*>(d)[i]; break;
    default: return static_cast<const int64_t*>(d)[i];
  }
  if (f == 0) f = 0;                                        // -0 equals 0
  if (isnan(f)) f = __longlong_as_double(0x7ff8000000000000LL);  // one NaN
  uint64_t u = (uint64_t)__double_as_longlong(f);
  u = (u >> 63) ? ~u : (u | (1ULL << 63));
  return (int64_t)(u ^ (1ULL << 63));
}

int gpu_key_encode(attu_backend* be, const attu_vec* col, size_t n, int64_t null_value,
                   attu_buf* out, attu_error* err) {
  if (n > kMaxCount) return attu_error_set(err, "54000", 0, "GPU backend: key_encode of %zu rows", n);
  return guarded(err, [&] {
    int type = col->type.id;
    const void* d = col->data->ptr;
    const uint8_t* v = col->valid ? static_cast<const uint8_t*>(col->valid->ptr) : nullptr;
    int64_t* o = I64(out);
    transform([=] __device__(int i) { o[i] = (v && !v[i]) ? null_value : key_bits(type, d, i); },
              (int)n, CTX(be));
  });
}

// ---- segmented reduction on the device -------------------------------------------

struct dspec_t {
  int op;
  int fl;            // input of the float class
  int in_type;
  const void* in;    // nullptr: every input is a non-NULL zero (as the CPU's load_num)
  const uint8_t* in_valid;
  int out_type;
  void* out;
  uint8_t* out_valid;
};

__device__ inline num_t load_num(const dspec_t& s, int64_t row, int* isnull) {
  num_t n;
  n.i = 0;
  if (!s.in) {
    *isnull = 0;
    return n;
  }
  *isnull = s.in_valid ? !s.in_valid[row] : 0;
  switch (s.in_type) {
    case ATTU_TYPE_BOOL: n.i = static_cast<const uint8_t*>(s.in)[row]; break;
    case ATTU_TYPE_INT16:
    case ATTU_TYPE_INT32:
    case ATTU_TYPE_DATE:
    case ATTU_TYPE_TEXT: n.i = static_cast<const int32_t*>(s.in)[row]; break;
    case ATTU_TYPE_FLOAT32: n.f = static_cast<const float*>(s.in)[row]; break;
    case ATTU_TYPE_FLOAT64: n.f = static_cast<const double*>(s.in)[row]; break;
    default: n.i = static_cast<const int64_t*>(s.in)[row]; break;
  }
  return n;
}

// U rows of one column at base, base + stride, ... (those whose bit is set
// in `rows`) into v, as load_num would: the type is switched on once for
// the U loads, which then issue back to back (a switch per row cost the
// reductions ~100 instructions a row).
template <typename T, bool as_float, int U>
__device__ inline void load_typed(const void* in, long long base, long long stride, unsigned rows, num_t (&v)[U]) {
#pragma unroll
  for (int u = 0; u < U; ++u) {
    if (!(rows >> u & 1)) continue;
    T x = static_cast<const T*>(in)[base + u * stride];
    if (as_float) v[u].f = (double)x;
    else v[u].i = (long long)x;
  }
}

template <int U>
__device__ inline void load_rows(int type, const void* in, long long base, long long stride, unsigned rows,
                                 num_t (&v)[U]) {
#pragma unroll
  for (int u = 0; u < U; ++u) v[u].i = 0;
  if (!in) return;
  switch (type) {
    case ATTU_TYPE_BOOL: load_typed<uint8_t, false>(in, base, stride, rows, v); break;
    case ATTU_TYPE_INT16:
    case ATTU_TYPE_INT32:
    case ATTU_TYPE_DATE:
    case ATTU_TYPE_TEXT: load_typed<int32_t, false>(in, base, stride, rows, v); break;
    case ATTU_TYPE_FLOAT32: load_typed<float, true>(in, base, stride, rows, v); break;
    default: load_typed<int64_t, false>(in, base, stride, rows, v); break;  // 8-byte slots; a double keeps its bits
  }
}

// The rows of `rows` whose validity byte is set (all of them without one).
template <int U>
__device__ inline unsigned valid_rows(const uint8_t* valid, long long base, long long stride, unsigned rows) {
  if (!valid) return rows;
  unsigned have = rows;
#pragma unroll
  for (int u = 0; u < U; ++u)
    if ((rows >> u & 1) && !valid[base + u * stride]) have &= ~(1u << u);
  return have;
}

__device__ inline int num_cmp(int fl, num_t a, num_t b) {
  if (fl) return fcmp_d(a.f, b.f);
  return (a.i > b.i) - (a.i < b.i);
}

__device__ inline int width_of(int type) {
  switch (type) {
    case ATTU_TYPE_BOOL:
    case ATTU_TYPE_UNKNOWN: return 1;  // as attu_type_width
    case ATTU_TYPE_INT16:
    case ATTU_TYPE_INT32:
    case ATTU_TYPE_DATE:
    case ATTU_TYPE_TEXT:
    case ATTU_TYPE_FLOAT32: return 4;
    default: return 8;
  }
}

// The CPU's store_one: NULL stores a zero of the slot's width.
__device__ inline void store_num(const dspec_t& s, int64_t row, num_t v, int isnull) {
  if (s.out_valid) s.out_valid[row] = !isnull;
  if (isnull) {
    switch (width_of(s.out_type)) {
      case 1: static_cast<uint8_t*>(s.out)[row] = 0; break;
      case 4: static_cast<int32_t*>(s.out)[row] = 0; break;
      default: static_cast<int64_t*>(s.out)[row] = 0; break;
    }
    return;
  }
  switch (s.out_type) {
    case ATTU_TYPE_BOOL: static_cast<uint8_t*>(s.out)[row] = (uint8_t)(v.i != 0); break;
    case ATTU_TYPE_INT16:
    case ATTU_TYPE_INT32:
    case ATTU_TYPE_DATE:
    case ATTU_TYPE_TEXT: static_cast<int32_t*>(s.out)[row] = (int32_t)v.i; break;
    case ATTU_TYPE_FLOAT32: static_cast<float*>(s.out)[row] = (float)v.f; break;
    case ATTU_TYPE_FLOAT64: static_cast<double*>(s.out)[row] = v.f; break;
    default: static_cast<int64_t*>(s.out)[row] = v.i; break;
  }
}

__device__ inline bool is_float_type(int t) {
  return t == ATTU_TYPE_FLOAT32 || t == ATTU_TYPE_FLOAT64;
}

// kFloatSafe (column_partials.cuh): float inputs below it cannot make a sum
// overflow; bigger or non-finite ones send the call to the host reference.

// One segment, one spec: the CPU reducer's add / store, row by row.
__device__ void reduce_segment(const dspec_t& s, const int64_t* perm, int64_t b, int64_t e,
                               int64_t seg, int* overflow) {
  int64_t cnt = 0;
  int has = 0;
  num_t acc;
  acc.i = 0;
  for (int64_t pos = b; pos < e; ++pos) {
    int64_t row = perm ? perm[pos] : pos;
    if (s.op == ATTU_REDUCE_COUNT_STAR) {
      ++cnt;
      continue;
    }
    int isnull = 0;
    num_t v = load_num(s, row, &isnull);
    if (isnull) continue;
    ++cnt;
    // A float sum or average meeting a huge or non-finite input may
    // overflow where PostgreSQL's accumulators raise 22003: the host
    // reference reruns the call (float_risk).
    if ((s.op == ATTU_REDUCE_SUM || s.op == ATTU_REDUCE_AVG_SUM) && s.fl && !(fabs(v.f) < kFloatSafe)) {
      atomicExch(overflow, 2);
      return;
    }
    switch (s.op) {
      case ATTU_REDUCE_SUM:
        if (s.fl) {
          acc.f = has ? acc.f + v.f : v.f;
        } else if (!has) {
          acc.i = v.i;
        } else {
          int64_t r = (int64_t)((uint64_t)acc.i + (uint64_t)v.i);
          if (((acc.i ^ r) & (v.i ^ r)) < 0) {
            atomicExch(overflow, 1);
            return;
          }
          acc.i = r;
        }
        has = 1;
        break;
      case ATTU_REDUCE_AVG_SUM:
        acc.f = (has ? acc.f : 0) + (s.fl ? v.f : (double)v.i);
        has = 1;
        break;
      case ATTU_REDUCE_MIN:
        if (!has || num_cmp(s.fl, v, acc) < 0) acc = v;
        has = 1;
        break;
      case ATTU_REDUCE_MAX:
        if (!has || num_cmp(s.fl, v, acc) > 0) acc = v;
        has = 1;
        break;
      case ATTU_REDUCE_ANY:
        if (!has) acc = v;
        has = 1;
        break;
      default: break;  // COUNT
    }
  }
  num_t out;
  out.i = 0;
  int isnull = 0;
  switch (s.op) {
    case ATTU_REDUCE_COUNT_STAR:
    case ATTU_REDUCE_COUNT: out.i = cnt; break;
    case ATTU_REDUCE_AVG_SUM:
      if (!has) isnull = 1;
      else out.f = acc.f;
      break;
    default:
      if (!has) isnull = 1;
      else if (is_float_type(s.out_type) && !s.fl) out.f = (double)acc.i;
      else out = acc;  // the raw union, as the CPU stores it
      break;
  }
  store_num(s, seg, out, isnull);
}

// The reductions as the device kernels read them.
std::vector<dspec_t> device_specs(const attu_reduce_spec* specs, const attu_out* outs, int nreduce) {
  std::vector<dspec_t> h((size_t)(nreduce > 0 ? nreduce : 0));
  for (int k = 0; k < nreduce; ++k) {
    const attu_reduce_spec& s = specs[k];
    h[k].op = s.op;
    h[k].fl = attu_type_mclass(s.in.type.id) == ATTU_MC_FLOAT;
    h[k].in_type = s.in.type.id;
    h[k].in = s.in.data ? s.in.data->ptr : nullptr;
    h[k].in_valid = s.in.valid ? static_cast<const uint8_t*>(s.in.valid->ptr) : nullptr;
    h[k].out_type = outs[k].type.id;
    h[k].out = outs[k].data->ptr;
    h[k].out_valid = outs[k].valid ? static_cast<uint8_t*>(outs[k].valid->ptr) : nullptr;
  }
  return h;
}

bool device_reducible(const attu_reduce_spec& s) {
  // NUMERIC and INTERVAL (16-byte slots) reduce on the host only
  if (attu_type_is_wide(s.in.type.id) || attu_type_is_wide(s.out_type.id)) return false;
  // sum(real) adds in single precision step by step, as PostgreSQL's
  // float4pl: the host reference keeps that order
  if (s.op == ATTU_REDUCE_SUM && s.in.type.id == ATTU_TYPE_FLOAT32) return false;
  switch (s.op) {
    case ATTU_REDUCE_COUNT_STAR:
    case ATTU_REDUCE_COUNT:
    case ATTU_REDUCE_SUM:
    case ATTU_REDUCE_MIN:
    case ATTU_REDUCE_MAX:
    case ATTU_REDUCE_AVG_SUM:
    case ATTU_REDUCE_ANY: return true;
    default: return false;
  }
}

// ---- few wide segments on the device ------------------------------------------
//
// A whole-column reduce, or a segreduce over fewer segments than one thread
// each would fill the GPU with, splits every segment into chunks of
// kWideChunk positions: one block reduces a chunk (strided loads, then a
// fixed-shape tree in shared memory), and one thread per (segment, spec)
// folds its chunks' partials in chunk order. The shape is fixed, so results
// are deterministic. Exact whatever the order: counts, integer sums (128-bit
// partials; 22003 when the total leaves int64), MIN / MAX (ties keep the
// earliest position, as the reference) and ANY (the earliest non-NULL).
// Float sums (SUM, AVG_SUM) add in that tree order rather than row by row,
// so their last bits may differ from the CPU backend's sequential sum, as
// PostgreSQL's own parallel aggregation differs from its serial one; this
// path is taken only for inputs of kWideMinRows or more, below which the
// host reference runs.

constexpr int kWideThreads = 256;
constexpr int64_t kWideChunk = 16384;
constexpr size_t kWideMinRows = 65536;

struct wstate_t {
  long long cnt;
  long long idx;   // position of acc (MIN / MAX / ANY)
  int has;
  num_t acc;       // MIN / MAX / ANY value, float sums
  __int128 isum;   // integer sums
};

__device__ inline void wstate_clear(wstate_t& w) {
  w.cnt = 0; w.idx = 0; w.has = 0; w.acc.i = 0; w.isum = 0;
}

__device__ inline void wstate_add(const dspec_t& s, wstate_t& w, num_t v, long long pos) {
  w.cnt++;
  switch (s.op) {
    case ATTU_REDUCE_SUM:
      if (s.fl) w.acc.f = w.has ? w.acc.f + v.f : v.f;
      else w.isum += v.i;
      w.has = 1;
      break;
    case ATTU_REDUCE_AVG_SUM:
      w.acc.f = (w.has ? w.acc.f : 0) + (s.fl ? v.f : (double)v.i);
      w.has = 1;
      break;
    case ATTU_REDUCE_MIN:
    case ATTU_REDUCE_MAX: {
      int c = w.has ? num_cmp(s.fl, v, w.acc) : 0;
      if (!w.has || (s.op == ATTU_REDUCE_MIN ? c < 0 : c > 0)) { w.acc = v; w.idx = pos; }
      w.has = 1;
      break;
    }
    case ATTU_REDUCE_ANY:
      if (!w.has) { w.acc = v; w.idx = pos; }
      w.has = 1;
      break;
    default: break;  // COUNT
  }
}

// w := w combined with o; o covers positions after w's (ties: earliest).
__device__ inline void wstate_merge(const dspec_t& s, wstate_t& w, const wstate_t& o) {
  w.cnt += o.cnt;
  if (!o.has) return;
  switch (s.op) {
    case ATTU_REDUCE_SUM:
      if (s.fl) w.acc.f = w.has ? w.acc.f + o.acc.f : o.acc.f;
      else w.isum += o.isum;
      break;
    case ATTU_REDUCE_AVG_SUM: w.acc.f = (w.has ? w.acc.f : 0) + o.acc.f; break;
    case ATTU_REDUCE_MIN:
    case ATTU_REDUCE_MAX: {
      if (!w.has) { w.acc = o.acc; w.idx = o.idx; break; }
      int c = num_cmp(s.fl, o.acc, w.acc);
      if (s.op == ATTU_REDUCE_MAX) c = -c;
      if (c < 0 || (c == 0 && o.idx < w.idx)) { w.acc = o.acc; w.idx = o.idx; }
      break;
    }
    case ATTU_REDUCE_ANY:
      if (!w.has || o.idx < w.idx) { w.acc = o.acc; w.idx = o.idx; }
      break;
    default: break;
  }
  w.has = 1;
}

// Block c reduces positions [cbeg[c], cend[c]) for every spec into part[c * nr + k].
__global__ void wide_chunk_kernel(const dspec_t* specs, int nr, const int64_t* perm,
                                  const int64_t* cbeg, const int64_t* cend, wstate_t* part, int* risk) {
  __shared__ wstate_t sh[kWideThreads];
  int64_t c = blockIdx.x;
  int t = threadIdx.x;
  int64_t b = cbeg[c], e = cend[c];
  // each thread takes a contiguous run, so thread order is position order
  int64_t len = e - b, per = (len + kWideThreads - 1) / kWideThreads;
  int64_t lo = b + min(len, (int64_t)t * per), hi = b + min(len, (int64_t)(t + 1) * per);
  for (int k = 0; k < nr; ++k) {
    const dspec_t& s = specs[k];
    wstate_t w;
    wstate_clear(w);
    for (int64_t pos = lo; pos < hi; ++pos) {
      int64_t row = perm ? perm[pos] : pos;
      if (s.op == ATTU_REDUCE_COUNT_STAR) { w.cnt++; continue; }
      int isnull = 0;
      num_t v = load_num(s, row, &isnull);
      if (isnull) continue;
      if ((s.op == ATTU_REDUCE_SUM || s.op == ATTU_REDUCE_AVG_SUM) && s.fl && !(fabs(v.f) < kFloatSafe))
        *risk = 1;
      wstate_add(s, w, v, pos);
    }
    sh[t] = w;
    __syncthreads();
    for (int off = 1; off < kWideThreads; off <<= 1) {
      if ((t & (2 * off - 1)) == 0) {
        wstate_t m = sh[t];
        wstate_merge(s, m, sh[t + off]);
        sh[t] = m;
      }
      __syncthreads();
    }
    if (t == 0) part[c * nr + k] = sh[0];
    __syncthreads();
  }
}

// Thread (seg, k) folds the segment's chunks in order and stores the result.
__global__ void wide_fold_kernel(const dspec_t* specs, int nr, int64_t nseg, const int64_t* segc,
                                 const wstate_t* part, int* overflow) {
  int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= nseg * nr) return;
  int64_t seg = i / nr;
  int k = (int)(i % nr);
  const dspec_t& s = specs[k];
  wstate_t w;
  wstate_clear(w);
  for (int64_t c = segc[seg]; c < segc[seg + 1]; ++c) wstate_merge(s, w, part[c * nr + k]);
  num_t out;
  out.i = 0;
  int isnull = 0;
  switch (s.op) {
    case ATTU_REDUCE_COUNT_STAR:
    case ATTU_REDUCE_COUNT: out.i = w.cnt; break;
    case ATTU_REDUCE_AVG_SUM:
      if (!w.has) isnull = 1;
      else out.f = w.acc.f;
      break;
    case ATTU_REDUCE_SUM:
      if (!w.has) { isnull = 1; break; }
      if (s.fl) { out.f = w.acc.f; break; }
      if (w.isum > (__int128)INT64_MAX || w.isum < (__int128)INT64_MIN) {
        atomicExch(overflow, 1);
        return;
      }
      out.i = (int64_t)w.isum;
      if (is_float_type(s.out_type)) out.f = (double)out.i;
      break;
    default:
      if (!w.has) isnull = 1;
      else if (is_float_type(s.out_type) && !s.fl) out.f = (double)w.acc.i;
      else out = w.acc;
      break;
  }
  // a NaN sum is the quiet NaN the host's sequential sum gives (CUDA's
  // arithmetic returns its own canonical NaN, with the sign bit set)
  if (!isnull && (s.op == ATTU_REDUCE_SUM || s.op == ATTU_REDUCE_AVG_SUM) && is_float_type(s.out_type) &&
      isnan(out.f))
    out.i = 0x7ff8000000000000LL;
  store_num(s, seg, out, isnull);
}

// The wide path for nseg segments given by offsets (host copy, nseg + 1
// entries) over perm order (nullptr: identity). Throws on CUDA errors; sets
// err and throws already_set_t on integer overflow.
void wide_segreduce(attu_backend* be, const std::vector<int64_t>& off, const attu_buf* perm, int nreduce,
                    const attu_reduce_spec* specs, attu_out* outs, attu_error* err) {
  context_t& ctx = CTX(be);
  size_t nseg = off.size() - 1;
  std::vector<int64_t> cbeg, cend, segc(nseg + 1);
  for (size_t s = 0; s < nseg; ++s) {
    segc[s] = (int64_t)cbeg.size();
    for (int64_t b = off[s]; b < off[s + 1]; b += kWideChunk) {
      cbeg.push_back(b);
      cend.push_back(std::min(off[s + 1], b + kWideChunk));
    }
  }
  segc[nseg] = (int64_t)cbeg.size();
  std::vector<dspec_t> h = device_specs(specs, outs, nreduce);
  size_t nchunk = cbeg.size();
  if (nchunk == 0) { cbeg.push_back(0); cend.push_back(0); }
  mem_t<dspec_t> ds = to_mem(h, ctx);
  mem_t<int64_t> db = to_mem(cbeg, ctx), de = to_mem(cend, ctx), dc = to_mem(segc, ctx);
  mem_t<wstate_t> part((nchunk ? nchunk : 1) * (size_t)nreduce, ctx);
  mem_t<int> flag(2, ctx);  // [0] integer overflow, [1] a float sum at risk
  flag.memset(0);
  if (nchunk) {
    wide_chunk_kernel<<<(unsigned)nchunk, kWideThreads, 0, ctx.stream()>>>(
        ds.data(), nreduce, perm ? I64(perm) : nullptr, db.data(), de.data(), part.data(), flag.data() + 1);
    ATTU_CUDA_CHECK_LAUNCH();
  }
  int64_t nthreads = (int64_t)nseg * nreduce;
  if (nthreads) {
    wide_fold_kernel<<<(unsigned)((nthreads + 127) / 128), 128, 0, ctx.stream()>>>(
        ds.data(), nreduce, (int64_t)nseg, dc.data(), part.data(), flag.data());
    ATTU_CUDA_CHECK_LAUNCH();
  }
  int flags[2] = {0, 0};
  dtoh(flags, flag.data(), 2, ctx);
  if (flags[1]) throw float_risk_t();
  if (flags[0]) {
    attu_error_set(err, ATTU_SQLSTATE_NUMERIC_RANGE, 0, "bigint out of range");
    throw already_set_t();
  }
}

// ---- host staging --------------------------------------------------------------

// Host copies of device buffers for one staged call. Each device buffer is
// copied down once (whole: a primitive may index any of it); outputs are
// copied back by commit(), and only when the host call succeeded, so a
// failed call leaves the device outputs as they were.
class stage_t {
 public:
  explicit stage_t(attu_backend* be) : be_(be) {}
  ~stage_t() {
    for (auto& kv : bufs_) {
      free(kv.second->ptr);
      free(kv.second);
    }
  }
  stage_t(const stage_t&) = delete;
  stage_t& operator=(const stage_t&) = delete;

  attu_buf* in(const attu_buf* d) {
    if (!d) return nullptr;
    auto it = bufs_.find(d);
    if (it != bufs_.end()) return it->second;
    attu_buf* h = host_copy(d);
    if (d->bytes) {
      ATTU_CUDA_CHECK(cudaMemcpyAsync(h->ptr, d->ptr, d->bytes, cudaMemcpyDeviceToHost,
                                      CTX(be_).stream()));
      CTX(be_).synchronize();
    }
    return h;
  }
  // Stages every buffer of ds not staged yet with one synchronization
  // (download_staged); with fewer than two, or too many bytes, in() copies
  // them one by one later.
  void in_all(const std::vector<const attu_buf*>& ds) {
    std::vector<const attu_buf*> todo;
    std::vector<size_t> bytes;
    for (const attu_buf* d : ds)
      if (d && !bufs_.count(d) && std::find(todo.begin(), todo.end(), d) == todo.end()) {
        todo.push_back(d);
        bytes.push_back(d->bytes);
      }
    int n = (int)todo.size();
    if (n < 2 || staged_bytes(n, bytes.data()) > kStagingMaxBytes) return;
    std::vector<void*> host((size_t)n);
    std::vector<const void*> dev((size_t)n);
    for (int i = 0; i < n; ++i) {
      host[(size_t)i] = host_copy(todo[(size_t)i])->ptr;
      dev[(size_t)i] = todo[(size_t)i]->ptr;
    }
    download_staged(be_, n, host.data(), dev.data(), bytes.data());
  }
  attu_buf* out(attu_buf* d) {
    attu_buf* h = in(d);
    if (h) back_.push_back(d);
    return h;
  }
  // An output the host code writes whole over [0, used) bytes and never
  // reads: no copy down (a synchronized transfer of 10 us or more per
  // buffer, most of a small staged eval's time); commit copies up only
  // those bytes. A buffer already staged as an input keeps its copy.
  attu_buf* fresh(attu_buf* d, size_t used) {
    if (!d) return nullptr;
    if (bufs_.count(d)) return out(d);
    attu_buf* h = static_cast<attu_buf*>(calloc(1, sizeof *h));
    if (!h) throw std::bad_alloc();
    h->ptr = calloc(1, d->bytes ? d->bytes : 1);
    if (!h->ptr) {
      free(h);
      throw std::bad_alloc();
    }
    h->bytes = d->bytes;
    bufs_[d] = h;
    used_[d] = used < d->bytes ? used : d->bytes;
    back_.push_back(d);
    return h;
  }
  attu_out outv_fresh(const attu_out& o, size_t n) {
    attu_out r = o;
    r.data = fresh(o.data, n * attu_type_width(o.type.id));
    r.valid = fresh(o.valid, n);
    return r;
  }
  attu_vec vec(const attu_vec& v) {
    attu_vec r = v;
    r.data = in(v.data);
    r.valid = in(v.valid);
    return r;
  }
  attu_out outv(const attu_out& o) {
    attu_out r = o;
    r.data = out(o.data);
    r.valid = out(o.valid);
    return r;
  }
  // Small outputs go up through the upload ring (no wait: a staged eval of
  // a few rows paid a synchronized pageable copy per output), larger ones
  // are waited for by upload_bytes; either way the host copies may die.
  void commit() {
    for (attu_buf* d : back_) {
      attu_buf* h = bufs_[d];
      auto u = used_.find(d);
      size_t bytes = u != used_.end() ? u->second : d->bytes;
      upload_bytes(d->ptr, h->ptr, bytes, CTX(be_));
    }
  }

 private:
  // A host buffer the size of d, registered as d's copy (its bytes not yet
  // copied).
  attu_buf* host_copy(const attu_buf* d) {
    attu_buf* h = static_cast<attu_buf*>(calloc(1, sizeof *h));
    if (!h) throw std::bad_alloc();
    h->ptr = malloc(d->bytes ? d->bytes : 1);
    if (!h->ptr) {
      free(h);
      throw std::bad_alloc();
    }
    h->bytes = d->bytes;
    bufs_[d] = h;
    return h;
  }

  attu_backend* be_;
  std::map<const attu_buf*, attu_buf*> bufs_;
  std::map<const attu_buf*, size_t> used_;  // fresh outputs: the bytes to copy up
  std::vector<attu_buf*> back_;
};

attu_reduce_spec stage_spec(stage_t& st, const attu_reduce_spec& s) {
  attu_reduce_spec r = s;
  r.in = st.vec(s.in);
  r.arg = st.vec(s.arg);
  return r;
}

// ---- eval on the device (the numeric subset) --------------------------------------

// The program as the device interpreter reads it (expr_device.cuh).
std::vector<dinstr_t> device_code(const attu_expr_program* p) {
  std::vector<dinstr_t> code((size_t)p->ninstr);
  for (int k = 0; k < p->ninstr; ++k) {
    const attu_instr& in = p->code[k];
    dinstr_t& d = code[k];
    d.op = in.op;
    d.dst = in.dst; d.a = in.a; d.b = in.b; d.c = in.c; d.d = in.d; d.guard = in.guard;
    d.imm_null = in.imm_null;
    d.imm_i = in.imm_i;
    d.imm_f = in.imm_f;
    d.dst_type = p->reg_types[in.dst].id;
    d.dst_prec = p->reg_types[in.dst].precision;
    d.dst_float = attu_type_mclass(p->reg_types[in.dst].id) == ATTU_MC_FLOAT;
  }
  return code;
}

// A column as the device kernels read it.
inline dcol_t device_col(const attu_vec& v) {
  return dcol_t{v.type.id, v.data->ptr, v.valid ? static_cast<const uint8_t*>(v.valid->ptr) : nullptr};
}

bool device_eval_eligible(const attu_expr_program* p, const attu_vec* inputs,
                          const attu_out* outputs) {
  if (p->nregs > kDevMaxRegs || p->ninputs > p->nregs) return false;
  // TEXT, and NUMERIC and INTERVAL (16-byte values): host only
  for (int r = 0; r < p->nregs; ++r)
    if (p->reg_types[r].id == ATTU_TYPE_TEXT || attu_type_is_wide(p->reg_types[r].id)) return false;
  for (int i = 0; i < p->ninputs; ++i)
    if (inputs[i].type.id == ATTU_TYPE_TEXT || inputs[i].type.id == ATTU_TYPE_UNKNOWN ||
        !inputs[i].data)
      return false;
  for (int o = 0; o < p->noutputs; ++o)
    if (outputs[o].type.id == ATTU_TYPE_TEXT || outputs[o].type.id == ATTU_TYPE_UNKNOWN ||
        !outputs[o].data)
      return false;
  for (int k = 0; k < p->ninstr; ++k) {
    const attu_instr& in = p->code[k];
    if (!dev_op_supported(in.op) || (in.op == ATTU_OP_CONST && in.imm_s >= 0)) return false;
    // eval's results are the reference's bit for bit: CUDA's transcendental
    // functions are not (lbs_segreduce takes them; docs/architecture.md)
    if (dev_op_approximate(in.op)) return false;
  }
  return true;
}

// One fused pass: per row, load the inputs, run the program, store the
// outputs. The program's registers live in shared memory, strided by the
// block size (as lbs_segreduce's): a per-thread array of kDevMaxRegs slots
// indexed at run time went to local memory, 768 bytes a thread, beyond L1,
// and ran at a tenth of the copy bandwidth (8.6 ms for 100M rows on the
// H100). The program and the column descriptors are copied to shared
// memory once per block; a grid of resident blocks strides over the rows;
// the program's constants are evaluated once per thread, not per row.
constexpr int kEvalThreads = 128;

__global__ void __launch_bounds__(kEvalThreads) eval_kernel(const dinstr_t* code, int npre, int ninstr,
                                                            const dcol_t* ins, int nin, const dres_t* outs,
                                                            int nout, int nregs, long long n, int* fail) {
  extern __shared__ dslot_t eregs[];
  dinstr_t* scode = reinterpret_cast<dinstr_t*>(eregs + (size_t)nregs * blockDim.x);
  dcol_t* sins = reinterpret_cast<dcol_t*>(scode + ninstr);
  dres_t* souts = reinterpret_cast<dres_t*>(sins + nin);
  for (int i = threadIdx.x; i < ninstr; i += blockDim.x) scode[i] = code[i];
  for (int i = threadIdx.x; i < nin; i += blockDim.x) sins[i] = ins[i];
  for (int i = threadIdx.x; i < nout; i += blockDim.x) souts[i] = outs[i];
  __syncthreads();
  strided_regs_t R{eregs + threadIdx.x, (int)blockDim.x};
  for (int r = 0; r < nregs; ++r) {
    R[r].v.i = 0;
    R[r].null = 0;
  }
  // the constants (code[0, npre)) once: no other instruction writes their
  // registers (device_eval checks), and every other register is written
  // before it is read, so nothing is reset between rows
  if (npre && dev_eval_row(scode, npre, R)) {
    atomicExch(fail, 1);
    return;
  }
  long long stride = (long long)gridDim.x * blockDim.x;
  for (long long row = (long long)blockIdx.x * blockDim.x + threadIdx.x; row < n; row += stride) {
    for (int i = 0; i < nin; ++i) dev_load(sins[i].type, sins[i].data, sins[i].valid, row, &R[i]);
    if (dev_eval_row(scode + npre, ninstr - npre, R)) {
      atomicExch(fail, 1);
      return;
    }
    for (int o = 0; o < nout; ++o) dev_store(souts[o].type, souts[o].data, souts[o].valid, row, R[souts[o].reg]);
  }
}

int device_eval(attu_backend* be, const attu_expr_program* p, const attu_vec* inputs, size_t n,
                attu_out* outputs) {
  context_t& ctx = CTX(be);
  // constants first (run once per thread), when nothing else writes their registers
  std::vector<dinstr_t> all = device_code(p), code;
  std::vector<int> writes((size_t)(p->nregs > 0 ? p->nregs : 1), 0);
  for (const dinstr_t& in : all) writes[in.dst]++;
  for (const dinstr_t& in : all)
    if (in.op == ATTU_OP_CONST && in.guard < 0 && writes[in.dst] == 1) code.push_back(in);
  int npre = (int)code.size();
  for (const dinstr_t& in : all)
    if (!(in.op == ATTU_OP_CONST && in.guard < 0 && writes[in.dst] == 1)) code.push_back(in);
  if (code.empty()) code.resize(1);  // to_mem wants something to copy
  std::vector<dcol_t> ins((size_t)(p->ninputs > 0 ? p->ninputs : 1));
  for (int i = 0; i < p->ninputs; ++i) ins[i] = device_col(inputs[i]);
  std::vector<dres_t> outs((size_t)(p->noutputs > 0 ? p->noutputs : 1));
  for (int o = 0; o < p->noutputs; ++o) {
    outputs[o].dict = nullptr;
    outs[o] = dres_t{outputs[o].type.id, outputs[o].data->ptr,
                     outputs[o].valid ? static_cast<uint8_t*>(outputs[o].valid->ptr) : nullptr,
                     p->outputs[o]};
  }
  if (n == 0) return 0;
  mem_t<dinstr_t> dcode = to_mem(code, ctx);
  mem_t<dcol_t> dins = to_mem(ins, ctx);
  mem_t<dres_t> douts = to_mem(outs, ctx);
  mem_t<int> flag(1, ctx);
  flag.memset(0);
  int nregs = p->nregs > 0 ? p->nregs : 1;
  // A compiled kernel where the rows pay for its compilation; its
  // registers are machine registers, its loads and stores typed.
  if ((long long)n >= jit_min_items() && jit_available()) {
    std::vector<dcol_t> jins(ins.begin(), ins.begin() + p->ninputs);
    std::vector<dres_t> jouts(outs.begin(), outs.begin() + p->noutputs);
    std::vector<dinstr_t> jcode(code.begin(), code.begin() + p->ninstr);
    int per_sm = 0;
    const void* jit = jit_kernel(jit_eval_source(jcode, npre, nregs, jins, jouts), kJitEvalThreads, &per_sm);
    if (jit) {
      long long blocks = std::min<long long>((long long)ctx.sm_count() * jit_wave_blocks(per_sm),
                                             ((long long)n + kJitEvalThreads - 1) / kJitEvalThreads);
      const dinstr_t* cp = dcode.data();
      const dcol_t* ip = dins.data();
      const dres_t* op = douts.data();
      long long nn = (long long)n;
      int* fp = flag.data();
      void* args[] = {&cp, &ip, &op, &nn, &fp};
      ATTU_CUDA_CHECK(cudaLaunchKernel(jit, dim3((unsigned)blocks), dim3(kJitEvalThreads), args, 0, ctx.stream()));
      ATTU_CUDA_CHECK_LAUNCH();
      int failed = 0;
      dtoh(&failed, flag.data(), 1, ctx);
      return failed;
    }
  }
  size_t shmem = (size_t)nregs * kEvalThreads * sizeof(dslot_t) + (size_t)p->ninstr * sizeof(dinstr_t) +
                 (size_t)p->ninputs * sizeof(dcol_t) + (size_t)p->noutputs * sizeof(dres_t);
  if (shmem > 48 * 1024)
    ATTU_CUDA_CHECK(cudaFuncSetAttribute(eval_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)shmem));
  int per_sm = 0;
  ATTU_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, eval_kernel, kEvalThreads, shmem));
  long long blocks = std::min<long long>((long long)ctx.sm_count() * std::max(per_sm, 1),
                                         ((long long)n + kEvalThreads - 1) / kEvalThreads);
  eval_kernel<<<(unsigned)blocks, kEvalThreads, shmem, ctx.stream()>>>(
      dcode.data(), npre, p->ninstr, dins.data(), p->ninputs, douts.data(), p->noutputs, nregs, (long long)n,
      flag.data());
  ATTU_CUDA_CHECK_LAUNCH();
  int failed = 0;
  dtoh(&failed, flag.data(), 1, ctx);
  return failed;
}

// A program whose TEXT registers are only dictionary-coded input columns
// compared with string constants (and IS [NOT] NULL), rewritten to compare
// the codes: the dictionary is sorted in byte order, so with lb the
// constant's code or insertion point (attu_dictionary_find) and `found`
// whether it is present, x = c is code == lb (never, if absent), x < c is
// code < lb, x <= c is code < lb + found, and so on. A typical dimension
// filter (`p_category = 'MFGR#12'`, `region IN ('ASIA', 'EUROPE')`) then
// runs on the device instead of being staged through the host. The result
// holds the rewritten program (sharing prog's strings) and input types;
// false when the program has any other use of TEXT.
struct coded_t {
  std::vector<attu_instr> code;
  std::vector<attu_type> types;
  std::vector<attu_vec> inputs;
  attu_expr_program prog;
};

bool text_compares_as_codes(const attu_expr_program* p, const attu_vec* inputs, coded_t& out) {
  auto is_text = [&](int r) { return r >= 0 && r < p->nregs && p->reg_types[r].id == ATTU_TYPE_TEXT; };
  std::vector<int> str_const((size_t)p->nregs, -1);
  bool any_text = false;
  for (int r = 0; r < p->nregs; ++r) any_text = any_text || is_text(r);
  if (!any_text) return false;
  for (int k = 0; k < p->ninstr; ++k) {
    const attu_instr& in = p->code[k];
    if (in.op == ATTU_OP_CONST && in.imm_s >= 0 && !in.imm_null && in.dst >= 0) str_const[in.dst] = k;
  }
  out.types.assign(p->reg_types, p->reg_types + p->nregs);
  out.inputs.assign(inputs, inputs + p->ninputs);
  out.code.clear();
  const attu_type i8 = attu_type_make(ATTU_TYPE_INT64);
  for (int k = 0; k < p->ninstr; ++k) {
    attu_instr in = p->code[k];
    if (in.op == ATTU_OP_CONST && in.imm_s >= 0) {
      // a string constant: its uses are rewritten below or the rewrite fails
      out.types[in.dst] = i8;
      in.imm_s = -1;
      in.imm_i = 0;
      out.code.push_back(in);
      continue;
    }
    if ((in.op == ATTU_OP_IS_NULL || in.op == ATTU_OP_IS_NOT_NULL) && in.a >= 0 && in.a < p->ninputs) {
      out.code.push_back(in);
      continue;
    }
    if (in.op >= ATTU_OP_EQ_S && in.op <= ATTU_OP_GE_S) {
      int rel = in.op - ATTU_OP_EQ_S;  // EQ NE LT LE GT GE
      int col = in.a, cst = in.b;
      if (!(col >= 0 && col < p->ninputs)) {
        std::swap(col, cst);
        if (rel >= 2) rel = rel == 2 ? 4 : rel == 3 ? 5 : rel == 4 ? 2 : 3;  // c < x is x > c
      }
      if (!(col >= 0 && col < p->ninputs) || cst < 0 || cst >= p->nregs || str_const[cst] < 0) return false;
      const attu_vec& v = inputs[col];
      if (v.type.id != ATTU_TYPE_TEXT || !v.dict || (in.guard >= 0 && is_text(in.guard))) return false;
      const attu_instr& ci = p->code[str_const[cst]];
      int32_t f = attu_dictionary_find(v.dict, p->strs[ci.imm_s], p->str_lens[ci.imm_s]);
      int64_t found = f >= 0, lb = f >= 0 ? f : -(int64_t)f - 1;
      static const int ops[6] = {ATTU_OP_EQ_I, ATTU_OP_NE_I, ATTU_OP_LT_I, ATTU_OP_LT_I, ATTU_OP_GE_I, ATTU_OP_GE_I};
      int64_t val = rel == 0 || rel == 1 ? (found ? lb : -1) : rel == 3 || rel == 4 ? lb + found : lb;
      int creg = (int)out.types.size();
      out.types.push_back(i8);
      attu_instr c = attu_instr_make(ATTU_OP_CONST, creg, -1, -1);
      c.imm_i = val;
      c.guard = in.guard;
      out.code.push_back(c);
      in.op = (uint16_t)ops[rel];
      in.a = (int16_t)col;
      in.b = (int16_t)creg;
      out.code.push_back(in);
      continue;
    }
    if (is_text(in.dst) || is_text(in.a) || is_text(in.b) || is_text(in.c) || is_text(in.d) || is_text(in.guard))
      return false;
    out.code.push_back(in);
  }
  for (int o = 0; o < p->noutputs; ++o)
    if (is_text(p->outputs[o])) return false;
  for (int i = 0; i < p->ninputs; ++i)
    if (out.inputs[i].type.id == ATTU_TYPE_TEXT) {
      out.inputs[i].type = attu_type_make(ATTU_TYPE_INT32);  // the codes
      out.types[i] = attu_type_make(ATTU_TYPE_INT32);
    }
  if (out.types.size() > (size_t)kDevMaxRegs) return false;
  out.prog = *p;
  out.prog.code = out.code.data();
  out.prog.ninstr = (int)out.code.size();
  out.prog.cap_instr = out.prog.ninstr;
  out.prog.reg_types = out.types.data();
  out.prog.nregs = (int)out.types.size();
  return true;
}

int gpu_eval(attu_backend* be, const attu_expr_program* prog, const attu_vec* inputs, size_t n,
             attu_out* outputs, attu_error* err) {
  if (IMPL(be)->device_eval && n <= kMaxCount) {
    const attu_expr_program* dp = nullptr;
    const attu_vec* din = inputs;
    coded_t coded;
    if (device_eval_eligible(prog, inputs, outputs)) dp = prog;
    else if (text_compares_as_codes(prog, inputs, coded) &&
             device_eval_eligible(&coded.prog, coded.inputs.data(), outputs)) {
      dp = &coded.prog;
      din = coded.inputs.data();
    }
    if (dp) {
      int failed = 0;
      if (attu_backend_interrupted(err)) return -1;
      if (guarded(err, [&] { failed = device_eval(be, dp, din, n, outputs); })) return -1;
      if (!failed) return 0;
      // Some row fails: the reference below raises its exact error.
    }
  }
  attu_backend* host = IMPL(be)->host;
  return guarded(err, [&] {
    stage_t st(be);
    std::vector<const attu_buf*> all;
    for (int i = 0; i < prog->ninputs; ++i) {
      all.push_back(inputs[i].data);
      all.push_back(inputs[i].valid);
    }
    st.in_all(all);
    std::vector<attu_vec> hin((size_t)prog->ninputs);
    for (int i = 0; i < prog->ninputs; ++i) hin[i] = st.vec(inputs[i]);
    std::vector<attu_out> hout((size_t)prog->noutputs);
    // eval writes every output slot of rows [0, n)
    for (int o = 0; o < prog->noutputs; ++o) hout[o] = st.outv_fresh(outputs[o], n);
    int rc = host->eval(host, prog, hin.data(), n, hout.data(), err);
    // TEXT outputs' dictionaries are host objects either way; hand them over.
    for (int o = 0; o < prog->noutputs; ++o) outputs[o].dict = hout[o].dict;
    if (rc) throw already_set_t();
    st.commit();
  });
}

// ---- the fused join-aggregate on the device ------------------------------------
//
// The kernel is lbs_kernel.cuh's body with the interpreting step, or a
// compiled one (expr_jit.cuh). Anything outside the device subset, and any
// row the program fails on (the reference raises the exact error), goes
// through the host below.

__global__ void __launch_bounds__(kLbsThreads) lbs_segreduce_kernel(lbs_kargs_t a) {
  lbs_segreduce_body<lbs_interp_step>(a);
}

// Whether the device can run this call with the reference's results.
bool lbs_device_eligible(const attu_lbs_segreduce_args* a) {
  const attu_expr_program* p = a->prog;
  if (!p || a->nreduce < 0) return false;
  if (p->nregs > kDevMaxRegs || p->ninputs != a->nleft + a->nright) return false;
  if (a->nseg > ((size_t)1 << 32)) return false;  // the grid: 32 threads a segment
  if (!a->right_map || a->right_map->bytes / sizeof(int64_t) > (size_t)INT32_MAX) return false;  // 32-bit item indices
  auto is_text = [&](int reg) { return reg >= 0 && reg < p->nregs && p->reg_types[reg].id == ATTU_TYPE_TEXT; };
  // NUMERIC and INTERVAL registers (16-byte values) run on the host only
  for (int r = 0; r < p->nregs; ++r)
    if (attu_type_is_wide(p->reg_types[r].id)) return false;
  for (int k = 0; k < p->ninstr; ++k) {
    const attu_instr& in = p->code[k];
    if (!dev_op_supported(in.op) || (in.op == ATTU_OP_CONST && in.imm_s >= 0)) return false;
    if (in.dst < p->ninputs) return false;  // inputs are loaded once
    // TEXT registers may only be untouched right inputs (an _ARG payload)
    if (is_text(in.dst) || is_text(in.a) || is_text(in.b) || is_text(in.c) || is_text(in.d) ||
        is_text(in.guard))
      return false;
  }
  for (int i = 0; i < p->ninputs; ++i) {
    const attu_vec& v = i < a->nleft ? a->left[i] : a->right[i - a->nleft];
    if (!v.data || v.type.id == ATTU_TYPE_UNKNOWN) return false;
    if (v.type.id == ATTU_TYPE_TEXT && i < a->nleft) return false;
  }
  if (a->filter_reg >= 0 && (a->filter_reg >= p->noutputs || is_text(p->outputs[a->filter_reg])))
    return false;
  int nplain = 0;
  for (int k = 0; k < a->nreduce; ++k) {
    const attu_reduce_spec& sp = a->reduce[k];
    switch (sp.op) {
      case ATTU_REDUCE_COUNT_STAR:
      case ATTU_REDUCE_COUNT:
      case ATTU_REDUCE_MIN:
      case ATTU_REDUCE_MAX: nplain++; break;
      case ATTU_REDUCE_NTH_SMALLEST:
      case ATTU_REDUCE_NTH_LARGEST:
      case ATTU_REDUCE_NTH_SMALLEST_ARG:
      case ATTU_REDUCE_NTH_LARGEST_ARG:
        if (sp.k < 1 || sp.k > kLbsMaxK) return false;
        break;
      default: return false;
    }
    if (sp.op != ATTU_REDUCE_COUNT_STAR) {
      if (sp.in_reg < 0 || sp.in_reg >= p->noutputs || is_text(p->outputs[sp.in_reg])) return false;
      if (sp.in.type.id == ATTU_TYPE_TEXT) return false;
    }
    bool arg = sp.op == ATTU_REDUCE_NTH_SMALLEST_ARG || sp.op == ATTU_REDUCE_NTH_LARGEST_ARG;
    if (arg) {
      if (sp.arg_reg < 0 || sp.arg_reg >= p->noutputs) return false;
      int reg = p->outputs[sp.arg_reg];
      bool right_input = reg >= a->nleft && reg < a->nleft + a->nright;
      if (is_text(reg) && !(sp.out_type.id == ATTU_TYPE_TEXT && right_input)) return false;
      if (sp.out_type.id == ATTU_TYPE_TEXT && !right_input) return false;
    }
    const attu_out& o = a->out[k];
    if (!o.data || o.type.id == ATTU_TYPE_UNKNOWN) return false;
  }
  return nplain <= kLbsMaxPlain;  // the ranked lists are counted when built
}

// The instruction whose earth_distance may be ranked by the chord instead
// (kDevOpEarthChord, lbs_kernel.cuh), or -1. Its value must serve one
// ranked list and nothing else (no other instruction, the filter, a plain
// reduction or a payload reads it), as only the list's winners get their
// distance. Its point is a pair of left float inputs, constant over a
// segment; its partner's latitude and longitude are FLOAT64 right columns
// of one length, which the winners' distances are read again from.
// ATTU_GPU_EARTH_CHORD=0 turns it off (the distance per item, as the
// interpreter's instruction computes it).
int chord_instr(const attu_lbs_segreduce_args* a, const std::vector<lgroup_t>& groups, int ngroup,
                const std::vector<int>& plain_reg, int nplain, int filter_reg, int* group) {
  const char* off = getenv("ATTU_GPU_EARTH_CHORD");  // read per call: the tests compare both ways
  if (off && strcmp(off, "0") == 0) return -1;
  const attu_expr_program* p = a->prog;
  for (int k = 0; k < p->ninstr; ++k) {
    const attu_instr& e = p->code[k];
    if (e.op != ATTU_OP_EARTH_DISTANCE || e.guard >= 0) continue;
    const int r = e.dst, nl = a->nleft, nr = a->nright;
    auto left_float = [&](int reg) {
      return reg >= 0 && reg < nl && attu_type_mclass(a->left[reg].type.id) == ATTU_MC_FLOAT;
    };
    auto right_f64 = [&](int reg) {
      return reg >= nl && reg < nl + nr && a->right[reg - nl].type.id == ATTU_TYPE_FLOAT64 && a->right[reg - nl].data;
    };
    if (!left_float(e.a) || !left_float(e.b) || !right_f64(e.c) || !right_f64(e.d)) continue;
    if (a->right[e.c - nl].data->bytes != a->right[e.d - nl].data->bytes) continue;
    bool other_use = filter_reg == r;
    for (int j = 0; j < p->ninstr && !other_use; ++j) {
      const attu_instr& o = p->code[j];
      if (j != k && (o.dst == r || o.a == r || o.b == r || o.c == r || o.d == r || o.guard == r)) other_use = true;
    }
    for (int j = 0; j < nplain && !other_use; ++j) other_use = plain_reg[(size_t)j] == r;
    int g = -1;
    for (int gi = 0; gi < ngroup && !other_use; ++gi) {
      const lgroup_t& G = groups[(size_t)gi];
      for (int j = 0; j < G.npay; ++j) other_use = other_use || G.pay_reg[j] == r;
      if (G.in_reg != r) continue;
      if (g >= 0 || !G.fl) other_use = true;
      g = gi;
    }
    if (other_use || g < 0) continue;
    *group = g;
    return k;
  }
  return -1;
}

// Returns 0, 1 when some item fails in the program (outputs unspecified; the
// caller reruns the reference for its exact error), or 2 when the ranked
// lists do not fit the kernel's state (the caller stages it instead).
int device_lbs_segreduce(attu_backend* be, const attu_lbs_segreduce_args* a) {
  context_t& ctx = CTX(be);
  const attu_expr_program* p = a->prog;
  std::vector<lspec_t> specs((size_t)(a->nreduce > 0 ? a->nreduce : 1));
  std::vector<lgroup_t> groups;
  std::vector<int> plain_op, plain_reg, plain_fl;
  for (int k = 0; k < a->nreduce; ++k) {
    const attu_reduce_spec& sp = a->reduce[k];
    lspec_t& l = specs[k];
    l.op = sp.op;
    l.k = sp.k < 1 ? 1 : sp.k;
    l.fl = attu_type_mclass(sp.in.type.id) == ATTU_MC_FLOAT;
    l.in_reg = sp.in_reg >= 0 ? p->outputs[sp.in_reg] : -1;
    l.group = l.pay = l.plain = -1;
    l.out_type = a->out[k].type.id;
    l.out_fl = attu_type_mclass(a->out[k].type.id) == ATTU_MC_FLOAT;
    l.out = a->out[k].data->ptr;
    l.out_valid = a->out[k].valid ? static_cast<uint8_t*>(a->out[k].valid->ptr) : nullptr;
    bool nth = sp.op >= ATTU_REDUCE_NTH_SMALLEST && sp.op <= ATTU_REDUCE_NTH_LARGEST_ARG;
    if (!nth) {
      l.plain = (int)plain_op.size();
      plain_op.push_back(sp.op);
      plain_reg.push_back(l.in_reg);
      plain_fl.push_back(l.fl);
      continue;
    }
    int largest = sp.op == ATTU_REDUCE_NTH_LARGEST || sp.op == ATTU_REDUCE_NTH_LARGEST_ARG;
    int gi = -1;
    for (size_t g = 0; g < groups.size(); ++g)
      if (groups[g].in_reg == l.in_reg && groups[g].largest == largest && groups[g].fl == l.fl) gi = (int)g;
    if (gi < 0) {
      if (groups.size() == (size_t)kLbsMaxGroups) return 2;
      lgroup_t g{};
      g.largest = largest;
      g.fl = l.fl;
      g.in_reg = l.in_reg;
      g.K = 0;
      g.npay = 0;
      groups.push_back(g);
      gi = (int)groups.size() - 1;
    }
    lgroup_t& g = groups[gi];
    if (l.k > g.K) g.K = l.k;
    l.group = gi;
    if (sp.op == ATTU_REDUCE_NTH_SMALLEST_ARG || sp.op == ATTU_REDUCE_NTH_LARGEST_ARG) {
      int reg = p->outputs[sp.arg_reg];
      int text = sp.out_type.id == ATTU_TYPE_TEXT ? reg - a->nleft : -1;
      int pj = -1;
      for (int j = 0; j < g.npay; ++j)
        if (g.pay_reg[j] == reg && g.pay_text[j] == text) pj = j;
      if (pj < 0) {
        if (g.npay == kLbsMaxPay) return 2;
        pj = g.npay++;
        g.pay_reg[pj] = reg;
        g.pay_text[pj] = text;
      }
      l.pay = pj;
    }
  }
  std::vector<dinstr_t> code = device_code(p);
  if (code.empty()) code.resize(1);  // to_mem wants something to copy
  std::vector<dcol_t> left((size_t)(a->nleft > 0 ? a->nleft : 1)), right((size_t)(a->nright > 0 ? a->nright : 1));
  for (int i = 0; i < a->nleft; ++i) left[i] = device_col(a->left[i]);
  for (int i = 0; i < a->nright; ++i) right[i] = device_col(a->right[i]);
  if (groups.empty()) groups.push_back(lgroup_t{});
  for (auto* v : {&plain_op, &plain_reg, &plain_fl}) if (v->empty()) v->push_back(0);
  int ngroup = 0, nplain = 0;
  for (auto& l : specs) {
    if (l.group >= 0 && l.group + 1 > ngroup) ngroup = l.group + 1;
    if (l.plain >= 0 && l.plain + 1 > nplain) nplain = l.plain + 1;
  }
  const int filter_prog_reg = a->filter_reg >= 0 ? p->outputs[a->filter_reg] : -1;
  int chord_group = -1;
  const int chord = chord_instr(a, groups, ngroup, plain_reg, nplain, filter_prog_reg, &chord_group);
  if (chord >= 0) {
    code[(size_t)chord].op = kDevOpEarthChord;
    lgroup_t& g = groups[(size_t)chord_group];
    g.K = g.K + kLbsChordSlack < kLbsMaxK ? g.K + kLbsChordSlack : kLbsMaxK;
  }
  mem_t<dinstr_t> dcode = to_mem(code, ctx);
  mem_t<dcol_t> dleft = to_mem(left, ctx);
  mem_t<dcol_t> dright = to_mem(right, ctx);
  mem_t<lspec_t> dspecs = to_mem(specs, ctx);
  mem_t<lgroup_t> dgroups = to_mem(groups, ctx);
  mem_t<int> dpop = to_mem(plain_op, ctx), dpreg = to_mem(plain_reg, ctx), dpfl = to_mem(plain_fl, ctx);
  mem_t<int> flag(1, ctx);
  flag.memset(0);
  lbs_kargs_t k;
  k.off = I64(a->seg_offsets);
  k.base = I64(a->seg_base);
  k.map = I64(a->right_map);
  k.left_rows = a->left_rows ? I64(a->left_rows) : nullptr;
  k.code = dcode.data();
  k.ninstr = p->ninstr;
  k.nregs = p->nregs;
  k.left = dleft.data();
  k.nleft = a->nleft;
  k.right = dright.data();
  k.nright = a->nright;
  k.filter_reg = a->filter_reg >= 0 ? p->outputs[a->filter_reg] : -1;
  k.specs = dspecs.data();
  k.nspec = a->nreduce;
  k.groups = dgroups.data();
  k.ngroup = ngroup;
  k.plain_op = dpop.data();
  k.plain_reg = dpreg.data();
  k.plain_fl = dpfl.data();
  k.nplain = nplain;
  k.outer = a->outer;
  k.nseg = (long long)a->nseg;
  k.fail = flag.data();
  k.nwords = 4 * nplain;  // the plain states; each warp's ranked lists follow the copies (wlist_t)
  // An earth_distance whose second latitude is a FLOAT64 right input: its
  // cosine once per right row (the same bits the instruction computes),
  // not once per item.
  k.right_cos = nullptr;
  k.right_cos_reg = -1;
  mem_t<double> right_cos;
  for (int i = 0; i < p->ninstr && k.right_cos_reg < 0; ++i) {
    const attu_instr& in = p->code[i];
    int j = in.c - a->nleft;
    if (i == chord || in.op != ATTU_OP_EARTH_DISTANCE || in.guard >= 0 || j < 0 || j >= a->nright) continue;
    const attu_vec& col = a->right[j];
    if (col.type.id != ATTU_TYPE_FLOAT64 || !col.data) continue;
    size_t rows = col.data->bytes / sizeof(double);
    if (rows > (size_t)INT_MAX) continue;
    right_cos = mem_t<double>(rows ? rows : 1, ctx);
    const double* x = static_cast<const double*>(col.data->ptr);
    double* c = right_cos.data();
    transform([=] __device__(int r) { c[r] = cos(x[r] * (M_PI / 180.0)); }, (int)rows, ctx);
    k.right_cos = right_cos.data();
    k.right_cos_reg = in.c;
  }
  // The chord's table: each right row's unit vector, once a row (29,510
  // for the cities query) instead of twice an item (25.5M).
  k.chord_group = chord_group;
  k.right_unit = nullptr;
  k.right_unit_rows = 0;
  k.chord_lat_a = k.chord_lon_a = k.chord_lat_b = k.chord_lon_b = -1;
  mem_t<double> right_unit;
  if (chord >= 0) {
    const attu_instr& in = p->code[chord];
    k.chord_lat_a = in.a;
    k.chord_lon_a = in.b;
    k.chord_lat_b = in.c - a->nleft;
    k.chord_lon_b = in.d - a->nleft;
    size_t rows = a->right[k.chord_lat_b].data->bytes / sizeof(double);
    if (rows > 0 && rows <= (size_t)INT_MAX) {
      right_unit = mem_t<double>(3 * rows, ctx);
      const double* lat = static_cast<const double*>(a->right[k.chord_lat_b].data->ptr);
      const double* lon = static_cast<const double*>(a->right[k.chord_lon_b].data->ptr);
      double* u = right_unit.data();
      const long long n = (long long)rows;
      transform(
          [=] __device__(int r) {
            double v[3];
            dev_unit_vector(lat[r], lon[r], v);
            u[r] = v[0];
            u[n + r] = v[1];
            u[2 * n + r] = v[2];
          },
          (int)rows, ctx);
      k.right_unit = right_unit.data();
      k.right_unit_rows = n;
    }
  }
  const int nt = kLbsThreads;
  size_t blocks = (a->nseg * 32 + nt - 1) / nt;
  // A compiled kernel where the work pays for its compilation. The work
  // items are the segments' total count: right_map's length when every
  // segment has its own partners, but segments may share theirs (a
  // self-join's rows of one state all read that state's list: the cities
  // query has 29,510 slots and 25.5M items), so then the total is read back.
  const void* jit = nullptr;
  long long items = (long long)(a->right_map->bytes / sizeof(int64_t));
  long long min_items = jit_min_items();
  if (jit_available() && items < min_items && a->nseg >= 256) {
    int64_t total = a->total_items;
    if (total <= 0) dtoh(&total, I64(a->seg_offsets) + a->nseg, 1, ctx);
    items = (long long)total;
  }
  if (jit_available() && items >= min_items) {
    std::vector<dcol_t> lt(left.begin(), left.begin() + a->nleft), rt(right.begin(), right.begin() + a->nright);
    std::vector<lplain_spec_t> ps;
    for (int i = 0; i < nplain; ++i) ps.push_back(lplain_spec_t{plain_op[(size_t)i], plain_fl[(size_t)i], plain_reg[(size_t)i]});
    std::vector<dinstr_t> jcode(code.begin(), code.begin() + p->ninstr);
    jit = jit_kernel(jit_lbs_source(jcode, p->nregs, lt, rt, k.filter_reg, groups, ngroup, ps, k.right_cos_reg,
                                        k.right_unit != nullptr));
  }
  if (jit) {
    size_t shmem = lbs_shared_bytes(k, nt, 0);
    if (shmem > 48 * 1024) {
      int dev = 0;
      ATTU_CUDA_CHECK(cudaGetDevice(&dev));
      ATTU_CUDA_CHECK(cudaKernelSetAttributeForDevice((cudaKernel_t)jit, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                                      (int)shmem, dev));
    }
    void* args[] = {&k};
    ATTU_CUDA_CHECK(cudaLaunchKernel(jit, dim3((unsigned)blocks), dim3(nt), args, shmem, ctx.stream()));
  } else {
    size_t shmem = lbs_shared_bytes(k, nt, lbs_interp_step::shared_regs(k));
    if (shmem > 48 * 1024)
      ATTU_CUDA_CHECK(cudaFuncSetAttribute(lbs_segreduce_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                           (int)shmem));
    lbs_segreduce_kernel<<<(unsigned)blocks, nt, shmem, ctx.stream()>>>(k);
  }
  ATTU_CUDA_CHECK_LAUNCH();
  int failed = 0;
  dtoh(&failed, flag.data(), 1, ctx);
  return failed;
}

int gpu_lbs_segreduce(attu_backend* be, const attu_lbs_segreduce_args* a, attu_error* err) {
  if (IMPL(be)->device_lbs && a->nseg > 0 && lbs_device_eligible(a)) {
    int failed = 0;
    if (attu_backend_interrupted(err)) return -1;
    if (guarded(err, [&] { failed = device_lbs_segreduce(be, a); })) return -1;
    if (!failed) return 0;
    // Some item fails (the reference below raises its exact error), or the
    // ranked lists do not fit the kernel's state.
  }
  attu_backend* host = IMPL(be)->host;
  return guarded(err, [&] {
    stage_t st(be);
    attu_lbs_segreduce_args h = *a;
    h.seg_offsets = st.in(a->seg_offsets);
    h.seg_base = st.in(a->seg_base);
    h.right_map = st.in(a->right_map);
    h.left_rows = st.in(a->left_rows);
    std::vector<attu_vec> left((size_t)(a->nleft > 0 ? a->nleft : 0));
    std::vector<attu_vec> right((size_t)(a->nright > 0 ? a->nright : 0));
    for (int i = 0; i < a->nleft; ++i) left[i] = st.vec(a->left[i]);
    for (int i = 0; i < a->nright; ++i) right[i] = st.vec(a->right[i]);
    h.left = left.data();
    h.right = right.data();
    std::vector<attu_reduce_spec> specs((size_t)(a->nreduce > 0 ? a->nreduce : 0));
    std::vector<attu_out> outs(specs.size());
    for (int k = 0; k < a->nreduce; ++k) {
      specs[k] = stage_spec(st, a->reduce[k]);
      outs[k] = st.outv(a->out[k]);
    }
    h.reduce = specs.data();
    h.out = outs.data();
    if (host->lbs_segreduce(host, &h, err)) throw already_set_t();
    st.commit();
  });
}

int host_segreduce(attu_backend* be, const attu_buf* offsets, size_t nseg, const attu_buf* perm,
                   int nreduce, const attu_reduce_spec* specs, attu_out* outs, bool whole,
                   size_t n, attu_error* err) {
  attu_backend* host = IMPL(be)->host;
  return guarded(err, [&] {
    stage_t st(be);
    std::vector<attu_reduce_spec> hs((size_t)nreduce);
    std::vector<attu_out> ho((size_t)nreduce);
    for (int k = 0; k < nreduce; ++k) {
      hs[k] = stage_spec(st, specs[k]);
      ho[k] = st.outv(outs[k]);
    }
    int rc = whole ? host->reduce(host, n, nreduce, hs.data(), ho.data(), err)
                   : host->segreduce(host, st.in(offsets), nseg, st.in(perm), nreduce, hs.data(),
                                     ho.data(), err);
    if (rc) throw already_set_t();
    st.commit();
    // STRING_AGG outputs come back with the dictionary the host built
    for (int k = 0; k < nreduce; ++k)
      if (specs[k].op == ATTU_REDUCE_STRING_AGG) outs[k].dict = ho[k].dict;
  });
}

// Whether every aggregate is exact (no float sum, no average), so it comes
// out the same in any order of the rows: such calls stay on the device at
// any size, where a float sum of few rows adds row by row on the host as
// PostgreSQL does.
bool exact_only(int nreduce, const attu_reduce_spec* specs) {
  for (int k = 0; k < nreduce; ++k)
    if (specs[k].op == ATTU_REDUCE_AVG_SUM ||
        (specs[k].op == ATTU_REDUCE_SUM && attu_type_mclass(specs[k].in.type.id) == ATTU_MC_FLOAT))
      return false;
  return true;
}

int gpu_segreduce(attu_backend* be, const attu_buf* offsets, size_t nseg, const attu_buf* perm,
                  int nreduce, const attu_reduce_spec* specs, attu_out* outs, attu_error* err) {
  if (nreduce > 64)
    return attu_error_set(err, ATTU_SQLSTATE_FEATURE_NOT_SUPPORTED, 0,
                          "too many aggregates in one query (at most 64)");
  if (nseg > kMaxCount) return attu_error_set(err, "54000", 0, "GPU backend: %zu segments", nseg);
  bool reducible = true;
  for (int k = 0; k < nreduce && reducible; ++k) reducible = device_reducible(specs[k]);
  if (reducible && nseg > 0 && nseg < kMinDeviceSegments && nreduce > 0) {
    // few segments: wide ones go to the chunked device path, and so do
    // small ones whose aggregates are exact (counts, integer sums, MIN /
    // MAX), which come out the same in any order: the host reference
    // first copies the inputs down (0.3-0.6 ms for SSB q2.3's 7 groups
    // and q4.3's 800). Float sums of few rows stay on the host, which
    // adds them row by row as PostgreSQL does.
    std::vector<int64_t> off(nseg + 1);
    int rc = guarded(err, [&] { dtoh(off.data(), I64(offsets), nseg + 1, CTX(be)); });
    if (rc) return rc;
    if ((size_t)(off[nseg] - off[0]) >= kWideMinRows || exact_only(nreduce, specs)) {
      if (attu_backend_interrupted(err)) return -1;
      rc = guarded(err, [&] { wide_segreduce(be, off, perm, nreduce, specs, outs, err); });
      if (rc != kFloatRisk) return rc;
      return host_segreduce(be, offsets, nseg, perm, nreduce, specs, outs, false, 0, err);
    }
  }
  bool device = reducible && nseg >= kMinDeviceSegments;
  if (!device) return host_segreduce(be, offsets, nseg, perm, nreduce, specs, outs, false, 0, err);
  if (nreduce <= 0 || nseg == 0) return 0;
  if (attu_backend_interrupted(err)) return -1;
  int rc = guarded(err, [&] {
    context_t& ctx = CTX(be);
    std::vector<dspec_t> h = device_specs(specs, outs, nreduce);
    mem_t<dspec_t> ds = to_mem(h, ctx);
    mem_t<int> flag(1, ctx);
    flag.memset(0);
    const dspec_t* sp = ds.data();
    int* fl = flag.data();
    const int64_t* off = I64(offsets);
    const int64_t* pm = perm ? I64(perm) : nullptr;
    int nr = nreduce;
    transform([=] __device__(int s) {
      for (int k = 0; k < nr; ++k) reduce_segment(sp[k], pm, off[s], off[s + 1], s, fl);
    }, (int)nseg, ctx);
    int overflow = 0;
    dtoh(&overflow, fl, 1, ctx);
    if (overflow == 2) throw float_risk_t();
    if (overflow) {
      attu_error_set(err, ATTU_SQLSTATE_NUMERIC_RANGE, 0, "bigint out of range");
      throw already_set_t();
    }
  });
  if (rc == kFloatRisk) return host_segreduce(be, offsets, nseg, perm, nreduce, specs, outs, false, 0, err);
  return rc;
}

// ---- whole-column COUNT / SUM / AVG_SUM / MIN / MAX in one pass ------------------
//
// Each of a fixed grid's threads folds its grid-stride share of rows, each
// block folds its threads in a fixed tree (shared memory), and one thread
// per spec folds the blocks' partials in block order, so the result is
// deterministic. Counts, integer sums (128-bit partials; 22003 when the
// total leaves int64, as the chunked path) and MIN / MAX of integers are
// exact in any order; float sums associate by that tree (PostgreSQL's
// parallel aggregation also differs from its serial sum in the last bits);
// a float input at risk of overflow (kFloatSafe) sends the call to the host
// reference. One pass at close to copy bandwidth, where the chunked
// segreduce path (one block per 16K-row chunk with a tree per spec) took
// 6 ms for 100M rows. MIN / MAX of floats stay on the chunked path (ties of
// -0 and 0 keep the earliest row there).
constexpr int kColumnThreads = 256;

// Rows a thread loads before it folds them: a grid-stride loop that waits
// on one load at a time keeps too few bytes in flight (MIN, MAX and COUNT
// of 100M int32 keys took 1.4 ms, a tenth of the memory's bandwidth).
constexpr int kColumnRowsAhead = 8;

// A spec's running state in a thread: its count, and one 128-bit word that
// is the integer sum, the float sum's bits, or the MIN / MAX, by the spec's
// kind (one word, not all four, keeps eight specs in registers).
enum colkind_t { CK_COUNT, CK_ISUM, CK_FSUM, CK_MIN, CK_MAX };

__device__ inline int col_kind(const dspec_t& s) {
  switch (s.op) {
    case ATTU_REDUCE_SUM: return s.fl ? CK_FSUM : CK_ISUM;
    case ATTU_REDUCE_AVG_SUM: return CK_FSUM;
    case ATTU_REDUCE_MIN: return CK_MIN;
    case ATTU_REDUCE_MAX: return CK_MAX;
    default: return CK_COUNT;
  }
}

// NS: the specs a thread keeps state for (registers: 4 of them let three
// blocks share a multiprocessor where 8 allow two).
template <int NS>
__global__ void __launch_bounds__(kColumnThreads) column_reduce_kernel(const dspec_t* specs, int nspec,
                                                                       long long n, colacc_t* part, int* risk) {
  __shared__ dspec_t ss[NS];
  if ((int)threadIdx.x < nspec) ss[threadIdx.x] = specs[threadIdx.x];
  __syncthreads();
  long long cnt[NS];
  __int128 acc[NS];
#pragma unroll
  for (int k = 0; k < NS; ++k) {
    cnt[k] = 0;
    int kind = k < nspec ? col_kind(ss[k]) : CK_COUNT;
    // a float sum starts at -0, the identity of IEEE addition: a sum of
    // negative zeros stays -0, as PostgreSQL's float8 sum gives it
    acc[k] = kind == CK_MIN ? (__int128)LLONG_MAX : kind == CK_MAX ? (__int128)LLONG_MIN
           : kind == CK_FSUM ? (__int128)0x8000000000000000ull : 0;
  }
  const long long stride = (long long)gridDim.x * blockDim.x;
  for (long long base = (long long)blockIdx.x * blockDim.x + threadIdx.x; base < n;
       base += stride * kColumnRowsAhead) {
    num_t v[kColumnRowsAhead];
    unsigned have = 0, rows = 0;  // bit u: row u exists / and its value is not NULL
#pragma unroll
    for (int u = 0; u < kColumnRowsAhead; ++u)
      if (base + u * stride < n) rows |= 1u << u;
#pragma unroll
    for (int k = 0; k < NS; ++k) {
      if (k >= nspec) break;
      const dspec_t& s = ss[k];
      // MIN, MAX and COUNT of one column come as consecutive specs: one
      // load. The type and the kind are switched on once per round.
      if (k == 0 || s.in != ss[k - 1].in || s.in_valid != ss[k - 1].in_valid) {
        load_rows<kColumnRowsAhead>(s.in_type, s.in, base, stride, rows, v);
        have = s.in ? valid_rows<kColumnRowsAhead>(s.in_valid, base, stride, rows) : rows;
      }
      unsigned use = s.op == ATTU_REDUCE_COUNT_STAR ? rows : have;
      cnt[k] += __popc(use);
      const int kind = col_kind(s);
      switch (kind) {
        case CK_ISUM:
#pragma unroll
          for (int u = 0; u < kColumnRowsAhead; ++u)
            if (use >> u & 1) acc[k] += v[u].i;
          break;
        case CK_FSUM: {
          double f = __longlong_as_double((long long)(unsigned long long)acc[k]);
#pragma unroll
          for (int u = 0; u < kColumnRowsAhead; ++u) {
            if (!(use >> u & 1)) continue;
            double d = s.fl ? v[u].f : (double)v[u].i;
            if (s.fl && !(fabs(d) < kFloatSafe)) *risk = 1;
            f += d;
          }
          acc[k] = (__int128)(unsigned long long)__double_as_longlong(f);
          break;
        }
        case CK_MIN:
        case CK_MAX: {
          const bool lo = kind == CK_MIN;
          long long m = (long long)acc[k];
#pragma unroll
          for (int u = 0; u < kColumnRowsAhead; ++u)
            if (use >> u & 1) m = lo ? min(m, (long long)v[u].i) : max(m, (long long)v[u].i);
          acc[k] = m;
          break;
        }
        default: break;
      }
    }
  }
  // the block's tree, one spec at a time, in a fixed shape
#pragma unroll
  for (int k = 0; k < NS; ++k) {
    if (k >= nspec) break;
    int kind = col_kind(ss[k]);
    colacc_block_store<kColumnThreads>(
        part, k, cnt[k], kind == CK_ISUM ? acc[k] : 0,
        kind == CK_FSUM ? __longlong_as_double((long long)(unsigned long long)acc[k]) : -0.0,
        kind == CK_MIN ? (long long)acc[k] : LLONG_MAX, kind == CK_MAX ? (long long)acc[k] : LLONG_MIN);
  }
}

// One block per spec folds the blocks' partials: each thread the blocks
// t, t + kFoldThreads, ... in order, then a tree of fixed shape, so the
// result stays deterministic (one thread walking 500 partials in turn,
// each a dependent load, took 0.2 ms). *range_err is set when an integer
// sum leaves int64.
constexpr int kFoldThreads = 128;
__global__ void __launch_bounds__(kFoldThreads) column_reduce_store_kernel(const dspec_t* specs, int nspec,
                                                                          const colacc_t* part, int nblocks,
                                                                          int* range_err) {
  int k = blockIdx.x;
  if (k >= nspec) return;
  const dspec_t& s = specs[k];
  long long cnt = 0, mn = LLONG_MAX, mx = LLONG_MIN;
  __int128 isum = 0;
  double fsum = -0.0;  // the identity of IEEE addition (-0 + -0 is -0)
  for (int b = threadIdx.x; b < nblocks; b += kFoldThreads) {
    cnt += part[b].cnt[k];
    isum += part[b].isum[k];
    fsum += part[b].fsum[k];
    mn = min(mn, part[b].mn[k]);
    mx = max(mx, part[b].mx[k]);
  }
  colacc_block_fold<kFoldThreads>(cnt, isum, fsum, mn, mx);
  if (threadIdx.x) return;
  num_t out;
  out.i = 0;
  int isnull = 0;
  if (s.op == ATTU_REDUCE_COUNT_STAR || s.op == ATTU_REDUCE_COUNT) out.i = cnt;
  else if (!cnt) isnull = 1;
  else if (s.op == ATTU_REDUCE_MIN || s.op == ATTU_REDUCE_MAX) {
    long long m = s.op == ATTU_REDUCE_MIN ? mn : mx;
    if (is_float_type(s.out_type)) out.f = (double)m;
    else out.i = m;
  } else if (s.op == ATTU_REDUCE_AVG_SUM || s.fl) out.f = fsum;
  else {
    if (isum > (__int128)LLONG_MAX || isum < (__int128)LLONG_MIN) {
      atomicExch(range_err, 1);
      return;
    }
    if (is_float_type(s.out_type)) out.f = (double)(long long)isum;
    else out.i = (long long)isum;
  }
  store_num(s, 0, out, isnull);
}

bool column_reducible(int nreduce, const attu_reduce_spec* specs) {
  if (nreduce < 1 || nreduce > kFastSpecs) return false;
  for (int k = 0; k < nreduce; ++k) {
    const attu_reduce_spec& s = specs[k];
    if (attu_type_is_wide(s.in.type.id) || attu_type_is_wide(s.out_type.id)) return false;  // host only
    switch (s.op) {
      case ATTU_REDUCE_COUNT_STAR: continue;
      case ATTU_REDUCE_COUNT:
      case ATTU_REDUCE_SUM:
      case ATTU_REDUCE_AVG_SUM:
        if (!s.in.data || !device_reducible(s)) return false;  // sum(real) stays on the host
        break;
      case ATTU_REDUCE_MIN:
      case ATTU_REDUCE_MAX:
        if (!s.in.data || attu_type_mclass(s.in.type.id) == ATTU_MC_FLOAT) return false;
        break;
      default: return false;
    }
  }
  return true;
}

// 0, kFloatRisk (the host reference must run), or -1 with err set (22003).
int column_reduce(attu_backend* be, size_t n, int nreduce, const attu_reduce_spec* specs, attu_out* outs,
                  attu_error* err) {
  context_t& ctx = CTX(be);
  std::vector<dspec_t> h = device_specs(specs, outs, nreduce);
  mem_t<dspec_t> ds = to_mem(h, ctx);
  // At least kColumnRowsPerThread rows a thread: each block's partials
  // (every spec's count, 128-bit sum, min and max) cost a tree and a store,
  // and the fold walks them all, which dominated small inputs (a join's
  // key range over a 120K-row dimension took 0.2 ms at one row a thread).
  // Blocks: as many as fit on the GPU at once (one wave: every block
  // strides over the same share of rows, so a second, partial wave would
  // double the time of its multiprocessors).
  constexpr long long kColumnRowsPerThread = 8;
  static int resident[2] = {0, 0};  // blocks per multiprocessor, per instantiation
  int wide = nreduce > 4;
  if (!resident[wide]) {
    int per_sm = 0;
    if (wide)
      ATTU_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, column_reduce_kernel<kFastSpecs>,
                                                                    kColumnThreads, 0));
    else
      ATTU_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, column_reduce_kernel<4>, kColumnThreads, 0));
    resident[wide] = std::max(per_sm, 1);
  }
  int nblocks = (int)std::min<long long>(
      (long long)ctx.sm_count() * resident[wide],
      std::max<long long>(1, ((long long)n + kColumnThreads * kColumnRowsPerThread - 1) /
                                 (kColumnThreads * kColumnRowsPerThread)));
  mem_t<colacc_t> part((size_t)nblocks, ctx);
  mem_t<int> flags(2, ctx);
  flags.memset(0);
  if (!wide)
    column_reduce_kernel<4><<<nblocks, kColumnThreads, 0, ctx.stream()>>>(ds.data(), nreduce, (long long)n,
                                                                          part.data(), flags.data());
  else
    column_reduce_kernel<kFastSpecs><<<nblocks, kColumnThreads, 0, ctx.stream()>>>(ds.data(), nreduce, (long long)n,
                                                                                   part.data(), flags.data());
  ATTU_CUDA_CHECK_LAUNCH();
  column_reduce_store_kernel<<<nreduce, kFoldThreads, 0, ctx.stream()>>>(ds.data(), nreduce, part.data(), nblocks,
                                                                         flags.data() + 1);
  ATTU_CUDA_CHECK_LAUNCH();
  // Counts, MIN and MAX can neither overflow nor need the host's float
  // sum: no flags to read back, and no wait for the stream here (a join's
  // key range reads its MIN and MAX back once, right after).
  bool sums = false;
  for (int k = 0; k < nreduce; ++k)
    sums |= specs[k].op == ATTU_REDUCE_SUM || specs[k].op == ATTU_REDUCE_AVG_SUM;
  if (!sums) return 0;
  int f[2] = {0, 0};
  dtoh(f, flags.data(), 2, ctx);
  if (f[0]) return kFloatRisk;
  if (f[1]) return attu_error_set(err, ATTU_SQLSTATE_NUMERIC_RANGE, 0, "bigint out of range");
  return 0;
}

// ---- the fused aggregate (eval_reduce) ------------------------------------------
//
// One compiled kernel runs the program per row, reading inputs that come
// through a join's pairs at their row (rows[i]), and folds the outputs the
// reductions read straight into column_reduce's per-block partials; the
// same store kernel finishes. Nothing of n rows is written: the join's
// gathered columns, the program's outputs and their re-reading are gone.
// Only what the compiled form and column_reduce both take is fused: the
// eval subset of the device interpreter (no TEXT, NUMERIC, approximate
// functions), the column reductions of column_reducible, at least
// jit_min_items() rows. A row the program fails on, or a float at risk of
// overflow in a sum, declines the call (1): the executor then runs eval,
// which reports the row's error, and reduce, whose host reference takes
// risky float sums.
int gpu_eval_reduce(attu_backend* be, const attu_expr_program* p, const attu_vec* inputs, const attu_vec* rows,
                    size_t n, int nreduce, const attu_reduce_spec* specs, attu_out* outs, attu_error* err) {
  if (!IMPL(be)->device_eval || n == 0 || n > kMaxCount || (long long)n < jit_min_items() || !jit_available())
    return 1;
  if (nreduce < 1 || nreduce > kFastSpecs) return 1;
  // the specs as column_reducible sees them (in.data only has to be set)
  attu_buf dummy = {nullptr, 0};
  std::vector<attu_reduce_spec> cs(specs, specs + nreduce);
  for (int k = 0; k < nreduce; ++k) {
    if (cs[k].op != ATTU_REDUCE_COUNT_STAR && (cs[k].in_reg < 0 || cs[k].in_reg >= p->noutputs)) return 1;
    cs[k].in.data = &dummy;
  }
  if (!column_reducible(nreduce, cs.data())) return 1;
  std::vector<attu_out> fake((size_t)p->noutputs + 1);
  for (int o = 0; o < p->noutputs; ++o) fake[o] = attu_out{p->reg_types[p->outputs[o]], &dummy, nullptr, nullptr};
  if (!device_eval_eligible(p, inputs, fake.data())) return 1;
  if (attu_backend_interrupted(err)) return -1;
  int result = 1;
  int rc = guarded(err, [&] {
    context_t& ctx = CTX(be);
    // constants first, as device_eval orders them
    std::vector<dinstr_t> all = device_code(p), code;
    std::vector<int> writes((size_t)(p->nregs > 0 ? p->nregs : 1), 0);
    for (const dinstr_t& in : all) writes[in.dst]++;
    auto pre = [&](const dinstr_t& in) { return in.op == ATTU_OP_CONST && in.guard < 0 && writes[in.dst] == 1; };
    for (const dinstr_t& in : all)
      if (pre(in)) code.push_back(in);
    int npre = (int)code.size();
    for (const dinstr_t& in : all)
      if (!pre(in)) code.push_back(in);
    std::vector<dinstr_t> jcode = code;  // the source's instructions; the upload is never empty
    if (code.empty()) code.resize(1);
    std::vector<dcol_t> ins((size_t)(p->ninputs > 0 ? p->ninputs : 1));
    std::vector<const int64_t*> rp((size_t)p->ninputs + 1, nullptr);
    for (int i = 0; i < p->ninputs; ++i) {
      ins[i] = device_col(inputs[i]);
      if (rows && rows[i].data) rp[i] = static_cast<const int64_t*>(rows[i].data->ptr);
    }
    std::vector<jit_reduce_t> red((size_t)nreduce);
    for (int k = 0; k < nreduce; ++k) {
      const attu_reduce_spec& s = specs[k];
      red[k].op = s.op;
      red[k].fl = attu_type_mclass(s.in.type.id) == ATTU_MC_FLOAT;
      red[k].reg = s.op == ATTU_REDUCE_COUNT_STAR ? -1 : p->outputs[s.in_reg];
    }
    int nregs = p->nregs > 0 ? p->nregs : 1;
    std::vector<dcol_t> jins(ins.begin(), ins.begin() + p->ninputs);
    std::vector<int> through((size_t)p->ninputs);
    for (int i = 0; i < p->ninputs; ++i)
      through[i] = rp[i] == nullptr ? 0 : rows[i].type.id == ATTU_TYPE_INT32 ? 2 : 1;
    int per_sm = 0;
    const void* jit = jit_kernel(jit_eval_reduce_source(jcode, npre, nregs, jins, through, red), kJitEvalThreads,
                                 &per_sm);
    if (!jit) return;  // declined: the caller runs eval and reduce
    std::vector<dspec_t> h = device_specs(specs, outs, nreduce);
    for (int k = 0; k < nreduce; ++k) h[k].fl = red[k].fl;
    mem_t<dspec_t> ds = to_mem(h, ctx);
    mem_t<dinstr_t> dcode = to_mem(code, ctx);
    mem_t<dcol_t> dins = to_mem(ins, ctx);
    mem_t<const int64_t*> drows = to_mem(rp, ctx);
    // one wave of resident blocks, each row a thread at least 8 rows
    long long blocks = std::min<long long>((long long)ctx.sm_count() * jit_wave_blocks(per_sm),
                                           std::max<long long>(1, ((long long)n + kJitEvalThreads * 8 - 1) /
                                                                      (kJitEvalThreads * 8)));
    mem_t<colacc_t> part((size_t)blocks, ctx);
    mem_t<int> flags(3, ctx);  // a row failed, a float at risk, an integer sum out of range
    flags.memset(0);
    const dinstr_t* cp = dcode.data();
    const dcol_t* ip = dins.data();
    const int64_t* const* rpp = drows.data();
    long long nn = (long long)n;
    colacc_t* pp = part.data();
    int* fp = flags.data();
    void* args[] = {&cp, &ip, &rpp, &nn, &pp, &fp};
    ATTU_CUDA_CHECK(cudaLaunchKernel(jit, dim3((unsigned)blocks), dim3(kJitEvalThreads), args, 0, ctx.stream()));
    ATTU_CUDA_CHECK_LAUNCH();
    column_reduce_store_kernel<<<nreduce, kFoldThreads, 0, ctx.stream()>>>(ds.data(), nreduce, part.data(),
                                                                           (int)blocks, flags.data() + 2);
    ATTU_CUDA_CHECK_LAUNCH();
    int f[3] = {0, 0, 0};
    dtoh(f, flags.data(), 3, ctx);
    if (f[0] || f[1]) return;  // declined, see above
    if (f[2]) {
      attu_error_set(err, ATTU_SQLSTATE_NUMERIC_RANGE, 0, "bigint out of range");
      result = -1;
      return;
    }
    result = 0;
  });
  return rc ? rc : result;
}

int gpu_reduce(attu_backend* be, size_t n, int nreduce, const attu_reduce_spec* specs,
               attu_out* outs, attu_error* err) {
  if (nreduce > 64)
    return attu_error_set(err, ATTU_SQLSTATE_FEATURE_NOT_SUPPORTED, 0,
                          "too many aggregates in one query (at most 64)");
  // Below kWideMinRows the device still reduces exact columns (counts,
  // integer sums, MIN / MAX): the host reference would first copy the
  // inputs down (~0.3 ms for SSB q1.3's 19,065 rows). Float sums stay on
  // the host there, where they add row by row as PostgreSQL does.
  if (n > 0 && (n >= kWideMinRows || exact_only(nreduce, specs)) && column_reducible(nreduce, specs)) {
    if (attu_backend_interrupted(err)) return -1;
    int frc = 0;
    int rc = guarded(err, [&] { frc = column_reduce(be, n, nreduce, specs, outs, err); });
    if (rc) return rc;
    if (frc != kFloatRisk) return frc;
    return host_segreduce(be, nullptr, 1, nullptr, nreduce, specs, outs, true, n, err);
  }
  // More specs than one column_reduce call keeps in registers (a group-by's
  // key ranges: MIN, MAX and COUNT of three keys are nine): calls of at
  // most kFastSpecs each, rather than the slower paths below.
  if (n > 0 && nreduce > kFastSpecs) {
    bool split = true;
    for (int c = 0; c < nreduce && split; c += kFastSpecs) {
      int m = std::min(kFastSpecs, nreduce - c);
      split = (n >= kWideMinRows || exact_only(m, specs + c)) && column_reducible(m, specs + c);
    }
    if (split) {
      for (int c = 0; c < nreduce; c += kFastSpecs)
        if (int rc = gpu_reduce(be, n, std::min(kFastSpecs, nreduce - c), specs + c, outs + c, err)) return rc;
      return 0;
    }
  }
  bool reducible = nreduce > 0;
  for (int k = 0; k < nreduce && reducible; ++k) reducible = device_reducible(specs[k]);
  if (reducible && n >= kWideMinRows) {
    if (attu_backend_interrupted(err)) return -1;
    std::vector<int64_t> off{0, (int64_t)n};
    int rc = guarded(err, [&] { wide_segreduce(be, off, nullptr, nreduce, specs, outs, err); });
    if (rc != kFloatRisk) return rc;
  }
  return host_segreduce(be, nullptr, 1, nullptr, nreduce, specs, outs, true, n, err);
}

// ---- dense group-by on the device ----------------------------------------------
//
// Two kernels. Below kGroupBlockMinRows rows (in practice only where a test
// forces the dense path onto small tables), one warp per block, each block
// a contiguous chunk of rows with its own
// table of slots in shared memory. The warp takes its chunk 32 rows at a
// time, in row order; lanes whose rows share a slot find each other with
// __match_any_sync and the lowest of them folds their values into the
// slot's state in lane order, so each block reduces its rows of a slot in
// row order, exactly the reference's order within the chunk. Blocks then
// write their tables out and one thread per slot folds them in block
// order: counts, MIN / MAX (ties keep the earlier row) and integer sums are
// the reference's; float sums differ from a sequential sum only in how the
// chunks' partial sums associate (a group within one chunk sums exactly as
// the CPU backend). An integer sum leaving int64 inside a chunk or in the
// fold, or a float input at risk of overflow (kFloatSafe), sends the call
// to the host reference, which raises 22003 exactly where PostgreSQL does.

constexpr int kDenseMaxKeys = 8;
constexpr int kDenseBatches = 4;           // batches of 32 rows loaded ahead
constexpr int64_t kDenseChunk = 1 << 16;   // rows per block (at least)
// A block's table (slots x (first row + states)) at most this big: one
// warp per block, so the table's size sets the warps per multiprocessor
// (14 KB: 16 of them), and with fewer the kernel waits on latency (a
// 40 KB table, 5 warps per SM, ran 12.8 ms for 100M rows on the H100).
constexpr size_t kDenseMaxShared = 14 * 1024;

struct gkey_t {
  const void* data;
  const uint8_t* valid;
  int type;
  long long min, width;
};

struct gacc_t {
  long long cnt;
  num_t acc;
};

struct gdense_args_t {
  const gkey_t* keys;
  int nkeys;
  const dspec_t* specs;
  int nspec;
  long long n, nslots, chunk;
  gacc_t* part;          // [block][slot][spec]
  long long* pfirst;     // [block][slot]
  int* fail;             // 1: integer overflow, 2: float risk
  const int* map;        // group_dense's slot_map, or nullptr
};

__device__ inline long long gkey_value(const gkey_t& k, long long row) {
  if (k.valid && !k.valid[row]) return k.width - 1;  // NULL: the last value
  long long v;
  switch (k.type) {
    case ATTU_TYPE_BOOL: v = static_cast<const uint8_t*>(k.data)[row]; break;
    case ATTU_TYPE_INT16:
    case ATTU_TYPE_INT32:
    case ATTU_TYPE_DATE:
    case ATTU_TYPE_TEXT: v = static_cast<const int32_t*>(k.data)[row]; break;
    default: v = static_cast<const int64_t*>(k.data)[row]; break;
  }
  return v - k.min;
}

// st := st followed by one value (the reference's reducer step).
__device__ inline void gacc_add(const dspec_t& s, gacc_t& st, num_t v, int* fail) {
  if (s.op == ATTU_REDUCE_COUNT_STAR || s.op == ATTU_REDUCE_COUNT) { st.cnt++; return; }
  if ((s.op == ATTU_REDUCE_SUM || s.op == ATTU_REDUCE_AVG_SUM) && s.fl && !(fabs(v.f) < kFloatSafe)) {
    atomicExch(fail, 2);
    return;
  }
  bool has = st.cnt > 0;
  st.cnt++;
  switch (s.op) {
    case ATTU_REDUCE_SUM:
      if (s.fl) st.acc.f = has ? st.acc.f + v.f : v.f;
      else if (!has) st.acc.i = v.i;
      else {
        long long r = (long long)((unsigned long long)st.acc.i + (unsigned long long)v.i);
        if (((st.acc.i ^ r) & (v.i ^ r)) < 0) atomicExch(fail, 1);
        st.acc.i = r;
      }
      break;
    case ATTU_REDUCE_AVG_SUM: st.acc.f = (has ? st.acc.f : 0) + (s.fl ? v.f : (double)v.i); break;
    case ATTU_REDUCE_MIN:
      if (!has || num_cmp(s.fl, v, st.acc) < 0) st.acc = v;
      break;
    case ATTU_REDUCE_MAX:
      if (!has || num_cmp(s.fl, v, st.acc) > 0) st.acc = v;
      break;
    default: break;
  }
}

// st := st followed by o (a later chunk's state of the same slot).
__device__ inline void gacc_merge(const dspec_t& s, gacc_t& st, const gacc_t& o, int* fail) {
  if (!o.cnt) return;
  if (!st.cnt) {
    st = o;
    return;
  }
  st.cnt += o.cnt;
  switch (s.op) {
    case ATTU_REDUCE_SUM:
      if (s.fl) st.acc.f += o.acc.f;
      else {
        long long r = (long long)((unsigned long long)st.acc.i + (unsigned long long)o.acc.i);
        if (((st.acc.i ^ r) & (o.acc.i ^ r)) < 0) atomicExch(fail, 1);
        st.acc.i = r;
      }
      break;
    case ATTU_REDUCE_AVG_SUM: st.acc.f += o.acc.f; break;
    case ATTU_REDUCE_MIN:
      if (num_cmp(s.fl, o.acc, st.acc) < 0) st.acc = o.acc;
      break;
    case ATTU_REDUCE_MAX:
      if (num_cmp(s.fl, o.acc, st.acc) > 0) st.acc = o.acc;
      break;
    default: break;
  }
}

__global__ void __launch_bounds__(32) group_dense_kernel(gdense_args_t a) {
  extern __shared__ long long gshared[];
  long long* first = gshared;                                           // [nslots]
  gacc_t* table = reinterpret_cast<gacc_t*>(first + a.nslots);          // [nslots][nspec]
  num_t* scratch = reinterpret_cast<num_t*>(table + a.nslots * a.nspec);  // [32]
  int* snull = reinterpret_cast<int*>(scratch + 32);                    // [32]
  __shared__ gkey_t skeys[kDenseMaxKeys];
  int lane = threadIdx.x;
  for (int k = lane; k < a.nkeys; k += 32) skeys[k] = a.keys[k];
  for (long long s = lane; s < a.nslots; s += 32) first[s] = LLONG_MAX;
  for (long long i = lane; i < a.nslots * a.nspec; i += 32) { table[i].cnt = 0; table[i].acc.i = 0; }
  __syncwarp();
  const unsigned full = 0xffffffffu;
  long long begin = (long long)blockIdx.x * a.chunk, end = min(a.n, begin + a.chunk);
  for (long long base = begin; base < end; base += 32 * kDenseBatches) {
    long long slot[kDenseBatches];
    unsigned peers[kDenseBatches];
#pragma unroll
    for (int u = 0; u < kDenseBatches; ++u) {
      long long row = base + u * 32 + lane;
      long long sl = -1 - lane;  // rows past the end: alone, never folded
      if (row < end) {
        sl = 0;
        for (int k = 0; k < a.nkeys; ++k) sl = sl * skeys[k].width + gkey_value(skeys[k], row);
        if (a.map) sl = __ldg(&a.map[sl]);
      }
      slot[u] = sl;
    }
#pragma unroll
    for (int u = 0; u < kDenseBatches; ++u) {
      peers[u] = __match_any_sync(full, slot[u]);
      // the lowest lane of a slot holds its earliest row of the batch
      if (slot[u] >= 0 && (__ffs(peers[u]) - 1) == lane && first[slot[u]] == LLONG_MAX)
        first[slot[u]] = base + u * 32 + lane;
    }
    for (int k = 0; k < a.nspec; ++k) {
      const dspec_t& sp = a.specs[k];
      num_t v[kDenseBatches];
      int isnull[kDenseBatches];
#pragma unroll
      for (int u = 0; u < kDenseBatches; ++u) {
        long long row = base + u * 32 + lane;
        isnull[u] = 1;
        v[u].i = 0;
        if (row < end) v[u] = load_num(sp, row, &isnull[u]);
        if (sp.op == ATTU_REDUCE_COUNT_STAR && row < end) isnull[u] = 0;
      }
#pragma unroll
      for (int u = 0; u < kDenseBatches; ++u) {
        scratch[lane] = v[u];
        snull[lane] = isnull[u];
        __syncwarp();
        if (slot[u] >= 0 && (__ffs(peers[u]) - 1) == lane) {
          gacc_t st = table[slot[u] * a.nspec + k];
          for (unsigned m = peers[u]; m; m &= m - 1) {
            int l = __ffs(m) - 1;
            if (!snull[l]) gacc_add(sp, st, scratch[l], a.fail);
          }
          table[slot[u] * a.nspec + k] = st;
        }
        __syncwarp();
      }
    }
  }
  __syncwarp();
  gacc_t* part = a.part + (long long)blockIdx.x * a.nslots * a.nspec;
  for (long long i = lane; i < a.nslots * a.nspec; i += 32) part[i] = table[i];
  long long* pf = a.pfirst + (long long)blockIdx.x * a.nslots;
  for (long long s = lane; s < a.nslots; s += 32) pf[s] = first[s];
}

// One warp per slot: lane l folds a contiguous run of the blocks' states in
// block order, then the lanes' results fold in lane order (a fixed shape,
// so float sums are deterministic), and lane 0 stores the outputs.
__global__ void group_dense_fold_kernel(gdense_args_t a, int nblocks, uint8_t* occupied, int64_t* first_row) {
  long long s = ((long long)blockIdx.x * blockDim.x + threadIdx.x) >> 5;
  int lane = threadIdx.x & 31;
  if (s >= a.nslots) return;  // whole warps: blockDim is a multiple of 32
  const unsigned full = 0xffffffffu;
  int per = (nblocks + 31) / 32, b0 = min(nblocks, lane * per), b1 = min(nblocks, b0 + per);
  long long f = LLONG_MAX;
  for (int b = b0; b < b1; ++b) f = min(f, a.pfirst[(long long)b * a.nslots + s]);
  for (int off = 16; off > 0; off >>= 1) f = min(f, __shfl_down_sync(full, f, off));
  if (lane == 0) {
    occupied[s] = f != LLONG_MAX;
    first_row[s] = f != LLONG_MAX ? f : -1;
  }
  for (int k = 0; k < a.nspec; ++k) {
    const dspec_t& sp = a.specs[k];
    gacc_t st;
    st.cnt = 0;
    st.acc.i = 0;
    for (int b = b0; b < b1; ++b) gacc_merge(sp, st, a.part[((long long)b * a.nslots + s) * a.nspec + k], a.fail);
    // lane order: lane l takes lane l + off's fold, which covers later blocks
    for (int off = 1; off < 32; off <<= 1) {
      gacc_t o;
      o.cnt = __shfl_down_sync(full, st.cnt, off);
      o.acc.i = __shfl_down_sync(full, (long long)st.acc.i, off);
      if ((lane & (2 * off - 1)) == 0) gacc_merge(sp, st, o, a.fail);
    }
    if (lane) continue;
    num_t out;
    out.i = 0;
    int isnull = 0;
    switch (sp.op) {
      case ATTU_REDUCE_COUNT_STAR:
      case ATTU_REDUCE_COUNT: out.i = st.cnt; break;
      case ATTU_REDUCE_AVG_SUM:
        if (!st.cnt) isnull = 1;
        else out.f = st.acc.f;
        break;
      default:
        if (!st.cnt) isnull = 1;
        else if (is_float_type(sp.out_type) && !sp.fl) out.f = (double)st.acc.i;
        else out = st.acc;
        break;
    }
    store_num(sp, s, out, isnull);
  }
}

// ---- dense group-by, one table per block ------------------------------------------
//
// Above kGroupBlockMinRows the warp-per-table kernel above leaves the GPU
// waiting on latency (a table per warp caps the warps per multiprocessor).
// Here each block of kGroupBlockThreads threads shares one table in shared
// memory, and its threads fold rows into it with shared-memory atomics, so
// the table's size costs occupancy once per block, not once per warp. The
// states are chosen so that the atomics are exact in any order:
//   - counts: 32-bit adds (a block's chunk is below 2^31 rows); every slot
//     counts its rows once, and COUNT(*) and the specs whose input has no
//     NULLs read that count instead of keeping their own;
//   - integer sums: 64-bit adds of inputs of 4 bytes or fewer (a chunk
//     cannot overflow them), and of wider inputs split into their high and
//     low 32-bit halves, each added in its own 64-bit word; the fold adds
//     the blocks' states in 128 bits and reports a total beyond int64;
//   - MIN / MAX: 64-bit atomicMin / atomicMax of an order-preserving image
//     of the value (integers with the sign bit flipped, floats by their
//     sign-magnitude bits, every NaN the same, greatest);
//   - first rows: not per row (that was a shared-memory read a row); after
//     the counts, from the chunk's start until every
//     occupied slot has its first row (below).
// Float sums (SUM and AVG_SUM) are the exception: shared-memory atomics add
// them in whatever order the warps arrive, so their last bits can differ
// from run to run, as PostgreSQL's own parallel aggregates do. Blocks then
// copy their tables out, and one warp per slot folds them in block order
// with a fixed shape.

constexpr int kGroupBlockThreads = 512;
constexpr int kGroupBlockRows = 4;            // rows per thread per round, loaded ahead
constexpr int kGroupBlockMaxSpecs = 16;
constexpr size_t kGroupBlockMaxShared = 96 * 1024;  // two blocks per multiprocessor
constexpr long long kGroupBlockMinRows = 1 << 16;

enum gblock_mode_t { GB_COUNT, GB_ISUM, GB_ISUM_WIDE, GB_FSUM, GB_MIN, GB_MAX };

struct gblock_spec_t {
  int mode;
  int own_cnt;                // counts its own non-NULL inputs; else cnt_off is the slot's row count
  int cnt_off, a_off, b_off;  // byte offsets of the spec's arrays in a table
};

struct gblock_args_t {
  const gkey_t* keys;
  int nkeys;
  const dspec_t* specs;
  const gblock_spec_t* lay;
  int nspec;
  long long n, nslots, chunk;
  int table_bytes;
  unsigned long long* part;  // [block][table_bytes / 8]
  int* fail;                 // 1: integer overflow, 2: float risk
  const int* map;            // group_dense's slot_map, or nullptr
  int replicas;              // tables a block keeps, lane % replicas picks a thread's
};

__device__ inline unsigned long long order_image(int fl, num_t v) {
  if (!fl) return (unsigned long long)v.i ^ (1ull << 63);
  double d = v.f;
  unsigned long long u = isnan(d) ? 0x7ff8000000000000ull : (unsigned long long)__double_as_longlong(d);
  return (u >> 63) ? ~u : u | (1ull << 63);
}

__device__ inline num_t from_order_image(int fl, unsigned long long u) {
  num_t v;
  if (!fl) v.i = (long long)(u ^ (1ull << 63));
  else v.f = __longlong_as_double((long long)((u >> 63) ? u & ~(1ull << 63) : ~u));
  return v;
}

// The dense slots of a thread's U rows (base, base + step, ...; those of
// `live`): the keys' offsets in their ranges, the last key fastest, then
// through the slot map when there is one.
template <int U>
__device__ inline void block_slots(const gkey_t* keys, int nkeys, const int* map, long long base, long long step,
                                   unsigned live, int (&slot)[U]) {
#pragma unroll
  for (int u = 0; u < U; ++u) slot[u] = 0;
  for (int k = 0; k < nkeys; ++k) {
    const gkey_t& key = keys[k];
    num_t kv[U];
    load_rows<U>(key.type, key.data, base, step, live, kv);
    unsigned valid = valid_rows<U>(key.valid, base, step, live);
#pragma unroll
    for (int u = 0; u < U; ++u) {
      long long d = (valid >> u & 1) ? kv[u].i - key.min : key.width - 1;  // NULL: the last value
      slot[u] = (int)(slot[u] * key.width + d);
    }
  }
  if (map) {
#pragma unroll
    for (int u = 0; u < U; ++u)
      if (live >> u & 1) slot[u] = __ldg(&map[slot[u]]);
  }
}

// Three blocks a multiprocessor (at most 42 registers). Four (32
// registers) ran 100M rows into 1000 slots in 568-572 us on an H200 where
// an unbounded 45-register build (two blocks) ran 619 us, but spilled once
// the slot map came in, and the query measured no faster than with three
// (0.72 against 0.69 ms in session 19's runs).
__global__ void __launch_bounds__(kGroupBlockThreads, 3) group_block_kernel(gblock_args_t a) {
  extern __shared__ unsigned long long gbtab[];
  unsigned char* tab = reinterpret_cast<unsigned char*>(gbtab);
  __shared__ gkey_t skeys[kDenseMaxKeys];
  __shared__ dspec_t sspec[kGroupBlockMaxSpecs];
  __shared__ gblock_spec_t slay[kGroupBlockMaxSpecs];
  int t = threadIdx.x;
  if (t < a.nkeys) skeys[t] = a.keys[t];
  if (t < a.nspec) {
    sspec[t] = a.specs[t];
    slay[t] = a.lay[t];
  }
  __syncthreads();
  // Few slots take several tables (replicas): a lane adds into table
  // lane % replicas, so that the lanes of a warp meeting one slot meet on
  // fewer addresses (100 slots: some five collisions an instruction in one
  // table, the float sums' compare-and-swap loops retrying on each: 727 us
  // for 100M rows on an H200 against 572 with eight tables). The block
  // merges its tables into table 0 at the end (written out as before; the
  // fold of every block's table as one took 130 us for 3152 of them); the
  // first rows go to table 0 only.
  const int R = a.replicas;
  const long long words = a.table_bytes / 8;
  unsigned char* mytab = tab + (size_t)((t & 31) % R) * a.table_bytes;
  unsigned long long* first = gbtab;
  unsigned* rows = reinterpret_cast<unsigned*>(mytab + a.nslots * 8);
  __shared__ unsigned s_slots, s_found;  // slots the chunk occupies; of them, first rows found
  if (t == 0) s_slots = s_found = 0;
  for (int r = 0; r < R; ++r) {
    unsigned char* rt = tab + (size_t)r * a.table_bytes;
    unsigned long long* rf = reinterpret_cast<unsigned long long*>(rt);
    unsigned* rr = reinterpret_cast<unsigned*>(rf + a.nslots);
    for (long long s = t; s < a.nslots; s += blockDim.x) {
      rf[s] = ~0ull;
      rr[s] = 0;
    }
    for (int k = 0; k < a.nspec; ++k) {
      const gblock_spec_t& l = slay[k];
      unsigned* cnt = reinterpret_cast<unsigned*>(rt + l.cnt_off);
      unsigned long long init = l.mode == GB_MIN ? ~0ull : 0ull;
      for (long long s = t; s < a.nslots; s += blockDim.x) {
        cnt[s] = 0;
        if (l.a_off >= 0) reinterpret_cast<unsigned long long*>(rt + l.a_off)[s] = init;
        if (l.b_off >= 0) reinterpret_cast<unsigned long long*>(rt + l.b_off)[s] = 0;
      }
    }
  }
  __syncthreads();
  long long begin = (long long)blockIdx.x * a.chunk, end = min(a.n, begin + a.chunk);
  const long long stride = (long long)blockDim.x * kGroupBlockRows;
  const long long step = blockDim.x;  // a thread's rows in a round: base, base + step, ...
  for (long long base = begin + t; base < end; base += stride) {
    unsigned live = 0;
#pragma unroll
    for (int u = 0; u < kGroupBlockRows; ++u)
      if (base + u * step < end) live |= 1u << u;
    int slot[kGroupBlockRows];
    block_slots<kGroupBlockRows>(skeys, a.nkeys, a.map, base, step, live, slot);
#pragma unroll
    for (int u = 0; u < kGroupBlockRows; ++u)
      if ((live >> u & 1) && atomicAdd(&rows[slot[u]], 1u) == 0 && R == 1) atomicAdd(&s_slots, 1u);
    for (int k = 0; k < a.nspec; ++k) {
      const dspec_t& sp = sspec[k];
      const gblock_spec_t& l = slay[k];
      if (l.mode == GB_COUNT && !l.own_cnt) continue;  // the slot's row count is its result
      num_t v[kGroupBlockRows];
      load_rows<kGroupBlockRows>(sp.in_type, sp.in, base, step, live, v);
      unsigned have = sp.in ? valid_rows<kGroupBlockRows>(sp.in_valid, base, step, live) : live;
      if (l.own_cnt) {
        unsigned* cnt = reinterpret_cast<unsigned*>(mytab + l.cnt_off);
#pragma unroll
        for (int u = 0; u < kGroupBlockRows; ++u)
          if (have >> u & 1) atomicAdd(&cnt[slot[u]], 1u);
      }
      unsigned long long* acc = l.a_off >= 0 ? reinterpret_cast<unsigned long long*>(mytab + l.a_off) : nullptr;
      switch (l.mode) {
        case GB_ISUM:
#pragma unroll
          for (int u = 0; u < kGroupBlockRows; ++u)
            if (have >> u & 1) atomicAdd(&acc[slot[u]], (unsigned long long)v[u].i);
          break;
        case GB_ISUM_WIDE: {
          unsigned long long* hi = reinterpret_cast<unsigned long long*>(mytab + l.b_off);
#pragma unroll
          for (int u = 0; u < kGroupBlockRows; ++u) {
            if (!(have >> u & 1)) continue;
            long long x = v[u].i;
            atomicAdd(&acc[slot[u]], (unsigned long long)(x & 0xffffffffll));
            atomicAdd(&hi[slot[u]], (unsigned long long)(x >> 32));
          }
          break;
        }
        case GB_FSUM:
#pragma unroll
          for (int u = 0; u < kGroupBlockRows; ++u) {
            if (!(have >> u & 1)) continue;
            double d = sp.fl ? v[u].f : (double)v[u].i;
            if (sp.fl && !(fabs(d) < kFloatSafe)) atomicExch(a.fail, 2);
            atomicAdd(reinterpret_cast<double*>(&acc[slot[u]]), d);
          }
          break;
        case GB_MIN:
        case GB_MAX:
#pragma unroll
          for (int u = 0; u < kGroupBlockRows; ++u) {
            if (!(have >> u & 1)) continue;
            unsigned long long img = order_image(sp.fl, v[u]);
            if (l.mode == GB_MIN) atomicMin(&acc[slot[u]], img);
            else atomicMax(&acc[slot[u]], img);
          }
          break;
        default: break;
      }
    }
  }
  __syncthreads();
  if (R > 1) {  // the occupied slots, over the tables
    for (long long s = t; s < a.nslots; s += blockDim.x) {
      bool any = false;
      for (int r = 0; r < R && !any; ++r)
        any = reinterpret_cast<const unsigned*>(tab + (size_t)r * a.table_bytes + a.nslots * 8)[s] != 0;
      if (any) atomicAdd(&s_slots, 1u);
    }
    __syncthreads();
  }
  // Each occupied slot's first row, from the chunk's start in rounds of a
  // row a thread: the first round that meets a slot holds its first row
  // (atomicMin among the round's threads), and the rounds stop once every
  // slot the counts saw is found. Uniform keys end within a few thousand
  // rows (1000 slots: about 7000); a slot first met at the chunk's end
  // costs one more read of the chunk's keys, never of its values.
  const unsigned want = s_slots;
  for (long long base = begin; base < end; base += blockDim.x) {
    long long r = base + t;
    if (r < end) {
      int sl[1];
      block_slots<1>(skeys, a.nkeys, a.map, r, 0, 1u, sl);
      // r < first, not first unset: a lower row of the same round may come
      // after a higher one already stored
      unsigned long long row = (unsigned long long)r;
      if (row < first[sl[0]] && atomicMin(&first[sl[0]], row) == ~0ull) atomicAdd(&s_found, 1u);
    }
    __syncthreads();  // the round's finds counted before the test
    bool done = s_found >= want;
    __syncthreads();  // and the test read by all before the next round adds
    if (done) break;
  }
  if (R > 1) {  // the tables merged into table 0 (the first rows are there already)
    __syncthreads();
    unsigned* r0 = reinterpret_cast<unsigned*>(tab + a.nslots * 8);
    for (long long s = t; s < a.nslots; s += blockDim.x) {
      for (int r = 1; r < R; ++r) {
        const unsigned char* rt = tab + (size_t)r * a.table_bytes;
        r0[s] += reinterpret_cast<const unsigned*>(rt + a.nslots * 8)[s];
        for (int k = 0; k < a.nspec; ++k) {
          const gblock_spec_t& l = slay[k];
          if (l.own_cnt)
            reinterpret_cast<unsigned*>(tab + l.cnt_off)[s] += reinterpret_cast<const unsigned*>(rt + l.cnt_off)[s];
          if (l.a_off < 0) continue;
          unsigned long long* acc = reinterpret_cast<unsigned long long*>(tab + l.a_off);
          const unsigned long long x = reinterpret_cast<const unsigned long long*>(rt + l.a_off)[s];
          switch (l.mode) {
            case GB_ISUM: acc[s] += x; break;
            case GB_ISUM_WIDE:
              acc[s] += x;
              reinterpret_cast<unsigned long long*>(tab + l.b_off)[s] +=
                  reinterpret_cast<const unsigned long long*>(rt + l.b_off)[s];
              break;
            case GB_FSUM:
              acc[s] = (unsigned long long)__double_as_longlong(__longlong_as_double((long long)acc[s]) +
                                                                __longlong_as_double((long long)x));
              break;
            case GB_MIN: acc[s] = min(acc[s], x); break;  // MIN's tables start at ~0, MAX's at 0
            case GB_MAX: acc[s] = max(acc[s], x); break;
            default: break;
          }
        }
      }
    }
    __syncthreads();
  }
  unsigned long long* out = a.part + (long long)blockIdx.x * words;
  for (long long i = t; i < words; i += blockDim.x) out[i] = gbtab[i];
}

// The per-slot state a fold carries (one lane's run of blocks, then lanes).
struct gblock_state_t {
  long long cnt;
  __int128 isum;
  double fsum;
  unsigned long long img;
};

__device__ inline void gblock_merge(int mode, gblock_state_t& st, const gblock_state_t& o) {
  st.cnt += o.cnt;
  st.isum += o.isum;
  st.fsum += o.fsum;
  if (mode == GB_MIN) st.img = min(st.img, o.img);
  if (mode == GB_MAX) st.img = max(st.img, o.img);
}

__device__ inline gblock_state_t gblock_shfl_down(gblock_state_t s, int off) {
  const unsigned full = 0xffffffffu;
  gblock_state_t o;
  o.cnt = __shfl_down_sync(full, s.cnt, off);
  unsigned long long lo = (unsigned long long)s.isum, hi = (unsigned long long)(s.isum >> 64);
  lo = __shfl_down_sync(full, lo, off);
  hi = __shfl_down_sync(full, hi, off);
  o.isum = (__int128)(((unsigned __int128)hi << 64) | lo);
  o.fsum = __shfl_down_sync(full, s.fsum, off);
  o.img = __shfl_down_sync(full, s.img, off);
  return o;
}

// One warp per slot: lane l folds a contiguous run of the blocks' tables
// in block order, the lanes' states fold in a fixed tree, lane 0 stores.
__global__ void group_block_fold_kernel(gblock_args_t a, int nblocks, uint8_t* occupied, int64_t* first_row) {
  long long s = ((long long)blockIdx.x * blockDim.x + threadIdx.x) >> 5;
  int lane = threadIdx.x & 31;
  if (s >= a.nslots) return;  // whole warps: blockDim is a multiple of 32
  const unsigned full = 0xffffffffu;
  const long long words = a.table_bytes / 8;
  int per = (nblocks + 31) / 32, b0 = min(nblocks, lane * per), b1 = min(nblocks, b0 + per);
  unsigned long long f = ~0ull;
  for (int b = b0; b < b1; ++b) f = min(f, a.part[(long long)b * words + s]);
  for (int off = 16; off > 0; off >>= 1) f = min(f, __shfl_down_sync(full, f, off));
  if (lane == 0) {
    occupied[s] = f != ~0ull;
    first_row[s] = f != ~0ull ? (int64_t)f : -1;
  }
  for (int k = 0; k < a.nspec; ++k) {
    const dspec_t& sp = a.specs[k];
    const gblock_spec_t l = a.lay[k];
    gblock_state_t st;
    st.cnt = 0;
    st.isum = 0;
    st.fsum = 0;
    st.img = l.mode == GB_MIN ? ~0ull : 0ull;
    for (int b = b0; b < b1; ++b) {
      const unsigned char* tb = reinterpret_cast<const unsigned char*>(a.part + (long long)b * words);
      gblock_state_t o;
      o.cnt = reinterpret_cast<const unsigned*>(tb + l.cnt_off)[s];
      unsigned long long x = l.a_off >= 0 ? reinterpret_cast<const unsigned long long*>(tb + l.a_off)[s] : 0;
      o.isum = 0;
      o.fsum = 0;
      o.img = st.img;
      if (l.mode == GB_ISUM) o.isum = (long long)x;
      else if (l.mode == GB_ISUM_WIDE)
        o.isum = (__int128)x + (__int128)(long long)reinterpret_cast<const unsigned long long*>(tb + l.b_off)[s] * ((__int128)1 << 32);
      else if (l.mode == GB_FSUM) o.fsum = __longlong_as_double((long long)x);
      else if ((l.mode == GB_MIN || l.mode == GB_MAX) && o.cnt) o.img = x;
      gblock_merge(l.mode, st, o);
    }
    for (int off = 1; off < 32; off <<= 1) {
      gblock_state_t o = gblock_shfl_down(st, off);
      if ((lane & (2 * off - 1)) == 0) gblock_merge(l.mode, st, o);
    }
    if (lane) continue;
    num_t out;
    out.i = 0;
    int isnull = 0;
    switch (l.mode) {
      case GB_COUNT: out.i = st.cnt; break;
      case GB_ISUM:
      case GB_ISUM_WIDE:
        if (!st.cnt) isnull = 1;
        else if (st.isum > (__int128)LLONG_MAX || st.isum < (__int128)LLONG_MIN) atomicExch(a.fail, 1);
        else if (is_float_type(sp.out_type)) out.f = (double)(long long)st.isum;
        else out.i = (long long)st.isum;
        break;
      case GB_FSUM:
        if (!st.cnt) isnull = 1;
        else out.f = st.fsum;
        break;
      default:
        if (!st.cnt) isnull = 1;
        else out = from_order_image(sp.fl, st.img);
        break;
    }
    store_num(sp, s, out, isnull);
  }
}

// Rows from which group_dense takes the block kernel (ATTU_GPU_GROUP_BLOCK_MIN_ROWS
// overrides, so that tests can run it on small inputs).
long long group_block_min_rows() {
  const char* v = getenv("ATTU_GPU_GROUP_BLOCK_MIN_ROWS");
  return v && *v ? atoll(v) : kGroupBlockMinRows;
}

// Tables a block of group_block_kernel keeps: 1, or for few slots up to 8
// (lane % replicas picks a lane's), within 1024 slots and 48 KB in all
// (ATTU_GPU_GROUP_BLOCK_REPLICAS overrides: a power of two up to 8).
int group_block_replicas(size_t nslots, size_t table_bytes) {
  const char* v = getenv("ATTU_GPU_GROUP_BLOCK_REPLICAS");
  if (v && *v) {
    int r = atoi(v);
    r = r == 2 || r == 4 || r == 8 ? r : 1;
    while (r > 1 && table_bytes * (size_t)r > kGroupBlockMaxShared) r /= 2;
    return r;
  }
  int r = 1;
  while (r < 8 && nslots * (size_t)r * 2 <= 1024 && table_bytes * (size_t)r * 2 <= 48 * 1024) r *= 2;
  return r;
}

// The block table's layout for these specs: 0 when the kernel can run them.
int gblock_layout(const attu_reduce_spec* specs, int nreduce, size_t nslots, std::vector<gblock_spec_t>& lay,
                  size_t* bytes) {
  if (nreduce > kGroupBlockMaxSpecs) return 1;
  size_t padded = (nslots + 1) & ~(size_t)1;  // 32-bit arrays end 8-byte aligned
  size_t rows_off = 8 * nslots;               // after the first rows: the slots' row counts
  size_t off = rows_off + 4 * padded;
  lay.resize((size_t)nreduce);
  for (int k = 0; k < nreduce; ++k) {
    const attu_reduce_spec& s = specs[k];
    bool fl = s.in.type.id == ATTU_TYPE_FLOAT32 || s.in.type.id == ATTU_TYPE_FLOAT64;
    gblock_spec_t& l = lay[k];
    switch (s.op) {
      case ATTU_REDUCE_COUNT_STAR:
      case ATTU_REDUCE_COUNT: l.mode = GB_COUNT; break;
      case ATTU_REDUCE_AVG_SUM: l.mode = GB_FSUM; break;
      case ATTU_REDUCE_SUM:
        l.mode = fl ? GB_FSUM : attu_type_width(s.in.type.id) <= 4 ? GB_ISUM : GB_ISUM_WIDE;
        break;
      case ATTU_REDUCE_MIN: l.mode = GB_MIN; break;
      case ATTU_REDUCE_MAX: l.mode = GB_MAX; break;
      default: return 1;
    }
    // COUNT(*), and any spec over an input without NULLs, counts the slot's rows
    l.own_cnt = s.op != ATTU_REDUCE_COUNT_STAR && s.in.data && s.in.valid;
    l.cnt_off = (int)rows_off;
    if (l.own_cnt) {
      l.cnt_off = (int)off;
      off += 4 * padded;
    }
    l.a_off = l.b_off = -1;
    if (l.mode != GB_COUNT) {
      l.a_off = (int)off;
      off += 8 * nslots;
    }
    if (l.mode == GB_ISUM_WIDE) {
      l.b_off = (int)off;
      off += 8 * nslots;
    }
  }
  *bytes = off;
  return off > kGroupBlockMaxShared ? 1 : 0;
}

int host_group_dense(attu_backend* be, const attu_vec* keys, const int64_t* mins, const int64_t* widths,
                     int nkeys, size_t n, size_t nslots, const attu_buf* slot_map, int nreduce, const attu_reduce_spec* specs,
                     attu_out* outs, attu_buf* occupied, attu_buf* first_row, attu_error* err) {
  attu_backend* host = IMPL(be)->host;  // (the used slots, when wanted, come after: gpu_group_dense)
  return guarded(err, [&] {
    stage_t st(be);
    std::vector<attu_vec> hk((size_t)nkeys);
    for (int k = 0; k < nkeys; ++k) hk[k] = st.vec(keys[k]);
    std::vector<attu_reduce_spec> hs((size_t)nreduce);
    std::vector<attu_out> ho((size_t)nreduce);
    for (int k = 0; k < nreduce; ++k) {
      hs[k] = stage_spec(st, specs[k]);
      ho[k] = st.outv(outs[k]);
    }
    int rc = host->group_dense(host, hk.data(), mins, widths, nkeys, n, nslots, st.in(slot_map), nreduce, hs.data(),
                               ho.data(), st.out(occupied), st.out(first_row), nullptr, nullptr, err);
    if (rc < 0) throw already_set_t();
    if (rc == 0) st.commit();
  });
}

// The occupied slots' numbers in order (one block: nslots is at most
// 65536), their count in *count: group_dense's used slots without a
// compact call after it (its allocations, launches and read-back: 35-50 us
// of a 100-group GROUP BY).
__global__ void __launch_bounds__(1024) used_slots_kernel(const uint8_t* occ, long long nslots, int64_t* out,
                                                          int* count) {
  __shared__ int warp_sums[32];
  __shared__ int base;
  if (threadIdx.x == 0) base = 0;
  __syncthreads();
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  for (long long s0 = 0; s0 < nslots; s0 += 1024) {
    const long long s = s0 + threadIdx.x;
    const bool o = s < nslots && occ[s];
    const unsigned m = __ballot_sync(~0u, o);
    if (lane == 0) warp_sums[warp] = __popc(m);
    __syncthreads();
    int wbase = 0, total = 0;
    for (int w = 0; w < 32; ++w) {
      const int c = warp_sums[w];
      if (w < warp) wbase += c;
      total += c;
    }
    if (o) out[base + wbase + __popc(m & ((1u << lane) - 1))] = s;
    __syncthreads();  // every thread has read base and the sums
    if (threadIdx.x == 0) base += total;
    __syncthreads();
  }
  if (threadIdx.x == 0) *count = base;
}

// group_dense on the device; with used (nslots int64) the used slots too,
// their count in *nused (left -1 when the host reference ran instead).
int group_dense_run(attu_backend* be, const attu_vec* keys, const int64_t* mins, const int64_t* widths, int nkeys,
                    size_t n, size_t nslots, const attu_buf* slot_map, int nreduce, const attu_reduce_spec* specs,
                    attu_out* outs, attu_buf* occupied, attu_buf* first_row, attu_buf* used, int* nused,
                    attu_error* err) {
  if (nkeys < 1 || nkeys > kDenseMaxKeys || nreduce < 1 || n > kMaxCount || nslots > (size_t)INT_MAX) return 1;
  for (int k = 0; k < nreduce; ++k)
    if (!device_reducible(specs[k]) || specs[k].op == ATTU_REDUCE_ANY) return 1;
  std::vector<gblock_spec_t> lay;
  size_t table_bytes = 0;
  bool block = (long long)n >= group_block_min_rows() &&
               gblock_layout(specs, nreduce, nslots, lay, &table_bytes) == 0;
  size_t shmem = nslots * (8 + sizeof(gacc_t) * (size_t)nreduce) + 32 * (sizeof(num_t) + sizeof(int));
  if (!block && shmem > kDenseMaxShared) return 1;
  if (n == 0) return host_group_dense(be, keys, mins, widths, nkeys, n, nslots, slot_map, nreduce, specs, outs,
                                      occupied, first_row, err);
  if (attu_backend_interrupted(err)) return -1;
  int failed = 0;
  int rc = guarded(err, [&] {
    context_t& ctx = CTX(be);
    // after the fold: the used slots (when wanted), then one read-back of
    // the failure flag and their count, which synchronizes (part and the
    // specs die on return)
    auto finish = [&](int* flag) {
      if (used) {
        used_slots_kernel<<<1, 1024, 0, ctx.stream()>>>(static_cast<const uint8_t*>(occupied->ptr),
                                                       (long long)nslots, I64(used), flag + 1);
        ATTU_CUDA_CHECK_LAUNCH();
      }
      int f[2];
      dtoh(f, flag, 2, ctx);
      failed = f[0];
      if (used && !failed) *nused = f[1];
    };
    std::vector<gkey_t> hk((size_t)nkeys);
    for (int k = 0; k < nkeys; ++k) {
      hk[k].data = keys[k].data->ptr;
      hk[k].valid = keys[k].valid ? static_cast<const uint8_t*>(keys[k].valid->ptr) : nullptr;
      hk[k].type = keys[k].type.id;
      hk[k].min = mins[k];
      hk[k].width = widths[k];
    }
    std::vector<dspec_t> hs = device_specs(specs, outs, nreduce);
    mem_t<gkey_t> dk = to_mem(hk, ctx);
    mem_t<dspec_t> ds = to_mem(hs, ctx);
    const int* map = slot_map ? static_cast<const int*>(slot_map->ptr) : nullptr;
    if (block) {
      mem_t<gblock_spec_t> dl = to_mem(lay, ctx);
      const int R = group_block_replicas(nslots, table_bytes);
      const size_t shared = table_bytes * (size_t)R;
      int per_sm = 0;
      auto kernel = group_block_kernel;
      if (shared > 48 * 1024)
        ATTU_CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)shared));
      ATTU_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, kGroupBlockThreads, shared));
      long long want = (long long)ctx.sm_count() * std::max(per_sm, 1);
      const long long round = (long long)kGroupBlockThreads * kGroupBlockRows;
      long long chunk = ((long long)n + want - 1) / want;
      chunk = (chunk + round - 1) / round * round;
      int nblocks = (int)(((long long)n + chunk - 1) / chunk);
      mem_t<unsigned long long> part((size_t)nblocks * (table_bytes / 8), ctx);
      mem_t<int> flag(2, ctx);
      flag.memset(0);
      gblock_args_t a{dk.data(),         nkeys, ds.data(),        dl.data(),   nreduce,     (long long)n,
                      (long long)nslots, chunk, (int)table_bytes, part.data(), flag.data(), map, R};
      kernel<<<nblocks, kGroupBlockThreads, shared, ctx.stream()>>>(a);
      ATTU_CUDA_CHECK_LAUNCH();
      group_block_fold_kernel<<<(unsigned)((nslots * 32 + 127) / 128), 128, 0, ctx.stream()>>>(
          a, nblocks, static_cast<uint8_t*>(occupied->ptr), I64(first_row));
      ATTU_CUDA_CHECK_LAUNCH();
      finish(flag.data());
      return;
    }
    // enough blocks to fill the GPU at the occupancy the table allows
    int per_sm = 0;
    if (shmem > 48 * 1024)
      ATTU_CUDA_CHECK(cudaFuncSetAttribute(group_dense_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)shmem));
    ATTU_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, group_dense_kernel, 32, shmem));
    long long want = (long long)ctx.sm_count() * std::max(per_sm, 1) * 4;
    long long chunk = std::max<long long>(kDenseChunk, ((long long)n + want - 1) / want);
    // A few rows (a pregrouped second level: a thousand partials) in one
    // block of one warp ran serially at ten cycles an instruction (0.24 ms
    // for 1000 rows on an H100): below kDenseChunk rows a block, the rows
    // spread over up to 64 blocks of at least 32 rows each (the fold reads
    // 64 partial tables at most). 1000 rows in 8 blocks of 128 still took
    // 28 us (a warp issuing every 10 cycles); in 32 blocks of 32 rows each
    // warp has a quarter of the rows.
    if ((long long)n < 8 * kDenseChunk) {
      chunk = std::max<long long>(32, ((long long)n + 63) / 64);
      chunk = (chunk + 31) / 32 * 32;
    } else {
      chunk = (chunk + 32 * kDenseBatches - 1) / (32 * kDenseBatches) * (32 * kDenseBatches);
    }
    int nblocks = (int)(((long long)n + chunk - 1) / chunk);
    mem_t<gacc_t> part((size_t)nblocks * nslots * nreduce, ctx);
    mem_t<long long> pfirst((size_t)nblocks * nslots, ctx);
    mem_t<int> flag(2, ctx);
    flag.memset(0);
    gdense_args_t a;
    a.keys = dk.data();
    a.nkeys = nkeys;
    a.specs = ds.data();
    a.nspec = nreduce;
    a.n = (long long)n;
    a.nslots = (long long)nslots;
    a.chunk = chunk;
    a.part = part.data();
    a.pfirst = pfirst.data();
    a.fail = flag.data();
    a.map = map;
    group_dense_kernel<<<nblocks, 32, shmem, ctx.stream()>>>(a);
    ATTU_CUDA_CHECK_LAUNCH();
    group_dense_fold_kernel<<<(unsigned)((nslots * 32 + 127) / 128), 128, 0, ctx.stream()>>>(
        a, nblocks, static_cast<uint8_t*>(occupied->ptr), I64(first_row));
    ATTU_CUDA_CHECK_LAUNCH();
    finish(flag.data());
  });
  if (rc) return rc;
  if (failed)  // overflow or float risk: the reference decides, row by row
    return host_group_dense(be, keys, mins, widths, nkeys, n, nslots, slot_map, nreduce, specs, outs, occupied,
                            first_row, err);
  return 0;
}

int gpu_group_dense(attu_backend* be, const attu_vec* keys, const int64_t* mins, const int64_t* widths, int nkeys,
                    size_t n, size_t nslots, const attu_buf* slot_map, int nreduce, const attu_reduce_spec* specs,
                    attu_out* outs, attu_buf* occupied, attu_buf* first_row, attu_buf** used_out, size_t* nused_out,
                    attu_error* err) {
  attu_buf* used = nullptr;
  if (used_out && !(used = gpu_alloc(be, std::max<size_t>(nslots, 1) * sizeof(int64_t), err))) return -1;
  int nused = -1;
  int rc = group_dense_run(be, keys, mins, widths, nkeys, n, nslots, slot_map, nreduce, specs, outs, occupied,
                           first_row, used, &nused, err);
  if (rc != 0 || !used_out || nused < 0) gpu_free(be, used);
  if (rc != 0 || !used_out) return rc;
  if (nused < 0) {  // the host reference ran: the used slots by a compaction
    attu_vec m{attu_type_make(ATTU_TYPE_BOOL), occupied, nullptr, nullptr};
    return be->compact(be, &m, nslots, used_out, nused_out, err) ? -1 : 0;
  }
  *used_out = used;
  *nused_out = (size_t)nused;
  return 0;
}

// ---- the first row of every partition (partition_first) ------------------------------------
//
// row_number() = 1 without sorting: phases over the rows, one launch each.
// In a phase, every row still a candidate of its slot offers its value to
// the slot's best (an atomicMin, skipped when the best is already no
// larger: after the first rows almost every offer is); the next phase keeps
// the rows whose value met their slot's best. An order key gives a phase
// for its NULL flag (when it has a validity buffer: rank 0 before rank 1)
// and one for its value's order image (key_bits, turned over for DESC; the
// NULL rows left tie there); the last phase offers the row number, so ties
// go to the lower row, as after a stable sort. The first phase also writes
// each row's slot, which the later phases read.
struct pf_key_t {
  const void* data;
  const uint8_t* valid;
  int type;
  int desc;
  int nulls_first;
};

constexpr int kPfMaxKeys = 8;
constexpr int kPfRowPhase = 2;  // a phase's kind: 0 NULL rank, 1 value, 2 the row

// Passed by value (the keys too: no upload before the launches).
struct pf_args_t {
  gkey_t keys[kDenseMaxKeys];  // the partition keys
  int nkeys;
  pf_key_t order[kPfMaxKeys];
  long long n;
  int nslots;
  int key, kind;            // this phase
  int prev_key, prev_kind;  // the phase before (prev_kind -1: none)
  int* slot;
  uint8_t* cand;
  const unsigned long long* prev_best;
  unsigned long long* best;
};

__device__ inline unsigned long long pf_value(const pf_key_t* order, int key, int kind, long long row) {
  if (kind == kPfRowPhase) return (unsigned long long)row;
  const pf_key_t& k = order[key];
  bool null = k.valid && !k.valid[row];
  if (kind == 0) return null != (k.nulls_first != 0) ? 1ull : 0ull;
  if (null) return 0;
  unsigned long long u = (unsigned long long)key_bits(k.type, k.data, row) ^ (1ull << 63);
  return k.desc ? ~u : u;
}

// With few slots the offers meet in a table in shared memory first (rows
// of one partition often sit together, and a warp's 32 atomics on one
// global word serialize in L2); each block then offers its table's
// winners. Otherwise the offers go straight to global memory.
constexpr int kPfSharedSlots = 4096;

__global__ void __launch_bounds__(256) partition_first_kernel(pf_args_t a) {
  extern __shared__ unsigned long long pf_table[];
  bool shared = a.nslots <= kPfSharedSlots;
  if (shared) {
    for (int s = threadIdx.x; s < a.nslots; s += blockDim.x) pf_table[s] = ~0ull;
    __syncthreads();
  }
  long long stride = (long long)gridDim.x * blockDim.x;
  for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < a.n; i += stride) {
    int s;
    bool c;
    if (a.prev_kind < 0) {
      long long sl = 0;
      for (int k = 0; k < a.nkeys; ++k) sl = sl * a.keys[k].width + gkey_value(a.keys[k], i);
      s = (int)sl;
      a.slot[i] = s;
      c = true;
    } else {
      s = a.slot[i];
      c = a.cand[i] && pf_value(a.order, a.prev_key, a.prev_kind, i) == a.prev_best[s];
    }
    if (a.prev_kind < 0 || !c) a.cand[i] = c;
    if (c) {
      unsigned long long v = pf_value(a.order, a.key, a.kind, i);
      unsigned long long* t = shared ? pf_table + s : a.best + s;
      if (v < *t) atomicMin(t, v);
    }
  }
  if (shared) {
    __syncthreads();
    for (int s = threadIdx.x; s < a.nslots; s += blockDim.x) {
      unsigned long long v = pf_table[s];
      if (v < a.best[s]) atomicMin(a.best + s, v);
    }
  }
}

struct pf_occupied_t {
  __device__ bool operator()(int s, const unsigned long long* best) const { return best[s] != ~0ull; }
};
struct pf_store_t {
  __device__ void operator()(int dst, int src, const unsigned long long* best, int64_t* out) const {
    out[dst] = (int64_t)best[src];
  }
};

int gpu_partition_first(attu_backend* be, const attu_vec* keys, const int64_t* mins, const int64_t* widths,
                        int nkeys, size_t n, size_t nslots, const attu_sort_key* order, int norder,
                        attu_buf** rows_out, size_t* nrows_out, attu_error* err) {
  if (nkeys < 0 || nkeys > kDenseMaxKeys || norder < 0 || norder > kPfMaxKeys || n > kMaxCount ||
      nslots > (size_t)INT_MAX)
    return 1;
  if (!radix_sortable(order, norder) && norder > 0) return 1;
  if (nslots == 0) nslots = 1;
  if (attu_backend_interrupted(err)) return -1;
  return guarded(err, [&] {
    context_t& ctx = CTX(be);
    if (n == 0) {
      attu_error e;
      attu_error_clear(&e);
      *rows_out = gpu_alloc(be, 8, &e);
      if (!*rows_out) throw std::bad_alloc();
      *nrows_out = 0;
      return;
    }
    pf_args_t a{};
    a.nkeys = nkeys;
    a.n = (long long)n;
    a.nslots = (int)nslots;
    for (int k = 0; k < nkeys; ++k) {
      a.keys[k].data = keys[k].data->ptr;
      a.keys[k].valid = keys[k].valid ? static_cast<const uint8_t*>(keys[k].valid->ptr) : nullptr;
      a.keys[k].type = keys[k].type.id;
      a.keys[k].min = mins[k];
      a.keys[k].width = widths[k];
    }
    std::vector<std::pair<int, int>> phases;  // (key, kind)
    for (int j = 0; j < norder; ++j) {
      pf_key_t& o = a.order[j];
      o.data = order[j].col.data->ptr;
      o.valid = order[j].col.valid ? static_cast<const uint8_t*>(order[j].col.valid->ptr) : nullptr;
      o.type = order[j].col.type.id;
      o.desc = order[j].desc;
      o.nulls_first = order[j].nulls_first;
      if (o.valid) phases.push_back({j, 0});
      phases.push_back({j, 1});
    }
    phases.push_back({-1, kPfRowPhase});
    mem_t<unsigned long long> best(phases.size() * nslots, ctx);
    best.memset(0xff);  // ~0: no row yet
    mem_t<int> slot(n, ctx);
    mem_t<uint8_t> cand(n, ctx);
    int grid = (int)std::min<long long>(((long long)n + 255) / 256, (long long)ctx.sm_count() * 8);
    a.slot = slot.data();
    a.cand = cand.data();
    for (size_t p = 0; p < phases.size(); ++p) {
      a.key = phases[p].first;
      a.kind = phases[p].second;
      a.prev_key = p ? phases[p - 1].first : -1;
      a.prev_kind = p ? phases[p - 1].second : -1;
      a.prev_best = p ? best.data() + (p - 1) * nslots : nullptr;
      a.best = best.data() + p * nslots;
      size_t shmem = nslots <= (size_t)kPfSharedSlots ? nslots * sizeof(unsigned long long) : 0;
      partition_first_kernel<<<grid, 256, shmem, ctx.stream()>>>(a);
      ATTU_CUDA_CHECK_LAUNCH();
    }
    const unsigned long long* rows = best.data() + (phases.size() - 1) * nslots;
    auto compact = transform_compact((int)nslots, ctx);
    int kept = compact.upsweep(pf_occupied_t(), rows);
    attu_error e;
    attu_error_clear(&e);
    *rows_out = gpu_alloc(be, (size_t)std::max(kept, 1) * sizeof(int64_t), &e);
    if (!*rows_out) throw std::bad_alloc();
    compact.downsweep(pf_store_t(), rows, I64(*rows_out));
    *nrows_out = (size_t)kept;
  });
}

// ---- runs of a dense-key table -------------------------------------------------------------
//
// One thread per needle: its two bounds are adjacent entries of the table
// (usually one cache line), read and written in a single pass.
int gpu_dense_runs(attu_backend* be, const attu_buf* needles, size_t nn, const attu_buf* bounds, int64_t kmin,
                   int64_t kmax, attu_buf* lo, attu_buf* hi, attu_error* err) {
  if (nn > kMaxCount) return attu_error_set(err, "54000", 0, "GPU backend: dense_runs of %zu needles", nn);
  if (nn == 0) return 0;
  return guarded(err, [&] {
    const int64_t* k = I64(needles);
    const int64_t* b = I64(bounds);
    int64_t* l = I64(lo);
    int64_t* h = I64(hi);
    transform([=] __device__(int i) {
      int64_t x = k[i];
      bool in = x >= kmin && x <= kmax;
      int64_t j = in ? x - kmin : 0;
      l[i] = b[j];
      h[i] = in ? b[j + 1] : b[0];
    }, (int)nn, CTX(be));  // stream-ordered: no synchronization needed
  });
}

// ---- ranking window functions ------------------------------------------------------------
//
// One thread per position q: binary searches over the (ascending) head
// lists find q's partition head b and peer head; row_number = q - b + 1,
// rank = peer head - b + 1, dense_rank = peer groups from b to q. No scan
// and no synchronization between positions.
__device__ inline int64_t last_at_most(const int64_t* a, int64_t n, int64_t q) {
  int64_t lo = 0, hi = n;  // first index with a[i] > q
  while (lo < hi) {
    int64_t mid = (lo + hi) >> 1;
    if (a[mid] <= q) lo = mid + 1;
    else hi = mid;
  }
  return lo - 1;
}

int gpu_window_rank(attu_backend* be, attu_rank_kind kind, const attu_buf* perm, size_t n,
                    const attu_buf* part_heads, size_t npart, const attu_buf* peer_heads, size_t npeer,
                    attu_buf* out, attu_error* err) {
  if (n > kMaxCount) return attu_error_set(err, "54000", 0, "GPU backend: window_rank of %zu rows", n);
  if (n == 0) return 0;
  if (kind != ATTU_RANK_ROW_NUMBER && !peer_heads)
    return attu_error_set(err, ATTU_SQLSTATE_INTERNAL, 0, "window_rank: peer heads missing");
  return guarded(err, [&] {
    const int64_t* pm = I64(perm);
    const int64_t* ph = I64(part_heads);
    const int64_t* pe = peer_heads ? I64(peer_heads) : nullptr;
    int64_t* o = I64(out);
    int64_t np = (int64_t)npart, ne = (int64_t)npeer;
    int k = (int)kind;
    transform([=] __device__(int q) {
      int64_t b = ph[last_at_most(ph, np, q)];
      int64_t v;
      if (k == ATTU_RANK_ROW_NUMBER) v = q - b + 1;
      else {
        int64_t p = last_at_most(pe, ne, q);
        if (k == ATTU_RANK_RANK) v = pe[p] - b + 1;
        else v = p - last_at_most(pe, ne, b) + 1;  // b is itself a peer head
      }
      o[pm[q]] = v;
    }, (int)n, CTX(be));  // stream-ordered: later primitives and downloads wait for it
  });
}

}  // namespace

void install_compute(attu_backend* be) {
  const char* e = getenv("ATTU_GPU_EVAL");
  IMPL(be)->device_eval = !(e && strcmp(e, "0") == 0);
  const char* l = getenv("ATTU_GPU_LBS");
  IMPL(be)->device_lbs = !(l && strcmp(l, "0") == 0);
  if (IMPL(be)->device_eval || IMPL(be)->device_lbs) jit_warm_up();
  be->eval = gpu_eval;
  be->sort = gpu_sort;
  be->top_k = gpu_top_k;
  be->select_window = gpu_select_window;
  be->select_window_set = gpu_select_window_set;
  be->segment_heads = gpu_segment_heads;
  be->sort_heads = gpu_sort_heads;
  be->segreduce = gpu_segreduce;
  be->reduce = gpu_reduce;
  be->eval_reduce = gpu_eval_reduce;
  be->partition = gpu_partition;
  be->count_keys = gpu_count_keys;
  be->lbs_segreduce = gpu_lbs_segreduce;
  be->segmented_sort = gpu_segmented_sort;
  be->key_encode = gpu_key_encode;
  be->window_rank = gpu_window_rank;
  be->dense_runs = gpu_dense_runs;
  be->partition_first = gpu_partition_first;
  // The dense group-by (block tables above kGroupBlockMinRows rows) is on
  // unless ATTU_GPU_DENSE_GROUP=0, which sends every GROUP BY to the sort
  // path (and spares the executor the key ranges' pass).
  const char* dg = getenv("ATTU_GPU_DENSE_GROUP");
  be->group_dense = dg && strcmp(dg, "0") == 0 ? nullptr : gpu_group_dense;
}

}  // namespace gpu_backend
}  // namespace attu
