// What the parts of the core's JS door (wasm/bind_*.cpp) share: heap offsets, and the scratch
// area JS writes a call's inputs into (attn_scratch, in bind_common.cpp).
#pragma once

#include "attn/matrix.hpp"

#include <cstdint>

namespace attn::wasm {

using Offset = std::uint32_t;  // a byte offset into the WASM heap (wasm32)

inline Offset offset_of(const void* p) { return static_cast<Offset>(reinterpret_cast<std::uintptr_t>(p)); }

template <typename T>
const T* at(Offset offset) {
  return reinterpret_cast<const T*>(static_cast<std::uintptr_t>(offset));
}

// A float32 matrix JS wrote at this offset, row-major (copied).
inline attn::Matrix matrix_at(Offset data, int rows, int cols) {
  return Eigen::Map<const attn::Matrix>(at<float>(data), rows, cols);
}

}  // namespace attn::wasm
