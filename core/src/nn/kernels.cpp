#include "attn/nn/kernels.hpp"

#include "attn/random.hpp"  // portable_log

#include <cmath>
#include <limits>

namespace attn::nn::kernels {

namespace {

// Columns j0..j0+W-1 of row i of c = a b, accumulated in a local array the compiler keeps
// in vector registers; each element still sums p = 0..k-1 in order.
template <int W, typename T>
void matmul_strip(int k, const T* ai, const T* b, long ldb, T* ci) {
  T acc[W] = {};
  for (int p = 0; p < k; ++p) {
    const T x = ai[p];
    const T* bp = b + p * ldb;
    for (int j = 0; j < W; ++j) acc[j] += x * bp[j];
  }
  for (int j = 0; j < W; ++j) ci[j] = acc[j];
}

// Columns j0..j0+W-1 of row p of c += a^T b, summing i = 0..n-1 in order.
template <int W, typename T>
void add_matmul_at_strip(int n, const T* a_p, long lda, const T* b, long ldb, T* cp) {
  T acc[W];
  for (int j = 0; j < W; ++j) acc[j] = cp[j];
  for (int i = 0; i < n; ++i) {
    const T x = a_p[i * lda];
    const T* bi = b + i * ldb;
    for (int j = 0; j < W; ++j) acc[j] += x * bi[j];
  }
  for (int j = 0; j < W; ++j) cp[j] = acc[j];
}

}  // namespace

template <typename T>
void matmul(int n, int k, int m, const T* a, long lda, const T* b, long ldb, T* c, long ldc) {
  for (int i = 0; i < n; ++i) {
    const T* ai = a + i * lda;
    T* ci = c + i * ldc;
    int j = 0;
    for (; j + 16 <= m; j += 16) matmul_strip<16>(k, ai, b + j, ldb, ci + j);
    for (; j + 4 <= m; j += 4) matmul_strip<4>(k, ai, b + j, ldb, ci + j);
    for (; j < m; ++j) matmul_strip<1>(k, ai, b + j, ldb, ci + j);
  }
}

template <typename T>
void matmul_bt(int n, int k, int m, const T* a, long lda, const T* b, long ldb, T* c, long ldc) {
  for (int i = 0; i < n; ++i) {
    const T* ai = a + i * lda;
    for (int j = 0; j < m; ++j) {
      const T* bj = b + j * ldb;
      T sum = T(0);
      for (int p = 0; p < k; ++p) sum += ai[p] * bj[p];
      c[i * ldc + j] = sum;
    }
  }
}

template <typename T>
void add_matmul_at(int n, int k, int m, const T* a, long lda, const T* b, long ldb, T* c, long ldc) {
  for (int p = 0; p < k; ++p) {
    T* cp = c + p * ldc;
    int j = 0;
    for (; j + 16 <= m; j += 16) add_matmul_at_strip<16>(n, a + p, lda, b + j, ldb, cp + j);
    for (; j + 4 <= m; j += 4) add_matmul_at_strip<4>(n, a + p, lda, b + j, ldb, cp + j);
    for (; j < m; ++j) add_matmul_at_strip<1>(n, a + p, lda, b + j, ldb, cp + j);
  }
}

template <typename T>
Mat<T> matmul(const Mat<T>& a, const Mat<T>& b) {
  Mat<T> c(a.rows(), b.cols());
  matmul<T>(int(a.rows()), int(a.cols()), int(b.cols()), a.data(), a.cols(), b.data(), b.cols(), c.data(), c.cols());
  return c;
}

template <typename T>
Mat<T> matmul_bt(const Mat<T>& a, const Mat<T>& b) {
  // a b^T = a (b^T as a row-major copy): the copy lets the inner loop run along contiguous
  // output elements; each element is still summed over k in index order.
  const Mat<T> bt = b.transpose();
  return matmul<T>(a, bt);
}

template <typename T>
void add_matmul_at(const Mat<T>& a, const Mat<T>& b, Mat<T>& c) {
  add_matmul_at<T>(int(a.rows()), int(a.cols()), int(b.cols()), a.data(), a.cols(), b.data(), b.cols(), c.data(), c.cols());
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

double exp_fixed(double x) {
  if (x != x) return x;
  if (x > 709.78) return std::numeric_limits<double>::infinity();
  if (x < -745.2) return 0.0;
  // x = k ln2 + r with |r| <= ln2 / 2; ln2 split so that k * hi is exact.
  constexpr double kLn2Hi = 6.93147180369123816490e-01, kLn2Lo = 1.90821492927058770002e-10;
  constexpr double kInvLn2 = 1.44269504088896338700e+00;
  const double k = std::floor(x * kInvLn2 + 0.5);
  const double r = (x - k * kLn2Hi) - k * kLn2Lo;
  // Taylor series to r^13 / 13!: |r| <= 0.347 leaves a remainder below 2e-17.
  double term = 1.0, sum = 1.0;
  for (int i = 1; i <= 13; ++i) {
    term *= r / i;
    sum += term;
  }
  return std::ldexp(sum, int(k));  // exact scaling by 2^k (subnormal results round once)
}

template <typename T>
void softmax_rows(T* scores, int n, int m, long ld) {
  thread_local std::vector<double> e;
  e.resize(std::size_t(m));
  for (int i = 0; i < n; ++i) {
    T* row = scores + i * ld;
    T top = row[0];
    for (int j = 1; j < m; ++j) top = row[j] > top ? row[j] : top;
    double sum = 0;
    for (int j = 0; j < m; ++j) sum += e[std::size_t(j)] = exp_fixed(double(row[j]) - double(top));
    for (int j = 0; j < m; ++j) row[j] = T(e[std::size_t(j)] / sum);
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
  template void matmul<T>(int, int, int, const T*, long, const T*, long, T*, long);              \
  template void matmul_bt<T>(int, int, int, const T*, long, const T*, long, T*, long);           \
  template void add_matmul_at<T>(int, int, int, const T*, long, const T*, long, T*, long);       \
  template Mat<T> matmul<T>(const Mat<T>&, const Mat<T>&);                                       \
  template Mat<T> matmul_bt<T>(const Mat<T>&, const Mat<T>&);                                    \
  template void add_matmul_at<T>(const Mat<T>&, const Mat<T>&, Mat<T>&);                         \
  template void add_column_sums<T>(const Mat<T>&, Mat<T>&);                                      \
  template void softmax_rows<T>(T*, int, int, long);                                             \
  template double log_sum_exp<T>(const T*, int);

ATTN_KERNELS_INSTANTIATE(float)
ATTN_KERNELS_INSTANTIATE(double)

}  // namespace attn::nn::kernels
