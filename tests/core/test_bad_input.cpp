// One test per kind of bad input: each must throw std::invalid_argument whose message names
// the argument and the shape (or value) it got.
#include "attn/attention.hpp"
#include "attn/masks.hpp"
#include "attn/multihead.hpp"

#include <catch2/catch.hpp>

#include <limits>

using namespace attn;
using Catch::Matchers::Contains;

namespace {
Matrix ones(Eigen::Index r, Eigen::Index c) { return Matrix::Ones(r, c); }
}  // namespace

TEST_CASE("bad input: mismatched shapes", "[bad-input]") {
  REQUIRE_THROWS_WITH(attention(ones(2, 4), ones(3, 5), ones(3, 2)),
                      Contains("key must have as many columns as query") && Contains("(2, 4)") && Contains("(3, 5)"));
  REQUIRE_THROWS_WITH(attention(ones(2, 4), ones(3, 4), ones(2, 2)),
                      Contains("value must have as many rows as key") && Contains("(2, 2)"));
  const MultiHeadAttention mha(8, 2);
  REQUIRE_THROWS_WITH(mha.forward(ones(2, 7), ones(2, 8), ones(2, 8)),
                      Contains("query must have 8 columns") && Contains("(2, 7)"));
  REQUIRE_THROWS_WITH(combine_masks(causal_mask(3), causal_mask(4)),
                      Contains("same shape") && Contains("(3, 3)") && Contains("(4, 4)"));
}

TEST_CASE("bad input: empty matrices", "[bad-input]") {
  REQUIRE_THROWS_WITH(attention(Matrix(0, 4), ones(3, 4), ones(3, 2)),
                      Contains("query must not be empty") && Contains("(0, 4)"));
  REQUIRE_THROWS_WITH(softmax(Matrix(3, 0)), Contains("scores must not be empty") && Contains("(3, 0)"));
  REQUIRE_THROWS_WITH(allowed_fraction(Mask(0, 0)), Contains("mask must not be empty"));
}

TEST_CASE("bad input: NaN values", "[bad-input]") {
  Matrix v = ones(3, 2);
  v(1, 0) = std::numeric_limits<float>::quiet_NaN();
  REQUIRE_THROWS_WITH(attention(ones(2, 4), ones(3, 4), v),
                      Contains("value must be finite") && Contains("(1, 0)") && Contains("(3, 2)"));
  AttentionOptions options;
  options.masked_value = std::numeric_limits<float>::quiet_NaN();
  REQUIRE_THROWS_WITH(attention(ones(2, 4), ones(3, 4), ones(3, 2), options), Contains("masked_value"));
}

TEST_CASE("bad input: infinite values", "[bad-input]") {
  Matrix q = ones(2, 4);
  q(0, 3) = std::numeric_limits<float>::infinity();
  REQUIRE_THROWS_WITH(attention(q, ones(3, 4), ones(3, 2)), Contains("query must be finite") && Contains("inf"));
  Matrix scores = ones(2, 2);
  scores(1, 1) = -std::numeric_limits<float>::infinity();
  REQUIRE_THROWS_WITH(softmax(scores), Contains("scores must be finite"));
}

TEST_CASE("bad input: num_heads not dividing d_model", "[bad-input]") {
  REQUIRE_THROWS_WITH(MultiHeadAttention(64, 3),
                      Contains("num_heads must divide d_model") && Contains("64") && Contains("3"));
  REQUIRE_THROWS_WITH(MultiHeadAttention(64, 0), Contains("num_heads must be between 1 and"));
  REQUIRE_THROWS_WITH(MultiHeadAttention(0, 1), Contains("d_model must be between"));
  REQUIRE_NOTHROW(MultiHeadAttention(64, 3, 20));  // an explicit key_dim needs no division
}

TEST_CASE("bad input: a mask of the wrong shape", "[bad-input]") {
  REQUIRE_THROWS_WITH(attention(ones(2, 4), ones(3, 4), ones(3, 2), causal_mask(3)),
                      Contains("mask must have shape (n_q, n_k) = (2, 3)") && Contains("got (3, 3)"));
  const MultiHeadAttention mha(8, 2);
  const Mask wrong = causal_mask(4);
  REQUIRE_THROWS_WITH(mha.forward(ones(2, 8), ones(3, 8), ones(3, 8), &wrong),
                      Contains("mask must have shape (n_q, n_k) = (2, 3)"));
}

TEST_CASE("bad input: mask sizes out of range", "[bad-input]") {
  REQUIRE_THROWS_WITH(causal_mask(0), Contains("n must be a whole number in [1, 16384]"));
  REQUIRE_THROWS_WITH(causal_mask(1000000), Contains("n must be a whole number in [1, 16384]") && Contains("1000000"));
  REQUIRE_THROWS_WITH(padding_mask(10, 10, 11), Contains("real_len must be between 1 and n_k = 10") && Contains("11"));
  REQUIRE_THROWS_WITH(padding_mask(10, 10, 0), Contains("real_len"));
}

TEST_CASE("bad input: weights of the wrong shape", "[bad-input]") {
  MultiHeadAttention mha(8, 2);
  REQUIRE_THROWS_WITH(mha.set_projection(Projection::query, ones(8, 7), ones(1, 8)),
                      Contains("query weight must have shape (8, 8)") && Contains("(8, 7)"));
  REQUIRE_THROWS_WITH(mha.set_from_pytorch(ones(24, 8), ones(1, 23), ones(8, 8), ones(1, 8)),
                      Contains("in_proj_bias must have shape (1, 24)"));
  Matrix bad = ones(8, 8);
  bad(0, 0) = std::numeric_limits<float>::quiet_NaN();
  REQUIRE_THROWS_WITH(mha.set_projection(Projection::output, bad, ones(1, 8)),
                      Contains("output weight must be finite"));
  // A refused call leaves the layer as it was.
  REQUIRE(mha.weight(Projection::output).isZero());
}
