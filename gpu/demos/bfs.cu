// bfs: breadth-first search with transform_scan + transform_lbs (seeds/001).
//
//   bfs [graph.mtx]      (no file: a generated power-law graph, 32M edges)
//
// Each level scans, over all vertices, the out-degree of those on the front
// (0 for the others), then transform_lbs visits every out-edge of the front
// and claims unvisited neighbours with atomicCAS. Prints each level's front
// (edges explored), checks the levels against a CPU BFS, and times the search.
#include "gpu/demos/graph.hpp"
#include "gpu/patterns/patterns.cuh"

namespace ag = attu::gpu;

namespace bfs1 {

// Marks unvisited neighbours of vertices at level cur as cur + 1; returns the
// number of edges explored (the front).
int bfs_level(const int* vertices, int num_vertices, const int* edges, int* values, int cur,
              ag::mem_t<int>& segments, ag::mem_t<int>& count, ag::context_t& ctx) {
  ag::transform_scan(
      [=] __device__(int v) {
        return values[v] == cur ? vertices[v + 1] - vertices[v] : 0;
      },
      num_vertices, segments.data(), ag::plus_t<int>(), count.data(), ctx);
  int front = ag::from_mem(count)[0];
  if (!front) return 0;
  ag::transform_lbs(
      [=] __device__(int index, int seg, int rank, cuda::std::tuple<int> v) {
        int neighbor = edges[cuda::std::get<0>(v) + rank];
        atomicCAS(values + neighbor, -1, cur + 1);
      },
      front, segments.data(), num_vertices, cuda::std::make_tuple(vertices), ctx);
  return front;
}

}  // namespace bfs1

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
    std::vector<int> init(n, -1);
    init[0] = 0;
    auto values = ag::to_mem(init, ctx);
    ag::mem_t<int> segments(n, ctx), count(1, ctx);
    ctx.timer_begin();
    for (int level = 0;; ++level) {
      int front = bfs1::bfs_level(vertices.data(), n, edges.data(), values.data(), level,
                                  segments, count, ctx);
      std::printf("Front for level %d has %d edges.\n", level, front);
      if (!front) break;
    }
    double ms = ctx.timer_end();
    auto got = ag::from_mem(values);
    bool ok = got == demo::cpu_bfs(g, 0);
    std::printf("levels %s the CPU BFS; %.3f ms (%.2f G edges/s)\n", ok ? "match" : "DIFFER from",
                ms, g.edges.size() / ms / 1e6);
    return ok ? 0 : 1;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "bfs: %s\n", e.what());
    return 1;
  }
}
