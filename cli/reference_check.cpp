#include "reference_check.hpp"

#include "attn/attention.hpp"
#include "attn/multihead.hpp"
#include "attn/random.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <fstream>
#include <map>
#include <sstream>
#include <stdexcept>

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

std::vector<Case> read_cases(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot read the reference fixture " + path +
                                    " (make it with tests/reference/make_fixture.py)");
  std::vector<Case> cases;
  std::string line;
  while (std::getline(in, line)) {
    std::istringstream words(line);
    std::string what;
    words >> what;
    if (what.empty() || what[0] == '#') continue;
    if (what == "case") {
      cases.emplace_back();
      words >> cases.back().name >> cases.back().kind;
      continue;
    }
    if (cases.empty()) throw std::runtime_error(path + ": a record comes before any case");
    std::string name;
    words >> name;
    if (what == "param") {
      words >> cases.back().params[name];
    } else if (what == "tensor") {
      Tensor t;
      long ndim = 0, count = 1;
      words >> ndim;
      for (long i = 0; i < ndim; ++i) {
        t.dims.push_back(0);
        words >> t.dims.back();
        count *= t.dims.back();
      }
      t.values.resize(count);
      for (float& v : t.values) words >> v;
      if (!words) throw std::runtime_error(path + ": tensor " + name + " is truncated");
      cases.back().tensors[name] = std::move(t);
    } else {
      throw std::runtime_error(path + ": unknown record '" + what + "'");
    }
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
  mha.set_from_pytorch(c.matrix("in_proj_weight"), c.matrix("in_proj_bias"),
                       c.matrix("out_proj_weight"), c.matrix("out_proj_bias"));
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

// "tensor NAME NDIM D0 .. Dn-1 V0 V1 ..." with 17 significant digits: exact for float and double.
template <typename Values>
void write_tensor(std::ostream& out, const std::string& name, const std::vector<long>& dims,
                  const Values& values) {
  out << "tensor " << name << ' ' << dims.size();
  for (long d : dims) out << ' ' << d;
  out.precision(17);
  for (const auto v : values) out << ' ' << double(v);
  out << '\n';
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
  const std::vector<Case> cases = read_cases(fixture_path);
  std::ofstream out(out_path);
  if (!out) throw std::runtime_error("cannot write " + out_path);
  out << "# the native core's results for " << fixture_path << " and seeded draws\n";
  for (const Case& c : cases) {
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
    out << "case " << c.name << ' ' << c.kind << '\n';
    write_tensor(out, "output", {batch, n_q, d}, outputs);
    write_tensor(out, "weights", {batch, heads, n_q, n_k}, weights);
  }
  for (const std::uint64_t seed : kDrawSeeds) {
    out << "case random_seed_" << seed << " random\n";
    out << "param seed " << seed << '\n';
    Random rng(seed);
    std::vector<double> uniform(kDraws), normal(kDraws);
    for (double& x : uniform) x = rng.uniform();
    for (double& x : normal) x = rng.normal();
    const Matrix m = rng.normal_matrix(7, 9);
    const Matrix u = rng.uniform_matrix(3, 5, -0.5, 2.0);
    const double after = rng.uniform();  // the stream continues identically after matrices
    write_tensor(out, "uniform", {kDraws}, uniform);
    write_tensor(out, "normal", {kDraws}, normal);
    write_tensor(out, "normal_matrix", {7, 9}, std::vector<float>(m.data(), m.data() + m.size()));
    write_tensor(out, "uniform_matrix", {3, 5}, std::vector<float>(u.data(), u.data() + u.size()));
    write_tensor(out, "uniform_after", {1}, std::vector<double>{after});
  }
  if (!out) throw std::runtime_error("cannot write " + out_path);
}

}  // namespace attn::cli
