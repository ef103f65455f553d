#include "scaling_workloads.hpp"

#include "attn/experiments/heads_demo.hpp"
#include "attn/experiments/mask_demo.hpp"
#include "attn/experiments/scale_sweep.hpp"
#include "attn/nn/transformer.hpp"
#include "attn/random.hpp"

#include <memory>

namespace bench {
namespace {

std::string str(int x) { return std::to_string(x); }

ScalingCase sweep(int tokens, int d_k, int draws) {
  attn::experiments::ScaleSweepConfig c;
  c.d_ks = {d_k};
  c.tokens = tokens;
  c.draws = draws;
  return {"sweep", "T " + str(tokens) + ", d_k " + str(d_k) + ", " + str(draws) + " draws",
          double(draws) * 2.0 * tokens * tokens * d_k,
          [c] { return attn::experiments::scale_sweep(c).rows.at(0).scaled.entropy.mean; }};
}

ScalingCase masks(int n, int d_k) {
  attn::experiments::MaskDemoConfig c;
  c.positions = n;
  c.real = n / 2;
  c.d_k = d_k;
  const double nn = double(n) * n;
  return {"masks", "n " + str(n) + ", d_k " + str(d_k), 5 * 2.0 * nn * d_k + 4 * 2.0 * nn * n,
          [c] { return attn::experiments::mask_demo(c).cases.at(0).weights.at(0); }};
}

ScalingCase heads(int d_model, int tokens) {
  attn::experiments::HeadsDemoConfig c;
  c.d_model = d_model;
  c.num_heads = 4;
  c.tokens = tokens;
  const double layer = 4 * 2.0 * tokens * double(d_model) * d_model + 2 * 2.0 * double(tokens) * tokens * d_model;
  return {"heads", "d " + str(d_model) + ", 4 heads, T " + str(tokens), 2 * layer,
          [c] { return attn::experiments::heads_demo(c).multi.mean_entropy.at(0); }};
}

ScalingCase forward(int length, int d_model) {
  constexpr int kBatch = 32;
  attn::nn::TransformerConfig c;  // the cue model's defaults: 2 blocks, 1 head, 9 classes
  c.length = length;
  c.d_model = d_model;
  c.d_ff = 2 * d_model;
  const double T = length, d = d_model, f = c.d_ff, hk = d_model;
  const double last_row = 2 * 2 * T * d * hk + 2 * 2 * d * hk + 2 * 2 * T * hk + 2 * 2 * d * f;
  const double full = 4 * 2 * T * d * hk + 2 * 2 * T * T * hk + 2 * 2 * T * d * f;
  const double per_sequence = (c.blocks - 1) * full + last_row + 2 * d * c.classes;
  auto model = std::make_shared<attn::nn::TinyTransformer<float>>(c);
  attn::Random rng(7);
  model->init(rng);
  auto tokens = std::make_shared<std::vector<int>>();
  for (int i = 0; i < kBatch * length; ++i) tokens->push_back(int(rng.next_u64() % std::uint64_t(c.vocabulary)));
  return {"forward", "T " + str(length) + ", d " + str(d_model) + ", d_ff " + str(c.d_ff) + ", batch 32",
          kBatch * per_sequence, [model, tokens] { return double(model->forward(*tokens, nullptr)(0, 0)); }};
}

}  // namespace

const std::vector<ScalingCase>& scaling_cases() {
  static const std::vector<ScalingCase> cases = {
      sweep(16, 16, 64),   sweep(128, 128, 4),  sweep(1024, 1024, 1),
      masks(32, 32),       masks(128, 128),     masks(512, 512),
      heads(32, 8),        heads(128, 32),      heads(512, 128),
      forward(10, 32),     forward(24, 96),     forward(64, 256),
  };
  return cases;
}

}  // namespace bench
