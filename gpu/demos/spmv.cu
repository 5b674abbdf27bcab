// spmv: sparse matrix times dense vector, y = A x, with the spmv pattern
// (transform_segreduce over CSR rows, seeds/001).
//
//   spmv [rows] [mean nonzeros per row]       (default 4M rows, 16 per row)
//
// Row lengths are irregular (uniform in [0, 2*mean], so some rows are empty
// and get 0). Checks y against a double-precision CPU product and prints the
// time and the bandwidth.
#include "gpu/patterns/patterns.cuh"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <vector>

namespace ag = attu::gpu;

int main(int argc, char** argv) {
  if (!ag::cuda_device_available()) {
    std::printf("skipped: no CUDA device\n");
    return 77;
  }
  int rows = argc > 1 ? std::atoi(argv[1]) : (4 << 20);
  int mean = argc > 2 ? std::atoi(argv[2]) : 16;
  if (rows <= 0 || mean <= 0) {
    std::fprintf(stderr, "spmv: rows and mean must be positive\n");
    return 1;
  }
  std::mt19937 rng(7);
  std::uniform_int_distribution<int> len(0, 2 * mean);
  std::uniform_real_distribution<float> val(-1.0f, 1.0f);
  std::vector<int> offsets(rows);
  std::vector<int> cols;
  std::vector<float> mat;
  for (int r = 0; r < rows; ++r) {
    offsets[r] = (int)cols.size();
    int n = len(rng);
    for (int i = 0; i < n; ++i) {
      cols.push_back(int(rng() % rows));
      float v = val(rng);
      mat.push_back(v == 0 ? 0.5f : v);
    }
  }
  std::vector<float> x(rows);
  for (auto& v : x) v = val(rng);
  int nnz = (int)cols.size();
  try {
    ag::context_t ctx;
    auto d_mat = ag::to_mem(mat, ctx);
    auto d_cols = ag::to_mem(cols, ctx);
    auto d_x = ag::to_mem(x, ctx);
    auto d_off = ag::to_mem(offsets, ctx);
    ag::mem_t<float> d_y(rows, ctx);
    ag::spmv(d_mat.data(), d_cols.data(), d_x.data(), nnz, d_off.data(), rows, d_y.data(), ctx);
    std::vector<double> ms;
    for (int r = 0; r < 9; ++r) {
      ctx.timer_begin();
      ag::spmv(d_mat.data(), d_cols.data(), d_x.data(), nnz, d_off.data(), rows, d_y.data(), ctx);
      ms.push_back(ctx.timer_end());
    }
    std::sort(ms.begin(), ms.end());
    auto y = ag::from_mem(d_y);
    double err = 0, norm = 0;
    for (int r = 0; r < rows; ++r) {
      int end = r + 1 < rows ? offsets[r + 1] : nnz;
      double s = 0;
      for (int i = offsets[r]; i < end; ++i) s += (double)mat[i] * x[cols[i]];
      err += (y[r] - s) * (y[r] - s);
      norm += s * s;
    }
    double rel = std::sqrt(err / (norm > 0 ? norm : 1));
    double t = ms[ms.size() / 2];
    double bytes = nnz * 12.0 + rows * 8.0;  // values, columns, gathered x; offsets, y
    std::printf("spmv: %d rows, %d nonzeros: %.3f ms, %.1f GB/s, relative error %.2e %s\n", rows,
                nnz, t, bytes / t / 1e6, rel, rel < 1e-5 ? "(ok)" : "(TOO LARGE)");
    return rel < 1e-5 ? 0 : 1;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "spmv: %s\n", e.what());
    return 1;
  }
}
