#include "attn/nn/transformer.hpp"

#include <stdexcept>
#include <string>

namespace attn::nn {
namespace {

int key_width(const TransformerConfig& c) { return c.key_dim > 0 ? c.key_dim : c.d_model / c.heads; }

}  // namespace

void require_transformer_config(const TransformerConfig& c) {
  require_fields(c);
  if (c.key_dim == 0 && c.d_model % c.heads != 0)
    throw ArgumentError("heads", ErrorCode::must_divide,
                        "must divide {d_model} = " + std::to_string(c.d_model) + " (when {key_dim} is 0), got " +
                            std::to_string(c.heads),
                        {{"d_model", double(c.d_model)}, {"got", double(c.heads)}});
  if (long(c.heads) * key_width(c) * c.d_model > kMaxElements)
    throw ArgumentError(
        "heads", ErrorCode::too_many_elements,
        "* {key_dim} * {d_model} must be at most " + std::to_string(kMaxElements) + " (one projection's weights)",
        {{"max", double(kMaxElements)}, {"got", double(long(c.heads) * key_width(c) * c.d_model)}});
}

long transformer_parameter_count(const TransformerConfig& c) {
  require_transformer_config(c);
  const long d = c.d_model, hk = long(c.heads) * key_width(c), f = c.d_ff;
  const long attention = 3 * (d * hk + hk) + hk * d + d;
  const long block = attention + 2 * (2 * d) + (d * f + f) + (f * d + d);
  return long(c.vocabulary) * d + c.blocks * block + d * c.classes + c.classes;
}

// ---- TransformerBlock

template <typename T>
TransformerBlock<T>::TransformerBlock(const TransformerConfig& c)
    : post_ln(c.post_layer_norm),
      norm1(c.d_model, c.layer_norm_epsilon),
      norm2(c.d_model, c.layer_norm_epsilon),
      attention(c.d_model, c.heads, key_width(c)),
      ffn(c.d_model, c.d_ff),
      drop_attention(c.dropout),
      drop_ffn(c.dropout) {}

template <typename T>
void TransformerBlock<T>::init(Random& rng) {
  attention.init_glorot_uniform(rng);
  ffn.init_glorot_uniform(rng);
}

template <typename T>
Mat<T> TransformerBlock<T>::forward(const Mat<T>& x, int b, int t, bool last_query_only, Random* rng) {
  batch = b;
  length = t;
  last_only = last_query_only;
  const Mat<T> residual = last_only ? gather_last_rows<T>(x, length) : x;  // (B R, d)
  Mat<T> y;
  if (!post_ln) {
    const Mat<T> x1 =
        residual + drop_attention.forward(attention.forward(norm1.forward(x), batch, length, last_only), rng);
    y = x1 + drop_ffn.forward(ffn.forward(norm2.forward(x1)), rng);
  } else {
    const Mat<T> x1 =
        norm1.forward(residual + drop_attention.forward(attention.forward(x, batch, length, last_only), rng));
    y = norm2.forward(x1 + drop_ffn.forward(ffn.forward(x1), rng));
  }
  if (edit_output) edit_output(y);
  return y;
}

template <typename T>
Mat<T> TransformerBlock<T>::backward(const Mat<T>& dy) {
  Mat<T> d_residual, dx;  // d_residual (B R, d) reaches the rows the residual came from
  if (!post_ln) {
    d_residual = dy + norm2.backward(ffn.backward(drop_ffn.backward(dy)));
    dx = norm1.backward(attention.backward(drop_attention.backward(d_residual)));
  } else {
    const Mat<T> ds2 = norm2.backward(dy);
    d_residual = norm1.backward(ds2 + ffn.backward(drop_ffn.backward(ds2)));
    dx = attention.backward(drop_attention.backward(d_residual));
  }
  if (last_only)
    scatter_add_last_rows<T>(dx, d_residual, length);
  else
    dx += d_residual;
  return dx;
}

template <typename T>
void TransformerBlock<T>::parameters(ParameterList<T>& out, const std::string& prefix) {
  attention.parameters(out, prefix + ".attention");
  norm1.parameters(out, prefix + ".norm1");
  ffn.parameters(out, prefix + ".ffn");
  norm2.parameters(out, prefix + ".norm2");
}

// ---- TinyTransformer

template <typename T>
TinyTransformer<T>::TinyTransformer(const TransformerConfig& config) : config_(config) {
  require_transformer_config(config);
  embedding_ = Embedding<T>(config.vocabulary, config.d_model);
  positions_ = PositionalEncoding<T>(config.length, config.d_model);
  drop_input_ = Dropout<T>(config.dropout);
  for (int i = 0; i < config.blocks; ++i) blocks_.emplace_back(config);
  head_ = Linear<T>(config.d_model, config.classes);
  embedding_.parameters(params_, "embedding");
  for (int i = 0; i < config.blocks; ++i) blocks_[std::size_t(i)].parameters(params_, "block" + std::to_string(i + 1));
  head_.parameters(params_, "head");
}

template <typename T>
void TinyTransformer<T>::init(Random& rng) {
  embedding_.init_uniform(rng);
  for (auto& block : blocks_) block.init(rng);
  head_.init_glorot_uniform(rng);
}

template <typename T>
Mat<T> TinyTransformer<T>::forward(const std::vector<int>& tokens, Random* rng, bool last_query_only) {
  const int length = config_.length;
  if (tokens.empty() || tokens.size() % std::size_t(length) != 0)
    throw ArgumentError("tokens", ErrorCode::bad_length,
                        "must hold a whole number of sequences of length " + std::to_string(length) + ", got " +
                            std::to_string(tokens.size()),
                        {{"length", double(length)}, {"got", double(tokens.size())}});
  batch_ = int(tokens.size() / std::size_t(length));
  Mat<T> x = embedding_.forward(tokens);
  positions_.forward(x);
  x = drop_input_.forward(x, rng);
  for (std::size_t i = 0; i < blocks_.size(); ++i) {
    const bool last = i + 1 == blocks_.size();
    x = blocks_[i].forward(x, batch_, length, last && last_query_only, rng);
  }
  last_block_full_ = !last_query_only;
  return head_.forward(last_block_full_ ? gather_last_rows<T>(x, length) : x);
}

template <typename T>
void TinyTransformer<T>::backward(const Mat<T>& dlogits) {
  const int length = config_.length;
  Mat<T> dx = head_.backward(dlogits);  // (B, d)
  if (last_block_full_) {
    Mat<T> full = Mat<T>::Zero(Eigen::Index(batch_) * length, dx.cols());
    scatter_add_last_rows<T>(full, dx, length);
    dx = std::move(full);
  }
  for (std::size_t i = blocks_.size(); i-- > 0;) dx = blocks_[i].backward(dx);
  embedding_.backward(drop_input_.backward(dx));
}

template struct TransformerBlock<float>;
template struct TransformerBlock<double>;
template class TinyTransformer<float>;
template class TinyTransformer<double>;

}  // namespace attn::nn
