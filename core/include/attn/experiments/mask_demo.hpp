// The masks demo: the lesson's three masks applied to one seeded score matrix.
//
// Shows what each mask does to the attention weights (blocked pairs get exactly zero weight,
// every row still sums to 1), the share of pairs each allows, and the classic mistake of
// masking after the softmax instead of before: the weights it leaves no longer sum to 1.
//
// Left out: values and outputs, fully masked rows (see pitfalls.hpp), drawing.
// Legend: n = positions. Every matrix below is flattened row-major, (n, n) = n * n entries.
#pragma once

#include "attn/config.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace attn::experiments {

// Limits of the demo (inclusive), checked by mask_demo().
constexpr int kMaskDemoMaxPositions = ATTN_PICK(1024, 48);
constexpr int kMaskDemoMaxDk = ATTN_PICK(1024, 96);

struct MaskDemoConfig {
  int positions = ATTN_PICK(10, 7);  // n
  int real = ATTN_PICK(6, 4);        // keys real..n-1 are padding; at most positions
  int d_k = ATTN_PICK(8, 5);
  std::uint64_t seed = ATTN_PICK(0, 2);

  template <typename Visit>
  static void fields(Visit&& visit) {
    visit(FieldInfo{"positions", "positions", "positions", 1, kMaskDemoMaxPositions, "sequence length"},
          member<&MaskDemoConfig::positions>);
    visit(FieldInfo{"real", "real", "real", 1, kMaskDemoMaxPositions, "real (non-padding) tokens, at most positions"},
          member<&MaskDemoConfig::real>);
    visit(FieldInfo{"d_k", "dK", "dk", 1, kMaskDemoMaxDk, "width of the queries and keys"},
          member<&MaskDemoConfig::d_k>);
    visit(FieldInfo{"seed", "seed", "seed", 0, double(kMaxSeed), "seed of the queries and keys"},
          member<&MaskDemoConfig::seed>);
  }
};

struct MaskDemoCase {
  std::string name;                   // "causal", "padding" or "both"
  std::vector<std::uint8_t> allowed;  // (n, n): 1 where the query (row) may attend the key (column)
  double allowed_fraction = 0;        // 0.55, 0.60 and 0.45 at the defaults
  // The right way: the mask applied to the scores, then the softmax (attn::attention).
  std::vector<double> weights;        // (n, n)
  std::vector<double> row_sums;       // (n), each 1 up to float32 rounding
  double max_blocked_weight = 0;      // the largest weight on a blocked pair
  bool blocked_exactly_zero = false;  // every blocked weight is exactly 0.0
  // The mistake: softmax of the unmasked scores, then blocked weights set to 0.
  std::vector<double> mistake_weights;   // (n, n)
  std::vector<double> mistake_row_sums;  // (n), below 1 in every row that blocks a key

  template <typename Visit>
  static void fields(Visit&& visit) {
    using C = MaskDemoCase;
    visit("name", member<&C::name>);
    visit("allowed", member<&C::allowed>);
    visit("allowedFraction", member<&C::allowed_fraction>);
    visit("weights", member<&C::weights>);
    visit("rowSums", member<&C::row_sums>);
    visit("maxBlockedWeight", member<&C::max_blocked_weight>);
    visit("blockedExactlyZero", member<&C::blocked_exactly_zero>);
    visit("mistakeWeights", member<&C::mistake_weights>);
    visit("mistakeRowSums", member<&C::mistake_row_sums>);
  }
};

struct MaskDemo {
  int positions = 0, real = 0, d_k = 0;
  std::uint64_t seed = 0;
  double masked_value = 0;          // the score a blocked pair gets before the softmax
  std::vector<double> scores;       // (n, n): Q K^T / sqrt(d_k), before any mask
  std::vector<MaskDemoCase> cases;  // causal, padding, both

  template <typename Visit>
  static void fields(Visit&& visit) {
    visit("positions", member<&MaskDemo::positions>);
    visit("real", member<&MaskDemo::real>);
    visit("dK", member<&MaskDemo::d_k>);
    visit("seed", member<&MaskDemo::seed>);
    visit("maskedValue", member<&MaskDemo::masked_value>);
    visit("scores", member<&MaskDemo::scores>);
    visit("cases", member<&MaskDemo::cases>);
  }
};

// -> the demo for n = positions, with keys real..n-1 being padding. Random(seed) draws
// Q (n, d_k) then K (n, d_k), standard normal; the weights are those attn::attention gives with
// its default options (scaled, masked_value -1e9), bit for bit, from one score product shared
// by the unmasked case and the three masks.
// Throws attn::ArgumentError for a field out of range or real > positions.
MaskDemo mask_demo(const MaskDemoConfig& config = {});

}  // namespace attn::experiments
