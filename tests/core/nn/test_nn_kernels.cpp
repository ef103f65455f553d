// The fixed-order kernels against Eigen and libm, and the training attention against the
// inference core's attn::MultiHeadAttention (same layout, same numbers).
#include "attn/multihead.hpp"
#include "nn/kernels.hpp"

#include <catch2/catch.hpp>

#include <cmath>
#include <cstring>
#include <limits>
#include <vector>

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

namespace {

// The fixed order the kernels promise, written as plainly as possible: each element starts from
// its initial value and adds the products in index order.
template <typename T>
Mat<T> reference_product(const Mat<T>& a, const Mat<T>& b, Mat<T> c) {
  for (Eigen::Index i = 0; i < c.rows(); ++i)
    for (Eigen::Index j = 0; j < c.cols(); ++j)
      for (Eigen::Index p = 0; p < a.cols(); ++p) c(i, j) += a(i, p) * b(p, j);
  return c;
}

bool same_bits(const Eigen::Ref<const Matrix>& a, const Eigen::Ref<const Matrix>& b) {
  return a.rows() == b.rows() && a.cols() == b.cols() && std::memcmp(a.data(), b.data(), sizeof(float) * a.size()) == 0;
}

template <typename T>
void check_products_exact(int n, int k, int m) {
  Random rng(std::uint64_t(n * 10000 + k * 100 + m));
  const Mat<T> a = rng.normal_matrix(n, k).cast<T>(), b = rng.normal_matrix(k, m).cast<T>();
  const Mat<T> zero = Mat<T>::Zero(n, m), expected = reference_product<T>(a, b, zero);
  INFO("n " << n << ", k " << k << ", m " << m << ", " << sizeof(T) << "-byte scalars");
  CHECK(kernels::matmul<T>(a, b) == expected);
  const Mat<T> bt = b.transpose();
  CHECK(kernels::matmul_bt<T>(a, bt) == expected);
  // c += a^T b from a nonzero start, a (k, n) as stored; and a block of a wider matrix (strides).
  const Mat<T> at = a.transpose(), start = rng.normal_matrix(n, m).cast<T>();
  Mat<T> c = start;
  kernels::add_matmul_at<T>(at, b, c);
  CHECK(c == reference_product<T>(a, b, start));
  // Into a block of a wider matrix: the columns beside it keep their zeros.
  Mat<T> wide = Mat<T>::Zero(n, m + 3);
  kernels::matmul<T>(n, k, m, a.data(), a.cols(), b.data(), b.cols(), wide.data() + 1, wide.cols());
  CHECK(Mat<T>(wide.middleCols(1, m)) == expected);
  CHECK((wide.col(0).isZero() && wide.rightCols(2).isZero()));
  wide.setZero();
  kernels::matmul_bt<T>(n, k, m, a.data(), a.cols(), bt.data(), bt.cols(), wide.data() + 1, wide.cols());
  CHECK(Mat<T>(wide.middleCols(1, m)) == expected);
  CHECK((wide.col(0).isZero() && wide.rightCols(2).isZero()));
}

}  // namespace

TEST_CASE("the vectorised products equal the plain fixed-order sums bit for bit", "[nn][kernels]") {
  // Shapes around the register blocks (2 rows, 4 vectors of columns) and their leftovers: 1 to
  // 3 vectors left (in one block), single columns left (matmul_bt pads them to a vector).
  for (int n : {1, 2, 3, 10, 33})
    for (int k : {1, 7, 32})
      for (int m : {1, 3, 4, 5, 9, 10, 16, 17, 21, 28, 32, 35}) {
        check_products_exact<float>(n, k, m);
        check_products_exact<double>(n, k, m);
      }
}

namespace {

// softmax_rows<T> on rows of `spread`-sized scores against its definition with exp_fixed one
// value at a time; double rows keep every bit of the exponentials.
template <typename T>
void check_softmax_exact(Random& rng, float spread, int m) {
  Mat<T> scores = (rng.normal_matrix(4, m) * spread).cast<T>();
  Mat<T> expected = scores;
  for (Eigen::Index i = 0; i < expected.rows(); ++i) {
    const T top = expected.row(i).maxCoeff();
    std::vector<double> e;
    double sum = 0;
    for (Eigen::Index j = 0; j < m; ++j)
      sum += e.emplace_back(kernels::exp_fixed(double(expected(i, j)) - double(top)));
    for (Eigen::Index j = 0; j < m; ++j) expected(i, j) = T(e[std::size_t(j)] / sum);
  }
  kernels::softmax_rows<T>(scores.data(), 4, m, m);
  INFO("spread " << spread << ", " << m << " columns, " << sizeof(T) << "-byte scalars");
  CHECK(std::memcmp(scores.data(), expected.data(), sizeof(T) * std::size_t(scores.size())) == 0);
}

}  // namespace

TEST_CASE("softmax_rows and relu_backward equal their scalar definitions bit for bit", "[nn][kernels]") {
  Random rng(43);
  // Rows with spreads from tiny to beyond exp's range, so the two-lane path and the scalar
  // fallback (below -707, at -745 and under) both run, in pairs and singly.
  for (const float spread : {0.1f, 10.0f, 400.0f, 720.0f, 800.0f, 3e4f})
    for (const int m : {1, 2, 5, 10, 33}) {
      check_softmax_exact<float>(rng, spread, m);
      check_softmax_exact<double>(rng, spread, m);
    }
  const float nan = std::numeric_limits<float>::quiet_NaN();
  Matrix pre(1, 11), grad(1, 11);
  pre << 1, -1, 0, -0.0f, 2, nan, 3, 1e-40f, -1e-40f, 5, -5;
  grad << -1, 2, 3, 4, -0.0f, 6, 7, 8, 9, -10, 11;
  Matrix expected(1, 11);
  expected << -1, 0, 0, 0, -0.0f, 0, 7, 8, 0, -10, 0;
  kernels::relu_backward<float>(pre.data(), grad.data(), grad.size());
  CHECK(same_bits(grad, expected));
}

TEST_CASE("exp_fixed agrees with libm's exp to a few units in the last place", "[nn][kernels]") {
  double worst = 0;
  for (double x = -700; x <= 700; x += 0.37) worst = std::max(worst, std::abs(kernels::exp_fixed(x) / std::exp(x) - 1));
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
    for (int b = 0; b < batch; ++b)
      CHECK((last.row(b) - all.row(b * length + length - 1)).cwiseAbs().maxCoeff() == 0.0f);
  }
}
