#include "nn/kernels.hpp"

#include "attn/random.hpp"  // portable_log
#include "simd.hpp"

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <vector>

namespace attn::nn::kernels {

namespace {

// 16-byte vectors (simd.hpp): their + and * round each lane exactly as the scalar
// operation does, so a sum built lane by lane equals the scalar sum taken in the same order.
using simd::kLanes;
using simd::load;
using simd::splat;
using simd::store;
using simd::Vec;

}  // namespace

template <typename T>
void add_row_to_rows(const T* row, Mat<T>& x) noexcept {
  const long m = x.cols();
  for (long i = 0; i < x.rows(); ++i) {
    T* xi = x.data() + i * m;
    for (long j = 0; j < m; ++j) xi[j] += row[j];
  }
}

template <typename T>
void relu_backward(const T* pre, T* grad, long n) noexcept {
  long i = 0;
  for (; i + kLanes<T> <= n; i += kLanes<T>) {
    const auto positive = load(pre + i) > splat(T(0));  // all bits set in the lanes where pre > 0
    using Bits = decltype(positive);
    store(grad + i, reinterpret_cast<Vec<T>>(reinterpret_cast<Bits>(load(grad + i)) & positive));
  }
  for (; i < n; ++i) grad[i] = pre[i] > T(0) ? grad[i] : T(0);
}

template <typename T>
void add_column_sums(const Mat<T>& x, Mat<T>& out) {
  const long m = x.cols();
  T* o = out.data();
  for (long i = 0; i < x.rows(); ++i) {
    const T* xi = x.data() + i * m;
    for (long j = 0; j < m; ++j) o[j] += xi[j];
  }
}

namespace {

// x = k ln2 + r with |r| <= ln2 / 2; ln2 split so that k * hi is exact.
constexpr double kLn2Hi = 6.93147180369123816490e-01, kLn2Lo = 1.90821492927058770002e-10;
constexpr double kInvLn2 = 1.44269504088896338700e+00;
// Taylor series to r^13 / 13!: |r| <= 0.347 leaves a remainder below 2e-17.
constexpr int kExpTerms = 13;

// exp_fixed() for x in [kFastLow, kFastHigh]: there 2^k is a normal double and so is
// sum * 2^k (sum >= 0.7), so multiplying by 2^k made from its bits equals std::ldexp.
constexpr double kFastLow = -707.0, kFastHigh = 700.0;

// exp_fixed() on both lanes at once, for x within the fast range: every step rounds in each
// lane exactly as the scalar code rounds it; the 13 divisions, the dearest part, run two at a
// time.
Vec<double> exp_fixed_lanes(const Vec<double>& x) {
  Vec<double> k = x * splat(kInvLn2) + splat(0.5);
  k[0] = std::floor(k[0]);
  k[1] = std::floor(k[1]);
  const Vec<double> r = (x - k * splat(kLn2Hi)) - k * splat(kLn2Lo);
  Vec<double> term = splat(1.0), sum = splat(1.0);
  for (int i = 1; i <= kExpTerms; ++i) {
    term *= r / splat(double(i));
    sum += term;
  }
  const auto power_of_two = [](double e) {  // 2^e for a whole e in [-1022, 1023], from its bits
    const std::uint64_t bits = std::uint64_t(std::int64_t(e) + 1023) << 52;
    double p;
    std::memcpy(&p, &bits, sizeof p);
    return p;
  };
  return sum * Vec<double>{power_of_two(k[0]), power_of_two(k[1])};
}

// Each of n values, in place, becomes exp_fixed() of it.
void exp_fixed_in_place(double* x, int n) {
  const auto fast = [](double v) { return v >= kFastLow && v <= kFastHigh; };
  int j = 0;
  for (; j + 2 <= n; j += 2) {
    if (fast(x[j]) && fast(x[j + 1])) {
      store(x + j, exp_fixed_lanes(load(x + j)));
    } else {
      x[j] = exp_fixed(x[j]);
      x[j + 1] = exp_fixed(x[j + 1]);
    }
  }
  for (; j < n; ++j) x[j] = exp_fixed(x[j]);
}

}  // namespace

double exp_fixed(double x) {
  if (x != x) return x;
  if (x > 709.78) return std::numeric_limits<double>::infinity();
  if (x < -745.2) return 0.0;
  const double k = std::floor(x * kInvLn2 + 0.5);
  const double r = (x - k * kLn2Hi) - k * kLn2Lo;
  double term = 1.0, sum = 1.0;
  for (int i = 1; i <= kExpTerms; ++i) {
    term *= r / i;
    sum += term;
  }
  return std::ldexp(sum, int(k));  // exact scaling by 2^k (subnormal results round once)
}

template <typename T>
void softmax_rows(T* scores, int n, int m, long ld) {
  thread_local std::vector<double> e;
  e.resize(std::size_t(m));
  double* ej = e.data();
  for (int i = 0; i < n; ++i) {
    T* row = scores + i * ld;
    T top = row[0];
    for (int j = 1; j < m; ++j) top = row[j] > top ? row[j] : top;
    for (int j = 0; j < m; ++j) ej[j] = double(row[j]) - double(top);
    exp_fixed_in_place(ej, m);
    double sum = 0;
    for (int j = 0; j < m; ++j) sum += ej[j];
    for (int j = 0; j < m; ++j) row[j] = T(ej[j] / sum);
  }
}

template <typename T>
double log_sum_exp(const T* row, int m) {
  T top = row[0];
  for (int j = 1; j < m; ++j) top = row[j] > top ? row[j] : top;
  double sum = 0;
  for (int j = 0; j < m; ++j) sum += exp_fixed(double(row[j]) - double(top));
  return portable_log(sum) + double(top);
}

#define ATTN_KERNELS_INSTANTIATE(T)                             \
  template void add_column_sums<T>(const Mat<T>&, Mat<T>&);     \
  template void relu_backward<T>(const T*, T*, long) noexcept;  \
  template void add_row_to_rows<T>(const T*, Mat<T>&) noexcept; \
  template void softmax_rows<T>(T*, int, int, long);            \
  template double log_sum_exp<T>(const T*, int);

ATTN_KERNELS_INSTANTIATE(float)
ATTN_KERNELS_INSTANTIATE(double)

}  // namespace attn::nn::kernels
