#include "weights_file.hpp"

#include <cstdint>
#include <cstring>
#include <fstream>
#include <iterator>
#include <stdexcept>

namespace attn::cli {

void write_weights(const std::string& path, const std::vector<float>& values) {
  std::string bytes(values.size() * 4, '\0');
  for (std::size_t i = 0; i < values.size(); ++i) {
    std::uint32_t bits;
    std::memcpy(&bits, &values[i], 4);
    for (int b = 0; b < 4; ++b) bytes[i * 4 + std::size_t(b)] = char((bits >> (8 * b)) & 0xFF);
  }
  std::ofstream out(path, std::ios::binary);
  out.write(bytes.data(), std::streamsize(bytes.size()));
  if (!out) throw std::runtime_error("cannot write the weights file " + path);
}

std::vector<float> read_weights(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read the weights file " + path);
  const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (bytes.size() % 4 != 0)
    throw std::runtime_error("the weights file " + path + " holds " + std::to_string(bytes.size()) +
                             " bytes, not a whole number of float32 values");
  std::vector<float> values(bytes.size() / 4);
  for (std::size_t i = 0; i < values.size(); ++i) {
    std::uint32_t bits = 0;
    for (int b = 0; b < 4; ++b) bits |= std::uint32_t(std::uint8_t(bytes[i * 4 + std::size_t(b)])) << (8 * b);
    std::memcpy(&values[i], &bits, 4);
  }
  return values;
}

}  // namespace attn::cli
