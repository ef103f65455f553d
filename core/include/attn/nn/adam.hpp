// Adam over a flat list of (parameter, gradient) pairs, in Keras's formulation:
//   m = b1 m + (1 - b1) g,  v = b2 v + (1 - b2) g^2,
//   p -= lr sqrt(1 - b2^t) / (1 - b1^t) * m / (sqrt(v) + eps).
// The powers b^t are running products (no pow()), so the step size rounds the same on
// every platform. Left out: weight decay, AMSGrad, gradient clipping.
#pragma once

#include "attn/config.hpp"
#include "attn/nn/layers.hpp"

namespace attn::nn {

constexpr double kMaxLearningRate = ATTN_PICK(10.0, 2.0);

struct AdamConfig {
  double learning_rate = ATTN_PICK(3e-3, 2e-3);
  double beta1 = ATTN_PICK(0.9, 0.8);
  double beta2 = ATTN_PICK(0.999, 0.99);
  double epsilon = ATTN_PICK(1e-7, 1e-6);

  template <typename Visit>
  static void fields(Visit&& visit) {
    visit(FieldInfo{"learning_rate", "learningRate", "lr", 0, kMaxLearningRate, "Adam's learning rate", true},
          member<&AdamConfig::learning_rate>);
    visit(FieldInfo{"beta1", "beta1", "beta1", 0, 1, "Adam's decay of the gradient average", false, true},
          member<&AdamConfig::beta1>);
    visit(FieldInfo{"beta2", "beta2", "beta2", 0, 1, "Adam's decay of the squared-gradient average", false, true},
          member<&AdamConfig::beta2>);
    visit(FieldInfo{"epsilon", "epsilon", "epsilon", 0, 1, "Adam's denominator guard", true},
          member<&AdamConfig::epsilon>);
  }
};

// Throws attn::ArgumentError naming the field that is out of its range.
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
