// interval_move: batched copies with transform_lbs (seeds/001): interval_expand
// fills each segment of the output with one value per segment; interval_move
// copies, for each segment, a run from its gather offset to its scatter
// offset. Prints a small example of each, then checks a large random
// instance (a permutation of runs) against the CPU and prints its bandwidth.
#include "gpu/patterns/patterns.cuh"

#include <algorithm>
#include <cstdio>
#include <numeric>
#include <random>
#include <vector>

namespace ag = attu::gpu;

int main() {
  if (!ag::cuda_device_available()) {
    std::printf("skipped: no CUDA device\n");
    return 77;
  }
  try {
    ag::context_t ctx;
    // interval_expand: values 10, 20, 30 over segment lengths 3, 0, 4.
    {
      std::vector<int> values = {10, 20, 30}, segs = {0, 3, 3};
      auto dv = ag::to_mem(values, ctx), ds = ag::to_mem(segs, ctx);
      ag::mem_t<int> out(7, ctx);
      ag::interval_expand(dv.data(), 7, ds.data(), 3, out.data(), ctx);
      std::printf("interval_expand values {10, 20, 30}, lengths {3, 0, 4}:");
      for (int v : ag::from_mem(out)) std::printf(" %d", v);
      std::printf("\n");
    }
    // interval_move: runs of "abcdefgh" moved: [5,8) -> 0, [0,2) -> 3, [2,5) -> 5.
    {
      std::vector<int> input = {'a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'};
      std::vector<int> segs = {0, 3, 5}, gather = {5, 0, 2}, scatter = {0, 3, 5};
      auto di = ag::to_mem(input, ctx), ds = ag::to_mem(segs, ctx);
      auto dg = ag::to_mem(gather, ctx), dsc = ag::to_mem(scatter, ctx);
      ag::mem_t<int> out(8, ctx);
      ag::interval_move(di.data(), 8, ds.data(), 3, dsc.data(), dg.data(), out.data(), ctx);
      std::printf("interval_move \"abcdefgh\" runs [5,8)->0 [0,2)->3 [2,5)->5: \"");
      for (int v : ag::from_mem(out)) std::printf("%c", v);
      std::printf("\"\n");
    }
    // A large instance: 64M items in runs of mean length 100, shuffled.
    int n = 64 << 20;
    std::mt19937 rng(3);
    std::uniform_int_distribution<int> len(1, 199);
    std::vector<int> starts;
    for (int p = 0; p < n; p += len(rng)) starts.push_back(p);
    int num = (int)starts.size();
    std::vector<int> lens(num);
    for (int s = 0; s < num; ++s) lens[s] = (s + 1 < num ? starts[s + 1] : n) - starts[s];
    std::vector<int> perm(num);
    std::iota(perm.begin(), perm.end(), 0);
    std::shuffle(perm.begin(), perm.end(), rng);
    // Output segment s (length lens[perm[s]]) is input run perm[s].
    std::vector<int> segs(num), gather(num), scatter(num);
    int pos = 0;
    for (int s = 0; s < num; ++s) {
      segs[s] = pos;
      scatter[s] = pos;
      gather[s] = starts[perm[s]];
      pos += lens[perm[s]];
    }
    std::vector<int> input(n);
    for (int i = 0; i < n; ++i) input[i] = i * 7 + 1;
    auto di = ag::to_mem(input, ctx), ds = ag::to_mem(segs, ctx);
    auto dg = ag::to_mem(gather, ctx), dsc = ag::to_mem(scatter, ctx);
    ag::mem_t<int> out(n, ctx);
    out.memset(0xff);
    std::vector<double> ms;
    for (int r = 0; r < 8; ++r) {
      ctx.timer_begin();
      ag::interval_move(di.data(), n, ds.data(), num, dsc.data(), dg.data(), out.data(), ctx);
      ms.push_back(ctx.timer_end());
    }
    std::sort(ms.begin(), ms.end());
    auto got = ag::from_mem(out);
    bool ok = true;
    for (int s = 0; s < num && ok; ++s)
      for (int k = 0; k < lens[perm[s]]; ++k)
        if (got[scatter[s] + k] != input[gather[s] + k]) { ok = false; break; }
    double t = ms[ms.size() / 2];
    std::printf("interval_move %d items in %d runs: %.3f ms, %.0f GB/s, %s\n", n, num, t,
                (8.0 * n + 12.0 * num) / t / 1e6, ok ? "matches the CPU" : "DIFFERS from the CPU");
    return ok ? 0 : 1;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "interval_move: %s\n", e.what());
    return 1;
  }
}
