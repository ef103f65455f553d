// Native side of the attention benchmark (bench/run-attention runs it next to
// bench/attention_wasm.mjs and prints the ratios). Times the same three workloads on the same
// seeded inputs as the WebAssembly side, calling the core directly:
//   soft_lookup   attention, 1 query x 5 keys, d = 2 (the lesson's soft-lookup widget)
//   self_12x64    self-attention on 12 tokens of width 64
//   mha_10x64     4-head multi-head attention forward on 10 tokens of width 64 (layer built once)
// Prints one JSON object: microseconds per call, the best of 7 timed runs each (the machine is
// shared, so the fastest run is the best estimate of the work itself).
// Leaves out: anything about the CLI or I/O beyond that one line.
#include "attn/attention.hpp"
#include "attn/multihead.hpp"
#include "attn/random.hpp"

#include "timing.hpp"

#include <cstdio>
#include <vector>

int main() {
  using attn::Matrix;
  // The same inputs as bench/attention_wasm.mjs draws through the facade.
  Matrix query(1, 2), keys(5, 2), values(5, 2);
  query << 1.0f, 0.5f;
  keys << 1, 0, 0.7f, 0.7f, 0, 1, -0.7f, 0.7f, -1, 0;
  values << 1, 0, 0, 1, -1, 0, 0, -1, 0.5f, 0.5f;
  attn::Random rng(2026);
  const Matrix x12 = rng.normal_matrix(12, 64);
  const Matrix x10 = rng.normal_matrix(10, 64);
  attn::MultiHeadAttention layer(64, 4);
  attn::Random init(7);
  layer.init_glorot_uniform(init);

  const double soft = bench::microseconds_per_call([&] { bench::sink = attn::attention(query, keys, values).output(0, 0); });
  const double self = bench::microseconds_per_call([&] { bench::sink = attn::attention(x12, x12, x12).output(0, 0); });
  const double mha = bench::microseconds_per_call([&] { bench::sink = layer.forward(x10, x10, x10).output(0, 0); });
  std::printf("{\"soft_lookup\": %.4f, \"self_12x64\": %.4f, \"mha_10x64\": %.4f}\n", soft, self, mha);
  return 0;
}
