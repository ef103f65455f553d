// Multi-head attention: h independent scaled dot-product lookups on learned projections.
//
// Weight layout is y = x W + b with W of shape (in, out), the layout of Keras and of a
// row-major x. PyTorch stores (out, in); set_from_pytorch() transposes.
// Legend: d = d_model, h = num_heads, k = key_dim, hk = h * k.
#pragma once

#include "attn/attention.hpp"
#include "attn/config.hpp"
#include "attn/matrix.hpp"
#include "attn/random.hpp"

#include <vector>

namespace attn {

struct MultiHeadResult {
  Matrix output;                // (n_q, d)
  std::vector<Matrix> weights;  // h matrices (n_q, n_k), one per head
};

enum class Projection { query, key, value, output };

// The most weights and biases one layer may hold: a typo in a size is refused before anything
// is allocated.
constexpr long kMaxMultiHeadParameters = kMaxElements;

class MultiHeadAttention {
 public:
  // key_dim 0 means d_model / num_heads, which then must divide evenly. All weights start at
  // zero: set them, or draw them with init_glorot_uniform(). Throws attn::ArgumentError
  // for sizes out of range or a layer above kMaxMultiHeadParameters.
  MultiHeadAttention(int d_model, int num_heads, int key_dim = 0);

  // Draws every kernel from Glorot uniform with Keras's fan rules for its 3-D kernels
  // (query/key/value (d, h, k): fan_in d h, fan_out d k; output (h, k, d): fan_in h k,
  // fan_out h d) and sets the biases to zero, as keras.layers.MultiHeadAttention does.
  void init_glorot_uniform(Random& rng);

  int d_model() const { return d_model_; }
  int num_heads() const { return num_heads_; }
  int key_dim() const { return key_dim_; }
  // Every weight and bias: 3 (d hk + hk) + hk d + d.
  long parameter_count() const;

  // weight (d, hk) and bias (1, hk) for query/key/value; weight (hk, d) and bias (1, d) for
  // output.
  void set_projection(Projection which, const Matrix& weight, const Matrix& bias);
  const Matrix& weight(Projection which) const;
  const Matrix& bias(Projection which) const;

  // PyTorch nn.MultiheadAttention's parameters: in_proj_weight (3d, d), in_proj_bias (1, 3d),
  // out_proj_weight (d, d), out_proj_bias (1, d). Requires h k = d.
  void set_from_pytorch(const Matrix& in_proj_weight, const Matrix& in_proj_bias, const Matrix& out_proj_weight,
                        const Matrix& out_proj_bias);

  // query (n_q, d), key (n_k, d), value (n_k, d), mask (n_q, n_k) or null
  //   -> output (n_q, d), weights h x (n_q, n_k).
  MultiHeadResult forward(const Matrix& query, const Matrix& key, const Matrix& value, const Mask* mask = nullptr,
                          const AttentionOptions& options = {}) const;

 private:
  int d_model_, num_heads_, key_dim_;
  Matrix weights_[4];  // indexed by Projection
  Matrix biases_[4];
};

}  // namespace attn
