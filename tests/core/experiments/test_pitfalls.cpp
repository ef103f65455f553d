// The half-precision pitfall: which masked-score constants survive float16 and float32 when a
// whole row is masked.
#include "attn/experiments/pitfalls.hpp"

#include <catch2/catch.hpp>

#include <cmath>
#include <limits>

using namespace attn::experiments;
using Catch::Matchers::Contains;

namespace {
const PitfallCase& find(const HalfPrecisionPitfall& p, const std::string& precision, const std::string& constant) {
  for (const auto& c : p.cases)
    if (c.precision == precision && c.constant == constant) return c;
  FAIL("no case " << precision << " " << constant);
  throw std::logic_error("unreachable");
}
}  // namespace

TEST_CASE("pitfall: -1e30 in half precision overflows to -inf and a fully masked row is NaN",
          "[experiments][pitfalls]") {
  const HalfPrecisionPitfall p = half_precision_pitfall({6, 4, 16, 0});
  REQUIRE(p.fully_masked_rows == std::vector<int>{4, 5});
  const PitfallCase& c = find(p, "float16", "-1e30");
  REQUIRE(c.requested == -1e30);
  REQUIRE(c.stored == -std::numeric_limits<double>::infinity());
  REQUIRE(c.fully_masked_rows_nan);
  REQUIRE(!c.all_finite);
  for (int row : {4, 5}) {
    REQUIRE(std::isnan(c.row_sums[row]));
    for (int j = 0; j < 6; ++j) REQUIRE(std::isnan(c.weights[row * 6 + j]));
  }
  // Rows that keep a key are still fine: -inf scores give exactly zero weight there.
  REQUIRE(c.blocked_exactly_zero);
  for (int row = 0; row < 4; ++row) REQUIRE(std::abs(c.row_sums[row] - 1.0) < 2e-3);  // half rounding
}

TEST_CASE("pitfall: -1e9 is -inf in half precision too, but finite in float32", "[experiments][pitfalls]") {
  const HalfPrecisionPitfall p = half_precision_pitfall({6, 4, 16, 0});
  const PitfallCase& half = find(p, "float16", "-1e9");
  REQUIRE(half.stored == -std::numeric_limits<double>::infinity());
  REQUIRE(half.fully_masked_rows_nan);
  const PitfallCase& single = find(p, "float32", "-1e9");
  REQUIRE(single.stored == -1e9);
  REQUIRE(single.all_finite);
  REQUIRE(!single.fully_masked_rows_nan);
  REQUIRE(single.blocked_exactly_zero);
  // A fully masked row gets uniform weights over all 6 keys, as the lesson's NumPy would.
  for (int j = 0; j < 6; ++j) REQUIRE(single.weights[4 * 6 + j] == Approx(1.0 / 6).epsilon(1e-6));
  // And -1e30 is an ordinary number in float32.
  REQUIRE(find(p, "float32", "-1e30").all_finite);
}

TEST_CASE("pitfall: a constant the type can hold is safe in both precisions", "[experiments][pitfalls]") {
  for (std::uint64_t seed : {0ull, 1ull, 2ull}) {
    const HalfPrecisionPitfall p = half_precision_pitfall({6, 4, 16, seed});
    INFO("seed " << seed);
    for (const char* precision : {"float16", "float32"})
      for (const char* constant : {"-1e4", "lowest"}) {
        INFO(precision << " " << constant);
        const PitfallCase& c = find(p, precision, constant);
        REQUIRE(std::isfinite(c.stored));
        REQUIRE(c.all_finite);
        REQUIRE(!c.fully_masked_rows_nan);
        REQUIRE(c.blocked_exactly_zero);
        for (double sum : c.row_sums) REQUIRE(std::abs(sum - 1.0) < 2e-3);
      }
    REQUIRE(find(p, "float16", "lowest").stored == -65504.0);
    REQUIRE(find(p, "float16", "-1e4").stored == -10000.0);
    REQUIRE(find(p, "float32", "lowest").stored == double(std::numeric_limits<float>::lowest()));
  }
}

TEST_CASE("pitfall: both precisions see the same problem", "[experiments][pitfalls]") {
  const HalfPrecisionPitfall p = half_precision_pitfall({6, 4, 16, 0});
  REQUIRE(p.cases.size() == 8);
  const PitfallCase& half = find(p, "float16", "-1e4");
  const PitfallCase& single = find(p, "float32", "-1e4");
  // Half precision has about 3 decimal digits: the same weights to within that.
  for (std::size_t i = 0; i < half.weights.size(); ++i) REQUIRE(std::abs(half.weights[i] - single.weights[i]) < 5e-3);
  REQUIRE(half.weights != single.weights);  // but genuinely computed in half
}

TEST_CASE("bad input: pitfall arguments out of range", "[experiments][pitfalls][bad-input]") {
  REQUIRE_THROWS_WITH(half_precision_pitfall({1, 1}),
                      Contains("positions must be a whole number in [2, 1024]") && Contains("got 1"));
  REQUIRE_THROWS_WITH(half_precision_pitfall({6, 6}),
                      Contains("real must be below positions = 6") && Contains("got 6"));
  REQUIRE_THROWS_WITH(half_precision_pitfall({6, 4, 2000, 0}),
                      Contains("d_k must be a whole number in [1, 1024]") && Contains("got 2000"));
}

TEST_CASE("pitfalls: a half-precision problem too large to finish in time is refused", "[experiments][bad-input]") {
  using Catch::Matchers::Contains;
  REQUIRE_THROWS_WITH(attn::experiments::half_precision_pitfall({1024, 4, 1024, 0}),
                      Contains("positions squared times d_k must be at most 16777216") && Contains("1073741824"));
  REQUIRE_NOTHROW(attn::experiments::half_precision_pitfall({64, 4, 16, 0}));
}
