// The matrix multiplies the cue training runs most, for measuring what one core can do at
// those shapes: with Eigen (the inference core's products) and with the training's own
// fixed-order kernels (core/include/attn/nn/kernels.hpp). Shared by the native benchmark
// (bench/gemm_native.cpp) and the WebAssembly benchmark module (bench/bench_module.cpp), so
// both time the same code on the same seeded inputs.
//
// The shapes: 320 rows = a batch of 32 sequences of 10 tokens, width d = 32.
//   320x32 * 32x32   a projection (query, key, value, output) and its input gradient
//   320x32 * 32x64   the feed-forward layer's first half
//   320x32 * 32x96   three projections side by side (the reference shape)
//   32x320 * 320x32  a weight gradient, x^T dy, accumulated (c += a^T b)
// Leaves out: timing (the callers time whole loops of calls).
#pragma once

#include "attn/matrix.hpp"

#include <vector>

namespace bench {

struct GemmShape {
  const char* name;
  int n, k, m;              // c (n, m) = a (n, k) b (k, m)
  bool transposed_a = false;  // c (n, m) += a^T b with a stored (k, n)
  double flops() const { return 2.0 * n * k * m; }  // one multiply-add counts 2
};

const std::vector<GemmShape>& training_gemm_shapes();

// One shape's operands, drawn from a fixed seed; each call computes c once.
class GemmWorkload {
 public:
  explicit GemmWorkload(const GemmShape& shape);
  const GemmShape& shape() const { return shape_; }
  void eigen();    // Eigen's product (noalias)
  void kernels();  // kernels::matmul, or kernels::add_matmul_at for the transposed shape
  float checksum() const { return c_(0, 0) + c_(c_.rows() - 1, c_.cols() - 1); }

 private:
  GemmShape shape_;
  attn::Matrix a_, b_, c_;
};

}  // namespace bench
