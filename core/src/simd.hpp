// 16-byte vectors for the core's hot loops (an implementation detail of core/src; tests use it
// too): GCC's and Clang's vector extension, which compiles to SSE natively and to SIMD128 in
// WebAssembly (-msimd128), where Eigen 3.4 has no SIMD path of its own. Lane-wise + - * /
// round exactly as the scalar operations do (-ffp-contract=off keeps multiply and add apart),
// so code written with them computes every lane as the scalar code would.
#pragma once

#include <cstdint>
#include <cstring>

namespace attn::simd {

template <typename T>
struct VecOf;
template <>
struct VecOf<float> {
  typedef float type __attribute__((vector_size(16)));
};
template <>
struct VecOf<double> {
  typedef double type __attribute__((vector_size(16)));
};
template <typename T>
using Vec = typename VecOf<T>::type;
using Vec4i = std::int32_t __attribute__((vector_size(16)));

template <typename T>
constexpr int kLanes = int(16 / sizeof(T));

template <typename T>
inline Vec<T> load(const T* p) {
  Vec<T> v;
  std::memcpy(&v, p, sizeof v);
  return v;
}
template <typename T>
inline void store(T* p, const Vec<T>& v) {
  std::memcpy(p, &v, sizeof v);
}
// x in every lane (written out: a loop over the lanes is left as lane inserts in WebAssembly).
inline Vec<float> splat(float x) { return Vec<float>{x, x, x, x}; }
inline Vec<double> splat(double x) { return Vec<double>{x, x}; }

// e^x is a normal float for x in this range; exp_lanes() is meant for it.
constexpr float kExpLow = -87.0f, kExpHigh = 88.0f;

// Whether every lane lies in [kExpLow, kExpHigh] (false for NaN).
inline bool in_exp_range(const Vec<float>& x) {
  const Vec4i inside = (x >= splat(kExpLow)) & (x <= splat(kExpHigh));
  return (inside[0] & inside[1] & inside[2] & inside[3]) != 0;
}

// e^x in each lane, for x within [kExpLow, kExpHigh]: the Cephes expf that Eigen's SSE exp
// computes natively (x = m ln2 + r, a degree-6 polynomial in r, times 2^m), its multiply-adds
// as separate multiplies and adds; about 1 ulp from the correctly rounded value.
inline Vec<float> exp_lanes(const Vec<float>& x) {
  // m = floor(x log2(e) + 1/2): truncation toward zero, minus 1 where that rounded up.
  const Vec<float> t = x * splat(1.44269504088896341f) + splat(0.5f);
  Vec<float> m = __builtin_convertvector(__builtin_convertvector(t, Vec4i), Vec<float>);
  m -= __builtin_convertvector(-(m > t), Vec<float>);
  // r = x - m ln2, with ln2 in two parts.
  Vec<float> r = m * splat(-0.693359375f) + x;
  r = m * splat(2.12194440e-4f) + r;
  const Vec<float> r2 = r * r, r3 = r2 * r;
  Vec<float> y = splat(1.9875691500e-4f) * r + splat(1.3981999507e-3f);
  Vec<float> y1 = splat(4.1665795894e-2f) * r + splat(1.6666665459e-1f);
  const Vec<float> y2 = r + splat(1.0f);
  y = y * r + splat(8.3334519073e-3f);
  y1 = y1 * r + splat(5.0000001201e-1f);
  y = y * r3 + y1;
  y = y * r2 + y2;
  // 2^m from its exponent bits (m + 127 in [1, 254] in this range).
  Vec<float> two_to_m;
  const Vec4i bits = (__builtin_convertvector(m, Vec4i) + 127) << 23;
  std::memcpy(&two_to_m, &bits, sizeof bits);
  return y * two_to_m;
}

}  // namespace attn::simd
