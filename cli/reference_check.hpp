// Runs every case of the PyTorch reference fixture (tests/reference/make_fixture.py) through
// the core and measures the largest differences. Shared by `attention-lab reference` and the
// Catch2 reference test, so both report the same numbers.
#pragma once

#include <string>
#include <vector>

namespace attn::cli {

struct ReferenceCaseResult {
  std::string name;
  std::string kind;         // "multihead" or "attention"
  int batch = 0;            // sequences in the case
  double output_diff = 0;   // max |core - PyTorch| over every output element
  double weights_diff = 0;  // the same over every attention weight of every head
};

// Reads the fixture's JSON (format in tests/reference/make_fixture.py). Throws
// std::runtime_error naming the file if it cannot be read or is not such a fixture.
std::vector<ReferenceCaseResult> check_reference_fixture(const std::string& path);

// Writes what the native core computes for the fixture's inputs, for the WebAssembly build to be
// compared against (tests/wasm/): per case, `output` and `weights` tensors shaped like the
// fixture's; then, per seed (kind "random", param "seed"), the first draws of attn::Random. The
// same JSON layout as the fixture, every value written with the digits that read back exactly.
// Throws std::runtime_error when the fixture cannot be read or `out_path` cannot be written.
void write_native_outputs(const std::string& fixture_path, const std::string& out_path);

}  // namespace attn::cli
