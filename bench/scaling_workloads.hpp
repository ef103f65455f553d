// Time per FLOP across sizes ("cost grows with the work, nothing else"): the core's experiments
// and the trainer's forward pass at three sizes each, from about the lesson's size toward the
// core's limits, each with its floating-point operations counted, so a benchmark can print time
// per FLOP and compare the largest size with the smallest. Timed inside WebAssembly by the
// benchmark module (bench/bench_module.cpp, bench/scaling.mjs).
//
// FLOPs count every floating-point operation of a call, products and the rest (softmax,
// the sweep's measures, random draws, LayerNorm, biases), one convention for all:
// bench/scaling_workloads.cpp, at its top, with each case's terms.
//   sweep    scale_sweep, one d_k: per draw two normal (T, d_k), the score product, two
//            softmaxes and their measures
//   masks    mask_demo: two normal (n, d_k), the shown scores and the attention's, 4 softmaxes
//   heads    heads_demo: the input, both layers' Glorot weights, a layer of 4 heads and one
//            of 1 head, their weights' measures
//   forward  the cue trainer's model (2 blocks, 1 head, d_ff 2 d, last block on the query row
//            only), evaluation forward of a batch of 32 sequences
#pragma once

#include <functional>
#include <string>
#include <vector>

namespace bench {

struct ScalingCase {
  std::string experiment, size;
  double flops;                 // per call, everything counted
  double product_flops;         // the part of flops in matrix products
  std::function<double()> run;  // one call of the core; returns a number from its result
  bool width_held = false;      // of the diagnostic series (scaling_cases())
};

// Per experiment, its three sizes from smallest to largest: first the goal's series, where every
// dimension grows toward the core's limits, then a diagnostic series with no goal, where the
// width (d_k, d_model) stays at 64 (32 for the trainer) and only the length grows, to the
// core's limit. Growing the width too changes a call's mix of operations (more of it in
// products, which cost several times less per FLOP than an exp, a log or a draw); holding it
// keeps the mix nearly fixed (the share in products is printed; heads' still moves, since its
// projections grow with T and its weights with T^2), so what changes per FLOP there is
// overhead and memory.
const std::vector<ScalingCase>& scaling_cases();

}  // namespace bench
