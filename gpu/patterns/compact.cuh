// compact.cuh: transform_compact, two-pass stream compaction (seeds/003).
//
// upsweep(f): f(index) -> bool (keep?) is called once per index. Each warp
// packs its 32 decisions into one word with a ballot (the bits of a tile
// stay in order), each CTA stores its words and its kept count; a one-CTA
// scan turns the counts into tile offsets. upsweep returns the total (the
// only host synchronization), so the caller can size the output exactly.
// downsweep(g): g(dest_index, source_index) for every kept index, dest in
// source order. Both take optional trailing arguments, forwarded to the
// behaviour (pointers as __restrict__). The behaviour of upsweep may be non-deterministic: the
// downsweep reads the stored bits, it never calls f again.
#pragma once

#include <cub/block/block_reduce.cuh>
#include <cub/block/block_scan.cuh>

#include "gpu/patterns/scan.cuh"

namespace attu {
namespace gpu {

namespace detail {

// nt threads, vt words per thread of striped items: word w of the tile
// covers tile items [32 w, 32 w + 32).
template <int nt, int vt, typename func_t, typename... args_t>
__global__ __launch_bounds__(nt) void compact_upsweep_kernel(
    func_t f, int count, unsigned* __restrict__ bits, int* __restrict__ counts,
    restrict_t<args_t>... args) {
  enum { nv = nt * vt };
  using reduce_t = cub::BlockReduce<int, nt>;
  __shared__ typename reduce_t::TempStorage storage;
  int tid = threadIdx.x, lane = tid & 31, warp = tid >> 5;
  int tile_begin = blockIdx.x * nv;
  int kept = 0;
#pragma unroll
  for (int i = 0; i < vt; ++i) {
    int index = tile_begin + i * nt + tid;
    bool keep = index < count && f(index, args...);
    unsigned word = __ballot_sync(0xffffffffu, keep);
    int word_index = (tile_begin + i * nt + warp * 32) >> 5;
    if (!lane && word_index * 32 < count) bits[word_index] = word;
    kept += keep;
  }
  int total = reduce_t(storage).Sum(kept);
  if (!tid) counts[blockIdx.x] = total;
}

template <int nt, int vt, typename func_t, typename... args_t>
__global__ __launch_bounds__(nt) void compact_downsweep_kernel(
    func_t f, int count, const unsigned* __restrict__ bits,
    const int* __restrict__ offsets, restrict_t<args_t>... args) {
  enum { nv = nt * vt, nw = nv / 32 };
  using scan_t = cub::BlockScan<int, nt>;
  __shared__ typename scan_t::TempStorage storage;
  __shared__ unsigned s_bits[nw];
  __shared__ int s_word_offset[nw];
  int tid = threadIdx.x, lane = tid & 31;
  int tile_begin = blockIdx.x * nv;
  // a tile that kept nothing (its offset equals the next tile's) returns
  // at once: a sparse compaction's downsweep is mostly such tiles
  if (blockIdx.x + 1 < gridDim.x && offsets[blockIdx.x] == offsets[blockIdx.x + 1]) return;
  int num_words = min(nw, div_up(count - tile_begin, 32));
  // Each thread owns wpt consecutive words for the scan.
  enum { wpt = (nw + nt - 1) / nt };
  int w[wpt];
  int sum = 0;
#pragma unroll
  for (int j = 0; j < wpt; ++j) {
    int wi = tid * wpt + j;
    unsigned word = wi < num_words ? bits[(tile_begin >> 5) + wi] : 0u;
    if (wi < nw) s_bits[wi] = word;
    w[j] = __popc(word);
    sum += w[j];
  }
  int excl;
  scan_t(storage).ExclusiveSum(sum, excl);
#pragma unroll
  for (int j = 0; j < wpt; ++j) {
    if (tid * wpt + j < nw) s_word_offset[tid * wpt + j] = excl;
    excl += w[j];
  }
  __syncthreads();
  int base = offsets[blockIdx.x];
  // Thread (warp, lane) owns bit `lane` of words i * (nt / 32) + warp, the
  // same striped items the upsweep's ballots packed. All destinations are
  // computed first, then the behaviour runs unrolled, so with __restrict__
  // arguments its loads are all in flight before the first store.
  int lane_mask = (int)((1u << lane) - 1);
  int dest[vt];
  bool keep[vt];
#pragma unroll
  for (int i = 0; i < vt; ++i) {
    int wi = i * (nt / 32) + (tid >> 5);
    unsigned word = wi < num_words ? s_bits[wi] : 0u;
    keep[i] = word >> lane & 1;
    dest[i] = base + s_word_offset[wi < nw ? wi : 0] + __popc(word & lane_mask);
  }
#pragma unroll
  for (int i = 0; i < vt; ++i)
    if (keep[i]) f(dest[i], tile_begin + i * nt + tid, args...);
}

// The upsweep of a byte mask (keep index i when m[i] != 0 and, with a
// validity array, v[i] != 0): each thread builds one whole word of the bit
// array from 32 consecutive bytes, read as two 16-byte loads when aligned,
// instead of one byte load and one ballot per item. Same outputs as
// compact_upsweep_kernel: the words, and each tile's count (tiles of
// tile_words words; a block covers whole tiles).
template <int nt>
__global__ __launch_bounds__(nt) void compact_upsweep_mask_kernel(
    const uint8_t* __restrict__ m, const uint8_t* __restrict__ v, int count, int tile_words, int num_tiles,
    unsigned* __restrict__ bits, int* __restrict__ counts) {
  __shared__ int s_count[nt / 32];
  int tid = threadIdx.x, lane = tid & 31, warp = tid >> 5;
  long long word_index = (long long)blockIdx.x * nt + tid;
  long long first = word_index * 32;
  unsigned word = 0;
  if (first < count) {
    if (first + 32 <= count && !((uintptr_t)(m + first) & 15) && (!v || !((uintptr_t)(v + first) & 15))) {
      const uint4* mp = reinterpret_cast<const uint4*>(m + first);
      uint4 a = mp[0], b = mp[1];
      unsigned lanes[8] = {a.x, a.y, a.z, a.w, b.x, b.y, b.z, b.w};
      if (v) {
        const uint4* vp = reinterpret_cast<const uint4*>(v + first);
        uint4 c = vp[0], d = vp[1];
        unsigned vl[8] = {c.x, c.y, c.z, c.w, d.x, d.y, d.z, d.w};
#pragma unroll
        for (int j = 0; j < 8; ++j) {
          // a byte of the result is nonzero when both bytes are
          unsigned x = lanes[j], y = vl[j], r = 0;
#pragma unroll
          for (int b8 = 0; b8 < 4; ++b8) r |= (((x >> (8 * b8)) & 0xff) && ((y >> (8 * b8)) & 0xff)) << (8 * b8);
          lanes[j] = r;
        }
      }
#pragma unroll
      for (int j = 0; j < 8; ++j)
#pragma unroll
        for (int b8 = 0; b8 < 4; ++b8) word |= (unsigned)(((lanes[j] >> (8 * b8)) & 0xff) != 0) << (4 * j + b8);
    } else {
      int end = (int)min((long long)count - first, 32LL);
      for (int k = 0; k < end; ++k) word |= (unsigned)(m[first + k] && (!v || v[first + k])) << k;
    }
    bits[word_index] = word;
  }
  // per-tile counts: tile_words is a multiple of 32 and divides nt, so a
  // warp's words belong to one tile
  int c = __popc(word);
#pragma unroll
  for (int off = 16; off; off >>= 1) c += __shfl_down_sync(0xffffffffu, c, off);
  if (!lane) s_count[warp] = c;
  __syncthreads();
  int warps_per_tile = tile_words / 32;
  if (tid < nt / tile_words) {
    int tile = blockIdx.x * (nt / tile_words) + tid;
    int sum = 0;
    for (int k = 0; k < warps_per_tile; ++k) sum += s_count[tid * warps_per_tile + k];
    if (tile < num_tiles) counts[tile] = sum;
  }
}

}  // namespace detail

template <typename launch_arg_t = empty_t>
struct stream_compact_t {
  // 256 x 8: fastest of the boxes swept on an H100 (64M ints, keep 50%).
  using launch_t = launch_of_t<launch_arg_t, launch_params_t<256, 8>>;
  enum { nt = launch_t::nt, vt = launch_t::vt };
  static_assert((nt * vt) % 32 == 0, "a tile holds whole 32-bit words");

  stream_compact_t(int count, context_t& ctx)
      : ctx_(&ctx), count_(count > 0 ? count : 0),
        num_tiles_(count_ ? div_up(count_, (int)(nt * vt)) : 0),
        bits_(div_up(count_, 32), ctx), offsets_(num_tiles_, ctx) {}

  // f(index, args...) -> bool; returns how many indices were kept.
  template <typename func_t, typename... args_t>
  int upsweep(func_t f, args_t... args) {
    if (!num_tiles_) return 0;
    detail::compact_upsweep_kernel<nt, vt, func_t, args_t...>
        <<<num_tiles_, nt, 0, ctx_->stream()>>>(f, count_, bits_.data(),
                                                offsets_.data(), args...);
    ATTU_CUDA_CHECK_LAUNCH();
    return finish_upsweep();
  }

  // The upsweep of a byte mask m (and validity v, or nullptr): keeps i
  // when m[i] && (!v || v[i]), as upsweep(f) with that f would, in one
  // word per thread (compact_upsweep_mask_kernel). Returns the count.
  int upsweep_mask(const uint8_t* m, const uint8_t* v) {
    if (!num_tiles_) return 0;
    enum { mask_nt = 256, tile_words = (nt * vt) / 32 };
    static_assert(tile_words % 32 == 0 && mask_nt % tile_words == 0, "a block covers whole tiles of whole warps");
    int num_words = div_up(count_, 32);
    detail::compact_upsweep_mask_kernel<mask_nt><<<div_up(num_words, (int)mask_nt), mask_nt, 0, ctx_->stream()>>>(
        m, v, count_, (int)tile_words, num_tiles_, bits_.data(), offsets_.data());
    ATTU_CUDA_CHECK_LAUNCH();
    return finish_upsweep();
  }

  // For a behaviour that needs its own upsweep kernel (a table in shared
  // memory, a persistent grid): the kernel writes bit_words() (word w: the
  // keep bits of items [32 w, 32 w + 32)) and tile_counts() (the kept
  // count of each tile of nt * vt items, num_tiles() of them), then
  // finish_upsweep() scans the counts and returns the total, as upsweep.
  unsigned* bit_words() { return bits_.data(); }
  int* tile_counts() { return offsets_.data(); }
  int num_tiles() const { return num_tiles_; }
  int finish_upsweep() {
    if (!num_tiles_) return 0;
    int* counts = offsets_.data();
    if (num_tiles_ == 1) {
      // One tile (up to nt * vt items: a group-by's occupied slots, a
      // small filter): its count is the total and its offset is 0, so the
      // scan's two launches and its tile state are not needed.
      int h = 0;
      dtoh(&h, counts, 1, *ctx_);
      ATTU_CUDA_CHECK(cudaMemsetAsync(counts, 0, sizeof(int), ctx_->stream()));
      return h;
    }
    mem_t<int> total(1, *ctx_);
    scan<scan_type_exc>(counts, num_tiles_, counts, plus_t<int>(), total.data(), *ctx_);
    int h = 0;
    dtoh(&h, total.data(), 1, *ctx_);
    return h;
  }

  // g(dest_index, source_index, args...) for every index upsweep kept.
  // Pointer args arrive __restrict__: pass the arrays the behaviour reads
  // and writes as args (rather than lambda captures) and the copies overlap.
  template <typename func_t, typename... args_t>
  void downsweep(func_t g, args_t... args) {
    if (!num_tiles_) return;
    detail::compact_downsweep_kernel<nt, vt, func_t, args_t...>
        <<<num_tiles_, nt, 0, ctx_->stream()>>>(g, count_, bits_.data(),
                                                offsets_.data(), args...);
    ATTU_CUDA_CHECK_LAUNCH();
  }

 private:
  context_t* ctx_;
  int count_, num_tiles_;
  mem_t<unsigned> bits_;
  mem_t<int> offsets_;
};

template <typename launch_arg_t = empty_t>
stream_compact_t<launch_arg_t> transform_compact(int count, context_t& ctx) {
  return stream_compact_t<launch_arg_t>(count, ctx);
}

}  // namespace gpu
}  // namespace attu
