// compact_reference.hpp: CPU reference of stream compaction: the indices
// kept by a predicate, in order (downsweep's source_index for each dest).
#pragma once

#include <vector>

namespace attu {
namespace ref {

template <typename pred_t>
std::vector<int> compact(int count, pred_t keep) {
  std::vector<int> out;
  for (int i = 0; i < count; ++i)
    if (keep(i)) out.push_back(i);
  return out;
}

}  // namespace ref
}  // namespace attu
