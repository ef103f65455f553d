// One test per kind of bad input: each must throw attn::ArgumentError whose message names the
// argument and the shape (or value) it got; the last ones check its code and named values,
// what front doors word their own messages from.
#include "attn/attention.hpp"
#include "attn/config.hpp"
#include "attn/experiments/heads_demo.hpp"
#include "attn/masks.hpp"
#include "attn/multihead.hpp"
#include "attn/random.hpp"

#include <catch2/catch.hpp>

#include <cmath>
#include <limits>
#include <map>
#include <string>

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
                      Contains("b must have the shape of mask a") && Contains("(3, 3)") && Contains("(4, 4)"));
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

namespace {

// The ArgumentError `call` throws (the test fails if it throws none).
template <typename Call>
ArgumentError error_of(Call&& call) {
  try {
    call();
  } catch (const ArgumentError& e) {
    return e;
  }
  FAIL("no ArgumentError thrown");
  throw std::logic_error("unreachable");
}

std::map<std::string, double> values_of(const ArgumentError& e) {
  std::map<std::string, double> out;
  for (const ErrorValue& v : e.values()) out[v.name] = v.value;
  return out;
}

using Values = std::map<std::string, double>;

}  // namespace

TEST_CASE("bad input: each error has its argument, code and numbers", "[bad-input]") {
  const auto divide = error_of([] { MultiHeadAttention(64, 5); });
  CHECK(divide.argument() == "num_heads");
  CHECK(divide.code() == ErrorCode::must_divide);
  CHECK(values_of(divide) == Values{{"d_model", 64}, {"got", 5}});

  const auto padding = error_of([] { padding_mask(10, 10, 11); });
  CHECK(padding.argument() == "real_len");
  CHECK(padding.code() == ErrorCode::out_of_range);
  CHECK(values_of(padding) == Values{{"min", 1}, {"max", 10}, {"got", 11}});

  const auto side = error_of([] { causal_mask(0); });
  CHECK(side.argument() == "n");
  CHECK(side.code() == ErrorCode::out_of_range);
  CHECK(values_of(side) == Values{{"min", 1}, {"max", double(kMaxMaskSide)}, {"got", 0}});

  AttentionOptions nan_option;
  nan_option.masked_value = std::numeric_limits<float>::quiet_NaN();
  const auto masked = error_of([&] { attention(ones(2, 4), ones(3, 4), ones(3, 2), nan_option); });
  CHECK(masked.argument() == "masked_value");
  CHECK(masked.code() == ErrorCode::not_finite);

  Matrix v = ones(3, 2);
  v(1, 0) = std::numeric_limits<float>::infinity();
  const auto finite = error_of([&] { attention(ones(2, 4), ones(3, 4), v); });
  CHECK(finite.argument() == "value");
  CHECK(finite.code() == ErrorCode::not_finite);
  CHECK(values_of(finite) == Values{{"got", std::numeric_limits<double>::infinity()}, {"row", 1}, {"col", 0}});

  const auto empty = error_of([] { attention(Matrix(0, 4), ones(3, 4), ones(3, 2)); });
  CHECK(empty.code() == ErrorCode::empty);
  CHECK(values_of(empty) == Values{{"got_rows", 0}, {"got_cols", 4}});

  MultiHeadAttention mha(8, 2);
  const auto shape = error_of([&] { mha.set_from_pytorch(ones(24, 8), ones(1, 23), ones(8, 8), ones(1, 8)); });
  CHECK(shape.argument() == "in_proj_bias");
  CHECK(shape.code() == ErrorCode::bad_shape);
  CHECK(values_of(shape) == Values{{"rows", 1}, {"cols", 24}, {"got_rows", 1}, {"got_cols", 23}});

  const auto demo = error_of([] { experiments::heads_demo({64, 5}); });
  CHECK(demo.argument() == "num_heads");
  CHECK(demo.code() == ErrorCode::must_divide);
  CHECK(values_of(demo) == Values{{"d_model", 64}, {"got", 5}});

  const auto choice_error = error_of([] { require_choice(choice("mode", "mode", "mode", "fast|slow", ""), "odd"); });
  CHECK(choice_error.code() == ErrorCode::not_one_of);
  CHECK(choice_error.values().empty());

  const FieldInfo list = {"d_ks", "dks", "dk", 1, 8, "", false, false, 2};
  const auto length = error_of([&] { require_list(list, {1, 2, 3}); });
  CHECK(length.code() == ErrorCode::bad_length);
  CHECK(values_of(length) == Values{{"min", 1}, {"max", 2}, {"got", 3}});

  Random rng(1);
  const auto elements = error_of([&] { rng.normal_matrix(1 << 12, (kMaxElements >> 12) + 1); });
  CHECK(elements.code() == ErrorCode::too_many_elements);
  CHECK(values_of(elements).at("max") == double(kMaxElements));
}

TEST_CASE("bad input: a front door words the error in its own names", "[bad-input]") {
  const auto error = error_of([] { experiments::heads_demo({64, 5}); });
  CHECK(std::string(error.what()) == "num_heads must divide d_model = 64, got 5");
  const auto flag = [](const std::string& name) { return name == "num_heads" ? "--heads" : "--" + name; };
  CHECK(error.message(flag) == "--heads must divide --d_model = 64, got 5");
  CHECK(error.detail() == "must divide {d_model} = 64, got 5");
}

TEST_CASE("bad input: every code has its documented name", "[bad-input]") {
  const std::map<ErrorCode, std::string> names = {
      {ErrorCode::out_of_range, "out-of-range"},
      {ErrorCode::not_whole, "not-whole"},
      {ErrorCode::not_finite, "not-finite"},
      {ErrorCode::not_one_of, "not-one-of"},
      {ErrorCode::must_divide, "must-divide"},
      {ErrorCode::bad_shape, "bad-shape"},
      {ErrorCode::bad_length, "bad-length"},
      {ErrorCode::empty, "empty"},
      {ErrorCode::too_many_elements, "too-many-elements"},
      {ErrorCode::too_large, "too-large"},
      {ErrorCode::not_allowed, "not-allowed"},
  };
  for (const auto& [code, name] : names) CHECK(code_name(code) == name);
}
