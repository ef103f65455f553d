// The float32 matrix products of inference attention (scores, weighted sums, projections),
// on row-major blocks given as Refs (one head's columns of a wider matrix, without a copy).
// Natively they are Eigen's products. In WebAssembly, where Eigen 3.4 has no SIMD path and its
// small products spend more time packing than multiplying, they are SIMD128 kernels wherever
// bench/run-attention measures them faster than Eigen at the lesson's shapes: the training's
// 16-byte vector product (fixed_order.hpp) for weighted sums and projections, and
// scores_kernel() for scores with 4 or more columns. Their sums run in another order than
// Eigen's, so results differ from the native ones by float32 rounding.
#pragma once

#include "attn/matrix.hpp"

namespace attn {

using ConstRef = Eigen::Ref<const Matrix>;
using MutableRef = Eigen::Ref<Matrix>;

// query (n_q, d), key (n_k, d) -> out (n_q, n_k) = query key^T. out has that shape already
// and shares no memory with the inputs; so for product_into.
void scores_into(const ConstRef& query, const ConstRef& key, MutableRef out);
// a (n, k), b (k, m) -> out (n, m) = a b
void product_into(const ConstRef& a, const ConstRef& b, MutableRef out);

#ifdef __wasm_simd128__
// scores_into's WebAssembly kernel (exposed for bench/): four keys at a time, each dot product
// in 4 lanes of partial sums. scores_into uses it for rows of at least 4 values: below that a
// dot product fills no vector and Eigen's loop is faster (bench/run-attention).
void scores_kernel(const ConstRef& query, const ConstRef& key, MutableRef out);
inline bool scores_use_kernel(Eigen::Index width) { return width >= 4; }
#endif

}  // namespace attn
