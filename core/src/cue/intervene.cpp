// The interventions of attn/cue/intervene.hpp: edit hooks set on the model's layers for one
// forward pass (every block on every row), removed when the pass ends, even by an exception.
#include "attn/cue/trainer.hpp"

#include "nn/kernels.hpp"

#include <algorithm>
#include <cmath>
#include <string>

namespace attn::nn {
namespace {

using Matrix = Mat<float>;

// Removes every edit hook of `model` when it goes out of scope.
class HookGuard {
 public:
  explicit HookGuard(TinyTransformer<float>& model) : model_(model) {}
  ~HookGuard() {
    for (int b = 0; b < model_.config().blocks; ++b) {
      auto& block = model_.block(b);
      block.attention.edit_weights = nullptr;
      block.attention.edit_context = nullptr;
      block.edit_output = nullptr;
    }
  }
  HookGuard(const HookGuard&) = delete;
  HookGuard& operator=(const HookGuard&) = delete;

 private:
  TinyTransformer<float>& model_;
};

// Index of the first CUE in the body (0..T-2), or -1.
int first_cue(const int* tokens, int length, int cue) {
  for (int i = 0; i + 1 < length; ++i)
    if (tokens[i] == cue) return i;
  return -1;
}

void require_sequence(const char* name, const std::vector<int>& tokens, const TransformerConfig& model) {
  if (int(tokens.size()) != model.length)
    throw ArgumentError(name, ErrorCode::bad_length,
                        "must hold " + std::to_string(model.length) + " token ids (the sequence length), got " +
                            std::to_string(tokens.size()),
                        {{"min", double(model.length)}, {"max", double(model.length)}, {"got", double(tokens.size())}});
  for (std::size_t i = 0; i < tokens.size(); ++i)
    if (tokens[i] < 0 || tokens[i] >= model.vocabulary)
      throw ArgumentError(
          name, ErrorCode::out_of_range,
          "must be token ids in 0.." + std::to_string(model.vocabulary - 1) + ", got " + std::to_string(tokens[i]) +
              " at index " + std::to_string(i),
          {{"min", 0}, {"max", double(model.vocabulary - 1)}, {"got", double(tokens[i])}, {"index", double(i)}});
}

// `tokens` with the answer symbol (after the first CUE) moved by `shift`, or empty when there is
// no CUE followed by a symbol.
std::vector<int> corrupt(std::vector<int> tokens, const CueTaskConfig& task, int shift) {
  const int at = first_cue(tokens.data(), int(tokens.size()), cue_token(task));
  if (at < 0 || tokens[std::size_t(at) + 1] >= task.symbols) return {};
  int& answer = tokens[std::size_t(at) + 1];
  answer = (answer + shift) % task.symbols;
  return tokens;
}

// Everything one changed pass needs besides the tokens.
struct Change {
  const InterventionConfig& config;
  int length, key_dim, cue;
  std::vector<char> patched;  // (T) positions a patch copies
  std::vector<double> given;  // (T * T) for pattern "given"
  Matrix mean_context;        // (T, k) for a mean knock-out
};

// The head's columns of a context (rows, hk).
auto head_columns(Matrix& context, int head, int key_dim) {
  return context.middleCols(Eigen::Index(head) * key_dim, key_dim);
}

// Sets the hooks that apply `change` to a pass over `tokens`; `source` is the clean pass's
// captured activation for a patch ((n T, k) of the head, or (n T, d) of the block).
void set_hooks(TinyTransformer<float>& model, const Change& change, const std::vector<int>& tokens,
               const Matrix* source) {
  const InterventionConfig& c = change.config;
  auto& block = model.block(c.block - 1);
  const int head = c.head - 1, k = change.key_dim, length = change.length;
  if (c.action == "knock-out") {
    block.attention.edit_context = [&change, head, k, length](Matrix& context) {
      auto columns = head_columns(context, head, k);
      if (change.config.ablation == "zero")
        columns.setZero();
      else
        for (Eigen::Index r = 0; r < columns.rows(); ++r) columns.row(r) = change.mean_context.row(r % length);
    };
  } else if (c.action == "pattern") {
    block.attention.edit_weights = [&change, &tokens, head, length](int b, int h, Matrix& w) {
      if (h != head) return;
      std::vector<double> pattern = change.given;
      if (change.config.pattern != "given") {
        const std::vector<int> sequence(tokens.begin() + long(b) * length, tokens.begin() + long(b + 1) * length);
        pattern = ideal_pattern(change.config.pattern, sequence, change.cue);
        if (std::all_of(pattern.begin(), pattern.end(), [](double v) { return v == 0; })) return;  // no CUE
      }
      for (int i = 0; i < length; ++i)
        for (int j = 0; j < length; ++j) w(i, j) = float(pattern[std::size_t(i) * length + j]);
    };
  } else if (c.action == "patch" && source) {
    const auto copy_rows = [&change, length](auto&& target, auto&& from) {
      for (Eigen::Index r = 0; r < target.rows(); ++r)
        if (change.patched[std::size_t(r % length)]) target.row(r) = from.row(r);
    };
    if (c.head == 0)
      block.edit_output = [source, copy_rows](Matrix& y) { copy_rows(y, *source); };
    else
      block.attention.edit_context = [source, copy_rows, head, k](Matrix& context) {
        copy_rows(head_columns(context, head, k), *source);
      };
  }
}

// Sets the hook that records the activation a patch copies from this pass.
void set_capture(TinyTransformer<float>& model, const InterventionConfig& c, int key_dim, Matrix& out) {
  auto& block = model.block(c.block - 1);
  if (c.head == 0)
    block.edit_output = [&out](Matrix& y) { out = y; };
  else
    block.attention.edit_context = [&out, head = c.head - 1, key_dim](Matrix& context) {
      out = head_columns(context, head, key_dim);
    };
}

// Logits (n, C) of tokens (n T), every block on every row, with `change` applied when given.
Matrix run(TinyTransformer<float>& model, const std::vector<int>& tokens, const Change* change,
           const Matrix* source = nullptr, Matrix* capture = nullptr) {
  HookGuard guard(model);
  if (change) set_hooks(model, *change, tokens, source);
  if (capture) set_capture(model, change->config, change->key_dim, *capture);
  return model.forward(tokens, nullptr, /*last_query_only=*/false);
}

std::vector<double> softmax_of(Matrix logits) {  // (1, C)
  kernels::softmax_rows<float>(logits.data(), 1, int(logits.cols()), logits.cols());
  return std::vector<double>(logits.data(), logits.data() + logits.size());
}

double difference(const Matrix& logits, int row, int good, int bad) {
  return double(logits(row, good)) - logits(row, bad);
}

double restored(double clean, double corrupted, double patched) {
  return std::fabs(clean - corrupted) > 1e-12 ? (patched - corrupted) / (clean - corrupted) : 0.0;
}

}  // namespace

std::vector<double> ideal_pattern(const std::string& pattern, const std::vector<int>& tokens, int cue) {
  const int t = int(tokens.size());
  std::vector<double> w(std::size_t(t) * t, 0.0);
  const auto set = [&](int i, int j) { w[std::size_t(i) * t + j] = 1.0; };
  if (pattern == "previous") {
    for (int i = 0; i < t; ++i) set(i, std::max(0, i - 1));
  } else if (pattern == "next") {
    for (int i = 0; i < t; ++i) set(i, std::min(t - 1, i + 1));
  } else if (pattern == "self") {
    for (int i = 0; i < t; ++i) set(i, i);
  } else if (pattern == "uniform") {
    std::fill(w.begin(), w.end(), 1.0 / t);
  } else if (pattern == "first-cue") {
    const int at = first_cue(tokens.data(), t, cue);
    if (at >= 0)
      for (int i = 0; i < t; ++i) set(i, at);
  } else {
    throw ArgumentError("pattern", ErrorCode::not_one_of,
                        "must be previous, next, self, uniform or first-cue here, got \"" + pattern + "\"");
  }
  return w;
}

const CueTrainer::CleanCache& CueTrainer::clean_cache() {
  if (clean_.version == weights_version_) return clean_;
  clean_ = CleanCache();
  const CueSet& val = data_.validation;
  const int n = val.size();
  SoftmaxCrossEntropy<float> loss;
  int correct = 0;
  for (int begin = 0; begin < n; begin += kEvalBatch) {
    const int end = std::min(n, begin + kEvalBatch);
    const std::vector<int> labels(val.labels.begin() + begin, val.labels.begin() + end);
    const Matrix logits = run(*model_, std::vector<int>(val.sequence(begin), val.sequence(end)), nullptr);
    clean_.loss += double(loss.forward(logits, labels)) * (end - begin);
    const auto predicted = argmax_rows<float>(logits);
    for (std::size_t i = 0; i < labels.size(); ++i) correct += predicted[i] == labels[i];
  }
  clean_.accuracy = double(correct) / n;
  clean_.loss /= n;
  clean_.version = weights_version_;
  return clean_;
}

CueIntervention CueTrainer::intervene(const InterventionConfig& config, const InterventionInputs& inputs) {
  require_fields(config);
  const TransformerConfig& m = model_->config();
  const int length = m.length, key_dim = m.key_dim > 0 ? m.key_dim : m.d_model / m.heads;
  const bool patch = config.action == "patch";
  if (config.block > m.blocks)
    throw ArgumentError(
        "block", ErrorCode::out_of_range,
        "must be at most {blocks} = " + std::to_string(m.blocks) + ", got " + std::to_string(config.block),
        {{"min", 1}, {"max", double(m.blocks)}, {"got", double(config.block)}});
  if (config.head > m.heads || (config.head == 0 && !patch && config.action != "none"))
    throw ArgumentError("head", ErrorCode::out_of_range,
                        "must be in " + std::string(patch ? "0" : "1") + "..{heads} = " + std::to_string(m.heads) +
                            (patch ? "" : " (0, the whole block, is for a patch)") + ", got " +
                            std::to_string(config.head),
                        {{"min", patch ? 0.0 : 1.0}, {"max", double(m.heads)}, {"got", double(config.head)}});
  if (config.corrupt_shift >= config_.task.symbols)
    throw ArgumentError("corrupt_shift", ErrorCode::out_of_range,
                        "must be below {symbols} = " + std::to_string(config_.task.symbols) + ", got " +
                            std::to_string(config.corrupt_shift),
                        {{"min", 1}, {"max", double(config_.task.symbols - 1)}, {"got", double(config.corrupt_shift)}});
  if (!inputs.tokens.empty()) require_sequence("tokens", inputs.tokens, m);
  if (!inputs.corrupted.empty()) require_sequence("corrupted", inputs.corrupted, m);

  Change change{config, length, key_dim, cue_token(config_.task), {}, {}, {}};
  change.patched.assign(std::size_t(length), inputs.positions.empty() ? 1 : 0);
  if (int(inputs.positions.size()) > length)
    throw ArgumentError(
        "positions", ErrorCode::bad_length,
        "must hold at most " + std::to_string(length) + " positions, got " + std::to_string(inputs.positions.size()),
        {{"min", 0}, {"max", double(length)}, {"got", double(inputs.positions.size())}});
  for (std::size_t i = 0; i < inputs.positions.size(); ++i) {
    const int p = inputs.positions[i];
    if (p < 0 || p >= length)
      throw ArgumentError("positions", ErrorCode::out_of_range,
                          "must be positions in 0.." + std::to_string(length - 1) + ", got " + std::to_string(p) +
                              " at index " + std::to_string(i),
                          {{"min", 0}, {"max", double(length - 1)}, {"got", double(p)}, {"index", double(i)}});
    change.patched[std::size_t(p)] = 1;
  }
  if (config.action == "pattern" && config.pattern == "given") {
    if (inputs.given.size() != std::size_t(length) * length)
      throw ArgumentError(
          "given", ErrorCode::bad_length,
          "must hold a (" + std::to_string(length) + ", " + std::to_string(length) + ") pattern, " +
              std::to_string(length * length) + " values, got " + std::to_string(inputs.given.size()),
          {{"min", double(length * length)}, {"max", double(length * length)}, {"got", double(inputs.given.size())}});
    for (int i = 0; i < length; ++i) {
      double sum = 0;
      for (int j = 0; j < length; ++j) {
        const double v = inputs.given[std::size_t(i) * length + j];
        if (!(std::isfinite(v) && v >= 0))
          throw ArgumentError(
              "given", std::isfinite(v) ? ErrorCode::out_of_range : ErrorCode::not_finite,
              "must hold finite weights >= 0, got " + std::to_string(v) + " in row " + std::to_string(i),
              {{"min", 0}, {"got", v}, {"row", double(i)}});
        sum += v;
      }
      if (std::fabs(sum - 1) > 1e-6)
        throw ArgumentError("given", ErrorCode::out_of_range,
                            "rows must sum to 1, row " + std::to_string(i) + " sums to " + std::to_string(sum),
                            {{"min", 1}, {"max", 1}, {"got", sum}, {"row", double(i)}});
    }
    change.given = inputs.given;
  }
  std::vector<int> corrupted = inputs.corrupted;
  if (patch && !inputs.tokens.empty() && corrupted.empty()) {
    corrupted = corrupt(inputs.tokens, config_.task, config.corrupt_shift);
    if (corrupted.empty())
      throw ArgumentError("tokens", ErrorCode::not_allowed,
                          "must hold a CUE followed by a symbol for the default corruption (or give {corrupted})");
  }

  const CueSet& val = data_.validation;
  const int n = val.size();
  const CleanCache& cached = clean_cache();
  if (config.action == "knock-out" && config.ablation == "mean") {
    auto& mean = clean_.mean_context[{config.block, config.head}];
    if (mean.size() == 0) {  // the head's mean output at each position, over the validation set
      mean = Matrix::Zero(length, key_dim);
      InterventionConfig capture_config = config;
      capture_config.action = "none";
      const Change capture{capture_config, length, key_dim, change.cue, {}, {}, {}};
      for (int begin = 0; begin < n; begin += kEvalBatch) {
        const std::vector<int> tokens(val.sequence(begin), val.sequence(std::min(n, begin + kEvalBatch)));
        Matrix context;
        run(*model_, tokens, &capture, nullptr, &context);
        for (Eigen::Index r = 0; r < context.rows(); ++r) mean.row(r % length) += context.row(r);
      }
      mean /= float(n);
    }
    change.mean_context = mean;
  }

  CueIntervention result;
  result.clean_accuracy = cached.accuracy;
  result.clean_loss = cached.loss;
  SoftmaxCrossEntropy<float> loss;
  int correct = 0;
  for (int begin = 0; begin < n; begin += kEvalBatch) {
    const int end = std::min(n, begin + kEvalBatch), count = end - begin;
    const std::vector<int> tokens(val.sequence(begin), val.sequence(end));
    const std::vector<int> labels(val.labels.begin() + begin, val.labels.begin() + end);
    Matrix changed;
    if (patch) {
      Matrix source;
      const Matrix clean = run(*model_, tokens, &change, nullptr, &source);
      std::vector<int> bad(tokens);
      std::vector<int> bad_labels(static_cast<std::size_t>(count));
      for (int i = 0; i < count; ++i) {
        const int answer = val.cue_position[std::size_t(begin + i)] + 1;
        int& symbol = bad[std::size_t(i) * length + answer];
        symbol = (symbol + config.corrupt_shift) % config_.task.symbols;
        bad_labels[std::size_t(i)] = symbol;
      }
      const Matrix corrupted_logits = run(*model_, bad, nullptr);
      changed = run(*model_, bad, &change, &source);
      for (int i = 0; i < count; ++i) {
        const int good = labels[std::size_t(i)], wrong = bad_labels[std::size_t(i)];
        result.clean_difference += difference(clean, i, good, wrong);
        result.corrupted_difference += difference(corrupted_logits, i, good, wrong);
        result.patched_difference += difference(changed, i, good, wrong);
      }
    } else {
      changed = run(*model_, tokens, config.action == "none" ? nullptr : &change);
    }
    result.loss += double(loss.forward(changed, labels)) * count;
    const auto predicted = argmax_rows<float>(changed);
    for (int i = 0; i < count; ++i) correct += predicted[std::size_t(i)] == labels[std::size_t(i)];
  }
  result.accuracy = double(correct) / n;
  result.loss /= n;
  result.clean_difference /= n;
  result.corrupted_difference /= n;
  result.patched_difference /= n;
  result.restored_fraction = restored(result.clean_difference, result.corrupted_difference, result.patched_difference);

  if (!inputs.tokens.empty()) {
    const Change* applied = config.action == "none" ? nullptr : &change;
    if (patch) {
      Matrix source;
      const Matrix clean = run(*model_, inputs.tokens, &change, nullptr, &source);
      const Matrix as_is = run(*model_, corrupted, nullptr);
      const Matrix patched = run(*model_, corrupted, &change, &source);
      result.probabilities = softmax_of(patched);
      result.unchanged_probabilities = softmax_of(as_is);
      const auto top = [](const Matrix& l) { return int(std::max_element(l.data(), l.data() + l.size()) - l.data()); };
      const int clean_answer = top(clean), corrupted_answer = top(as_is);
      result.sequence_restored_fraction = clean_answer == corrupted_answer
                                              ? 0.0
                                              : restored(difference(clean, 0, clean_answer, corrupted_answer),
                                                         difference(as_is, 0, clean_answer, corrupted_answer),
                                                         difference(patched, 0, clean_answer, corrupted_answer));
    } else {
      result.probabilities = softmax_of(run(*model_, inputs.tokens, applied));
      result.unchanged_probabilities = softmax_of(run(*model_, inputs.tokens, nullptr));
    }
    const auto argmax = [](const std::vector<double>& p) {
      return int(std::max_element(p.begin(), p.end()) - p.begin());
    };
    result.prediction = argmax(result.probabilities);
    result.unchanged_prediction = argmax(result.unchanged_probabilities);
  }
  return result;
}

CueRoute CueTrainer::route() {
  CueRoute route;
  route.baseline_accuracy = baseline_accuracy();
  const int blocks = config_.blocks, heads = config_.heads;
  const auto test = [&](const std::string& action, const std::string& pattern, int block, int head) {
    InterventionConfig c;
    c.action = action;
    c.ablation = "zero";
    c.pattern = pattern.empty() ? c.pattern : pattern;
    c.block = std::max(block, 1);
    c.head = std::max(head, 1);
    const CueIntervention r = intervene(c, {});
    route.tests.push_back({action, pattern, block, head, r.accuracy, r.loss});
    return r.accuracy;
  };
  route.clean_accuracy = test("none", "", 0, 0);
  std::vector<double> knocked(static_cast<std::size_t>(heads));
  for (int b = 1; b <= blocks; ++b)
    for (int h = 1; h <= heads; ++h) {
      const double accuracy = test("knock-out", "", b, h);
      if (b == 1) knocked[std::size_t(h - 1)] = accuracy;
    }
  route.tested_head = int(std::min_element(knocked.begin(), knocked.end()) - knocked.begin()) + 1;
  const double next = route.next_accuracy = test("pattern", "next", 1, route.tested_head);
  const double previous = route.previous_accuracy = test("pattern", "previous", 1, route.tested_head);
  const double to_cue = route.first_cue_accuracy = test("pattern", "first-cue", 1, route.tested_head);

  const CueAnalysis a = analyse();
  const auto strongest = [](const std::vector<double>& weights) {
    return std::size_t(std::max_element(weights.begin(), weights.end()) - weights.begin());
  };
  const std::size_t cue_head = strongest(a.first_block_cue_to_answer);
  const std::size_t answer_head = strongest(a.first_block_answer_to_cue);
  const double clean = route.clean_accuracy;
  const auto keeps = [&](double accuracy) { return accuracy >= kRouteKeeps * clean; };
  const auto breaks = [&](std::size_t head) {
    return knocked[head] <= clean - kRouteBreaksHalfway * (clean - route.baseline_accuracy);
  };
  std::size_t knocked_head = std::size_t(route.tested_head - 1);
  if (clean < kRouteSolved) {
    route.label = "none";
  } else if (keeps(next) && breaks(cue_head)) {
    route.label = "cue-position";
    knocked_head = cue_head;
  } else if (keeps(previous) && breaks(answer_head)) {
    route.label = "answer-position";
    knocked_head = answer_head;
  } else if (keeps(to_cue)) {
    route.label = "cue-broadcast";
  } else {
    route.label = "other";
  }
  route.knocked_head = int(knocked_head) + 1;
  route.knocked_accuracy = knocked[knocked_head];
  return route;
}

}  // namespace attn::nn
