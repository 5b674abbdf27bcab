// intervals_reference.hpp: CPU references of interval_expand / gather /
// scatter / move and bulk_insert / bulk_remove (semantics in
// gpu/patterns/intervals.cuh and bulk.cuh).
#pragma once

#include <vector>

namespace attu {
namespace ref {

inline int interval_end(const std::vector<int>& segments, int s, int count) {
  return s + 1 < (int)segments.size() ? segments[s + 1] : count;
}

template <typename T>
std::vector<T> interval_expand(const std::vector<T>& input, int count,
                               const std::vector<int>& segments) {
  std::vector<T> out(count);
  for (int s = 0; s < (int)segments.size(); ++s)
    for (int i = segments[s]; i < interval_end(segments, s, count); ++i) out[i] = input[s];
  return out;
}

template <typename T>
std::vector<T> interval_gather(const std::vector<T>& input, int count,
                               const std::vector<int>& segments,
                               const std::vector<int>& gather) {
  std::vector<T> out(count);
  for (int s = 0; s < (int)segments.size(); ++s)
    for (int i = segments[s]; i < interval_end(segments, s, count); ++i)
      out[i] = input[gather[s] + i - segments[s]];
  return out;
}

// Only the scattered positions of *out are written.
template <typename T>
void interval_scatter(const std::vector<T>& input, int count,
                      const std::vector<int>& segments,
                      const std::vector<int>& scatter, std::vector<T>* out) {
  for (int s = 0; s < (int)segments.size(); ++s)
    for (int i = segments[s]; i < interval_end(segments, s, count); ++i)
      (*out)[scatter[s] + i - segments[s]] = input[i];
}

template <typename T>
void interval_move(const std::vector<T>& input, int count,
                   const std::vector<int>& segments, const std::vector<int>& scatter,
                   const std::vector<int>& gather, std::vector<T>* out) {
  for (int s = 0; s < (int)segments.size(); ++s)
    for (int r = 0; r < interval_end(segments, s, count) - segments[s]; ++r)
      (*out)[scatter[s] + r] = input[gather[s] + r];
}

template <typename T>
std::vector<T> bulk_insert(const std::vector<T>& a, const std::vector<int>& where,
                           const std::vector<T>& b) {
  std::vector<T> out;
  size_t k = 0;
  for (size_t j = 0; j <= b.size(); ++j) {
    while (k < a.size() && where[k] == (int)j) out.push_back(a[k++]);
    if (j < b.size()) out.push_back(b[j]);
  }
  return out;
}

template <typename T>
std::vector<T> bulk_remove(const std::vector<T>& input, const std::vector<int>& indices) {
  std::vector<T> out;
  size_t k = 0;
  for (size_t i = 0; i < input.size(); ++i) {
    if (k < indices.size() && indices[k] == (int)i) { ++k; continue; }
    out.push_back(input[i]);
  }
  return out;
}

}  // namespace ref
}  // namespace attu
