/*
 * backend_gpu.h - the GPU backend (engine/backend.h implemented with the
 * pattern library), work in progress.
 *
 * Written so far: memory (stream-ordered pool), upload, download, fill,
 * iota, gather, scatter, compact, scan, sorted_search, inner_join, lbs.
 * Not yet: eval, sort, top_k, segment_heads, segreduce, reduce,
 * lbs_segreduce, segmented_sort, key_encode: those entries are NULL, so the
 * executor must not be given this backend yet; it exists for the
 * primitives' own tests and for the next step.
 */
#ifndef ATTU_BACKEND_GPU_H
#define ATTU_BACKEND_GPU_H

/* The engine's headers have C linkage and no extern "C" guards of their own. */
#ifdef __cplusplus
extern "C" {
#endif

#include "engine/backend.h"

/* A GPU backend on the current CUDA device with only the primitives listed
 * above (others NULL). NULL with err set when no device is usable. */
attu_backend *attu_backend_gpu_new_partial(attu_error *err);

#ifdef __cplusplus
}
#endif

#endif
