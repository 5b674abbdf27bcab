// bfs3: bit-compressed breadth-first search (seeds/001): bfs2's dynamic work
// creation with visitation kept as one bit per vertex (atomicOr), 32 times
// less memory under atomics, and the ids of newly visited vertices streamed
// out level by level, so they end up ordered by distance from the source.
//
//   bfs3 [graph.mtx]     (no file: a generated power-law graph, 32M edges)
#include "gpu/demos/graph.hpp"
#include "gpu/patterns/patterns.cuh"

namespace ag = attu::gpu;

namespace bfs3d {

struct workload_t {
  int count = 0;
  int num_segments = 0;
  ag::mem_t<int> segments;
  ag::mem_t<int> edge_indices;
};

// Visits the front's edges; streams the new front's vertex ids to
// frontier_vertices; returns how many.
int bfs3(const int* vertices, const int* edges, unsigned* visited_bits, int* frontier_vertices,
         workload_t& wl, ag::context_t& ctx) {
  auto engine = ag::lbs_workcreate(wl.count, wl.segments.data(), wl.num_segments, ctx);
  auto next = engine.upsweep(
      [=] __device__(int index, int seg, int rank, cuda::std::tuple<int> desc) {
        int neighbor = edges[cuda::std::get<0>(desc) + rank];
        unsigned mask = 1u << (31 & neighbor);
        int count = 0;
        if (0 == (mask & atomicOr(visited_bits + neighbor / 32, mask)))
          count = vertices[neighbor + 1] - vertices[neighbor];
        return count;
      },
      cuda::std::make_tuple((const int*)wl.edge_indices.data()));
  ag::mem_t<int> edge_indices(next.num_segments, ctx);
  int* out = edge_indices.data();
  ag::mem_t<int> segments = engine.downsweep(
      [=] __device__(int dest_seg, int index, int seg, int rank, cuda::std::tuple<int> desc) {
        int neighbor = edges[cuda::std::get<0>(desc) + rank];
        out[dest_seg] = vertices[neighbor];
        frontier_vertices[dest_seg] = neighbor;
        return vertices[neighbor + 1] - vertices[neighbor];
      },
      cuda::std::make_tuple((const int*)wl.edge_indices.data()));
  wl.count = next.count;
  wl.num_segments = next.num_segments;
  wl.segments = std::move(segments);
  wl.edge_indices = std::move(edge_indices);
  return wl.num_segments;
}

}  // namespace bfs3d

int main(int argc, char** argv) {
  if (!ag::cuda_device_available()) {
    std::printf("skipped: no CUDA device\n");
    return 77;
  }
  demo::csr_t g;
  std::string name;
  if (!demo::load_graph(argc, argv, g, name)) return 1;
  try {
    ag::context_t ctx;
    int n = g.num_vertices;
    std::printf("%s\nNUM VERTICES = %d    NUM_EDGES = %zu\n", name.c_str(), n, g.edges.size());
    auto vertices = ag::to_mem(g.offsets, ctx);
    auto edges = ag::to_mem(g.edges, ctx);
    std::vector<unsigned> bits((n + 31) / 32, 0);
    bits[0] = 1;  // the source is visited
    auto visited = ag::to_mem(bits, ctx);
    ag::mem_t<int> frontier(n, ctx);  // every reachable vertex, by level
    const int source = 0;  // level 0 of the streamed frontier
    ATTU_CUDA_CHECK(cudaMemcpyAsync(frontier.data(), &source, sizeof source,
                                    cudaMemcpyHostToDevice, ctx.stream()));
    ctx.synchronize();
    bfs3d::workload_t wl;
    wl.count = g.offsets[1] - g.offsets[0];
    wl.num_segments = 1;
    wl.segments = ag::to_mem(std::vector<int>{0}, ctx);
    wl.edge_indices = ag::to_mem(std::vector<int>{g.offsets[0]}, ctx);
    std::vector<int> level_start{0, 1};
    ctx.timer_begin();
    for (int level = 0;; ++level) {
      std::printf("Front for level %d has %d vertices and %d edges.\n", level, wl.num_segments,
                  wl.count);
      if (!wl.count) break;
      int added = bfs3d::bfs3(vertices.data(), edges.data(), visited.data(),
                              frontier.data() + level_start.back(), wl, ctx);
      level_start.push_back(level_start.back() + added);
    }
    double ms = ctx.timer_end();
    // Levels from the streamed frontier, checked against the CPU BFS.
    auto order = ag::from_mem(frontier);
    std::vector<int> got(n, -1);
    for (size_t l = 0; l + 1 < level_start.size(); ++l)
      for (int i = level_start[l]; i < level_start[l + 1]; ++i) got[order[i]] = int(l);
    bool ok = got == demo::cpu_bfs(g, 0);
    std::printf("levels %s the CPU BFS; %.3f ms (%.2f G edges/s)\n", ok ? "match" : "DIFFER from",
                ms, g.edges.size() / ms / 1e6);
    return ok ? 0 : 1;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "bfs3: %s\n", e.what());
    return 1;
  }
}
