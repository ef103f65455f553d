// Native side of the attention benchmark (bench/run-attention runs it next to
// bench/attention_wasm.mjs and prints the ratios): the workloads of attention_workloads.hpp,
// calling the core directly.
// Prints one JSON object: microseconds per call, the best of 7 timed runs each (the machine is
// shared, so the fastest run is the best estimate of the work itself), and `build`, the compiler
// and flags of the attn_core library it calls (the one the CLI links).
// Leaves out: anything about the CLI or I/O beyond that one line.
#include "attention_workloads.hpp"
#include "core_build_flags.hpp"
#include "timing.hpp"

#include <cstdio>

int main() {
  const bench::AttentionWorkloads w;
  const double soft = bench::microseconds_per_call([&] { bench::sink = w.soft_lookup(); });
  const double self = bench::microseconds_per_call([&] { bench::sink = w.self_12x64(); });
  const double mha = bench::microseconds_per_call([&] { bench::sink = w.mha_10x64(); });
  std::printf("{\"soft_lookup\": %.4f, \"self_12x64\": %.4f, \"mha_10x64\": %.4f, \"build\": \"%s\"}\n", soft, self,
              mha, ATTN_CORE_BUILD_FLAGS);
  return 0;
}
