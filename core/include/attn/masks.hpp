// The two masks of the lesson and their combination. true = the query may attend the key.
#pragma once

#include "attn/matrix.hpp"

namespace attn {

// The largest side a mask may have; keeps a typo from asking for gigabytes.
constexpr Eigen::Index kMaxMaskSide = 16384;

// -> (n, n): query i may attend keys 0..i (it cannot see the future).
Mask causal_mask(Eigen::Index n);

// -> (n_q, n_k): every query may attend keys 0..real_len-1 (the rest is padding).
// Requires 1 <= real_len <= n_k.
Mask padding_mask(Eigen::Index n_q, Eigen::Index n_k, Eigen::Index real_len);

// a (r, c), b (r, c) -> (r, c): allowed only where both allow.
Mask combine_masks(const Mask& a, const Mask& b);

// mask (r, c) -> the fraction of pairs it allows, in [0, 1].
double allowed_fraction(const Mask& mask);

}  // namespace attn
