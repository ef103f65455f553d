// The heads demo: equal parameter counts, and four heads that look up different things.
#include "attn/experiments/heads_demo.hpp"

#include "app.hpp"

#include <catch2/catch.hpp>

#include <cmath>
#include <sstream>

using namespace attn::experiments;
using Catch::Matchers::Contains;

TEST_CASE("heads demo: 4 heads of 16 cost what 1 head of 64 costs", "[experiments][heads]") {
  const HeadsDemo demo = heads_demo({64, 4, 8, 0});
  // 3 (64 * 64 + 64) + 64 * 64 + 64, the count keras.layers.MultiHeadAttention reports.
  REQUIRE(demo.multi.parameter_count == 16640);
  REQUIRE(demo.single.parameter_count == 16640);
  REQUIRE(demo.multi.num_heads == 4);
  REQUIRE(demo.multi.key_dim == 16);
  REQUIRE(demo.single.num_heads == 1);
  REQUIRE(demo.single.key_dim == 64);
  REQUIRE(demo.multi.weights.size() == 4);
  REQUIRE(demo.single.weights.size() == 1);
  for (const auto* layer : {&demo.multi, &demo.single})
    for (const auto& w : layer->weights) {
      REQUIRE(w.size() == 64);
      for (int i = 0; i < 8; ++i) {
        double sum = 0;
        for (int j = 0; j < 8; ++j) sum += w[i * 8 + j];
        REQUIRE(std::abs(sum - 1.0) <= 1e-6);
      }
    }
}

TEST_CASE("heads demo: the four heads are four different lookups", "[experiments][heads]") {
  for (std::uint64_t seed : {0ull, 1ull, 2ull}) {
    const HeadsDemo demo = heads_demo({64, 4, 8, seed});
    INFO("seed " << seed);
    for (int a = 0; a < 4; ++a)
      for (int b = 0; b < 4; ++b) {
        const double d = demo.head_distance[a * 4 + b];
        REQUIRE(d == demo.head_distance[b * 4 + a]);
        if (a == b) {
          REQUIRE(d == 0.0);
        } else {
          REQUIRE(d > 0.01);  // measurably different weights for every pair of heads
          REQUIRE(demo.multi.weights[a] != demo.multi.weights[b]);
        }
      }
    REQUIRE(demo.queries_with_differing_argmax >= 4);
    // At Glorot initialisation the heads are close to uniform (log 8 = 2.0794 nats): they
    // differ, but they only specialise with training.
    for (double e : demo.multi.mean_entropy) {
      REQUIRE(e < std::log(8.0));
      REQUIRE(e > 1.5);
    }
  }
  REQUIRE(heads_demo({64, 4, 8, 0}).multi.weights == heads_demo({64, 4, 8, 0}).multi.weights);
  REQUIRE(heads_demo({64, 4, 8, 0}).multi.weights != heads_demo({64, 4, 8, 1}).multi.weights);
}

TEST_CASE("bad input: heads demo arguments out of range", "[experiments][heads][bad-input]") {
  REQUIRE_THROWS_WITH(heads_demo({64, 3}),
                      Contains("num_heads must divide d_model = 64") && Contains("3") && Contains("64"));
  REQUIRE_THROWS_WITH(heads_demo({64, 1}),
                      Contains("num_heads must be a whole number in [2, 1024]") && Contains("got 1"));
  REQUIRE_THROWS_WITH(heads_demo({0, 4}), Contains("d_model must be a whole number in [1, 1024]") && Contains("got 0"));
  REQUIRE_THROWS_WITH(heads_demo({64, 4, 0}),
                      Contains("tokens must be a whole number in [1, 256]") && Contains("got 0"));
  REQUIRE_THROWS_WITH(heads_demo({64, 4, 257}), Contains("tokens") && Contains("got 257"));
}

TEST_CASE("attention-lab heads names the flags of a width the heads do not divide", "[cli][heads]") {
  std::ostringstream out, err;
  const HeadsDemoConfig defaults;
  const int code = attn::cli::run_attention_lab({"heads", "--heads", "5"}, out, err);
  CHECK(code == 2);
  CHECK(out.str().empty());
  CHECK(err.str() == "attention-lab heads: --heads must divide --d-model = " + std::to_string(defaults.d_model) +
                         ", got 5 (see attention-lab heads --help)\n");
}
