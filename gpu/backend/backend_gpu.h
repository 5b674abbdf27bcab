/*
 * backend_gpu.h - the GPU backend: engine/backend.h implemented with the
 * pattern library (gpu/patterns).
 *
 * attu_backend_gpu_new (declared in engine/backend.h) returns the complete
 * table. On the device: memory (stream-ordered pool under a byte budget),
 * upload, download, fill, iota, gather, scatter, compact, scan,
 * sorted_search, inner_join, lbs, sort, top_k, segmented_sort,
 * segment_heads, key_encode, and segreduce for the streaming aggregates
 * (COUNT, SUM, MIN, MAX, AVG_SUM, ANY) over many segments. Staged through
 * the host and run by the CPU backend's reference code: eval and
 * lbs_segreduce (expression programs: text, dictionaries and PostgreSQL's
 * error rules live in the host interpreter), reduce, and segreduce with
 * rank aggregates or few segments. See backend_gpu_compute.cu.
 *
 * On the device by default (ATTU_GPU_EVAL=0 / ATTU_GPU_LBS=0 at creation
 * stage them through the host instead): eval of programs in the numeric
 * subset (gpu/backend/expr_device.cuh: no TEXT; arithmetic, comparisons,
 * int and float casts, exact float math) in one fused pass, and
 * lbs_segreduce with COUNT / MIN / MAX / NTH_* reductions and programs of
 * the subset plus the transcendental functions (one warp per segment). A
 * row error reruns the host reference, which raises the exact error.
 */
#ifndef ATTU_BACKEND_GPU_H
#define ATTU_BACKEND_GPU_H

/* The engine's headers have C linkage and no extern "C" guards of their own. */
#ifdef __cplusplus
extern "C" {
#endif

#include "engine/backend.h"

/* Only the device-native data movement primitives (memory, upload,
 * download, fill, iota, gather, scatter, compact, scan, sorted_search,
 * inner_join, lbs; others NULL): for the primitives' own tests. NULL with
 * err set when no device is usable. */
attu_backend *attu_backend_gpu_new_partial(attu_error *err);

#ifdef __cplusplus
}
#endif

#endif
