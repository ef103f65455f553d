// The masks demo: the lesson's three masks applied to one seeded score matrix.
//
// Shows what each mask does to the attention weights (blocked pairs get exactly zero weight,
// every row still sums to 1), the share of pairs each allows, and the classic mistake of
// masking after the softmax instead of before: the weights it leaves no longer sum to 1.
//
// Left out: values and outputs, fully masked rows (see pitfalls.hpp), drawing.
// Legend: n = positions. Every matrix below is flattened row-major, (n, n) = n * n entries.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace attn::experiments {

struct MaskDemoCase {
  std::string name;          // "causal", "padding" or "both"
  std::vector<int> allowed;  // (n, n): 1 where the query (row) may attend the key (column)
  double allowed_fraction = 0;  // 0.55, 0.60 and 0.45 at the defaults
  // The right way: the mask applied to the scores, then the softmax (attn::attention).
  std::vector<double> weights;   // (n, n)
  std::vector<double> row_sums;  // (n), each 1 up to float32 rounding
  double max_blocked_weight = 0;      // the largest weight on a blocked pair
  bool blocked_exactly_zero = false;  // every blocked weight is exactly 0.0
  // The mistake: softmax of the unmasked scores, then blocked weights set to 0.
  std::vector<double> mistake_weights;   // (n, n)
  std::vector<double> mistake_row_sums;  // (n), below 1 in every row that blocks a key
};

struct MaskDemo {
  int positions = 0, real = 0, d_k = 0;
  std::uint64_t seed = 0;
  double masked_value = 0;      // the score a blocked pair gets before the softmax
  std::vector<double> scores;   // (n, n): Q K^T / sqrt(d_k), before any mask
  std::vector<MaskDemoCase> cases;  // causal, padding, both
};

// -> the demo for n = positions, with keys real..n-1 being padding. Random(seed) draws
// Q (n, d_k) then K (n, d_k), standard normal; the weights come from attn::attention with its
// default options (scaled, masked_value -1e9).
// Throws std::invalid_argument unless 1 <= positions <= 1024, 1 <= real <= positions and
// 1 <= d_k <= 1024, naming the argument and its value.
MaskDemo mask_demo(int positions = 10, int real = 6, std::uint64_t seed = 0, int d_k = 8);

}  // namespace attn::experiments
