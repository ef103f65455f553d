// Native side of the normals benchmark (bench/run-normals runs it next to
// bench/normals_wasm.mjs and prints the ratios). Times what the default scale sweep's goal in
// Chromium, under 50 ms (bench/sweep_chromium.mjs), depends on:
//   normal_ns        attn::Random::normal(), nanoseconds per draw (1,632,000 draws per call:
//                    what the default scale sweep draws)
//   normal_matrix_ns attn::Random::normal_matrix(12, 64), nanoseconds per element
//   sweep_ms         attn::experiments::scale_sweep() at its defaults (d_k 4, 16, 64, 256,
//                    200 draws, 12 tokens), milliseconds per call
// Prints one JSON object; each figure is the best of 7 timed runs (the machine is shared, so
// the fastest run is the best estimate of the work itself).
// Leaves out: the browser (bench/sweep_chromium.mjs times the sweep there).
#include "attn/experiments/scale_sweep.hpp"
#include "attn/random.hpp"

#include "timing.hpp"

#include <cstdio>
#include <vector>

int main() {
  // The default sweep draws 200 draws * 2 matrices * 12 tokens * (4 + 16 + 64 + 256) normals.
  constexpr long kSweepNormals = 200L * 2 * 12 * (4 + 16 + 64 + 256);
  attn::Random rng(2026);
  const double normal_us = bench::microseconds_per_call([&] {
    double sum = 0;
    for (long i = 0; i < kSweepNormals; ++i) sum += rng.normal();
    bench::sink = sum;
  });
  const double matrix_us = bench::microseconds_per_call([&] { bench::sink = rng.normal_matrix(12, 64)(0, 0); });
  const double sweep_us =
      bench::microseconds_per_call([&] { bench::sink = attn::experiments::scale_sweep().rows[0].scaled.entropy.mean; });
  std::printf("{\"normal_ns\": %.4f, \"normal_matrix_ns\": %.4f, \"sweep_ms\": %.4f}\n",
              normal_us * 1000.0 / kSweepNormals, matrix_us * 1000.0 / (12 * 64), sweep_us / 1000.0);
  return 0;
}
