// dependent_launch.cuh: Hopper's programmatic dependent launch, for a
// kernel that consumes a small kernel's results (a partition, a carry's
// scan) right after it in the stream.
//
// Launched with programmatic stream serialization, the dependent may be
// launched and its CTAs placed while the kernel before it drains (from
// the moment every CTA of that kernel has triggered, or ended); so it must
// wait (wait_for_primary_grid) before its first read of that kernel's
// results. Whatever the stream ran before that kernel has finished by
// then, as in any launch. Used by segreduce's blocked tiles and fix-ups
// (session 26: 1-2% at 64M-256M) and by the interval moves' and
// transform_lbs's marks tiles (session 31).
#pragma once

#include "gpu/patterns/context.cuh"

namespace attu {
namespace gpu {

// Waits until the kernel before this one in the stream has finished and
// its stores are visible, when this kernel was launched as its
// programmatic dependent; otherwise returns at once.
__device__ __forceinline__ void wait_for_primary_grid() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  cudaGridDependencySynchronize();
#endif
}

// In the kernel a dependent follows: lets the dependent launch now (its
// CTAs still wait in wait_for_primary_grid for this whole grid).
__device__ __forceinline__ void trigger_dependent_launch() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  cudaTriggerProgrammaticLaunchCompletion();
#endif
}

// kernel<<<grid, block, smem>>>(args...) on ctx's stream; dependent: as a
// programmatic dependent of the stream's kernel before it
// (cudaLaunchKernelEx with programmatic stream serialization; Hopper and
// later: callers check ctx.ptx_version() >= 900).
template <typename... params_t, typename... args_t>
void launch_maybe_dependent(void (*kernel)(params_t...), int grid, int block, size_t smem, bool dependent,
                            context_t& ctx, args_t... args) {
  if (!dependent) {
    kernel<<<grid, block, smem, ctx.stream()>>>(args...);
    ATTU_CUDA_CHECK_LAUNCH();
    return;
  }
  cudaLaunchAttribute attr[1];
  attr[0].id = cudaLaunchAttributeProgrammaticStreamSerialization;
  attr[0].val.programmaticStreamSerializationAllowed = 1;
  cudaLaunchConfig_t cfg = {};
  cfg.gridDim = dim3((unsigned)grid);
  cfg.blockDim = dim3((unsigned)block);
  cfg.dynamicSmemBytes = smem;
  cfg.stream = ctx.stream();
  cfg.attrs = attr;
  cfg.numAttrs = 1;
  ATTU_CUDA_CHECK(cudaLaunchKernelEx(&cfg, kernel, args...));
}

}  // namespace gpu
}  // namespace attu
