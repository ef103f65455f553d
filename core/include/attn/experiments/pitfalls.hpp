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

#include "attn/config.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace attn::experiments {

// Limits of the pitfall (inclusive), checked by half_precision_pitfall(). Eigen::half
// arithmetic is emulated in software (about 50 ns a multiply-add), so the score product's
// positions^2 d_k stays within kMaxPitfallWork, about a second.
constexpr int kPitfallMaxPositions = ATTN_PICK(1024, 40);
constexpr int kPitfallMaxDk = ATTN_PICK(1024, 64);
constexpr long kMaxPitfallWork = kMaxElements;

struct PitfallConfig {
  int positions = ATTN_PICK(6, 5);
  int real = ATTN_PICK(4, 3);  // at most positions - 1: rows real..n-1 are fully masked
  int d_k = ATTN_PICK(16, 12);
  std::uint64_t seed = ATTN_PICK(0, 6);

  template <typename Visit>
  static void fields(Visit&& visit) {
    visit(FieldInfo{"positions", "positions", "positions", 2, kPitfallMaxPositions, "positions"},
          member<&PitfallConfig::positions>);
    visit(FieldInfo{"real", "real", "real", 1, kPitfallMaxPositions - 1,
                    "real tokens, below positions so that some rows are fully masked"},
          member<&PitfallConfig::real>);
    visit(FieldInfo{"d_k", "dK", "dk", 1, kPitfallMaxDk, "width of the queries and keys"}, member<&PitfallConfig::d_k>);
    visit(FieldInfo{"seed", "seed", "seed", 0, double(kMaxSeed), "seed of the queries and keys"},
          member<&PitfallConfig::seed>);
  }
};

struct PitfallCase {
  std::string precision;               // "float16" or "float32"
  std::string constant;                // "-1e30", "-1e9", "-1e4" or "lowest" (the type's lowest finite)
  double requested = 0;                // the constant as asked for
  double stored = 0;                   // the constant once rounded to the precision: -inf if it overflowed
  bool overflowed = false;             // stored is -inf (JSON, which has no infinities, shows it as null)
  std::vector<double> weights;         // (n, n), NaN where the arithmetic produced NaN
  std::vector<double> row_sums;        // (n), NaN for a NaN row
  bool fully_masked_rows_nan = false;  // every weight of every fully masked row is NaN
  bool all_finite = false;             // no NaN or infinity anywhere in the weights
  bool blocked_exactly_zero = false;   // in rows that keep a key, every blocked weight is 0.0

  template <typename Visit>
  static void fields(Visit&& visit) {
    using C = PitfallCase;
    visit("precision", member<&C::precision>);
    visit("constant", member<&C::constant>);
    visit("requested", member<&C::requested>);
    visit("stored", member<&C::stored>);
    visit("overflowed", member<&C::overflowed>);
    visit("weights", member<&C::weights>);
    visit("rowSums", member<&C::row_sums>);
    visit("fullyMaskedRowsNan", member<&C::fully_masked_rows_nan>);
    visit("allFinite", member<&C::all_finite>);
    visit("blockedExactlyZero", member<&C::blocked_exactly_zero>);
  }
};

struct HalfPrecisionPitfall {
  int positions = 0, real = 0, d_k = 0;
  std::uint64_t seed = 0;
  // (n, n): padding on both sides, query i may attend key j only if i < real and j < real,
  // so rows real..n-1 (padded query positions) are fully masked.
  std::vector<std::uint8_t> allowed;
  std::vector<int> fully_masked_rows;  // real..n-1
  std::vector<PitfallCase> cases;      // float16 then float32, each with -1e30, -1e9, -1e4, lowest

  template <typename Visit>
  static void fields(Visit&& visit) {
    using C = HalfPrecisionPitfall;
    visit("positions", member<&C::positions>);
    visit("real", member<&C::real>);
    visit("dK", member<&C::d_k>);
    visit("seed", member<&C::seed>);
    visit("allowed", member<&C::allowed>);
    visit("fullyMaskedRows", member<&C::fully_masked_rows>);
    visit("cases", member<&C::cases>);
  }
};

// -> the pitfall on one seeded problem: Random(seed) draws Q (n, d_k) then K (n, d_k),
// standard normal, in float32; the float16 cases round them to half first. Scaled scores.
// Throws attn::ArgumentError for a field out of range, real >= positions or positions^2 d_k
// above kMaxPitfallWork.
HalfPrecisionPitfall half_precision_pitfall(const PitfallConfig& config = {});

}  // namespace attn::experiments
