// libFuzzer target over the core's public entry points: softmax, attention (with and without
// a mask, scale on/off, any masked_value), MultiHeadAttention (construction, weights, forward)
// and the mask builders. Shapes, values and options all come from the fuzzer.
//
// Each call must either throw attn::ArgumentError exactly when its documented checks say
// the input is bad, or return a result that keeps the documented promises: the right shapes,
// weights in [0, 1] whose rows sum to 1 (NaN only for a fully masked row with masked_value
// -inf), blocked pairs at 0 weight when masked_value is far below the scores, each output a
// convex mix of the value rows, and the float math within 1e-3 of a double reference on
// ordinary inputs. Anything else aborts, and libFuzzer keeps the input.
// Leaves out: the nn/ training layers and the experiments (they have their own tests).
#include "fuzz_input.hpp"

#include "attn/attention.hpp"
#include "attn/masks.hpp"
#include "attn/multihead.hpp"
#include "attn/random.hpp"
#include "attn/softmax.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <limits>
#include <memory>
#include <stdexcept>
#include <vector>

namespace {

using attn::Mask;
using attn::Matrix;
using attn::fuzz::all_finite;
using attn::fuzz::Input;
using Index = Eigen::Index;

// What the failing call was given, printed before the abort so a crash can become a test.
std::function<void()> g_describe_case;

#define FUZZ_CHECK(cond)                                                                 \
  do {                                                                                   \
    if (!(cond)) {                                                                       \
      std::fprintf(stderr, "fuzz_core: check failed at line %d: %s\n", __LINE__, #cond); \
      if (g_describe_case) g_describe_case();                                            \
      std::abort();                                                                      \
    }                                                                                    \
  } while (0)

void print(const char* name, const Matrix& m) {
  std::fprintf(stderr, "%s (%ld, %ld):", name, long(m.rows()), long(m.cols()));
  for (Index i = 0; i < m.size(); ++i) std::fprintf(stderr, " %.9g", double(m.data()[i]));
  std::fprintf(stderr, "\n");
}

void print(const char* name, const Mask& m) {
  std::fprintf(stderr, "%s (%ld, %ld):", name, long(m.rows()), long(m.cols()));
  for (Index i = 0; i < m.size(); ++i) std::fprintf(stderr, " %d", int(m.data()[i]));
  std::fprintf(stderr, "\n");
}

constexpr Index kMaxSide = 9;

// Calls f; returns false if it threw attn::ArgumentError (any other exception, a bare
// std::invalid_argument included, escapes and libFuzzer reports it as a crash).
template <typename F>
bool returns(F&& f) {
  try {
    f();
    return true;
  } catch (const attn::ArgumentError& error) {
    FUZZ_CHECK(error.what()[0] != '\0');  // every refusal says why
    return false;
  }
}

// Rows of a weight matrix: in [0, 1] and summing to 1, or (only where allowed) all NaN.
void check_weights(const Matrix& w, const std::vector<bool>& nan_row_allowed) {
  for (Index i = 0; i < w.rows(); ++i) {
    if (nan_row_allowed[std::size_t(i)]) {
      FUZZ_CHECK(w.row(i).array().isNaN().all());
      continue;
    }
    FUZZ_CHECK(w.row(i).allFinite());
    FUZZ_CHECK((w.row(i).array() >= 0.0f).all() && (w.row(i).array() <= 1.0f).all());
    FUZZ_CHECK(std::abs(double(w.row(i).sum()) - 1.0) < 1e-4);
  }
}

// out(i, c) lies between the smallest and largest value(j, c), up to float rounding.
void check_convex(const Matrix& out, const Matrix& w, const Matrix& value) {
  for (Index i = 0; i < out.rows(); ++i) {
    if (!w.row(i).allFinite()) continue;
    for (Index c = 0; c < out.cols(); ++c) {
      const double lo = value.col(c).minCoeff(), hi = value.col(c).maxCoeff();
      const double slack = 1e-5 * std::max(std::abs(lo), std::abs(hi)) + 1e-30;
      FUZZ_CHECK(std::isfinite(out(i, c)));
      FUZZ_CHECK(out(i, c) >= lo - slack && out(i, c) <= hi + slack);
    }
  }
}

Mask random_mask(Input& in, Index rows, Index cols) {
  Mask m(rows, cols);
  for (Index i = 0; i < m.size(); ++i) m.data()[i] = in.flag();
  return m;
}

// A mask of the right shape most of the time, from the builders or from fuzzer bits.
Mask some_mask(Input& in, Index n_q, Index n_k) {
  Index rows = n_q, cols = n_k;
  if (in.byte() % 8 == 0) {  // sometimes the wrong shape on purpose
    rows = in.side(kMaxSide);
    cols = in.side(kMaxSide);
  }
  switch (in.byte() % 4) {
    case 0:
      if (rows == cols && rows >= 1) return attn::causal_mask(rows);
      break;
    case 1:
      if (rows >= 1 && cols >= 1) return attn::padding_mask(rows, cols, in.in_range<Index>(1, cols));
      break;
    case 2:
      if (rows >= 1 && cols >= 1)
        return attn::combine_masks(random_mask(in, rows, cols),
                                   attn::padding_mask(rows, cols, in.in_range<Index>(1, cols)));
      break;
    default: break;
  }
  return random_mask(in, rows, cols);
}

attn::AttentionOptions some_options(Input& in) {
  attn::AttentionOptions options;
  options.scale = in.flag();
  if (in.flag()) options.masked_value = in.value();
  return options;
}

bool options_ok(const attn::AttentionOptions& options) {
  return !std::isnan(options.masked_value) && options.masked_value != std::numeric_limits<float>::infinity();
}

// Which rows may come out NaN: fully masked rows when masked_value is -inf (documented).
std::vector<bool> nan_rows(const Mask* mask, Index rows, float masked_value) {
  std::vector<bool> allowed(std::size_t(rows), false);
  if (mask && std::isinf(masked_value) && masked_value < 0)
    for (Index i = 0; i < rows; ++i) allowed[std::size_t(i)] = !mask->row(i).any();
  return allowed;
}

// Compares weights with softmax computed in double, where the float math is well conditioned
// (every input and score of modest size), and checks that blocked pairs get 0 weight when
// masked_value is far below every allowed score of the row.
void check_against_double(const Matrix& q, const Matrix& k, const Mask* mask, const attn::AttentionOptions& options,
                          const Matrix& w) {
  const double scale = options.scale ? 1.0 / std::sqrt(double(q.cols())) : 1.0;
  const bool modest = q.cwiseAbs().maxCoeff() <= 1e3f && k.cwiseAbs().maxCoeff() <= 1e3f &&
                      (q.cwiseAbs().array() == 0 || q.cwiseAbs().array() >= 1e-3f).all() &&
                      (k.cwiseAbs().array() == 0 || k.cwiseAbs().array() >= 1e-3f).all();
  for (Index i = 0; i < q.rows(); ++i) {
    std::vector<double> s(std::size_t(k.rows()));
    double allowed_min = std::numeric_limits<double>::infinity(), top = -allowed_min;
    bool any_allowed = false;
    for (Index j = 0; j < k.rows(); ++j) {
      double dot = 0;
      for (Index c = 0; c < q.cols(); ++c) dot += double(q(i, c)) * double(k(j, c));
      s[std::size_t(j)] = dot * scale;
      if (!mask || (*mask)(i, j)) {
        any_allowed = true;
        allowed_min = std::min(allowed_min, s[std::size_t(j)]);
      }
    }
    if (mask && any_allowed && double(options.masked_value) < allowed_min - 200.0)
      for (Index j = 0; j < k.rows(); ++j)
        if (!(*mask)(i, j)) FUZZ_CHECK(w(i, j) == 0.0f);
    if (!modest) continue;
    for (Index j = 0; j < k.rows(); ++j)
      if (mask && !(*mask)(i, j)) s[std::size_t(j)] = options.masked_value;
    for (double x : s) top = std::max(top, x);
    if (!std::isfinite(top) || std::abs(top) > 1e30) continue;
    double total = 0;
    for (double& x : s) total += (x = std::exp(x - top));
    for (Index j = 0; j < k.rows(); ++j) FUZZ_CHECK(std::abs(double(w(i, j)) - s[std::size_t(j)] / total) < 1e-3);
  }
}

void fuzz_softmax(Input& in) {
  const Matrix scores = in.matrix(in.side(kMaxSide), in.side(kMaxSide));
  const bool valid = scores.size() > 0 && all_finite(scores);
  Matrix w;
  const bool ok = returns([&] { w = attn::softmax(scores); });
  FUZZ_CHECK(ok == valid);
  if (!ok) return;
  FUZZ_CHECK(w.rows() == scores.rows() && w.cols() == scores.cols());
  check_weights(w, std::vector<bool>(std::size_t(w.rows()), false));
}

void fuzz_attention(Input& in) {
  const Index n_q = in.side(kMaxSide), n_k = in.side(kMaxSide), d_k = in.side(kMaxSide), d_v = in.side(kMaxSide);
  // Mismatched shapes now and then.
  const Index key_cols = in.byte() % 8 == 0 ? in.side(kMaxSide) : d_k;
  const Index value_rows = in.byte() % 8 == 0 ? in.side(kMaxSide) : n_k;
  const Matrix q = in.matrix(n_q, d_k), k = in.matrix(n_k, key_cols), v = in.matrix(value_rows, d_v);
  const auto options = some_options(in);
  const bool use_mask = in.flag();
  Mask mask;
  if (use_mask) mask = some_mask(in, n_q, n_k);

  bool valid = q.size() > 0 && k.size() > 0 && v.size() > 0 && all_finite(q) && all_finite(k) && all_finite(v) &&
               key_cols == d_k && value_rows == n_k && options_ok(options);
  if (use_mask) valid = valid && mask.rows() == n_q && mask.cols() == n_k;

  attn::AttentionResult r;
  g_describe_case = [&] {
    print("query", q), print("key", k), print("value", v);
    if (use_mask) print("mask", mask);
    std::fprintf(stderr, "scale %d masked_value %.9g\n", int(options.scale), double(options.masked_value));
    print("weights", r.weights), print("output", r.output);
  };
  const bool ok =
      returns([&] { r = use_mask ? attn::attention(q, k, v, mask, options) : attn::attention(q, k, v, options); });
  if (!valid) {
    FUZZ_CHECK(!ok);
    return;
  }
  // The refusals of valid-looking input: scores, or a weighted mean of values, that overflow
  // float32.
  if (!ok) {
    FUZZ_CHECK(double(q.cwiseAbs().maxCoeff()) * k.cwiseAbs().maxCoeff() * double(d_k) > 3e38 ||
               v.cwiseAbs().maxCoeff() > 3.4e38f * (1 - 1e-5f));
    return;
  }
  FUZZ_CHECK(r.weights.rows() == n_q && r.weights.cols() == n_k);
  FUZZ_CHECK(r.output.rows() == n_q && r.output.cols() == d_v);
  const Mask* m = use_mask ? &mask : nullptr;
  check_weights(r.weights, nan_rows(m, n_q, options.masked_value));
  check_convex(r.output, r.weights, v);
  check_against_double(q, k, m, options, r.weights);
}

void fuzz_multihead(Input& in) {
  // Constructor arguments over the whole int range now and then, else small.
  // Sizes at the documented limit (65536) and where products of two of them leave int.
  static const int kEdges[] = {
      65536, 65537, 46341, 32768, 4096, std::numeric_limits<int>::max(), std::numeric_limits<int>::min()};
  auto size_arg = [&in]() -> int {
    switch (in.byte() % 16) {
      case 0: return in.provider().ConsumeIntegral<int>();
      case 1: return kEdges[in.byte() % 7];
      default: return in.in_range<int>(-1, 8);
    }
  };
  const int d_model = size_arg(), num_heads = size_arg(), key_dim = size_arg();
  attn::MultiHeadAttention* layer = nullptr;
  const bool made = returns([&] { layer = new attn::MultiHeadAttention(d_model, num_heads, key_dim); });
  bool args_ok = d_model >= 1 && d_model <= 65536 && num_heads >= 1 && num_heads <= d_model &&
                 (key_dim == 0 ? d_model % num_heads == 0 : key_dim >= 1 && key_dim <= 65536);
  if (args_ok) {
    const long hk = long(num_heads) * (key_dim == 0 ? d_model / num_heads : key_dim);
    args_ok = 4 * long(d_model) * hk + 3 * hk + d_model <= attn::kMaxMultiHeadParameters;
  }
  FUZZ_CHECK(made == args_ok);
  if (!made) return;
  std::unique_ptr<attn::MultiHeadAttention> owner(layer);
  // The layer's own sizes must be what was asked for.
  FUZZ_CHECK(layer->d_model() == d_model && layer->num_heads() == num_heads);
  FUZZ_CHECK(key_dim == 0 ? layer->key_dim() == d_model / num_heads : layer->key_dim() == key_dim);
  const Index hk = Index(layer->num_heads()) * layer->key_dim();
  // Past this the forward pass is a slow product, not a search for bugs.
  if (hk * d_model > 4096) return;
  FUZZ_CHECK(layer->parameter_count() == 3 * (d_model * hk + hk) + hk * d_model + d_model);

  if (in.flag()) {
    attn::Random rng(in.provider().ConsumeIntegral<std::uint64_t>());
    layer->init_glorot_uniform(rng);
  }
  for (int p = 0; p < 4; ++p) {
    if (!in.flag()) continue;
    const auto which = static_cast<attn::Projection>(p);
    const Index rows = layer->weight(which).rows(), cols = layer->weight(which).cols();
    const bool exact = in.byte() % 8 != 0;
    const Matrix w = in.matrix(exact ? rows : in.side(kMaxSide), exact ? cols : in.side(kMaxSide));
    const Matrix b = in.matrix(1, exact ? cols : in.side(kMaxSide));
    const bool set_ok = w.rows() == rows && w.cols() == cols && b.cols() == cols && all_finite(w) && all_finite(b);
    FUZZ_CHECK(returns([&] { layer->set_projection(which, w, b); }) == set_ok);
  }

  const Index n_q = in.side(6), n_k = in.side(6);
  const Index dq = in.byte() % 8 == 0 ? in.side(kMaxSide) : d_model;
  const Matrix q = in.matrix(n_q, dq), k = in.matrix(n_k, d_model), v = in.matrix(n_k, d_model);
  const auto options = some_options(in);
  const bool use_mask = in.flag();
  Mask mask;
  if (use_mask) mask = some_mask(in, n_q, n_k);
  bool valid = q.size() > 0 && k.size() > 0 && all_finite(q) && all_finite(k) && all_finite(v) && dq == d_model &&
               options_ok(options);
  if (use_mask) valid = valid && mask.rows() == n_q && mask.cols() == n_k;

  attn::MultiHeadResult r;
  g_describe_case = [&] {
    std::fprintf(stderr, "d_model %d num_heads %d key_dim %d\n", d_model, num_heads, key_dim);
    for (int p = 0; p < 4; ++p) {
      print("weight", layer->weight(attn::Projection(p)));
      print("bias", layer->bias(attn::Projection(p)));
    }
    print("query", q), print("key", k), print("value", v);
    if (use_mask) print("mask", mask);
    std::fprintf(stderr, "scale %d masked_value %.9g\n", int(options.scale), double(options.masked_value));
    for (const Matrix& w : r.weights) print("weights", w);
    print("output", r.output);
  };
  const bool ok = returns([&] { r = layer->forward(q, k, v, use_mask ? &mask : nullptr, options); });
  if (!valid) {
    FUZZ_CHECK(!ok);
    return;
  }
  if (!ok) return;
  FUZZ_CHECK(r.output.rows() == n_q && r.output.cols() == d_model);
  FUZZ_CHECK(r.weights.size() == std::size_t(num_heads));
  const auto allowed = nan_rows(use_mask ? &mask : nullptr, n_q, options.masked_value);
  bool any_nan_row = false;
  for (const Matrix& w : r.weights) {
    FUZZ_CHECK(w.rows() == n_q && w.cols() == n_k);
    check_weights(w, allowed);
  }
  for (bool a : allowed) any_nan_row = any_nan_row || a;
  if (!any_nan_row) FUZZ_CHECK(r.output.allFinite());
}

void fuzz_masks(Input& in) {
  auto side_ok = [](Index n) { return n >= 1 && n <= attn::kMaxMaskSide; };
  // Sides from the whole Index range now and then, moved below 1 when they land in the valid
  // range (must be refused; a valid side in the thousands makes a mask, and its O(n^2) check,
  // too slow for one fuzz input under the sanitizers), else small.
  auto side_arg = [&in, &side_ok]() -> Index {
    switch (in.byte() % 16) {
      case 0: {
        const Index n = in.provider().ConsumeIntegral<Index>();
        return side_ok(n) ? n - attn::kMaxMaskSide - 1 : n;
      }
      case 1: return attn::kMaxMaskSide + 1;
      default: return in.in_range<Index>(-2, 40);
    }
  };
  const Index a = side_arg(), b = side_arg(), len = side_arg();

  Mask causal;
  FUZZ_CHECK(returns([&] { causal = attn::causal_mask(a); }) == side_ok(a));
  if (side_ok(a)) {
    FUZZ_CHECK(causal.rows() == a && causal.cols() == a);
    for (Index i = 0; i < a; ++i)
      for (Index j = 0; j < a; ++j) FUZZ_CHECK(causal(i, j) == (j <= i));
    FUZZ_CHECK(std::abs(attn::allowed_fraction(causal) - double(a + 1) / double(2 * a)) < 1e-12);
  }
  Mask padding;
  const bool padding_ok = side_ok(a) && side_ok(b) && len >= 1 && len <= b;
  FUZZ_CHECK(returns([&] { padding = attn::padding_mask(a, b, len); }) == padding_ok);
  if (padding_ok) {
    FUZZ_CHECK(padding.rows() == a && padding.cols() == b);
    FUZZ_CHECK(padding.count() == a * len);
    for (Index j = 0; j < b; ++j) FUZZ_CHECK(padding(a - 1, j) == (j < len));
  }
  // combine_masks on any two shapes, allowed_fraction on any mask.
  const Mask x = random_mask(in, in.side(kMaxSide), in.side(kMaxSide));
  const Mask y = in.flag() ? x.reverse() : random_mask(in, in.side(kMaxSide), in.side(kMaxSide));
  Mask both;
  const bool combine_ok = x.size() > 0 && x.rows() == y.rows() && x.cols() == y.cols();
  FUZZ_CHECK(returns([&] { both = attn::combine_masks(x, y); }) == combine_ok);
  if (combine_ok)
    for (Index i = 0; i < x.size(); ++i) FUZZ_CHECK(both.data()[i] == (x.data()[i] && y.data()[i]));
  double fraction = -1;
  FUZZ_CHECK(returns([&] { fraction = attn::allowed_fraction(x); }) == (x.size() > 0));
  if (x.size() > 0) FUZZ_CHECK(fraction >= 0.0 && fraction <= 1.0);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  Input in(data, size);
  g_describe_case = nullptr;
  switch (in.byte() % 4) {
    case 0: fuzz_softmax(in); break;
    case 1: fuzz_attention(in); break;
    case 2: fuzz_multihead(in); break;
    default: fuzz_masks(in); break;
  }
  return 0;
}
