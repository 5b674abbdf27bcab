// bfs2: breadth-first search by dynamic work creation (lbs_workcreate,
// seeds/001 "Improved breadth-first search").
//
//   bfs2 [graph.mtx]     (no file: a generated power-law graph, 32M edges)
//
// The upsweep claims a neighbour with atomicCAS and, when it wins, asks for
// that vertex's out-edges as new work; the downsweep writes where each new
// segment's edges start. No pass costs more than the front: nothing scans
// all vertices. Prints each level's front (vertices and edges), checks the
// levels against a CPU BFS, and times the search.
#include "gpu/demos/graph.hpp"
#include "gpu/patterns/patterns.cuh"

namespace ag = attu::gpu;

namespace bfs2d {

struct workload_t {
  int count = 0;               // edges to explore
  int num_segments = 0;        // vertices on the front
  ag::mem_t<int> segments;     // scan of their out-degrees
  ag::mem_t<int> edge_indices; // where each one's edges start
};

void bfs2(const int* vertices, const int* edges, int* values, int cur, workload_t& wl,
          ag::context_t& ctx) {
  auto engine = ag::lbs_workcreate(wl.count, wl.segments.data(), wl.num_segments, ctx);
  auto next = engine.upsweep(
      [=] __device__(int index, int seg, int rank, cuda::std::tuple<int> desc) {
        int neighbor = edges[cuda::std::get<0>(desc) + rank];
        int count = 0;
        if (-1 == atomicCAS(values + neighbor, -1, cur + 1))
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
        return vertices[neighbor + 1] - vertices[neighbor];
      },
      cuda::std::make_tuple((const int*)wl.edge_indices.data()));
  wl.count = next.count;
  wl.num_segments = next.num_segments;
  wl.segments = std::move(segments);
  wl.edge_indices = std::move(edge_indices);
}

}  // namespace bfs2d

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
    // The first front: the source alone.
    bfs2d::workload_t wl;
    wl.count = g.offsets[1] - g.offsets[0];
    wl.num_segments = 1;
    wl.segments = ag::to_mem(std::vector<int>{0}, ctx);
    wl.edge_indices = ag::to_mem(std::vector<int>{g.offsets[0]}, ctx);
    ctx.timer_begin();
    for (int level = 0;; ++level) {
      std::printf("Front for level %d has %d vertices and %d edges.\n", level, wl.num_segments,
                  wl.count);
      if (!wl.count) break;
      bfs2d::bfs2(vertices.data(), edges.data(), values.data(), level, wl, ctx);
    }
    double ms = ctx.timer_end();
    auto got = ag::from_mem(values);
    bool ok = got == demo::cpu_bfs(g, 0);
    std::printf("levels %s the CPU BFS; %.3f ms (%.2f G edges/s)\n", ok ? "match" : "DIFFER from",
                ms, g.edges.size() / ms / 1e6);
    return ok ? 0 : 1;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "bfs2: %s\n", e.what());
    return 1;
  }
}
