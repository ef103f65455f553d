// Adam over a flat list of (parameter, gradient) pairs, in Keras's formulation:
//   m = b1 m + (1 - b1) g,  v = b2 v + (1 - b2) g^2,
//   p -= lr sqrt(1 - b2^t) / (1 - b1^t) * m / (sqrt(v) + eps).
// The powers b^t are running products (no pow()), so the step size rounds the same on
// every platform. Left out: weight decay, AMSGrad, gradient clipping.
#pragma once

#include "attn/nn/layers.hpp"

namespace attn::nn {

struct AdamConfig {
  double learning_rate = 3e-3;
  double beta1 = 0.9;
  double beta2 = 0.999;
  double epsilon = 1e-7;
};

// Throws std::invalid_argument naming the field: learning_rate must be > 0 and finite,
// betas in [0, 1), epsilon > 0.
void require_adam_config(const AdamConfig& config);

template <typename T>
class Adam {
 public:
  // params must outlive the optimiser; their shapes must not change.
  Adam(const AdamConfig& config, ParameterList<T> params);
  // One update of every parameter from its current gradient.
  void step();
  long steps() const { return steps_; }

 private:
  AdamConfig config_;
  ParameterList<T> params_;
  std::vector<Mat<T>> m_, v_;
  long steps_ = 0;
  double beta1_power_ = 1.0, beta2_power_ = 1.0;
};

}  // namespace attn::nn
