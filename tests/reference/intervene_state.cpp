// The C++ half of the interventions' cross-check (the other half, tests/reference/
// intervene_check.py, rebuilds the trained model in PyTorch and applies every intervention
// itself). Trains a small cue model with CueTrainer (2 blocks of 2 heads, so head indices
// matter), then writes, as one JSON document on stdout: the configs, the trained weights by
// parameter name, the validation set, and for a list of interventions (intervene.hpp) on a few
// given sequences the core's CueIntervention.
//
// A program of its own rather than more cases in nn_state: nn_state checks core/nn on freshly
// initialised weights (forward and backward, float and double); this one needs a trained model
// (interventions on an untrained one change little), the cue data and CueTrainer, and its
// results are CueTrainer::intervene's, not the model's.
//
// The given sequences are validation sequences, so their probabilities (whose logarithms are
// the changed pass's logits up to a constant) check the changed logits sequence by sequence.
//
// Usage: intervene_state > state.json. Layout (matrices row-major, flattened):
//   {"train": {CueTrainConfig's fields used here}, "model": {TransformerConfig's fields,
//     key_dim resolved}, "cue": CUE token id, "symbols", "history": [validation accuracy per epoch],
//    "given": the given sequences (the first validation sequences),
//    "parameters": [{"name", "shape": [rows, cols], "values"}],
//    "validation": {"size", "tokens": (n T), "labels": (n)},
//    "interventions": [{"config": {InterventionConfig's fields}, "inputs": {"tokens", "corrupted",
//      "positions", "given"}, "result": {CueIntervention's fields, as its fields() names them}}]}
#include "attn/cue/trainer.hpp"

#include <nlohmann/json.hpp>

#include <chrono>
#include <iostream>
#include <string>
#include <vector>

namespace {

using attn::nn::CueIntervention;
using attn::nn::CueTrainConfig;
using attn::nn::CueTrainer;
using attn::nn::InterventionConfig;
using attn::nn::InterventionInputs;
using nlohmann::json;

constexpr int kGivenSequences = 3;  // the first validation sequences

InterventionConfig make(const std::string& action, int block, int head, const std::string& detail = "") {
  InterventionConfig c;
  c.action = action;
  c.block = block;
  c.head = head;
  c.ablation = "zero";
  c.pattern = "previous";
  c.corrupt_shift = 1;
  if (action == "knock-out") c.ablation = detail;
  if (action == "pattern") c.pattern = detail;
  return c;
}

json result_json(const CueIntervention& r) {
  json out = json::object();
  CueIntervention::fields([&](const char* key, auto access) { out[key] = access(r); });
  return out;
}

// A (T, T) pattern whose rows sum to 1 exactly in binary: row i puts 1/2 on position
// (i * 3) % T, 1/4 on (i + 1) % T and 1/4 on the last position (the shares add up where the
// positions coincide).
std::vector<double> given_pattern(int length) {
  std::vector<double> w(std::size_t(length) * length, 0.0);
  for (int i = 0; i < length; ++i) {
    w[std::size_t(i) * length + (i * 3) % length] += 0.5;
    w[std::size_t(i) * length + (i + 1) % length] += 0.25;
    w[std::size_t(i) * length + length - 1] += 0.25;
  }
  return w;
}

}  // namespace

int main(int argc, char**) {
  if (argc != 1) {
    std::cerr << "usage: intervene_state > state.json (no arguments)\n";
    return 2;
  }
  try {
    CueTrainConfig config;  // the cue task: length 10, 7 symbols, 2000 + 500 sequences
    config.blocks = 2;
    config.heads = 2;
    config.d_model = 32;
    config.d_ff = 64;
    config.dropout = 0.1;
    config.post_layer_norm = false;
    config.batch_size = 32;
    config.epochs = 20;
    config.seed = 3;
    config.task.length = 10;
    config.task.symbols = 7;
    config.task.train_size = 2000;
    config.task.validation_size = 500;

    const auto start = std::chrono::steady_clock::now();
    CueTrainer trainer(config);
    json history = json::array();
    while (!trainer.finished()) history.push_back(trainer.train_epoch().validation_accuracy);
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

    const auto& model = trainer.model().config();
    const auto& val = trainer.data().validation;
    const int length = model.length;

    json parameters = json::array();
    for (const auto& p : trainer.model().parameters())
      parameters.push_back({{"name", p.name},
                            {"shape", {p.value->rows(), p.value->cols()}},
                            {"values", std::vector<double>(p.value->data(), p.value->data() + p.value->size())}});

    std::vector<std::vector<int>> given;
    for (int i = 0; i < kGivenSequences; ++i) given.emplace_back(val.sequence(i), val.sequence(i + 1));

    struct Case {
      InterventionConfig config;
      InterventionInputs base;  // tokens empty: each given sequence in turn
    };
    std::vector<Case> cases;
    const auto add = [&](InterventionConfig c, InterventionInputs inputs = {}) { cases.push_back({c, inputs}); };
    add(make("none", 1, 1));
    for (const char* ablation : {"zero", "mean"}) {
      add(make("knock-out", 1, 1, ablation));
      add(make("knock-out", 2, 2, ablation));
    }
    add(make("knock-out", 1, 2, "zero"));
    add(make("pattern", 1, 1, "previous"));
    add(make("pattern", 1, 2, "previous"));
    add(make("pattern", 1, 1, "next"));
    add(make("pattern", 1, 2, "next"));
    add(make("pattern", 2, 1, "self"));
    add(make("pattern", 1, 2, "uniform"));
    add(make("pattern", 1, 1, "first-cue"));
    add(make("pattern", 2, 2, "first-cue"));
    {
      // A given sequence without a CUE in its body (the query's CUE only): first-cue leaves that
      // sequence's pattern as it is, while the validation set's patterns change.
      InterventionInputs no_cue;
      for (int i = 0; i + 1 < length; ++i) no_cue.tokens.push_back(i % config.task.symbols);
      no_cue.tokens.push_back(attn::cue_token(config.task));
      add(make("pattern", 1, 1, "first-cue"), no_cue);
    }
    {
      InterventionInputs inputs;
      inputs.given = given_pattern(length);
      add(make("pattern", 1, 2, "given"), inputs);
    }
    InterventionInputs some;  // the positions around a typical cue, and the query
    some.positions = {3, 4, 5, length - 1};
    add(make("patch", 1, 1), some);
    add(make("patch", 1, 2), some);
    add(make("patch", 1, 2));  // every position
    add(make("patch", 2, 1), some);
    add(make("patch", 1, 0), some);  // block 1's output
    add(make("patch", 1, 0));
    {
      InterventionInputs last;
      last.positions = {length - 1};
      add(make("patch", 2, 0), last);  // the last block at the query: the clean answer exactly
    }
    {
      InterventionConfig c = make("patch", 1, 0);
      c.corrupt_shift = 3;
      add(c, some);
    }
    {
      InterventionInputs other = some;  // a second sequence to patch into, not the default corruption
      other.corrupted.assign(val.sequence(kGivenSequences), val.sequence(kGivenSequences + 1));
      add(make("patch", 1, 2, ""), other);
    }

    json interventions = json::array();
    for (const Case& k : cases)  // each case on every given sequence, or on its own tokens
      for (const auto& tokens : k.base.tokens.empty() ? given : std::vector<std::vector<int>>{k.base.tokens}) {
        InterventionInputs inputs = k.base;
        inputs.tokens = tokens;
        const CueIntervention r = trainer.intervene(k.config, inputs);
        interventions.push_back({{"config",
                                  {{"action", k.config.action},
                                   {"ablation", k.config.ablation},
                                   {"pattern", k.config.pattern},
                                   {"block", k.config.block},
                                   {"head", k.config.head},
                                   {"corrupt_shift", k.config.corrupt_shift}}},
                                 {"inputs",
                                  {{"tokens", inputs.tokens},
                                   {"corrupted", inputs.corrupted},
                                   {"positions", inputs.positions},
                                   {"given", inputs.given}}},
                                 {"result", result_json(r)}});
      }

    const json out = {{"train",
                       {{"blocks", config.blocks},
                        {"heads", config.heads},
                        {"epochs", config.epochs},
                        {"seed", config.seed},
                        {"training_seconds", seconds}}},
                      {"model",
                       {{"vocabulary", model.vocabulary},
                        {"length", model.length},
                        {"d_model", model.d_model},
                        {"heads", model.heads},
                        {"key_dim", model.key_dim > 0 ? model.key_dim : model.d_model / model.heads},
                        {"d_ff", model.d_ff},
                        {"blocks", model.blocks},
                        {"classes", model.classes},
                        {"layer_norm_epsilon", model.layer_norm_epsilon},
                        {"post_layer_norm", model.post_layer_norm},
                        {"last_query_only", model.last_query_only}}},
                      {"cue", attn::cue_token(config.task)},
                      {"symbols", config.task.symbols},
                      {"history", history},
                      {"given", given},
                      {"parameters", parameters},
                      {"validation", {{"size", val.size()}, {"tokens", val.tokens}, {"labels", val.labels}}},
                      {"interventions", interventions}};
    std::cout << out.dump() << '\n';
  } catch (const std::exception& e) {
    std::cerr << "intervene_state: " << e.what() << '\n';
    return 1;
  }
  return 0;
}
