#include "reference_check.hpp"

#include "attn/attention.hpp"
#include "attn/multihead.hpp"
#include "attn/random.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <fstream>
#include <map>
#include <stdexcept>

#include <nlohmann/json.hpp>

namespace attn::cli {
namespace {

struct Tensor {
  std::vector<long> dims;
  std::vector<float> values;
};

struct Case {
  std::string name, kind;
  std::map<std::string, long> params;
  std::map<std::string, Tensor> tensors;

  const Tensor& tensor(const std::string& key) const {
    auto it = tensors.find(key);
    if (it == tensors.end()) throw std::runtime_error("case " + name + " has no tensor " + key);
    return it->second;
  }
  // Slice `index` of the leading dimension as a (dims[-2], dims[-1]) matrix; a 2-D or 1-D
  // tensor is its own only slice.
  Matrix matrix(const std::string& key, long index = 0) const {
    const Tensor& t = tensor(key);
    const long cols = t.dims.back();
    const long rows = t.dims.size() >= 2 ? t.dims[t.dims.size() - 2] : 1;
    const long offset = index * rows * cols;
    if (offset + rows * cols > long(t.values.size()))
      throw std::runtime_error("case " + name + ": tensor " + key + " too short");
    return Eigen::Map<const Matrix>(t.values.data() + offset, rows, cols);
  }
};

// Reads the JSON of tests/reference/make_fixture.py (format described there).
std::vector<Case> read_cases(const std::string& path) {
  std::ifstream in(path);
  if (!in)
    throw std::runtime_error("cannot read the reference fixture " + path +
                             " (the build makes it with tests/reference/make_fixture.py "
                             "when /usr/bin/python3 has PyTorch)");
  std::vector<Case> cases;
  try {
    const nlohmann::json document = nlohmann::json::parse(in);
    for (const auto& record : document.at("cases")) {
      Case c;
      c.name = record.at("name").get<std::string>();
      c.kind = record.at("kind").get<std::string>();
      for (const auto& [key, value] : record.at("params").items()) c.params[key] = value.get<long>();
      for (const auto& [key, value] : record.at("tensors").items()) {
        Tensor t;
        value.at("dims").get_to(t.dims);
        value.at("values").get_to(t.values);
        // Dims of at least 1 whose product is the number of values (checked without overflow).
        const long size = long(t.values.size());
        long count = 1;
        for (long d : t.dims) count = d >= 1 && count <= size / d ? count * d : -1;
        if (t.dims.empty() || count != size)
          throw std::runtime_error("case " + c.name + ": tensor " + key + " has " + std::to_string(size) +
                                   " values, which its dims " + value.at("dims").dump() + " do not describe");
        c.tensors[key] = std::move(t);
      }
      cases.push_back(std::move(c));
    }
  } catch (const nlohmann::json::exception& e) {
    throw std::runtime_error(path + " is not a reference fixture: " + e.what());
  } catch (const std::runtime_error& e) {
    throw std::runtime_error(path + ": " + e.what());
  }
  if (cases.empty()) throw std::runtime_error(path + " holds no cases");
  return cases;
}

double max_abs_diff(const Matrix& a, const Matrix& b) {
  if (a.rows() != b.rows() || a.cols() != b.cols())
    throw std::runtime_error("shape mismatch " + shape_of(a) + " vs " + shape_of(b));
  return (a - b).cwiseAbs().maxCoeff();
}

// The core's results for one sequence of a case: the output and one weights matrix per head
// (one in all for kind "attention").
MultiHeadResult compute_sequence(const Case& c, long b) {
  const Mask mask = c.matrix("mask", b).array() > 0.5f;
  if (c.kind == "attention") {
    auto out = attention(c.matrix("query", b), c.matrix("key", b), c.matrix("value", b), mask);
    return {std::move(out.output), {std::move(out.weights)}};
  }
  MultiHeadAttention mha(int(c.tensor("query").dims[2]), int(c.params.at("num_heads")));
  mha.set_from_pytorch(c.matrix("in_proj_weight"), c.matrix("in_proj_bias"), c.matrix("out_proj_weight"),
                       c.matrix("out_proj_bias"));
  return mha.forward(c.matrix("query", b), c.matrix("key", b), c.matrix("value", b), &mask);
}

ReferenceCaseResult run_case(const Case& c) {
  ReferenceCaseResult r{c.name, c.kind, int(c.tensor("query").dims[0]), 0, 0};
  const long n_q = c.tensor("query").dims[1], n_k = c.tensor("key").dims[1];
  for (long b = 0; b < r.batch; ++b) {
    const auto out = compute_sequence(c, b);
    r.output_diff = std::max(r.output_diff, max_abs_diff(out.output, c.matrix("output", b)));
    // weights: (batch, heads, n_q, n_k) -> slice b * heads + h
    const long heads = long(out.weights.size());
    for (long h = 0; h < heads; ++h) {
      const Matrix expected = c.matrix("weights", b * heads + h);
      if (expected.rows() != n_q || expected.cols() != n_k)
        throw std::runtime_error("case " + c.name + ": weights have the wrong shape");
      r.weights_diff = std::max(r.weights_diff, max_abs_diff(out.weights[h], expected));
    }
  }
  return r;
}

// {"dims": [...], "values": [...]}: nlohmann/json writes each double with the digits that read
// back exactly (a float is written as the double it equals).
template <typename Values>
nlohmann::json tensor_record(const std::vector<long>& dims, const Values& values) {
  return {{"dims", dims}, {"values", std::vector<double>(values.begin(), values.end())}};
}

// Seeds of the generator comparison: small ones, a typical one, and 2^53 - 1 (the largest a
// JS number holds exactly).
constexpr std::uint64_t kDrawSeeds[] = {0, 1, 42, 20261129, 9007199254740991ull};
constexpr long kDraws = 1000;

}  // namespace

std::vector<ReferenceCaseResult> check_reference_fixture(const std::string& path) {
  std::vector<ReferenceCaseResult> results;
  for (const Case& c : read_cases(path)) results.push_back(run_case(c));
  return results;
}

void write_native_outputs(const std::string& fixture_path, const std::string& out_path) {
  nlohmann::json cases = nlohmann::json::array();
  for (const Case& c : read_cases(fixture_path)) {
    const long batch = c.tensor("query").dims[0];
    std::vector<float> outputs, weights;
    long heads = 0, n_q = 0, n_k = 0, d = 0;
    for (long b = 0; b < batch; ++b) {
      const auto result = compute_sequence(c, b);
      outputs.insert(outputs.end(), result.output.data(), result.output.data() + result.output.size());
      for (const Matrix& w : result.weights) weights.insert(weights.end(), w.data(), w.data() + w.size());
      heads = long(result.weights.size());
      n_q = result.output.rows();
      d = result.output.cols();
      n_k = result.weights[0].cols();
    }
    cases.push_back({{"name", c.name},
                     {"kind", c.kind},
                     {"params", nlohmann::json::object()},
                     {"tensors",
                      {{"output", tensor_record({batch, n_q, d}, outputs)},
                       {"weights", tensor_record({batch, heads, n_q, n_k}, weights)}}}});
  }
  for (const std::uint64_t seed : kDrawSeeds) {
    Random rng(seed);
    std::vector<double> uniform(kDraws), normal(kDraws);
    for (double& x : uniform) x = rng.uniform();
    for (double& x : normal) x = rng.normal();
    const Matrix m = rng.normal_matrix(7, 9);
    const Matrix u = rng.uniform_matrix(3, 5, -0.5, 2.0);
    const double after = rng.uniform();  // the stream continues identically after matrices
    cases.push_back({{"name", "random_seed_" + std::to_string(seed)},
                     {"kind", "random"},
                     {"params", {{"seed", seed}}},
                     {"tensors",
                      {{"uniform", tensor_record({kDraws}, uniform)},
                       {"normal", tensor_record({kDraws}, normal)},
                       {"normal_matrix", tensor_record({7, 9}, std::vector<float>(m.data(), m.data() + m.size()))},
                       {"uniform_matrix", tensor_record({3, 5}, std::vector<float>(u.data(), u.data() + u.size()))},
                       {"uniform_after", tensor_record({1}, std::vector<double>{after})}}}});
  }
  std::ofstream out(out_path);
  if (!out) throw std::runtime_error("cannot write " + out_path);
  out << nlohmann::json{{"written_by", "attention-lab reference --write-native"},
                        {"fixture", fixture_path},
                        {"cases", cases}}
      << '\n';
  if (!out) throw std::runtime_error("cannot write " + out_path);
}

}  // namespace attn::cli
