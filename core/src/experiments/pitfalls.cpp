#include "attn/experiments/pitfalls.hpp"

#include "attn/attention.hpp"
#include "attn/masks.hpp"
#include "attn/random.hpp"

#include <cmath>
#include <limits>
#include <stdexcept>
#include <utility>

namespace attn::experiments {
namespace {

template <typename Scalar>
PitfallCase run_case(const char* precision, const char* constant, double requested, const Matrix& q, const Matrix& k,
                     const Mask& mask) {
  PitfallCase c;
  c.precision = precision;
  c.constant = constant;
  c.requested = requested;
  const Scalar stored = static_cast<Scalar>(requested);
  c.stored = static_cast<double>(static_cast<float>(stored));
  c.overflowed = std::isinf(c.stored);
  const MatrixOf<Scalar> weights =
      attention_weights_unchecked<Scalar>(q.cast<Scalar>(), k.cast<Scalar>(), &mask, true, stored);

  c.all_finite = true;
  c.fully_masked_rows_nan = true;
  c.blocked_exactly_zero = true;
  for (Eigen::Index i = 0; i < weights.rows(); ++i) {
    const bool fully_masked = !mask.row(i).any();
    double sum = 0;
    for (Eigen::Index j = 0; j < weights.cols(); ++j) {
      const double w = static_cast<double>(static_cast<float>(weights(i, j)));
      c.weights.push_back(w);
      sum += w;
      if (!std::isfinite(w)) c.all_finite = false;
      if (fully_masked && !std::isnan(w)) c.fully_masked_rows_nan = false;
      if (!fully_masked && !mask(i, j) && w != 0.0) c.blocked_exactly_zero = false;
    }
    c.row_sums.push_back(sum);
  }
  return c;
}

}  // namespace

HalfPrecisionPitfall half_precision_pitfall(const PitfallConfig& config) {
  require_fields(config);
  const auto& [positions, real, d_k, seed] = config;
  if (real >= positions)
    throw ArgumentError("real", ErrorCode::out_of_range,
                        "must be below {positions} = " + std::to_string(positions) + ", got " + std::to_string(real),
                        {{"max", double(positions - 1)}, {"got", double(real)}});
  const long work = long(positions) * positions * d_k;
  if (work > kMaxPitfallWork)
    throw ArgumentError(
        "positions", ErrorCode::too_many_elements,
        "squared times {d_k} must be at most " + std::to_string(kMaxPitfallWork) + ", got " + std::to_string(work),
        {{"max", double(kMaxPitfallWork)}, {"got", double(work)}});

  HalfPrecisionPitfall p;
  p.positions = positions;
  p.real = real;
  p.d_k = d_k;
  p.seed = seed;
  const Mask keys = padding_mask(positions, positions, real);
  const Mask mask = combine_masks(keys, keys.transpose());
  for (Eigen::Index i = 0; i < positions; ++i) {
    for (Eigen::Index j = 0; j < positions; ++j) p.allowed.push_back(mask(i, j) ? 1 : 0);
    if (!mask.row(i).any()) p.fully_masked_rows.push_back(static_cast<int>(i));
  }

  Random rng(seed);
  const Matrix q = rng.normal_matrix(positions, d_k);
  const Matrix k = rng.normal_matrix(positions, d_k);
  const double half_lowest = static_cast<float>(std::numeric_limits<Eigen::half>::lowest());
  const double float_lowest = std::numeric_limits<float>::lowest();
  for (const auto& [name, value] :
       {std::pair<const char*, double>{"-1e30", -1e30}, {"-1e9", -1e9}, {"-1e4", -1e4}, {"lowest", half_lowest}})
    p.cases.push_back(run_case<Eigen::half>("float16", name, value, q, k, mask));
  for (const auto& [name, value] :
       {std::pair<const char*, double>{"-1e30", -1e30}, {"-1e9", -1e9}, {"-1e4", -1e4}, {"lowest", float_lowest}})
    p.cases.push_back(run_case<float>("float32", name, value, q, k, mask));
  return p;
}

}  // namespace attn::experiments
