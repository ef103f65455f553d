// The reference fixture: the core against PyTorch's nn.MultiheadAttention ([reference]: needs the
// fixture the build makes with tests/reference/make_fixture.py, so ctest runs it from
// tests/reference/CMakeLists.txt, or reports it skipped without PyTorch), and the fixture reader
// and native-results writer on small hand-written files (no PyTorch needed).
#include "reference_check.hpp"

#include "attn/random.hpp"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>

using attn::cli::check_reference_fixture;
using attn::cli::write_native_outputs;
using Catch::Matchers::Contains;

namespace {

// A file under the system's temporary directory, removed when the test ends.
struct TempFile {
  std::filesystem::path path;
  explicit TempFile(const std::string& name, const std::string& text = "")
      : path(std::filesystem::temp_directory_path() / ("attn_test_reference_" + name)) {
    if (!text.empty()) std::ofstream(path) << text;
  }
  ~TempFile() { std::filesystem::remove(path); }
  std::string str() const { return path.string(); }
};

// One plain-attention case small enough to check by hand: the query scores both keys 0, so
// each weight is 1/2 and the output is the mean of the values (1 and 3).
nlohmann::json two_key_case(double expected_output) {
  auto tensor = [](std::vector<long> dims, std::vector<double> values) {
    return nlohmann::json{{"dims", dims}, {"values", values}};
  };
  return {{"name", "two_keys"},
          {"kind", "attention"},
          {"params", nlohmann::json::object()},
          {"tensors",
           {{"query", tensor({1, 1, 1}, {0})},
            {"key", tensor({1, 2, 1}, {0, 0})},
            {"value", tensor({1, 2, 1}, {1, 3})},
            {"mask", tensor({1, 1, 2}, {1, 1})},
            {"output", tensor({1, 1, 1}, {expected_output})},
            {"weights", tensor({1, 1, 1, 2}, {0.5, 0.5})}}}};
}

std::string fixture_text(const nlohmann::json& one_case) { return nlohmann::json{{"cases", {one_case}}}.dump(); }

}  // namespace

TEST_CASE("the core matches PyTorch within 1e-6 on every reference case", "[reference]") {
  const auto results = check_reference_fixture(ATTN_DEFAULT_FIXTURE);
  // The fixture's cases: plain attention, 4 heads, 1 head, cross, causal, padding, batch of 3.
  REQUIRE(results.size() >= 7);
  for (const auto& r : results) {
    INFO(r.name << ": output " << r.output_diff << ", weights " << r.weights_diff);
    CHECK(r.output_diff <= 1e-6);
    CHECK(r.weights_diff <= 1e-6);
  }
}

TEST_CASE("reference fixture: a hand-checked case is read and measured", "[cli][fixture]") {
  const TempFile exact("exact.json", fixture_text(two_key_case(2.0)));
  const auto results = check_reference_fixture(exact.str());
  REQUIRE(results.size() == 1);
  CHECK(results[0].name == "two_keys");
  CHECK(results[0].kind == "attention");
  CHECK(results[0].batch == 1);
  CHECK(results[0].output_diff == 0);
  CHECK(results[0].weights_diff == 0);
  // An expected output off by 0.25 shows up as exactly that difference.
  const TempFile off("off.json", fixture_text(two_key_case(2.25)));
  CHECK(check_reference_fixture(off.str())[0].output_diff == 0.25);
}

TEST_CASE("reference fixture: unreadable or malformed files are errors naming the file", "[cli][fixture][bad-input]") {
  const TempFile missing("missing.json");
  REQUIRE_THROWS_WITH(check_reference_fixture(missing.str()),
                      Contains("cannot read the reference fixture " + missing.str()) && Contains("make_fixture.py"));
  const TempFile text("text.json", "case x attention\n");
  REQUIRE_THROWS_WITH(check_reference_fixture(text.str()), Contains(text.str() + " is not a reference fixture"));
  const TempFile empty("empty.json", R"({"cases": []})");
  REQUIRE_THROWS_WITH(check_reference_fixture(empty.str()), Contains("holds no cases"));
  nlohmann::json truncated = two_key_case(2.0);
  truncated["tensors"]["value"]["values"] = {1};
  const TempFile short_tensor("short.json", fixture_text(truncated));
  REQUIRE_THROWS_WITH(check_reference_fixture(short_tensor.str()),
                      Contains("case two_keys: tensor value has 1 values, which its dims [1,2,1] do not describe"));
  nlohmann::json negative = two_key_case(2.0);
  negative["tensors"]["value"]["dims"] = {-1, -2, 1};
  const TempFile negative_dims("negative.json", fixture_text(negative));
  REQUIRE_THROWS_WITH(check_reference_fixture(negative_dims.str()),
                      Contains("tensor value has 2 values, which its dims [-1,-2,1] do not describe"));
  nlohmann::json scalar = two_key_case(2.0);
  scalar["tensors"]["query"]["dims"] = nlohmann::json::array();
  scalar["tensors"]["query"]["values"] = nlohmann::json::array();
  const TempFile no_dims("no_dims.json", fixture_text(scalar));
  REQUIRE_THROWS_WITH(check_reference_fixture(no_dims.str()), Contains("tensor query has 0 values"));
}

TEST_CASE("native results: the core's outputs and seeded draws as JSON in the fixture's layout", "[cli][fixture]") {
  const TempFile fixture("in.json", fixture_text(two_key_case(2.0)));
  const TempFile out("native.json");
  write_native_outputs(fixture.str(), out.str());
  const auto native = nlohmann::json::parse(std::ifstream(out.path));
  const auto& cases = native.at("cases");
  REQUIRE(cases.at(0).at("name") == "two_keys");
  CHECK(cases.at(0).at("tensors").at("output").at("values") == nlohmann::json::array({2.0}));
  CHECK(cases.at(0).at("tensors").at("weights").at("dims") == nlohmann::json::array({1, 1, 1, 2}));
  // Then one "random" case per seed, up to 2^53 - 1, with the first uniform draw written exactly.
  const auto& last = cases.back();
  CHECK(last.at("kind") == "random");
  CHECK(last.at("params").at("seed").get<std::uint64_t>() == 9007199254740991ull);
  attn::Random rng(9007199254740991ull);
  CHECK(last.at("tensors").at("uniform").at("values").at(0).get<double>() == rng.uniform());
}
