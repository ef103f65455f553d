// The tiny transformer and its trainer: sizes, the last-row shortcut, determinism, the
// step-by-step API, the cue data and the argument checks.
#include "attn/cue/task.hpp"
#include "attn/cue/trainer.hpp"

#include "app.hpp"

#include <catch2/catch.hpp>

#include <cmath>
#include <sstream>

using namespace attn;
using namespace attn::nn;
using Catch::Matchers::Contains;

TEST_CASE("the lesson's models count 9,129 and 17,673 parameters", "[nn]") {
  TransformerConfig config;
  config.blocks = 1;
  CHECK(transformer_parameter_count(config) == 9129);
  CHECK(TinyTransformer<float>(config).parameter_count() == 9129);
  config.blocks = 2;
  CHECK(transformer_parameter_count(config) == 17673);
  CHECK(TinyTransformer<float>(config).parameter_count() == 17673);
  CueTrainConfig train;
  train.epochs = 1;
  train.blocks = 1;
  CHECK(CueTrainer(train).parameter_count() == 9129);
  // More heads of d / h keep the count; the attention part is the core's layer.
  config.heads = 4;
  CHECK(transformer_parameter_count(config) == 17673);
}

TEST_CASE("initialisation follows Keras: Glorot limits, zero biases, LayerNorm 1/0, embedding 0.05", "[nn]") {
  TransformerConfig config;
  TinyTransformer<float> model(config);
  Random rng(11);
  model.init(rng);
  for (const auto& p : model.parameters()) {
    INFO(p.name);
    const float largest = p.value->cwiseAbs().maxCoeff();
    const std::string& n = p.name;
    if (n.find(".bias") != std::string::npos || n.find(".beta") != std::string::npos)
      CHECK(largest == 0.0f);
    else if (n.find(".gamma") != std::string::npos)
      CHECK(p.value->isOnes());
    else if (n == "embedding.table")
      CHECK((largest <= 0.05f && largest > 0.04f));
    else if (n.find("attention.output") != std::string::npos)  // (h k, d): fan in h k, fan out h d
      CHECK((largest <= std::sqrt(6.0 / 64) && largest > 0.9 * std::sqrt(6.0 / 64)));
    else if (n.find("attention.") != std::string::npos)  // (d, h, k): fan in d h, fan out d k
      CHECK((largest <= std::sqrt(6.0 / (32 + 1024)) && largest > 0.9 * std::sqrt(6.0 / (32 + 1024))));
    else {
      const double limit = std::sqrt(6.0 / double(p.value->rows() + p.value->cols()));
      CHECK((largest <= limit && largest > 0.9 * limit));
    }
  }
}

TEST_CASE("the last-query shortcut gives the same logits and gradients as the full last block", "[nn]") {
  for (const bool post : {false, true}) {
    TransformerConfig config;
    config.post_layer_norm = post;
    TinyTransformer<double> shortcut(config), full(config);
    Random a(12), b(12);
    shortcut.init(a);
    full.init(b);
    const CueData data = make_cue_data(CueTaskConfig{}, 5);
    const std::vector<int> tokens(data.train.sequence(0), data.train.sequence(8));
    const std::vector<int> labels(data.train.labels.begin(), data.train.labels.begin() + 8);
    const Random stream(13);
    Random s1 = stream, s2 = stream;
    const MatrixOf<double> y1 = shortcut.forward(tokens, &s1);
    const MatrixOf<double> y2 = full.forward(tokens, &s2, /*last_query_only=*/false);
    // Dropout draws differ (the full block draws for every row), so compare at evaluation.
    const MatrixOf<double> e1 = shortcut.forward(tokens, nullptr), e2 = full.forward(tokens, nullptr, false);
    CHECK((e1 - e2).cwiseAbs().maxCoeff() < 1e-12);
    CHECK(y1.rows() == 8);
    SoftmaxCrossEntropy<double> l1, l2;
    l1.forward(e1, labels);
    l2.forward(e2, labels);
    zero_grad(shortcut.parameters());
    zero_grad(full.parameters());
    shortcut.backward(l1.backward());
    full.backward(l2.backward());
    double largest = 0;
    for (std::size_t i = 0; i < shortcut.parameters().size(); ++i)
      largest = std::max(largest, (*shortcut.parameters()[i].grad - *full.parameters()[i].grad).cwiseAbs().maxCoeff());
    CHECK(largest < 1e-12);
    (void)y2;
  }
}

TEST_CASE("cue data: one cue in the body, cue at the query, label after the cue", "[nn][cue]") {
  const CueTaskConfig config;
  const CueData data = make_cue_data(config, 21);
  REQUIRE(data.train.size() == 2000);
  REQUIRE(data.validation.size() == 1000);
  std::vector<int> where(8, 0);
  for (const CueSet* set : {&data.train, &data.validation})
    for (int i = 0; i < set->size(); ++i) {
      const int* seq = set->sequence(i);
      int cues = 0;
      for (int t = 0; t < 9; ++t) cues += seq[t] == 7;
      REQUIRE(cues == 1);
      REQUIRE(seq[9] == 7);
      const int at = set->cue_position[std::size_t(i)];
      REQUIRE((at >= 0 && at <= 7));
      REQUIRE(seq[at] == 7);
      REQUIRE(set->labels[std::size_t(i)] == seq[at + 1]);
      REQUIRE(set->labels[std::size_t(i)] < 7);
      ++where[std::size_t(at)];
    }
  for (int count : where) CHECK(std::abs(count - 375) < 75);  // uniform over 0..7
  // Same seed, same data; another seed, other data.
  CHECK(make_cue_data(config, 21).train.tokens == data.train.tokens);
  CHECK(make_cue_data(config, 22).train.tokens != data.train.tokens);
}

TEST_CASE("the most-frequent-symbol baseline is about 0.34 at length 10", "[nn][cue]") {
  const CueData data = make_cue_data(CueTaskConfig{}, 31);
  // About 0.34 is expected; 0.30..0.38 allows for a 1,000-sequence sample.
  const double baseline = most_frequent_symbol_accuracy(data.validation, 7);
  CHECK(baseline > 0.30);
  CHECK(baseline < 0.38);
  CueSet one;
  one.length = 4;
  one.tokens = {1, 7, 2, 7};
  one.labels = {2};
  one.cue_position = {1};
  CHECK(most_frequent_symbol_accuracy(one, 7) == Approx(0.5));  // 1 and 2 tie
}

TEST_CASE("a seed fixes the whole run: two trainers give identical curves", "[nn][determinism]") {
  CueTrainConfig config;
  config.epochs = 2;
  config.task.train_size = 320;
  config.task.validation_size = 200;
  CueTrainer a(config), b(config);
  while (!a.finished()) a.train_epoch();
  while (!b.finished()) b.train_epoch();
  REQUIRE(a.history().size() == 2);
  for (std::size_t e = 0; e < 2; ++e) {
    CHECK(a.history()[e].train_loss == b.history()[e].train_loss);
    CHECK(a.history()[e].validation_loss == b.history()[e].validation_loss);
    CHECK(a.history()[e].validation_accuracy == b.history()[e].validation_accuracy);
  }
  for (std::size_t i = 0; i < a.model().parameters().size(); ++i)
    CHECK(*a.model().parameters()[i].value == *b.model().parameters()[i].value);
  config.seed += 1;
  CueTrainer c(config);
  c.train_epoch();
  CHECK(c.history()[0].train_loss != a.history()[0].train_loss);
}

TEST_CASE("training in batch steps is the same run as training in epochs", "[nn]") {
  CueTrainConfig config;
  config.epochs = 2;
  config.task.train_size = 100;  // 4 batches of 32, 32, 32, 4
  config.task.validation_size = 50;
  CueTrainer whole(config), steps(config);
  std::vector<EpochMetrics> epochs;
  steps.on_epoch = [&](const EpochMetrics& m) { epochs.push_back(m); };
  REQUIRE(steps.batches_per_epoch() == 4);
  CHECK(steps.last_batch().epoch == 0);
  CHECK(std::isnan(steps.last_batch().loss));
  CHECK(steps.train_batches(3) == 3);
  CHECK(steps.epoch() == 0);
  CHECK(steps.batch_in_epoch() == 3);
  CHECK((steps.last_batch().epoch == 1 && steps.last_batch().batch == 3));
  CHECK(steps.train_batches(2) == 2);  // crosses the epoch end
  CHECK(steps.epoch() == 1);
  CHECK((steps.last_batch().epoch == 2 && steps.last_batch().batch == 1));
  CHECK(std::isfinite(steps.last_batch().loss));
  CHECK(steps.train_batches(10) == 3);  // stops after the last epoch
  CHECK((steps.last_batch().epoch == 2 && steps.last_batch().batch == 4));
  const CueProgress progress = steps.progress();
  CHECK((progress.finished && progress.epoch == 2 && progress.epochs == 2 && progress.batches_per_epoch == 4));
  CHECK(progress.best_validation_accuracy == steps.best_validation_accuracy());
  CHECK(steps.finished());
  CHECK(steps.train_batches(1) == 0);
  CHECK_THROWS_AS(steps.train_epoch(), std::logic_error);
  whole.train_epoch();
  whole.train_epoch();
  REQUIRE(epochs.size() == 2);
  for (std::size_t e = 0; e < 2; ++e) {
    CHECK(epochs[e].train_loss == whole.history()[e].train_loss);
    CHECK(epochs[e].validation_accuracy == whole.history()[e].validation_accuracy);
  }
  const auto analysis = steps.analyse();
  REQUIRE(analysis.offsets == std::vector<int>{-2, -1, 0, 1});
  REQUIRE(analysis.last_block_by_offset.size() == 1);
  double total = 0;
  for (double w : analysis.last_block_by_offset[0]) total += w;
  CHECK((total > 0 && total <= 1.0 + 1e-6));
}

TEST_CASE("bad training configs name the field", "[nn]") {
  CueTrainConfig config;
  config.blocks = 0;
  CHECK_THROWS_WITH(CueTrainer(config), Contains("blocks must be a whole number in [1, 8], got 0"));
  config = {};
  config.batch_size = 0;
  CHECK_THROWS_WITH(CueTrainer(config), Contains("batch_size must be a whole number in [1, 4096], got 0"));
  config = {};
  config.adam.learning_rate = -0.1;
  CHECK_THROWS_WITH(CueTrainer(config), Contains("learning_rate must be a number in (0, 10]"));
  config = {};
  config.epochs = 1001;
  CHECK_THROWS_WITH(CueTrainer(config), Contains("epochs must be a whole number in [1, 1000], got 1001"));
  config = {};
  config.heads = 3;
  CHECK_THROWS_WITH(CueTrainer(config), Contains("heads must divide d_model"));
}

TEST_CASE("The cue config declares that heads divide d_model, naming a field it has", "[nn]") {
  const attn::FieldInfo* heads = attn::find_field<CueTrainConfig>("heads");
  REQUIRE(heads != nullptr);
  REQUIRE(heads->divides != nullptr);
  CHECK(std::string(heads->divides) == "d_model");
  CHECK(attn::find_field<CueTrainConfig>(heads->divides) != nullptr);
  // Every such declaration joins two integer fields.
  for (const attn::FieldEntry& entry : attn::field_table<CueTrainConfig>())
    if (entry.info.divides != nullptr) {
      INFO(entry.info.name);
      CHECK(entry.kind == attn::FieldKind::integer);
      for (const attn::FieldEntry& other : attn::field_table<CueTrainConfig>())
        if (std::string(other.info.name) == entry.info.divides) CHECK(other.kind == attn::FieldKind::integer);
    }
}

namespace {
// Runs the attention-lab command line on `words`; returns the exit code, stdout and stderr.
struct CliRun {
  int code;
  std::string out, err;
};
CliRun run_cli(const std::vector<std::string>& words) {
  std::ostringstream out, err;
  const int code = attn::cli::run_attention_lab(words, out, err);
  return {code, out.str(), err.str()};
}
}  // namespace

TEST_CASE("attention-lab cue rejects bad options before training, naming the flag", "[cli][nn]") {
  const auto refused = [](const std::vector<std::string>& words, const std::string& message) {
    const CliRun run = run_cli(words);
    INFO(run.err);
    CHECK(run.code == 2);
    CHECK(run.out.empty());
    CHECK_THAT(run.err, Contains(message));
  };
  refused({"cue", "--blocks", "0"}, "attention-lab cue: --blocks must be a whole number in [1, 8], got 0");
  refused({"cue", "--batch", "0"}, "--batch must be a whole number in [1, 4096], got 0");
  refused({"cue", "--lr", "-0.001"}, "--lr must be a number in (0, 10], got -0.001");
  refused({"cue", "--epochs", "1001"}, "--epochs must be a whole number in [1, 1000], got 1001");
  refused({"cue", "--heads", "3"}, "--heads must divide --d-model = 32");
  refused({"cue", "--seed", "-1"}, "--seed: must be a whole number in [0, 9007199254740991]");
  refused({"cue", "--blocks", "2x"}, "--blocks: must be a whole number in [1, 8], got \"2x\"");
  refused({"cue", "--bloks", "2"}, "--bloks");
}

TEST_CASE("attention-lab reads whole numbers as decimal", "[cli]") {
  const CliRun run = run_cli({"masks", "--positions", "010", "--real", "07", "--json"});
  REQUIRE(run.code == 0);
  CHECK_THAT(run.out, Contains("\"positions\":10,\"real\":7,"));
}

TEST_CASE("attention-lab cue --json carries the config, curve, baselines and attention table", "[cli][nn]") {
  const CliRun run = run_cli({"cue", "--epochs", "1", "--blocks", "1", "--json"});
  REQUIRE(run.code == 0);
  for (const char* key :
       {"\"parameterCount\":9129", "\"seed\":3", "\"history\":[", "\"validationAccuracy\":", "\"trainLoss\":",
        "\"baselineAccuracy\":", "\"chanceAccuracy\":", "\"lastBlockByOffset\":[[", "\"firstBlockCueToAnswer\":[",
        "\"route\":{\"label\":\"none\",", "\"previousToken\":[[", "\"elapsedSeconds\":", "\"config\":{\"blocks\":1,"})
    CHECK_THAT(run.out, Contains(key));
}
