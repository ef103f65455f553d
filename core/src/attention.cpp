#include "attn/attention.hpp"

#include <stdexcept>

namespace attn {

void require_options(const AttentionOptions& options) {
  if (std::isnan(options.masked_value))
    throw std::invalid_argument("masked_value must not be NaN");
}

namespace {

void check_inputs(const Matrix& query, const Matrix& key, const Matrix& value,
                  const AttentionOptions& options) {
  require_values("query", query);
  require_values("key", key);
  require_values("value", value);
  if (key.cols() != query.cols())
    throw std::invalid_argument("key must have as many columns as query (d_k): query " +
                                shape_of(query) + ", key " + shape_of(key));
  if (value.rows() != key.rows())
    throw std::invalid_argument("value must have as many rows as key (n_k): key " +
                                shape_of(key) + ", value " + shape_of(value));
  require_options(options);
}

AttentionResult run(const Matrix& query, const Matrix& key, const Matrix& value, const Mask* mask,
                    const AttentionOptions& options) {
  AttentionResult result;
  result.weights = attention_weights_unchecked<float>(query, key, mask, options.scale,
                                                      options.masked_value);
  result.output = result.weights * value;
  return result;
}

}  // namespace

AttentionResult attention(const Matrix& query, const Matrix& key, const Matrix& value,
                          const AttentionOptions& options) {
  check_inputs(query, key, value, options);
  return run(query, key, value, nullptr, options);
}

AttentionResult attention(const Matrix& query, const Matrix& key, const Matrix& value,
                          const Mask& mask, const AttentionOptions& options) {
  check_inputs(query, key, value, options);
  if (mask.rows() != query.rows() || mask.cols() != key.rows())
    throw std::invalid_argument("mask must have shape (n_q, n_k) = " +
                                shape_of(query.rows(), key.rows()) + ", got " + shape_of(mask));
  return run(query, key, value, &mask, options);
}

}  // namespace attn
