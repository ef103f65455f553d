#include "json_writer.hpp"

#include <cmath>
#include <cstdio>

namespace attn::cli {

void JsonWriter::before_value() {
  if (after_key_) {
    after_key_ = false;
    return;
  }
  if (!first_in_level_.empty()) {
    if (!first_in_level_.back()) out_ << ',';
    first_in_level_.back() = false;
  }
}

JsonWriter& JsonWriter::begin_object() {
  before_value();
  out_ << '{';
  first_in_level_.push_back(true);
  return *this;
}

JsonWriter& JsonWriter::end_object() {
  first_in_level_.pop_back();
  out_ << '}';
  if (first_in_level_.empty()) out_ << '\n';
  return *this;
}

JsonWriter& JsonWriter::begin_array() {
  before_value();
  out_ << '[';
  first_in_level_.push_back(true);
  return *this;
}

JsonWriter& JsonWriter::end_array() {
  first_in_level_.pop_back();
  out_ << ']';
  if (first_in_level_.empty()) out_ << '\n';
  return *this;
}

JsonWriter& JsonWriter::key(const std::string& name) {
  before_value();
  write_string(name);
  out_ << ':';
  after_key_ = true;
  return *this;
}

JsonWriter& JsonWriter::value(double number) {
  before_value();
  if (!std::isfinite(number)) {
    out_ << "null";
    return *this;
  }
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.9g", number);
  out_ << buffer;
  return *this;
}

JsonWriter& JsonWriter::value(long number) {
  before_value();
  out_ << number;
  return *this;
}

JsonWriter& JsonWriter::value(bool flag) {
  before_value();
  out_ << (flag ? "true" : "false");
  return *this;
}

JsonWriter& JsonWriter::value(const std::string& text) {
  before_value();
  write_string(text);
  return *this;
}

void JsonWriter::write_string(const std::string& text) {
  out_ << '"';
  for (char c : text) {
    switch (c) {
      case '"': out_ << "\\\""; break;
      case '\\': out_ << "\\\\"; break;
      case '\n': out_ << "\\n"; break;
      case '\t': out_ << "\\t"; break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) {
          char buffer[8];
          std::snprintf(buffer, sizeof buffer, "\\u%04x", c);
          out_ << buffer;
        } else {
          out_ << c;
        }
    }
  }
  out_ << '"';
}

}  // namespace attn::cli
