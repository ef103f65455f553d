#include "attn/config.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace attn {
namespace {

// 8, 0.003, 1e-07, 9007199254740991: whole numbers in full, others to 15 significant digits
// (enough to tell any two limits apart, and no longer than they were written).
std::string number_text(double value) {
  char buffer[40];
  if (value == std::floor(value) && std::fabs(value) < 1e17)
    std::snprintf(buffer, sizeof buffer, "%.0f", value);
  else
    std::snprintf(buffer, sizeof buffer, "%.15g", value);
  return buffer;
}

}  // namespace

ArgumentError::ArgumentError(std::string argument, std::string detail)
    : std::invalid_argument(
          substitute_names("{" + argument + "} " + detail, [](const std::string& name) { return name; })),
      argument_(std::move(argument)),
      detail_(std::move(detail)) {}

std::string range_text(const FieldInfo& field) {
  return (field.open_min ? "(" : "[") + number_text(field.min) + ", " + number_text(field.max) +
         (field.open_max ? ")" : "]");
}

void require_whole(const FieldInfo& field, double value) {
  if (value < field.min || value > field.max)
    throw ArgumentError(field.name, "must be a whole number in " + range_text(field) + ", got " + number_text(value));
}

void require_whole(const FieldInfo& field, std::uint64_t value) {
  if (value > std::uint64_t(field.max))  // an unsigned value is never below a min of 0
    throw ArgumentError(field.name,
                        "must be a whole number in " + range_text(field) + ", got " + std::to_string(value));
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

std::vector<std::string> choices_of(const FieldInfo& field) {
  std::vector<std::string> out;
  const std::string all = field.choices ? field.choices : "";
  for (std::size_t begin = 0; begin <= all.size();) {
    const std::size_t end = std::min(all.find('|', begin), all.size());
    out.push_back(all.substr(begin, end - begin));
    begin = end + 1;
  }
  return out;
}

void require_choice(const FieldInfo& field, const std::string& value) {
  const std::vector<std::string> allowed = choices_of(field);
  if (std::find(allowed.begin(), allowed.end(), value) != allowed.end()) return;
  std::string list;
  for (const std::string& name : allowed) list += (list.empty() ? "\"" : ", \"") + name + "\"";
  throw ArgumentError(field.name, "must be one of " + list + ", got \"" + value.substr(0, 40) + "\"");
}

}  // namespace attn
