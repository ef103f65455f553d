// Native side of the normals benchmark (bench/run-normals runs it next to
// bench/normals_wasm.mjs and prints the ratios). Times what issue 4's 50 ms goal depends on:
//   normal_ns        attn::Random::normal(), nanoseconds per draw (1,632,000 draws per call:
//                    what the default scale sweep draws)
//   normal_matrix_ns attn::Random::normal_matrix(12, 64), nanoseconds per element
//   sweep_ms         attn::experiments::scale_sweep() at its defaults (d_k 4, 16, 64, 256,
//                    200 draws, 12 tokens), milliseconds per call
// Prints one JSON object; each figure is the best of 7 timed runs (the machine is shared, so
// the fastest run is the best estimate of the work itself).
// Leaves out: the browser (tests/wasm/experiments-chromium.test.mjs times the sweep there).
#include "attn/experiments/scale_sweep.hpp"
#include "attn/random.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <vector>

namespace {

volatile double sink;  // keeps the optimizer from dropping the work

// Best microseconds per call of fn over 7 runs, each long enough (~100 ms) to time well.
template <typename Fn>
double microseconds_per_call(Fn&& fn) {
  using clock = std::chrono::steady_clock;
  long calls = 1;
  for (;;) {  // calibrate
    const auto start = clock::now();
    for (long i = 0; i < calls; ++i) fn();
    const double seconds = std::chrono::duration<double>(clock::now() - start).count();
    if (seconds > 0.1) break;
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

}  // namespace

int main() {
  // The default sweep draws 200 draws * 2 matrices * 12 tokens * (4 + 16 + 64 + 256) normals.
  constexpr long kSweepNormals = 200L * 2 * 12 * (4 + 16 + 64 + 256);
  attn::Random rng(2026);
  const double normal_us = microseconds_per_call([&] {
    double sum = 0;
    for (long i = 0; i < kSweepNormals; ++i) sum += rng.normal();
    sink = sum;
  });
  const double matrix_us = microseconds_per_call([&] { sink = rng.normal_matrix(12, 64)(0, 0); });
  const double sweep_us = microseconds_per_call(
      [&] { sink = attn::experiments::scale_sweep().rows[0].scaled.entropy.mean; });
  std::printf("{\"normal_ns\": %.4f, \"normal_matrix_ns\": %.4f, \"sweep_ms\": %.4f}\n",
              normal_us * 1000.0 / kSweepNormals, matrix_us * 1000.0 / (12 * 64), sweep_us / 1000.0);
  return 0;
}
