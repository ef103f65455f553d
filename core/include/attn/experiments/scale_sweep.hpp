// The scale sweep: why attention divides its scores by sqrt(d_k), measured.
//
// For every d_k we draw random self-attention-shaped problems (tokens queries and tokens
// keys, standard normal components), compute the attention weights once with and once
// without the 1/sqrt(d_k) scale on the very same draw, and summarise every query row by its
// largest weight, its entropy in nats and the size of the softmax's Jacobian. Unscaled,
// the scores' variance grows with d_k, the softmax saturates on noise and its Jacobian
// shrinks towards zero; scaled, all three stay put.
//
// Left out: values and outputs (the weights are the whole story here), masks, plotting.
// Legend: D = draws, T = tokens, K = number of d_k values.
#pragma once

#include "attn/config.hpp"
#include "attn/matrix.hpp"

#include <cstdint>
#include <vector>

namespace attn::experiments {

// Limits of a sweep (inclusive), checked by scale_sweep().
constexpr int kMaxDraws = ATTN_PICK(100000, 5000);
constexpr int kMaxDk = ATTN_PICK(4096, 1024);
constexpr int kMinTokens = ATTN_PICK(2, 3);
constexpr int kMaxTokens = ATTN_PICK(4096, 512);
constexpr int kMaxDkCount = ATTN_PICK(64, 6);
// The work a sweep may ask for, in the units of scale_sweep_work() below: about 10 s of
// native computation on one core of this project's machine (about 0.5 ns per unit), so no
// call can hang the CLI or a page's worker. The default sweep costs about 8.0e7 units.
constexpr double kMaxSweepWork = ATTN_PICK(2e10, 1e9);

struct ScaleSweepConfig {
  std::vector<int> d_ks = ATTN_PICK((std::vector<int>{4, 16, 64, 256}), (std::vector<int>{8, 32, 128}));
  int draws = ATTN_PICK(200, 60);
  int tokens = ATTN_PICK(12, 9);
  std::uint64_t seed = ATTN_PICK(0, 5);

  template <typename Visit>
  static void fields(Visit&& visit) {
    visit(FieldInfo{"d_ks", "dks", "dk", 1, kMaxDk, "key dimensions to sweep", false, false, kMaxDkCount},
          member<&ScaleSweepConfig::d_ks>);
    visit(FieldInfo{"draws", "draws", "draws", 1, kMaxDraws, "random problems per d_k"},
          member<&ScaleSweepConfig::draws>);
    visit(FieldInfo{"tokens", "tokens", "tokens", kMinTokens, kMaxTokens, "queries and keys per problem"},
          member<&ScaleSweepConfig::tokens>);
    visit(FieldInfo{"seed", "seed", "seed", 0, double(kMaxSeed), "seed of the draws"}, member<&ScaleSweepConfig::seed>);
  }
};

// draws * tokens * (tokens + 50) * sum over d_k of (d_k + 50): the matrix products grow
// with tokens^2 d_k, the softmaxes and row measures with tokens^2, the normal draws with
// tokens d_k; the constant 50 weighs the per-element exp/log/normal cost against one
// multiply-add. Does not validate; returns a double so it cannot overflow.
double scale_sweep_work(const std::vector<int>& d_ks, int draws, int tokens);

// What one row of attention weights looks like.
struct RowMeasures {
  double max_weight = 0;     // largest weight; 1/n for a uniform row, 1 when saturated
  double entropy = 0;        // -sum p log p in nats (0 log 0 = 0); log n when uniform
  double jacobian_norm = 0;  // Frobenius norm of d softmax / d scores = diag(p) - p p^T

  template <typename Visit>
  static void fields(Visit&& visit) {
    visit("maxWeight", member<&RowMeasures::max_weight>);
    visit("entropy", member<&RowMeasures::entropy>);
    visit("jacobianNorm", member<&RowMeasures::jacobian_norm>);
  }
};

// weights (n_q, n) with rows that are probability vectors -> n_q measures, one per row.
// ||diag(p) - p p^T||_F is computed exactly as sqrt(sum p^2 - 2 sum p^3 + (sum p^2)^2).
// Logs come from attn::portable_log, so the figures round the same in every build.
// Throws attn::ArgumentError for an empty matrix or any weight outside [0, 1] or NaN.
std::vector<RowMeasures> measure_rows(const Matrix& weights);

// One measure at one d_k, with or without the scale.
struct SweepStat {
  double mean = 0;               // over every query row of every draw
  double standard_error = 0;     // of that mean: sd of the per-draw means / sqrt(D); NaN if D = 1
  std::vector<double> per_draw;  // (D): the mean over the T rows of each draw

  template <typename Visit>
  static void fields(Visit&& visit) {
    visit("mean", member<&SweepStat::mean>);
    visit("standardError", member<&SweepStat::standard_error>);
    visit("perDraw", member<&SweepStat::per_draw>);
  }
};

struct SweepMeasures {
  SweepStat max_weight;
  SweepStat entropy;
  SweepStat jacobian_norm;  // of the softmax with respect to the scores it was given

  template <typename Visit>
  static void fields(Visit&& visit) {
    visit("maxWeight", member<&SweepMeasures::max_weight>);
    visit("entropy", member<&SweepMeasures::entropy>);
    visit("jacobianNorm", member<&SweepMeasures::jacobian_norm>);
  }
};

struct ScaleSweepRow {
  int d_k = 0;
  SweepMeasures unscaled;  // softmax(Q K^T)
  SweepMeasures scaled;    // softmax(Q K^T / sqrt(d_k))

  template <typename Visit>
  static void fields(Visit&& visit) {
    visit("dk", member<&ScaleSweepRow::d_k>);
    visit("unscaled", member<&ScaleSweepRow::unscaled>);
    visit("scaled", member<&ScaleSweepRow::scaled>);
  }
};

struct ScaleSweepResult {
  int draws = 0, tokens = 0;
  std::uint64_t seed = 0;
  // measure_rows() of a softmax over T equal scores: 1/T, log T and sqrt(1/T - 1/T^2).
  RowMeasures uniform;
  std::vector<ScaleSweepRow> rows;  // (K), in the order of d_ks

  template <typename Visit>
  static void fields(Visit&& visit) {
    visit("draws", member<&ScaleSweepResult::draws>);
    visit("tokens", member<&ScaleSweepResult::tokens>);
    visit("seed", member<&ScaleSweepResult::seed>);
    visit("uniform", member<&ScaleSweepResult::uniform>);
    visit("rows", member<&ScaleSweepResult::rows>);
  }
};

// config.d_ks (K) -> K rows. Each d_k has its own stream, Random(seed * 0x9E3779B97F4A7C15 + d_k),
// so a d_k's row does not depend on which other d_k are swept. Per draw: Q = normal(T, d_k),
// then K = normal(T, d_k), both float32; the weights are those attn::attention_weights_unchecked
// (the arithmetic of attn::attention) gives, bit for bit, with one Q K^T shared by the
// unscaled and the scaled softmax. Max weight and Jacobian norm are measure_rows() of those
// weights; the entropy is computed from the scores with one log per row and equals
// measure_rows()'s to within float32 rounding (1e-6). Measures are averaged in double.
// Throws attn::ArgumentError for a field outside its range or scale_sweep_work() above
// kMaxSweepWork.
ScaleSweepResult scale_sweep(const ScaleSweepConfig& config = {});

// The lesson's published table (200 draws, 12 tokens; its draws cannot be replayed) and
// the tolerances within which a sweep at the default size must land for every seed. The
// test and `attention-lab scale` both read it from here.
// Grouped by scaling (unscaled first), each with its largest weight and its entropy in nats.
struct LessonScaleRow {
  int d_k;
  double max_weight_unscaled, entropy_unscaled;
  double max_weight_scaled, entropy_scaled;
};
constexpr LessonScaleRow kLessonScaleTable[] = {
    {4, 0.4442, 1.6128, 0.2567, 2.1533},
    {16, 0.7189, 0.7792, 0.2918, 2.0866},
    {64, 0.8577, 0.3698, 0.3024, 2.0702},
    {256, 0.9355, 0.1668, 0.2812, 2.1064},
};
constexpr double kLessonUniformWeight = 0.0833;   // 1/12, to four places
constexpr double kLessonUniformEntropy = 2.4849;  // log 12, to four places
constexpr double kLessonMaxWeightTolerance = 0.05;
constexpr double kLessonEntropyTolerance = 0.12;

}  // namespace attn::experiments
