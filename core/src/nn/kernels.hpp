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
// The products are the core's fixed-order products (fixed_order.hpp), named here as well so
// the layers call every kernel as kernels::. Left out: threads (the tiny transformer's
// matrices are at most a few hundred rows).
#pragma once

#include "attn/nn/layers.hpp"
#include "fixed_order.hpp"

namespace attn::nn::kernels {

// c = a b, c = a b^T, c += a^T b: on pointers with leading dimensions, or on whole matrices.
using fixed_order::add_matmul_at;
using fixed_order::matmul;
using fixed_order::matmul_bt;

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
