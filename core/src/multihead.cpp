#include "attn/multihead.hpp"

#include "products.hpp"

#include <cmath>
#include <string>

namespace attn {
namespace {

const char* name_of(Projection which) {
  switch (which) {
    case Projection::query: return "query";
    case Projection::key: return "key";
    case Projection::value: return "value";
    case Projection::output: return "output";
  }
  return "?";
}

void require_shape(const std::string& name, const Matrix& m, Eigen::Index rows, Eigen::Index cols) {
  if (m.rows() != rows || m.cols() != cols)
    throw ArgumentError(name, ErrorCode::bad_shape, "must have shape " + shape_of(rows, cols) + ", got " + shape_of(m),
                        {{"rows", double(rows)},
                         {"cols", double(cols)},
                         {"got_rows", double(m.rows())},
                         {"got_cols", double(m.cols())}});
  require_finite(name.c_str(), m);
}

// A projection of finite inputs that overflowed float32 (inputs or weights near 1e20).
void require_projection_finite(const char* name, const Matrix& m) {
  if (all_finite(m)) return;
  for (Eigen::Index i = 0; i < m.rows(); ++i)
    for (Eigen::Index j = 0; j < m.cols(); ++j)
      if (!std::isfinite(m(i, j)))
        throw ArgumentError(name, ErrorCode::too_large,
                            "after its projection ({" + std::string(name) +
                                "} or its weights too large) must be finite, got " + std::to_string(m(i, j)) + " at (" +
                                std::to_string(i) + ", " + std::to_string(j) + ") of shape " + shape_of(m),
                            {{"row", double(i)}, {"col", double(j)}});
}

}  // namespace

MultiHeadAttention::MultiHeadAttention(int d_model, int num_heads, int key_dim)
    : d_model_(d_model), num_heads_(num_heads), key_dim_(key_dim) {
  if (d_model < 1 || d_model > 65536)
    throw ArgumentError("d_model", ErrorCode::out_of_range,
                        "must be between 1 and 65536, got " + std::to_string(d_model),
                        {{"min", 1}, {"max", 65536}, {"got", double(d_model)}});
  if (num_heads < 1 || num_heads > d_model)
    throw ArgumentError(
        "num_heads", ErrorCode::out_of_range,
        "must be between 1 and {d_model} = " + std::to_string(d_model) + ", got " + std::to_string(num_heads),
        {{"min", 1}, {"max", double(d_model)}, {"got", double(num_heads)}});
  if (key_dim == 0) {
    if (d_model % num_heads != 0)
      throw ArgumentError("num_heads", ErrorCode::must_divide,
                          "must divide {d_model} = " + std::to_string(d_model) + " when {key_dim} is not given, got " +
                              std::to_string(num_heads),
                          {{"d_model", double(d_model)}, {"got", double(num_heads)}});
    key_dim_ = d_model / num_heads;
  } else if (key_dim < 0 || key_dim > 65536) {
    throw ArgumentError(
        "key_dim", ErrorCode::out_of_range,
        "must be between 1 and 65536 (or 0 for {d_model} / {num_heads}), got " + std::to_string(key_dim),
        {{"min", 0}, {"max", 65536}, {"got", double(key_dim)}});
  }
  // In long: num_heads * key_dim alone can pass INT_MAX (65536 * 65536), and the four kernels
  // of a layer at the edges would need tens of gigabytes.
  const long hk_long = long(num_heads_) * key_dim_;
  const long parameters = 4 * long(d_model_) * hk_long + 3 * hk_long + d_model_;
  if (parameters > kMaxMultiHeadParameters)
    throw ArgumentError("d_model", ErrorCode::too_many_elements,
                        std::to_string(d_model) + ", {num_heads} " + std::to_string(num_heads) + ", {key_dim} " +
                            std::to_string(key_dim_) + " need " + std::to_string(parameters) +
                            " parameters, more than the limit " + std::to_string(kMaxMultiHeadParameters),
                        {{"max", double(kMaxMultiHeadParameters)}, {"got", double(parameters)}});
  const int hk = int(hk_long);
  for (Projection p : {Projection::query, Projection::key, Projection::value}) {
    weights_[int(p)] = Matrix::Zero(d_model_, hk);
    biases_[int(p)] = Matrix::Zero(1, hk);
  }
  weights_[int(Projection::output)] = Matrix::Zero(hk, d_model_);
  biases_[int(Projection::output)] = Matrix::Zero(1, d_model_);
}

void MultiHeadAttention::init_glorot_uniform(Random& rng) {
  const double d = d_model_, h = num_heads_, k = key_dim_;
  auto draw = [&rng](Matrix& w, double fan_in, double fan_out) {
    const double limit = std::sqrt(6.0 / (fan_in + fan_out));
    w = rng.uniform_matrix(w.rows(), w.cols(), -limit, limit);
  };
  for (Projection p : {Projection::query, Projection::key, Projection::value}) draw(weights_[int(p)], d * h, d * k);
  draw(weights_[int(Projection::output)], h * k, h * d);
  for (auto& b : biases_) b.setZero();
}

long MultiHeadAttention::parameter_count() const {
  long count = 0;
  for (int p = 0; p < 4; ++p) count += long(weights_[p].size()) + long(biases_[p].size());
  return count;
}

void MultiHeadAttention::set_projection(Projection which, const Matrix& weight, const Matrix& bias) {
  const std::string name = name_of(which);
  const Matrix& old_w = weights_[int(which)];
  require_shape(name + " weight", weight, old_w.rows(), old_w.cols());
  require_shape(name + " bias", bias, 1, biases_[int(which)].cols());
  weights_[int(which)] = weight;
  biases_[int(which)] = bias;
}

const Matrix& MultiHeadAttention::weight(Projection which) const { return weights_[int(which)]; }
const Matrix& MultiHeadAttention::bias(Projection which) const { return biases_[int(which)]; }

void MultiHeadAttention::set_from_pytorch(const Matrix& in_proj_weight, const Matrix& in_proj_bias,
                                          const Matrix& out_proj_weight, const Matrix& out_proj_bias) {
  const int d = d_model_;
  if (num_heads_ * key_dim_ != d)
    throw ArgumentError("in_proj_weight", ErrorCode::bad_shape,
                        "needs a layer whose {num_heads} * {key_dim} = {d_model}, got " + std::to_string(num_heads_) +
                            " * " + std::to_string(key_dim_) + " != " + std::to_string(d),
                        {{"d_model", double(d)}, {"num_heads", double(num_heads_)}, {"key_dim", double(key_dim_)}});
  require_shape("in_proj_weight", in_proj_weight, 3 * d, d);
  require_shape("in_proj_bias", in_proj_bias, 1, 3 * d);
  require_shape("out_proj_weight", out_proj_weight, d, d);
  require_shape("out_proj_bias", out_proj_bias, 1, d);
  // Rows [0, d) of in_proj are the query projection, then key, then value.
  for (Projection p : {Projection::query, Projection::key, Projection::value}) {
    weights_[int(p)] = in_proj_weight.middleRows(int(p) * d, d).transpose();
    biases_[int(p)] = in_proj_bias.middleCols(int(p) * d, d);
  }
  weights_[int(Projection::output)] = out_proj_weight.transpose();
  biases_[int(Projection::output)] = out_proj_bias;
}

MultiHeadResult MultiHeadAttention::forward(const Matrix& query, const Matrix& key, const Matrix& value,
                                            const Mask* mask, const AttentionOptions& options) const {
  require_values("query", query);
  require_values("key", key);
  require_values("value", value);
  require_cols("query", query, d_model_, "{d_model}");
  require_cols("key", key, d_model_, "{d_model}");
  require_cols("value", value, d_model_, "{d_model}");
  require_rows("value", value, key.rows(), "as many as key");
  require_options(options);
  if (mask && (mask->rows() != query.rows() || mask->cols() != key.rows()))
    throw mask_shape_error(query.rows(), key.rows(), *mask);

  auto project = [this](const Matrix& x, Projection p) -> Matrix {
    Matrix y(x.rows(), weights_[int(p)].cols());
    product_into(x, weights_[int(p)], y);
    y.rowwise() += biases_[int(p)].row(0);
    return y;
  };
  // Finite inputs and weights can still overflow float32 in a product (entries near 1e20):
  // refuse that here rather than hand back NaN weights or an infinite output.
  const Matrix q = project(query, Projection::query);
  const Matrix k = project(key, Projection::key);
  const Matrix v = project(value, Projection::value);
  require_projection_finite("query", q);
  require_projection_finite("key", k);
  require_projection_finite("value", v);

  MultiHeadResult result;
  Matrix concat(query.rows(), num_heads_ * key_dim_);
  for (int h = 0; h < num_heads_; ++h) {
    const Eigen::Index c = Eigen::Index(h) * key_dim_;
    Matrix w = attention_weights(q.middleCols(c, key_dim_), k.middleCols(c, key_dim_), mask, options.scale,
                                 options.masked_value);
    require_no_score_overflow("projected query and key", q.middleCols(c, key_dim_), k.middleCols(c, key_dim_), w, mask,
                              options);
    product_into(w, v.middleCols(c, key_dim_), concat.middleCols(c, key_dim_));
    for (Eigen::Index i = 0; i < w.rows(); ++i)
      if (row_finite(w, i) && !all_finite(concat.data() + i * concat.cols() + c, key_dim_))
        throw ArgumentError("value", ErrorCode::too_large,
                            "is too large after its projection: head " + std::to_string(h) +
                                " overflows float32 at row " + std::to_string(i) + " (values near the limit 3.4e38)",
                            {{"head", double(h)}, {"row", double(i)}});
    result.weights.push_back(std::move(w));
  }
  result.output = project(concat, Projection::output);
  // A NaN row of concat is a fully masked row with masked_value -inf (documented); any other
  // non-finite output row is an overflow in the output projection.
  if (!all_finite(result.output))
    for (Eigen::Index i = 0; i < concat.rows(); ++i)
      if (row_finite(concat, i) && !row_finite(result.output, i))
        throw ArgumentError("output", ErrorCode::too_large,
                            "projection overflows float32 at row " + std::to_string(i) +
                                " (its weights or the attended values too large)",
                            {{"row", double(i)}});
  return result;
}

}  // namespace attn
