// search_reference.hpp: CPU references of sorted_search (lower / upper
// bound of each needle) and inner_join (all equal pairs, by a then b).
#pragma once

#include <algorithm>
#include <utility>
#include <vector>

namespace attu {
namespace ref {

template <typename T, typename comp_t>
std::vector<int> sorted_search(const std::vector<T>& needles,
                               const std::vector<T>& haystack, bool upper,
                               comp_t comp) {
  std::vector<int> out(needles.size());
  for (size_t i = 0; i < needles.size(); ++i) {
    auto it = upper ? std::upper_bound(haystack.begin(), haystack.end(), needles[i], comp)
                    : std::lower_bound(haystack.begin(), haystack.end(), needles[i], comp);
    out[i] = (int)(it - haystack.begin());
  }
  return out;
}

template <typename T, typename comp_t>
std::vector<std::pair<int, int>> inner_join(const std::vector<T>& a,
                                            const std::vector<T>& b, comp_t comp) {
  std::vector<std::pair<int, int>> out;
  for (size_t i = 0; i < a.size(); ++i) {
    auto lo = std::lower_bound(b.begin(), b.end(), a[i], comp);
    auto hi = std::upper_bound(b.begin(), b.end(), a[i], comp);
    for (auto it = lo; it != hi; ++it) out.push_back({(int)i, (int)(it - b.begin())});
  }
  return out;
}

}  // namespace ref
}  // namespace attu
