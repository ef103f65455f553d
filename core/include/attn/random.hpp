// One seeded generator for everything random in the project (data, initial weights,
// shuffling, dropout). It gives bit-identical numbers natively and in WebAssembly: the bit
// source is xoshiro256** seeded by splitmix64, and the distributions are written here with
// IEEE-exact operations only (+ - * / sqrt and frexp), never the standard library's
// distributions or libm's log, which differ between libstdc++/glibc and libc++/musl.
#pragma once

#include "attn/matrix.hpp"

#include <cstdint>
#include <vector>

namespace attn {

class Random {
 public:
  explicit Random(std::uint64_t seed);

  std::uint64_t next_u64();
  // [0, 1) with 53 random bits.
  double uniform();
  // [lo, hi).
  double uniform(double lo, double hi);
  // An integer in [0, n), unbiased. Requires n >= 1.
  std::uint64_t below(std::uint64_t n);
  // Standard normal (mean 0, variance 1), Marsaglia's polar method.
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
  std::uint64_t state_[4];
  bool has_spare_normal_ = false;
  double spare_normal_ = 0.0;
};

// Natural logarithm of a positive finite x from IEEE-exact operations, so it rounds the same
// on every platform (libm's log is not required to). Accurate to a few ulp.
double portable_log(double x);

}  // namespace attn
