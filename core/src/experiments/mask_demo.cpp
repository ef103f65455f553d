#include "attn/experiments/mask_demo.hpp"

#include "attn/attention.hpp"
#include "attn/masks.hpp"
#include "attn/random.hpp"
#include "products.hpp"

#include <cmath>
#include <stdexcept>

namespace attn::experiments {
namespace {

std::vector<double> flatten(const Matrix& m) { return std::vector<double>(m.data(), m.data() + m.size()); }

std::vector<double> row_sums(const Matrix& m) {
  std::vector<double> sums;
  for (Eigen::Index i = 0; i < m.rows(); ++i) {
    double sum = 0;
    for (Eigen::Index j = 0; j < m.cols(); ++j) sum += m(i, j);
    sums.push_back(sum);
  }
  return sums;
}

}  // namespace

MaskDemo mask_demo(const MaskDemoConfig& config) {
  require_fields(config);
  const auto& [positions, real, d_k, seed] = config;
  if (real > positions)
    throw ArgumentError("real", ErrorCode::out_of_range,
                        "must be at most {positions} = " + std::to_string(positions) + ", got " + std::to_string(real),
                        {{"max", double(positions)}, {"got", double(real)}});

  MaskDemo demo;
  demo.positions = positions;
  demo.real = real;
  demo.d_k = d_k;
  demo.seed = seed;
  const AttentionOptions options;  // scaled, masked_value -1e9: the lesson's choices
  demo.masked_value = options.masked_value;

  Random rng(seed);
  const Matrix q = rng.normal_matrix(positions, d_k);
  const Matrix k = rng.normal_matrix(positions, d_k);
  const Matrix scores = (q * k.transpose()) * (1.0f / std::sqrt(static_cast<float>(d_k)));
  demo.scores = flatten(scores);
  // The weights attn::attention() gives each case, bit for bit, with its arithmetic
  // (attention_weights(): score product, scale, mask, softmax) and one score product shared by
  // the four cases, since a mask only changes what the softmax sees. Not `scores` above: in
  // WebAssembly attention's score kernel sums in another order than Eigen's product. No output:
  // the demo shows weights only. Normal draws cannot overflow a score, so nothing is checked.
  Matrix scaled(positions, positions);
  scores_into(q, k, scaled);
  scaled *= attention_scale_factor<float>(d_k);
  // The mistake starts from the unmasked weights.
  const Matrix unmasked = softmax_rows_unchecked<float>(scaled);

  const Mask causal = causal_mask(positions);
  const Mask padding = padding_mask(positions, positions, real);
  const struct {
    const char* name;
    Mask mask;
  } masks[] = {{"causal", causal}, {"padding", padding}, {"both", combine_masks(causal, padding)}};

  for (const auto& [name, mask] : masks) {
    MaskDemoCase c;
    c.name = name;
    c.allowed_fraction = allowed_fraction(mask);
    const Matrix weights = softmax_rows_unchecked<float>(masked_scores<float>(scaled, mask, options.masked_value));
    Matrix mistake = unmasked;
    c.blocked_exactly_zero = true;
    c.allowed.reserve(std::size_t(positions) * positions);
    for (Eigen::Index i = 0; i < positions; ++i)
      for (Eigen::Index j = 0; j < positions; ++j) {
        c.allowed.push_back(mask(i, j) ? 1 : 0);
        if (mask(i, j)) continue;
        mistake(i, j) = 0.0f;
        c.max_blocked_weight = std::max(c.max_blocked_weight, double(weights(i, j)));
        if (weights(i, j) != 0.0f) c.blocked_exactly_zero = false;
      }
    c.weights = flatten(weights);
    c.row_sums = row_sums(weights);
    c.mistake_weights = flatten(mistake);
    c.mistake_row_sums = row_sums(mistake);
    demo.cases.push_back(std::move(c));
  }
  return demo;
}

}  // namespace attn::experiments
