// backend_gpu.cu: engine/backend.h primitives on the GPU, each one pattern
// (or two) of gpu/patterns over device buffers from the context's
// stream-ordered pool. Every entry catches the library's exceptions and
// turns them into an attu_error: out of device memory is 53200, any other
// CUDA failure XX000 with the runtime's file:line message. Calls are
// synchronous towards the caller (results a host reads are copied back
// before return); device work stays on the backend's one stream.
//
#include "gpu/backend/backend_gpu_internal.cuh"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <type_traits>
#include <vector>

using namespace attu::gpu;

namespace attu {
namespace gpu_backend {

// ---- memory -----------------------------------------------------------------

attu_buf* gpu_alloc(attu_backend* be, size_t bytes, attu_error* err) {
  gpu_impl* im = IMPL(be);
  // Reserve against the budget first, so concurrent callers cannot both pass.
  size_t before = im->used.fetch_add(bytes);
  if (before + bytes > im->budget) {
    im->used.fetch_sub(bytes);
    attu_error_set(err, ATTU_SQLSTATE_OUT_OF_MEMORY, 0,
                   "out of GPU memory: %zu bytes requested, %zu of the %zu byte budget in use",
                   bytes, before, im->budget);
    return nullptr;
  }
  attu_buf* b = static_cast<attu_buf*>(calloc(1, sizeof *b));
  if (!b) {
    im->used.fetch_sub(bytes);
    attu_error_oom(err);
    return nullptr;
  }
  if (guarded(err, [&] { b->ptr = CTX(be).alloc(bytes ? bytes : 1); }) != 0) {
    im->used.fetch_sub(bytes);
    free(b);
    return nullptr;
  }
  b->bytes = bytes;
  return b;
}

void gpu_free(attu_backend* be, attu_buf* b) {
  if (!b) return;
  if (b->ptr) cudaFreeAsync(b->ptr, CTX(be).stream());  // stream-ordered; errors surface later
  IMPL(be)->used.fetch_sub(b->bytes);
  free(b);
}

int gpu_upload(attu_backend* be, attu_buf* dst, size_t off, const void* src, size_t bytes,
               attu_error* err) {
  if (off + bytes > dst->bytes) return attu_error_set(err, "XX000", 0, "upload out of bounds");
  return guarded(err, [&] {
    // the host range may die on return: small copies go through the
    // thread's upload ring, larger ones are waited for
    upload_bytes(static_cast<char*>(dst->ptr) + off, src, bytes, CTX(be));
  });
}

int gpu_download(attu_backend* be, void* dst, const attu_buf* src, size_t off, size_t bytes,
                 attu_error* err) {
  if (off + bytes > src->bytes) return attu_error_set(err, "XX000", 0, "download out of bounds");
  return guarded(err, [&] {
    if (!bytes) return;
    ATTU_CUDA_CHECK(cudaMemcpyAsync(dst, static_cast<const char*>(src->ptr) + off, bytes,
                                    cudaMemcpyDeviceToHost, CTX(be).stream()));
    CTX(be).synchronize();
  });
}

// download_many: the copies go into one pinned staging buffer per thread
// (kept between calls, grown as needed), so they run asynchronously and one
// synchronization serves them all; then the host copies them out. A query
// result of a dozen small columns otherwise paid a round trip each.
struct pinned_staging_t {
  void* p = nullptr;
  size_t cap = 0;
  ~pinned_staging_t() {
    if (p) cudaFreeHost(p);  // at thread exit; an error then has no one to go to
  }
};

// The thread's pinned buffer, at least `bytes` long.
static void* pinned_staging(size_t bytes) {
  static thread_local pinned_staging_t staging;
  if (bytes > staging.cap) {
    size_t cap = std::max<size_t>(bytes, (size_t)1 << 16);
    void* p = nullptr;
    ATTU_CUDA_CHECK(cudaMallocHost(&p, cap));
    if (staging.p) ATTU_CUDA_CHECK(cudaFreeHost(staging.p));
    staging.p = p;
    staging.cap = cap;
  }
  return staging.p;
}

size_t staged_bytes(int n, const size_t* bytes) {
  size_t total = 0;
  for (int i = 0; i < n; ++i) total += (bytes[i] + 15) & ~(size_t)15;
  return total;
}

void download_staged(attu_backend* be, int n, void* const* host, const void* const* dev, const size_t* bytes) {
  char* base = static_cast<char*>(pinned_staging(staged_bytes(n, bytes)));
  size_t at = 0;
  for (int i = 0; i < n; ++i) {
    if (bytes[i]) ATTU_CUDA_CHECK(cudaMemcpyAsync(base + at, dev[i], bytes[i], cudaMemcpyDeviceToHost, CTX(be).stream()));
    at += (bytes[i] + 15) & ~(size_t)15;
  }
  CTX(be).synchronize();
  at = 0;
  for (int i = 0; i < n; ++i) {
    if (bytes[i]) memcpy(host[i], base + at, bytes[i]);
    at += (bytes[i] + 15) & ~(size_t)15;
  }
}

int gpu_download_many(attu_backend* be, int n, void* const* host, const attu_buf* const* bufs, const size_t* bytes,
                      attu_error* err) {
  for (int i = 0; i < n; ++i)
    if (bytes[i] > bufs[i]->bytes) return attu_error_set(err, "XX000", 0, "download out of bounds");
  if (staged_bytes(n, bytes) > kStagingMaxBytes) {  // large results: the round trips do not matter
    for (int i = 0; i < n; ++i)
      if (gpu_download(be, host[i], bufs[i], 0, bytes[i], err)) return -1;
    return 0;
  }
  std::vector<const void*> dev((size_t)n);
  for (int i = 0; i < n; ++i) dev[(size_t)i] = bufs[i]->ptr;
  return guarded(err, [&] { download_staged(be, n, host, dev.data(), bytes); });
}

int gpu_fill(attu_backend* be, attu_buf* dst, size_t width, uint64_t value, size_t n,
             attu_error* err) {
  if (n > 0x7fffffff) return attu_error_set(err, "54000", 0, "GPU backend: fill of %zu rows", n);
  return guarded(err, [&] {
    int count = (int)n;
    void* p = dst->ptr;
    if (width == 1) {
      uint8_t v = (uint8_t)value;
      transform([=] __device__(int i) { static_cast<uint8_t*>(p)[i] = v; }, count, CTX(be));
    } else if (width == 4) {
      uint32_t v = (uint32_t)value;
      transform([=] __device__(int i) { static_cast<uint32_t*>(p)[i] = v; }, count, CTX(be));
    } else {
      transform([=] __device__(int i) { static_cast<uint64_t*>(p)[i] = value; }, count, CTX(be));
    }
  });
}

int gpu_iota(attu_backend* be, attu_buf* dst, attu_index start, size_t n, attu_error* err) {
  if (n > 0x7fffffff) return attu_error_set(err, "54000", 0, "GPU backend: iota of %zu rows", n);
  return guarded(err, [&] {
    int64_t* p = I64(dst);
    transform([=] __device__(int i) { p[i] = start + i; }, (int)n, CTX(be));
  });
}

// ---- data movement ----------------------------------------------------------

// Each thread gathers kGatherVT rows, strided by the block: all index
// loads first, then all source loads, then the stores, so that several
// independent loads are in flight per thread (one row per thread kept one
// dependent pair of loads in flight and ran at ~8% of the copy bandwidth).
constexpr int kGatherVT = 4;
constexpr int kGatherThreads = 256;

template <typename W>
__global__ void __launch_bounds__(kGatherThreads) gather_kernel(W* __restrict__ dst, uint8_t* __restrict__ dv,
                                                                const W* __restrict__ src,
                                                                const uint8_t* __restrict__ sv,
                                                                const int64_t* __restrict__ idx, long long n) {
  long long base = (long long)blockIdx.x * kGatherThreads * kGatherVT + threadIdx.x;
  int64_t j[kGatherVT];
  W v[kGatherVT];
  bool ok[kGatherVT];
#pragma unroll
  for (int k = 0; k < kGatherVT; ++k) {
    long long i = base + (long long)k * kGatherThreads;
    j[k] = i < n ? idx[i] : -1;
  }
#pragma unroll
  for (int k = 0; k < kGatherVT; ++k) {
    ok[k] = j[k] >= 0;
    v[k] = ok[k] ? src[j[k]] : W{};
    if (dv && ok[k] && sv) ok[k] = sv[j[k]] != 0;
  }
#pragma unroll
  for (int k = 0; k < kGatherVT; ++k) {
    long long i = base + (long long)k * kGatherThreads;
    if (i < n) {
      dst[i] = v[k];
      if (dv) dv[i] = ok[k];
    }
  }
}

template <typename W>
void gather_width(context_t& ctx, void* dst, uint8_t* dst_valid, const void* src,
                  const uint8_t* src_valid, const int64_t* idx, int n) {
  if (n <= 0) return;
  long long per_block = (long long)kGatherThreads * kGatherVT;
  gather_kernel<W><<<(unsigned)((n + per_block - 1) / per_block), kGatherThreads, 0, ctx.stream()>>>(
      static_cast<W*>(dst), dst_valid, static_cast<const W*>(src), src_valid, idx, (long long)n);
  ATTU_CUDA_CHECK_LAUNCH();
}

int gpu_gather(attu_backend* be, attu_buf* dst, attu_buf* dst_valid, const attu_buf* src,
               const attu_buf* src_valid, size_t width, const attu_buf* idx, size_t n,
               attu_error* err) {
  if (n > 0x7fffffff) return attu_error_set(err, "54000", 0, "GPU backend: gather of %zu rows", n);
  if (width != 1 && width != 2 && width != 4 && width != 8 && width != 16)
    return attu_error_set(err, "XX000", 0, "GPU backend: gather width %zu", width);
  return guarded(err, [&] {
    uint8_t* dv = dst_valid ? static_cast<uint8_t*>(dst_valid->ptr) : nullptr;
    const uint8_t* sv = src_valid ? static_cast<const uint8_t*>(src_valid->ptr) : nullptr;
    const void* s = src ? src->ptr : nullptr;
    context_t& ctx = CTX(be);
    switch (width) {
      case 1: gather_width<uint8_t>(ctx, dst->ptr, dv, s, sv, I64(idx), (int)n); break;
      case 2: gather_width<uint16_t>(ctx, dst->ptr, dv, s, sv, I64(idx), (int)n); break;
      case 4: gather_width<uint32_t>(ctx, dst->ptr, dv, s, sv, I64(idx), (int)n); break;
      case 8: gather_width<uint64_t>(ctx, dst->ptr, dv, s, sv, I64(idx), (int)n); break;
      default: gather_width<uint4>(ctx, dst->ptr, dv, s, sv, I64(idx), (int)n); break;
    }
  });
}

// gather_cols: the rows' indices are loaded once (kGatherVT a thread, as
// gather_kernel) and serve every column in turn; per column, all source
// loads are issued before the stores. A join's output of five columns
// thus reads its index array once instead of five times.
constexpr int kGatherMaxCols = 8;
struct gcol_t {
  void* dst;
  uint8_t* dv;
  const void* src;
  const uint8_t* sv;
  int width;
};
struct gcols_t {
  gcol_t c[kGatherMaxCols];
  int n;
};

template <typename W>
__device__ inline void gather_rows(const gcol_t& c, const int64_t (&j)[kGatherVT], long long base, long long n) {
  const W* __restrict__ src = static_cast<const W*>(c.src);
  W* __restrict__ dst = static_cast<W*>(c.dst);
  W v[kGatherVT];
  bool ok[kGatherVT];
#pragma unroll
  for (int k = 0; k < kGatherVT; ++k) {
    ok[k] = j[k] >= 0;
    v[k] = ok[k] ? src[j[k]] : W{};
    if (c.dv && ok[k] && c.sv) ok[k] = c.sv[j[k]] != 0;
  }
#pragma unroll
  for (int k = 0; k < kGatherVT; ++k) {
    long long i = base + (long long)k * kGatherThreads;
    if (i < n) {
      dst[i] = v[k];
      if (c.dv) c.dv[i] = ok[k];
    }
  }
}

__global__ void __launch_bounds__(kGatherThreads) gather_cols_kernel(gcols_t cols, const int64_t* __restrict__ idx,
                                                                     long long n) {
  long long base = (long long)blockIdx.x * kGatherThreads * kGatherVT + threadIdx.x;
  int64_t j[kGatherVT];
#pragma unroll
  for (int k = 0; k < kGatherVT; ++k) {
    long long i = base + (long long)k * kGatherThreads;
    j[k] = i < n ? idx[i] : -1;
  }
  for (int c = 0; c < cols.n; ++c) {
    switch (cols.c[c].width) {
      case 1: gather_rows<uint8_t>(cols.c[c], j, base, n); break;
      case 2: gather_rows<uint16_t>(cols.c[c], j, base, n); break;
      case 4: gather_rows<uint32_t>(cols.c[c], j, base, n); break;
      case 8: gather_rows<uint64_t>(cols.c[c], j, base, n); break;
      default: gather_rows<uint4>(cols.c[c], j, base, n); break;
    }
  }
}

int gpu_gather_cols(attu_backend* be, const attu_gather_col* cols, int ncols, const attu_buf* idx, size_t n,
                    attu_error* err) {
  if (n > 0x7fffffff) return attu_error_set(err, "54000", 0, "GPU backend: gather of %zu rows", n);
  for (int c = 0; c < ncols; c += kGatherMaxCols) {
    gcols_t g{};
    g.n = std::min(kGatherMaxCols, ncols - c);
    for (int k = 0; k < g.n; ++k) {
      const attu_gather_col& a = cols[c + k];
      if (a.width != 1 && a.width != 2 && a.width != 4 && a.width != 8 && a.width != 16)
        return attu_error_set(err, "XX000", 0, "GPU backend: gather width %zu", a.width);
      g.c[k] = gcol_t{a.dst->ptr, a.dst_valid ? static_cast<uint8_t*>(a.dst_valid->ptr) : nullptr,
                      a.src ? a.src->ptr : nullptr,
                      a.src_valid ? static_cast<const uint8_t*>(a.src_valid->ptr) : nullptr, (int)a.width};
    }
    if (n == 0) continue;
    int rc = guarded(err, [&] {
      long long per_block = (long long)kGatherThreads * kGatherVT;
      gather_cols_kernel<<<(unsigned)(((long long)n + per_block - 1) / per_block), kGatherThreads, 0,
                           CTX(be).stream()>>>(g, I64(idx), (long long)n);
      ATTU_CUDA_CHECK_LAUNCH();
    });
    if (rc) return rc;
  }
  return 0;
}

template <typename W>
void scatter_width(context_t& ctx, void* dst, const void* src, const int64_t* idx, int n) {
  transform([=] __device__(int i) {
    static_cast<W*>(dst)[idx[i]] = static_cast<const W*>(src)[i];
  }, n, ctx);
}

int gpu_scatter(attu_backend* be, attu_buf* dst, const attu_buf* src, size_t width,
                const attu_buf* idx, size_t n, attu_error* err) {
  if (n > 0x7fffffff) return attu_error_set(err, "54000", 0, "GPU backend: scatter of %zu rows", n);
  if (width != 1 && width != 2 && width != 4 && width != 8 && width != 16)
    return attu_error_set(err, "XX000", 0, "GPU backend: scatter width %zu", width);
  return guarded(err, [&] {
    context_t& ctx = CTX(be);
    switch (width) {
      case 1: scatter_width<uint8_t>(ctx, dst->ptr, src->ptr, I64(idx), (int)n); break;
      case 2: scatter_width<uint16_t>(ctx, dst->ptr, src->ptr, I64(idx), (int)n); break;
      case 4: scatter_width<uint32_t>(ctx, dst->ptr, src->ptr, I64(idx), (int)n); break;
      case 8: scatter_width<uint64_t>(ctx, dst->ptr, src->ptr, I64(idx), (int)n); break;
      default: scatter_width<uint4>(ctx, dst->ptr, src->ptr, I64(idx), (int)n); break;
    }
  });
}

// ---- compute ----------------------------------------------------------------


int gpu_compact(attu_backend* be, const attu_vec* mask, size_t n, attu_buf** idx_out,
                size_t* count_out, attu_error* err) {
  if (n > 0x7fffffff) return attu_error_set(err, "54000", 0, "GPU backend: compact of %zu rows", n);
  attu_buf* out = nullptr;
  int rc = guarded(err, [&] {
    const uint8_t* m = static_cast<const uint8_t*>(mask->data->ptr);
    const uint8_t* v = mask->valid ? static_cast<const uint8_t*>(mask->valid->ptr) : nullptr;
    auto compact = transform_compact((int)n, CTX(be));
    int kept = compact.upsweep_mask(m, v);
    out = gpu_alloc(be, (size_t)kept * sizeof(int64_t), err);
    if (!out) throw already_set_t();
    compact.downsweep(store_index_t(), I64(out));
    *count_out = (size_t)kept;
  });
  if (rc) {
    gpu_free(be, out);
    return -1;
  }
  *idx_out = out;
  return 0;
}

// The probe's upsweep tests a presence bitmap (bit j: key kmin + j has a
// row): 1/64 of the index's bytes, so a small one stays in shared memory
// or L1 and one of up to 16 MB in L2, where the index's 8 bytes a key
// would come from L1's next level or from DRAM (100M needles against 25M
// keys: 6.8 ms probing the index itself on an H100).
// At most 2^27 keys (a bitmap of 16 MB); ATTU_GPU_PROBE_BITMAP_MAX_KEYS
// overrides (the tests take the index path on small ranges with it).
int64_t presence_max_keys() {
  const char* e = getenv("ATTU_GPU_PROBE_BITMAP_MAX_KEYS");
  return e && *e ? (int64_t)strtoll(e, nullptr, 10) : (int64_t)1 << 27;
}

// dense_index: the table filled with -1, then one thread per row claims its
// key's slot with a compare-and-swap; a slot already claimed means a
// repeated key (the flag the host reads back). Asked for the identity, and
// with as many rows as keys, it first checks that row i holds key
// kmin + i; then no table is needed (nor written).
int gpu_dense_index(attu_backend* be, const attu_buf* keys, const attu_buf* mask, size_t n, int64_t kmin,
                    int64_t kmax, attu_buf* table, bool* unique_out, bool* identity_out, attu_error* err) {
  if (n > 0x7fffffff) return attu_error_set(err, "54000", 0, "GPU backend: dense_index of %zu rows", n);
  int64_t nkeys = kmax - kmin + 1;
  if (nkeys <= 0 || nkeys > 0x7fffffff)
    return attu_error_set(err, "XX000", 0, "GPU backend: dense_index over %lld keys", (long long)nkeys);
  return guarded(err, [&] {
    context_t& ctx = CTX(be);
    const int64_t* k = I64(keys);
    const uint8_t* m = mask ? static_cast<const uint8_t*>(mask->ptr) : nullptr;
    unsigned long long* t = reinterpret_cast<unsigned long long*>(table->ptr);
    if (identity_out && unique_out && (int64_t)n == nkeys) {
      // keys in row order make the index the identity, unique by
      // construction: one read of the keys instead of writing the table
      mem_t<int> off(1, ctx);
      off.memset(0);
      int* o = off.data();
      transform([=] __device__(int i) {
        if ((m && !m[i]) || k[i] - kmin != i) *o = 1;
      }, (int)n, ctx);
      int h = 0;
      dtoh(&h, o, 1, ctx);
      if (!h) {
        *unique_out = *identity_out = true;  // the table is not written
        return;
      }
    }
    if (identity_out) *identity_out = false;
    transform([=] __device__(int j) { t[j] = ~0ull; }, (int)nkeys, ctx);
    if (!unique_out) {
      // keys known unique: plain stores, no flag, no read-back
      if (n)
        transform([=] __device__(int i) {
          int64_t x = k[i];
          if ((m && !m[i]) || x < kmin || x > kmax) return;
          t[x - kmin] = (unsigned long long)i;
        }, (int)n, ctx);
      return;
    }
    mem_t<int> dup(1, ctx);
    dup.memset(0);
    int* d = dup.data();
    if (n)
      transform([=] __device__(int i) {
        int64_t x = k[i];
        if ((m && !m[i]) || x < kmin || x > kmax) return;
        if (atomicCAS(t + (x - kmin), ~0ull, (unsigned long long)i) != ~0ull) *d = 1;
      }, (int)n, ctx);
    int h = 0;
    dtoh(&h, d, 1, ctx);
    *unique_out = h == 0;
  });
}

// dense_probe: one compaction over the probing rows, kept when their key
// has a row in every index (a star join tests all its dimensions in one
// compaction of the fact rows). The upsweep is one pass per index over
// the compaction's bit words: the first sets a row's bit when its key has
// a row in the first index, each later one clears the bits of rows whose
// key has none in its index, loading keys only for rows still set (a word
// with no bit left loads nothing), and the last counts each tile. Within
// a pass every load is independent of the others, so it runs at memory
// speed: one pass testing every index in turn per row waited out a load
// latency per index (1.1 ms for SSB q4.2's four dimensions over 120M rows
// on an H100). Each test reads the index's presence bitmap (bit j: key
// kmin + j has a row), or the index itself when its range is too wide for
// a bitmap. The downsweep reads, for the kept rows only, each key again
// and its slot.
struct probe_dim_t {
  const void* keys;      // int32 (wide == 0) or int64 values
  const uint8_t* mask;   // or nullptr
  const uint8_t* mask_valid;  // the mask's validity, or nullptr
  const unsigned* bits;  // the presence bitmap, or nullptr (test the table)
  const int64_t* table;  // nullptr with identity
  int64_t kmin, kmax;
  int64_t* hits;         // the downsweep's output
  int wide;
  int identity;          // key k's row is k - kmin, every key of the range has one
};
struct probe_args_t {
  probe_dim_t d[ATTU_DENSE_PROBE_MAX_DIMS];
  int nd;
};

__device__ __forceinline__ int64_t probe_key(const probe_dim_t& d, int i) {
  return d.wide ? static_cast<const int64_t*>(d.keys)[i] : (int64_t) static_cast<const int32_t*>(d.keys)[i];
}

// One warp per tile of tile_words words at a time (a persistent grid);
// lane l owns row 32 w + l of each word w, a chunk of kProbeChunk words
// in flight, and the next chunk's bit words are loaded before this one's
// keys, so a chunk waits out one load latency (a chunk whose rows are all
// gone already waits out none and stores nothing). With smem, each block
// first copies the bitmap into shared memory: a warp's 32 lookups of
// random words then cost a few bank conflicts, where through L1 they cost
// a cache line each.
//
// The pass is a stream over the keys, so its instructions count: Nsight
// Compute showed the first pass over SSB's 120M keys issue-bound (0.45 ms,
// 1.1 TB/s, 46 warp instructions a word) when keys compared as 64-bit
// values and lane 0 stored each word alone. Keys now test in their own
// width, one unsigned compare: (unsigned)(x - kmin) <= kmax - kmin holds
// exactly when kmin <= x <= kmax, for two's complement x and kmin of the
// key's width (a key below kmin wraps to at least 2^(bits-1) - kmin, which
// is more than the span because kmax is below 2^(bits-1)). Then (run 3 of
// session 7) the pass was bound by the integer pipe (90%, 29 instructions
// a word): the flags of live rows are recomputed by shuffles instead of
// being packed and unpacked, the lookup is a predicated load, and lane 0
// stores the chunk's sixteen words (the same in every lane) in four
// 16-byte stores.
constexpr int kProbePassThreads = 1024;
constexpr int kProbeChunk = 16;
constexpr int kProbeSmemMaxWords = 200 * 1024 / 4;  // bitmaps of at most 200 KB go to shared memory

template <bool first, bool last, bool smem, typename key_t>
__global__ void __launch_bounds__(kProbePassThreads) probe_pass_kernel(const probe_dim_t a, int count, int tile_words,
                                                                       int num_tiles, unsigned* __restrict__ bits,
                                                                       int* __restrict__ counts) {
  using ukey_t = typename std::conditional<sizeof(key_t) == 4, unsigned, unsigned long long>::type;
  extern __shared__ unsigned s_present[];
  if (smem) {
    // 16-byte copies, four in flight a thread: a 128 KB bitmap is 8
    // rounds of 1,024 threads, not 32 dependent ones
    int nw = (int)((a.kmax - a.kmin) / 32 + 1), nv = nw / 4;
    const uint4* src = reinterpret_cast<const uint4*>(a.bits);
    uint4* dst = reinterpret_cast<uint4*>(s_present);
#pragma unroll 4
    for (int v = threadIdx.x; v < nv; v += kProbePassThreads) dst[v] = __ldg(src + v);
    for (int w = nv * 4 + threadIdx.x; w < nw; w += kProbePassThreads) s_present[w] = __ldg(a.bits + w);
    __syncthreads();
  }
  const unsigned full = 0xffffffffu;
  int lane = threadIdx.x & 31;
  int warp = (blockIdx.x * kProbePassThreads + threadIdx.x) >> 5, nwarps = gridDim.x * (kProbePassThreads / 32);
  int num_words = (count + 31) / 32;
  const ukey_t kmin = (ukey_t)a.kmin, span = (ukey_t)(a.kmax - a.kmin);
  const key_t* kp = static_cast<const key_t*>(a.keys);
  const uint8_t* mp = a.mask;
  const uint8_t* mvp = a.mask_valid;
  // masks read 16 bytes a lane when both lie on 16-byte boundaries
  const bool mvec = !(reinterpret_cast<uintptr_t>(mp) & 15) && !(reinterpret_cast<uintptr_t>(mvp) & 15);
  const unsigned* gbits = a.bits;
  const int64_t* table = a.table;
  const unsigned lanebit = 1u << lane;
  int chunks = tile_words / kProbeChunk;
  for (int tile = warp; tile < num_tiles; tile += nwarps) {
    int kept = 0;
    int w_first = tile * tile_words;
    unsigned next = 0;
    if (!first && lane < kProbeChunk && w_first + lane < num_words) next = bits[w_first + lane];
    for (int c = 0; c < chunks; ++c) {
      int w0 = w_first + c * kProbeChunk;
      unsigned mine = next;  // lane i < kProbeChunk: word w0 + i as it stands
      next = 0;
      if (!first && c + 1 < chunks && lane < kProbeChunk && w0 + kProbeChunk + lane < num_words)
        next = bits[w0 + kProbeChunk + lane];
      if (!first && !__any_sync(full, mine != 0)) continue;  // every row already gone
      if (first && w0 * 32 >= count) break;                  // past the last row
      const int base = w0 * 32 + lane;
      unsigned words[kProbeChunk];  // the chunk's new words, the same in every lane
      // The chunk's work, compiled apart for the common case (every row
      // of the chunk exists, no mask): there each row costs its load, a
      // subtraction, one compare, the lookup and its bit test. tail:
      // rows may lie past count (the first pass's last chunk); masked:
      // the needles have a mask. Whether a row is still in is recomputed
      // where it is needed (a shuffle runs beside the integer pipe, which
      // the pass keeps busy; carrying sixteen flags costs more).
      auto chunk = [&](auto tail_c, auto masked_c) {
        constexpr bool tail = decltype(tail_c)::value, with_mask = decltype(masked_c)::value;
        auto in = [&](int i) -> bool {
          if (first) return !tail || base + i * 32 < count;
          return (__shfl_sync(full, mine, i) & lanebit) != 0;
        };
        key_t x[kProbeChunk];
#pragma unroll
        for (int i = 0; i < kProbeChunk; ++i) x[i] = in(i) ? __ldg(kp + base + i * 32) : key_t(0);
        unsigned masked = 0;  // bit i: the mask rules row i out
        if (with_mask && mvec && (w0 + kProbeChunk) * 32 <= count) {
          // The chunk's 512 mask bytes (and validity bytes) in one 16-byte
          // load a lane: lane l holds rows 16 l .. 16 l + 15 of the chunk,
          // as 16 bits; row 32 i + l of word i is then bit l & 15 of lane
          // 2 i + l / 16. Byte loads, one a row, made this pass three
          // times as slow as without a mask (SSB flight 1, 0.6 ms).
          const uint4 mv = __ldg(reinterpret_cast<const uint4*>(mp + w0 * 32) + lane);
          const uint4 vv = mvp ? __ldg(reinterpret_cast<const uint4*>(mvp + w0 * 32) + lane)
                               : make_uint4(~0u, ~0u, ~0u, ~0u);
          // bit k of a word's 4 bytes: byte k nonzero in both
          auto nib = [](unsigned m, unsigned v) -> unsigned {
            unsigned t = __vcmpne4(m, 0u) & __vcmpne4(v, 0u) & 0x01010101u;
            return t * 0x01020408u >> 24;
          };
          unsigned m16 = nib(mv.x, vv.x) | nib(mv.y, vv.y) << 4 | nib(mv.z, vv.z) << 8 | nib(mv.w, vv.w) << 12;
#pragma unroll
          for (int i = 0; i < kProbeChunk; ++i) {
            unsigned wm = __shfl_sync(full, m16, 2 * i) | __shfl_sync(full, m16, 2 * i + 1) << 16;
            if (!(wm & lanebit)) masked |= 1u << i;
          }
        } else if (with_mask) {
          uint8_t mb[kProbeChunk];
#pragma unroll
          for (int i = 0; i < kProbeChunk; ++i) {
            bool li = in(i);
            mb[i] = li ? __ldg(mp + base + i * 32) : 0;
            if (mvp && li && !__ldg(mvp + base + i * 32)) mb[i] = 0;
          }
#pragma unroll
          for (int i = 0; i < kProbeChunk; ++i)
            if (!mb[i]) masked |= 1u << i;
        }
#pragma unroll
        for (int i = 0; i < kProbeChunk; ++i) {
          ukey_t j = (ukey_t)x[i] - kmin;
          bool k = j <= span;
          // in(i) shuffles: every lane must reach it (no short circuit)
          if (tail || !first) k = in(i) && k;
          if (with_mask) k = k && !(masked >> i & 1u);
          if (smem || gbits) {
            unsigned w = 0;
            if (k) w = smem ? s_present[(unsigned)(j >> 5)] : __ldg(gbits + (unsigned)(j >> 5));
            // bit j & 31 to the sign: a funnel shift wraps its count
            k = (int)__funnelshift_l(w, w, 31u - (unsigned)j) < 0;
          } else if (table) {
            k = k && __ldg(table + j) >= 0;
          }  // else the identity: every key of the range has its row
          words[i] = __ballot_sync(full, k);
        }
      };
      const bool tail = first && (w0 + kProbeChunk) * 32 > count;
      if (mp) chunk(std::true_type(), std::true_type());
      else if (tail) chunk(std::true_type(), std::false_type());
      else chunk(std::false_type(), std::false_type());
      if (!lane) {
        if (w0 + kProbeChunk <= num_words) {
          uint4* dst = reinterpret_cast<uint4*>(bits + w0);
#pragma unroll
          for (int v = 0; v < kProbeChunk / 4; ++v)
            dst[v] = make_uint4(words[4 * v], words[4 * v + 1], words[4 * v + 2], words[4 * v + 3]);
        } else {
#pragma unroll
          for (int i = 0; i < kProbeChunk; ++i)
            if (w0 + i < num_words) bits[w0 + i] = words[i];
        }
      }
      if (last) {
#pragma unroll
        for (int i = 0; i < kProbeChunk; ++i) kept += __popc(words[i]);
      }
    }
    if (last && !lane) counts[tile] = kept;
  }
}

template <bool first, bool last, bool smem>
auto probe_pass_for(bool wide) {
  return wide ? probe_pass_kernel<first, last, smem, int64_t> : probe_pass_kernel<first, last, smem, int32_t>;
}

// The hits of the kept rows, after the downsweep wrote the rows: one
// thread a kept row, every index's slot looked up at once (independent
// loads). Writing them inside the downsweep, each lane walking its kept
// rows one at a time with a key load and a slot load per row and index,
// waited out two latencies a row: 0.45 ms for SSB q4.1's 1.9M rows of
// four dimensions (Nsight Compute: 134 cycles a warp between issues).
// hits[i] of every index that has them: kept row r's slot in it.
__device__ __forceinline__ void store_hits(const probe_args_t& a, int i, int r) {
#pragma unroll
  for (int d = 0; d < ATTU_DENSE_PROBE_MAX_DIMS; ++d) {
    if (d >= a.nd) break;
    const probe_dim_t& dm = a.d[d];
    if (!dm.hits) continue;
    int64_t j = probe_key(dm, r) - dm.kmin;
    dm.hits[i] = dm.identity ? j : dm.table[j];
  }
}

struct gather_hits_t {
  probe_args_t a;
  const int64_t* rows;
  __device__ void operator()(int i) const { store_hits(a, i, (int)rows[i]); }
};

// The sparse tail's test of kept row i (rows[i]) against the indexes
// from `from` on: flags[i], and, when it passes, every index's slot into
// the hits of the indexes that have them (the earlier ones' too).
struct sparse_test_t {
  probe_args_t a;
  int from;
  const int64_t* rows;
  uint8_t* flags;
  __device__ void operator()(int i) const {
    int r = (int)rows[i];
    bool ok = true;
#pragma unroll
    for (int d = 0; d < ATTU_DENSE_PROBE_MAX_DIMS; ++d) {
      if (d >= a.nd) break;
      if (d < from) continue;
      const probe_dim_t& dm = a.d[d];
      int64_t x = probe_key(dm, r);
      bool in = x >= dm.kmin && x <= dm.kmax;
      if (dm.mask) in = in && dm.mask[r] && (!dm.mask_valid || dm.mask_valid[r]);
      if (in) {
        int64_t j = x - dm.kmin;
        in = dm.identity || (dm.bits ? (dm.bits[j >> 5] >> (j & 31) & 1u) != 0 : dm.table[j] >= 0);
      }
      ok = ok && in;
    }
    flags[i] = ok;
    if (ok) store_hits(a, i, r);
  }
};

// dst[k][i] = src[k][idx[i]] for the rows and each index's hits.
struct gather_kept_t {
  const int64_t* src[ATTU_DENSE_PROBE_MAX_DIMS + 1];
  int64_t* dst[ATTU_DENSE_PROBE_MAX_DIMS + 1];
  int n;
  const int64_t* idx;
  __device__ void operator()(int i) const {
    int64_t j = idx[i];
#pragma unroll
    for (int k = 0; k < ATTU_DENSE_PROBE_MAX_DIMS + 1; ++k) {
      if (k >= n) break;
      dst[k][i] = src[k][j];
    }
  }
};

// The sparse tail starts when the passes so far are expected to leave
// fewer than this share of the needles (ATTU_GPU_PROBE_SPARSE_DENSITY;
// 0 turns the tail off). Its random reads cost 50-70 ns a kept row on an
// H100 (SSB SF20: 0.26 ms for 4.8M rows and two indexes, where their two
// passes took 0.3 ms), so it pays only below about one row in 64: SSB
// q2.3's 120K rows left after its first pass take 0.015 ms.
double probe_sparse_density() {
  const char* e = getenv("ATTU_GPU_PROBE_SPARSE_DENSITY");
  return e && *e ? atof(e) : 1.0 / 64;
}

// The downsweep of a sparse probe (a star join keeps about one fact row
// in a hundred): one warp per tile of 64 bit words, each lane writing the
// kept rows of two words, where compact's downsweep runs one block per
// tile (58K blocks, each scanning 2,048 bits for a handful of rows, for
// SSB's 120M fact rows: most of the probe's time).
constexpr int kProbeStoreThreads = 256;
// The sparse downsweep runs when fewer than one row in 2^shift is kept:
// ATTU_GPU_PROBE_SPARSE_SHIFT overrides the default (measured on SSB SF20).
int probe_sparse_shift() {
  const char* e = getenv("ATTU_GPU_PROBE_SPARSE_SHIFT");
  return e && *e ? atoi(e) : 4;
}
__global__ void __launch_bounds__(kProbeStoreThreads) probe_store_sparse_kernel(
    const unsigned* __restrict__ bits, const int* __restrict__ offsets, int num_words, int num_tiles,
    int64_t* __restrict__ rows) {
  int lane = threadIdx.x & 31;
  int warp = (blockIdx.x * kProbeStoreThreads + threadIdx.x) >> 5, nwarps = gridDim.x * (kProbeStoreThreads / 32);
  for (int tile = warp; tile < num_tiles; tile += nwarps) {
    int w0 = tile * 64;
    unsigned wa = w0 + lane < num_words ? bits[w0 + lane] : 0u;
    unsigned wb = w0 + 32 + lane < num_words ? bits[w0 + 32 + lane] : 0u;
    int base = offsets[tile];
    int ca = __popc(wa), cb = __popc(wb), sa = ca, sb = cb;
#pragma unroll
    for (int off = 1; off < 32; off <<= 1) {
      int ta = __shfl_up_sync(0xffffffffu, sa, off), tb = __shfl_up_sync(0xffffffffu, sb, off);
      if (lane >= off) { sa += ta; sb += tb; }
    }
    int total_a = __shfl_sync(0xffffffffu, sa, 31);
    int da = base + sa - ca, db = base + total_a + sb - cb;
    while (wa) {
      int b = __ffs(wa) - 1;
      wa &= wa - 1;
      rows[da++] = (w0 + lane) * 32 + b;
    }
    while (wb) {
      int b = __ffs(wb) - 1;
      wb &= wb - 1;
      rows[db++] = (w0 + 32 + lane) * 32 + b;
    }
  }
}

// ATTU_GPU_PROBE_PROFILE=1: dense_probe prints the time of each of its
// phases (events on the stream; a diagnostic, off by default).
struct probe_profile_t {
  bool on = false;
  cudaStream_t stream = 0;
  std::vector<std::pair<const char*, cudaEvent_t>> marks;
  explicit probe_profile_t(cudaStream_t s) : stream(s) {
    const char* e = getenv("ATTU_GPU_PROBE_PROFILE");
    on = e && *e == '1';
  }
  void mark(const char* what) {
    if (!on) return;
    cudaEvent_t ev;
    if (cudaEventCreate(&ev) != cudaSuccess) return;
    cudaEventRecord(ev, stream);
    marks.push_back({what, ev});
  }
  ~probe_profile_t() {
    if (!on || marks.empty()) return;
    cudaEventSynchronize(marks.back().second);
    std::fprintf(stderr, "[probe]");
    for (size_t i = 1; i < marks.size(); ++i) {
      float ms = 0;
      cudaEventElapsedTime(&ms, marks[i - 1].second, marks[i].second);
      std::fprintf(stderr, " %s %.3f", marks[i].first, ms);
    }
    std::fprintf(stderr, "\n");
    for (auto& m : marks) cudaEventDestroy(m.second);
  }
};

int gpu_dense_probe(attu_backend* be, int nd, attu_dense_dim* dims, size_t nn, attu_buf** rows_out,
                    size_t* count_out, attu_error* err) {
  if (nn > 0x7fffffff) return attu_error_set(err, "54000", 0, "GPU backend: dense_probe of %zu needles", nn);
  if (nd < 1 || nd > ATTU_DENSE_PROBE_MAX_DIMS)
    return attu_error_set(err, "XX000", 0, "GPU backend: dense_probe of %d indexes", nd);
  attu_buf* rows = nullptr;
  attu_buf* hits[ATTU_DENSE_PROBE_MAX_DIMS] = {};
  int rc = guarded(err, [&] {
    context_t& ctx = CTX(be);
    probe_args_t a;
    memset(&a, 0, sizeof a);
    a.nd = nd;
    // the bitmaps (kept alive until the upsweep has run)
    std::vector<mem_t<unsigned>> present;
    probe_profile_t prof(ctx.stream());
    prof.mark("start");
    for (int d = 0; d < nd; ++d) {
      const attu_dense_dim& dm = dims[d];
      probe_dim_t& pd = a.d[d];
      pd.keys = dm.needles.data->ptr;
      pd.wide = attu_type_width(dm.needles.type.id) != 4;
      pd.mask = dm.mask ? static_cast<const uint8_t*>(dm.mask->ptr) : nullptr;
      pd.mask_valid = dm.mask && dm.mask_valid ? static_cast<const uint8_t*>(dm.mask_valid->ptr) : nullptr;
      pd.identity = dm.identity;
      pd.table = dm.identity ? nullptr : I64(dm.table);
      pd.kmin = dm.kmin;
      pd.kmax = dm.kmax;
      int64_t nkeys = dm.kmax - dm.kmin + 1;
      if (dm.identity || nkeys > presence_max_keys()) continue;  // the identity: the range test suffices
      int nwords = (int)((nkeys + 31) / 32);
      present.emplace_back((size_t)nwords, ctx);
      unsigned* pw = present.back().data();
      const int64_t* t = pd.table;
      // lane b of a warp tests slot 32 w + b: the table is read coalesced
      // (a capturing behaviour runs one index a thread, and the count is
      // whole warps, so every lane reaches the ballot)
      transform([=] __device__(int i) {
        int64_t j = i;
        unsigned word = __ballot_sync(0xffffffffu, j < nkeys && t[j] >= 0);
        if ((i & 31) == 0) pw[i >> 5] = word;
      }, nwords * 32, ctx);
      pd.bits = pw;
    }
    prof.mark("bitmaps");
    // The indexes tested in passes over every needle: while the rows the
    // passes before leave are many (one in 1 / probe_sparse_density() or
    // more, by the indexes' shares), a pass costs less than testing the
    // rows one at a time. Below that, the rows left are compacted and the
    // other indexes tested on them alone (the sparse tail): a pass would
    // still cost its instructions for every needle.
    int passes = 1;
    {
      double density = 1;
      for (int d = 0; d + 1 < nd; ++d) {
        if (dims[d].share > 0 && dims[d].share < 1) density *= dims[d].share;
        if (density < probe_sparse_density()) break;
        passes = d + 2;
      }
    }
    auto compact = transform_compact((int)nn, ctx);
    using compact_t = decltype(compact);
    int kept = 0;
    if (compact.num_tiles() > 0) {
      enum { tile_words = compact_t::nt * compact_t::vt / 32 };
      static_assert(tile_words % kProbeChunk == 0, "a tile is whole chunks of words");
      int warps_per_block = kProbePassThreads / 32;
      for (int d = 0; d < passes; ++d) {
        const probe_dim_t& pd = a.d[d];
        int nwords = pd.bits ? (int)((pd.kmax - pd.kmin) / 32 + 1) : 0;
        bool in_smem = pd.bits && nwords <= kProbeSmemMaxWords;
        size_t smem = in_smem ? (size_t)nwords * sizeof(unsigned) : 0;
        bool first = d == 0, last = d == passes - 1;
        bool w = pd.wide;
        auto kernel = in_smem ? (first ? (last ? probe_pass_for<true, true, true>(w) : probe_pass_for<true, false, true>(w))
                                       : (last ? probe_pass_for<false, true, true>(w) : probe_pass_for<false, false, true>(w)))
                              : (first ? (last ? probe_pass_for<true, true, false>(w) : probe_pass_for<true, false, false>(w))
                                       : (last ? probe_pass_for<false, true, false>(w) : probe_pass_for<false, false, false>(w)));
        if (smem > 48 * 1024)
          ATTU_CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem));
        int per_sm = 0;
        ATTU_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, kProbePassThreads, smem));
        int blocks = std::min(ctx.sm_count() * std::max(per_sm, 1),
                              (compact.num_tiles() + warps_per_block - 1) / warps_per_block);
        kernel<<<blocks, kProbePassThreads, smem, ctx.stream()>>>(pd, (int)nn, (int)tile_words, compact.num_tiles(),
                                                                  compact.bit_words(), compact.tile_counts());
        ATTU_CUDA_CHECK_LAUNCH();
        prof.mark("pass");
      }
      kept = compact.finish_upsweep();
      prof.mark("count");
    }
    static_assert(compact_t::nt * compact_t::vt == 64 * 32, "the sparse downsweep takes tiles of 64 words");
    // Every needle kept (a foreign key's join: each row finds its partner)
    // and no sparse tail: the rows are 0..nn-1, which the caller knows
    // (rows_out NULL, backend.h), and the hits are written in one pass over
    // the keys instead of a downsweep over the bit words and a second pass
    // reading the rows back (100M needles: 1.2 -> 0.8 -> 0.55 ms).
    const bool all_kept = kept > 0 && (size_t)kept == nn && passes == nd;
    if (!all_kept) {
      rows = gpu_alloc(be, (size_t)kept * sizeof(int64_t), err);
      if (!rows) throw already_set_t();
    }
    for (int d = 0; d < nd; ++d) {
      if (dims[d].no_hits) continue;
      if (!(hits[d] = gpu_alloc(be, (size_t)kept * sizeof(int64_t), err))) throw already_set_t();
      a.d[d].hits = I64(hits[d]);
    }
    bool any_hits = false;
    for (int d = 0; d < nd; ++d) any_hits |= !dims[d].no_hits;
    if (all_kept) {
      // nothing to store when no index gives its hits (a join that
      // partitions by the probing keys themselves: run_join's no_hits)
      const probe_args_t args = a;
      if (any_hits) transform([=] __device__(int i) { store_hits(args, i, i); }, kept, ctx);
    } else if (kept && ((size_t)kept << probe_sparse_shift()) < nn) {
      int per_sm = 0;
      ATTU_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, probe_store_sparse_kernel,
                                                                    kProbeStoreThreads, 0));
      int warps_per_block = kProbeStoreThreads / 32;
      int blocks = std::min(ctx.sm_count() * std::max(per_sm, 1),
                            (compact.num_tiles() + warps_per_block - 1) / warps_per_block);
      probe_store_sparse_kernel<<<blocks, kProbeStoreThreads, 0, ctx.stream()>>>(
          compact.bit_words(), compact.tile_counts(), (int)((nn + 31) / 32), compact.num_tiles(), I64(rows));
      ATTU_CUDA_CHECK_LAUNCH();
    } else if (kept) {
      compact.downsweep(store_index_t(), I64(rows));
    }
    prof.mark("store");
    if (passes < nd && kept) {
      // the sparse tail: each kept row tests the other indexes (one
      // thread a row, every load independent), writing its flag and the
      // hits it has; the flags are compacted, and the rows and hits the
      // compaction keeps gathered
      mem_t<uint8_t> flags((size_t)kept, ctx);
      sparse_test_t t{a, passes, I64(rows), flags.data()};
      transform([=] __device__(int i) { t(i); }, kept, ctx);
      prof.mark("tail");
      auto c2 = transform_compact(kept, ctx);
      int kept2 = c2.upsweep_mask(flags.data(), nullptr);
      mem_t<int64_t> idx((size_t)kept2, ctx);
      if (kept2) c2.downsweep(store_index_t(), idx.data());
      // the compacted rows and hits; freed here unless handed on
      struct outs_t {
        attu_backend* be;
        attu_buf* b[ATTU_DENSE_PROBE_MAX_DIMS + 1] = {};
        ~outs_t() {
          for (attu_buf* x : b) gpu_free(be, x);
        }
      } o2{be};
      gather_kept_t g{{}, {}, 0, idx.data()};
      for (int d = -1; d < nd; ++d) {
        if (d >= 0 && !hits[d]) continue;
        attu_buf*& nb = o2.b[d + 1];
        if (!(nb = gpu_alloc(be, (size_t)kept2 * sizeof(int64_t), err))) throw already_set_t();
        g.src[g.n] = I64(d < 0 ? rows : hits[d]);
        g.dst[g.n++] = I64(nb);
      }
      if (kept2) transform([=] __device__(int i) { g(i); }, kept2, ctx);
      gpu_free(be, rows);
      rows = o2.b[0];
      o2.b[0] = nullptr;
      for (int d = 0; d < nd; ++d) {
        gpu_free(be, hits[d]);
        hits[d] = o2.b[d + 1];
        o2.b[d + 1] = nullptr;
      }
      kept = kept2;
      prof.mark("compact");
    } else if (!all_kept) {
      bool any_hits = false;
      for (int d = 0; d < nd; ++d) any_hits |= a.d[d].hits != nullptr;
      if (kept && any_hits) {
        gather_hits_t g{a, I64(rows)};
        transform([=] __device__(int i) { g(i); }, kept, ctx);
      }
      prof.mark("hits");
    }
    *count_out = (size_t)kept;
  });
  if (rc) {
    gpu_free(be, rows);
    for (int d = 0; d < nd; ++d) gpu_free(be, hits[d]);
    return -1;
  }
  *rows_out = rows;
  for (int d = 0; d < nd; ++d) dims[d].hits = hits[d];
  return 0;
}

int gpu_scan(attu_backend* be, const attu_buf* in, attu_buf* out, size_t n, bool inclusive,
             int64_t* total, attu_error* err) {
  if (n > 0x7fffffff) return attu_error_set(err, "54000", 0, "GPU backend: scan of %zu rows", n);
  return guarded(err, [&] {
    context_t& ctx = CTX(be);
    mem_t<int64_t> red(1, ctx);
    if (inclusive)
      scan<scan_type_inc>(I64(in), (int)n, I64(out), plus_t<int64_t>(), red.data(), ctx);
    else
      scan<scan_type_exc>(I64(in), (int)n, I64(out), plus_t<int64_t>(), red.data(), ctx);
    int64_t t = 0;
    dtoh(&t, red.data(), 1, ctx);
    if (total) *total = t;
  });
}

int gpu_sorted_search(attu_backend* be, const attu_buf* needles, size_t nn,
                      const attu_buf* haystack, size_t nh, bool upper, attu_buf* out,
                      attu_error* err) {
  if (nn > 0x7fffffff || nh > 0x7fffffff)
    return attu_error_set(err, "54000", 0, "GPU backend: sorted_search of %zu into %zu", nn, nh);
  // Needles come in any order: one binary search each (the merge-based
  // sorted_search pattern needs sorted needles).
  return guarded(err, [&] {
    const int64_t* nd = I64(needles);
    const int64_t* hs = I64(haystack);
    int64_t* o = I64(out);
    int h = (int)nh;
    if (upper)
      transform([=] __device__(int i) {
        o[i] = binary_search<bounds_upper>(hs, h, nd[i], less_t<int64_t>());
      }, (int)nn, CTX(be));
    else
      transform([=] __device__(int i) {
        o[i] = binary_search<bounds_lower>(hs, h, nd[i], less_t<int64_t>());
      }, (int)nn, CTX(be));
  });
}

int gpu_inner_join(attu_backend* be, const attu_buf* a, size_t na, const attu_buf* b, size_t nb,
                   bool left, attu_buf** a_idx, attu_buf** b_idx, size_t* npairs,
                   attu_error* err) {
  if (na > 0x7fffffff || nb > 0x7fffffff)
    return attu_error_set(err, "54000", 0, "GPU backend: join of %zu x %zu rows", na, nb);
  attu_buf *ai = nullptr, *bi = nullptr;
  int rc = guarded(err, [&] {
    context_t& ctx = CTX(be);
    int n_a = (int)na, n_b = (int)nb;
    mem_t<int> lower(n_a, ctx), upper(n_a, ctx);
    const int64_t* A = I64(a);
    const int64_t* B = I64(b);
    if (n_a && n_b) {
      sorted_search<bounds_lower>(A, n_a, B, n_b, lower.data(), less_t<int64_t>(), ctx);
      sorted_search<bounds_upper>(A, n_a, B, n_b, upper.data(), less_t<int64_t>(), ctx);
    } else if (n_a) {
      lower.memset(0);
      upper.memset(0);
    }
    // Match counts (a LEFT join keeps one padded pair for a row with none),
    // scanned into the pairs' segments descriptor.
    int* lo = lower.data();
    int* up = upper.data();
    mem_t<long long> total(1, ctx);
    transform_scan<scan_type_exc>(
        [=] __device__(int i) {
          int c = up[i] - lo[i];
          return (long long)(c == 0 && left ? 1 : c);
        },
        n_a, up, plus_t<long long>(), total.data(), ctx);
    long long t = 0;
    if (n_a) dtoh(&t, total.data(), 1, ctx);
    if (t > 0x7fffffffLL) throw std::length_error("join result over 2^31-1 pairs");
    ai = gpu_alloc(be, (size_t)t * sizeof(int64_t), err);
    bi = ai ? gpu_alloc(be, (size_t)t * sizeof(int64_t), err) : nullptr;
    if (!ai || !bi) throw already_set_t();
    int64_t* oa = I64(ai);
    int64_t* ob = I64(bi);
    const int* segs = up;
    transform_lbs(
        [=] __device__(int index, int seg, int rank) {
          int l = lo[seg];
          // A padded LEFT row (no equal key in b) has the one pair (seg, -1).
          bool matched = l < n_b && B[l] == A[seg];
          oa[index] = seg;
          ob[index] = matched ? (int64_t)l + rank : -1;
        },
        (int)t, segs, n_a, ctx);
    *npairs = (size_t)t;
  });
  if (rc) {
    gpu_free(be, ai);
    gpu_free(be, bi);
    return -1;
  }
  *a_idx = ai;
  *b_idx = bi;
  return 0;
}

int gpu_lbs(attu_backend* be, const attu_buf* offsets, size_t nseg, size_t total,
            attu_buf* seg_out, attu_error* err) {
  if (total > 0x7fffffff || nseg > 0x7fffffff)
    return attu_error_set(err, "54000", 0, "GPU backend: lbs of %zu items", total);
  return guarded(err, [&] {
    // offsets has nseg + 1 int64 entries; the pattern reads segments[s] for
    // s < nseg and takes `total` as the end of the last.
    load_balance_search((int)total, (const int64_t*)I64(offsets), (int)nseg, I64(seg_out),
                        CTX(be));
  });
}

void gpu_destroy(attu_backend* be) {
  if (!be) return;
  gpu_impl* im = IMPL(be);
  if (im) {
    if (im->host) im->host->destroy(im->host);
    cudaStreamSynchronize(im->ctx.stream());
    delete im;
  }
  free(be);
}

attu_backend* make_backend(size_t memory_budget, bool full, attu_error* err) {
  int ndev = 0;
  cudaError_t ce = cudaGetDeviceCount(&ndev);
  if (ce != cudaSuccess || ndev < 1) {
    cudaGetLastError();
    attu_error_set(err, "58000", 0, "no CUDA device (%s)",
                   ce != cudaSuccess ? cudaGetErrorString(ce) : "none found");
    return nullptr;
  }
  attu_backend* be = static_cast<attu_backend*>(calloc(1, sizeof *be));
  if (!be) {
    attu_error_oom(err);
    return nullptr;
  }
  gpu_impl* impl = nullptr;
  if (guarded(err, [&] { impl = new gpu_impl(); }) != 0) {
    free(be);
    return nullptr;
  }
  size_t free_b = 0, total_b = 0;
  if (cudaMemGetInfo(&free_b, &total_b) != cudaSuccess) {
    cudaGetLastError();
    attu_error_set(err, "58000", 0, "GPU backend: cudaMemGetInfo failed");
    delete impl;
    free(be);
    return nullptr;
  }
  impl->budget = memory_budget ? memory_budget : free_b / 10 * 9;
  be->impl = impl;
  if (full) {
    impl->host = attu_backend_cpu_new(0, err);
    if (!impl->host) {
      delete impl;
      free(be);
      return nullptr;
    }
    be->host = impl->host;
  }
  snprintf(impl->name, sizeof impl->name, "GPU (%s, sm_%d%d)%s", impl->ctx.props().name,
           impl->ctx.props().major, impl->ctx.props().minor, full ? "" : " [partial]");
  be->kind = ATTU_DEVICE_KIND_GPU;
  be->name = impl->name;
  be->alloc = gpu_alloc;
  be->free = gpu_free;
  be->upload = gpu_upload;
  be->download = gpu_download;
  be->fill = gpu_fill;
  be->iota = gpu_iota;
  be->gather = gpu_gather;
  be->scatter = gpu_scatter;
  be->compact = gpu_compact;
  be->gather_cols = gpu_gather_cols;
  be->download_many = gpu_download_many;
  be->dense_index = gpu_dense_index;
  be->dense_probe = gpu_dense_probe;
  be->scan = gpu_scan;
  be->sorted_search = gpu_sorted_search;
  be->inner_join = gpu_inner_join;
  be->lbs = gpu_lbs;
  be->destroy = gpu_destroy;
  if (full) install_compute(be);
  const char* tr = getenv("ATTU_GPU_TRACE");
  if (tr && strcmp(tr, "0") != 0) install_trace(be);
  return be;
}

}  // namespace gpu_backend
}  // namespace attu

extern "C" attu_backend* attu_backend_gpu_new(size_t memory_budget, attu_error* err) {
  return attu::gpu_backend::make_backend(memory_budget, true, err);
}

extern "C" attu_backend* attu_backend_gpu_new_partial(attu_error* err) {
  return attu::gpu_backend::make_backend(0, false, err);
}
