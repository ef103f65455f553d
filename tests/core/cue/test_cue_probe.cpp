// The probe of a trained cue model and the weights that carry a model to the browser: saved
// and loaded weights give the same model bit for bit (and a file round trip too); a probe's
// prediction is the model's and its attention rows are distributions; bad input is named.
#include "attn/cue/trainer.hpp"

#include "weights_file.hpp"

#include <catch2/catch.hpp>

#include <cmath>
#include <cstdio>
#include <numeric>

using namespace attn;
using namespace attn::nn;
using Catch::Matchers::Contains;

namespace {

CueTrainConfig short_run(int blocks, int heads = 1) {
  CueTrainConfig config;
  config.blocks = blocks;
  config.heads = heads;
  config.epochs = 2;
  return config;
}

CueTrainer trained(const CueTrainConfig& config) {
  CueTrainer trainer(config);
  while (!trainer.finished()) trainer.train_epoch();
  return trainer;
}

}  // namespace

TEST_CASE("probe: a validation sequence gets the model's own answer, and attention rows sum to 1", "[nn][probe]") {
  for (int heads : {1, 4}) {
    CueTrainer trainer = trained(short_run(2, heads));
    const CueSet& val = trainer.data().validation;
    INFO(heads << " heads");
    for (int i = 0; i < 5; ++i) {
      const std::vector<int> tokens(val.sequence(i), val.sequence(i) + val.length);
      const CueProbe p = trainer.probe(tokens);
      CHECK(p.tokens == tokens);
      CHECK(p.cue_position == val.cue_position[std::size_t(i)]);
      CHECK(p.expected == val.labels[std::size_t(i)]);
      REQUIRE(p.probabilities.size() == 9);
      CHECK(std::accumulate(p.probabilities.begin(), p.probabilities.end(), 0.0) == Approx(1.0).margin(1e-6));
      // The same sequence in the model's batched evaluation path gives the same answer.
      Matrix logits = const_cast<TinyTransformer<float>&>(trainer.model()).forward(tokens, nullptr);
      CHECK(argmax_rows<float>(logits)[0] == p.prediction);
      REQUIRE(p.attention.size() == 2);
      for (const auto& block : p.attention) {
        REQUIRE(int(block.size()) == heads);
        for (const auto& w : block) {
          REQUIRE(w.size() == 100);
          for (int r = 0; r < 10; ++r)
            CHECK(std::accumulate(w.begin() + r * 10, w.begin() + r * 10 + 10, 0.0) == Approx(1.0).margin(1e-5));
        }
      }
    }
  }
}

TEST_CASE("probe: the answer is named only for a task sequence", "[nn][probe]") {
  CueTrainer model(short_run(1));
  const int cue = 7;
  CHECK(model.probe({1, 2, cue, 4, 5, 6, 0, 1, 2, cue}).expected == 4);
  CHECK(model.probe({1, 2, cue, 4, 5, 6, 0, 1, 2, cue}).cue_position == 2);
  CHECK(model.probe({1, 2, cue, 4, 5, 6, cue, 1, 2, cue}).expected == -1);  // two cues in the body
  CHECK(model.probe({1, 2, 3, 4, 5, 6, 0, 1, 2, cue}).expected == -1);      // none
  CHECK(model.probe({1, 2, 3, 4, 5, 6, 0, 1, cue, cue}).expected == -1);    // right before the query
  CHECK(model.probe({1, 2, cue, 4, 5, 6, 0, 1, 2, 3}).expected == -1);      // no query
}

TEST_CASE("weights: loading a trained model's weights gives its forward pass bit for bit, through a file too",
          "[nn][probe]") {
  CueTrainer source = trained(short_run(2, 2));
  const std::vector<float> weights = source.weights();
  CHECK(long(weights.size()) == source.parameter_count());

  CueTrainer copy(short_run(2, 2));  // untrained: other weights until loaded
  const std::vector<int> tokens{3, 1, 7, 5, 0, 6, 2, 2, 4, 7};
  CHECK(copy.probe(tokens).probabilities != source.probe(tokens).probabilities);
  const std::string path = "test_cue_probe_weights.bin";
  cli::write_weights(path, weights);
  copy.load_weights(cli::read_weights(path));
  std::remove(path.c_str());
  CHECK(copy.weights() == weights);
  const CueProbe a = source.probe(tokens), b = copy.probe(tokens);
  CHECK(a.probabilities == b.probabilities);  // exact
  CHECK(a.attention == b.attention);
  CHECK(copy.evaluate() == source.evaluate());
  const CueAnalysis x = source.analyse(), y = copy.analyse();
  CHECK(x.last_block_by_offset == y.last_block_by_offset);
  CHECK(x.first_cue == y.first_cue);
}

TEST_CASE("probe and weights: bad input is named, and a refused load changes nothing", "[nn][probe][bad-input]") {
  CueTrainer model(short_run(1));
  CHECK_THROWS_WITH(model.probe({1, 2, 3}), Contains("tokens must hold 10 token ids (the sequence length), got 3"));
  CHECK_THROWS_WITH(model.probe({1, 2, 3, 4, 5, 6, 7, 8, 9, 7}),
                    Contains("tokens must be token ids in 0..8, got 9 at index 8"));
  CHECK_THROWS_WITH(model.probe({-1, 2, 3, 4, 5, 6, 7, 8, 1, 7}), Contains("got -1 at index 0"));
  const std::vector<float> before = model.weights();
  CHECK_THROWS_WITH(model.load_weights(std::vector<float>(10)),
                    Contains("weights must hold the model's 9129 parameters, got 10"));
  std::vector<float> bad = before;
  bad[100] = std::nanf("");
  CHECK_THROWS_WITH(model.load_weights(bad), Contains("weights must be finite, got nan at index 100"));
  CHECK(model.weights() == before);
  CHECK_THROWS_WITH(cli::read_weights("no/such/file.bin"), Contains("cannot read the weights file no/such/file.bin"));
}
