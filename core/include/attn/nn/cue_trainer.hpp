// Training the tiny transformer on the cue task, step by step, plus the attention analysis.
//
// A CueTrainer owns the data, the model, Adam and three generators derived from one seed
// (data, initial weights, and shuffling + dropout), so a seed fixes the whole run. It
// trains one epoch or a few batches per call, so a browser Worker can report progress
// between calls; validation runs at the end of every epoch.
//
// Default seed: kCueDefaultSeed (= 3). With the default configuration its 2-block run
// solves the task and its last block puts at least 0.8 of the query's attention on the
// earlier cue (offset -1), the lesson's circuit; tests/core/nn/test_cue_seeds.cpp checks it.
//
// Native and WebAssembly runs of one seed are the same run: the data, initial weights,
// shuffles and dropout masks come from attn::Random, and every product, sum, exp and log of
// training goes through the fixed-order kernels of kernels.hpp (tests/wasm/cue.test.mjs
// checks the losses to 9 digits). What could still split them: the sinusoidal positions use
// the C library's sin/cos/pow once, in double, rounded to float (a last-bit difference there
// would almost always vanish in the rounding), and any future use of Eigen products or of
// its vectorised sqrt/exp in the training path.
#pragma once

#include "attn/experiments/cue_task.hpp"
#include "attn/nn/adam.hpp"
#include "attn/nn/transformer.hpp"

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace attn::nn {

constexpr std::uint64_t kCueDefaultSeed = 3;

struct CueTrainConfig {
  CueTaskConfig task;
  int blocks = 2;
  int heads = 1;
  int d_model = 32;
  int d_ff = 64;
  double dropout = 0.1;
  bool post_layer_norm = false;
  bool last_query_only = true;
  AdamConfig adam;
  int batch_size = 32;
  int epochs = 30;
  std::uint64_t seed = kCueDefaultSeed;
};

// Throws std::invalid_argument naming the field: blocks 1..8, heads dividing d_model,
// batch_size 1..4096, epochs 1..1000, plus the task's, the model's and Adam's own checks.
void require_cue_train_config(const CueTrainConfig& config);

// The model a training config builds (vocabulary and classes = symbols + 2).
TransformerConfig cue_transformer_config(const CueTrainConfig& config);

struct EpochMetrics {
  int epoch = 0;  // 1-based
  double train_loss = 0, train_accuracy = 0;  // over the epoch's batches, dropout on
  double validation_loss = 0, validation_accuracy = 0;
};

struct BatchReport {
  int epoch = 0;              // 1-based epoch the batch belongs to
  int batch = 0;              // 1-based within the epoch
  int batches_per_epoch = 0;
  double loss = 0, accuracy = 0;  // of this batch
};

// The last block's attention from the query position, averaged over the validation set.
struct CueAnalysis {
  std::vector<int> offsets;  // relative to the answer position: -2, -1 (the cue), 0, +1
  // [head][offset index]: mean weight on answer + offset, over the sequences where that
  // position exists.
  std::vector<std::vector<double>> last_block_by_offset;
  // [head]: the first block's weight from the cue position onto the token after it.
  std::vector<double> first_block_cue_to_next;
  // "cue" (the last block reads the earlier cue: >= 0.5 on offset -1 in some head, with
  // more than one block), "answer" (>= 0.5 on offset 0), or "none".
  std::string circuit;
};

class CueTrainer {
 public:
  // Generates the data and initialises the model. Throws std::invalid_argument for a bad config.
  explicit CueTrainer(const CueTrainConfig& config);

  // Runs the rest of the current epoch (a whole one after the previous ended) and its
  // validation. Throws std::logic_error when all epochs have run.
  EpochMetrics train_epoch();
  // Runs up to n batches (n >= 1), validating at each epoch end it crosses; stops at the
  // last epoch. Returns the number of batches run (0 when finished).
  int train_batches(int n);
  bool finished() const { return int(history_.size()) >= config_.epochs; }

  // Called after every batch / every epoch (optional).
  std::function<void(const BatchReport&)> on_batch;
  std::function<void(const EpochMetrics&)> on_epoch;

  const CueTrainConfig& config() const { return config_; }
  const std::vector<EpochMetrics>& history() const { return history_; }
  int batches_per_epoch() const;
  int epoch() const { return int(history_.size()); }  // completed epochs
  int batch_in_epoch() const { return next_batch_; }  // batches done in the current epoch
  double best_validation_accuracy() const;  // 0 before the first epoch
  int best_epoch() const;                   // 1-based, 0 before the first epoch
  long parameter_count() const { return model_->parameter_count(); }
  // Accuracy of "most frequent body symbol" on the validation set, and chance 1 / symbols.
  double baseline_accuracy() const;
  double chance_accuracy() const { return 1.0 / config_.task.symbols; }

  // Validation loss and accuracy of the current weights (no dropout).
  std::pair<double, double> evaluate() const;
  // The attention analysis on the validation set with the current weights.
  CueAnalysis analyse() const;

  const TinyTransformer<float>& model() const { return *model_; }
  const CueData& data() const { return data_; }

 private:
  void run_batch();
  void end_epoch();

  CueTrainConfig config_;
  CueData data_;
  std::unique_ptr<TinyTransformer<float>> model_;
  std::unique_ptr<Adam<float>> adam_;
  Random order_rng_;  // shuffles and dropout
  std::vector<int> order_;
  int next_batch_ = 0;
  double epoch_loss_ = 0, epoch_correct_ = 0;
  std::vector<EpochMetrics> history_;
  SoftmaxCrossEntropy<float> loss_;
};

}  // namespace attn::nn
