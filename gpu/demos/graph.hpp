// graph.hpp: what the bfs demos share: a CSR graph read from a Matrix Market
// file or generated (R-MAT power law), and the CPU breadth-first search that
// checks the GPU's levels.
#pragma once

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <queue>
#include <string>
#include <vector>

namespace demo {

struct csr_t {
  int num_vertices = 0;
  std::vector<int> offsets;  // num_vertices + 1
  std::vector<int> edges;    // neighbour ids
};

// Builds CSR from directed (src, dst) pairs by counting sort.
inline csr_t build_csr(int n, const std::vector<std::pair<int, int>>& pairs) {
  csr_t g;
  g.num_vertices = n;
  g.offsets.assign(n + 1, 0);
  for (auto& p : pairs) ++g.offsets[p.first + 1];
  for (int v = 0; v < n; ++v) g.offsets[v + 1] += g.offsets[v];
  g.edges.resize(pairs.size());
  std::vector<int> fill(g.offsets.begin(), g.offsets.end() - 1);
  for (auto& p : pairs) g.edges[fill[p.first]++] = p.second;
  return g;
}

// Matrix Market coordinate file (pattern/real/integer; general or
// symmetric). Entries are 1-based; a symmetric file stores one triangle, so
// both directions are added. Returns false with a message on bad input.
inline bool read_matrix_market(const char* path, csr_t& g) {
  FILE* f = std::fopen(path, "r");
  if (!f) { std::fprintf(stderr, "cannot open %s\n", path); return false; }
  char line[1024];
  bool symmetric = false, have_size = false;
  long long rows = 0, cols = 0, nnz = 0, line_no = 0;
  std::vector<std::pair<int, int>> pairs;
  while (std::fgets(line, sizeof line, f)) {
    ++line_no;
    if (line[0] == '%') {
      if (line_no == 1 && std::strstr(line, "symmetric")) symmetric = true;
      continue;
    }
    if (!have_size) {
      if (std::sscanf(line, "%lld %lld %lld", &rows, &cols, &nnz) != 3 || rows <= 0 ||
          rows != cols || rows > 0x7ffffffe) {
        std::fprintf(stderr, "%s:%lld: expected 'rows cols nnz' of a square matrix\n", path, line_no);
        std::fclose(f);
        return false;
      }
      have_size = true;
      pairs.reserve(symmetric ? 2 * nnz : nnz);
      continue;
    }
    long long r, c;
    if (std::sscanf(line, "%lld %lld", &r, &c) != 2 || r < 1 || c < 1 || r > rows || c > cols) {
      std::fprintf(stderr, "%s:%lld: bad entry\n", path, line_no);
      std::fclose(f);
      return false;
    }
    pairs.emplace_back(int(r - 1), int(c - 1));
    if (symmetric && r != c) pairs.emplace_back(int(c - 1), int(r - 1));
  }
  std::fclose(f);
  if (!have_size) { std::fprintf(stderr, "%s: no size line\n", path); return false; }
  g = build_csr(int(rows), pairs);
  return true;
}

// R-MAT power-law graph (a=0.57, b=c=0.19): num_edges / 2 undirected edges
// stored in both directions, self loops dropped. Deterministic.
inline csr_t generate_power_law(int log_vertices, long long num_edges) {
  int n = 1 << log_vertices;
  uint64_t s = 0x9e3779b97f4a7c15ull;
  auto next = [&]() {  // xorshift64*
    s ^= s >> 12; s ^= s << 25; s ^= s >> 27;
    return s * 2685821657736338717ull;
  };
  std::vector<std::pair<int, int>> pairs;
  pairs.reserve(num_edges);
  while ((long long)pairs.size() + 2 <= num_edges) {
    int u = 0, v = 0;
    for (int l = 0; l < log_vertices; ++l) {
      uint32_t r = uint32_t(next() >> 40) & 0xffff;  // 16-bit uniform
      int bu = 0, bv = 0;
      if (r < 37356) {}                      // a = 0.57
      else if (r < 49807) bv = 1;           // b = 0.19
      else if (r < 62259) bu = 1;           // c = 0.19
      else { bu = 1; bv = 1; }              // d = 0.05
      u = (u << 1) | bu;
      v = (v << 1) | bv;
    }
    if (u == v) continue;
    pairs.emplace_back(u, v);
    pairs.emplace_back(v, u);
  }
  return build_csr(n, pairs);
}

// Loads argv[1] if given, else the generated 32M-edge graph.
inline bool load_graph(int argc, char** argv, csr_t& g, std::string& name) {
  if (argc > 1) {
    name = argv[1];
    return read_matrix_market(argv[1], g);
  }
  name = "generated R-MAT power-law graph";
  g = generate_power_law(21, 32ll << 20);
  return true;
}

// Level of every vertex from `source` (-1: unreachable).
inline std::vector<int> cpu_bfs(const csr_t& g, int source) {
  std::vector<int> level(g.num_vertices, -1);
  std::queue<int> q;
  level[source] = 0;
  q.push(source);
  while (!q.empty()) {
    int v = q.front();
    q.pop();
    for (int e = g.offsets[v]; e < g.offsets[v + 1]; ++e) {
      int w = g.edges[e];
      if (level[w] < 0) { level[w] = level[v] + 1; q.push(w); }
    }
  }
  return level;
}

}  // namespace demo
