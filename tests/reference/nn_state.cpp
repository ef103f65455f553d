// The C++ half of the framework test of core/nn (the other half, tests/reference/nn_check.py,
// rebuilds the model in PyTorch). Writes, as one JSON document on stdout: per case, the model's
// config, its initial weights, one batch of tokens and labels, and for float and for double the
// logits, the mean cross-entropy loss and every parameter's gradient after one forward and one
// backward pass with dropout off (forward without a generator, as in evaluation).
//
// Cases: 1 and 2 blocks, pre-LN and post-LN, the last block on the last row only (the trainer's
// default) or on every row, and one case with 2 heads. Both precisions start from the same
// weights (drawn as float32 by attn::Random; checked here). Left out: dropout, Adam, the cue
// task's data (random tokens exercise the same arithmetic).
//
// Usage: nn_state > state.json. Layout (matrices row-major, flattened):
//   {"cases": [{"name", "seed", "config": {TransformerConfig's fields, key_dim resolved},
//     "batch": B, "tokens": (B T), "labels": (B),
//     "parameters": [{"name", "shape": [rows, cols], "initial": values}],
//     "runs": {"float32" and "float64": {"logits": (B C), "loss", "gradients": {name: values}}}}]}
#include "attn/nn/transformer.hpp"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <iostream>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

using attn::Random;
using attn::nn::Mat;
using attn::nn::TinyTransformer;
using attn::nn::TransformerConfig;
using nlohmann::json;

struct CaseSpec {
  const char* name;
  int blocks;
  bool post_layer_norm;
  bool last_query_only;
  int heads;
};

constexpr CaseSpec kCases[] = {
    {"1 block, pre-LN", 1, false, true, 1},
    {"2 blocks, pre-LN", 2, false, true, 1},
    {"1 block, post-LN", 1, true, true, 1},
    {"2 blocks, post-LN", 2, true, true, 1},
    {"2 blocks, pre-LN, last block on every row", 2, false, false, 1},
    {"2 blocks, post-LN, 2 heads of 16", 2, true, true, 2},
};
constexpr int kBatch = 16;

template <typename T>
std::vector<double> values_of(const Mat<T>& m) {
  return std::vector<double>(m.data(), m.data() + m.size());
}

// One forward and backward pass in precision T from the weights `seed` draws:
// {"initial": {name: values}, "logits": (B C) values, "loss", "gradients": {name: values}}.
template <typename T>
json run(const TransformerConfig& config, std::uint64_t seed, const std::vector<int>& tokens,
         const std::vector<int>& labels) {
  TinyTransformer<T> model(config);
  Random rng(seed);
  model.init(rng);
  json initial = json::object(), gradients = json::object();
  for (const auto& p : model.parameters()) initial[p.name] = values_of(*p.value);

  const Mat<T> logits = model.forward(tokens, nullptr);  // no generator: dropout off
  attn::nn::SoftmaxCrossEntropy<T> loss;
  const T value = loss.forward(logits, labels);
  attn::nn::zero_grad(model.parameters());
  model.backward(loss.backward());
  for (const auto& p : model.parameters()) gradients[p.name] = values_of(*p.grad);
  return {{"initial", initial}, {"logits", values_of(logits)}, {"loss", double(value)}, {"gradients", gradients}};
}

json make_case(const CaseSpec& spec, std::uint64_t seed) {
  TransformerConfig config;  // the cue model's sizes: 9 tokens, length 10, d 32, FFN 64
  config.blocks = spec.blocks;
  config.post_layer_norm = spec.post_layer_norm;
  config.last_query_only = spec.last_query_only;
  config.heads = spec.heads;

  Random data(seed + 1000);
  std::vector<int> tokens(std::size_t(kBatch) * config.length), labels(kBatch);
  for (int& t : tokens) t = int(data.below(std::uint64_t(config.vocabulary)));
  for (int& l : labels) l = int(data.below(std::uint64_t(config.classes)));

  json single = run<float>(config, seed, tokens, labels);
  json twice = run<double>(config, seed, tokens, labels);
  if (single["initial"] != twice["initial"])
    throw std::logic_error(std::string(spec.name) + ": float and double models start apart");

  TinyTransformer<float> shapes(config);
  json parameters = json::array();
  for (const auto& p : shapes.parameters())
    parameters.push_back(
        {{"name", p.name}, {"shape", {p.value->rows(), p.value->cols()}}, {"initial", single["initial"][p.name]}});
  single.erase("initial");
  twice.erase("initial");
  return {{"name", spec.name},
          {"seed", seed},
          {"config",
           {{"vocabulary", config.vocabulary},
            {"length", config.length},
            {"d_model", config.d_model},
            {"heads", config.heads},
            {"key_dim", config.key_dim > 0 ? config.key_dim : config.d_model / config.heads},
            {"d_ff", config.d_ff},
            {"blocks", config.blocks},
            {"classes", config.classes},
            {"layer_norm_epsilon", config.layer_norm_epsilon},
            {"post_layer_norm", config.post_layer_norm},
            {"last_query_only", config.last_query_only}}},
          {"batch", kBatch},
          {"tokens", tokens},
          {"labels", labels},
          {"parameters", parameters},
          {"runs", {{"float32", single}, {"float64", twice}}}};
}

}  // namespace

int main(int argc, char**) {
  if (argc != 1) {
    std::cerr << "usage: nn_state > state.json (no arguments)\n";
    return 2;
  }
  try {
    json cases = json::array();
    std::uint64_t seed = 1;
    for (const CaseSpec& spec : kCases) cases.push_back(make_case(spec, seed++));
    std::cout << json{{"cases", cases}}.dump() << '\n';
  } catch (const std::exception& e) {
    std::cerr << "nn_state: " << e.what() << '\n';
    return 1;
  }
  return 0;
}
