// Turns a libFuzzer byte string into the shapes, floats and flags the fuzz targets need.
//
// Floats come from a short menu of the values that break numeric code (NaN, infinities,
// denormals, the largest finite float, zeros) or from four raw bytes, so every bit pattern
// is reachable. Sizes are small by design: the fuzzer looks for wrong answers and crashes,
// not for slow matrix products. Leaves out: any checking (each target states its own).
#pragma once

#include "attn/matrix.hpp"

#include <fuzzer/FuzzedDataProvider.h>

#include <cstdint>
#include <cstring>
#include <limits>

namespace attn::fuzz {

class Input {
 public:
  Input(const std::uint8_t* data, std::size_t size) : provider_(data, size) {}

  bool flag() { return provider_.ConsumeBool(); }
  std::uint8_t byte() { return provider_.ConsumeIntegral<std::uint8_t>(); }
  template <typename T>
  T in_range(T lo, T hi) {
    return provider_.ConsumeIntegralInRange<T>(lo, hi);
  }
  bool empty() { return provider_.remaining_bytes() == 0; }
  FuzzedDataProvider& provider() { return provider_; }

  // A matrix side: mostly 1..max, sometimes 0 (must be refused) or a little beyond max.
  Eigen::Index side(Eigen::Index max) { return in_range<Eigen::Index>(0, max + 2); }

  float value() {
    using L = std::numeric_limits<float>;
    switch (byte() % 16) {
      case 0: return L::quiet_NaN();
      case 1: return L::infinity();
      case 2: return -L::infinity();
      case 3: return L::denorm_min();
      case 4: return -L::denorm_min() * 37.0f;
      case 5: return L::max();
      case 6: return -L::max();
      case 7: return L::min();  // smallest normal
      case 8: return -0.0f;
      case 9: return 1e20f;
      case 10: {  // any bit pattern: signalling NaNs, payloads, everything
        std::uint32_t bits = provider_.ConsumeIntegral<std::uint32_t>();
        float f;
        std::memcpy(&f, &bits, sizeof f);
        return f;
      }
      default:  // ordinary numbers in [-8, 8), the common case
        return static_cast<float>(static_cast<int>(byte()) - 128) / 16.0f;
    }
  }

  Matrix matrix(Eigen::Index rows, Eigen::Index cols) {
    Matrix m(rows, cols);
    // One value for the whole matrix, or one each: both the uniform and the ragged cases.
    if (flag()) {
      m.setConstant(value());
    } else {
      for (Eigen::Index i = 0; i < m.size(); ++i) m.data()[i] = value();
    }
    return m;
  }

 private:
  FuzzedDataProvider provider_;
};

// True when every entry is a finite float (what the core accepts).
inline bool all_finite(const Matrix& m) { return m.size() == 0 || m.allFinite(); }

}  // namespace attn::fuzz
