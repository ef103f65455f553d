#include "attn/attention.hpp"

#include "products.hpp"
#include "simd.hpp"

#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

namespace attn {
namespace {

// The largest squared norm of a row of m (inf when one overflows float32), for a bound that only
// needs to be safe, not exact: natively Eigen's (vectorised); in WebAssembly, where Eigen's
// reductions run one value at a time, in 4 lanes.
double max_row_squared_norm(const Eigen::Ref<const Matrix>& m) {
#ifdef __wasm_simd128__
  using namespace simd;
  float top = 0;
  for (Eigen::Index i = 0; i < m.rows(); ++i) {
    const float* row = m.data() + i * m.outerStride();
    Vec<float> lanes = splat(0.0f);
    Eigen::Index j = 0;
    for (; j + 4 <= m.cols(); j += 4) lanes += load(row + j) * load(row + j);
    float sum = (lanes[0] + lanes[1]) + (lanes[2] + lanes[3]);
    for (; j < m.cols(); ++j) sum += row[j] * row[j];
    top = sum > top || sum != sum ? sum : top;
  }
  return double(top);
#else
  return double(m.rowwise().squaredNorm().maxCoeff());
#endif
}

}  // namespace

Matrix attention_weights(const Eigen::Ref<const Matrix>& query, const Eigen::Ref<const Matrix>& key, const Mask* mask,
                         bool scale, float masked_value) {
  Matrix scores(query.rows(), key.rows());
  scores_into(query, key, scores);
  if (scale) scores *= attention_scale_factor<float>(query.cols());
  if (mask) scores = masked_scores<float>(scores, *mask, masked_value);
  return softmax_rows_unchecked<float>(scores);
}

void require_options(const AttentionOptions& options) {
  if (std::isnan(options.masked_value))
    throw ArgumentError("masked_value", ErrorCode::not_finite, "must not be NaN", {{"got", options.masked_value}});
  if (options.masked_value == std::numeric_limits<float>::infinity())
    throw ArgumentError("masked_value", ErrorCode::out_of_range,
                        "must not be +inf (blocked pairs need a score below the real ones)",
                        {{"got", options.masked_value}});
}

ArgumentError mask_shape_error(Eigen::Index n_q, Eigen::Index n_k, const Mask& mask) {
  return ArgumentError("mask", ErrorCode::bad_shape,
                       "must have shape (n_q, n_k) = " + shape_of(n_q, n_k) + ", got " + shape_of(mask),
                       {{"rows", double(n_q)},
                        {"cols", double(n_k)},
                        {"got_rows", double(mask.rows())},
                        {"got_cols", double(mask.cols())}});
}

void require_no_score_overflow(const char* inputs, const Eigen::Ref<const Matrix>& query,
                               const Eigen::Ref<const Matrix>& key, const Matrix& weights, const Mask* mask,
                               const AttentionOptions& options) {
  const auto overflow = [inputs](Eigen::Index row) {
    return ArgumentError(inputs, ErrorCode::too_large,
                         "are too large: a score of query row " + std::to_string(row) +
                             " overflows float32 (|q . k| / sqrt(d_k) above 3.4e38)",
                         {{"row", double(row)}});
  };
  const bool minus_inf = std::isinf(options.masked_value) && options.masked_value < 0;
  if (!all_finite(weights))
    for (Eigen::Index i = 0; i < weights.rows(); ++i)
      if (!row_finite(weights, i) && !(mask && minus_inf && !mask->row(i).any())) throw overflow(i);
  // A score that overflowed to -inf leaves finite weights. None can when max |q|^2 max |k|^2 /
  // d_k (Cauchy-Schwarz) is below the float32 limit squared: the common case costs two
  // reductions (a squared norm that overflows is inf, and takes the exact path). Otherwise the
  // scores are recomputed as the attention computed them.
  const double scale = options.scale ? 1.0 / double(query.cols()) : 1.0;
  const double bound = max_row_squared_norm(query) * max_row_squared_norm(key) * scale;
  if (bound < 9.0e76) return;
  Matrix scores(query.rows(), key.rows());
  scores_into(query, key, scores);
  if (options.scale) scores *= attention_scale_factor<float>(query.cols());
  for (Eigen::Index i = 0; i < scores.rows(); ++i)
    for (Eigen::Index j = 0; j < scores.cols(); ++j)
      if (!std::isfinite(scores(i, j)) && (!mask || (*mask)(i, j))) throw overflow(i);
}

namespace {

void check_inputs(const Matrix& query, const Matrix& key, const Matrix& value, const AttentionOptions& options) {
  require_values("query", query);
  require_values("key", key);
  require_values("value", value);
  if (key.cols() != query.cols())
    throw ArgumentError(
        "key", ErrorCode::bad_shape,
        "must have as many columns as {query} (d_k): query " + shape_of(query) + ", key " + shape_of(key),
        {{"cols", double(query.cols())}, {"got_rows", double(key.rows())}, {"got_cols", double(key.cols())}});
  if (value.rows() != key.rows())
    throw ArgumentError(
        "value", ErrorCode::bad_shape,
        "must have as many rows as {key} (n_k): key " + shape_of(key) + ", value " + shape_of(value),
        {{"rows", double(key.rows())}, {"got_rows", double(value.rows())}, {"got_cols", double(value.cols())}});
  require_options(options);
}

AttentionResult run(const Matrix& query, const Matrix& key, const Matrix& value, const Mask* mask,
                    const AttentionOptions& options) {
  AttentionResult result;
  result.weights = attention_weights(query, key, mask, options.scale, options.masked_value);
  require_no_score_overflow("query and key", query, key, result.weights, mask, options);
  result.output.resize(query.rows(), value.cols());
  product_into(result.weights, value, result.output);  // output = weights * value (products.hpp)
  // Each output is a weighted mean of values, but with values near the float32 limit
  // (3.4e38) the rounded weights can sum to a hair over 1 and tip the sum to inf.
  if (!all_finite(result.output))
    for (Eigen::Index i = 0; i < result.output.rows(); ++i)
      if (row_finite(result.weights, i) && !row_finite(result.output, i))
        throw ArgumentError(
            "value", ErrorCode::too_large,
            "is too large: output row " + std::to_string(i) + " overflows float32 (values near the limit 3.4e38)",
            {{"row", double(i)}});
  return result;
}

}  // namespace

AttentionResult attention(const Matrix& query, const Matrix& key, const Matrix& value,
                          const AttentionOptions& options) {
  check_inputs(query, key, value, options);
  return run(query, key, value, nullptr, options);
}

AttentionResult attention(const Matrix& query, const Matrix& key, const Matrix& value, const Mask& mask,
                          const AttentionOptions& options) {
  check_inputs(query, key, value, options);
  if (mask.rows() != query.rows() || mask.cols() != key.rows()) throw mask_shape_error(query.rows(), key.rows(), mask);
  return run(query, key, value, &mask, options);
}

}  // namespace attn
