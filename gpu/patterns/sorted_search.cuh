// sorted_search.cuh: vectorized sorted search (seeds/003): for each needle of
// a sorted needles array, its lower (bounds_lower) or upper (bounds_upper)
// bound in a sorted haystack, in O(A + B) by merging the two arrays.
//
// The merge puts haystack element h before needle n when comp(h, n)
// (lower) or when !comp(n, h) (upper); a needle's answer is the number of
// haystack elements merged before it. Tiles cut the merged sequence into
// pieces of nv; merge_partitions (merge_partition.cuh) finds each tile's
// split with a merge-path search, in two levels for many tiles; each CTA
// loads its needles and haystack into shared memory, each thread merges vt
// positions serially, answers go through shared memory so the stores are
// coalesced.
//
// Two tile kernels (A/B, read once: ATTU_SORTED_SEARCH_V3=0 picks the
// first, detail::sorted_search_v3_on()):
// - sorted_search_kernel (the first; also the body for iterators that are
//   not pointers, needles and haystack of different types, and keys too
//   wide for v3's shared layout): the serial merge keeps each step's
//   answer and needle slot in registers (answer[vt], slot[vt]); after a
//   barrier (the keys are dead) they go into shared memory over the keys,
//   a second barrier, then the coalesced stores. Three barriers a tile.
// - sorted_search_v3_kernel (the default; raw pointers to one key type):
//   * the tile's needles and haystack in one array (keys[j], j < na + nb
//     <= nv; haystack b at keys[na + b]), loaded from a base pointer picked
//     per slot: no branches, one shared store a slot (search_load_keys);
//   * each thread's split (merge_path_b over the tile) by unrolled binary
//     lifting (search_split): 8 instructions a step, no loop, no branch;
//     its last step hands the merge its first key;
//   * the merge's steps straight-line, the current needle and haystack
//     keys in registers, one shared load a step (the advanced side's next
//     key); the needle taken when a < na and (b >= nb or its haystack key
//     is not before it), its answer b0 + b stored at once into out[a], an
//     int array of its own (no answer / slot registers, no store pass: two
//     barriers a tile);
//   * 32 registers and 26.6 KB of shared memory at 256 x 11 (int): 8 CTAs
//     an SM, against 6 for the first kernel's 40 registers.
//   Invariants: a <= na always (a needle is only taken while a < na); b
//   passes nb only on the steps after the tile's last item (the last
//   thread's, or a thread clamped to the end), by at most vt - 1. Each
//   needle slot a < na is written by exactly the thread whose merge range
//   takes it, so out[0, na) is complete at the barrier. The reads that
//   fall outside the tile's keys (the search's steps that do not fit, the
//   merge past the end) stay inside the shared object (out before the
//   keys, a pad after them; search_shared_t) and their values are never
//   used.
// Measured on an H100 (docs/performance.md, session 25): 64M needles into
// 64M, the first kernel 0.398-0.403 ms, v3 0.358-0.359. Tried and dropped:
// v2 (v3's tile with both keys loaded every merge step: 0.379), a warp
// merging its positions together (31 a round, ranks by shuffles: 0.643).
// v3's loads and stores can run in runs aligned to 32 items
// (ATTU_SEARCH_ALIGN=1, search_load_keys): 0.368, so it is off.
#pragma once

#include "gpu/patterns/load_balance.cuh"
#include "gpu/patterns/merge_partition.cuh"

#include <cstdlib>
#include <type_traits>

namespace attu {
namespace gpu {

// An odd vt: threads walking vt consecutive shared slots hit distinct banks.
// Keys of 4 bytes take 256 x 13 on sm_90: 3% faster than 256 x 11 on an
// H100 (0.352-0.353 against 0.360-0.364 ms at 64M, 1.319 against 1.360 at
// 256M) and 3-4% on an H200 (session 27); 256 x 15, 128 x 11-15, 192 x 13
// and 384 x 13 were slower. Wider keys keep 256 x 11 (the first kernel's
// two key arrays stay under 48 KB of shared memory).
template <typename T>
using search_box_t = launch_box_t<arch_cta_t<700, 128, 11>,
                                  arch_cta_t<900, 256, (sizeof(T) <= 4 ? 13 : 11)>>;

namespace detail {

template <bounds_t bounds, typename needles_it, typename haystack_it, typename comp_t>
struct search_pred_t {
  needles_it needles;
  haystack_it haystack;
  comp_t comp;
  // true when haystack[b] goes before needles[a]
  __device__ bool operator()(int a, int b) const {
    return bounds == bounds_lower ? comp(haystack[b], needles[a])
                                  : !comp(needles[a], haystack[b]);
  }
};

// ATTU_SEARCH_ALIGN=1: v3's loads and stores in runs aligned to
// 32 items (search_load_keys); by default they map from the tile's first
// needle, which measured faster with v3 (see the file's comment).
inline bool& search_align_on() {
  static bool on = env_switch("ATTU_SEARCH_ALIGN", false);
  return on;
}

// ATTU_SORTED_SEARCH_V3=0 selects sorted_search_kernel (the first),
// anything else (or unset) sorted_search_v3_kernel; read once (A/B runs;
// the tests and the bench set it through this reference).
inline bool& sorted_search_v3_on() {
  static bool on = env_switch("ATTU_SORTED_SEARCH_V3", true);
  return on;
}

// The first tile body: answers in registers, then stored over the keys.
template <bounds_t bounds, int nt, int vt, typename needles_it,
          typename haystack_it, typename indices_it, typename comp_t>
__device__ __forceinline__ void search_tile_register_answers(
    needles_it needles, int num_needles, haystack_it haystack, int num_haystack,
    indices_it indices, comp_t comp, const int* __restrict__ part) {
  enum { nv = nt * vt };
  using a_t = value_of_t<needles_it>;
  using b_t = value_of_t<haystack_it>;
  __shared__ union {
    struct {
      a_t a[nv];
      b_t b[nv];
    } keys;
    int out[nv];
  } shared;
  int tid = threadIdx.x, cta = blockIdx.x;
  long long total = (long long)num_needles + num_haystack;
  int diag0 = cta * nv, diag1 = (int)min((long long)diag0 + nv, total);
  int b0 = part[cta], b1 = part[cta + 1];
  int a0 = diag0 - b0, a1 = diag1 - b1;
  int na = a1 - a0, nb = b1 - b0;
  // The tile's needles and haystack as one stream of na + nb <= nv loads,
  // all issued before the first shared store (vt loads in flight a thread).
  {
    a_t ka[vt];
    b_t kb[vt];
#pragma unroll
    for (int i = 0; i < vt; ++i) {
      int j = tid + i * nt;
      if (j < na) ka[i] = needles[a0 + j];
      else if (j < na + nb) kb[i] = haystack[b0 + j - na];
    }
#pragma unroll
    for (int i = 0; i < vt; ++i) {
      int j = tid + i * nt;
      if (j < na) shared.keys.a[j] = ka[i];
      else if (j < na + nb) shared.keys.b[j - na] = kb[i];
    }
  }
  __syncthreads();
  auto before = [&](int a, int b) {  // haystack b goes before needle a
    return bounds == bounds_lower ? comp(shared.keys.b[b], shared.keys.a[a])
                                  : !comp(shared.keys.a[a], shared.keys.b[b]);
  };
  int d = min(tid * vt, na + nb);
  int b = merge_path_b(na, nb, d, before);
  int a = d - b;
  int answer[vt], slot[vt];
#pragma unroll
  for (int i = 0; i < vt; ++i) {
    slot[i] = -1;
    if (b < nb && (a >= na || before(a, b))) {
      ++b;
    } else if (a < na) {
      slot[i] = a;
      answer[i] = b0 + b;
      ++a;
    }
  }
  __syncthreads();  // keys are dead: reuse the space for the answers
#pragma unroll
  for (int i = 0; i < vt; ++i)
    if (slot[i] >= 0) shared.out[slot[i]] = answer[i];
  __syncthreads();
#pragma unroll
  for (int i = 0; i < vt; ++i) {
    int j = tid + i * nt;
    if (j < na) indices[a0 + j] = shared.out[j];
  }
}

template <bounds_t bounds, typename launch_t, typename needles_it,
          typename haystack_it, typename indices_it, typename comp_t>
__global__ __launch_bounds__(launch_t::nt) void sorted_search_kernel(
    needles_it needles, int num_needles, haystack_it haystack, int num_haystack,
    indices_it indices, comp_t comp, const int* __restrict__ part) {
  search_tile_register_answers<bounds, launch_t::sm_ptx::nt, launch_t::sm_ptx::vt>(
      needles, num_needles, haystack, num_haystack, indices, comp, part);
}

// The highest power of two <= nv / 2: the first step of search_split.
template <int nv>
constexpr int search_top_step() {
  int p = 1;
  while (2 * p <= nv / 2) p *= 2;
  return p;
}

// The tile's keys, needles then haystack, in one array (haystack b at
// keys[na + b]), and the answers beside them (see the file's comment).
// search_split reads up to top - 1 slots before keys[0] and after
// keys[na + nb] (na + nb <= nv) for steps that do not fit: out before the
// keys (nv >= top slots) and the pad after them keep those reads inside
// the object; the merge reads at most vt - 1 slots past keys[na + nb].
template <int nv, int vt, typename T>
struct search_shared_t {
  enum { top = search_top_step<nv>(), pad = top > vt ? top : vt };
  int out[nv];
  T keys[nv + pad];
};

// v3 needs raw pointers to one key type (the load picks its source pointer
// per slot), answers (nv ints) that cover the split search's reads before
// the keys, and its shared memory within the 48 KB of a static array.
template <int nv, int vt, typename needles_it, typename haystack_it>
constexpr bool search_v3_fits() {
  using a_t = value_of_t<needles_it>;
  return std::is_pointer<needles_it>::value && std::is_pointer<haystack_it>::value &&
         std::is_same<a_t, value_of_t<haystack_it>>::value &&
         nv * sizeof(int) >= search_top_step<nv>() * sizeof(a_t) &&  // out covers the underrun
         sizeof(search_shared_t<nv, vt, a_t>) <= 48 * 1024;
}

// merge_path_b over the tile's keys by binary lifting: b starts at the
// range's low end and tries steps of 2^k down to 1, taking a step when the
// range allows it and haystack b + step - 1 goes before needle
// d - b - step (then every haystack key up to it does: the predicate is
// monotone). The split's range is at most min(na, nb) <= nv / 2 wide, so
// steps from the highest power of two <= nv / 2 cover it (their sum is at
// least nv / 2). Unrolled, each step is two shared loads at constant
// offsets from two pointers, two compares and three selected adds: no
// loop, no branch, no per-step address arithmetic (merge_path_b's loop
// took about 14 instructions an iteration).
// It also hands back the key of the merge's first step that its last
// step (step 1) already read: that step compares needle
// d - 1 - b' with haystack b' (b' = b before it); taken, b = b' + 1 and the
// needle is the merge's first needle (d - b); not taken, b = b' and the
// haystack key is the merge's first haystack key. So the merge loads only
// the other key (one shared load fewer a thread). The values are those of
// the same addresses the merge would read, bounds and pads included.
template <int nv, typename T, typename b_first_t>
__device__ __forceinline__ int search_split(int na, int nb, int d, const T* keys, const T* hay,
                                               b_first_t b_first, T& last_key,
                                               bool& last_was_needle) {
  const int lo = d > na ? d - na : 0;
  const int hi = d < nb ? d : nb;
  int room = hi - lo;
  const T* pb = hay + lo;
  const T* pa = keys + (d - 1 - lo);
  constexpr int top = search_top_step<nv>();
#pragma unroll
  for (int step = top; step > 1; step >>= 1) {
    const bool take = (room >= step) & b_first(pa[1 - step], pb[step - 1]);
    room = take ? room - step : room;
    pa = take ? pa - step : pa;
    pb = take ? pb + step : pb;
  }
  const T ka = pa[0], kb = pb[0];  // step 1
  const bool take = (room >= 1) & b_first(ka, kb);
  last_key = take ? ka : kb;
  last_was_needle = take;
  return take ? hi - room + 1 : hi - room;
}

// This CTA's tile: its first needle and haystack key (a0, b0, from the
// merge path's split part[]) and how many of each it merges.
struct search_tile_t {
  int a0, b0, na, nb;
};
template <int nv>
__device__ __forceinline__ search_tile_t search_tile(const int* part, int num_needles, int num_haystack) {
  const int cta = blockIdx.x;
  const long long total = (long long)num_needles + num_haystack;
  const int diag0 = cta * nv, diag1 = (int)min((long long)diag0 + nv, total);
  const int b0 = part[cta], b1 = part[cta + 1];
  const int a0 = diag0 - b0, a1 = diag1 - b1;
  return search_tile_t{a0, b0, a1 - a0, b1 - b0};
}

// A v3 tile's keys into shared memory: needles then haystack
// (haystack b at keys[na + b]); returns s_a, where the answers' aligned
// stores start (0 when not aligned). Every load is issued before the
// first shared store.
//
// Aligned runs (align): a0 and b0 fall anywhere, so a warp's 32 loads of
// the plain mapping span two 128-byte lines, and so do its stores of the
// answers. Virtual slots v = tid + i * nt (vt + 1 of them a thread) map
// the needles from v = s_a = a0 % 32 (needle a0 + v - s_a: a warp's run
// starts at a multiple of 32) and the haystack from the first v at or
// past the needles' end that is b0's residue mod 32 (haystack b0 + v - c).
// Both runs fit: c + nb <= na + s_a + 31 + nb <= nv + 62 < nv + nt.
template <int nt, int vt, typename T>
__device__ __forceinline__ int search_load_keys(const T* needles, const T* haystack, int a0, int b0, int na,
                                                int nb, T* keys, bool align) {
  const int tid = threadIdx.x;
  if (align && nt >= 64) {
    const int s_a = a0 & 31;
    const int c = na + s_a + ((b0 - na - s_a) & 31);
    T k[vt + 1];
#pragma unroll
    for (int i = 0; i <= vt; ++i) {
      const int v = tid + i * nt;
      const bool is_a = v < na + s_a;
      const int g = is_a ? a0 - s_a + v : b0 - c + v;  // global index
      const bool ok = is_a ? v >= s_a : v >= c && v < c + nb;
      const T* from = is_a ? needles : haystack;
      if (ok) k[i] = from[g];
    }
#pragma unroll
    for (int i = 0; i <= vt; ++i) {
      const int v = tid + i * nt;
      const bool is_a = v < na + s_a;
      const bool ok = is_a ? v >= s_a : v >= c && v < c + nb;
      if (ok) keys[is_a ? v - s_a : na + v - c] = k[i];
    }
    return s_a;
  }
  // Slot j < na + nb of the tile is needles[a0 + j] (j < na) or
  // haystack[b0 + j - na]: one load from a selected base (no branch).
  const T* from_needles = needles + a0 + tid;
  const T* from_haystack = haystack + (b0 - na) + tid;
  T k[vt];
#pragma unroll
  for (int i = 0; i < vt; ++i) {
    const int j = tid + i * nt;
    const T* from = j < na ? from_needles : from_haystack;
    if (j < na + nb) k[i] = from[i * nt];
  }
#pragma unroll
  for (int i = 0; i < vt; ++i) {
    const int j = tid + i * nt;
    if (j < na + nb) keys[j] = k[i];
  }
  return 0;
}

// The answers out[0, na) to indices[a0 + j], from the needles' 32-item
// boundary (s_a from search_load_keys): vt + 1 slots a thread.
template <int nt, int vt, typename indices_it>
__device__ __forceinline__ void search_store_answers(indices_it indices, int a0, int na, int s_a,
                                                     const int* out) {
#pragma unroll
  for (int i = 0; i <= vt; ++i) {
    const int j = (int)threadIdx.x + i * nt - s_a;
    if (j >= 0 && j < na) indices[a0 + j] = out[j];
  }
}

// The shared / L1 pipe bounds this kernel (Nsight Compute at 64M, with
// both keys loaded every merge step: L1/TEX 95.7%), and the merge's loads
// are its largest share: lanes' positions are data-dependent, so a warp's
// loads hit about 3 words a bank (a host count of bank wavefronts on the
// bench's uniform keys, per 32 items at 256 x 11: merge 6.3 -> 3.4 with
// one load a step, split 5.1, answers 2.2, tile store 1.0, readout 0.5:
// 15.1 -> 12.2 in all; 55 -> 44 shared loads a thread in the PTX). The
// merge's first two keys: the split's last step already read one of them
// (search_split), so the merge loads the other.
// Invariants: pa <= keys + na and pb < hay + nb + vt, so the reads
// (keys[na] or the pad) stay inside the object; a key read past its
// side's end is never compared (take_a tests pa < a_end and pb >= b_end
// first).
template <bounds_t bounds, typename launch_t, typename needles_it,
          typename haystack_it, typename indices_it, typename comp_t>
__global__ __launch_bounds__(launch_t::nt) void sorted_search_v3_kernel(
    needles_it needles, int num_needles, haystack_it haystack, int num_haystack,
    indices_it indices, comp_t comp, const int* __restrict__ part, bool align) {
  enum { nt = launch_t::sm_ptx::nt, vt = launch_t::sm_ptx::vt, nv = nt * vt };
  if constexpr (!search_v3_fits<nv, vt, needles_it, haystack_it>()) {
    search_tile_register_answers<bounds, nt, vt>(needles, num_needles, haystack, num_haystack,
                                                  indices, comp, part);
  } else {
    using T = value_of_t<needles_it>;
    __shared__ search_shared_t<nv, vt, T> shared;
    const int tid = threadIdx.x;
    const search_tile_t tile = search_tile<nv>(part, num_needles, num_haystack);
    const int a0 = tile.a0, b0 = tile.b0, na = tile.na, nb = tile.nb;
    const int s_a = search_load_keys<nt, vt>(needles, haystack, a0, b0, na, nb, shared.keys, align);
    __syncthreads();
    const T* hay = shared.keys + na;
    auto b_first = [&](const T& ka, const T& kb) {
      return bounds == bounds_lower ? comp(kb, ka) : !comp(ka, kb);
    };
    const int d = min(tid * vt, na + nb);
    T first_key;
    bool first_is_needle;
    const int b = search_split<nv>(na, nb, d, shared.keys, hay, b_first, first_key,
                                      first_is_needle);
    const int a = d - b;
    const T* pa = shared.keys + a;
    const T* pb = hay + b;
    int* po = shared.out + a;
    const T* const a_end = shared.keys + na;
    const T* const b_end = hay + nb;
    int answer = b0 + b;
    // the split's last step read one of the two first keys; load the other
    const T other_key = *(first_is_needle ? pb : pa);
    T ka = first_is_needle ? first_key : other_key;
    T kb = first_is_needle ? other_key : first_key;
#pragma unroll
    for (int i = 0; i < vt; ++i) {
      const bool take_a = (pa < a_end) & ((pb >= b_end) | !b_first(ka, kb));
      int* slot = sizeof(T) == sizeof(int) ? (int*)((char*)pa - sizeof(shared.out)) : po;
      if (take_a) *slot = answer;
      pa = take_a ? pa + 1 : pa;
      po = take_a ? po + 1 : po;
      pb = take_a ? pb : pb + 1;
      answer = take_a ? answer : answer + 1;
      if (i + 1 < vt) {
        // one load from a selected address: the advanced side's next key
        const T next = *(take_a ? pa : pb);
        ka = take_a ? next : ka;
        kb = take_a ? kb : next;
      }
    }
    __syncthreads();
    search_store_answers<nt, vt>(indices, a0, na, s_a, shared.out);
  }
}

}  // namespace detail

// indices[i] = lower/upper bound of needles[i] in haystack; both sorted by
// comp (a strict weak order, comp(x, y) == x < y).
template <bounds_t bounds, typename launch_arg_t = empty_t, typename needles_it,
          typename haystack_it, typename indices_it, typename comp_t>
void sorted_search(needles_it needles, int num_needles, haystack_it haystack,
                   int num_haystack, indices_it indices, comp_t comp,
                   context_t& ctx) {
  using launch_t = launch_of_t<launch_arg_t, search_box_t<detail::value_of_t<needles_it>>>;
  if (num_needles <= 0) return;
  if (num_haystack < 0) num_haystack = 0;
  int nv = launch_t::cta_dim(ctx.ptx_version()).nv();
  long long total = (long long)num_needles + num_haystack;
  int num_tiles = (int)div_up(total, (long long)nv);
  mem_t<int> part(num_tiles + 1, ctx);
  detail::search_pred_t<bounds, needles_it, haystack_it, comp_t> pred{needles, haystack, comp};
  merge_partitions(pred, num_needles, num_haystack, nv, num_tiles + 1, part.data(), ctx);
  if (detail::sorted_search_v3_on())
    detail::sorted_search_v3_kernel<bounds, launch_t><<<num_tiles, launch_t::nt, 0, ctx.stream()>>>(
        needles, num_needles, haystack, num_haystack, indices, comp, part.data(), detail::search_align_on());
  else
    detail::sorted_search_kernel<bounds, launch_t><<<num_tiles, launch_t::nt, 0, ctx.stream()>>>(
        needles, num_needles, haystack, num_haystack, indices, comp, part.data());
  ATTU_CUDA_CHECK_LAUNCH();
}

}  // namespace gpu
}  // namespace attu
