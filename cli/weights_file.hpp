// A model's weights on disk: the flat list of attn/cue/probe.hpp (every parameter, in the model's
// parameter order) as raw little-endian float32, 4 bytes a value and nothing else. The lesson's
// build writes the recorded runs' weights so, and the browser reads them into a Float32Array.
#pragma once

#include <string>
#include <vector>

namespace attn::cli {

// Throws std::runtime_error naming the file when it cannot be written.
void write_weights(const std::string& path, const std::vector<float>& values);
// Throws std::runtime_error naming the file when it cannot be read or is not whole floats.
std::vector<float> read_weights(const std::string& path);

}  // namespace attn::cli
