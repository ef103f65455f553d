// Row-wise softmax, the normalisation at the heart of attention.
#pragma once

#include "attn/matrix.hpp"

namespace attn {

template <typename Scalar>
using MatrixOf = Eigen::Matrix<Scalar, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

// The softmax of each row with Eigen's expressions, for any scalar: what
// softmax_rows_unchecked() computes (natively, and in every build for Eigen::half).
template <typename Scalar>
MatrixOf<Scalar> softmax_rows_eigen(const MatrixOf<Scalar>& scores) {
  const auto row_max = scores.rowwise().maxCoeff();
  MatrixOf<Scalar> weights = (scores.colwise() - row_max).array().exp().matrix();
  const auto row_sum = weights.rowwise().sum().eval();
  for (Eigen::Index i = 0; i < weights.rows(); ++i) weights.row(i) /= row_sum(i);
  return weights;
}

// scores (rows, cols) -> weights (rows, cols), each row summing to 1.
// Subtracting the row maximum first keeps exp() from overflowing. No argument checks:
// this is the arithmetic shared by the float32 API and the half-precision experiments,
// so -inf and NaN flow through exactly as IEEE arithmetic makes them.
template <typename Scalar>
MatrixOf<Scalar> softmax_rows_unchecked(const MatrixOf<Scalar>& scores) {
  return softmax_rows_eigen<Scalar>(scores);
}
// float32 (softmax.cpp): Eigen's natively; in WebAssembly, where Eigen's exp is a libm call per
// value, the same formula with a 4-lane exp (core/src/simd.hpp), within an ulp of it.
template <>
Matrix softmax_rows_unchecked<float>(const Matrix& scores);

// scores (rows, cols) -> weights (rows, cols). Throws attn::ArgumentError for an empty
// or non-finite `scores`.
Matrix softmax(const Matrix& scores);

}  // namespace attn
