// The scale sweep against the lesson's table (every seed 0..9, the lesson's tolerances), the
// gradient trend, the row measures against their definitions, and the argument limits.
#include "attn/attention.hpp"
#include "attn/experiments/scale_sweep.hpp"
#include "attn/random.hpp"
#include "attn/softmax.hpp"

#include <catch2/catch.hpp>

#include <cmath>

using namespace attn;
using namespace attn::experiments;
using Catch::Matchers::Contains;

TEST_CASE("scale sweep: seeds 0..9 at the default size land on the lesson's table", "[experiments][scale]") {
  for (std::uint64_t seed = 0; seed < 10; ++seed) {
    const ScaleSweepResult sweep = scale_sweep({{4, 16, 64, 256}, 200, 12, seed});
    REQUIRE(sweep.rows.size() == 4);
    for (std::size_t i = 0; i < 4; ++i) {
      const LessonScaleRow& lesson = kLessonScaleTable[i];
      const ScaleSweepRow& row = sweep.rows[i];
      INFO("seed " << seed << ", d_k " << lesson.d_k);
      REQUIRE(row.d_k == lesson.d_k);
      CHECK(std::abs(row.unscaled.max_weight.mean - lesson.max_weight_unscaled) <= kLessonMaxWeightTolerance);
      CHECK(std::abs(row.scaled.max_weight.mean - lesson.max_weight_scaled) <= kLessonMaxWeightTolerance);
      CHECK(std::abs(row.unscaled.entropy.mean - lesson.entropy_unscaled) <= kLessonEntropyTolerance);
      CHECK(std::abs(row.scaled.entropy.mean - lesson.entropy_scaled) <= kLessonEntropyTolerance);
    }
    // The uniform reference comes out of the same measuring code.
    CHECK(std::abs(sweep.uniform.max_weight - kLessonUniformWeight) <= 5e-5);
    CHECK(std::abs(sweep.uniform.entropy - kLessonUniformEntropy) <= 5e-5);
    CHECK(sweep.uniform.max_weight == Approx(1.0 / 12).epsilon(1e-6));
    CHECK(sweep.uniform.entropy == Approx(std::log(12.0)).epsilon(1e-6));
  }
}

TEST_CASE("scale sweep: the softmax Jacobian shrinks as unscaled weights saturate", "[experiments][scale]") {
  for (std::uint64_t seed = 0; seed < 3; ++seed) {
    const ScaleSweepResult sweep = scale_sweep({{4, 16, 64, 256}, 200, 12, seed});
    INFO("seed " << seed);
    for (std::size_t i = 1; i < 4; ++i) {
      // Unscaled: strictly falling, by more than the noise.
      const SweepStat& before = sweep.rows[i - 1].unscaled.jacobian_norm;
      const SweepStat& after = sweep.rows[i].unscaled.jacobian_norm;
      CHECK(after.mean + 3 * (after.standard_error + before.standard_error) < before.mean);
      // Scaled: holds within 5% of its d_k = 4 value.
      CHECK(std::abs(sweep.rows[i].scaled.jacobian_norm.mean / sweep.rows[0].scaled.jacobian_norm.mean - 1) < 0.05);
    }
    // At d_k = 256 the unscaled gradient is well under half the scaled one.
    CHECK(sweep.rows[3].unscaled.jacobian_norm.mean < 0.5 * sweep.rows[3].scaled.jacobian_norm.mean);
    // And the max weight climbs with d_k unscaled, as the lesson says.
    for (std::size_t i = 1; i < 4; ++i)
      CHECK(sweep.rows[i].unscaled.max_weight.mean > sweep.rows[i - 1].unscaled.max_weight.mean);
  }
}

TEST_CASE("scale sweep: per-draw values, standard errors and determinism", "[experiments][scale]") {
  const ScaleSweepResult a = scale_sweep({{16, 64}, 50, 12, 5});
  const ScaleSweepResult b = scale_sweep({{64}, 50, 12, 5});
  const SweepStat& entropy = a.rows[0].scaled.entropy;
  REQUIRE(entropy.per_draw.size() == 50);
  double sum = 0, squares = 0;
  for (double x : entropy.per_draw) sum += x;
  const double mean = sum / 50;
  for (double x : entropy.per_draw) squares += (x - mean) * (x - mean);
  REQUIRE(entropy.mean == Approx(mean).epsilon(1e-12));
  REQUIRE(entropy.standard_error == Approx(std::sqrt(squares / 49) / std::sqrt(50.0)).epsilon(1e-12));
  // Draws differ from each other, and a d_k's row does not depend on the other d_k swept.
  REQUIRE(entropy.per_draw[0] != entropy.per_draw[1]);
  REQUIRE(b.rows[0].unscaled.max_weight.per_draw == a.rows[1].unscaled.max_weight.per_draw);
  REQUIRE(b.rows[0].scaled.jacobian_norm.per_draw == a.rows[1].scaled.jacobian_norm.per_draw);
  // Another seed, other draws.
  REQUIRE(scale_sweep({{64}, 50, 12, 6}).rows[0].unscaled.max_weight.per_draw !=
          b.rows[0].unscaled.max_weight.per_draw);
  // One draw has no spread to estimate.
  REQUIRE(std::isnan(scale_sweep({{4}, 1, 12, 0}).rows[0].scaled.entropy.standard_error));
  // Four times the draws, about half the standard error.
  const double se_200 = scale_sweep({{16}, 200, 12, 1}).rows[0].unscaled.entropy.standard_error;
  const double se_800 = scale_sweep({{16}, 800, 12, 1}).rows[0].unscaled.entropy.standard_error;
  REQUIRE(se_800 / se_200 > 0.35);
  REQUIRE(se_800 / se_200 < 0.65);
}

TEST_CASE("scale sweep: each draw's figures are measure_rows() of attention's weights", "[experiments][scale]") {
  // The sweep shares one score product between its unscaled and scaled softmax and takes the
  // entropy from the scores (one log per row). Replayed here the long way, per the header:
  // the d_k's own stream, Q then K, attention_weights_unchecked(), measure_rows().
  const std::uint64_t seed = 4;
  const int tokens = 12, draws = 3;
  for (int d_k : {4, 256}) {
    const ScaleSweepResult sweep = scale_sweep({{d_k}, draws, tokens, seed});
    Random rng(seed * 0x9E3779B97F4A7C15ull + static_cast<std::uint64_t>(d_k));
    for (int draw = 0; draw < draws; ++draw) {
      const Matrix q = rng.normal_matrix(tokens, d_k), k = rng.normal_matrix(tokens, d_k);
      for (bool scale : {false, true}) {
        INFO("d_k " << d_k << ", draw " << draw << (scale ? ", scaled" : ", unscaled"));
        const SweepMeasures& m = scale ? sweep.rows[0].scaled : sweep.rows[0].unscaled;
        double sums[3] = {0, 0, 0};
        for (const RowMeasures& row : measure_rows(attention_weights_unchecked<float>(q, k, nullptr, scale, 0.0f))) {
          sums[0] += row.max_weight;
          sums[1] += row.entropy;
          sums[2] += row.jacobian_norm;
        }
        CHECK(m.max_weight.per_draw[draw] == sums[0] / tokens);  // the very same weights
        CHECK(m.jacobian_norm.per_draw[draw] == sums[2] / tokens);
        CHECK(m.entropy.per_draw[draw] == Approx(sums[1] / tokens).margin(1e-6));
      }
    }
  }
}

TEST_CASE("row measures match their definitions", "[experiments][scale]") {
  Matrix scores(3, 5);
  scores << 0.3f, -1.2f, 2.0f, 0.7f, -0.1f,  //
      0, 0, 0, 0, 0,                         //
      200, 0, 0, 0, 0;                       // saturated: exp(-200) is 0 in float32
  const Matrix p = softmax(scores);
  const auto measures = measure_rows(p);
  REQUIRE(measures.size() == 3);
  for (int i = 0; i < 3; ++i) {
    INFO("row " << i);
    double entropy = 0;
    Eigen::MatrixXd jacobian(5, 5);
    for (int a = 0; a < 5; ++a) {
      if (p(i, a) > 0) entropy -= double(p(i, a)) * std::log(double(p(i, a)));
      for (int b = 0; b < 5; ++b) jacobian(a, b) = (a == b ? double(p(i, a)) : 0.0) - double(p(i, a)) * p(i, b);
    }
    CHECK(measures[i].max_weight == double(p.row(i).maxCoeff()));
    CHECK(measures[i].entropy == Approx(entropy).margin(1e-12));
    CHECK(measures[i].jacobian_norm == Approx(jacobian.norm()).margin(1e-9));
  }
  CHECK(measures[1].entropy == Approx(std::log(5.0)).epsilon(1e-7));
  CHECK(measures[2].max_weight == 1.0);
  CHECK(measures[2].entropy == 0.0);
  CHECK(measures[2].jacobian_norm == 0.0);

  // The Jacobian norm is the one of the core's own softmax: central differences in double.
  const Eigen::RowVectorXd s = scores.row(0).cast<double>();
  auto soft = [](const Eigen::RowVectorXd& x) {
    const Eigen::RowVectorXd e = (x.array() - x.maxCoeff()).exp().matrix();
    return Eigen::RowVectorXd(e / e.sum());
  };
  Eigen::MatrixXd numeric(5, 5);
  const double h = 1e-6;
  for (int b = 0; b < 5; ++b) {
    Eigen::RowVectorXd plus = s, minus = s;
    plus(b) += h;
    minus(b) -= h;
    numeric.col(b) = ((soft(plus) - soft(minus)) / (2 * h)).transpose();
  }
  CHECK(measures[0].jacobian_norm == Approx(numeric.norm()).epsilon(1e-5));
}

TEST_CASE("bad input: scale sweep arguments out of range", "[experiments][scale][bad-input]") {
  REQUIRE_THROWS_WITH(scale_sweep({{4}, 0, 12, 0}),
                      Contains("draws must be a whole number in [1, 100000]") && Contains("got 0"));
  REQUIRE_THROWS_WITH(scale_sweep({{4}, 100001, 12, 0}), Contains("draws") && Contains("got 100001"));
  REQUIRE_THROWS_WITH(scale_sweep({{4}, -5, 12, 0}), Contains("draws") && Contains("got -5"));
  REQUIRE_THROWS_WITH(scale_sweep({{4, 0}, 10, 12, 0}),
                      Contains("d_ks must hold whole numbers in [1, 4096]") && Contains("got 0"));
  REQUIRE_THROWS_WITH(scale_sweep({{4097}, 1, 2, 0}), Contains("d_k") && Contains("got 4097"));
  REQUIRE_THROWS_WITH(scale_sweep({{4}, 10, 1, 0}),
                      Contains("tokens must be a whole number in [2, 4096]") && Contains("got 1"));
  REQUIRE_THROWS_WITH(scale_sweep({{4}, 1, 4097, 0}), Contains("tokens") && Contains("got 4097"));
  REQUIRE_THROWS_WITH(scale_sweep({{}, 10, 12, 0}), Contains("d_ks must hold 1 to 64 values") && Contains("got 0"));
  // Each argument in range, together too much work: refused at once, not after minutes.
  REQUIRE_THROWS_WITH(scale_sweep({{4096}, 100000, 4096, 0}),
                      Contains("must be at most 20000000000") && Contains("draws 100000") && Contains("tokens 4096"));
  REQUIRE(scale_sweep_work({4096}, 100000, 4096) > kMaxSweepWork);
  // The row measures refuse what is not a probability row.
  REQUIRE_THROWS_WITH(measure_rows(Matrix(0, 3)), Contains("weights must not be empty") && Contains("(0, 3)"));
  Matrix bad = Matrix::Constant(2, 3, 0.25f);
  bad(1, 2) = std::nanf("");
  REQUIRE_THROWS_WITH(measure_rows(bad), Contains("weights must lie in [0, 1]") && Contains("(1, 2)"));
  bad(1, 2) = -0.5f;
  REQUIRE_THROWS_WITH(measure_rows(bad), Contains("weights must lie in [0, 1], got -0.5"));
  // The limits themselves are accepted.
  REQUIRE_NOTHROW(scale_sweep({{1, 4096}, 1, 2, 0}));
  REQUIRE(scale_sweep({{4096}, 1, 2, 0}).rows[0].d_k == 4096);
}
