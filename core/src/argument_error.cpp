#include "attn/argument_error.hpp"

#include <cmath>
#include <cstdio>

namespace attn {

const char* code_name(ErrorCode code) {
  switch (code) {
    case ErrorCode::out_of_range: return "out-of-range";
    case ErrorCode::not_whole: return "not-whole";
    case ErrorCode::not_finite: return "not-finite";
    case ErrorCode::not_one_of: return "not-one-of";
    case ErrorCode::must_divide: return "must-divide";
    case ErrorCode::bad_shape: return "bad-shape";
    case ErrorCode::bad_length: return "bad-length";
    case ErrorCode::empty: return "empty";
    case ErrorCode::too_many_elements: return "too-many-elements";
    case ErrorCode::too_large: return "too-large";
    case ErrorCode::not_allowed: return "not-allowed";
  }
  return "?";
}

ArgumentError::ArgumentError(std::string argument, ErrorCode code, std::string detail,
                             std::initializer_list<ErrorValue> values)
    : std::invalid_argument(
          substitute_names("{" + argument + "} " + detail, [](const std::string& name) { return name; })),
      argument_(std::move(argument)),
      detail_(std::move(detail)),
      code_(code),
      values_(values) {}

std::string number_text(double value) {
  char buffer[40];
  if (value == std::floor(value) && std::fabs(value) < 1e17)
    std::snprintf(buffer, sizeof buffer, "%.0f", value);
  else
    std::snprintf(buffer, sizeof buffer, "%.15g", value);
  return buffer;
}

}  // namespace attn
