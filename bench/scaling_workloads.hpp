// Goal 5 of issue 16, "cost grows with the work, nothing else": the core's experiments and the
// trainer's forward pass at three sizes each, from the lesson's size toward the core's limits,
// each with its floating-point operations counted here, so a benchmark can print time per
// FLOP and compare the largest size with the smallest. Timed inside WebAssembly by the
// benchmark module (bench/bench_module.cpp, bench/scaling.mjs).
//
// FLOPs count the products only (a multiply-add is 2), as bench/cue_flops.mjs does: softmax,
// the sweep's measures, random draws, LayerNorm are left out, so a size where they weigh more
// shows a higher time per FLOP.
//   sweep    scale_sweep, one d_k: per draw the score product, 2 T^2 d_k
//   masks    mask_demo: the scores once plus 4 attention calls (no mask, causal, padding,
//            both), each scores 2 n^2 d_k and a weighted sum of the identity values, 2 n^3
//   heads    heads_demo: a layer of `heads` heads and one of 1 head, each 4 projections
//            2 T d^2 and, over all heads, scores and weighted sums 2 * 2 T^2 d
//   forward  the cue trainer's model (2 blocks, 1 head, d_ff 2 d, last block on the query row
//            only), evaluation forward of a batch of 32 sequences: bench/cue_flops.mjs's count
#pragma once

#include <functional>
#include <string>
#include <vector>

namespace bench {

struct ScalingCase {
  std::string experiment, size;
  double flops;                 // per call
  std::function<double()> run;  // one call of the core; returns a number from its result
};

// Per experiment, its three sizes from smallest to largest.
const std::vector<ScalingCase>& scaling_cases();

}  // namespace bench
