// The fixed-order kernels against Eigen and libm, and the training attention against the
// inference core's attn::MultiHeadAttention (same layout, same numbers).
#include "attn/multihead.hpp"
#include "attn/nn/kernels.hpp"

#include <catch2/catch.hpp>

#include <cmath>

using namespace attn;
using namespace attn::nn;

TEST_CASE("kernel products match Eigen's within float rounding", "[nn][kernels]") {
  Random rng(41);
  for (const auto& [n, k, m] : {std::tuple{7, 5, 3}, {33, 32, 64}, {10, 10, 32}, {3, 32, 9}}) {
    const Matrix a = rng.normal_matrix(n, k), b = rng.normal_matrix(k, m), bt = b.transpose(),
                 a2 = rng.normal_matrix(n, m);
    const float scale = std::sqrt(float(k)) * 1e-6f;
    CHECK((kernels::matmul<float>(a, b) - a * b).cwiseAbs().maxCoeff() <= scale);
    CHECK((kernels::matmul_bt<float>(a, bt) - a * b).cwiseAbs().maxCoeff() <= scale);
    Matrix c = Matrix::Ones(k, m);
    kernels::add_matmul_at<float>(a, a2, c);
    const Matrix expected = Matrix::Ones(k, m) + a.transpose() * a2;
    CHECK((c - expected).cwiseAbs().maxCoeff() <= std::sqrt(float(n)) * 1e-6f);
    Matrix sums = Matrix::Zero(1, m);
    kernels::add_column_sums<float>(a2, sums);
    CHECK((sums - a2.colwise().sum()).cwiseAbs().maxCoeff() <= 1e-5f);
  }
}

TEST_CASE("exp_fixed agrees with libm's exp to a few units in the last place", "[nn][kernels]") {
  double worst = 0;
  for (double x = -700; x <= 700; x += 0.37)
    worst = std::max(worst, std::abs(kernels::exp_fixed(x) / std::exp(x) - 1));
  for (double x = -2; x <= 2; x += 1.0 / 1024)
    worst = std::max(worst, std::abs(kernels::exp_fixed(x) / std::exp(x) - 1));
  INFO("largest relative difference " << worst);
  CHECK(worst < 4e-15);
  CHECK(kernels::exp_fixed(0.0) == 1.0);
  CHECK(kernels::exp_fixed(-800.0) == 0.0);
  CHECK(std::isinf(kernels::exp_fixed(800.0)));
  Matrix row(1, 3);
  row << 1.0f, 2.0f, 3.0f;
  const double expected = std::log(std::exp(1.0) + std::exp(2.0) + std::exp(3.0));
  CHECK(kernels::log_sum_exp<float>(row.data(), 3) == Approx(expected).epsilon(1e-12));
}

TEST_CASE("the training attention computes what attn::MultiHeadAttention computes", "[nn][kernels]") {
  for (const int heads : {1, 4}) {
    Random rng(42);
    SelfAttention<float> layer(32, heads, 32 / heads);
    layer.init_glorot_uniform(rng);
    MultiHeadAttention reference(32, heads);
    const Projection which[4] = {Projection::query, Projection::key, Projection::value, Projection::output};
    Linear<float>* mine[4] = {&layer.query, &layer.key, &layer.value, &layer.output};
    for (int i = 0; i < 4; ++i) {
      mine[i]->bias = rng.normal_matrix(1, mine[i]->bias.cols()) * 0.1f;
      reference.set_projection(which[i], mine[i]->weight, mine[i]->bias);
    }
    const int batch = 3, length = 10;
    const Matrix x = rng.normal_matrix(batch * length, 32);
    const Matrix all = layer.forward(x, batch, length, false);
    for (int b = 0; b < batch; ++b) {
      const Matrix xb = x.middleRows(b * length, length);
      const auto expected = reference.forward(xb, xb, xb);
      CHECK((all.middleRows(b * length, length) - expected.output).cwiseAbs().maxCoeff() <= 1e-5f);
      for (int h = 0; h < heads; ++h)
        CHECK((layer.weights_of(b, h) - expected.weights[std::size_t(h)]).cwiseAbs().maxCoeff() <= 1e-6f);
    }
    const Matrix last = layer.forward(x, batch, length, true);
    REQUIRE(last.rows() == batch);
    for (int b = 0; b < batch; ++b) CHECK((last.row(b) - all.row(b * length + length - 1)).cwiseAbs().maxCoeff() == 0.0f);
  }
}
