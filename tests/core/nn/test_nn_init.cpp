// The tiny transformer's initial weights against the distributions core/nn states for them
// (transformer.hpp, layers.hpp, multihead.hpp), with the expected bounds written here from
// Keras's formulas rather than taken from the core:
//   - Embedding: uniform(-0.05, 0.05).
//   - Kernels: Glorot uniform, uniform(-a, a) with a = sqrt(6 / (fan_in + fan_out)), where
//     Keras computes the fans of a kernel shaped (r1, .., in, out) as fan_in = in * r1 * ..,
//     fan_out = out * r1 * ..; Dense kernels are (in, out), MultiHeadAttention's are
//     query/key/value (d, h, k) and output (h, k, d).
//   - Biases and LayerNorm beta exactly 0, LayerNorm gamma exactly 1.
//
// Each kernel's values are pooled over kSeeds seeds (n values in all). For uniform(-a, a):
//   - bounds: every |w| <= a, and max |w| >= a (1 - 30 / n), which a correct draw misses with
//     probability (1 - 30/n)^n < e^-30, so a limit too small fails as surely as one too large;
//   - mean: 0, standard error a / sqrt(3 n);
//   - mean square (the variance, the mean being 0): a^2 / 3, standard error
//     a^2 sqrt(4 / 45) / sqrt(n), since Var(w^2) = E w^4 - (E w^2)^2 = a^4 / 5 - a^4 / 9;
//   - independence: the correlation of two kernels of one layer (query and key), standard
//     error 1 / sqrt(n).
// Every statistic must lie within kSigmas = 5 standard errors: a correct draw fails one such
// check with probability about 6e-7.
#include "attn/nn/transformer.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <map>
#include <string>
#include <vector>

using namespace attn;
using namespace attn::nn;

namespace {

constexpr int kSeeds = 8;
constexpr double kSigmas = 5.0;

// Keras's fans for a kernel of `shape`: the trailing two dimensions times the others.
double glorot_limit(const std::vector<double>& shape) {
  double receptive = 1;
  for (std::size_t i = 0; i + 2 < shape.size(); ++i) receptive *= shape[i];
  const double fan_in = shape[shape.size() - 2] * receptive, fan_out = shape.back() * receptive;
  return std::sqrt(6.0 / (fan_in + fan_out));
}

// What a parameter's initial values should be: uniform(-limit, limit), or all `constant`.
struct Expected {
  bool uniform;
  double limit_or_constant;
};

Expected expected_for(const std::string& name, const TransformerConfig& c) {
  const double d = c.d_model, h = c.heads, k = c.d_model / c.heads, f = c.d_ff;
  auto ends_with = [&](const std::string& tail) {
    return name.size() >= tail.size() && name.compare(name.size() - tail.size(), tail.size(), tail) == 0;
  };
  if (name == "embedding.table") return {true, 0.05};
  if (ends_with(".bias") || ends_with(".beta")) return {false, 0.0};
  if (ends_with(".gamma")) return {false, 1.0};
  if (ends_with("attention.query.weight") || ends_with("attention.key.weight") || ends_with("attention.value.weight"))
    return {true, glorot_limit({d, h, k})};
  if (ends_with("attention.output.weight")) return {true, glorot_limit({h, k, d})};
  if (ends_with("ffn.up.weight")) return {true, glorot_limit({d, f})};
  if (ends_with("ffn.down.weight")) return {true, glorot_limit({f, d})};
  if (name == "head.weight") return {true, glorot_limit({d, double(c.classes)})};
  FAIL("no stated distribution for parameter " << name);
  return {false, 0.0};
}

// Every parameter's initial values over seeds 1..kSeeds, concatenated per name.
std::map<std::string, std::vector<double>> pooled_initial_values(const TransformerConfig& config) {
  std::map<std::string, std::vector<double>> pooled;
  for (int seed = 1; seed <= kSeeds; ++seed) {
    TinyTransformer<float> model(config);
    Random rng{std::uint64_t(seed)};
    model.init(rng);
    for (const auto& p : model.parameters())
      pooled[p.name].insert(pooled[p.name].end(), p.value->data(), p.value->data() + p.value->size());
  }
  return pooled;
}

void check_uniform(const std::string& name, const std::vector<double>& w, double a) {
  const double n = double(w.size());
  double sum = 0, squares = 0, largest = 0;
  for (double x : w) {
    sum += x;
    squares += x * x;
    largest = std::max(largest, std::abs(x));
  }
  const double mean = sum / n, mean_square = squares / n;
  const double mean_se = a / std::sqrt(3 * n), square_se = a * a * std::sqrt(4.0 / 45.0) / std::sqrt(n);
  INFO(name << ": n " << n << ", limit " << a << ", max |w| " << largest << ", mean " << mean << " (se " << mean_se
            << "), mean square " << mean_square << " vs " << a * a / 3 << " (se " << square_se << ")");
  CHECK(largest <= a * (1 + 1e-7));  // the float32 rounding of a value drawn just below a
  CHECK(largest >= a * (1 - 30 / n));
  CHECK(std::abs(mean) <= kSigmas * mean_se);
  CHECK(std::abs(mean_square - a * a / 3) <= kSigmas * square_se);
}

double correlation(const std::vector<double>& x, const std::vector<double>& y) {
  double xy = 0, xx = 0, yy = 0;  // both have mean 0 by construction
  for (std::size_t i = 0; i < x.size(); ++i) {
    xy += x[i] * y[i];
    xx += x[i] * x[i];
    yy += y[i] * y[i];
  }
  return xy / std::sqrt(xx * yy);
}

void check_initialisation(const TransformerConfig& config) {
  const auto pooled = pooled_initial_values(config);
  int uniform = 0;
  for (const auto& [name, values] : pooled) {
    const Expected e = expected_for(name, config);
    if (e.uniform) {
      check_uniform(name, values, e.limit_or_constant);
      ++uniform;
      continue;
    }
    INFO(name << " must start at exactly " << e.limit_or_constant);
    CHECK(std::all_of(values.begin(), values.end(), [&](double x) { return x == e.limit_or_constant; }));
  }
  // embedding, 4 attention kernels and 2 FFN kernels per block, the head
  CHECK(uniform == 2 + 6 * config.blocks);
  for (int b = 1; b <= config.blocks; ++b) {
    const std::string prefix = "block" + std::to_string(b) + ".attention.";
    const auto& q = pooled.at(prefix + "query.weight");
    const double r = correlation(q, pooled.at(prefix + "key.weight"));
    INFO(prefix << "query vs key kernels: correlation " << r << " over " << q.size() << " values");
    CHECK(std::abs(r) <= kSigmas / std::sqrt(double(q.size())));
  }
}

}  // namespace

TEST_CASE("initial weights follow their stated distributions: the cue model (2 blocks, 1 head)", "[nn][init]") {
  check_initialisation(TransformerConfig{});
}

TEST_CASE("initial weights follow their stated distributions: 4 heads of 8, post-LN", "[nn][init]") {
  TransformerConfig config;
  config.heads = 4;
  config.post_layer_norm = true;
  check_initialisation(config);
}

TEST_CASE("initial weights differ between seeds and repeat for one seed", "[nn][init]") {
  const TransformerConfig config;
  auto first_kernel = [&](std::uint64_t seed) {
    TinyTransformer<float> model(config);
    Random rng(seed);
    model.init(rng);
    return Mat<float>(*model.parameters().at(0).value);
  };
  CHECK(first_kernel(1) == first_kernel(1));
  CHECK(first_kernel(1) != first_kernel(2));
}
