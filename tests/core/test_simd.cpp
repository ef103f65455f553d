// core/src/simd.hpp's 4-lane exp, which the WebAssembly build's softmax uses (softmax.cpp): the
// same code compiles natively, so it is checked here against std::exp over its whole range.
#include "simd.hpp"

#include <catch2/catch.hpp>

#include <cmath>
#include <limits>

using namespace attn::simd;

TEST_CASE("exp_lanes is within 2 ulp of std::exp over [kExpLow, kExpHigh]", "[simd]") {
  double worst_ulps = 0;
  for (float x = kExpLow; x <= kExpHigh; x += 0.0137f) {
    const Vec<float> lanes = exp_lanes(Vec<float>{x, -x / 3, x / 7, 0.0f});
    const float inputs[4] = {x, -x / 3, x / 7, 0.0f};
    for (int l = 0; l < 4; ++l) {
      const double exact = std::exp(double(inputs[l]));
      const double ulp = std::nextafter(float(exact), std::numeric_limits<float>::infinity()) - float(exact);
      worst_ulps = std::max(worst_ulps, std::abs(double(lanes[l]) - exact) / ulp);
    }
  }
  CHECK(worst_ulps <= 2.0);
  CHECK(exp_lanes(splat(0.0f))[2] == 1.0f);
}

TEST_CASE("in_exp_range accepts the range and refuses what lies outside it, infinities and NaN", "[simd]") {
  CHECK(in_exp_range(Vec<float>{kExpLow, kExpHigh, 0.0f, -1.0f}));
  CHECK_FALSE(in_exp_range(Vec<float>{0.0f, 0.0f, 0.0f, -88.0f}));
  CHECK_FALSE(in_exp_range(Vec<float>{89.0f, 0.0f, 0.0f, 0.0f}));
  CHECK_FALSE(in_exp_range(Vec<float>{0.0f, -std::numeric_limits<float>::infinity(), 0.0f, 0.0f}));
  CHECK_FALSE(in_exp_range(Vec<float>{0.0f, 0.0f, std::numeric_limits<float>::quiet_NaN(), 0.0f}));
}
