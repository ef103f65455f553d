// Scaled dot-product attention step by step, for a small example a reader can follow by hand:
// Q, K, V -> Q K^T -> times 1/sqrt(d_k) -> mask (optional) -> softmax -> times V, every
// intermediate kept. The steps are the arithmetic of attn::attention() (attention.hpp), so the
// weights and the output are bit for bit what attention() returns for the same inputs.
//
// The example is self-attention without projections: Q, K and V are given directly, either
// as cells the caller supplies or as a seeded draw rounded to one decimal (so the products can
// be checked by hand). The optional mask is the causal one.
//
// Legend: n = tokens, k = d_k, v = d_v. Every matrix is flattened row-major.
// Left out: projections, heads, padding masks (masks.hpp and mask_demo.hpp show those).
#pragma once

#include "attn/config.hpp"
#include "attn/matrix.hpp"

#include <cstdint>
#include <vector>

namespace attn::experiments {

// Limits of the example (inclusive): small enough to lay out every matrix on a phone.
constexpr int kStepsMinTokens = 3;
constexpr int kStepsMaxTokens = ATTN_PICK(6, 5);
constexpr int kStepsMinDk = 2;
constexpr int kStepsMaxDk = ATTN_PICK(4, 3);
constexpr int kStepsMaxDv = ATTN_PICK(4, 3);

struct AttentionStepsConfig {
  int tokens = ATTN_PICK(4, 3);  // n
  int d_k = ATTN_PICK(3, 2);
  int d_v = ATTN_PICK(2, 3);
  bool causal = ATTN_PICK(false, true);  // mask the scores causally before the softmax
  bool scale = ATTN_PICK(true, false);   // multiply the scores by 1/sqrt(d_k)
  std::uint64_t seed = ATTN_PICK(1, 5);  // of the drawn Q, K and V

  template <typename Visit>
  static void fields(Visit&& visit) {
    using C = AttentionStepsConfig;
    visit(FieldInfo{"tokens", "tokens", "tokens", kStepsMinTokens, kStepsMaxTokens, "tokens (rows of Q, K and V)"},
          member<&C::tokens>);
    visit(FieldInfo{"d_k", "dK", "dk", kStepsMinDk, kStepsMaxDk, "width of the queries and keys"}, member<&C::d_k>);
    visit(FieldInfo{"d_v", "dV", "dv", 1, kStepsMaxDv, "width of the values"}, member<&C::d_v>);
    visit(FieldInfo{"causal", "causal", "causal", 0, 1, "mask the scores causally (no query sees a later key)"},
          member<&C::causal>);
    visit(FieldInfo{"scale", "scale", "scale", 0, 1, "multiply the scores by 1/sqrt(d_k)"}, member<&C::scale>);
    visit(FieldInfo{"seed", "seed", "seed", 0, double(kMaxSeed), "seed of the drawn Q, K and V"}, member<&C::seed>);
  }
};

struct AttentionSteps {
  AttentionStepsConfig config;        // the seed is meaningless for given cells
  double scale_factor = 1;            // what the scores were multiplied by: 1/sqrt(d_k) as a float, or 1
  double masked_value = 0;            // the score a blocked pair gets (attention()'s default)
  std::vector<std::uint8_t> allowed;  // (n, n): 1 = the query (row) may attend the key (column)
  std::vector<float> query, key;      // (n, k)
  std::vector<float> value;           // (n, v)
  std::vector<float> scores;          // (n, n): Q K^T
  std::vector<float> scaled;          // (n, n): scores * scale_factor
  std::vector<float> masked;          // (n, n): scaled, blocked pairs set to masked_value
  std::vector<float> weights;         // (n, n): softmax of each row of masked
  std::vector<float> output;          // (n, v): weights V

  template <typename Visit>
  static void fields(Visit&& visit) {
    using C = AttentionSteps;
    visit("config", member<&C::config>);
    visit("scaleFactor", member<&C::scale_factor>);
    visit("maskedValue", member<&C::masked_value>);
    visit("allowed", member<&C::allowed>);
    visit("query", member<&C::query>);
    visit("key", member<&C::key>);
    visit("value", member<&C::value>);
    visit("scores", member<&C::scores>);
    visit("scaled", member<&C::scaled>);
    visit("masked", member<&C::masked>);
    visit("weights", member<&C::weights>);
    visit("output", member<&C::output>);
  }
};

// A seeded draw: Random(seed) draws Q (n, k), then K (n, k), then V (n, v), standard normal,
// each rounded to one decimal. Throws attn::ArgumentError for a field out of range.
AttentionSteps attention_steps(const AttentionStepsConfig& config = {});

// Given cells: query (n, k), key (n, k), value (n, v), whose shapes must be the config's
// (its seed is not used). Throws attn::ArgumentError for a field out of range, or naming the
// matrix for a wrong shape or a value that is not finite or whose score overflows float32 (as
// attention() does).
AttentionSteps attention_steps(const AttentionStepsConfig& config, const Matrix& query, const Matrix& key,
                               const Matrix& value);

}  // namespace attn::experiments
