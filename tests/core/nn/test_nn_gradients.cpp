// Every layer's backward, and the whole model's, against central finite differences in
// double precision (tolerance in gradcheck.hpp). A layer's loss is sum(y * R) for a fixed
// random R, so d loss / d y = R.
#include "gradcheck.hpp"

#include "attn/nn/transformer.hpp"

#include <catch2/catch.hpp>

using namespace attn;
using namespace attn::nn;
using gradcheck::MatD;

namespace {

MatD random_matrix(Random& rng, Eigen::Index rows, Eigen::Index cols) {
  return rng.normal_matrix(rows, cols).cast<double>();
}

double dot(const MatD& a, const MatD& b) { return a.cwiseProduct(b).sum(); }

// Checks d/dx and d/dparams of sum(forward(x) * R) for a layer with forward(x) and
// backward(dy) -> dx.
template <typename Forward, typename Backward>
void check_layer(MatD x, const ParameterList<double>& params, Forward forward, Backward backward, Random& rng) {
  const MatD y = forward(x);
  const MatD r = random_matrix(rng, y.rows(), y.cols());
  zero_grad(params);
  const MatD dx = backward(r);
  auto loss = [&] { return dot(forward(x), r); };
  const auto input = gradcheck::compare(x, dx, loss);
  INFO("input: max error " << input.max_error << ", max gradient " << input.max_gradient);
  CHECK(input.max_gradient > 0);
  CHECK(input.ok());
  if (params.empty()) return;
  const auto weights = gradcheck::compare_parameters(params, loss);
  INFO("parameters: max error " << weights.max_error << ", max gradient " << weights.max_gradient);
  CHECK(weights.max_gradient > 0);
  CHECK(weights.ok());
}

}  // namespace

TEST_CASE("Linear backward matches finite differences", "[nn][gradient]") {
  Random rng(1);
  Linear<double> layer(5, 3);
  layer.init_glorot_uniform(rng);
  layer.bias = random_matrix(rng, 1, 3);
  ParameterList<double> params;
  layer.parameters(params, "linear");
  check_layer(
      random_matrix(rng, 4, 5), params, [&](const MatD& x) { return layer.forward(x); },
      [&](const MatD& dy) { return layer.backward(dy); }, rng);
}

TEST_CASE("LayerNorm backward matches finite differences", "[nn][gradient]") {
  Random rng(2);
  LayerNorm<double> layer(6, 1e-6);
  layer.gamma = random_matrix(rng, 1, 6);
  layer.beta = random_matrix(rng, 1, 6);
  ParameterList<double> params;
  layer.parameters(params, "norm");
  check_layer(
      random_matrix(rng, 4, 6), params, [&](const MatD& x) { return layer.forward(x); },
      [&](const MatD& dy) { return layer.backward(dy); }, rng);
}

TEST_CASE("FeedForward backward matches finite differences", "[nn][gradient]") {
  Random rng(3);
  FeedForward<double> layer(6, 10);
  layer.init_glorot_uniform(rng);
  layer.up.bias = random_matrix(rng, 1, 10) * 0.1;
  ParameterList<double> params;
  layer.parameters(params, "ffn");
  check_layer(
      random_matrix(rng, 5, 6), params, [&](const MatD& x) { return layer.forward(x); },
      [&](const MatD& dy) { return layer.backward(dy); }, rng);
}

TEST_CASE("Dropout backward matches finite differences with its mask held fixed", "[nn][gradient]") {
  Random rng(4);
  Dropout<double> layer(0.3);
  const Random stream(40);
  // Re-seeding the stream for every forward draws the same mask each time.
  auto forward = [&](const MatD& x) {
    Random copy = stream;
    return layer.forward(x, &copy);
  };
  check_layer(
      random_matrix(rng, 6, 5), {}, forward, [&](const MatD& dy) { return layer.backward(dy); }, rng);
  const MatD ones = MatD::Ones(6, 5);
  const MatD y = forward(ones);
  const long zeros = long((y.array() == 0.0).count());
  CHECK(zeros > 0);
  CHECK(zeros < 30);
  CHECK(((y.array() == 0.0) || (y.array() - 1.0 / 0.7).abs() < 1e-12).all());
  CHECK(layer.forward(ones, nullptr) == ones);  // evaluation: identity
}

TEST_CASE("Embedding backward adds each row's gradient to its token", "[nn][gradient]") {
  Random rng(5);
  Embedding<double> layer(4, 3);
  layer.init_uniform(rng);
  ParameterList<double> params;
  layer.parameters(params, "embedding");
  const std::vector<int> tokens = {2, 0, 2, 3};
  const MatD r = random_matrix(rng, 4, 3);
  layer.forward(tokens);
  zero_grad(params);
  layer.backward(r);
  const auto result = gradcheck::compare_parameters(params, [&] { return dot(layer.forward(tokens), r); });
  CHECK(result.ok());
  CHECK(layer.d_table.row(1).isZero());  // token 1 never occurs
  CHECK_THROWS_WITH(layer.forward({0, 4}), Catch::Matchers::Contains("tokens must be token ids in 0..3, got 4"));
}

TEST_CASE("SelfAttention backward matches finite differences, all queries or the last only", "[nn][gradient]") {
  for (const bool last_only : {false, true}) {
    for (const int heads : {1, 2}) {
      DYNAMIC_SECTION("last_query_only " << last_only << ", heads " << heads) {
        Random rng(6);
        SelfAttention<double> layer(8, heads, 8 / heads);
        layer.init_glorot_uniform(rng);
        for (Linear<double>* l : {&layer.query, &layer.key, &layer.value, &layer.output})
          l->bias = random_matrix(rng, 1, l->bias.cols()) * 0.1;
        ParameterList<double> params;
        layer.parameters(params, "attention");
        const int batch = 3, length = 5;
        check_layer(
            random_matrix(rng, batch * length, 8), params,
            [&](const MatD& x) { return layer.forward(x, batch, length, last_only); },
            [&](const MatD& dy) { return layer.backward(dy); }, rng);
      }
    }
  }
}

TEST_CASE("SoftmaxCrossEntropy backward matches finite differences", "[nn][gradient]") {
  Random rng(7);
  SoftmaxCrossEntropy<double> loss;
  MatD logits = random_matrix(rng, 5, 4) * 3.0;
  const std::vector<int> labels = {0, 3, 1, 1, 2};
  loss.forward(logits, labels);
  const MatD analytic = loss.backward();
  const auto result = gradcheck::compare(logits, analytic, [&] { return loss.forward(logits, labels); });
  INFO("max error " << result.max_error);
  CHECK(result.ok());
  CHECK_THROWS_WITH(loss.forward(logits, {0, 1}),
                    Catch::Matchers::Contains("labels must have one entry per logits row (5), got 2"));
  CHECK_THROWS_WITH(loss.forward(logits, {0, 1, 2, 3, 4}), Catch::Matchers::Contains("labels must be in 0..3, got 4"));
}

TEST_CASE("TransformerBlock backward matches finite differences, pre-LN and post-LN", "[nn][gradient]") {
  for (const bool post : {false, true}) {
    for (const bool last_only : {false, true}) {
      DYNAMIC_SECTION("post_layer_norm " << post << ", last_query_only " << last_only) {
        Random rng(8);
        TransformerConfig config;
        config.d_model = 8;
        config.d_ff = 12;
        config.heads = 2;
        config.post_layer_norm = post;
        config.dropout = 0.2;
        TransformerBlock<double> block(config);
        block.init(rng);
        ParameterList<double> params;
        block.parameters(params, "block");
        const Random stream(80);
        const int batch = 2, length = 4;
        check_layer(
            random_matrix(rng, batch * length, 8), params,
            [&](const MatD& x) {
              Random copy = stream;
              return block.forward(x, batch, length, last_only, &copy);
            },
            [&](const MatD& dy) { return block.backward(dy); }, rng);
      }
    }
  }
}

TEST_CASE("the whole model's gradient matches finite differences (default sizes, dropout on)", "[nn][gradient]") {
  for (const int blocks : {1, 2}) {
    DYNAMIC_SECTION(blocks << " block(s)") {
      TransformerConfig config;
      config.blocks = blocks;
      TinyTransformer<double> model(config);
      Random rng(9);
      model.init(rng);
      const std::vector<int> tokens = {0, 1, 7, 3, 2, 6, 5, 4, 1, 7, 7, 2, 2, 0, 5,
                                       6, 1, 3, 4, 7, 4, 4, 5, 1, 6, 0, 7, 2, 3, 7};
      const std::vector<int> labels = {3, 2, 2};
      const Random stream(90);
      SoftmaxCrossEntropy<double> loss;
      auto run = [&] {
        Random copy = stream;
        return loss.forward(model.forward(tokens, &copy), labels);
      };
      run();
      zero_grad(model.parameters());
      model.backward(loss.backward());
      const auto result = gradcheck::compare_parameters(model.parameters(), run);
      INFO("max error " << result.max_error << ", max gradient " << result.max_gradient);
      CHECK(result.max_gradient > 0);
      CHECK(result.ok());
    }
  }
}
