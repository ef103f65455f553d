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
  for (int i = 0; i < n; ++i) std::memcpy(c + i * ldc, wide_c.data() + std::size_t(i) * width, sizeof(T) * std::size_t(m));
}

template <typename T>
void add_matmul_at(int n, int k, int m, const T* a, long lda, const T* b, long ldb, T* c, long ldc) noexcept {
  int p = 0;
  for (; p + kRows <= k; p += kRows) product_rows<kRows, true>(n, m, a + p, 1, lda, b, ldb, c + p * ldc, ldc);
  for (; p < k; ++p) product_rows<1, true>(n, m, a + p, 1, lda, b, ldb, c + p * ldc, ldc);
}

template <typename T>
Mat<T> matmul(const Mat<T>& a, const Mat<T>& b) {
  Mat<T> c(a.rows(), b.cols());
  matmul<T>(int(a.rows()), int(a.cols()), int(b.cols()), a.data(), a.cols(), b.data(), b.cols(), c.data(), c.cols());
  return c;
}

template <typename T>
Mat<T> matmul_bt(const Mat<T>& a, const Mat<T>& b) {
  Mat<T> c(a.rows(), b.rows());
  matmul_bt<T>(int(a.rows()), int(a.cols()), int(b.rows()), a.data(), a.cols(), b.data(), b.cols(), c.data(), c.cols());
  return c;
}

template <typename T>
void add_matmul_at(const Mat<T>& a, const Mat<T>& b, Mat<T>& c) {
  add_matmul_at<T>(int(a.rows()), int(a.cols()), int(b.cols()), a.data(), a.cols(), b.data(), b.cols(), c.data(), c.cols());
}

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

#define ATTN_KERNELS_INSTANTIATE(T)                                                              \
  template void matmul<T>(int, int, int, const T*, long, const T*, long, T*, long) noexcept;     \
  template void matmul_bt<T>(int, int, int, const T*, long, const T*, long, T*, long);           \
  template void add_matmul_at<T>(int, int, int, const T*, long, const T*, long, T*, long) noexcept; \
  template Mat<T> matmul<T>(const Mat<T>&, const Mat<T>&);                                       \
  template Mat<T> matmul_bt<T>(const Mat<T>&, const Mat<T>&);                                    \
  template void add_matmul_at<T>(const Mat<T>&, const Mat<T>&, Mat<T>&);                         \
  template void add_column_sums<T>(const Mat<T>&, Mat<T>&);                                      \
  template void relu_backward<T>(const T*, T*, long) noexcept;                                   \
  template void add_row_to_rows<T>(const T*, Mat<T>&) noexcept;                                  \
  template void softmax_rows<T>(T*, int, int, long);                                             \
  template double log_sum_exp<T>(const T*, int);

ATTN_KERNELS_INSTANTIATE(float)
ATTN_KERNELS_INSTANTIATE(double)

}  // namespace attn::nn::kernels
