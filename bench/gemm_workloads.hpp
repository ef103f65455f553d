// Matrix multiplies at the shapes the core runs, each with Eigen (the inference core's products
// natively) and with the training's own fixed-order kernels (core/src/fixed_order.hpp):
// what one core can do at those shapes, and which of the two is faster there. Timed inside
// WebAssembly by the benchmark module (bench/bench_module.cpp) on the same seeded inputs.
//
// training_gemm_shapes(): 320 rows = a batch of 32 sequences of 10 tokens, width d = 32.
//   320x32 * 32x32   a projection (query, key, value, output) and its input gradient
//   320x32 * 32x64   the feed-forward layer's first half
//   320x32 * 32x96   three projections side by side
//   32x320 * 320x32  a weight gradient, x^T dy, accumulated (c += a^T b)
// attention_gemm_shapes(): the products of bench/attention_workloads.hpp's calls (core/src/products.hpp)
//   1x2 * (5x2)^T, 1x5 * 5x2          the soft lookup's scores and weighted sum
//   12x64 * (12x64)^T, 12x12 * 12x64  self-attention on 12 tokens of width 64
//   10x64 * 64x64                     a projection of the 4-head layer on 10 tokens
//   10x16 * (10x16)^T, 10x10 * 10x16  one of its heads' scores and weighted sum
// Leaves out: timing (the callers time whole loops of calls).
#pragma once

#include "attn/matrix.hpp"

#include <vector>

namespace bench {

struct GemmShape {
  const char* name;
  int n, k, m;                                      // c (n, m) = a (n, k) b (k, m)
  bool transposed_a = false;                        // c (n, m) += a^T b with a stored (k, n)
  bool transposed_b = false;                        // c (n, m) = a b^T with b stored (m, k)
  double flops() const { return 2.0 * n * k * m; }  // one multiply-add counts 2
};

const std::vector<GemmShape>& training_gemm_shapes();
const std::vector<GemmShape>& attention_gemm_shapes();

// One shape's operands, drawn from a fixed seed; each call computes c once.
class GemmWorkload {
 public:
  explicit GemmWorkload(const GemmShape& shape);
  const GemmShape& shape() const { return shape_; }
  void eigen();  // Eigen's product (noalias)
  // fixed_order::matmul, add_matmul_at (a^T), or for b^T the score kernel of core/src/products.hpp
  // (fixed_order::matmul_bt natively, where the core has none)
  void kernels();
  float checksum() const { return c_(0, 0) + c_(c_.rows() - 1, c_.cols() - 1); }

 private:
  GemmShape shape_;
  attn::Matrix a_, b_, c_;
};

}  // namespace bench
