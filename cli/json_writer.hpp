// A small streaming JSON writer for the CLI's --json output (the core has no I/O).
#pragma once

#include <ostream>
#include <string>
#include <vector>

namespace attn::cli {

class JsonWriter {
 public:
  explicit JsonWriter(std::ostream& out) : out_(out) {}

  JsonWriter& begin_object();
  JsonWriter& end_object();
  JsonWriter& begin_array();
  JsonWriter& end_array();
  JsonWriter& key(const std::string& name);
  JsonWriter& value(double number);  // NaN and infinities become null
  JsonWriter& value(long number);
  JsonWriter& value(int number) { return value(long(number)); }
  JsonWriter& value(bool flag);
  JsonWriter& value(const std::string& text);
  JsonWriter& value(const char* text) { return value(std::string(text)); }
  template <typename T>
  JsonWriter& array(const std::vector<T>& items) {
    begin_array();
    for (const T& item : items) value(item);
    return end_array();
  }
  // Shorthand for key(name).value(v).
  template <typename T>
  JsonWriter& field(const std::string& name, const T& v) {
    key(name);
    return value(v);
  }

 private:
  void before_value();
  void write_string(const std::string& text);
  std::ostream& out_;
  std::vector<bool> first_in_level_;
  bool after_key_ = false;
};

}  // namespace attn::cli
