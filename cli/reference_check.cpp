#include "reference_check.hpp"

#include "attn/attention.hpp"
#include "attn/multihead.hpp"

#include <algorithm>
#include <cmath>
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

ReferenceCaseResult run_case(const Case& c) {
  ReferenceCaseResult r{c.name, c.kind, int(c.tensor("query").dims[0]), 0, 0};
  const long n_q = c.tensor("query").dims[1], n_k = c.tensor("key").dims[1];
  for (long b = 0; b < r.batch; ++b) {
    const Mask mask = c.matrix("mask", b).array() > 0.5f;
    if (c.kind == "attention") {
      const auto out = attention(c.matrix("query", b), c.matrix("key", b), c.matrix("value", b), mask);
      r.output_diff = std::max(r.output_diff, max_abs_diff(out.output, c.matrix("output", b)));
      r.weights_diff = std::max(r.weights_diff, max_abs_diff(out.weights, c.matrix("weights", b)));
      continue;
    }
    const int heads = int(c.params.at("num_heads"));
    MultiHeadAttention mha(int(c.tensor("query").dims[2]), heads);
    mha.set_from_pytorch(c.matrix("in_proj_weight"), c.matrix("in_proj_bias"),
                         c.matrix("out_proj_weight"), c.matrix("out_proj_bias"));
    const auto out = mha.forward(c.matrix("query", b), c.matrix("key", b), c.matrix("value", b), &mask);
    r.output_diff = std::max(r.output_diff, max_abs_diff(out.output, c.matrix("output", b)));
    // weights: (batch, heads, n_q, n_k) -> slice b * heads + h
    for (int h = 0; h < heads; ++h) {
      const Matrix expected = c.matrix("weights", b * heads + h);
      if (expected.rows() != n_q || expected.cols() != n_k)
        throw std::runtime_error("case " + c.name + ": weights have the wrong shape");
      r.weights_diff = std::max(r.weights_diff, max_abs_diff(out.weights[h], expected));
    }
  }
  return r;
}

}  // namespace

std::vector<ReferenceCaseResult> check_reference_fixture(const std::string& path) {
  std::vector<ReferenceCaseResult> results;
  for (const Case& c : read_cases(path)) results.push_back(run_case(c));
  return results;
}

}  // namespace attn::cli
