// The core against PyTorch's nn.MultiheadAttention. npm test writes the fixture with
// tests/reference/make_fixture.py (Debian's python3-torch) just before this runs.
#include "reference_check.hpp"

#include <catch2/catch.hpp>

TEST_CASE("the core matches PyTorch within 1e-6 on every reference case", "[reference]") {
  const auto results = attn::cli::check_reference_fixture(ATTN_DEFAULT_FIXTURE);
  // The fixture's cases: plain attention, 4 heads, 1 head, cross, causal, padding, batch of 3.
  REQUIRE(results.size() >= 7);
  for (const auto& r : results) {
    INFO(r.name << ": output " << r.output_diff << ", weights " << r.weights_diff);
    CHECK(r.output_diff <= 1e-6);
    CHECK(r.weights_diff <= 1e-6);
  }
}
