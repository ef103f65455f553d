// The layers of the tiny transformer, each a struct with forward() and backward().
//
// Habits (after karpathy/llm.c): every layer states its shapes once, here; forward() keeps
// what backward() needs inside the struct (so call backward() right after the forward() it
// belongs to); backward() takes d(loss)/d(output), returns d(loss)/d(input) and ADDS the
// parameter gradients into the d_* members, which sit next to the parameters so the
// optimiser can walk one flat list of (value, gradient) pairs (see parameters()).
// Every layer is a template over the scalar: float trains, double is what the
// finite-difference gradient checks use.
//
// Legend: B = sequences in a batch, T = tokens per sequence, N = B * T rows, d = d_model,
// h = heads, k = key width per head, hk = h * k, f = feed-forward width, R = query rows per
// sequence (T, or 1 when only the last position's query is needed).
//
// All products, sums, exp and log go through core/src/nn/kernels.hpp (fixed order of
// operations, the same rounding natively and in WebAssembly); elementwise Eigen expressions
// are exact.
// Left out on purpose: masks (the cue task attends bidirectionally), multi-threading, any
// tape or automatic differentiation, any I/O.
#pragma once

#include "attn/matrix.hpp"
#include "attn/random.hpp"
#include "attn/softmax.hpp"

#include <functional>
#include <string>
#include <vector>

namespace attn::nn {

template <typename T>
using Mat = MatrixOf<T>;

// One trainable tensor and its gradient.
template <typename T>
struct Parameter {
  std::string name;
  Mat<T>* value;
  Mat<T>* grad;
};

template <typename T>
using ParameterList = std::vector<Parameter<T>>;

// Sets every gradient in the list to zero.
template <typename T>
void zero_grad(const ParameterList<T>& params);

// Total number of scalars in the list.
template <typename T>
long count_parameters(const ParameterList<T>& params);

// Rows b * T + T - 1 of x (B * T, c) -> (B, c): each sequence's last position.
template <typename T>
Mat<T> gather_last_rows(const Mat<T>& x, int length);
// dst (B * T, c) rows b * T + T - 1 += src (B, c).
template <typename T>
void scatter_add_last_rows(Mat<T>& dst, const Mat<T>& src, int length);

// y = x W + b. weight (in, out), bias (1, out): the layout of attn::MultiHeadAttention and
// of Keras.
template <typename T>
struct Linear {
  Mat<T> weight, bias, d_weight, d_bias;
  Mat<T> x;  // cached input

  Linear() = default;
  Linear(int in, int out);
  // Glorot uniform kernel (limit sqrt(6 / (in + out))), zero bias: Keras's Dense default.
  void init_glorot_uniform(Random& rng);
  // x (n, in) -> y (n, out)
  Mat<T> forward(const Mat<T>& input);
  // dy (n, out) -> dx (n, in)
  Mat<T> backward(const Mat<T>& dy);
  void parameters(ParameterList<T>& out, const std::string& prefix);
};

// Normalises each row to mean 0, variance 1 (biased variance, epsilon inside the root),
// then y = gamma * x_hat + beta.
template <typename T>
struct LayerNorm {
  Mat<T> gamma, beta, d_gamma, d_beta;  // (1, d); gamma starts at 1, beta at 0
  T epsilon = T(1e-6);
  Mat<T> x_hat;                                 // (n, d) cached
  Eigen::Matrix<T, Eigen::Dynamic, 1> inv_std;  // (n) cached

  LayerNorm() = default;
  LayerNorm(int d, double epsilon);
  // x (n, d) -> y (n, d)
  Mat<T> forward(const Mat<T>& x);
  // dy (n, d) -> dx (n, d)
  Mat<T> backward(const Mat<T>& dy);
  void parameters(ParameterList<T>& out, const std::string& prefix);
};

// Token ids -> rows of a learned table.
template <typename T>
struct Embedding {
  Mat<T> table, d_table;    // (vocabulary, d)
  std::vector<int> tokens;  // cached

  Embedding() = default;
  Embedding(int vocabulary, int d);
  // uniform(-0.05, 0.05), Keras's Embedding default.
  void init_uniform(Random& rng);
  // tokens (N) -> x (N, d). Throws attn::ArgumentError for an id outside the vocabulary.
  Mat<T> forward(const std::vector<int>& ids);
  // dx (N, d) -> nothing (tokens have no gradient); adds into d_table.
  void backward(const Mat<T>& dx);
  void parameters(ParameterList<T>& out, const std::string& prefix);
};

// Fixed sinusoids added to the embeddings: even columns 2i get sin(t / 10000^(2i/d)), odd
// columns 2i+1 the matching cos. No parameters; its backward is the identity.
template <typename T>
struct PositionalEncoding {
  Mat<T> table;  // (T, d)

  PositionalEncoding() = default;
  PositionalEncoding(int length, int d);
  // x (B * T, d) -> x + the table repeated per sequence, in place.
  void forward(Mat<T>& x) const;
};

// Inverted dropout: in training each entry is zeroed with probability `rate` and the
// survivors scaled by 1 / (1 - rate); at evaluation (rng null) it is the identity. One
// rng.uniform() draw per entry, in row-major order.
template <typename T>
struct Dropout {
  double rate = 0.0;
  Mat<T> mask;  // (n, c) cached: 0 or 1 / (1 - rate); empty when inactive
  bool active = false;

  Dropout() = default;
  explicit Dropout(double rate);
  // x (n, c) -> y (n, c)
  Mat<T> forward(const Mat<T>& x, Random* rng);
  // dy (n, c) -> dx (n, c)
  Mat<T> backward(const Mat<T>& dy) const;
};

// Dense(f, ReLU) -> Dense(d).
template <typename T>
struct FeedForward {
  Linear<T> up, down;  // (d, f), (f, d)
  Mat<T> pre;          // (n, f) cached pre-activation

  FeedForward() = default;
  FeedForward(int d, int f);
  void init_glorot_uniform(Random& rng);
  // x (n, d) -> y (n, d)
  Mat<T> forward(const Mat<T>& x);
  // dy (n, d) -> dx (n, d)
  Mat<T> backward(const Mat<T>& dy);
  void parameters(ParameterList<T>& out, const std::string& prefix);
};

// Multi-head self-attention over each sequence of a batch, no mask.
// The projections are attn::MultiHeadAttention's (y = x W + b, W (in, out), per-head slices
// of hk columns) and are drawn by its init_glorot_uniform(), so the Keras fan rules live in
// one place. This layer keeps its own copies because training needs a gradient beside every
// weight and caches beside every input, which the inference class does not hold. Per head it
// computes what attn::attention_weights_unchecked() does (softmax(q k^T / sqrt(k)), the same
// rounded scale), but with the fixed-order kernels of core/src/nn/kernels.hpp so a run trains
// the same natively and in WebAssembly; tests/core/nn check it against attn::MultiHeadAttention.
template <typename T>
struct SelfAttention {
  int heads = 1, key_dim = 0;
  Linear<T> query, key, value, output;  // (d, hk) x3, (hk, d)
  // Cached by forward():
  int batch = 0, length = 0, rows = 0;  // B, T, R
  Mat<T> q, k, v, context;              // (B R, hk), (N, hk), (N, hk), (B R, hk)
  std::vector<Mat<T>> weights;          // B * h matrices (R, T), index b * h + head
  // Interventions (attn/cue/intervene.hpp), empty in training: edit_weights(b, head, w) may
  // change sequence b's attention pattern (R, T) before it weighs the values; edit_context(c)
  // may change the context (B R, hk), every head's output before W_O, before the projection.
  std::function<void(int b, int head, Mat<T>& weights)> edit_weights;
  std::function<void(Mat<T>& context)> edit_context;

  SelfAttention() = default;
  SelfAttention(int d, int heads, int key_dim);
  void init_glorot_uniform(Random& rng);
  // x (B * T, d) -> y (B * R, d); R = 1 when last_query_only (queries from each sequence's
  // last position only, keys and values from every position), else R = T.
  Mat<T> forward(const Mat<T>& x, int batch, int length, bool last_query_only);
  // dy (B * R, d) -> dx (B * T, d)
  Mat<T> backward(const Mat<T>& dy);
  // The attention of sequence b, head `head`: (R, T), rows sum to 1.
  const Mat<T>& weights_of(int b, int head) const { return weights[std::size_t(b) * heads + head]; }
  void parameters(ParameterList<T>& out, const std::string& prefix);
};

// Softmax over classes, then the mean negative log-likelihood of the labels.
template <typename T>
struct SoftmaxCrossEntropy {
  Mat<T> probabilities;  // (B, C) cached
  std::vector<int> labels;

  // logits (B, C), labels (B) -> mean loss. Throws attn::ArgumentError for a label outside
  // 0..C-1 or a label count that is not B.
  T forward(const Mat<T>& logits, const std::vector<int>& labels);
  // -> dlogits (B, C) of the mean loss
  Mat<T> backward() const;
};

// Index of the largest entry of each row: logits (B, C) -> (B).
template <typename T>
std::vector<int> argmax_rows(const Mat<T>& logits);

}  // namespace attn::nn
