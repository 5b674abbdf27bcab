// key_count_reference.hpp: the CPU reference of count_keys (key_count.cuh):
// how many times each key of [0, nkeys) occurs, keys less a base.
#pragma once

#include <cstddef>
#include <vector>

namespace attu {
namespace ref {

template <typename in_t>
std::vector<int> count_keys(const std::vector<in_t>& keys, long long key_base, size_t nkeys) {
  std::vector<int> out(nkeys, 0);
  for (in_t k : keys) ++out[size_t((long long)k - key_base)];
  return out;
}

}  // namespace ref
}  // namespace attu
