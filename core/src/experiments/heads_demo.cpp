#include "attn/experiments/heads_demo.hpp"

#include "attn/multihead.hpp"
#include "attn/random.hpp"

#include <cmath>
#include <stdexcept>
#include <string>

namespace attn::experiments {
namespace {

HeadsDemoLayer describe(const MultiHeadAttention& layer, const MultiHeadResult& result) {
  HeadsDemoLayer out;
  out.num_heads = layer.num_heads();
  out.key_dim = layer.key_dim();
  out.parameter_count = layer.parameter_count();
  for (const Matrix& w : result.weights) {
    out.weights.emplace_back(w.data(), w.data() + w.size());
    std::vector<int> argmax;
    double max_sum = 0, entropy_sum = 0;
    for (Eigen::Index i = 0; i < w.rows(); ++i) {
      Eigen::Index best;
      max_sum += w.row(i).maxCoeff(&best);
      argmax.push_back(static_cast<int>(best));
      for (Eigen::Index j = 0; j < w.cols(); ++j)
        if (w(i, j) > 0) entropy_sum -= double(w(i, j)) * portable_log(w(i, j));
    }
    out.argmax.push_back(std::move(argmax));
    out.mean_max_weight.push_back(max_sum / double(w.rows()));
    out.mean_entropy.push_back(entropy_sum / double(w.rows()));
  }
  return out;
}

}  // namespace

HeadsDemo heads_demo(const HeadsDemoConfig& config) {
  require_fields(config);
  const auto& [d_model, num_heads, tokens, seed] = config;
  if (d_model % num_heads != 0)
    throw ArgumentError("num_heads", ErrorCode::must_divide,
                        "must divide {d_model} = " + std::to_string(d_model) + ", got " + std::to_string(num_heads),
                        {{"d_model", double(d_model)}, {"got", double(num_heads)}});

  HeadsDemo demo;
  demo.d_model = d_model;
  demo.tokens = tokens;
  demo.seed = seed;
  Random rng(seed);
  const Matrix x = rng.normal_matrix(tokens, d_model);
  MultiHeadAttention multi(d_model, num_heads), single(d_model, 1);
  multi.init_glorot_uniform(rng);
  single.init_glorot_uniform(rng);
  const MultiHeadResult multi_result = multi.forward(x, x, x);
  demo.multi = describe(multi, multi_result);
  demo.single = describe(single, single.forward(x, x, x));

  const auto& w = multi_result.weights;
  demo.head_distance.assign(std::size_t(num_heads) * num_heads, 0.0);
  for (int a = 0; a < num_heads; ++a)
    for (int b = 0; b < num_heads; ++b) {
      double sum = 0;
      for (Eigen::Index i = 0; i < tokens; ++i)
        for (Eigen::Index j = 0; j < tokens; ++j) sum += std::abs(double(w[a](i, j)) - double(w[b](i, j)));
      demo.head_distance[std::size_t(a) * num_heads + b] = 0.5 * sum / tokens;
    }
  for (int i = 0; i < tokens; ++i) {
    bool differ = false;
    for (int h = 1; h < num_heads; ++h) differ = differ || demo.multi.argmax[h][i] != demo.multi.argmax[0][i];
    demo.queries_with_differing_argmax += differ ? 1 : 0;
  }
  return demo;
}

}  // namespace attn::experiments
