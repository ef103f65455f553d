#include "attn/random.hpp"

#include <cmath>
#include <stdexcept>

namespace attn {
namespace {

std::uint64_t splitmix64(std::uint64_t& x) {
  std::uint64_t z = (x += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

std::uint64_t rotl(std::uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

void require_matrix_size(Eigen::Index rows, Eigen::Index cols) {
  if (rows < 1 || cols < 1 || rows > (1 << 24) / cols)
    throw std::invalid_argument("rows and cols must be positive with at most 16777216 elements, got " +
                                shape_of(rows, cols));
}

}  // namespace

Random::Random(std::uint64_t seed) {
  for (auto& word : state_) word = splitmix64(seed);
}

std::uint64_t Random::next_u64() {
  const std::uint64_t result = rotl(state_[1] * 5, 7) * 9;
  const std::uint64_t t = state_[1] << 17;
  state_[2] ^= state_[0];
  state_[3] ^= state_[1];
  state_[1] ^= state_[2];
  state_[0] ^= state_[3];
  state_[2] ^= t;
  state_[3] = rotl(state_[3], 45);
  return result;
}

double Random::uniform() { return static_cast<double>(next_u64() >> 11) * 0x1.0p-53; }

double Random::uniform(double lo, double hi) { return lo + (hi - lo) * uniform(); }

std::uint64_t Random::below(std::uint64_t n) {
  if (n == 0) throw std::invalid_argument("n must be at least 1, got 0");
  // Reject the top partial block so every residue is equally likely.
  const std::uint64_t limit = UINT64_MAX - UINT64_MAX % n;
  std::uint64_t x;
  do x = next_u64();
  while (x >= limit);
  return x % n;
}

double Random::normal() {
  if (has_spare_normal_) {
    has_spare_normal_ = false;
    return spare_normal_;
  }
  double u, v, s;
  do {
    u = uniform(-1.0, 1.0);
    v = uniform(-1.0, 1.0);
    s = u * u + v * v;
  } while (s >= 1.0 || s == 0.0);
  const double factor = std::sqrt(-2.0 * portable_log(s) / s);
  spare_normal_ = v * factor;
  has_spare_normal_ = true;
  return u * factor;
}

Matrix Random::normal_matrix(Eigen::Index rows, Eigen::Index cols) {
  require_matrix_size(rows, cols);
  Matrix m(rows, cols);
  for (Eigen::Index i = 0; i < m.size(); ++i) m.data()[i] = static_cast<float>(normal());
  return m;
}

Matrix Random::uniform_matrix(Eigen::Index rows, Eigen::Index cols, double lo, double hi) {
  require_matrix_size(rows, cols);
  if (!(lo < hi) || !std::isfinite(lo) || !std::isfinite(hi))
    throw std::invalid_argument("lo and hi must be finite with lo < hi, got lo " +
                                std::to_string(lo) + ", hi " + std::to_string(hi));
  Matrix m(rows, cols);
  for (Eigen::Index i = 0; i < m.size(); ++i) m.data()[i] = static_cast<float>(uniform(lo, hi));
  return m;
}

double portable_log(double x) {
  if (!(x > 0.0) || !std::isfinite(x))
    throw std::invalid_argument("x must be positive and finite, got " + std::to_string(x));
  int exponent;
  double m = std::frexp(x, &exponent);  // x = m * 2^exponent, m in [0.5, 1)
  if (m < 0.70710678118654752440) {     // move m into [sqrt(1/2), sqrt(2))
    m *= 2.0;
    exponent -= 1;
  }
  // log(m) = 2 atanh(s) = 2 (s + s^3/3 + s^5/5 + ...), with |s| < 0.172 so 12 terms reach
  // double precision.
  const double s = (m - 1.0) / (m + 1.0);
  const double s2 = s * s;
  double term = s, sum = s;
  for (int k = 3; k <= 25; k += 2) {
    term *= s2;
    sum += term / k;
  }
  constexpr double kLn2Hi = 6.93147180369123816490e-01;  // ln 2 split so exponent * hi is exact
  constexpr double kLn2Lo = 1.90821492927058770002e-10;
  return exponent * kLn2Hi + (2.0 * sum + exponent * kLn2Lo);
}

}  // namespace attn
