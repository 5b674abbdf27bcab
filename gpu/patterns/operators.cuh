// operators.cuh: the stock behaviours for reductions, scans and comparisons,
// plus the counting iterator patterns accept wherever they read an array.
//
// Any callable with the same shape works in their place (device lambdas
// included); reduction and scan operators must be associative, not
// necessarily commutative.
#pragma once

#include <cuda_runtime.h>

namespace attu {
namespace gpu {

template <typename T = void>
struct plus_t {
  __host__ __device__ T operator()(const T& a, const T& b) const { return a + b; }
};
template <typename T = void>
struct minimum_t {
  __host__ __device__ T operator()(const T& a, const T& b) const { return b < a ? b : a; }
};
template <typename T = void>
struct maximum_t {
  __host__ __device__ T operator()(const T& a, const T& b) const { return a < b ? b : a; }
};
template <typename T = void>
struct less_t {
  __host__ __device__ bool operator()(const T& a, const T& b) const { return a < b; }
};
template <typename T = void>
struct greater_t {
  __host__ __device__ bool operator()(const T& a, const T& b) const { return b < a; }
};

// it[i] == base + i; stands in for an array of consecutive integers.
template <typename T = int>
struct counting_iterator_t {
  T base;
  __host__ __device__ T operator[](long long i) const { return base + (T)i; }
};

// it[i] == f(i): adapts a behaviour to a pattern that reads an array.
template <typename T, typename func_t>
struct load_iterator_t {
  func_t f;
  __host__ __device__ T operator[](int i) const { return f(i); }
};
template <typename T, typename func_t>
load_iterator_t<T, func_t> make_load_iterator(func_t f) { return {f}; }

}  // namespace gpu
}  // namespace attu
