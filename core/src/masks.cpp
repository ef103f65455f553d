#include "attn/masks.hpp"

#include <stdexcept>

namespace attn {
namespace {

void require_side(const char* name, Eigen::Index n) { require_range(name, long(n), 1, kMaxMaskSide); }

}  // namespace

Mask causal_mask(Eigen::Index n) {
  require_side("n", n);
  Mask mask(n, n);
  for (Eigen::Index i = 0; i < n; ++i)
    for (Eigen::Index j = 0; j < n; ++j) mask(i, j) = j <= i;
  return mask;
}

Mask padding_mask(Eigen::Index n_q, Eigen::Index n_k, Eigen::Index real_len) {
  require_side("n_q", n_q);
  require_side("n_k", n_k);
  if (real_len < 1 || real_len > n_k)
    throw std::invalid_argument("real_len must be between 1 and n_k = " + std::to_string(n_k) + ", got " +
                                std::to_string(real_len));
  Mask mask(n_q, n_k);
  for (Eigen::Index i = 0; i < n_q; ++i)
    for (Eigen::Index j = 0; j < n_k; ++j) mask(i, j) = j < real_len;
  return mask;
}

Mask combine_masks(const Mask& a, const Mask& b) {
  if (a.size() == 0) throw std::invalid_argument("a must not be empty, got shape " + shape_of(a));
  if (a.rows() != b.rows() || a.cols() != b.cols())
    throw std::invalid_argument("masks a and b must have the same shape, got a " + shape_of(a) + " and b " +
                                shape_of(b));
  return a.array() && b.array();
}

double allowed_fraction(const Mask& mask) {
  if (mask.size() == 0) throw std::invalid_argument("mask must not be empty, got shape " + shape_of(mask));
  return static_cast<double>(mask.count()) / static_cast<double>(mask.size());
}

}  // namespace attn
