// join: the relational join of seeds/001 (kitten / zebra).
//
// Table A and table B are sorted arrays of TEXT keys. As the engine does, the
// keys are dictionary-encoded with one sorted dictionary, so the join runs on
// int codes: inner_join (sorted_search lower and upper bounds, a scan of the
// match counts, transform_lbs emitting (A index, B index) pairs). Prints the
// two tables and the inner-join table, then checks it against a nested loop.
#include "gpu/patterns/patterns.cuh"

#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

namespace ag = attu::gpu;

int main() {
  if (!ag::cuda_device_available()) {
    std::printf("skipped: no CUDA device\n");
    return 77;
  }
  std::vector<std::string> a = {"ape", "ape", "kitten", "kitten", "kitten", "zebra"};
  std::vector<std::string> b = {"chicken", "cow", "goat", "kitten", "kitten", "tiger", "zebra"};
  // One sorted dictionary for both columns: code order is string order.
  std::vector<std::string> dict(a);
  dict.insert(dict.end(), b.begin(), b.end());
  std::sort(dict.begin(), dict.end());
  dict.erase(std::unique(dict.begin(), dict.end()), dict.end());
  auto code = [&](const std::string& s) {
    return int(std::lower_bound(dict.begin(), dict.end(), s) - dict.begin());
  };
  std::vector<int> ac, bc;
  for (auto& s : a) ac.push_back(code(s));
  for (auto& s : b) bc.push_back(code(s));

  try {
    ag::context_t ctx;
    auto da = ag::to_mem(ac, ctx);
    auto db = ag::to_mem(bc, ctx);
    auto joined = ag::inner_join(da.data(), (int)ac.size(), db.data(), (int)bc.size(),
                                 ag::less_t<int>(), ctx);
    std::vector<int2> pairs = ag::from_mem(joined);

    std::printf("| index | table A | table B |\n|---|---|---|\n");
    for (size_t i = 0; i < std::max(a.size(), b.size()); ++i)
      std::printf("| %zu | %s | %s |\n", i, i < a.size() ? a[i].c_str() : "",
                  i < b.size() ? b[i].c_str() : "");
    std::printf("\ninner join table:\n\n| index | A index | A key | B index | B key |\n|---|---|---|---|---|\n");
    // "(k)": the occurrence of the key within its table.
    auto occurrence = [](const std::vector<std::string>& t, int i) {
      int k = 0;
      while (i - 1 - k >= 0 && t[i - 1 - k] == t[i]) ++k;
      return k;
    };
    for (size_t i = 0; i < pairs.size(); ++i) {
      int ai = pairs[i].x, bi = pairs[i].y;
      std::printf("| %zu | %d | %s (%d) | %d | %s (%d) |\n", i, ai, a[ai].c_str(),
                  occurrence(a, ai), bi, b[bi].c_str(), occurrence(b, bi));
    }
    std::vector<int2> expect;
    for (int i = 0; i < (int)a.size(); ++i)
      for (int j = 0; j < (int)b.size(); ++j)
        if (a[i] == b[j]) expect.push_back(make_int2(i, j));
    bool ok = expect.size() == pairs.size();
    for (size_t i = 0; ok && i < pairs.size(); ++i)
      ok = pairs[i].x == expect[i].x && pairs[i].y == expect[i].y;
    std::printf("\n%s\n", ok ? "join matches the nested loop" : "join DIFFERS from the nested loop");
    return ok ? 0 : 1;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "join: %s\n", e.what());
    return 1;
  }
}
