// Matrix products with a fixed order of operations: every output element is summed in index
// order (the compiler may vectorise across output elements, never within one sum: that would
// need -ffast-math), and with -ffp-contract=off no step is fused, so native and WebAssembly
// builds round every product the same way. The training's kernels (nn/kernels.hpp, which says
// why training needs that) use them, and so do the inference products in WebAssembly
// (products.hpp), where they beat Eigen's at the lesson's shapes.
//
// Shapes use plain pointers with leading dimensions (row strides), so Eigen blocks can be
// passed as (block.data(), block.outerStride()). The products run on blocks of 2 output rows by
// 16 float columns in 16-byte vectors (SSE natively, SIMD128 in WebAssembly): each lane still
// sums its element in index order, so vectorising changes no bit. Left out: cache blocking for
// large matrices, threads (the tiny transformer's matrices are at most a few hundred rows).
#pragma once

#include "attn/softmax.hpp"  // MatrixOf

namespace attn::fixed_order {

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
MatrixOf<T> matmul(const MatrixOf<T>& a, const MatrixOf<T>& b);
template <typename T>
MatrixOf<T> matmul_bt(const MatrixOf<T>& a, const MatrixOf<T>& b);
template <typename T>
void add_matmul_at(const MatrixOf<T>& a, const MatrixOf<T>& b, MatrixOf<T>& c);

}  // namespace attn::fixed_order
