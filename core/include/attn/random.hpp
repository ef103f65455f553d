// One seeded generator for everything random in the project (data, initial weights,
// shuffling, dropout). It gives bit-identical numbers natively and in WebAssembly: the bit
// source is xoshiro256** seeded by splitmix64, and the distributions are written here with
// IEEE-exact operations only (+ - * / sqrt and frexp), fixed tables written as literals and
// attn::portable_log, never the standard library's distributions or libm's log/exp, which
// differ between libstdc++/glibc and libc++/musl.
#pragma once

#include "attn/matrix.hpp"

#include <cstdint>
#include <vector>

namespace attn {

class Random {
 public:
  explicit Random(std::uint64_t seed);

  // Inline (and noexcept): dropout draws one per activation, the sweep one per normal.
  std::uint64_t next_u64() noexcept {
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
  // [0, 1) with 53 random bits: exactly (next_u64() >> 11) * 2^-53.
  double uniform() noexcept { return static_cast<double>(next_u64() >> 11) * 0x1.0p-53; }
  // [lo, hi).
  double uniform(double lo, double hi);
  // An integer in [0, n), unbiased. Requires n >= 1.
  std::uint64_t below(std::uint64_t n);
  // Standard normal (mean 0, variance 1): the Marsaglia-Tsang ziggurat with 256 layers
  // (tables in random.cpp). One next_u64() per draw 98.5% of the time: its low 8 bits pick
  // a layer, bit 8 the sign, its top 53 bits the position in the layer; the other 1.5%
  // (layer edges, the tail beyond 3.654) take more draws and a portable_log. Exact in
  // distribution up to the double rounding of the tables; those 98.5% are multiples of
  // 2^-53 times their layer's width (at most 3.91), a grid no coarser than 4.4e-16.
  double normal();

  // (rows, cols) of independent draws, rounded to float32.
  Matrix normal_matrix(Eigen::Index rows, Eigen::Index cols);
  Matrix uniform_matrix(Eigen::Index rows, Eigen::Index cols, double lo, double hi);

  // Fisher-Yates, in place.
  template <typename T>
  void shuffle(std::vector<T>& items) {
    for (std::size_t i = items.size(); i > 1; --i) std::swap(items[i - 1], items[below(i)]);
  }

 private:
  // The 1.5% of normal() draws that do not land in the part of a layer under the curve;
  // bits is the next_u64() that did not. noexcept for the reason portable_log_unchecked is.
  double normal_slow(std::uint64_t bits) noexcept;
  static std::uint64_t rotl(std::uint64_t x, int k) noexcept { return (x << k) | (x >> (64 - k)); }

  std::uint64_t state_[4];
};

namespace detail {
// The ziggurat behind Random::normal(), for the tests: 256 layers under f(x) = exp(-x^2/2)
// (not normalised), each of area V = R f(R) + integral of f from R to infinity with
// R = 3.6541528853610088 = kZigguratX[1]. Layer 0 is the base strip [0, kZigguratX[0]) x
// [0, f(R)) (its part beyond R stands for the tail); layer i >= 1 is [0, kZigguratX[i]) x
// [f(kZigguratX[i]), f(kZigguratX[i + 1])). kZigguratX falls from V / f(R) to 0;
// kZigguratF[i] = f(kZigguratX[i]). Both were computed with 60-digit arithmetic (mpmath)
// and rounded to the nearest double.
extern const double kZigguratX[257];
extern const double kZigguratF[257];
}  // namespace detail

// Natural logarithm of a positive finite x from IEEE-exact operations, so it rounds the same
// on every platform (libm's log is not required to). Accurate to a few ulp.
double portable_log(double x);
// The same without the check, for hot loops whose x is known to be positive and finite:
// declared noexcept, so WebAssembly calls it directly (a call that may throw from a scope
// with destructors goes through a JavaScript trampoline under Emscripten's exceptions).
double portable_log_unchecked(double x) noexcept;

}  // namespace attn
