#include "attn/config.hpp"

#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace attn {
namespace {

// Shortest text that reads back as the same double: 8, 0.003, 1e-07, 9007199254740991.
std::string number_text(double value) {
  char buffer[40];
  if (value == std::floor(value) && std::fabs(value) < 1e17) {
    std::snprintf(buffer, sizeof buffer, "%.0f", value);
    return buffer;
  }
  for (int digits = 1; digits <= 17; ++digits) {
    std::snprintf(buffer, sizeof buffer, "%.*g", digits, value);
    if (std::strtod(buffer, nullptr) == value) break;
  }
  return buffer;
}

// Whole numbers in full, whatever their size ("18446744073709551615", not "1.8e+19").
std::string whole_text(long double value) {
  char buffer[48];
  std::snprintf(buffer, sizeof buffer, "%.0Lf", value);
  return buffer;
}

// The message's text with every {name} replaced by name_of(name).
std::string substitute(const std::string& text, const std::function<std::string(const std::string&)>& name_of) {
  std::string out;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const std::size_t close = text[i] == '{' ? text.find('}', i) : std::string::npos;
    if (close == std::string::npos) {
      out += text[i];
      continue;
    }
    out += name_of(text.substr(i + 1, close - i - 1));
    i = close;
  }
  return out;
}

std::string same_name(const std::string& name) { return name; }

}  // namespace

ArgumentError::ArgumentError(std::string argument, std::string detail)
    : std::invalid_argument(substitute("{" + argument + "} " + detail, same_name)),
      argument_(std::move(argument)),
      detail_(std::move(detail)) {}

std::string ArgumentError::message(const std::function<std::string(const std::string&)>& name_of) const {
  return substitute("{" + argument_ + "} " + detail_, name_of);
}

std::string range_text(const FieldInfo& field) {
  return (field.open_min ? "(" : "[") + number_text(field.min) + ", " + number_text(field.max) +
         (field.open_max ? ")" : "]");
}

void require_whole(const FieldInfo& field, long double value) {
  if (value < field.min || value > field.max)
    throw ArgumentError(field.name, "must be a whole number in " + range_text(field) + ", got " + whole_text(value));
}

void require_number(const FieldInfo& field, double value) {
  const bool above_min = field.open_min ? value > field.min : value >= field.min;
  const bool below_max = field.open_max ? value < field.max : value <= field.max;
  if (!(std::isfinite(value) && above_min && below_max))
    throw ArgumentError(field.name, "must be a number in " + range_text(field) + ", got " + number_text(value));
}

void require_list(const FieldInfo& field, const std::vector<int>& values) {
  if (values.empty() || values.size() > std::size_t(field.max_count))
    throw ArgumentError(field.name, "must hold 1 to " + std::to_string(field.max_count) + " values, got " +
                                        std::to_string(values.size()));
  for (std::size_t i = 0; i < values.size(); ++i)
    if (values[i] < field.min || values[i] > field.max)
      throw ArgumentError(field.name, "must hold whole numbers in " + range_text(field) + ", got " +
                                          std::to_string(values[i]) + " at index " + std::to_string(i));
}

}  // namespace attn
