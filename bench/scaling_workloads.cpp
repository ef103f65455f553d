// Each time-per-FLOP case's floating-point operations, counted term by term from the code the
// core runs for one call (bench/scaling_workloads.hpp).
//
// The convention, one rule for every experiment and size:
//   A FLOP is one add, subtract, multiply, divide or square root, float32 or float64, as the
//   code executes it. The core is built with -ffp-contract=off, so a multiply-add is 2.
//   Not FLOPs: comparisons (max, ReLU, argmax, the ziggurat's test), conversions (int <->
//   float, float <-> double), floor, negation and abs, integer and bit work (the generator's
//   xoshiro256** step, 2^m built from bits), loads, stores, allocation.
//   A function counts what its implementation executes, once per call, the same constant
//   wherever the core calls it:
//     kExpFloat  23  the float32 softmax's exp: core/src/simd.hpp's exp_lanes (Cephes expf, what
//                    WebAssembly runs): 2 for m, 1 to correct it, 4 for r, 2 for r^2 and r^3,
//                    13 for the polynomial, 1 to scale by 2^m. Natively the same softmax calls
//                    glibc's expf, which executes fewer (about 12); the native column is the
//                    same count, so it reads a little high per FLOP for exp-heavy cases.
//     kExpTrainer 46 the trainer's exp: core/src/nn/kernels.cpp exp_fixed: 2 for k, 4 for r,
//                    3 per term of its 13-term series, 1 to scale by 2^k.
//     kLog       45  attn::portable_log: 3 for s = (m - 1) / (m + 1), 1 for s^2, 3 per term of
//                    its 12-term series, 5 to add the exponent's ln 2 (the doubling of m, taken
//                    for about half the inputs, not counted).
//     kNormal     5  Random::normal: 4 on the ziggurat's fast path (98.5% of draws: scale the
//                    53 bits, times the layer width, the sign's 1 - s and the product), plus
//                    the slow path's ~55 (a wedge test with a portable_log) 1.5% of the time.
//     kUniform    4  Random::uniform(lo, hi): 1 to scale the 53 bits, 3 for lo + (hi - lo) u.
//     sqrt        1  an IEEE basic operation (one instruction).
//   Left out: work of O(draws) or O(1) per call (the sweep's final statistics, the Glorot
//   limits), about 0.1% of the smallest sweep's count and less everywhere else.
//
// Why not reuse scale_sweep_work() (core/src/experiments/scale_sweep.cpp): it weighs an exp, a
// log or a normal draw as 50 multiply-adds because that is what they cost in native time; it
// budgets a call's duration, so dividing time by it would measure time with time. The terms
// below are the same as its terms (products T^2 d_k, per-score softmax and measures T^2,
// draws T d_k), each with the operations it executes.
//
// What this count cannot see, and so what still makes a small size cost more per FLOP: the
// generator's integer work (about 10 integer operations of xoshiro256** per draw, in a serial
// chain, and a few more to pick the layer and sign), loop and call overhead on short rows.
#include "scaling_workloads.hpp"

#include "attn/experiments/heads_demo.hpp"
#include "attn/experiments/mask_demo.hpp"
#include "attn/experiments/scale_sweep.hpp"
#include "attn/nn/transformer.hpp"
#include "attn/random.hpp"

#include <memory>

namespace bench {
namespace {

constexpr double kExpFloat = 23, kExpTrainer = 46, kLog = 45, kNormal = 5, kUniform = 4, kSqrt = 1;

// (n, k) by (k, m): a multiply and an add per term.
double product(double n, double k, double m) { return 2 * n * k * m; }
// softmax_rows_unchecked<float> (attn/softmax.hpp) of (rows, cols): per score, subtract the
// row's max, exp, add to the row's sum, divide by it.
double softmax_float(double rows, double cols) { return rows * cols * (3 + kExpFloat); }

std::string str(int x) { return std::to_string(x); }

// scale_sweep with one d_k: T = tokens, k = d_k, D = draws.
ScalingCase sweep(int tokens, int d_k, int draws) {
  attn::experiments::ScaleSweepConfig c;
  c.d_ks = {d_k};
  c.tokens = tokens;
  c.draws = draws;
  const double T = tokens, k = d_k, D = draws;
  const double products = D * product(T, k, T);  // Q K^T, shared by both softmaxes
  // One measure pass (MeasuresBuilder::add_draw): per weight 8 (p^2, p^3 and (s - max s) p in
  // double, each summed); per row 8 (4 for the Jacobian's square, 1 for the entropy's
  // subtraction, 3 to add to the sums) + a log + a sqrt.
  const double measures = T * T * 8 + T * (8 + kLog + kSqrt);
  const double per_draw = 2 * T * k * kNormal                        // Q, K
                          + T * T                                    // the scale, once
                          + 2 * softmax_float(T, T) + 2 * measures;  // unscaled, scaled
  // The uniform row (measure_row of a softmax of T zeros): per weight 7 + a log, per row 5.
  const double uniform = softmax_float(1, T) + T * (7 + kLog) + 4 + kSqrt;
  return {"sweep", "T " + str(tokens) + ", d_k " + str(d_k) + ", " + str(draws) + " draws",
          products + D * per_draw + uniform, products,
          [c] { return attn::experiments::scale_sweep(c).rows.at(0).scaled.entropy.mean; }};
}

// mask_demo: n positions (n / 2 real), k = d_k.
ScalingCase masks(int n, int d_k) {
  attn::experiments::MaskDemoConfig c;
  c.positions = n;
  c.real = n / 2;
  c.d_k = d_k;
  const double N = n, k = d_k;
  // The shown scores (Eigen's product) and the attention's own, each scaled.
  const double products = 2 * product(N, k, N);
  const double other = 2 * N * k * kNormal        // Q, K
                       + 2 * N * N                // the two scalings
                       + 4 * softmax_float(N, N)  // unmasked, causal, padding, both
                       + 3 * 2 * N * N;           // row sums of each mask's weights and mistake
  return {"masks", "n " + str(n) + ", d_k " + str(d_k), products + other, products,
          [c] { return attn::experiments::mask_demo(c).cases.at(0).weights.at(0); }};
}

// heads_demo: d = d_model, H = 4 heads of d / H, T tokens; a layer of H heads and one of 1.
ScalingCase heads(int d_model, int tokens) {
  constexpr int kHeads = 4;
  attn::experiments::HeadsDemoConfig c;
  c.d_model = d_model;
  c.num_heads = kHeads;
  c.tokens = tokens;
  const double d = d_model, T = tokens;
  // A layer of h heads (MultiHeadAttention::forward): 4 projections of (T, d) by (d, d) and
  // their biases; scores and weighted sums, each head's (T, d / h) by (d / h, T) summing to
  // (T, d) by (d, T).
  const auto layer_products = [&] { return 4 * product(T, d, d) + 2 * product(T, d, T); };
  // ... the rest of a layer, h heads: 4 T d bias adds; per head the scale and the softmax of
  // (T, T); the overflow bound's squared norms of the projected Q and K (2 T d each); describe():
  // per weight the entropy's p log p and its sum (2 + a log), per row the max weight's sum,
  // per head 2 means.
  const auto layer_other = [&](double h) {
    return 4 * T * d + h * (T * T + softmax_float(T, T)) + 2 * 2 * T * d + h * T * T * (2 + kLog) + h * T + 2 * h;
  };
  const double products = 2 * layer_products();
  const double other = T * d * kNormal             // the input x
                       + 2 * 4 * d * d * kUniform  // both layers' Glorot weights
                       + layer_other(kHeads) + layer_other(1) +
                       double(kHeads) * kHeads * (2 * T * T + 2);  // head distances: |a - b| summed, scaled
  return {"heads", "d " + str(d_model) + ", 4 heads, T " + str(tokens), products + other, products,
          [c] { return attn::experiments::heads_demo(c).multi.mean_entropy.at(0); }};
}

// The cue trainer's evaluation forward (TinyTransformer<float>::forward without dropout) of a
// batch of 32 sequences: T tokens, width d, 1 head (hk = d), d_ff f = 2 d, C classes, pre-LN
// blocks, the last computed for the query row only. The products are bench/cue_flops.mjs's.
ScalingCase forward(int length, int d_model) {
  constexpr int kBatch = 32;
  attn::nn::TransformerConfig c;  // the cue model's defaults: 2 blocks, 1 head, 9 classes
  c.length = length;
  c.d_model = d_model;
  c.d_ff = 2 * d_model;
  const double T = length, d = d_model, f = c.d_ff, hk = d_model, C = c.classes;
  // A block whose queries are R of the T rows (T, or 1 for the last block), as products and
  // the rest: LayerNorm of its input (all T rows) and of R rows, each 7 per value (the mean's
  // sum, the centring, the square and its sum, the 1 / std scaling, gamma and beta) and 5 per
  // row (2 means, + epsilon, sqrt, 1 / x); Q for R rows, K and V for T, output for R, each with
  // its bias; per score the scale and the trainer's softmax (subtract, exp, sum, divide); the
  // feed-forward's two products and biases (ReLU is a comparison); 2 residual adds.
  const auto block_products = [&](double R) {
    return product(R, d, hk) + 2 * product(T, d, hk) + product(R, T, hk) * 2 + product(R, hk, d) + product(R, d, f) +
           product(R, f, d);
  };
  const auto block_other = [&](double R) {
    const double norms = (T + R) * (7 * d + 4 + kSqrt);
    const double biases = R * hk + 2 * T * hk + R * d + R * f + R * d;
    return norms + biases + R * T * (1 + 3 + kExpTrainer) + 2 * R * d;
  };
  const double per_sequence_products = (c.blocks - 1) * block_products(T) + block_products(1) + product(1, d, C);
  const double per_sequence_other = T * d  // positional encoding added
                                    + (c.blocks - 1) * block_other(T) + block_other(1) + C;  // head's bias
  auto model = std::make_shared<attn::nn::TinyTransformer<float>>(c);
  attn::Random rng(7);
  model->init(rng);
  auto tokens = std::make_shared<std::vector<int>>();
  for (int i = 0; i < kBatch * length; ++i) tokens->push_back(int(rng.next_u64() % std::uint64_t(c.vocabulary)));
  return {"forward", "T " + str(length) + ", d " + str(d_model) + ", d_ff " + str(c.d_ff) + ", batch 32",
          kBatch * (per_sequence_products + per_sequence_other), kBatch * per_sequence_products,
          [model, tokens] { return double(model->forward(*tokens, nullptr)(0, 0)); }};
}

// The diagnostic series' case.
ScalingCase width_held(ScalingCase c) {
  c.width_held = true;
  return c;
}

}  // namespace

const std::vector<ScalingCase>& scaling_cases() {
  static const std::vector<ScalingCase> cases = {
      sweep(16, 16, 64),
      sweep(128, 128, 4),
      sweep(1024, 1024, 1),
      masks(32, 32),
      masks(128, 128),
      masks(512, 512),
      heads(32, 8),
      heads(128, 32),
      heads(512, 128),
      forward(10, 32),
      forward(24, 96),
      forward(64, 256),
      width_held(sweep(64, 64, 64)),
      width_held(sweep(512, 64, 2)),
      width_held(sweep(4096, 64, 1)),
      width_held(masks(64, 64)),
      width_held(masks(256, 64)),
      width_held(masks(1024, 64)),
      width_held(heads(64, 16)),
      width_held(heads(64, 64)),
      width_held(heads(64, 256)),
      width_held(forward(10, 32)),
      width_held(forward(24, 32)),
      width_held(forward(64, 32)),
  };
  return cases;
}

}  // namespace bench
