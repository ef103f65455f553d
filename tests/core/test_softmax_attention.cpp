#include "attn/attention.hpp"
#include "attn/masks.hpp"
#include "attn/random.hpp"

#include <catch2/catch.hpp>

using namespace attn;

TEST_CASE("softmax rows sum to 1 and survive huge scores", "[softmax]") {
  Random rng(1);
  Matrix scores = rng.normal_matrix(50, 40) * 30.0f;
  scores(0, 0) = 1e30f;  // would overflow exp() without subtracting the row maximum
  scores(1, 3) = -1e30f;
  const Matrix weights = softmax(scores);
  for (Eigen::Index i = 0; i < weights.rows(); ++i) REQUIRE(std::abs(weights.row(i).sum() - 1.0f) <= 1e-6f);
  REQUIRE(weights.allFinite());
  REQUIRE(weights(0, 0) == 1.0f);
  REQUIRE(weights(1, 3) == 0.0f);
}

TEST_CASE("softmax matches the definition on a small row", "[softmax]") {
  Matrix scores(1, 3);
  scores << 1.0f, 2.0f, 3.0f;
  const Matrix weights = softmax(scores);
  const double denom = std::exp(1.0) + std::exp(2.0) + std::exp(3.0);
  for (int j = 0; j < 3; ++j) REQUIRE(weights(0, j) == Approx(std::exp(j + 1.0) / denom).epsilon(1e-6));
}

TEST_CASE("attention is softmax(QK^T / sqrt(d_k)) V", "[attention]") {
  Random rng(2);
  const Matrix q = rng.normal_matrix(3, 8), k = rng.normal_matrix(5, 8), v = rng.normal_matrix(5, 4);
  const auto scaled = attention(q, k, v);
  const Matrix expected_weights = softmax(q * k.transpose() / std::sqrt(8.0f));
  REQUIRE((scaled.weights - expected_weights).cwiseAbs().maxCoeff() <= 1e-7f);
  REQUIRE((scaled.output - expected_weights * v).cwiseAbs().maxCoeff() <= 1e-6f);

  AttentionOptions unscaled;
  unscaled.scale = false;
  const auto raw = attention(q, k, v, unscaled);
  REQUIRE((raw.weights - softmax(q * k.transpose())).cwiseAbs().maxCoeff() <= 1e-7f);
}

TEST_CASE("masked pairs get exactly zero weight and rows still sum to 1", "[attention][masks]") {
  Random rng(3);
  const Matrix x = rng.normal_matrix(10, 16);
  const Mask mask = combine_masks(causal_mask(10), padding_mask(10, 10, 6));
  const auto result = attention(x, x, x, mask);
  for (Eigen::Index i = 0; i < 10; ++i) {
    REQUIRE(std::abs(result.weights.row(i).sum() - 1.0f) <= 1e-6f);
    for (Eigen::Index j = 0; j < 10; ++j)
      if (!mask(i, j))
        REQUIRE(result.weights(i, j) == 0.0f);  // exactly, not approximately
      else
        REQUIRE(result.weights(i, j) > 0.0f);
  }
}

TEST_CASE("a fully masked row is uniform with a finite constant and NaN with -inf", "[attention][masks]") {
  Random rng(4);
  const Matrix q = rng.normal_matrix(2, 4), k = rng.normal_matrix(5, 4), v = rng.normal_matrix(5, 3);
  Mask mask = Mask::Constant(2, 5, true);
  mask.row(1).setConstant(false);

  const auto finite = attention(q, k, v, mask);
  for (Eigen::Index j = 0; j < 5; ++j) REQUIRE(finite.weights(1, j) == Approx(0.2f));
  const Eigen::RowVectorXf mean = v.colwise().mean();
  REQUIRE((finite.output.row(1) - mean).cwiseAbs().maxCoeff() <= 1e-6f);

  AttentionOptions infinite;
  infinite.masked_value = -std::numeric_limits<float>::infinity();
  const auto nan_row = attention(q, k, v, mask, infinite);
  REQUIRE(nan_row.weights.row(1).array().isNaN().all());
  REQUIRE(nan_row.weights.row(0).allFinite());  // rows with an allowed key are unaffected
}
