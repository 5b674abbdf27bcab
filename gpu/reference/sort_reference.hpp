// sort_reference.hpp: CPU references of the sorting patterns (sort.cuh,
// merge.cuh, mergesort.cuh, segmented_sort.cuh): plain, obviously correct
// host code, the oracle of the GPU tests and the seed of the CPU backend.
// All of them are stable, as the GPU versions are.
#pragma once

#include <algorithm>
#include <cstddef>
#include <numeric>
#include <utility>
#include <vector>

namespace attu {
namespace ref {

// Stable sort of keys, carrying values.
template <typename key_t, typename val_t, typename comp_t>
void sort_pairs(std::vector<key_t>& keys, std::vector<val_t>& vals, comp_t comp) {
  std::vector<size_t> idx(keys.size());
  std::iota(idx.begin(), idx.end(), size_t(0));
  std::stable_sort(idx.begin(), idx.end(),
                   [&](size_t a, size_t b) { return comp(keys[a], keys[b]); });
  std::vector<key_t> k(keys.size());
  std::vector<val_t> v(vals.size());
  for (size_t i = 0; i < idx.size(); ++i) {
    k[i] = keys[idx[i]];
    if (!vals.empty()) v[i] = vals[idx[i]];
  }
  keys.swap(k);
  vals.swap(v);
}

template <typename key_t, typename comp_t>
void sort_keys(std::vector<key_t>& keys, comp_t comp) {
  std::stable_sort(keys.begin(), keys.end(), comp);
}

// Stable merge: on ties a's items first.
template <typename key_t, typename val_t, typename comp_t>
void merge(const std::vector<key_t>& ak, const std::vector<val_t>& av,
           const std::vector<key_t>& bk, const std::vector<val_t>& bv,
           std::vector<key_t>& ck, std::vector<val_t>& cv, comp_t comp) {
  ck.clear();
  cv.clear();
  size_t i = 0, j = 0;
  bool vals = !av.empty() || !bv.empty();
  while (i < ak.size() || j < bk.size()) {
    bool take_a = j >= bk.size() || (i < ak.size() && !comp(bk[j], ak[i]));
    if (take_a) {
      ck.push_back(ak[i]);
      if (vals) cv.push_back(av[i]);
      ++i;
    } else {
      ck.push_back(bk[j]);
      if (vals) cv.push_back(bv[j]);
      ++j;
    }
  }
}

// Stable partition by one 8-bit digit of the keys' order-preserving bits
// (partition.cuh's radix_partition): items of digit 0 first, each digit's
// items in their input order. bits(k) gives those bits.
template <typename key_t, typename val_t, typename bits_f>
void radix_partition(std::vector<key_t>& keys, std::vector<val_t>& vals, int shift, bits_f bits) {
  std::vector<std::vector<size_t>> by(256);
  for (size_t i = 0; i < keys.size(); ++i) by[(bits(keys[i]) >> shift) & 0xff].push_back(i);
  std::vector<key_t> k;
  std::vector<val_t> v;
  for (auto& d : by)
    for (size_t i : d) {
      k.push_back(keys[i]);
      v.push_back(vals[i]);
    }
  keys.swap(k);
  vals.swap(v);
}

// Segment [a, b) of segment s: items before segments[0] are a segment too.
inline std::vector<std::pair<size_t, size_t>> segment_ranges(const std::vector<int>& segments,
                                                             size_t count) {
  std::vector<std::pair<size_t, size_t>> r;
  size_t prev = 0;
  for (size_t s = 0; s <= segments.size(); ++s) {
    size_t end = s < segments.size() ? size_t(segments[s]) : count;
    if (end > prev) r.emplace_back(prev, end);
    if (end > prev) prev = end;
  }
  return r;
}

// Stable sort within each segment; vals may be empty (keys only).
template <typename key_t, typename val_t, typename comp_t>
void segmented_sort(std::vector<key_t>& keys, std::vector<val_t>& vals,
                    const std::vector<int>& segments, comp_t comp) {
  for (auto [a, b] : segment_ranges(segments, keys.size())) {
    std::vector<size_t> idx(b - a);
    std::iota(idx.begin(), idx.end(), a);
    std::stable_sort(idx.begin(), idx.end(),
                     [&](size_t x, size_t y) { return comp(keys[x], keys[y]); });
    std::vector<key_t> k(b - a);
    std::vector<val_t> v(vals.empty() ? 0 : b - a);
    for (size_t i = 0; i < idx.size(); ++i) {
      k[i] = keys[idx[i]];
      if (!vals.empty()) v[i] = vals[idx[i]];
    }
    std::copy(k.begin(), k.end(), keys.begin() + a);
    if (!vals.empty()) std::copy(v.begin(), v.end(), vals.begin() + a);
  }
}

}  // namespace ref
}  // namespace attu
