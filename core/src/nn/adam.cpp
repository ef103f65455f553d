#include "attn/nn/adam.hpp"

#include <cmath>
#include <stdexcept>
#include <string>

namespace attn::nn {

void require_adam_config(const AdamConfig& c) { require_fields(c); }

template <typename T>
Adam<T>::Adam(const AdamConfig& config, ParameterList<T> params) : config_(config), params_(std::move(params)) {
  require_adam_config(config);
  for (const auto& p : params_) {
    m_.push_back(Mat<T>::Zero(p.value->rows(), p.value->cols()));
    v_.push_back(Mat<T>::Zero(p.value->rows(), p.value->cols()));
  }
}

template <typename T>
void Adam<T>::step() {
  ++steps_;
  beta1_power_ *= config_.beta1;
  beta2_power_ *= config_.beta2;
  const T alpha = T(config_.learning_rate * std::sqrt(1.0 - beta2_power_) / (1.0 - beta1_power_));
  const T b1 = T(config_.beta1), b2 = T(config_.beta2), eps = T(config_.epsilon);
  // A plain loop, not Eigen's array sqrt: with EIGEN_FAST_MATH (its default) the SSE packet
  // sqrt of float is an approximation, while std::sqrt is exact on every platform.
  for (std::size_t i = 0; i < params_.size(); ++i) {
    const T* g = params_[i].grad->data();
    T* m = m_[i].data();
    T* v = v_[i].data();
    T* p = params_[i].value->data();
    for (Eigen::Index j = 0; j < m_[i].size(); ++j) {
      m[j] = b1 * m[j] + (T(1) - b1) * g[j];
      v[j] = b2 * v[j] + (T(1) - b2) * g[j] * g[j];
      p[j] -= alpha * m[j] / (std::sqrt(v[j]) + eps);
    }
  }
}

template class Adam<float>;
template class Adam<double>;

}  // namespace attn::nn
