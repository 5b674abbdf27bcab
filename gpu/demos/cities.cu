// cities: the remoteness query of seeds/001 ("Attu Station, AK").
//
//   cities [data/statecity.csv]
//
// For every place, the three closest places in the same state (great-circle
// distance); then, per state, the place whose third-closest neighbour is
// farthest. Prints one line per state, in file order, to stdout (the table of
// ../shared/data/cities_expected.txt); the timing goes to stderr.
//
// Patterns: scan of the per-state counts (state segments), interval_expand
// (each city -> the first city of its state), transform_lbs + scan (the
// distance work per city), lbs_segreduce (expands the ~25M city pairs and
// folds them into the 3 best per city without materialising them), and
// segmented_sort_indices (sorts each state's cities by third distance).
#include "gpu/patterns/patterns.cuh"
#include "gpu/patterns/segmented_sort.cuh"

#include <cfloat>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

// Unroll in the device pass only: the host compiler of these __host__
// __device__ helpers does not know the pragma (-Wunknown-pragmas).
#ifdef __CUDA_ARCH__
#define CITIES_UNROLL _Pragma("unroll")
#else
#define CITIES_UNROLL
#endif

namespace ag = attu::gpu;

namespace cities {

constexpr int kBest = 3;

struct term_t {
  float score;
  int index;
};

// The kBest smallest (score, index) terms seen, ascending.
struct best_t {
  term_t terms[kBest];
};

__host__ __device__ inline best_t make_best(float score, int index) {
  best_t b;
CITIES_UNROLL
  for (int i = 0; i < kBest; ++i) b.terms[i] = term_t{FLT_MAX, -1};
  b.terms[0] = term_t{score, index};
  return b;
}

// Merges two ascending lists, keeping the kBest smallest. Associative (and
// commutative up to ties); compile-time indices only, so nothing spills.
struct combine_t {
  __host__ __device__ best_t operator()(best_t a, best_t b) const {
    best_t c;
CITIES_UNROLL
    for (int i = 0; i < kBest; ++i) {
      bool take_a = !(b.terms[0].score < a.terms[0].score);
      c.terms[i] = take_a ? a.terms[0] : b.terms[0];
      // Shift the list we took from forward by one.
CITIES_UNROLL
      for (int j = 0; j + 1 < kBest; ++j) {
        if (take_a) a.terms[j] = a.terms[j + 1];
        else b.terms[j] = b.terms[j + 1];
      }
      if (take_a) a.terms[kBest - 1] = term_t{FLT_MAX, -1};
      else b.terms[kBest - 1] = term_t{FLT_MAX, -1};
    }
    return c;
  }
};

__host__ __device__ inline float sq(float x) { return x * x; }
__host__ __device__ inline float deg_to_rad(float d) { return float(M_PI / 180) * d; }
__host__ __device__ inline float hav(float t) { return sq(sinf(t / 2)); }

// Haversine great-circle distance in miles.
__host__ __device__ inline float earth_distance(float lat_a, float lon_a, float lat_b,
                                                float lon_b) {
  lat_a = deg_to_rad(lat_a);
  lat_b = deg_to_rad(lat_b);
  lon_a = deg_to_rad(lon_a);
  lon_b = deg_to_rad(lon_b);
  const float earth_radius = 3958.76f;
  float arg = hav(lat_b - lat_a) + cosf(lat_a) * cosf(lat_b) * hav(lon_b - lon_a);
  return 2 * asinf(sqrtf(arg)) * earth_radius;
}

struct db_t {
  std::vector<std::string> states;      // in file order
  std::vector<int> cities_per_state;
  std::vector<std::string> names;
  std::vector<float2> pos;              // x = longitude, y = latitude
};

bool load(const char* path, db_t& db) {
  FILE* f = std::fopen(path, "r");
  if (!f) {
    std::fprintf(stderr, "cities: cannot open %s\n", path);
    return false;
  }
  char line[1024];
  bool header = true;
  int line_no = 0;
  while (std::fgets(line, sizeof line, f)) {
    ++line_no;
    if (header) { header = false; continue; }
    std::vector<std::string> fields;
    std::string cur;
    for (char* p = line; *p && *p != '\n' && *p != '\r'; ++p) {
      if (*p == ',') { fields.push_back(cur); cur.clear(); }
      else cur += *p;
    }
    fields.push_back(cur);
    if (fields.size() < 8) {
      std::fprintf(stderr, "cities: %s:%d: expected 8 fields, got %zu\n", path, line_no,
                   fields.size());
      std::fclose(f);
      return false;
    }
    if (db.states.empty() || db.states.back() != fields[0]) {
      db.states.push_back(fields[0]);
      db.cities_per_state.push_back(0);
    }
    ++db.cities_per_state.back();
    db.names.push_back(fields[2]);
    db.pos.push_back(make_float2(std::strtof(fields[7].c_str(), nullptr),
                                 std::strtof(fields[6].c_str(), nullptr)));
  }
  std::fclose(f);
  return true;
}

// Runs the query; returns, per city, its best terms sorted within each state
// by third distance, with the gather index of each sorted slot.
void compute(const db_t& db, ag::context_t& ctx, std::vector<best_t>& best,
             std::vector<int>& order, std::vector<int>& state_start) {
  int num_states = (int)db.states.size();
  int num_cities = (int)db.names.size();
  auto cities_per_state = ag::to_mem(db.cities_per_state, ctx);
  auto city_pos = ag::to_mem(db.pos, ctx);

  // 1: state segments = exclusive scan of the counts.
  ag::mem_t<int> state_segments(num_states, ctx);
  ag::scan(cities_per_state.data(), num_states, state_segments.data(), ag::plus_t<int>(),
           (int*)nullptr, ctx);

  // 2: city -> index of the first city of its state.
  ag::mem_t<int> city_to_city(num_cities, ctx);
  ag::interval_expand(state_segments.data(), num_cities, state_segments.data(), num_states,
                      city_to_city.data(), ctx);

  // 3: per city, the number of other cities in its state; scanned, the
  //    segments of the distance work.
  ag::mem_t<int> dist_segments(num_cities, ctx);
  int* ds = dist_segments.data();
  ag::transform_lbs(
      [=] __device__(int index, int seg, int rank, cuda::std::tuple<int> count) {
        ds[index] = cuda::std::get<0>(count) - 1;
      },
      num_cities, state_segments.data(), num_states,
      cuda::std::make_tuple((const int*)cities_per_state.data()), ctx);
  ag::mem_t<int> work(1, ctx);
  ag::scan(ds, num_cities, ds, ag::plus_t<int>(), work.data(), ctx);
  int num_work = ag::from_mem(work)[0];

  // 4: every (city, other city of its state) distance, folded into the 3
  //    best per city.
  const float2* pos = city_pos.data();
  auto score = [=] __device__(int index, int city_i, int rank,
                              cuda::std::tuple<int, float2> desc) {
    float2 pi = cuda::std::get<1>(desc);
    int city_j = cuda::std::get<0>(desc) + rank;
    if (city_j >= city_i) ++city_j;  // skip the city itself
    float2 pj = pos[city_j];
    return make_best(earth_distance(pi.y, pi.x, pj.y, pj.x), city_j);
  };
  ag::mem_t<best_t> results(num_cities, ctx);
  // best_t is 24 bytes: a smaller grain than the default keeps the tile's
  // shared memory in bounds (as the seed does).
  ag::lbs_segreduce<ag::launch_params_t<128, 3>>(score, num_work, ds, num_cities,
                    cuda::std::make_tuple((const int*)city_to_city.data(), pos),
                    results.data(), combine_t(), make_best(FLT_MAX, -1), ctx);

  // 5: within each state, sort by third-closest distance.
  ag::mem_t<float> third(num_cities, ctx);
  float* th = third.data();
  const best_t* rs = results.data();
  ag::transform([=] __device__(int i) { th[i] = rs[i].terms[kBest - 1].score; }, num_cities, ctx);
  ag::mem_t<int> indices(num_cities, ctx);
  ag::segmented_sort_indices(th, indices.data(), (long long)num_cities, state_segments.data(),
                             num_states, ag::less_t<float>(), ctx);

  best = ag::from_mem(results);
  order = ag::from_mem(indices);
  state_start = ag::from_mem(state_segments);
}

}  // namespace cities

int main(int argc, char** argv) {
  using namespace cities;
  const char* path = argc > 1 ? argv[1] : "data/statecity.csv";
  if (!ag::cuda_device_available()) {
    std::printf("skipped: no CUDA device\n");
    return 77;
  }
  db_t db;
  if (!load(path, db)) return 1;
  try {
    ag::context_t ctx;
    std::vector<best_t> best;
    std::vector<int> order, state_start;
    compute(db, ctx, best, order, state_start);  // warm-up and the answer
    // Time the query on its own (median of 9).
    std::vector<double> ms;
    for (int r = 0; r < 9; ++r) {
      std::vector<best_t> b2;
      std::vector<int> o2, s2;
      ctx.timer_begin();
      compute(db, ctx, b2, o2, s2);
      ms.push_back(ctx.timer_end());
    }
    std::sort(ms.begin(), ms.end());
    std::fprintf(stderr, "%zu cities from %zu states; query %.3f ms (median of 9, with copies)\n",
                 db.names.size(), db.states.size(), ms[ms.size() / 2]);

    for (size_t s = 0; s < db.states.size(); ++s) {
      int last = state_start[s] + db.cities_per_state[s] - 1;
      int city = order[last];  // the most remote place of the state
      std::printf("%2s %15.15s", db.states[s].c_str(), db.names[city].c_str());
      for (int t = 0; t < kBest; ++t) {
        const term_t& term = best[city].terms[t];
        if (term.index < 0) continue;
        std::printf(" %15.12s: %6.2f", db.names[term.index].c_str(), term.score);
      }
      std::printf("\n");
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "cities: %s\n", e.what());
    return 1;
  }
  return 0;
}
