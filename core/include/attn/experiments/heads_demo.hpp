// The heads demo: one 64-dimensional model as 4 heads of 16 or as 1 head of 64.
//
// Both layers are attn::MultiHeadAttention with Glorot-uniform weights drawn from one seed;
// they have exactly the same number of parameters (the projections are the same matrices,
// cut into head-sized column blocks), and on one seeded input the 4-head layer produces four
// separate weight matrices, i.e. four different lookups, where the 1-head layer has one.
//
// Left out: training (heads only specialise with it), outputs, masks.
// Legend: T = tokens, h = heads. Weight matrices are flattened row-major, (T, T) = T * T.
#pragma once

#include "attn/config.hpp"

#include <cstdint>
#include <vector>

namespace attn::experiments {

// Limits of the demo (inclusive), checked by heads_demo().
constexpr int kHeadsDemoMaxWidth = ATTN_PICK(1024, 96);
constexpr int kHeadsDemoMaxTokens = ATTN_PICK(256, 20);

struct HeadsDemoConfig {
  int d_model = ATTN_PICK(64, 48);
  int num_heads = ATTN_PICK(4, 3);  // 2..d_model, dividing d_model
  int tokens = ATTN_PICK(8, 6);
  std::uint64_t seed = ATTN_PICK(0, 4);

  template <typename Visit>
  static void fields(Visit&& visit) {
    visit(FieldInfo{"d_model", "dModel", "d-model", 1, kHeadsDemoMaxWidth, "model width"},
          member<&HeadsDemoConfig::d_model>);
    visit(FieldInfo{"num_heads", "numHeads", "heads", 2, kHeadsDemoMaxWidth,
                    "heads of the multi-head layer, dividing the model width"},
          member<&HeadsDemoConfig::num_heads>);
    visit(FieldInfo{"tokens", "tokens", "tokens", 1, kHeadsDemoMaxTokens, "tokens of the seeded input"},
          member<&HeadsDemoConfig::tokens>);
    visit(FieldInfo{"seed", "seed", "seed", 0, double(kMaxSeed), "seed of the input and the weights"},
          member<&HeadsDemoConfig::seed>);
  }
};

struct HeadsDemoLayer {
  int num_heads = 0, key_dim = 0;
  long parameter_count = 0;                  // 3 (d hk + hk) + hk d + d, as Keras counts it
  std::vector<std::vector<double>> weights;  // h x (T, T): each head's attention weights
  std::vector<std::vector<int>> argmax;      // h x (T): the key each query weights most
  std::vector<double> mean_max_weight;       // (h): each head's largest weight, averaged over queries
  std::vector<double> mean_entropy;          // (h): each head's row entropy in nats, averaged

  template <typename Visit>
  static void fields(Visit&& visit) {
    using C = HeadsDemoLayer;
    visit("numHeads", member<&C::num_heads>);
    visit("keyDim", member<&C::key_dim>);
    visit("parameterCount", member<&C::parameter_count>);
    visit("weights", member<&C::weights>);
    visit("argmax", member<&C::argmax>);
    visit("meanMaxWeight", member<&C::mean_max_weight>);
    visit("meanEntropy", member<&C::mean_entropy>);
  }
};

struct HeadsDemo {
  int d_model = 0, tokens = 0;
  std::uint64_t seed = 0;
  HeadsDemoLayer multi;   // num_heads heads of d_model / num_heads
  HeadsDemoLayer single;  // 1 head of d_model
  // (h, h): how different two heads' lookups are, as the total-variation distance between
  // their weight rows (half the L1 distance: 0 = the same weights, 1 = disjoint keys),
  // averaged over queries. The diagonal is 0.
  std::vector<double> head_distance;
  // Queries for which not all heads weight the same key most, out of T.
  int queries_with_differing_argmax = 0;

  template <typename Visit>
  static void fields(Visit&& visit) {
    using C = HeadsDemo;
    visit("dModel", member<&C::d_model>);
    visit("tokens", member<&C::tokens>);
    visit("seed", member<&C::seed>);
    visit("multi", member<&C::multi>);
    visit("single", member<&C::single>);
    visit("headDistance", member<&C::head_distance>);
    visit("queriesWithDifferingArgmax", member<&C::queries_with_differing_argmax>);
  }
};

// -> the demo. Random(seed) draws, in this order: the input x (T, d_model) standard normal,
// the multi-head layer's weights, the single-head layer's weights. Self-attention: query,
// key and value are all x.
// Throws attn::ArgumentError for a field out of range or num_heads not dividing d_model.
HeadsDemo heads_demo(const HeadsDemoConfig& config = {});

}  // namespace attn::experiments
