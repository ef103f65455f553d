#include "gemm_workloads.hpp"

#include "attn/random.hpp"
#include "fixed_order.hpp"
#include "products.hpp"

namespace bench {

const std::vector<GemmShape>& training_gemm_shapes() {
  static const std::vector<GemmShape> shapes = {
      {"320x32 * 32x32", 320, 32, 32},
      {"320x32 * 32x64", 320, 32, 64},
      {"320x32 * 32x96", 320, 32, 96},
      {"32x320 * 320x32", 32, 320, 32, true},
  };
  return shapes;
}

const std::vector<GemmShape>& attention_gemm_shapes() {
  static const std::vector<GemmShape> shapes = {
      {"1x2 * (5x2)^T", 1, 2, 5, false, true},
      {"1x5 * 5x2", 1, 5, 2},
      {"12x64 * (12x64)^T", 12, 64, 12, false, true},
      {"12x12 * 12x64", 12, 12, 64},
      {"10x64 * 64x64", 10, 64, 64},
      {"10x16 * (10x16)^T", 10, 16, 10, false, true},
      {"10x10 * 10x16", 10, 10, 16},
  };
  return shapes;
}

GemmWorkload::GemmWorkload(const GemmShape& shape) : shape_(shape) {
  attn::Random rng(2026);
  a_ = shape.transposed_a ? rng.normal_matrix(shape.k, shape.n) : rng.normal_matrix(shape.n, shape.k);
  b_ = shape.transposed_b ? rng.normal_matrix(shape.m, shape.k) : rng.normal_matrix(shape.k, shape.m);
  c_ = attn::Matrix::Zero(shape.n, shape.m);
}

void GemmWorkload::eigen() {
  if (shape_.transposed_a)
    c_.noalias() += a_.transpose() * b_;
  else if (shape_.transposed_b)
    c_.noalias() = a_ * b_.transpose();
  else
    c_.noalias() = a_ * b_;
}

void GemmWorkload::kernels() {
  if (shape_.transposed_a) attn::fixed_order::add_matmul_at<float>(a_, b_, c_);
#ifdef __wasm_simd128__
  else if (shape_.transposed_b)
    attn::scores_kernel(a_, b_, c_);
#else
  else if (shape_.transposed_b)
    attn::fixed_order::matmul_bt<float>(shape_.n, shape_.k, shape_.m, a_.data(), a_.cols(), b_.data(), b_.cols(),
                                        c_.data(), c_.cols());
#endif
  else
    attn::fixed_order::matmul<float>(shape_.n, shape_.k, shape_.m, a_.data(), a_.cols(), b_.data(), b_.cols(),
                                     c_.data(), c_.cols());
}

}  // namespace bench
