// patterns.cuh: the whole pattern library in one include.
#pragma once

#include "gpu/patterns/context.cuh"
#include "gpu/patterns/memory.cuh"
#include "gpu/patterns/launch_box.cuh"
#include "gpu/patterns/operators.cuh"
#include "gpu/patterns/search.cuh"
#include "gpu/patterns/transform.cuh"
#include "gpu/patterns/reduce.cuh"
#include "gpu/patterns/scan.cuh"
#include "gpu/patterns/compact.cuh"
#include "gpu/patterns/load_balance.cuh"
#include "gpu/patterns/segreduce.cuh"
#include "gpu/patterns/sorted_search.cuh"
#include "gpu/patterns/join.cuh"
#include "gpu/patterns/intervals.cuh"
#include "gpu/patterns/workcreate.cuh"
#include "gpu/patterns/bulk.cuh"
