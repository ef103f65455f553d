// The attention benchmark's workloads (bench/run-attention), shared by its native side
// (bench/attention_native.cpp) and the benchmark module (bench/bench_module.cpp, which times
// the same calls inside WebAssembly without the facade), on the same seeded inputs as the
// facade side (bench/attention_wasm.mjs):
//   soft_lookup   attention, 1 query x 5 keys, d = 2 (the lesson's soft-lookup widget)
//   self_12x64    self-attention on 12 tokens of width 64
//   mha_10x64     4-head multi-head attention forward on 10 tokens of width 64 (layer built once)
// Each run() makes one call of the core and returns a number from its result.
#pragma once

#include "attn/attention.hpp"
#include "attn/multihead.hpp"
#include "attn/random.hpp"

namespace bench {

class AttentionWorkloads {
 public:
  AttentionWorkloads() : query_(1, 2), keys_(5, 2), values_(5, 2), layer_(64, 4) {
    query_ << 1.0f, 0.5f;
    keys_ << 1, 0, 0.7f, 0.7f, 0, 1, -0.7f, 0.7f, -1, 0;
    values_ << 1, 0, 0, 1, -1, 0, 0, -1, 0.5f, 0.5f;
    attn::Random rng(2026);
    x12_ = rng.normal_matrix(12, 64);
    x10_ = rng.normal_matrix(10, 64);
    attn::Random init(7);
    layer_.init_glorot_uniform(init);
  }
  float soft_lookup() const { return attn::attention(query_, keys_, values_).output(0, 0); }
  float self_12x64() const { return attn::attention(x12_, x12_, x12_).output(0, 0); }
  float mha_10x64() const { return layer_.forward(x10_, x10_, x10_).output(0, 0); }

 private:
  attn::Matrix query_, keys_, values_, x12_, x10_;
  attn::MultiHeadAttention layer_;
};

}  // namespace bench
