// The step-by-step example: every intermediate is the arithmetic of attn::attention(), so its
// weights and output equal attention()'s bit for bit; each step is what its name says; the
// limits and shapes are checked with messages naming the argument.
#include "attn/attention.hpp"
#include "attn/experiments/attention_steps.hpp"
#include "attn/masks.hpp"

#include <catch2/catch.hpp>

#include <cmath>

using namespace attn;
using namespace attn::experiments;
using Catch::Matchers::Contains;

namespace {

Matrix matrix_of(const std::vector<float>& values, int rows, int cols) {
  REQUIRE(values.size() == std::size_t(rows) * cols);
  return Eigen::Map<const Matrix>(values.data(), rows, cols);
}

}  // namespace

TEST_CASE("attention steps: weights and output are attention()'s, bit for bit, for every size and mask",
          "[experiments][steps]") {
  for (int tokens = kStepsMinTokens; tokens <= kStepsMaxTokens; ++tokens)
    for (int d_k = kStepsMinDk; d_k <= kStepsMaxDk; ++d_k)
      for (bool causal : {false, true})
        for (bool scale : {false, true}) {
          AttentionStepsConfig config;
          config.tokens = tokens;
          config.d_k = d_k;
          config.d_v = 2;
          config.causal = causal;
          config.scale = scale;
          config.seed = std::uint64_t(tokens * 10 + d_k);
          const AttentionSteps s = attention_steps(config);
          INFO(tokens << " tokens, d_k " << d_k << (causal ? ", causal" : "") << (scale ? ", scaled" : ""));
          const Matrix q = matrix_of(s.query, tokens, d_k), k = matrix_of(s.key, tokens, d_k),
                       v = matrix_of(s.value, tokens, 2);
          AttentionOptions options;
          options.scale = scale;
          const AttentionResult expected =
              causal ? attention(q, k, v, causal_mask(tokens), options) : attention(q, k, v, options);
          CHECK(matrix_of(s.weights, tokens, tokens) == expected.weights);  // exact, not approximate
          CHECK(matrix_of(s.output, tokens, 2) == expected.output);

          // Each step, from its definition.
          const Matrix scores = matrix_of(s.scores, tokens, tokens);
          const float factor = scale ? 1.0f / std::sqrt(float(d_k)) : 1.0f;
          CHECK(float(s.scale_factor) == factor);
          for (int i = 0; i < tokens; ++i)
            for (int j = 0; j < tokens; ++j) {
              float dot = 0;
              for (int c = 0; c < d_k; ++c) dot += q(i, c) * k(j, c);
              CHECK(scores(i, j) == Approx(dot).margin(1e-5));
              const std::size_t at = std::size_t(i) * tokens + j;
              CHECK(s.scaled[at] == scores(i, j) * factor);
              const bool allowed = !causal || j <= i;
              CHECK(s.allowed[at] == (allowed ? 1 : 0));
              CHECK(s.masked[at] == (allowed ? s.scaled[at] : float(s.masked_value)));
              if (!allowed) CHECK(s.weights[at] == 0.0f);
            }
        }
}

TEST_CASE("attention steps: a seeded draw is rounded to one decimal and reproducible", "[experiments][steps]") {
  const AttentionSteps a = attention_steps(), b = attention_steps();
  CHECK(a.query == b.query);
  CHECK(a.value == b.value);
  for (const auto* m : {&a.query, &a.key, &a.value})
    for (float x : *m) {
      CHECK(std::abs(x * 10 - std::round(x * 10)) < 1e-4);
      CHECK(!std::signbit(x == 0 ? x : 1.0f));  // no -0 printed as "-0.0"
    }
  AttentionStepsConfig other;
  other.seed = a.config.seed + 1;
  CHECK(attention_steps(other).query != a.query);
}

TEST_CASE("attention steps: given cells, and bad sizes or cells named", "[experiments][steps][bad-input]") {
  AttentionStepsConfig config;
  config.tokens = 3;
  config.d_k = 2;
  config.d_v = 1;
  const Matrix q = (Matrix(3, 2) << 1, 0, 0, 1, 1, 1).finished();
  const Matrix v = (Matrix(3, 1) << 1, 2, 3).finished();
  const AttentionSteps s = attention_steps(config, q, q, v);
  CHECK(s.scores == std::vector<float>{1, 0, 1, 0, 1, 1, 1, 1, 2});
  CHECK(matrix_of(s.output, 3, 1) == attention(q, q, v).output);

  config.tokens = kStepsMaxTokens + 1;
  CHECK_THROWS_WITH(attention_steps(config), Contains("tokens must be a whole number in [3, "));
  config.tokens = 3;
  config.d_k = 1;
  CHECK_THROWS_WITH(attention_steps(config), Contains("d_k must be a whole number in [2, "));
  config.d_k = 2;
  CHECK_THROWS_WITH(attention_steps(config, q, Matrix::Zero(4, 2), v),
                    Contains("key must have shape (tokens, d_k) = (3, 2), got (4, 2)"));
  CHECK_THROWS_WITH(attention_steps(config, q, q, Matrix::Zero(3, 2)),
                    Contains("value must have shape (tokens, d_v) = (3, 1)"));
  Matrix bad = q;
  bad(1, 1) = std::nanf("");
  CHECK_THROWS_WITH(attention_steps(config, bad, q, v), Contains("query"));
  CHECK_THROWS_WITH(attention_steps(config, Matrix::Constant(3, 2, 3e20f), q * 3e20f, v),
                    Contains("overflows float32"));
}
