// The arithmetic the training path runs on: products, sums, exp and softmax with a fixed
// order of operations, so native and WebAssembly builds round every step the same way.
//
// Why not Eigen's products and exp (which the inference core uses): their SSE kernels and
// vectorised exp/sums add in a different order, and with other polynomials, than the scalar
// code Eigen compiles to in WebAssembly. A forward pass barely notices; thousands of training
// steps amplify last-bit differences until curves visibly differ near a sudden jump. Here
// every output element is summed in index order (the compiler may vectorise across output
// elements, never within one sum: that would need -ffast-math), exp is a fixed polynomial in
// double, and with -ffp-contract=off no step is fused. Elementwise Eigen operations (+ - * /
// sqrt, max) are exact and stay.
//
// Shapes use plain pointers with leading dimensions (row strides), so Eigen blocks can be
// passed as (block.data(), block.outerStride()). The products run on blocks of 2 output rows by
// 16 float columns in 16-byte vectors (SSE natively, SIMD128 in WebAssembly): each lane still
// sums its element in index order, so vectorising changes no bit. Left out: cache blocking for
// large matrices, threads (the tiny transformer's matrices are at most a few hundred rows).
#pragma once

#include "attn/nn/layers.hpp"

namespace attn::nn::kernels {

// c (n, m) = a (n, k) b (k, m)
template <typename T>
void matmul(int n, int k, int m, const T* a, long lda, const T* b, long ldb, T* c, long ldc) noexcept;

// c (n, m) = a (n, k) b^T, b (m, k): dot products in index order.
template <typename T>
void matmul_bt(int n, int k, int m, const T* a, long lda, const T* b, long ldb, T* c, long ldc);

// c (k, m) += a^T b, a (n, k), b (n, m): rows of a and b taken in order 0..n-1.
template <typename T>
void add_matmul_at(int n, int k, int m, const T* a, long lda, const T* b, long ldb, T* c, long ldc) noexcept;

// Whole-matrix versions: a (n, k) b (k, m); a (n, k) b (m, k)^T; c (k, m) += a (n, k)^T b (n, m).
template <typename T>
Mat<T> matmul(const Mat<T>& a, const Mat<T>& b);
template <typename T>
Mat<T> matmul_bt(const Mat<T>& a, const Mat<T>& b);
template <typename T>
void add_matmul_at(const Mat<T>& a, const Mat<T>& b, Mat<T>& c);

// x (n, m) -> sums (1, m) added into out, rows taken in order.
template <typename T>
void add_column_sums(const Mat<T>& x, Mat<T>& out);

// x (n, m) += row (m) in every row: a bias.
template <typename T>
void add_row_to_rows(const T* row, Mat<T>& x) noexcept;

// ReLU's backward, in place: grad (n) is kept where pre (n), the activation's input, is
// positive and set to +0 elsewhere.
template <typename T>
void relu_backward(const T* pre, T* grad, long n) noexcept;

// e^x from + - * / and an exact power-of-two scaling: the same double on every platform.
// Relative error below 1e-15 for |x| <= 700; 0 below -745, +inf above 709.8.
double exp_fixed(double x);

// Each row of scores (n, m), in place, becomes its softmax: max subtracted, exp_fixed in
// double, summed in order, divided, rounded to T once.
template <typename T>
void softmax_rows(T* scores, int n, int m, long ld);

// log(sum_j exp(x_j - max)) + max for one row of m values: the log-partition of a softmax,
// in double with exp_fixed and attn::portable_log.
template <typename T>
double log_sum_exp(const T* row, int m);

}  // namespace attn::nn::kernels
