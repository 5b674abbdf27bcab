// load_balance_reference.hpp: CPU references of the load-balancing search
// and the segmented reduction, over a segments descriptor (exclusive scan of
// segment sizes, segments[0] == 0, empty segments allowed).
#pragma once

#include <vector>

namespace attu {
namespace ref {

// seg of each of `count` work items.
inline std::vector<int> load_balance_search(int count, const std::vector<int>& segments) {
  std::vector<int> out(count > 0 ? count : 0);
  int ns = (int)segments.size();
  int s = 0;
  for (int i = 0; i < count; ++i) {
    while (s + 1 < ns && segments[s + 1] <= i) ++s;
    out[i] = s;
  }
  return out;
}

// f(index, seg, rank) for every work item, in index order.
template <typename func_t>
void transform_lbs(func_t f, int count, const std::vector<int>& segments) {
  std::vector<int> seg = load_balance_search(count, segments);
  for (int i = 0; i < count; ++i) f(i, seg[i], i - segments[seg[i]]);
}

// out[s] = fold of value(i) over the items of segment s, init if empty.
template <typename T, typename value_t, typename op_t>
std::vector<T> segreduce(value_t value, int count, const std::vector<int>& segments,
                         op_t op, T init) {
  int ns = (int)segments.size();
  std::vector<T> out(ns, init);
  for (int s = 0; s < ns; ++s) {
    int end = s + 1 < ns ? segments[s + 1] : count;
    for (int i = segments[s]; i < end; ++i)
      out[s] = i == segments[s] ? (T)value(i, s, i - segments[s])
                                : op(out[s], (T)value(i, s, i - segments[s]));
  }
  return out;
}

}  // namespace ref
}  // namespace attu
