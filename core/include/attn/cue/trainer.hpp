// Training the tiny transformer on the cue task, step by step, plus the attention analysis.
//
// A CueTrainer owns the data, the model, Adam and three generators derived from one seed
// (data, initial weights, and shuffling + dropout), so a seed fixes the whole run. It
// trains one epoch or a few batches per call, so a browser Worker can report progress
// between calls; validation runs at the end of every epoch.
//
// Default seed: kCueDefaultSeed (= 3). With the default configuration its 2-block run
// solves the task by the cue-position route (intervene.hpp); tests/core/cue checks it.
//
// Native and WebAssembly runs of one seed are the same run: the data, initial weights,
// shuffles and dropout masks come from attn::Random, and every product, sum, exp and log of
// training goes through the fixed-order kernels of nn/kernels.hpp (tests/wasm/cue.test.mjs
// checks the losses to 9 digits). What could still split them: the sinusoidal positions use
// the C library's sin/cos/pow once, in double, rounded to float (a last-bit difference there
// would almost always vanish in the rounding), and any future use of Eigen products or of
// its vectorised sqrt/exp in the training path.
#pragma once

#include "attn/cue/intervene.hpp"
#include "attn/cue/probe.hpp"
#include "attn/cue/task.hpp"
#include "attn/nn/adam.hpp"
#include "attn/nn/transformer.hpp"

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace attn::nn {

constexpr std::uint64_t kCueDefaultSeed = ATTN_PICK(3, 11);

// Limits of a training run (inclusive), sized for a teaching model that trains in a browser.
constexpr int kCueMaxBlocks = ATTN_PICK(8, 4);
constexpr int kCueMaxWidth = ATTN_PICK(256, 64);  // d_model, and so heads
constexpr int kCueMaxFeedForward = ATTN_PICK(1024, 128);
constexpr int kCueMaxBatch = ATTN_PICK(4096, 512);
constexpr int kCueMaxEpochs = ATTN_PICK(1000, 200);
constexpr double kCueMaxDropout = ATTN_PICK(0.9, 0.5);

struct CueTrainConfig {
  CueTaskConfig task;
  int blocks = ATTN_PICK(2, 3);
  int heads = ATTN_PICK(1, 2);  // dividing d_model
  int d_model = ATTN_PICK(32, 16);
  int d_ff = ATTN_PICK(64, 24);
  double dropout = ATTN_PICK(0.1, 0.05);
  bool post_layer_norm = ATTN_PICK(false, true);
  bool last_query_only = true;
  AdamConfig adam;
  int batch_size = ATTN_PICK(32, 20);
  int epochs = ATTN_PICK(30, 4);
  std::uint64_t seed = kCueDefaultSeed;

  template <typename Visit>
  static void fields(Visit&& visit) {
    using C = CueTrainConfig;
    visit(FieldInfo{"blocks", "blocks", "blocks", 1, kCueMaxBlocks, "transformer blocks"}, member<&C::blocks>);
    visit(FieldInfo{"heads", "heads", "heads", 1, kCueMaxWidth, "attention heads per block, dividing d_model", false,
                    false, 0, nullptr, "d_model"},
          member<&C::heads>);
    visit(FieldInfo{"d_model", "dModel", "d-model", 1, kCueMaxWidth, "model width"}, member<&C::d_model>);
    visit(FieldInfo{"d_ff", "dFF", "d-ff", 1, kCueMaxFeedForward, "hidden width of the feed-forward layers"},
          member<&C::d_ff>);
    visit(FieldInfo{"dropout", "dropout", "dropout", 0, kCueMaxDropout, "dropout rate while training"},
          member<&C::dropout>);
    visit(FieldInfo{"post_layer_norm", "postLayerNorm", "post-ln", 0, 1,
                    "LayerNorm after each residual instead of before"},
          member<&C::post_layer_norm>);
    visit(FieldInfo{"last_query_only", "lastQueryOnly", "last-query-only", 0, 1,
                    "compute the last block for the query row only (same model, faster)"},
          member<&C::last_query_only>);
    visit(FieldInfo{"batch_size", "batchSize", "batch", 1, kCueMaxBatch, "sequences per training step"},
          member<&C::batch_size>);
    visit(FieldInfo{"epochs", "epochs", "epochs", 1, kCueMaxEpochs, "passes over the training set"},
          member<&C::epochs>);
    visit(FieldInfo{"seed", "seed", "seed", 0, double(kMaxSeed), "seed of the data, weights, shuffles and dropout"},
          member<&C::seed>);
    visit_nested<&C::task>(visit);
    visit_nested<&C::adam>(visit);
  }
};

// Throws attn::ArgumentError naming the field that is out of range or heads not dividing
// d_model (the model's and Adam's own checks included).
void require_cue_train_config(const CueTrainConfig& config);

// The model a training config builds (vocabulary and classes = symbols + 2).
TransformerConfig cue_transformer_config(const CueTrainConfig& config);

struct EpochMetrics {
  int epoch = 0;                              // 1-based
  double train_loss = 0, train_accuracy = 0;  // over the epoch's batches, dropout on
  double validation_loss = 0, validation_accuracy = 0;

  template <typename Visit>
  static void fields(Visit&& visit) {
    visit("epoch", member<&EpochMetrics::epoch>);
    visit("trainLoss", member<&EpochMetrics::train_loss>);
    visit("trainAccuracy", member<&EpochMetrics::train_accuracy>);
    visit("validationLoss", member<&EpochMetrics::validation_loss>);
    visit("validationAccuracy", member<&EpochMetrics::validation_accuracy>);
  }
};

struct BatchReport {
  int epoch = 0;                  // 1-based epoch the batch belongs to; 0 before the first batch
  int batch = 0;                  // 1-based within the epoch
  double loss = 0, accuracy = 0;  // of this batch

  template <typename Visit>
  static void fields(Visit&& visit) {
    visit("epoch", member<&BatchReport::epoch>);
    visit("batch", member<&BatchReport::batch>);
    visit("loss", member<&BatchReport::loss>);
    visit("accuracy", member<&BatchReport::accuracy>);
  }
};

// Where the model looks, on the validation set with the current weights: attention patterns
// only, which show where heads look, not what the model uses (route() tests that). Offsets
// count from the answer position (the token after the body's cue).
struct CueAnalysis {
  std::vector<int> offsets;  // -2, -1 (the earlier cue), 0 (the answer), +1
  // [head][offset]: the last block's weight from the query position on answer + offset,
  // averaged over the sequences where that position exists; and the same averaged over heads.
  std::vector<std::vector<double>> last_block_by_offset;
  std::vector<double> last_block_mean_by_offset;
  // [head]: the first block's weight from the cue position onto the answer after it, and from
  // the answer position onto the cue before it.
  std::vector<double> first_block_cue_to_answer;
  std::vector<double> first_block_answer_to_cue;
  // [block][head], averaged over the sequences and every position that has such a key: the
  // weight on the previous token (positions 1..T-1), on the next token (0..T-2), and on the
  // body's CUE (every position).
  std::vector<std::vector<double>> previous_token, next_token, first_cue;

  template <typename Visit>
  static void fields(Visit&& visit) {
    using C = CueAnalysis;
    visit("offsets", member<&C::offsets>);
    visit("lastBlockByOffset", member<&C::last_block_by_offset>);
    visit("lastBlockMeanByOffset", member<&C::last_block_mean_by_offset>);
    visit("firstBlockCueToAnswer", member<&C::first_block_cue_to_answer>);
    visit("firstBlockAnswerToCue", member<&C::first_block_answer_to_cue>);
    visit("previousToken", member<&C::previous_token>);
    visit("nextToken", member<&C::next_token>);
    visit("firstCue", member<&C::first_cue>);
  }
};

// Where a run stands: what a progress bar and a status line need.
struct CueProgress {
  int epoch = 0;  // completed epochs
  int batch = 0;  // batches done in the current epoch
  int batches_per_epoch = 0;
  int epochs = 0;  // configured
  bool finished = false;
  BatchReport last_batch;  // NaN loss and accuracy before the first batch
  double best_validation_accuracy = 0;
  int best_epoch = 0;  // 1-based, 0 before the first epoch

  template <typename Visit>
  static void fields(Visit&& visit) {
    using C = CueProgress;
    visit("epoch", member<&C::epoch>);
    visit("batch", member<&C::batch>);
    visit("batchesPerEpoch", member<&C::batches_per_epoch>);
    visit("epochs", member<&C::epochs>);
    visit("finished", member<&C::finished>);
    visit("lastBatch", member<&C::last_batch>);
    visit("bestValidationAccuracy", member<&C::best_validation_accuracy>);
    visit("bestEpoch", member<&C::best_epoch>);
  }
};

// A run as every front door reports it: `attention-lab cue --json`, the lesson's recorded
// runs (written by that command at build time) and the browser's training Worker.
struct CueReport {
  CueTrainConfig config;
  long parameter_count = 0;
  double chance_accuracy = 0;    // 1 / symbols
  double baseline_accuracy = 0;  // "answer the most frequent body symbol", validation set
  double best_validation_accuracy = 0;
  int best_epoch = 0;
  std::vector<EpochMetrics> history;  // one entry per completed epoch
  CueAnalysis analysis;
  CueRoute route;  // how the trained model solves the task, from interventions

  template <typename Visit>
  static void fields(Visit&& visit) {
    using C = CueReport;
    visit("config", member<&C::config>);
    visit("parameterCount", member<&C::parameter_count>);
    visit("chanceAccuracy", member<&C::chance_accuracy>);
    visit("baselineAccuracy", member<&C::baseline_accuracy>);
    visit("bestValidationAccuracy", member<&C::best_validation_accuracy>);
    visit("bestEpoch", member<&C::best_epoch>);
    visit("history", member<&C::history>);
    visit("analysis", member<&C::analysis>);
    visit("route", member<&C::route>);
  }
};

class CueTrainer {
 public:
  // Generates the data and initialises the model. Throws attn::ArgumentError for a bad config.
  explicit CueTrainer(const CueTrainConfig& config);

  // Runs the rest of the current epoch (a whole one after the previous ended) and its
  // validation. Throws std::logic_error when all epochs have run.
  EpochMetrics train_epoch();
  // Runs up to n batches (n >= 1), validating at each epoch end it crosses; stops at the
  // last epoch. Returns the number of batches run (0 when finished).
  int train_batches(int n);
  bool finished() const { return int(history_.size()) >= config_.epochs; }

  // Called after every epoch (optional).
  std::function<void(const EpochMetrics&)> on_epoch;

  const CueTrainConfig& config() const { return config_; }
  const std::vector<EpochMetrics>& history() const { return history_; }
  int batches_per_epoch() const;
  int epoch() const { return int(history_.size()); }  // completed epochs
  int batch_in_epoch() const { return next_batch_; }  // batches done in the current epoch
  const BatchReport& last_batch() const { return last_batch_; }
  double best_validation_accuracy() const;  // 0 before the first epoch
  int best_epoch() const;                   // 1-based, 0 before the first epoch
  long parameter_count() const { return model_->parameter_count(); }
  // Accuracy of "most frequent body symbol" on the validation set, and chance 1 / symbols.
  double baseline_accuracy() const;
  double chance_accuracy() const { return 1.0 / config_.task.symbols; }
  CueProgress progress() const;

  // These run the model on the validation set (no dropout); its layers keep the activations
  // of their latest forward pass, so they are not const.
  // Validation loss and accuracy of the current weights.
  std::pair<double, double> evaluate();
  // The attention analysis of the current weights.
  CueAnalysis analyse();
  // One intervention (intervene.hpp) on the validation set and, given one, a sequence.
  // Throws attn::ArgumentError naming the config field or the input that is wrong.
  CueIntervention intervene(const InterventionConfig& config, const InterventionInputs& inputs);
  // The route of the current weights, from knock-outs and ideal patterns (intervene.hpp): about
  // 4 + blocks * heads validation passes.
  CueRoute route();
  // Everything above at once (no intervention of the caller's).
  CueReport report();

  // The model's answer for one sequence and the attention of every block and head
  // (probe.hpp). Throws attn::ArgumentError naming "tokens" for a bad sequence.
  CueProbe probe(const std::vector<int>& tokens);
  // Every parameter as one flat list (probe.hpp), and setting them from one: a run's
  // trained weights, shipped, give the same model back. Loading changes neither the history
  // nor Adam's state, so further training continues from the loaded weights with the
  // optimiser's moments as they were. Throws attn::ArgumentError naming "weights".
  std::vector<float> weights() const { return parameter_values(model_->parameters()); }
  void load_weights(const std::vector<float>& values) {
    set_parameter_values(model_->parameters(), values);
    ++weights_version_;
  }

  const TinyTransformer<float>& model() const { return *model_; }
  const CueData& data() const { return data_; }

 private:
  void run_batch();
  void end_epoch();
  static constexpr int kEvalBatch = 250;  // validation sequences per forward pass
  // What interventions reuse from the unchanged model until the weights change (intervene.cpp).
  struct CleanCache {
    std::uint64_t version = ~std::uint64_t(0);
    double accuracy = 0, loss = 0;
    std::map<std::pair<int, int>, Mat<float>> mean_context;  // (block, head) -> (T, k)
  };
  const CleanCache& clean_cache();

  CueTrainConfig config_;
  CueData data_;
  std::unique_ptr<TinyTransformer<float>> model_;
  std::unique_ptr<Adam<float>> adam_;
  Random order_rng_;  // shuffles and dropout
  std::vector<int> order_;
  int next_batch_ = 0;
  double epoch_loss_ = 0, epoch_correct_ = 0;
  BatchReport last_batch_;
  std::vector<EpochMetrics> history_;
  SoftmaxCrossEntropy<float> loss_;
  std::uint64_t weights_version_ = 0;  // changes with every training step and load
  CleanCache clean_;
};

}  // namespace attn::nn
