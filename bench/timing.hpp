// The native benchmarks' clock: best microseconds per call, shared by bench/*_native.cpp.
#pragma once

#include <algorithm>
#include <chrono>
#include <vector>

namespace bench {

inline volatile double sink;  // results land here, so the optimizer keeps the work

// Best microseconds per call of fn over 7 runs, each long enough (~100 ms) to time well; the
// machine is shared, so the fastest run is the best estimate of the work itself.
template <typename Fn>
double microseconds_per_call(Fn&& fn) {
  using clock = std::chrono::steady_clock;
  long calls = 1;
  for (;;) {  // calibrate
    const auto start = clock::now();
    for (long i = 0; i < calls; ++i) fn();
    if (std::chrono::duration<double>(clock::now() - start).count() > 0.1) break;
    calls *= 2;
  }
  std::vector<double> runs;
  for (int r = 0; r < 7; ++r) {
    const auto start = clock::now();
    for (long i = 0; i < calls; ++i) fn();
    runs.push_back(std::chrono::duration<double, std::micro>(clock::now() - start).count() / calls);
  }
  return *std::min_element(runs.begin(), runs.end());
}

}  // namespace bench
