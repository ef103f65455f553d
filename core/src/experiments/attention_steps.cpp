#include "attn/experiments/attention_steps.hpp"

#include "attn/attention.hpp"
#include "attn/masks.hpp"
#include "attn/random.hpp"
#include "products.hpp"

#include <cmath>
#include <stdexcept>

namespace attn::experiments {
namespace {

std::vector<float> flatten(const Matrix& m) { return std::vector<float>(m.data(), m.data() + m.size()); }

void require_shape(const char* name, const Matrix& m, int rows, int cols, const char* shape) {
  if (m.rows() != rows || m.cols() != cols)
    throw ArgumentError(name, ErrorCode::bad_shape,
                        std::string("must have shape ") + shape + " = " + shape_of(rows, cols) + ", got " + shape_of(m),
                        {{"rows", double(rows)},
                         {"cols", double(cols)},
                         {"got_rows", double(m.rows())},
                         {"got_cols", double(m.cols())}});
  require_values(name, m);
}

// Standard-normal draws rounded to one decimal.
Matrix rounded_draw(Random& rng, int rows, int cols) {
  return rng.normal_matrix(rows, cols).unaryExpr([](float x) {
    return static_cast<float>(std::round(double(x) * 10.0) / 10.0) + 0.0f;
  });  // no -0
}

}  // namespace

AttentionSteps attention_steps(const AttentionStepsConfig& config) {
  require_fields(config);
  Random rng(config.seed);
  const Matrix query = rounded_draw(rng, config.tokens, config.d_k);
  const Matrix key = rounded_draw(rng, config.tokens, config.d_k);
  const Matrix value = rounded_draw(rng, config.tokens, config.d_v);
  return attention_steps(config, query, key, value);
}

AttentionSteps attention_steps(const AttentionStepsConfig& config, const Matrix& query, const Matrix& key,
                               const Matrix& value) {
  require_fields(config);
  const int n = config.tokens;
  require_shape("query", query, n, config.d_k, "({tokens}, {d_k})");
  require_shape("key", key, n, config.d_k, "({tokens}, {d_k})");
  require_shape("value", value, n, config.d_v, "({tokens}, {d_v})");

  AttentionOptions options;  // attention()'s defaults but for the scale
  options.scale = config.scale;
  const Mask mask = config.causal ? causal_mask(n) : Mask::Constant(n, n, true);

  // The steps of attention_weights_unchecked(), one matrix each, with the same helpers.
  const float factor = config.scale ? attention_scale_factor<float>(config.d_k) : 1.0f;
  Matrix scores(n, n);
  scores_into(query, key, scores);  // products.hpp, as attention() computes them
  const Matrix scaled = config.scale ? Matrix(scores * factor) : scores;
  const Matrix masked = config.causal ? masked_scores<float>(scaled, mask, options.masked_value) : scaled;
  const Matrix weights = softmax_rows_unchecked<float>(masked);
  require_no_score_overflow("query and key", query, key, weights, config.causal ? &mask : nullptr, options);
  Matrix output(n, config.d_v);
  product_into(weights, value, output);
  if (!all_finite(output))
    throw ArgumentError("value", ErrorCode::too_large,
                        "is too large: an output overflows float32 (values near the limit 3.4e38)");

  AttentionSteps steps;
  steps.config = config;
  steps.scale_factor = factor;
  steps.masked_value = options.masked_value;
  for (Eigen::Index i = 0; i < n; ++i)
    for (Eigen::Index j = 0; j < n; ++j) steps.allowed.push_back(mask(i, j) ? 1 : 0);
  steps.query = flatten(query);
  steps.key = flatten(key);
  steps.value = flatten(value);
  steps.scores = flatten(scores);
  steps.scaled = flatten(scaled);
  steps.masked = flatten(masked);
  steps.weights = flatten(weights);
  steps.output = flatten(output);
  return steps;
}

}  // namespace attn::experiments
