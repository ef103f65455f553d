#include "attn/masks.hpp"

#include <catch2/catch.hpp>

using namespace attn;

TEST_CASE("the lesson's mask fractions for 10 positions with 6 real, exactly", "[masks]") {
  const Mask causal = causal_mask(10), padding = padding_mask(10, 10, 6);
  REQUIRE(allowed_fraction(causal) == 0.55);
  REQUIRE(allowed_fraction(padding) == 0.60);
  REQUIRE(allowed_fraction(combine_masks(causal, padding)) == 0.45);
}

TEST_CASE("causal hides the future, padding hides what is not there", "[masks]") {
  const Mask causal = causal_mask(4);
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j) REQUIRE(causal(i, j) == (j <= i));
  const Mask padding = padding_mask(2, 5, 3);
  REQUIRE(padding.rows() == 2);
  for (int j = 0; j < 5; ++j) REQUIRE(padding(1, j) == (j < 3));
}
