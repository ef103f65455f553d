#include "attn/masks.hpp"

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
    throw ArgumentError("real_len", ErrorCode::out_of_range,
                        "must be between 1 and {n_k} = " + std::to_string(n_k) + ", got " + std::to_string(real_len),
                        {{"min", 1}, {"max", double(n_k)}, {"got", double(real_len)}});
  Mask mask(n_q, n_k);
  for (Eigen::Index i = 0; i < n_q; ++i)
    for (Eigen::Index j = 0; j < n_k; ++j) mask(i, j) = j < real_len;
  return mask;
}

Mask combine_masks(const Mask& a, const Mask& b) {
  if (a.size() == 0)
    throw ArgumentError("a", ErrorCode::empty, "must not be empty, got shape " + shape_of(a),
                        {{"got_rows", double(a.rows())}, {"got_cols", double(a.cols())}});
  if (a.rows() != b.rows() || a.cols() != b.cols())
    throw ArgumentError("b", ErrorCode::bad_shape,
                        "must have the shape of mask {a}, got a " + shape_of(a) + " and b " + shape_of(b),
                        {{"rows", double(a.rows())},
                         {"cols", double(a.cols())},
                         {"got_rows", double(b.rows())},
                         {"got_cols", double(b.cols())}});
  return a.array() && b.array();
}

double allowed_fraction(const Mask& mask) {
  if (mask.size() == 0)
    throw ArgumentError("mask", ErrorCode::empty, "must not be empty, got shape " + shape_of(mask),
                        {{"got_rows", double(mask.rows())}, {"got_cols", double(mask.cols())}});
  return static_cast<double>(mask.count()) / static_cast<double>(mask.size());
}

}  // namespace attn
