// launch_box.cuh: launch parameters (nt threads per CTA, vt items per
// thread, vt0 unconditional loads for load-balanced patterns) chosen per
// architecture and overridable by the caller.
//
// A pattern takes `launch_arg_t` as its first template argument; empty_t
// means "use this pattern's default box". A caller overrides with either a
// plain launch_params_t<nt, vt, vt0> (every architecture) or a launch_box_t
// of arch_cta_t entries, of which the one with the highest sm not above the
// running device's is used. Device code sees the box for the architecture it
// is compiled for (__CUDA_ARCH__); host code asks cta_dim(ptx_version) for
// the same numbers at run time, so grid sizes and tile sizes always agree.
#pragma once

#include <type_traits>

namespace attu {
namespace gpu {

struct empty_t {};

struct cta_dim_t {
  int nt, vt, vt0;
  int nv() const { return nt * vt; }
};

template <int nt_, int vt_ = 1, int vt0_ = vt_>
struct launch_params_t {
  static_assert(nt_ % 32 == 0 && nt_ <= 1024, "nt must be a multiple of 32");
  static_assert(vt_ >= 1 && vt0_ >= 0 && vt0_ <= vt_, "need 0 <= vt0 <= vt");
  enum { nt = nt_, vt = vt_, vt0 = vt0_, nv = nt_ * vt_ };
  using sm_ptx = launch_params_t;
  static cta_dim_t cta_dim(int /*ptx_version*/) { return {nt, vt, vt0}; }
};

// One entry of a launch box: the parameters for devices of compute
// capability >= sm (e.g. 900 for Hopper).
template <int sm_, int nt_, int vt_ = 1, int vt0_ = vt_>
struct arch_cta_t : launch_params_t<nt_, vt_, vt0_> {
  enum { sm = sm_ };
  using sm_ptx = arch_cta_t;
};

namespace detail {
template <int arch, typename best, typename... rest>
struct select_box { using type = best; };
template <int arch, typename best, typename head, typename... rest>
struct select_box<arch, best, head, rest...> {
  static constexpr bool better =
      (int)head::sm <= arch && ((int)best::sm > arch || (int)head::sm >= (int)best::sm);
  using type = typename select_box<arch, std::conditional_t<better, head, best>,
                                   rest...>::type;
};
}  // namespace detail

template <typename first, typename... boxes>
struct launch_box_t {
#ifdef __CUDA_ARCH__
  using sm_ptx = typename detail::select_box<__CUDA_ARCH__, first, boxes...>::type;
#else
  using sm_ptx = typename detail::select_box<900, first, boxes...>::type;
#endif
  enum { nt = sm_ptx::nt, vt = sm_ptx::vt, vt0 = sm_ptx::vt0, nv = sm_ptx::nv };

  static cta_dim_t cta_dim(int ptx_version) {
    cta_dim_t d{first::nt, first::vt, first::vt0};
    int best = -1;
    pick<first, boxes...>(ptx_version, best, d);
    return d;
  }

 private:
  template <typename b, typename... bs>
  static void pick(int ptx, int& best, cta_dim_t& d) {
    if ((int)b::sm <= ptx && (int)b::sm > best) {
      best = b::sm;
      d = {b::nt, b::vt, b::vt0};
    }
    if constexpr (sizeof...(bs) > 0) pick<bs...>(ptx, best, d);
  }
};

// The box a pattern uses: the caller's, or the pattern's default.
template <typename launch_arg_t, typename default_t>
using launch_of_t =
    std::conditional_t<std::is_same<launch_arg_t, empty_t>::value, default_t,
                       launch_arg_t>;

}  // namespace gpu
}  // namespace attu
