#include "attn/nn/layers.hpp"

#include "attn/multihead.hpp"
#include "nn/kernels.hpp"

#include <cmath>
#include <stdexcept>
#include <vector>

namespace attn::nn {

template <typename T>
void zero_grad(const ParameterList<T>& params) {
  for (const auto& p : params) p.grad->setZero();
}

template <typename T>
long count_parameters(const ParameterList<T>& params) {
  long n = 0;
  for (const auto& p : params) n += long(p.value->size());
  return n;
}

template <typename T>
Mat<T> gather_last_rows(const Mat<T>& x, int length) {
  const Eigen::Index batch = x.rows() / length;
  Mat<T> out(batch, x.cols());
  for (Eigen::Index b = 0; b < batch; ++b) out.row(b) = x.row(b * length + length - 1);
  return out;
}

template <typename T>
void scatter_add_last_rows(Mat<T>& dst, const Mat<T>& src, int length) {
  for (Eigen::Index b = 0; b < src.rows(); ++b) dst.row(b * length + length - 1) += src.row(b);
}

// ---- Linear

template <typename T>
Linear<T>::Linear(int in, int out)
    : weight(Mat<T>::Zero(in, out)),
      bias(Mat<T>::Zero(1, out)),
      d_weight(Mat<T>::Zero(in, out)),
      d_bias(Mat<T>::Zero(1, out)) {}

template <typename T>
void Linear<T>::init_glorot_uniform(Random& rng) {
  const double limit = std::sqrt(6.0 / double(weight.rows() + weight.cols()));
  weight = rng.uniform_matrix(weight.rows(), weight.cols(), -limit, limit).template cast<T>();
  bias.setZero();
}

template <typename T>
Mat<T> Linear<T>::forward(const Mat<T>& input) {
  x = input;
  Mat<T> y = kernels::matmul<T>(x, weight);
  kernels::add_row_to_rows<T>(bias.data(), y);
  return y;
}

template <typename T>
Mat<T> Linear<T>::backward(const Mat<T>& dy) {
  kernels::add_matmul_at<T>(x, dy, d_weight);
  kernels::add_column_sums<T>(dy, d_bias);
  return kernels::matmul_bt<T>(dy, weight);
}

template <typename T>
void Linear<T>::parameters(ParameterList<T>& out, const std::string& prefix) {
  out.push_back({prefix + ".weight", &weight, &d_weight});
  out.push_back({prefix + ".bias", &bias, &d_bias});
}

// ---- LayerNorm

template <typename T>
LayerNorm<T>::LayerNorm(int d, double eps)
    : gamma(Mat<T>::Ones(1, d)),
      beta(Mat<T>::Zero(1, d)),
      d_gamma(Mat<T>::Zero(1, d)),
      d_beta(Mat<T>::Zero(1, d)),
      epsilon(T(eps)) {}

namespace {

// LayerNorm works on kNormRows rows at a time: each row's sums still run in index order (see
// kernels.hpp), but the rows' chains of dependent adds are independent, so the CPU overlaps
// them instead of waiting out each add's latency in turn (bench/profile_training.mjs shows
// LayerNorm's share of the training's time in WebAssembly). The elementwise
// steps are plain loops, which the compiler vectorises (Eigen's row expressions stay scalar in
// WebAssembly).
constexpr int kNormRows = 4;

// G rows of x (G, d) -> x_hat (G, d), inv_std (G) and y (G, d); rows are d apart.
template <int G, typename T>
void layer_norm_rows(const T* x, T* x_hat, T* inv_std, T* y, long d, const T* gamma, const T* beta, T epsilon) {
  T sum[G] = {}, squares[G] = {};
  for (long j = 0; j < d; ++j)
    for (int r = 0; r < G; ++r) sum[r] += x[r * d + j];
  for (int r = 0; r < G; ++r) {
    const T mean = sum[r] / T(d);
    for (long j = 0; j < d; ++j) x_hat[r * d + j] = x[r * d + j] - mean;
  }
  for (long j = 0; j < d; ++j)
    for (int r = 0; r < G; ++r) squares[r] += x_hat[r * d + j] * x_hat[r * d + j];
  for (int r = 0; r < G; ++r) {
    const T var = squares[r] / T(d);
    const T s = inv_std[r] = T(1) / std::sqrt(var + epsilon);
    T* hi = x_hat + r * d;
    T* yi = y + r * d;
    for (long j = 0; j < d; ++j) hi[j] *= s;
    for (long j = 0; j < d; ++j) yi[j] = hi[j] * gamma[j] + beta[j];
  }
}

// G rows of dy (G, d) -> dx (G, d), with g (G, d) as room for d loss / d x_hat.
template <int G, typename T>
void layer_norm_backward_rows(const T* dy, const T* x_hat, const T* inv_std, T* dx, T* g, long d, const T* gamma) {
  for (int r = 0; r < G; ++r)
    for (long j = 0; j < d; ++j) g[r * d + j] = dy[r * d + j] * gamma[j];
  T sum_g[G] = {}, sum_gx[G] = {};
  for (long j = 0; j < d; ++j)
    for (int r = 0; r < G; ++r) {
      sum_g[r] += g[r * d + j];
      sum_gx[r] += g[r * d + j] * x_hat[r * d + j];
    }
  for (int r = 0; r < G; ++r) {
    const T mean_g = sum_g[r] / T(d), mean_gx = sum_gx[r] / T(d), s = inv_std[r];
    const T *gi = g + r * d, *hi = x_hat + r * d;
    T* dxi = dx + r * d;
    for (long j = 0; j < d; ++j) dxi[j] = s * ((gi[j] - mean_g) - hi[j] * mean_gx);
  }
}

}  // namespace

template <typename T>
Mat<T> LayerNorm<T>::forward(const Mat<T>& x) {
  const Eigen::Index n = x.rows(), d = x.cols();
  x_hat.resize(n, d);
  inv_std.resize(n);
  Mat<T> y(n, d);
  Eigen::Index i = 0;
  for (; i + kNormRows <= n; i += kNormRows)
    layer_norm_rows<kNormRows>(x.data() + i * d, x_hat.data() + i * d, inv_std.data() + i, y.data() + i * d, d,
                               gamma.data(), beta.data(), epsilon);
  for (; i < n; ++i)
    layer_norm_rows<1>(x.data() + i * d, x_hat.data() + i * d, inv_std.data() + i, y.data() + i * d, d, gamma.data(),
                       beta.data(), epsilon);
  return y;
}

template <typename T>
Mat<T> LayerNorm<T>::backward(const Mat<T>& dy) {
  const Eigen::Index n = dy.rows(), d = dy.cols();
  kernels::add_column_sums<T>(dy.cwiseProduct(x_hat), d_gamma);
  kernels::add_column_sums<T>(dy, d_beta);
  Mat<T> dx(n, d);
  std::vector<T> g(static_cast<std::size_t>(kNormRows * d));
  Eigen::Index i = 0;
  for (; i + kNormRows <= n; i += kNormRows)
    layer_norm_backward_rows<kNormRows>(dy.data() + i * d, x_hat.data() + i * d, inv_std.data() + i, dx.data() + i * d,
                                        g.data(), d, gamma.data());
  for (; i < n; ++i)
    layer_norm_backward_rows<1>(dy.data() + i * d, x_hat.data() + i * d, inv_std.data() + i, dx.data() + i * d,
                                g.data(), d, gamma.data());
  return dx;
}

template <typename T>
void LayerNorm<T>::parameters(ParameterList<T>& out, const std::string& prefix) {
  out.push_back({prefix + ".gamma", &gamma, &d_gamma});
  out.push_back({prefix + ".beta", &beta, &d_beta});
}

// ---- Embedding

template <typename T>
Embedding<T>::Embedding(int vocabulary, int d)
    : table(Mat<T>::Zero(vocabulary, d)), d_table(Mat<T>::Zero(vocabulary, d)) {}

template <typename T>
void Embedding<T>::init_uniform(Random& rng) {
  table = rng.uniform_matrix(table.rows(), table.cols(), -0.05, 0.05).template cast<T>();
}

template <typename T>
Mat<T> Embedding<T>::forward(const std::vector<int>& ids) {
  Mat<T> x(Eigen::Index(ids.size()), table.cols());
  for (std::size_t i = 0; i < ids.size(); ++i) {
    if (ids[i] < 0 || ids[i] >= table.rows())
      throw ArgumentError(
          "tokens", ErrorCode::out_of_range,
          "must be token ids in 0.." + std::to_string(table.rows() - 1) + ", got " + std::to_string(ids[i]) +
              " at index " + std::to_string(i),
          {{"min", 0}, {"max", double(table.rows() - 1)}, {"got", double(ids[i])}, {"index", double(i)}});
    x.row(Eigen::Index(i)) = table.row(ids[i]);
  }
  tokens = ids;
  return x;
}

template <typename T>
void Embedding<T>::backward(const Mat<T>& dx) {
  for (std::size_t i = 0; i < tokens.size(); ++i) d_table.row(tokens[i]) += dx.row(Eigen::Index(i));
}

template <typename T>
void Embedding<T>::parameters(ParameterList<T>& out, const std::string& prefix) {
  out.push_back({prefix + ".table", &table, &d_table});
}

// ---- PositionalEncoding

template <typename T>
PositionalEncoding<T>::PositionalEncoding(int length, int d) : table(length, d) {
  // Computed in double and rounded once: sin/cos/pow of the C library may differ in the last
  // bit between platforms, which rounding to float almost always hides.
  for (int t = 0; t < length; ++t)
    for (int c = 0; c < d; ++c) {
      const double angle = t / std::pow(10000.0, double(c - c % 2) / d);
      table(t, c) = T(c % 2 == 0 ? std::sin(angle) : std::cos(angle));
    }
}

template <typename T>
void PositionalEncoding<T>::forward(Mat<T>& x) const {
  const Eigen::Index length = table.rows();
  for (Eigen::Index r = 0; r < x.rows(); ++r) x.row(r) += table.row(r % length);
}

// ---- Dropout

template <typename T>
Dropout<T>::Dropout(double r) : rate(r) {
  if (!(r >= 0.0 && r < 1.0))
    throw ArgumentError("dropout", ErrorCode::out_of_range, "rate must be in [0, 1), got " + std::to_string(r),
                        {{"min", 0}, {"max", 1}, {"got", r}});
}

template <typename T>
Mat<T> Dropout<T>::forward(const Mat<T>& x, Random* rng) {
  active = rng != nullptr && rate > 0.0;
  if (!active) return x;
  const T keep_scale = T(1.0 / (1.0 - rate));
  // rng->uniform() < rate, decided on the draw's bits: uniform() is exactly
  // (next_u64() >> 11) * 2^-53, below rate exactly when those 53 bits are below
  // ceil(rate * 2^53). The same draws and masks, without a conversion to double per entry.
  const std::uint64_t drop_below = std::uint64_t(std::ceil(rate * 0x1.0p53));
  mask.resize(x.rows(), x.cols());
  T* m = mask.data();
  for (Eigen::Index i = 0; i < mask.size(); ++i) m[i] = (rng->next_u64() >> 11) < drop_below ? T(0) : keep_scale;
  return x.cwiseProduct(mask);
}

template <typename T>
Mat<T> Dropout<T>::backward(const Mat<T>& dy) const {
  return active ? Mat<T>(dy.cwiseProduct(mask)) : dy;
}

// ---- FeedForward

template <typename T>
FeedForward<T>::FeedForward(int d, int f) : up(d, f), down(f, d) {}

template <typename T>
void FeedForward<T>::init_glorot_uniform(Random& rng) {
  up.init_glorot_uniform(rng);
  down.init_glorot_uniform(rng);
}

template <typename T>
Mat<T> FeedForward<T>::forward(const Mat<T>& x) {
  pre = up.forward(x);
  return down.forward(pre.cwiseMax(T(0)));
}

template <typename T>
Mat<T> FeedForward<T>::backward(const Mat<T>& dy) {
  Mat<T> dh = down.backward(dy);
  kernels::relu_backward<T>(pre.data(), dh.data(), dh.size());
  return up.backward(dh);
}

template <typename T>
void FeedForward<T>::parameters(ParameterList<T>& out, const std::string& prefix) {
  up.parameters(out, prefix + ".up");
  down.parameters(out, prefix + ".down");
}

// ---- SelfAttention

template <typename T>
SelfAttention<T>::SelfAttention(int d, int h, int kd)
    : heads(h), key_dim(kd), query(d, h * kd), key(d, h * kd), value(d, h * kd), output(h * kd, d) {}

template <typename T>
void SelfAttention<T>::init_glorot_uniform(Random& rng) {
  MultiHeadAttention reference(int(query.weight.rows()), heads, key_dim);
  reference.init_glorot_uniform(rng);
  Linear<T>* mine[4] = {&query, &key, &value, &output};
  const Projection which[4] = {Projection::query, Projection::key, Projection::value, Projection::output};
  for (int i = 0; i < 4; ++i) {
    mine[i]->weight = reference.weight(which[i]).template cast<T>();
    mine[i]->bias = reference.bias(which[i]).template cast<T>();
  }
}

template <typename T>
Mat<T> SelfAttention<T>::forward(const Mat<T>& x, int batch_size, int seq_length, bool last_query_only) {
  batch = batch_size;
  length = seq_length;
  rows = last_query_only ? 1 : seq_length;
  q = query.forward(last_query_only ? gather_last_rows<T>(x, length) : x);
  k = key.forward(x);
  v = value.forward(x);
  context.resize(q.rows(), q.cols());
  weights.resize(std::size_t(batch) * heads);
  // The scale attn::attention_weights_unchecked() applies, rounded the same way.
  const T scale = T(1.0f / std::sqrt(static_cast<float>(key_dim)));
  const long ldq = q.cols(), ldk = k.cols();
  for (int b = 0; b < batch; ++b)
    for (int h = 0; h < heads; ++h) {
      const T* qb = q.data() + long(b) * rows * ldq + h * key_dim;    // (R, k)
      const T* kb = k.data() + long(b) * length * ldk + h * key_dim;  // (T, k)
      const T* vb = v.data() + long(b) * length * ldk + h * key_dim;  // (T, k)
      Mat<T>& w = weights[std::size_t(b) * heads + h];
      w.resize(rows, length);
      kernels::matmul_bt<T>(rows, key_dim, length, qb, ldq, kb, ldk, w.data(), length);
      w *= scale;
      kernels::softmax_rows<T>(w.data(), rows, length, length);
      if (edit_weights) edit_weights(b, h, w);
      kernels::matmul<T>(rows, length, key_dim, w.data(), length, vb, ldk,
                         context.data() + long(b) * rows * ldq + h * key_dim, ldq);
    }
  if (edit_context) edit_context(context);
  return output.forward(context);
}

template <typename T>
Mat<T> SelfAttention<T>::backward(const Mat<T>& dy) {
  const Mat<T> d_context = output.backward(dy);
  Mat<T> dq(q.rows(), q.cols()), dk = Mat<T>::Zero(k.rows(), k.cols()), dv = Mat<T>::Zero(v.rows(), v.cols());
  const T scale = T(1.0f / std::sqrt(static_cast<float>(key_dim)));
  const long ldq = q.cols(), ldk = k.cols();
  Mat<T> ds(rows, length);
  for (int b = 0; b < batch; ++b)
    for (int h = 0; h < heads; ++h) {
      const Mat<T>& w = weights[std::size_t(b) * heads + h];  // (R, T)
      const long q_at = long(b) * rows * ldq + h * key_dim, k_at = long(b) * length * ldk + h * key_dim;
      const T* dc = d_context.data() + q_at;  // (R, k)
      // d w = dc v_b^T (R, T); d v_b += w^T dc (T, k)
      kernels::matmul_bt<T>(rows, key_dim, length, dc, ldq, v.data() + k_at, ldk, ds.data(), length);
      kernels::add_matmul_at<T>(rows, length, key_dim, w.data(), length, dc, ldq, dv.data() + k_at, ldk);
      // Softmax backward per row: ds = w * (dw - sum_j dw_j w_j), then the score scale.
      for (int i = 0; i < rows; ++i) {
        T dot = 0;
        for (int j = 0; j < length; ++j) dot += ds(i, j) * w(i, j);
        for (int j = 0; j < length; ++j) ds(i, j) = w(i, j) * (ds(i, j) - dot) * scale;
      }
      // d q_b = ds k_b (R, k); d k_b += ds^T q_b (T, k)
      kernels::matmul<T>(rows, length, key_dim, ds.data(), length, k.data() + k_at, ldk, dq.data() + q_at, ldq);
      kernels::add_matmul_at<T>(rows, length, key_dim, ds.data(), length, q.data() + q_at, ldq, dk.data() + k_at, ldk);
    }
  Mat<T> dx = key.backward(dk);
  dx += value.backward(dv);
  const Mat<T> dxq = query.backward(dq);
  if (rows == length)
    dx += dxq;
  else
    scatter_add_last_rows<T>(dx, dxq, length);
  return dx;
}

template <typename T>
void SelfAttention<T>::parameters(ParameterList<T>& out, const std::string& prefix) {
  query.parameters(out, prefix + ".query");
  key.parameters(out, prefix + ".key");
  value.parameters(out, prefix + ".value");
  output.parameters(out, prefix + ".output");
}

// ---- SoftmaxCrossEntropy

template <typename T>
T SoftmaxCrossEntropy<T>::forward(const Mat<T>& logits, const std::vector<int>& y) {
  if (Eigen::Index(y.size()) != logits.rows())
    throw ArgumentError(
        "labels", ErrorCode::bad_length,
        "must have one entry per {logits} row (" + std::to_string(logits.rows()) + "), got " + std::to_string(y.size()),
        {{"min", double(logits.rows())}, {"max", double(logits.rows())}, {"got", double(y.size())}});
  for (std::size_t i = 0; i < y.size(); ++i)
    if (y[i] < 0 || y[i] >= logits.cols())
      throw ArgumentError(
          "labels", ErrorCode::out_of_range,
          "must be in 0.." + std::to_string(logits.cols() - 1) + ", got " + std::to_string(y[i]) + " at index " +
              std::to_string(i),
          {{"min", 0}, {"max", double(logits.cols() - 1)}, {"got", double(y[i])}, {"index", double(i)}});
  labels = y;
  probabilities = logits;
  kernels::softmax_rows<T>(probabilities.data(), int(logits.rows()), int(logits.cols()), logits.cols());
  // -log p = log(sum exp z) - z_label, kept in log space so p = 0 gives no -inf.
  double total = 0;
  for (std::size_t i = 0; i < y.size(); ++i) {
    const T* row = logits.data() + long(i) * logits.cols();
    total += kernels::log_sum_exp<T>(row, int(logits.cols())) - double(row[y[i]]);
  }
  return T(total / double(y.size()));
}

template <typename T>
Mat<T> SoftmaxCrossEntropy<T>::backward() const {
  Mat<T> d = probabilities;
  for (std::size_t i = 0; i < labels.size(); ++i) d(Eigen::Index(i), labels[i]) -= T(1);
  return d / T(labels.size());
}

template <typename T>
std::vector<int> argmax_rows(const Mat<T>& logits) {
  std::vector<int> out(std::size_t(logits.rows()));
  for (Eigen::Index i = 0; i < logits.rows(); ++i) {
    Eigen::Index best;
    logits.row(i).maxCoeff(&best);
    out[std::size_t(i)] = int(best);
  }
  return out;
}

#define ATTN_NN_INSTANTIATE(T)                                         \
  template void zero_grad<T>(const ParameterList<T>&);                 \
  template long count_parameters<T>(const ParameterList<T>&);          \
  template Mat<T> gather_last_rows<T>(const Mat<T>&, int);             \
  template void scatter_add_last_rows<T>(Mat<T>&, const Mat<T>&, int); \
  template struct Linear<T>;                                           \
  template struct LayerNorm<T>;                                        \
  template struct Embedding<T>;                                        \
  template struct PositionalEncoding<T>;                               \
  template struct Dropout<T>;                                          \
  template struct FeedForward<T>;                                      \
  template struct SelfAttention<T>;                                    \
  template struct SoftmaxCrossEntropy<T>;                              \
  template std::vector<int> argmax_rows<T>(const Mat<T>&);

ATTN_NN_INSTANTIATE(float)
ATTN_NN_INSTANTIATE(double)

}  // namespace attn::nn
