// Central finite differences in double precision, for the nn layers' gradient tests.
// Tolerance used throughout: max |numeric - analytic| <= 1e-8 * max(1, max |analytic|)
// with step h = 1e-5 (truncation ~h^2, rounding ~1e-16 / h, both far below it).
#pragma once

#include "attn/nn/layers.hpp"

#include <algorithm>
#include <cmath>

namespace gradcheck {

using MatD = attn::nn::Mat<double>;

constexpr double kStep = 1e-5;
constexpr double kTolerance = 1e-8;

struct Result {
  double max_error = 0;     // max |numeric - analytic|
  double max_gradient = 0;  // max |analytic|
  bool ok() const { return max_error <= kTolerance * std::max(1.0, max_gradient); }
};

// Perturbs every entry of x, re-evaluates loss() and compares with analytic (same shape as x).
template <typename Loss>
Result compare(MatD& x, const MatD& analytic, Loss loss) {
  Result r;
  for (Eigen::Index i = 0; i < x.size(); ++i) {
    const double saved = x.data()[i];
    x.data()[i] = saved + kStep;
    const double plus = loss();
    x.data()[i] = saved - kStep;
    const double minus = loss();
    x.data()[i] = saved;
    const double numeric = (plus - minus) / (2 * kStep);
    r.max_error = std::max(r.max_error, std::abs(numeric - analytic.data()[i]));
    r.max_gradient = std::max(r.max_gradient, std::abs(analytic.data()[i]));
  }
  return r;
}

// The same for every parameter in a list (gradients must already hold the analytic values;
// they are copied first because loss() may overwrite them).
template <typename Loss>
Result compare_parameters(const attn::nn::ParameterList<double>& params, Loss loss) {
  std::vector<MatD> analytic;
  for (const auto& p : params) analytic.push_back(*p.grad);
  Result all;
  for (std::size_t i = 0; i < params.size(); ++i) {
    const Result r = compare(*params[i].value, analytic[i], loss);
    all.max_error = std::max(all.max_error, r.max_error);
    all.max_gradient = std::max(all.max_gradient, r.max_gradient);
  }
  return all;
}

}  // namespace gradcheck
