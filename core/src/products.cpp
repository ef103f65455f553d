#include "products.hpp"

#ifdef __wasm_simd128__
#include "fixed_order.hpp"
#include "simd.hpp"
#endif

namespace attn {

#ifdef __wasm_simd128__
namespace {

using simd::load;
using simd::splat;
using simd::Vec;

// The sum of the four lanes of each of a, b, c, d, as one vector: a 4x4 transpose, then adds.
inline Vec<float> lane_sums(Vec<float> a, Vec<float> b, Vec<float> c, Vec<float> d) {
  const Vec<float> ab_lo = __builtin_shufflevector(a, b, 0, 4, 1, 5), ab_hi = __builtin_shufflevector(a, b, 2, 6, 3, 7);
  const Vec<float> cd_lo = __builtin_shufflevector(c, d, 0, 4, 1, 5), cd_hi = __builtin_shufflevector(c, d, 2, 6, 3, 7);
  const Vec<float> ab = ab_lo + ab_hi, cd = cd_lo + cd_hi;  // lanes: a01 b01 a23 b23 (pairs summed)
  return __builtin_shufflevector(ab, cd, 0, 1, 4, 5) + __builtin_shufflevector(ab, cd, 2, 3, 6, 7);
}

// One dot product of d values: 4 lanes of partial sums over the columns, then the rest.
inline float dot(const float* x, const float* y, Eigen::Index d) {
  Vec<float> acc = splat(0.0f);
  Eigen::Index c = 0;
  for (; c + 4 <= d; c += 4) acc += load(x + c) * load(y + c);
  float sum = (acc[0] + acc[1]) + (acc[2] + acc[3]);
  for (; c < d; ++c) sum += x[c] * y[c];
  return sum;
}

}  // namespace

void scores_kernel(const ConstRef& query, const ConstRef& key, MutableRef out) {
  const Eigen::Index d = query.cols(), d4 = d & ~Eigen::Index(3);
  for (Eigen::Index i = 0; i < query.rows(); ++i) {
    const float* q = query.data() + i * query.outerStride();
    float* o = out.data() + i * out.outerStride();
    Eigen::Index j = 0;
    // Four keys at a time: each query chunk loaded once, four independent sums in flight.
    for (; j + 4 <= key.rows(); j += 4) {
      const float* k0 = key.data() + j * key.outerStride();
      const float *k1 = k0 + key.outerStride(), *k2 = k1 + key.outerStride(), *k3 = k2 + key.outerStride();
      Vec<float> a0 = splat(0.0f), a1 = a0, a2 = a0, a3 = a0;
      for (Eigen::Index c = 0; c < d4; c += 4) {
        const Vec<float> x = load(q + c);
        a0 += x * load(k0 + c);
        a1 += x * load(k1 + c);
        a2 += x * load(k2 + c);
        a3 += x * load(k3 + c);
      }
      Vec<float> sums = lane_sums(a0, a1, a2, a3);
      for (Eigen::Index c = d4; c < d; ++c) sums += splat(q[c]) * Vec<float>{k0[c], k1[c], k2[c], k3[c]};
      simd::store(o + j, sums);
    }
    for (; j < key.rows(); ++j) o[j] = dot(q, key.data() + j * key.outerStride(), d);
  }
}
#endif

void scores_into(const ConstRef& query, const ConstRef& key, MutableRef out) {
#ifdef __wasm_simd128__
  if (scores_use_kernel(query.cols())) return scores_kernel(query, key, out);
#endif
  out.noalias() = query * key.transpose();
}

void product_into(const ConstRef& a, const ConstRef& b, MutableRef out) {
#ifdef __wasm_simd128__
  fixed_order::matmul<float>(int(a.rows()), int(a.cols()), int(b.cols()), a.data(), a.outerStride(), b.data(),
                             b.outerStride(), out.data(), out.outerStride());
#else
  out.noalias() = a * b;
#endif
}

}  // namespace attn
