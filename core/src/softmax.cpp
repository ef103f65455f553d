#include "attn/softmax.hpp"

#include "simd.hpp"

#include <cmath>

namespace attn {

template <>
Matrix softmax_rows_unchecked<float>(const Matrix& scores) {
#ifdef __wasm_simd128__
  using namespace simd;
  const Eigen::Index n = scores.rows(), m = scores.cols();
  Matrix weights(n, m);
  for (Eigen::Index i = 0; i < n; ++i) {
    const float* s = scores.data() + i * m;
    float* w = weights.data() + i * m;
    float top = s[0];
    for (Eigen::Index j = 1; j < m; ++j) top = s[j] > top ? s[j] : top;
    // e^(s - top) four at a time where all four are normal floats; the rest (blocked pairs far
    // below the top, -inf, NaN, the row's last few) one by one, as Eigen computes them here.
    Eigen::Index j = 0;
    for (; j + 4 <= m; j += 4) {
      const Vec<float> x = load(s + j) - splat(top);
      if (in_exp_range(x)) {
        store(w + j, exp_lanes(x));
      } else {
        for (int l = 0; l < 4; ++l) w[j + l] = std::exp(x[l]);
      }
    }
    for (; j < m; ++j) w[j] = std::exp(s[j] - top);
    float sum = 0;
    for (j = 0; j < m; ++j) sum += w[j];
    for (j = 0; j < m; ++j) w[j] /= sum;
  }
  return weights;
#else
  return softmax_rows_eigen<float>(scores);
#endif
}

Matrix softmax(const Matrix& scores) {
  require_values("scores", scores);
  return softmax_rows_unchecked<float>(scores);
}

}  // namespace attn
