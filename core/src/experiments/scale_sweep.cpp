#include "attn/experiments/scale_sweep.hpp"

#include "attn/attention.hpp"
#include "attn/random.hpp"
#include "products.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

namespace attn::experiments {
namespace {

// p (n), a probability row -> its measures. No checks: the sweep's rows come from softmax.
RowMeasures measure_row(const float* p, Eigen::Index n) {
  RowMeasures m;
  double sum_p2 = 0, sum_p3 = 0, entropy = 0;
  for (Eigen::Index j = 0; j < n; ++j) {
    const double x = p[j];
    if (x > m.max_weight) m.max_weight = x;
    sum_p2 += x * x;
    sum_p3 += x * x * x;
    if (x > 0) entropy -= x * portable_log(x);
  }
  m.entropy = entropy;
  // sum_ij J_ij^2 with J = diag(p) - p p^T; clamp the rounding of a one-hot row at 0.
  const double squared = sum_p2 - 2.0 * sum_p3 + sum_p2 * sum_p2;
  m.jacobian_norm = squared > 0 ? std::sqrt(squared) : 0.0;
  return m;
}

// Accumulates per-draw means of one measure.
struct StatBuilder {
  SweepStat stat;
  void add_draw(double mean) { stat.per_draw.push_back(mean); }
  SweepStat finish() {
    const double d = static_cast<double>(stat.per_draw.size());
    double sum = 0;
    for (double x : stat.per_draw) sum += x;
    stat.mean = sum / d;
    if (stat.per_draw.size() < 2) {
      stat.standard_error = std::numeric_limits<double>::quiet_NaN();
    } else {
      double squares = 0;
      for (double x : stat.per_draw) squares += (x - stat.mean) * (x - stat.mean);
      stat.standard_error = std::sqrt(squares / (d - 1.0)) / std::sqrt(d);
    }
    return std::move(stat);
  }
};

struct MeasuresBuilder {
  StatBuilder max_weight, entropy, jacobian_norm;
  // scores (T, T) -> their softmax's measures, averaged over the rows, for one draw. Max
  // weight and Jacobian norm come from the weights as in measure_row(); the entropy from
  // the scores, with one log per row instead of one per weight: softmax gives
  // p_j / p_max = exp(s_j - max s), so -sum p log p = -sum p_j (s_j - max s) - log p_max.
  // That equals measure_row()'s entropy of the same float32 weights up to their rounding
  // (the test holds them within 1e-6).
  void add_draw(const Matrix& scores) {
    const Matrix weights = softmax_rows_unchecked<float>(scores);
    double sums[3] = {0, 0, 0};
    for (Eigen::Index i = 0; i < weights.rows(); ++i) {
      const float* p = weights.row(i).data();
      const float* s = scores.row(i).data();
      float top_score = s[0];
      double top = 0, sum_p2 = 0, sum_p3 = 0, weighted_scores = 0;
      for (Eigen::Index j = 0; j < weights.cols(); ++j) top_score = std::max(top_score, s[j]);
      for (Eigen::Index j = 0; j < weights.cols(); ++j) {
        const double x = p[j];
        if (x > top) top = x;
        sum_p2 += x * x;
        sum_p3 += x * x * x;
        weighted_scores += x * (double(s[j]) - double(top_score));
      }
      const double squared = sum_p2 - 2.0 * sum_p3 + sum_p2 * sum_p2;
      sums[0] += top;
      sums[1] += -weighted_scores - portable_log_unchecked(top);  // top >= 1/T
      sums[2] += squared > 0 ? std::sqrt(squared) : 0.0;
    }
    const double rows = static_cast<double>(weights.rows());
    max_weight.add_draw(sums[0] / rows);
    entropy.add_draw(sums[1] / rows);
    jacobian_norm.add_draw(sums[2] / rows);
  }
  SweepMeasures finish() { return {max_weight.finish(), entropy.finish(), jacobian_norm.finish()}; }
};

}  // namespace

double scale_sweep_work(const std::vector<int>& d_ks, int draws, int tokens) {
  double per_token_pair = 0;
  for (int d_k : d_ks) per_token_pair += static_cast<double>(d_k) + 50.0;
  return static_cast<double>(draws) * tokens * (static_cast<double>(tokens) + 50.0) * per_token_pair;
}

std::vector<RowMeasures> measure_rows(const Matrix& weights) {
  require_nonempty("weights", weights);
  for (Eigen::Index i = 0; i < weights.rows(); ++i)
    for (Eigen::Index j = 0; j < weights.cols(); ++j)
      if (!(weights(i, j) >= 0.0f && weights(i, j) <= 1.0f))
        throw ArgumentError("weights", std::isnan(weights(i, j)) ? ErrorCode::not_finite : ErrorCode::out_of_range,
                            "must lie in [0, 1], got " + std::to_string(weights(i, j)) + " at (" + std::to_string(i) +
                                ", " + std::to_string(j) + ") of shape " + shape_of(weights),
                            {{"min", 0}, {"max", 1}, {"got", weights(i, j)}, {"row", double(i)}, {"col", double(j)}});
  std::vector<RowMeasures> rows;
  for (Eigen::Index i = 0; i < weights.rows(); ++i) rows.push_back(measure_row(weights.row(i).data(), weights.cols()));
  return rows;
}

ScaleSweepResult scale_sweep(const ScaleSweepConfig& config) {
  require_fields(config);
  const auto& [d_ks, draws, tokens, seed] = config;
  const double work = scale_sweep_work(d_ks, draws, tokens);
  if (work > kMaxSweepWork)
    throw ArgumentError("draws", ErrorCode::too_many_elements,
                        "* {tokens} * ({tokens} + 50) * sum({d_ks} + 50) must be at most " +
                            std::to_string(static_cast<long long>(kMaxSweepWork)) + " (about 10 s of work), got " +
                            std::to_string(static_cast<long long>(work)) + " for draws " + std::to_string(draws) +
                            ", tokens " + std::to_string(tokens) + ": ask for fewer draws, tokens or d_k values",
                        {{"max", kMaxSweepWork}, {"got", work}});

  ScaleSweepResult result;
  result.draws = draws;
  result.tokens = tokens;
  result.seed = seed;
  const Matrix equal_scores = Matrix::Zero(1, tokens);
  result.uniform = measure_row(softmax_rows_unchecked<float>(equal_scores).data(), tokens);

  for (int d_k : d_ks) {
    Random rng(seed * 0x9E3779B97F4A7C15ull + static_cast<std::uint64_t>(d_k));
    MeasuresBuilder unscaled, scaled;
    // The arithmetic of attention_weights_unchecked(), with the one score product shared by
    // the unscaled and the scaled softmax (the scaled scores are the same float32 products
    // times the same float32 factor, so the weights are bit for bit those of attention()).
    const float scale = 1.0f / std::sqrt(static_cast<float>(d_k));
    Matrix scores(tokens, tokens);
    for (int draw = 0; draw < draws; ++draw) {
      const Matrix q = rng.normal_matrix(tokens, d_k);
      const Matrix k = rng.normal_matrix(tokens, d_k);
      scores_into(q, k, scores);
      unscaled.add_draw(scores);
      scores *= scale;
      scaled.add_draw(scores);
    }
    result.rows.push_back({d_k, unscaled.finish(), scaled.finish()});
  }
  return result;
}

}  // namespace attn::experiments
