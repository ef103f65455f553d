#include "attn/matrix.hpp"

#include "attn/config.hpp"

#include <cstdint>
#include <cstring>

namespace attn {

std::string shape_of(Eigen::Index rows, Eigen::Index cols) {
  return "(" + std::to_string(rows) + ", " + std::to_string(cols) + ")";
}

bool all_finite(const float* p, Eigen::Index n) {
  std::uint32_t infinite = 0;  // or-ed over every element, so the loop has no branch to vectorise around
  for (Eigen::Index i = 0; i < n; ++i) {
    std::uint32_t bits;
    std::memcpy(&bits, p + i, sizeof bits);
    infinite |= (bits & 0x7f800000u) == 0x7f800000u;
  }
  return infinite == 0;
}

void require_nonempty(const char* name, const Matrix& m) {
  if (m.size() == 0)
    throw ArgumentError(name, ErrorCode::empty, "must not be empty, got shape " + shape_of(m),
                        {{"got_rows", double(m.rows())}, {"got_cols", double(m.cols())}});
}

void require_finite(const char* name, const Matrix& m) {
  if (all_finite(m)) return;  // the common case; the loop below only names the culprit
  for (Eigen::Index i = 0; i < m.rows(); ++i)
    for (Eigen::Index j = 0; j < m.cols(); ++j)
      if (!std::isfinite(m(i, j)))
        throw ArgumentError(name, ErrorCode::not_finite,
                            "must be finite, got " + std::to_string(m(i, j)) + " at (" + std::to_string(i) + ", " +
                                std::to_string(j) + ") of shape " + shape_of(m),
                            {{"got", m(i, j)}, {"row", double(i)}, {"col", double(j)}});
}

void require_values(const char* name, const Matrix& m) {
  require_nonempty(name, m);
  require_finite(name, m);
}

void require_cols(const char* name, const Matrix& m, Eigen::Index cols, const char* why) {
  if (m.cols() != cols)
    throw ArgumentError(name, ErrorCode::bad_shape,
                        "must have " + std::to_string(cols) + " columns (" + why + "), got shape " + shape_of(m),
                        {{"cols", double(cols)}, {"got_rows", double(m.rows())}, {"got_cols", double(m.cols())}});
}

void require_range(const char* name, long value, long min, long max) {
  require_whole(argument(name, double(min), double(max)), double(value));
}

void require_rows(const char* name, const Matrix& m, Eigen::Index rows, const char* why) {
  if (m.rows() != rows)
    throw ArgumentError(name, ErrorCode::bad_shape,
                        "must have " + std::to_string(rows) + " rows (" + why + "), got shape " + shape_of(m),
                        {{"rows", double(rows)}, {"got_rows", double(m.rows())}, {"got_cols", double(m.cols())}});
}

}  // namespace attn
