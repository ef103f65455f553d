// The half-precision pitfall: the masked-score constant must fit the number type.
//
// A blocked pair gets a large negative score before the softmax. In float32 -1e9 (and even
// -1e30) is an ordinary finite number. In IEEE half precision (Eigen::half, largest finite
// magnitude 65504) both -1e9 and -1e30 round to -inf; then a row whose every key is blocked
// computes -inf - (-inf) = NaN in the softmax and the whole row is NaN. A constant that the
// type can hold (-1e4, or the type's lowest finite value) gives such a row uniform weights
// instead, and still leaves exactly zero weight on blocked pairs of ordinary rows.
// Both precisions run the same code: attn::attention_weights_unchecked<Scalar>.
//
// Left out: values and outputs, bfloat16, -inf chosen on purpose (that is PyTorch's NaN).
// Legend: n = positions. Matrices are flattened row-major, (n, n) = n * n entries.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace attn::experiments {

// The largest positions^2 d_k half_precision_pitfall() accepts (1024 positions with d_k 16).
constexpr long kMaxPitfallWork = 1L << 24;

struct PitfallCase {
  std::string precision;  // "float16" or "float32"
  std::string constant;   // "-1e30", "-1e9", "-1e4" or "lowest" (the type's lowest finite)
  double requested = 0;   // the constant as asked for
  double stored = 0;      // the constant once rounded to the precision: -inf if it overflowed
  std::vector<double> weights;   // (n, n), NaN where the arithmetic produced NaN
  std::vector<double> row_sums;  // (n), NaN for a NaN row
  bool fully_masked_rows_nan = false;  // every weight of every fully masked row is NaN
  bool all_finite = false;             // no NaN or infinity anywhere in the weights
  bool blocked_exactly_zero = false;   // in rows that keep a key, every blocked weight is 0.0
};

struct HalfPrecisionPitfall {
  int positions = 0, real = 0, d_k = 0;
  std::uint64_t seed = 0;
  // (n, n): padding on both sides, query i may attend key j only if i < real and j < real,
  // so rows real..n-1 (padded query positions) are fully masked.
  std::vector<int> allowed;
  std::vector<int> fully_masked_rows;  // real..n-1
  std::vector<PitfallCase> cases;  // float16 then float32, each with -1e30, -1e9, -1e4, lowest
};

// -> the pitfall on one seeded problem: Random(seed) draws Q (n, d_k) then K (n, d_k),
// standard normal, in float32; the float16 cases round them to half first. Scaled scores.
// Throws std::invalid_argument unless 2 <= positions <= 1024, 1 <= real < positions (at
// least one fully masked row), 1 <= d_k <= 1024 and positions^2 d_k <= kMaxPitfallWork,
// naming the argument and its value.
HalfPrecisionPitfall half_precision_pitfall(int positions = 6, int real = 4, std::uint64_t seed = 0,
                                            int d_k = 16);

}  // namespace attn::experiments
