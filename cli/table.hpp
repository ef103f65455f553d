// Plain-text tables shaped like the lesson's, for the CLI's human-readable output.
#pragma once

#include <ostream>
#include <string>
#include <vector>

namespace attn::cli {

class Table {
 public:
  explicit Table(std::vector<std::string> header) : rows_{std::move(header)} {}
  void add(std::vector<std::string> row) { rows_.push_back(std::move(row)); }
  // Columns padded to their widest cell; the first column left-aligned, the rest right.
  void print(std::ostream& out) const;

 private:
  std::vector<std::vector<std::string>> rows_;
};

// value with `digits` decimals ("0.5500"); "%.2e" style when scientific.
std::string fixed(double value, int digits);
std::string scientific(double value, int digits = 2);
// 17673 -> "17,673", as the lesson writes counts.
std::string grouped(long n);

}  // namespace attn::cli
