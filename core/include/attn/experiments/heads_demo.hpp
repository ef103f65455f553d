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

#include <cstdint>
#include <vector>

namespace attn::experiments {

struct HeadsDemoLayer {
  int num_heads = 0, key_dim = 0;
  long parameter_count = 0;  // 3 (d hk + hk) + hk d + d, as Keras counts it
  std::vector<std::vector<double>> weights;  // h x (T, T): each head's attention weights
  std::vector<std::vector<int>> argmax;      // h x (T): the key each query weights most
  std::vector<double> mean_max_weight;       // (h): each head's largest weight, averaged over queries
  std::vector<double> mean_entropy;          // (h): each head's row entropy in nats, averaged
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
};

// -> the demo. Random(seed) draws, in this order: the input x (T, d_model) standard normal,
// the multi-head layer's weights, the single-head layer's weights. Self-attention: query,
// key and value are all x.
// Throws std::invalid_argument unless 1 <= d_model <= 1024, 2 <= num_heads <= d_model with
// num_heads dividing d_model, and 1 <= tokens <= 256, naming the argument and its value.
HeadsDemo heads_demo(int d_model = 64, int num_heads = 4, int tokens = 8, std::uint64_t seed = 0);

}  // namespace attn::experiments
