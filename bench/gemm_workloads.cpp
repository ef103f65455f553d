#include "gemm_workloads.hpp"

#include "attn/nn/kernels.hpp"
#include "attn/random.hpp"

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

GemmWorkload::GemmWorkload(const GemmShape& shape) : shape_(shape) {
  attn::Random rng(2026);
  a_ = shape.transposed_a ? rng.normal_matrix(shape.k, shape.n) : rng.normal_matrix(shape.n, shape.k);
  b_ = rng.normal_matrix(shape.k, shape.m);
  c_ = attn::Matrix::Zero(shape.n, shape.m);
}

void GemmWorkload::eigen() {
  if (shape_.transposed_a) c_.noalias() += a_.transpose() * b_;
  else c_.noalias() = a_ * b_;
}

void GemmWorkload::kernels() {
  if (shape_.transposed_a) attn::nn::kernels::add_matmul_at<float>(a_, b_, c_);
  else attn::nn::kernels::matmul<float>(shape_.n, shape_.k, shape_.m, a_.data(), a_.cols(), b_.data(), b_.cols(), c_.data(), c_.cols());
}

}  // namespace bench
