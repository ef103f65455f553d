// Inputs that tests/fuzz found to break a documented promise of the core, kept as tests so
// the promise keeps holding. Each case names what the fuzzer fed in and what the core gives
// for it without the check the case tests.
#include "attn/attention.hpp"
#include "attn/masks.hpp"
#include "attn/multihead.hpp"

#include <catch2/catch.hpp>

#include <limits>

using namespace attn;
using Catch::Matchers::Contains;

TEST_CASE("fuzz: finite inputs whose scores overflow float32 are refused, not NaN", "[bad-input][fuzz]") {
  // fuzz_core, attention: query (1, 1) = 1e20, key (3, 1) = 1e20, scale off. The score 1e40
  // rounds to inf, inf - inf is NaN, and unchecked every weight and output is NaN.
  const Matrix q = Matrix::Constant(1, 1, 1e20f), k = Matrix::Constant(3, 1, 1e20f);
  const Matrix v = Matrix::Constant(3, 3, 3.1e-43f);
  AttentionOptions no_scale;
  no_scale.scale = false;
  REQUIRE_THROWS_WITH(attention(q, k, v, no_scale), Contains("query and key are too large") &&
                                                        Contains("query row 0") && Contains("overflows float32"));
  // The same through a mask, and with the scale on (1e40 / 1 is still out of range).
  REQUIRE_THROWS_WITH(attention(q, k, v, padding_mask(1, 3, 2)), Contains("too large"));
  // Below the limit the weights are exact: three equal scores of 1e19 * 1e19 = 1e38.
  const auto ok = attention(Matrix::Constant(1, 1, 1e19f), Matrix::Constant(3, 1, 1e19f), v, no_scale);
  REQUIRE(ok.weights.allFinite());
  REQUIRE(ok.weights(0, 0) == Approx(1.0 / 3));
  // A score of -inf (every key pointing away) would give NaN as well: refused the same way.
  REQUIRE_THROWS_WITH(attention(q, Matrix::Constant(3, 1, -1e20f), v, no_scale), Contains("too large"));
}

TEST_CASE("fuzz: an allowed score that overflows to -inf is refused, not handed to the blocked keys",
          "[bad-input][fuzz]") {
  // fuzz_core, attention: key (9, 3) of 3.4e38, query (1, 3) = (1.4e-45, 1.4e-45, -1.0625), keys
  // 5..8 blocked with masked_value -3.29e38. The allowed scores overflow to -inf, below the
  // blocked ones, so unchecked the row's weight goes to the blocked keys (0.25 each) with nothing
  // NaN to show it. The weights stay finite, so the check looks at the scores.
  Matrix q(1, 3);
  q << 1.40129846e-45f, 1.40129846e-45f, -1.0625f;
  const Matrix k = Matrix::Constant(9, 3, std::numeric_limits<float>::max());
  const Matrix v = Matrix::Constant(9, 3, 1.40129846e-45f);
  AttentionOptions options;
  options.masked_value = -3.28939612e+38f;
  REQUIRE_THROWS_WITH(attention(q, k, v, padding_mask(1, 9, 5), options),
                      Contains("query and key are too large") && Contains("query row 0"));
  // The same pair through a multi-head layer whose projections pass the inputs through.
  MultiHeadAttention layer(3, 1);
  const Matrix identity = Matrix::Identity(3, 3), zero = Matrix::Zero(1, 3);
  for (Projection p : {Projection::query, Projection::key, Projection::value, Projection::output})
    layer.set_projection(p, identity, zero);
  const Mask mask = padding_mask(1, 9, 5);
  REQUIRE_THROWS_WITH(layer.forward(q, k, v, &mask, options), Contains("projected query and key are too large"));
}

TEST_CASE("fuzz: masked_value +inf is refused (it turned masked rows to NaN)", "[bad-input][fuzz]") {
  AttentionOptions options;
  options.masked_value = std::numeric_limits<float>::infinity();
  REQUIRE_THROWS_WITH(attention(Matrix::Ones(2, 2), Matrix::Ones(2, 2), Matrix::Ones(2, 2), causal_mask(2), options),
                      Contains("masked_value must not be +inf"));
  // -inf stays allowed, with the documented NaN for a fully masked row only.
  options.masked_value = -std::numeric_limits<float>::infinity();
  Mask mask = causal_mask(2);
  mask(0, 0) = false;
  const auto r = attention(Matrix::Ones(2, 2), Matrix::Ones(2, 2), Matrix::Ones(2, 2), mask, options);
  REQUIRE(r.weights.row(0).array().isNaN().all());
  REQUIRE(r.weights(1, 0) == Approx(0.5));
}

TEST_CASE("fuzz: multi-head attention refuses overflowing projections and scores", "[bad-input][fuzz]") {
  MultiHeadAttention mha(2, 1);
  mha.set_projection(Projection::query, Matrix::Identity(2, 2), Matrix::Zero(1, 2));
  mha.set_projection(Projection::key, Matrix::Identity(2, 2), Matrix::Zero(1, 2));
  mha.set_projection(Projection::value, Matrix::Identity(2, 2), Matrix::Zero(1, 2));
  mha.set_projection(Projection::output, Matrix::Identity(2, 2), Matrix::Zero(1, 2));
  const Matrix big = Matrix::Constant(2, 2, 1e20f);
  REQUIRE_THROWS_WITH(mha.forward(big, big, Matrix::Ones(2, 2)), Contains("projected query and key are too large"));
  // A projection that overflows by itself: weights of ones add 3e38 + 3e38.
  MultiHeadAttention summing = mha;
  summing.set_projection(Projection::query, Matrix::Ones(2, 2), Matrix::Zero(1, 2));
  const Matrix huge = Matrix::Constant(1, 2, 3e38f);
  REQUIRE_THROWS_WITH(summing.forward(huge, Matrix::Ones(1, 2), Matrix::Ones(1, 2)),
                      Contains("query after its projection"));
  // The output projection: values of 3e38 are fine until the output weights double them.
  mha.set_projection(Projection::output, Matrix::Constant(2, 2, 2.0f), Matrix::Zero(1, 2));
  const Matrix value = (Matrix(1, 2) << 3e38f, 0.0f).finished();
  REQUIRE_THROWS_WITH(mha.forward(Matrix::Ones(1, 2), Matrix::Ones(1, 2), value),
                      Contains("output projection overflows float32 at row 0"));
}

TEST_CASE("fuzz: a weighted mean of values at the float32 limit is refused, not inf", "[bad-input][fuzz]") {
  // fuzz_core, attention: ten values of 3.40282347e38 (the largest float) and equal scores.
  // Ten weights of 0.1f sum to 1.0000001, so the mean rounds up past the limit to inf.
  const Matrix v = Matrix::Constant(10, 3, std::numeric_limits<float>::max());
  REQUIRE_THROWS_WITH(attention(Matrix::Ones(4, 11), Matrix::Zero(10, 11), v),
                      Contains("value is too large: output row 0 overflows float32"));
  // Two keys (weights 0.5 each, exact) stay fine at the limit.
  const auto two =
      attention(Matrix::Ones(1, 2), Matrix::Zero(2, 2), Matrix::Constant(2, 1, std::numeric_limits<float>::max()));
  REQUIRE(two.output(0, 0) == std::numeric_limits<float>::max());
}

TEST_CASE("fuzz: a head's weighted mean of projected values at the float32 limit is refused", "[bad-input][fuzz]") {
  // fuzz_core, multi-head: a value bias of -3.40282347e38 and three unequal weights whose
  // rounded sum passes 1: unchecked, -inf in the head's output, then NaN (0 * inf) in the layer's.
  MultiHeadAttention mha(1, 1);
  mha.set_projection(Projection::query, Matrix::Ones(1, 1), Matrix::Zero(1, 1));
  mha.set_projection(Projection::key, Matrix::Ones(1, 1), Matrix::Zero(1, 1));
  mha.set_projection(Projection::value, Matrix::Zero(1, 1), Matrix::Constant(1, 1, -std::numeric_limits<float>::max()));
  mha.set_projection(Projection::output, Matrix::Zero(1, 1), Matrix::Zero(1, 1));
  const Matrix key = Matrix::Zero(10, 1);
  REQUIRE_THROWS_WITH(mha.forward(Matrix::Ones(1, 1), key, key),
                      Contains("value is too large after its projection: head 0 overflows float32 at row 0"));
}

TEST_CASE("fuzz: a multi-head layer too large to allocate is refused before allocating", "[bad-input][fuzz]") {
  // fuzz_core, multi-head: MultiHeadAttention(32768, 1) unchecked asks malloc for 4 GiB per
  // kernel (libFuzzer: out-of-memory (malloc(4294967296))); at 65536 heads of key_dim 65536 the
  // int product num_heads * key_dim overflows first.
  REQUIRE_THROWS_WITH(MultiHeadAttention(32768, 1),
                      Contains("more than the limit 16777216") && Contains("d_model 32768"));
  REQUIRE_THROWS_WITH(MultiHeadAttention(65536, 65536, 65536), Contains("more than the limit"));
  // Just under the limit (4 d hk + 3 hk + d = 16,769,024 for d = hk = 2047) and just over.
  REQUIRE(MultiHeadAttention(2047, 1).parameter_count() == 4L * 2047 * 2047 + 3 * 2047 + 2047);
  REQUIRE_THROWS_WITH(MultiHeadAttention(2048, 1), Contains("16785408 parameters"));
}
