// Native side of the probe benchmark (bench/probe_browser.mjs runs it and prints the ratios):
// one forward pass of a recorded cue model on one sequence, as the lesson's probe asks it, in
// microseconds (best of 7 timed runs; the machine is shared, so the fastest run is the best
// estimate of the work itself).
//   probe_bench_native WEIGHTS BLOCKS   (the weights scripts/build recorded, e.g.
//                                        web/src/generated/cue-2block.weights.bin 2)
// Prints one JSON object: {"probe_us": ...}.
#include "attn/cue/trainer.hpp"

#include "timing.hpp"
#include "weights_file.hpp"

#include <cstdio>
#include <string>

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: probe_bench_native WEIGHTS BLOCKS\n");
    return 2;
  }
  attn::nn::CueTrainConfig config;
  config.blocks = std::stoi(argv[2]);
  attn::nn::CueTrainer model(config);
  model.load_weights(attn::cli::read_weights(argv[1]));
  std::vector<int> tokens{3, 1, 7, 5, 0, 6, 2, 2, 4, 7};
  int edit = 0;
  const double us = bench::microseconds_per_call([&] {
    ++edit;
    tokens[std::size_t(edit % 2)] = edit % 7;  // an edit per call, as a reader makes them
    bench::sink = model.probe(tokens).probabilities[0];
  });
  std::printf("{\"probe_us\": %.4f}\n", us);
  return 0;
}
