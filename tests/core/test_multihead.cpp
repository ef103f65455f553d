#include "attn/multihead.hpp"

#include <catch2/catch.hpp>

using namespace attn;

TEST_CASE("4 heads of 16 and 1 head of 64 on d_model 64 have 16,640 parameters each", "[multihead]") {
  const MultiHeadAttention four(64, 4), one(64, 1);
  REQUIRE(four.key_dim() == 16);
  REQUIRE(one.key_dim() == 64);
  REQUIRE(four.parameter_count() == 16640);
  REQUIRE(one.parameter_count() == four.parameter_count());
  REQUIRE(MultiHeadAttention(32, 1).parameter_count() == 4 * (32 * 32 + 32));
}

TEST_CASE("one head with identity projections is plain attention", "[multihead]") {
  Random rng(5);
  MultiHeadAttention mha(6, 1);
  const Matrix eye = Matrix::Identity(6, 6), zero = Matrix::Zero(1, 6);
  for (Projection p : {Projection::query, Projection::key, Projection::value, Projection::output})
    mha.set_projection(p, eye, zero);
  const Matrix q = rng.normal_matrix(3, 6), kv = rng.normal_matrix(4, 6);
  const auto expected = attention(q, kv, kv);
  const auto got = mha.forward(q, kv, kv);
  REQUIRE((got.output - expected.output).cwiseAbs().maxCoeff() <= 1e-6f);
  REQUIRE((got.weights.at(0) - expected.weights).cwiseAbs().maxCoeff() <= 1e-7f);
}

TEST_CASE("each head attends with its own slice of the projections", "[multihead]") {
  Random rng(6);
  MultiHeadAttention mha(8, 2);
  mha.init_glorot_uniform(rng);
  const Matrix x = rng.normal_matrix(5, 8);
  const auto result = mha.forward(x, x, x);
  REQUIRE(result.weights.size() == 2);
  const Matrix q = x * mha.weight(Projection::query), k = x * mha.weight(Projection::key);
  for (int h = 0; h < 2; ++h) {
    const Matrix expected = softmax(q.middleCols(h * 4, 4) * k.middleCols(h * 4, 4).transpose() / 2.0f);
    REQUIRE((result.weights[h] - expected).cwiseAbs().maxCoeff() <= 1e-6f);
  }
  REQUIRE((result.weights[0] - result.weights[1]).cwiseAbs().maxCoeff() > 1e-3f);
}

TEST_CASE("Glorot init uses Keras's fan rules and zero biases", "[multihead]") {
  Random rng(8);
  MultiHeadAttention mha(64, 4);
  mha.init_glorot_uniform(rng);
  const double qkv_limit = std::sqrt(6.0 / (64 * 4 + 64 * 16)), out_limit = std::sqrt(6.0 / (4 * 16 + 4 * 64));
  REQUIRE(mha.weight(Projection::query).cwiseAbs().maxCoeff() <= qkv_limit);
  REQUIRE(mha.weight(Projection::query).cwiseAbs().maxCoeff() > 0.95 * qkv_limit);
  REQUIRE(mha.weight(Projection::output).cwiseAbs().maxCoeff() <= out_limit);
  REQUIRE(mha.weight(Projection::output).cwiseAbs().maxCoeff() > 0.95 * out_limit);
  REQUIRE(mha.bias(Projection::key).isZero());
}
