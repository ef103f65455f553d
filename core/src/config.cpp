#include "attn/config.hpp"

#include <algorithm>
#include <cmath>

namespace attn {

std::string range_text(const FieldInfo& field) {
  return (field.open_min ? "(" : "[") + number_text(field.min) + ", " + number_text(field.max) +
         (field.open_max ? ")" : "]");
}

void require_whole(const FieldInfo& field, double value) {
  if (value < field.min || value > field.max)
    throw ArgumentError(field.name, ErrorCode::out_of_range,
                        "must be a whole number in " + range_text(field) + ", got " + number_text(value),
                        {{"min", field.min}, {"max", field.max}, {"got", value}});
}

void require_whole(const FieldInfo& field, std::uint64_t value) {
  if (value > std::uint64_t(field.max))  // an unsigned value is never below a min of 0
    throw ArgumentError(field.name, ErrorCode::out_of_range,
                        "must be a whole number in " + range_text(field) + ", got " + std::to_string(value),
                        {{"min", field.min}, {"max", field.max}, {"got", double(value)}});
}

void require_number(const FieldInfo& field, double value) {
  const bool above_min = field.open_min ? value > field.min : value >= field.min;
  const bool below_max = field.open_max ? value < field.max : value <= field.max;
  if (!(std::isfinite(value) && above_min && below_max))
    throw ArgumentError(field.name, std::isfinite(value) ? ErrorCode::out_of_range : ErrorCode::not_finite,
                        "must be a number in " + range_text(field) + ", got " + number_text(value),
                        {{"min", field.min}, {"max", field.max}, {"got", value}});
}

void require_list(const FieldInfo& field, const std::vector<int>& values) {
  if (values.empty() || values.size() > std::size_t(field.max_count))
    throw ArgumentError(
        field.name, ErrorCode::bad_length,
        "must hold 1 to " + std::to_string(field.max_count) + " values, got " + std::to_string(values.size()),
        {{"min", 1}, {"max", double(field.max_count)}, {"got", double(values.size())}});
  for (std::size_t i = 0; i < values.size(); ++i)
    if (values[i] < field.min || values[i] > field.max)
      throw ArgumentError(field.name, ErrorCode::out_of_range,
                          "must hold whole numbers in " + range_text(field) + ", got " + std::to_string(values[i]) +
                              " at index " + std::to_string(i),
                          {{"min", field.min}, {"max", field.max}, {"got", double(values[i])}, {"index", double(i)}});
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
  throw ArgumentError(field.name, ErrorCode::not_one_of,
                      "must be one of " + list + ", got \"" + value.substr(0, 40) + "\"");
}

}  // namespace attn
