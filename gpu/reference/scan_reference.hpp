// scan_reference.hpp: CPU references of reduce and scan (the oracle of the
// GPU tests, and the shape of the CPU backend's primitives). Same semantics
// as gpu/patterns/scan.cuh: op associative, init used only for empty input
// and for the first exclusive output, never combined with data.
#pragma once

#include <cstddef>
#include <vector>

namespace attu {
namespace ref {

template <typename T, typename op_t>
T reduce(const std::vector<T>& x, op_t op, T init = T()) {
  if (x.empty()) return init;
  T acc = x[0];
  for (size_t i = 1; i < x.size(); ++i) acc = op(acc, x[i]);
  return acc;
}

// Returns the scan; *reduction (optional) gets the fold of all items.
template <typename T, typename op_t>
std::vector<T> scan(const std::vector<T>& x, bool inclusive, op_t op,
                    T init = T(), T* reduction = nullptr) {
  std::vector<T> out(x.size());
  T acc = init;
  for (size_t i = 0; i < x.size(); ++i) {
    if (inclusive) {
      acc = i ? op(acc, x[i]) : x[i];
      out[i] = acc;
    } else {
      out[i] = i ? acc : init;
      acc = i ? op(acc, x[i]) : x[i];
    }
  }
  if (reduction) *reduction = x.empty() ? init : acc;
  return out;
}

}  // namespace ref
}  // namespace attu
