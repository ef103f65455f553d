#include "fixed_order.hpp"

#include "simd.hpp"

#include <cstring>
#include <vector>

namespace attn::fixed_order {

namespace {

// 16-byte vectors (simd.hpp): their + and * round each lane exactly as the scalar
// operation does, so a sum built lane by lane equals the scalar sum taken in the same order.
using simd::kLanes;
using simd::load;
using simd::splat;
using simd::store;
using simd::Vec;

// The register blocks of both products: R rows of the output by V vectors of columns, held in
// R * V vector accumulators while the sum runs over its index in order. R = 2 rows share each
// load of b; 2 x 4 accumulators plus 4 loaded vectors fit the 16 vector registers of x86-64
// (SSE natively, and what V8 gives WebAssembly), where 3 or 4 rows spill (measured slower).
constexpr int kRows = 2;
constexpr int kVectors = 4;

// Both products, a b and a^T b, in one set of blocks: the left factor's element (r, p) is
// a[r * a_row + p * a_step] (a b: (lda, 1); a^T b: (1, lda)), and Accumulate starts from c's
// values (c += a^T b) instead of zero.

// c (R, V lanes) (+)= a (R, k) b (k, V lanes): element (r, j) adds a(r, p) b(p, j) for
// p = 0..k-1 in order.
template <int R, int V, bool Accumulate, typename T>
void product_block(int k, const T* a, long a_row, long a_step, const T* b, long ldb, T* c, long ldc) {
  Vec<T> acc[R][V] = {};
  if (Accumulate)
    for (int r = 0; r < R; ++r)
      for (int v = 0; v < V; ++v) acc[r][v] = load(c + r * ldc + v * kLanes<T>);
  for (int p = 0; p < k; ++p) {
    const T* bp = b + p * ldb;
    Vec<T> bv[V];
    for (int v = 0; v < V; ++v) bv[v] = load(bp + v * kLanes<T>);
    for (int r = 0; r < R; ++r) {
      const Vec<T> x = splat(a[r * a_row + p * a_step]);
      for (int v = 0; v < V; ++v) acc[r][v] += x * bv[v];
    }
  }
  for (int r = 0; r < R; ++r)
    for (int v = 0; v < V; ++v) store(c + r * ldc + v * kLanes<T>, acc[r][v]);
}

// One column of the same: c (R, 1) (+)= a (R, k) b (k, 1).
template <int R, bool Accumulate, typename T>
void product_column(int k, const T* a, long a_row, long a_step, const T* b, long ldb, T* c, long ldc) {
  T acc[R] = {};
  if (Accumulate)
    for (int r = 0; r < R; ++r) acc[r] = c[r * ldc];
  for (int p = 0; p < k; ++p)
    for (int r = 0; r < R; ++r) acc[r] += a[r * a_row + p * a_step] * b[p * ldb];
  for (int r = 0; r < R; ++r) c[r * ldc] = acc[r];
}

// R rows of c, all m columns: blocks of kVectors vectors, then the vectors left in one block
// (more accumulators in flight than one block per vector), then single columns.
template <int R, bool Accumulate, typename T>
void product_rows(int k, int m, const T* a, long a_row, long a_step, const T* b, long ldb, T* c, long ldc) {
  constexpr int wide = kVectors * kLanes<T>;
  int j = 0;
  for (; j + wide <= m; j += wide) product_block<R, kVectors, Accumulate>(k, a, a_row, a_step, b + j, ldb, c + j, ldc);
  static_assert(kVectors == 4, "the switch below covers 1 to kVectors - 1 vectors");
  switch ((m - j) / kLanes<T>) {
    case 3: product_block<R, 3, Accumulate>(k, a, a_row, a_step, b + j, ldb, c + j, ldc); break;
    case 2: product_block<R, 2, Accumulate>(k, a, a_row, a_step, b + j, ldb, c + j, ldc); break;
    case 1: product_block<R, 1, Accumulate>(k, a, a_row, a_step, b + j, ldb, c + j, ldc); break;
  }
  j += (m - j) / kLanes<T> * kLanes<T>;
  for (; j < m; ++j) product_column<R, Accumulate>(k, a, a_row, a_step, b + j, ldb, c + j, ldc);
}

// b (m, k) -> its transpose (k, width), width >= m, zero in columns m..width-1, in a buffer
// reused by every call on this thread.
template <typename T>
const T* transposed(int m, int k, const T* b, long ldb, int width) {
  thread_local std::vector<T> bt;
  bt.resize(std::size_t(width) * std::size_t(k));
  for (int j = 0; j < m; ++j)
    for (int p = 0; p < k; ++p) bt[std::size_t(p) * width + j] = b[j * ldb + p];
  for (int p = 0; p < k; ++p)
    for (int j = m; j < width; ++j) bt[std::size_t(p) * width + j] = T(0);
  return bt.data();
}

}  // namespace

template <typename T>
void matmul(int n, int k, int m, const T* a, long lda, const T* b, long ldb, T* c, long ldc) noexcept {
  int i = 0;
  for (; i + kRows <= n; i += kRows) product_rows<kRows, false>(k, m, a + i * lda, lda, 1, b, ldb, c + i * ldc, ldc);
  for (; i < n; ++i) product_rows<1, false>(k, m, a + i * lda, lda, 1, b, ldb, c + i * ldc, ldc);
}

template <typename T>
void matmul_bt(int n, int k, int m, const T* a, long lda, const T* b, long ldb, T* c, long ldc) {
  // a b^T = a (b^T as a row-major copy): the copy lets the products run along contiguous
  // output elements; each element is still summed over k in index order. When m is not a whole
  // number of vectors (the attention's T x T scores, T = 10), the copy gets zero columns up to
  // the next whole vector and the product goes to a buffer as wide, so the last columns run as
  // vector lanes, not as one scalar chain each (the padding's lanes are dropped; no kept
  // element changes).
  const int width = (m + kLanes<T> - 1) / kLanes<T> * kLanes<T>;
  const T* bt = transposed(m, k, b, ldb, width);
  if (width == m) return matmul<T>(n, k, m, a, lda, bt, m, c, ldc);
  thread_local std::vector<T> wide_c;
  wide_c.resize(std::size_t(n) * std::size_t(width));
  matmul<T>(n, k, width, a, lda, bt, width, wide_c.data(), width);
  for (int i = 0; i < n; ++i)
    std::memcpy(c + i * ldc, wide_c.data() + std::size_t(i) * width, sizeof(T) * std::size_t(m));
}

template <typename T>
void add_matmul_at(int n, int k, int m, const T* a, long lda, const T* b, long ldb, T* c, long ldc) noexcept {
  int p = 0;
  for (; p + kRows <= k; p += kRows) product_rows<kRows, true>(n, m, a + p, 1, lda, b, ldb, c + p * ldc, ldc);
  for (; p < k; ++p) product_rows<1, true>(n, m, a + p, 1, lda, b, ldb, c + p * ldc, ldc);
}

template <typename T>
MatrixOf<T> matmul(const MatrixOf<T>& a, const MatrixOf<T>& b) {
  MatrixOf<T> c(a.rows(), b.cols());
  matmul<T>(int(a.rows()), int(a.cols()), int(b.cols()), a.data(), a.cols(), b.data(), b.cols(), c.data(), c.cols());
  return c;
}

template <typename T>
MatrixOf<T> matmul_bt(const MatrixOf<T>& a, const MatrixOf<T>& b) {
  MatrixOf<T> c(a.rows(), b.rows());
  matmul_bt<T>(int(a.rows()), int(a.cols()), int(b.rows()), a.data(), a.cols(), b.data(), b.cols(), c.data(), c.cols());
  return c;
}

template <typename T>
void add_matmul_at(const MatrixOf<T>& a, const MatrixOf<T>& b, MatrixOf<T>& c) {
  add_matmul_at<T>(int(a.rows()), int(a.cols()), int(b.cols()), a.data(), a.cols(), b.data(), b.cols(), c.data(),
                   c.cols());
}

#define ATTN_FIXED_ORDER_INSTANTIATE(T)                                                             \
  template void matmul<T>(int, int, int, const T*, long, const T*, long, T*, long) noexcept;        \
  template void matmul_bt<T>(int, int, int, const T*, long, const T*, long, T*, long);              \
  template void add_matmul_at<T>(int, int, int, const T*, long, const T*, long, T*, long) noexcept; \
  template MatrixOf<T> matmul<T>(const MatrixOf<T>&, const MatrixOf<T>&);                           \
  template MatrixOf<T> matmul_bt<T>(const MatrixOf<T>&, const MatrixOf<T>&);                        \
  template void add_matmul_at<T>(const MatrixOf<T>&, const MatrixOf<T>&, MatrixOf<T>&);

ATTN_FIXED_ORDER_INSTANTIATE(float)
ATTN_FIXED_ORDER_INSTANTIATE(double)

}  // namespace attn::fixed_order
