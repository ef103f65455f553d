// The masks demo: the lesson's fractions, exactly zero weight on blocked pairs, rows that sum
// to 1, and the mask-after-softmax mistake leaving rows that do not.
#include "attn/experiments/mask_demo.hpp"

#include <catch2/catch.hpp>

#include <cmath>

using namespace attn::experiments;
using Catch::Matchers::Contains;

TEST_CASE("masks demo: the lesson's three masks on one seeded score matrix", "[experiments][masks]") {
  for (std::uint64_t seed : {0ull, 1ull, 2ull}) {
    const MaskDemo demo = mask_demo({10, 6, 8, seed});
    INFO("seed " << seed);
    REQUIRE(demo.cases.size() == 3);
    REQUIRE(demo.scores.size() == 100);
    REQUIRE(demo.masked_value == -1e9);
    const double lesson[] = {0.55, 0.60, 0.45};
    const char* names[] = {"causal", "padding", "both"};
    for (int m = 0; m < 3; ++m) {
      const MaskDemoCase& c = demo.cases[m];
      INFO(c.name);
      REQUIRE(c.name == names[m]);
      REQUIRE(c.allowed_fraction == lesson[m]);
      REQUIRE(c.weights.size() == 100);
      REQUIRE(c.blocked_exactly_zero);
      REQUIRE(c.max_blocked_weight == 0.0);
      int blocked = 0;
      for (int i = 0; i < 10; ++i) {
        bool row_blocks = false;
        for (int j = 0; j < 10; ++j) {
          const int at = i * 10 + j;
          // Which pairs each mask blocks, from the lesson's definitions.
          const bool allowed = m == 0 ? j <= i : m == 1 ? j < 6 : (j <= i && j < 6);
          REQUIRE(c.allowed[at] == (allowed ? 1 : 0));
          if (allowed) {
            REQUIRE(c.weights[at] > 0.0);
          } else {
            REQUIRE(c.weights[at] == 0.0);  // exactly, not approximately
            REQUIRE(c.mistake_weights[at] == 0.0);
            row_blocks = true;
            ++blocked;
          }
        }
        REQUIRE(std::abs(c.row_sums[i] - 1.0) <= 1e-6);
        // Masking after the softmax: every row that blocks something loses weight.
        if (row_blocks) {
          REQUIRE(c.mistake_row_sums[i] < 1.0 - 1e-3);
        } else {
          REQUIRE(std::abs(c.mistake_row_sums[i] - 1.0) <= 1e-6);
        }
      }
      REQUIRE(blocked == int(std::lround((1 - lesson[m]) * 100)));
    }
  }
}

TEST_CASE("masks demo: the mistake keeps the unmasked weights where the mask allows", "[experiments][masks]") {
  const MaskDemo demo = mask_demo({10, 6, 8, 0});
  const MaskDemoCase& causal = demo.cases[0];
  // Row 9 of the causal mask blocks nothing: right and wrong agree there; row 0 keeps one
  // key, so the right weight is 1 while the mistake keeps only that key's unmasked share.
  REQUIRE(causal.weights[0] == 1.0);
  REQUIRE(causal.mistake_weights[0] == causal.mistake_row_sums[0]);
  REQUIRE(causal.mistake_row_sums[0] < 0.5);
  for (int j = 0; j < 10; ++j) REQUIRE(std::abs(causal.weights[90 + j] - causal.mistake_weights[90 + j]) <= 1e-7);
  // The scores are what the seed draws: another seed, another matrix.
  REQUIRE(mask_demo({10, 6, 8, 1}).scores != demo.scores);
  REQUIRE(mask_demo({10, 6, 8, 0}).scores == demo.scores);
}

TEST_CASE("bad input: masks demo arguments out of range", "[experiments][masks][bad-input]") {
  REQUIRE_THROWS_WITH(mask_demo({0, 1}),
                      Contains("positions must be a whole number in [1, 1024]") && Contains("got 0"));
  REQUIRE_THROWS_WITH(mask_demo({10, 11}), Contains("real must be at most positions = 10") && Contains("got 11"));
  REQUIRE_THROWS_WITH(mask_demo({10, 0}), Contains("real") && Contains("got 0"));
  REQUIRE_THROWS_WITH(mask_demo({10, 6, 0, 0}),
                      Contains("d_k must be a whole number in [1, 1024]") && Contains("got 0"));
}
