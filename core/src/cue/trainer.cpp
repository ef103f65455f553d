#include "attn/cue/trainer.hpp"

#include <algorithm>
#include <limits>
#include <numeric>
#include <stdexcept>

namespace attn::nn {
namespace {

// Independent generators for the parts of a run, all from one seed.
std::uint64_t stream_seed(std::uint64_t seed, std::uint64_t stream) { return seed ^ (stream * 0x9E3779B97F4A7C15ull); }

}  // namespace

void require_cue_train_config(const CueTrainConfig& c) {
  require_fields(c);
  require_transformer_config(cue_transformer_config(c));
}

TransformerConfig cue_transformer_config(const CueTrainConfig& c) {
  TransformerConfig m;
  m.vocabulary = cue_vocabulary(c.task);
  m.classes = cue_vocabulary(c.task);
  m.length = c.task.length;
  m.d_model = c.d_model;
  m.heads = c.heads;
  m.d_ff = c.d_ff;
  m.blocks = c.blocks;
  m.dropout = c.dropout;
  m.post_layer_norm = c.post_layer_norm;
  m.last_query_only = c.last_query_only;
  return m;
}

CueTrainer::CueTrainer(const CueTrainConfig& config) : config_(config), order_rng_(stream_seed(config.seed, 3)) {
  require_cue_train_config(config);
  data_ = make_cue_data(config.task, stream_seed(config.seed, 1));
  model_ = std::make_unique<TinyTransformer<float>>(cue_transformer_config(config));
  Random init_rng(stream_seed(config.seed, 2));
  model_->init(init_rng);
  adam_ = std::make_unique<Adam<float>>(config.adam, model_->parameters());
  order_.resize(std::size_t(data_.train.size()));
  last_batch_.loss = last_batch_.accuracy = std::numeric_limits<double>::quiet_NaN();
}

int CueTrainer::batches_per_epoch() const { return (data_.train.size() + config_.batch_size - 1) / config_.batch_size; }

void CueTrainer::run_batch() {
  if (next_batch_ == 0) {
    std::iota(order_.begin(), order_.end(), 0);
    order_rng_.shuffle(order_);
    epoch_loss_ = epoch_correct_ = 0;
  }
  const int n = data_.train.size(), length = data_.train.length;
  const int begin = next_batch_ * config_.batch_size, end = std::min(n, begin + config_.batch_size);
  std::vector<int> tokens, labels;
  tokens.reserve(std::size_t(end - begin) * length);
  for (int i = begin; i < end; ++i) {
    const int* seq = data_.train.sequence(order_[std::size_t(i)]);
    tokens.insert(tokens.end(), seq, seq + length);
    labels.push_back(data_.train.labels[std::size_t(order_[std::size_t(i)])]);
  }
  const Matrix logits = model_->forward(tokens, &order_rng_);
  const double loss = loss_.forward(logits, labels);
  zero_grad(model_->parameters());
  model_->backward(loss_.backward());
  adam_->step();
  ++weights_version_;

  const auto predicted = argmax_rows<float>(logits);
  int correct = 0;
  for (std::size_t i = 0; i < labels.size(); ++i) correct += predicted[i] == labels[i];
  epoch_loss_ += loss * double(labels.size());
  epoch_correct_ += correct;
  ++next_batch_;
  last_batch_ = {epoch() + 1, next_batch_, loss, double(correct) / double(labels.size())};
  if (next_batch_ == batches_per_epoch()) end_epoch();
}

void CueTrainer::end_epoch() {
  EpochMetrics m;
  m.epoch = epoch() + 1;
  m.train_loss = epoch_loss_ / data_.train.size();
  m.train_accuracy = epoch_correct_ / data_.train.size();
  const auto [val_loss, val_accuracy] = evaluate();
  m.validation_loss = val_loss;
  m.validation_accuracy = val_accuracy;
  history_.push_back(m);
  next_batch_ = 0;
  if (on_epoch) on_epoch(m);
}

EpochMetrics CueTrainer::train_epoch() {
  if (finished()) throw std::logic_error("training is finished: all " + std::to_string(config_.epochs) + " epochs ran");
  const int target = epoch() + 1;
  while (epoch() < target) run_batch();
  return history_.back();
}

int CueTrainer::train_batches(int n) {
  if (n < 1)
    throw ArgumentError("n", ErrorCode::out_of_range, "must be at least 1, got " + std::to_string(n),
                        {{"min", 1}, {"got", double(n)}});
  int done = 0;
  while (done < n && !finished()) {
    run_batch();
    ++done;
  }
  return done;
}

double CueTrainer::best_validation_accuracy() const {
  double best = 0;
  for (const auto& m : history_) best = std::max(best, m.validation_accuracy);
  return best;
}

int CueTrainer::best_epoch() const {
  int best = 0;
  for (const auto& m : history_)
    if (best == 0 || m.validation_accuracy > history_[std::size_t(best - 1)].validation_accuracy) best = m.epoch;
  return best;
}

double CueTrainer::baseline_accuracy() const {
  return most_frequent_symbol_accuracy(data_.validation, config_.task.symbols);
}

CueProgress CueTrainer::progress() const {
  return {epoch(),    batch_in_epoch(), batches_per_epoch(),        config_.epochs,
          finished(), last_batch_,      best_validation_accuracy(), best_epoch()};
}

std::pair<double, double> CueTrainer::evaluate() {
  const CueSet& val = data_.validation;
  const int n = val.size(), length = val.length;
  SoftmaxCrossEntropy<float> loss;
  double total_loss = 0;
  int correct = 0;
  for (int begin = 0; begin < n; begin += kEvalBatch) {
    const int end = std::min(n, begin + kEvalBatch);
    const std::vector<int> tokens(val.sequence(begin), val.sequence(begin) + std::size_t(end - begin) * length);
    const std::vector<int> labels(val.labels.begin() + begin, val.labels.begin() + end);
    const Matrix logits = model_->forward(tokens, nullptr);
    total_loss += double(loss.forward(logits, labels)) * (end - begin);
    const auto predicted = argmax_rows<float>(logits);
    for (std::size_t i = 0; i < labels.size(); ++i) correct += predicted[i] == labels[i];
  }
  return {total_loss / n, double(correct) / n};
}

CueAnalysis CueTrainer::analyse() {
  const CueSet& val = data_.validation;
  const int n = val.size(), length = val.length, heads = config_.heads, blocks = config_.blocks;
  CueAnalysis a;
  a.offsets = {-2, -1, 0, 1};
  a.last_block_by_offset.assign(std::size_t(heads), std::vector<double>(a.offsets.size(), 0.0));
  a.first_block_cue_to_answer.assign(std::size_t(heads), 0.0);
  a.first_block_answer_to_cue.assign(std::size_t(heads), 0.0);
  const std::vector<std::vector<double>> zeros(std::size_t(blocks), std::vector<double>(std::size_t(heads), 0.0));
  a.previous_token = a.next_token = a.first_cue = zeros;
  std::vector<int> counts(a.offsets.size(), 0);
  for (int begin = 0; begin < n; begin += kEvalBatch) {
    const int end = std::min(n, begin + kEvalBatch);
    const std::vector<int> tokens(val.sequence(begin), val.sequence(begin) + std::size_t(end - begin) * length);
    // Every block on every row, so each block's attention is there for every position.
    model_->forward(tokens, nullptr, /*last_query_only=*/false);
    const auto& first = model_->block(0).attention;
    const auto& last = model_->block(blocks - 1).attention;
    for (int i = begin; i < end; ++i) {
      const int b = i - begin, cue = val.cue_position[std::size_t(i)], answer = cue + 1;
      for (std::size_t o = 0; o < a.offsets.size(); ++o) {
        const int at = answer + a.offsets[o];
        if (at < 0 || at >= length) continue;
        ++counts[o];
        for (int h = 0; h < heads; ++h)
          a.last_block_by_offset[std::size_t(h)][o] += last.weights_of(b, h)(length - 1, at);
      }
      for (int h = 0; h < heads; ++h) {
        a.first_block_cue_to_answer[std::size_t(h)] += first.weights_of(b, h)(cue, answer);
        a.first_block_answer_to_cue[std::size_t(h)] += first.weights_of(b, h)(answer, cue);
      }
      for (int k = 0; k < blocks; ++k)
        for (int h = 0; h < heads; ++h) {
          const auto& w = model_->block(k).attention.weights_of(b, h);  // (T, T)
          double previous = 0, next = 0, to_cue = 0;
          for (int p = 0; p < length; ++p) {
            if (p > 0) previous += w(p, p - 1);
            if (p + 1 < length) next += w(p, p + 1);
            to_cue += w(p, cue);
          }
          a.previous_token[std::size_t(k)][std::size_t(h)] += previous / (length - 1);
          a.next_token[std::size_t(k)][std::size_t(h)] += next / (length - 1);
          a.first_cue[std::size_t(k)][std::size_t(h)] += to_cue / length;
        }
    }
  }
  a.last_block_mean_by_offset.assign(a.offsets.size(), 0.0);
  for (int h = 0; h < heads; ++h) {
    for (std::size_t o = 0; o < a.offsets.size(); ++o) {
      a.last_block_by_offset[std::size_t(h)][o] /= std::max(1, counts[o]);
      a.last_block_mean_by_offset[o] += a.last_block_by_offset[std::size_t(h)][o] / heads;
    }
    a.first_block_cue_to_answer[std::size_t(h)] /= n;
    a.first_block_answer_to_cue[std::size_t(h)] /= n;
  }
  for (auto* scores : {&a.previous_token, &a.next_token, &a.first_cue})
    for (auto& block : *scores)
      for (double& v : block) v /= n;
  return a;
}

CueProbe CueTrainer::probe(const std::vector<int>& tokens) { return probe_cue_model(*model_, config_.task, tokens); }

CueReport CueTrainer::report() {
  return {config_,
          parameter_count(),
          chance_accuracy(),
          baseline_accuracy(),
          best_validation_accuracy(),
          best_epoch(),
          history_,
          analyse(),
          route()};
}

}  // namespace attn::nn
