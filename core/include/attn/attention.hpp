// Scaled dot-product attention: softmax(Q K^T / sqrt(d_k)) V, with an optional mask.
#pragma once

#include "attn/config.hpp"
#include "attn/matrix.hpp"
#include "attn/softmax.hpp"

#include <cmath>
#include <limits>

namespace attn {

struct AttentionOptions {
  // Divide the scores by sqrt(d_k). Off only to show why it is there.
  bool scale = true;
  // The score a blocked pair gets before the softmax. Any value far below the real scores
  // leaves blocked pairs with exactly 0 weight; -inf does too, but see fully masked rows.
  float masked_value = ATTN_PICK(-1e9f, -1e6f);

  // Exported as a config so that every front door takes these defaults from here. The range
  // admits -inf; require_options() checks the value (NaN and +inf are refused).
  template <typename Visit>
  static void fields(Visit&& visit) {
    constexpr double inf = std::numeric_limits<double>::infinity();
    visit(FieldInfo{"scale", "scale", "scale", 0, 1, "divide the scores by sqrt(d_k)"},
          member<&AttentionOptions::scale>);
    visit(FieldInfo{"masked_value", "maskedValue", "masked-value", -inf, inf,
                    "the score a blocked pair gets before the softmax (-inf allowed)", false, true},
          member<&AttentionOptions::masked_value>);
  }
};

struct AttentionResult {
  Matrix output;   // (n_q, d_v)
  Matrix weights;  // (n_q, n_k), rows sum to 1
};

// Throws attn::ArgumentError for a NaN or +inf masked_value (+inf would give every row
// with a blocked pair NaN weights, since inf - inf is NaN).
void require_options(const AttentionOptions& options);

// The error for a mask that is not (n_q, n_k).
ArgumentError mask_shape_error(Eigen::Index n_q, Eigen::Index n_k, const Mask& mask);

// query (n_q, d_k), key (n_k, d_k), both finite, and the weights (n_q, n_k)
// attention_weights_unchecked gave them -> throws attn::ArgumentError, naming `inputs` and the
// row, when the score of a pair the mask allows overflowed float32 (|q . k| / sqrt(d_k) above
// 3.4e38, e.g. entries of 1e20). Upwards that shows as a NaN row; downwards, as -inf, it would
// silently move the row's weight onto blocked pairs. A fully masked row with masked_value -inf
// is let through (documented: NaN, as PyTorch gives).
void require_no_score_overflow(const char* inputs, const Eigen::Ref<const Matrix>& query,
                               const Eigen::Ref<const Matrix>& key, const Matrix& weights, const Mask* mask,
                               const AttentionOptions& options);

// query (n_q, d_k), key (n_k, d_k), value (n_k, d_v), mask (n_q, n_k; true = may attend)
//   -> output (n_q, d_v), weights (n_q, n_k).
// A fully masked row has every score equal to masked_value, so with a finite constant it
// gets uniform weights 1/n_k and the mean of the values (as the lesson's NumPy and Keras
// do); with masked_value = -inf it is NaN (as PyTorch gives).
// Throws attn::ArgumentError for empty or non-finite inputs, mismatched shapes, a mask of
// the wrong shape, a NaN or +inf masked_value, or scores or outputs that overflow float32.
AttentionResult attention(const Matrix& query, const Matrix& key, const Matrix& value,
                          const AttentionOptions& options = {});
AttentionResult attention(const Matrix& query, const Matrix& key, const Matrix& value, const Mask& mask,
                          const AttentionOptions& options = {});

// What the scores are multiplied by: 1/sqrt(d_k), rounded once to float.
template <typename Scalar>
Scalar attention_scale_factor(Eigen::Index d_k) {
  return Scalar(1.0f / std::sqrt(static_cast<float>(d_k)));
}

// scores (n_q, n_k), mask (n_q, n_k) -> scores with every blocked pair set to masked_value.
template <typename Scalar>
MatrixOf<Scalar> masked_scores(const MatrixOf<Scalar>& scores, const Mask& mask, Scalar masked_value) {
  return mask.select(scores, MatrixOf<Scalar>::Constant(scores.rows(), scores.cols(), masked_value));
}

// The arithmetic behind attention() for any scalar type (float32 here, Eigen::half in the
// pitfall experiments), without argument checks. mask may be null. The output is then
// weights * value (attention.cpp); experiments/attention_steps.hpp keeps every step. The scores
// are a lazy product (one dot product per pair, in order): Eigen's blocked product for
// Eigen::half alone was a seventh of the WebAssembly module, for the pitfalls' tiny matrices.
template <typename Scalar>
MatrixOf<Scalar> attention_weights_unchecked(const MatrixOf<Scalar>& query, const MatrixOf<Scalar>& key,
                                             const Mask* mask, bool scale, Scalar masked_value) {
  MatrixOf<Scalar> scores = query.lazyProduct(key.transpose());           // every query . every key
  if (scale) scores *= attention_scale_factor<Scalar>(query.cols());      // times 1/sqrt(d_k)
  if (mask) scores = masked_scores<Scalar>(scores, *mask, masked_value);  // blocked pairs, before the softmax
  return softmax_rows_unchecked<Scalar>(scores);                          // each row sums to 1
}

// float32 (attention.cpp): the same steps on query and key blocks, without copying them, with
// core/src/products.hpp's score product and softmax_rows_unchecked<float>.
Matrix attention_weights(const Eigen::Ref<const Matrix>& query, const Eigen::Ref<const Matrix>& key, const Mask* mask,
                         bool scale, float masked_value);
template <>
inline Matrix attention_weights_unchecked<float>(const Matrix& query, const Matrix& key, const Mask* mask, bool scale,
                                                 float masked_value) {
  return attention_weights(query, key, mask, scale, masked_value);
}

}  // namespace attn
