// The attention part of the core's door to JavaScript (the overview is at the top of
// bind_common.cpp): attention, softmax, masks, the seeded generator and multi-head layers.
#include "errors.hpp"
#include "heap.hpp"
#include "js_struct.hpp"

#include "attn/attention.hpp"
#include "attn/config.hpp"
#include "attn/masks.hpp"
#include "attn/multihead.hpp"
#include "attn/random.hpp"
#include "attn/softmax.hpp"

#include <emscripten/bind.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

using namespace attn::wasm;

namespace {

// ---- the fast path ----

std::vector<Offset> results;  // offsets of the latest results, read by JS

// Masks cross as bytes, 1 = may attend.
attn::Mask mask_at(Offset data, int rows, int cols) {
  using Bytes = Eigen::Matrix<std::uint8_t, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
  return Eigen::Map<const Bytes>(at<std::uint8_t>(data), rows, cols).array() != 0;
}

// The inputs of one attention call (attention, or a multi-head layer's forward), as JS lays
// them out in the scratch area after the matrices (web/src/core/attention-core.ts, putCall):
// fourteen 4-byte slots, passed as one offset. Every input comes with the shape JS was given,
// so the core sees (and names) any mismatch.
struct AttentionCall {
  Offset query;
  std::int32_t q_rows, q_cols;
  Offset key;
  std::int32_t k_rows, k_cols;
  Offset value;
  std::int32_t v_rows, v_cols;
  Offset mask;  // bytes, 1 = may attend; 0: no mask
  std::int32_t m_rows, m_cols;
  std::int32_t scale;  // 0 or 1
  float masked_value;
};
static_assert(sizeof(AttentionCall) == 14 * 4 && alignof(AttentionCall) == 4, "JS writes 14 four-byte slots");

attn::AttentionOptions options_of(const AttentionCall& call) {
  attn::AttentionOptions options;
  options.scale = call.scale != 0;
  options.masked_value = call.masked_value;
  return options;
}

attn::Mask mask_of(const AttentionCall& call) {
  return call.mask ? mask_at(call.mask, call.m_rows, call.m_cols) : attn::Mask();
}

// Query, key and value as the core takes them. Self-attention passes one array for all three
// (same offset and shape): it is copied once and shared.
struct QueryKeyValue {
  attn::Matrix q, k_copy, v_copy;
  const attn::Matrix* k;
  const attn::Matrix* v;
  explicit QueryKeyValue(const AttentionCall& c) : q(matrix_at(c.query, c.q_rows, c.q_cols)) {
    const bool k_is_q = c.key == c.query && c.k_rows == c.q_rows && c.k_cols == c.q_cols;
    if (!k_is_q) k_copy = matrix_at(c.key, c.k_rows, c.k_cols);
    k = k_is_q ? &q : &k_copy;
    const bool v_is_k = c.value == c.key && c.v_rows == c.k_rows && c.v_cols == c.k_cols;
    if (!v_is_k) v_copy = matrix_at(c.value, c.v_rows, c.v_cols);
    v = v_is_k ? k : &v_copy;
  }
  QueryKeyValue(const QueryKeyValue&) = delete;
  QueryKeyValue& operator=(const QueryKeyValue&) = delete;
};

// The latest results of each kind; JS copies them out before the next call of that kind.
attn::Matrix matrix_slot[2];
std::vector<attn::Matrix> head_slot;
attn::Mask mask_slot;
std::vector<double> draw_slot;

void publish(std::initializer_list<const void*> pointers) {
  results.clear();
  for (const void* p : pointers) results.push_back(offset_of(p));
}

}  // namespace

// ---- exported functions (names in snake_case here, camelCase in the facade, web/src/core/) ----

// The calls a widget makes on every drag or key press are plain WebAssembly exports, which
// the facade calls as `_attn_scratch`, `_attn_softmax` and `_attn_attention`: measured in node, such
// a call costs about 0.03 us where embind's invoker (built without eval, DYNAMIC_EXECUTION=0)
// took 0.3 us for attention's inputs as 14 arguments, a sixth of a soft-lookup update.
extern "C" {

// scores (rows, cols) -> [weights]
EMSCRIPTEN_KEEPALIVE Offset attn_softmax(Offset scores, int rows, int cols) {
  if (!run_guarded([&] {
        matrix_slot[0] = attn::softmax(matrix_at(scores, rows, cols));
        publish({matrix_slot[0].data()});
      }))
    throw_pending();
  return offset_of(results.data());
}

// call: an AttentionCall, query (n_q, d_k), key (n_k, d_k), value (n_k, d_v), mask (n_q, n_k)
//   -> [output (n_q, d_v), weights (n_q, n_k)]
EMSCRIPTEN_KEEPALIVE Offset attn_attention(Offset call) {
  if (!run_guarded([&] {
        const AttentionCall& c = *at<AttentionCall>(call);
        const auto options = options_of(c);
        const QueryKeyValue in(c);
        auto result = c.mask ? attn::attention(in.q, *in.k, *in.v, mask_of(c), options)
                             : attn::attention(in.q, *in.k, *in.v, options);
        matrix_slot[0] = std::move(result.output);
        matrix_slot[1] = std::move(result.weights);
        publish({matrix_slot[0].data(), matrix_slot[1].data()});
      }))
    throw_pending();
  return offset_of(results.data());
}

}  // extern "C"

namespace {

// -> [mask (n, n)]
Offset causal_mask(int n) {
  if (!run_guarded([&] {
        mask_slot = attn::causal_mask(n);
        publish({mask_slot.data()});
      }))
    throw_pending();
  return offset_of(results.data());
}

// -> [mask (n_q, n_k)]
Offset padding_mask(int n_q, int n_k, int real_len) {
  if (!run_guarded([&] {
        mask_slot = attn::padding_mask(n_q, n_k, real_len);
        publish({mask_slot.data()});
      }))
    throw_pending();
  return offset_of(results.data());
}

// a (rows_a, cols_a), b (rows_b, cols_b) -> [mask (rows_a, cols_a)]
Offset combine_masks(Offset a, int rows_a, int cols_a, Offset b, int rows_b, int cols_b) {
  if (!run_guarded([&] {
        mask_slot = attn::combine_masks(mask_at(a, rows_a, cols_a), mask_at(b, rows_b, cols_b));
        publish({mask_slot.data()});
      }))
    throw_pending();
  return offset_of(results.data());
}

double allowed_fraction(Offset mask, int rows, int cols) {
  double fraction = 0;
  if (!run_guarded([&] { fraction = attn::allowed_fraction(mask_at(mask, rows, cols)); })) throw_pending();
  return fraction;
}

// ---- the seeded generator: its whole state lives in JS, as bytes ----
//
// attn::Random is trivially copyable, so JS can hold its state and hand it back for each
// batch of draws: no handle to free, and a generator can be copied or stored like any data.
static_assert(std::is_trivially_copyable<attn::Random>::value, "the JS facade keeps attn::Random's state as bytes");

int random_state_bytes() { return int(sizeof(attn::Random)); }

// A seed crosses as a double; the core's seed range (0..2^53 - 1) is checked here, where it is
// still a double, by the core's own check.
std::uint64_t seed_of(double seed) {
  attn::require_whole(attn::argument("seed", 0, double(attn::kMaxSeed)), seed);
  if (std::floor(seed) != seed)
    throw attn::ArgumentError("seed", attn::ErrorCode::not_whole,
                              "must be a whole number, got " + attn::number_text(seed), {{"got", seed}});
  return static_cast<std::uint64_t>(seed);
}

// Writes the state of attn::Random(seed) at `state`.
void random_seed(Offset state, double seed) {
  if (!run_guarded([&] {
        const attn::Random rng(seed_of(seed));
        std::memcpy(reinterpret_cast<void*>(std::uintptr_t(state)), &rng, sizeof rng);
      }))
    throw_pending();
}

// Runs draw(rng) on the generator stored at `state` and stores the advanced state back.
template <typename Draw>
Offset with_random(Offset state, Draw&& draw) {
  if (!run_guarded([&] {
        attn::Random rng(0);
        void* bytes = reinterpret_cast<void*>(std::uintptr_t(state));
        std::memcpy(&rng, bytes, sizeof rng);
        draw(rng);
        std::memcpy(bytes, &rng, sizeof rng);
      }))
    throw_pending();
  return offset_of(results.data());
}

void require_count(int n) { attn::require_range("n", n, 0, attn::kMaxElements); }

// -> [n doubles, each rng.*Draw()]: uniform in [0, 1) or standard normal.
template <double (attn::Random::*Draw)()>
Offset random_draws(Offset state, int n) {
  return with_random(state, [&](attn::Random& rng) {
    require_count(n);
    draw_slot.resize(std::size_t(n));
    for (double& x : draw_slot) x = (rng.*Draw)();
    publish({draw_slot.data()});
  });
}

// -> [matrix (rows, cols)]
Offset random_normal_matrix(Offset state, int rows, int cols) {
  return with_random(state, [&](attn::Random& rng) {
    matrix_slot[0] = rng.normal_matrix(rows, cols);
    publish({matrix_slot[0].data()});
  });
}

// -> [matrix (rows, cols)]
Offset random_uniform_matrix(Offset state, int rows, int cols, double lo, double hi) {
  return with_random(state, [&](attn::Random& rng) {
    matrix_slot[0] = rng.uniform_matrix(rows, cols, lo, hi);
    publish({matrix_slot[0].data()});
  });
}

// ---- multi-head attention: a class handle that the facade keeps private and deletes ----

using attn::MultiHeadAttention;
using attn::Projection;

MultiHeadAttention* mha_create(int d_model, int num_heads, int key_dim) {
  MultiHeadAttention* layer = nullptr;
  if (!run_guarded([&] { layer = new MultiHeadAttention(d_model, num_heads, key_dim); })) throw_pending();
  return layer;
}

void mha_init_seeded(MultiHeadAttention& layer, double seed) {
  if (!run_guarded([&] {
        attn::Random rng(seed_of(seed));
        layer.init_glorot_uniform(rng);
      }))
    throw_pending();
}

// which: 0 query, 1 key, 2 value, 3 output. weight (rows, cols), bias (1, bias_cols).
void mha_set_projection(MultiHeadAttention& layer, int which, Offset weight, int rows, int cols, Offset bias,
                        int bias_cols) {
  if (!run_guarded([&] {
        if (which < 0 || which > 3)
          throw attn::ArgumentError("projection", attn::ErrorCode::out_of_range,
                                    "must be 0..3, got " + std::to_string(which),
                                    {{"min", 0}, {"max", 3}, {"got", double(which)}});
        layer.set_projection(Projection(which), matrix_at(weight, rows, cols), matrix_at(bias, 1, bias_cols));
      }))
    throw_pending();
}

// PyTorch's in_proj_weight (3d, d), in_proj_bias (1, 3d), out_proj_weight (d, d),
// out_proj_bias (1, d), with the shapes JS was given.
void mha_set_from_pytorch(MultiHeadAttention& layer, Offset in_w, int in_w_rows, int in_w_cols, Offset in_b,
                          int in_b_cols, Offset out_w, int out_w_rows, int out_w_cols, Offset out_b, int out_b_cols) {
  if (!run_guarded([&] {
        layer.set_from_pytorch(matrix_at(in_w, in_w_rows, in_w_cols), matrix_at(in_b, 1, in_b_cols),
                               matrix_at(out_w, out_w_rows, out_w_cols), matrix_at(out_b, 1, out_b_cols));
      }))
    throw_pending();
}

// -> [query weight (d, hk), query bias (1, hk), key.., value.., output weight (hk, d), bias (1, d)]
Offset mha_parameters(const MultiHeadAttention& layer) {
  results.clear();
  for (int p = 0; p < 4; ++p) {
    results.push_back(offset_of(layer.weight(Projection(p)).data()));
    results.push_back(offset_of(layer.bias(Projection(p)).data()));
  }
  return offset_of(results.data());
}

// call: an AttentionCall, query (n_q, d), key (n_k, d), value (n_k, d), mask (n_q, n_k)
//   -> [output (n_q, d), weights of head 0 (n_q, n_k), ..., head h-1]
Offset mha_forward(const MultiHeadAttention& layer, Offset call) {
  if (!run_guarded([&] {
        const AttentionCall& c = *at<AttentionCall>(call);
        const auto options = options_of(c);
        const attn::Mask m = mask_of(c);
        const QueryKeyValue in(c);
        auto result = layer.forward(in.q, *in.k, *in.v, c.mask ? &m : nullptr, options);
        matrix_slot[0] = std::move(result.output);
        head_slot = std::move(result.weights);
        results.clear();
        results.push_back(offset_of(matrix_slot[0].data()));
        for (const auto& w : head_slot) results.push_back(offset_of(w.data()));
      }))
    throw_pending();
  return offset_of(results.data());
}

int mha_d_model(const MultiHeadAttention& layer) { return layer.d_model(); }
int mha_num_heads(const MultiHeadAttention& layer) { return layer.num_heads(); }
int mha_key_dim(const MultiHeadAttention& layer) { return layer.key_dim(); }
double mha_parameter_count(const MultiHeadAttention& layer) { return double(layer.parameter_count()); }

}  // namespace

EMSCRIPTEN_BINDINGS(attention_part) {
  using namespace emscripten;

  function("causalMask", &causal_mask);
  function("paddingMask", &padding_mask);
  function("combineMasks", &combine_masks);
  function("allowedFraction", &allowed_fraction);

  function("randomStateBytes", &random_state_bytes);
  function("randomSeed", &random_seed);
  function("randomUniform", &random_draws<&attn::Random::uniform>);
  function("randomNormal", &random_draws<&attn::Random::normal>);
  function("randomNormalMatrix", &random_normal_matrix);
  function("randomUniformMatrix", &random_uniform_matrix);

  class_<MultiHeadAttention>("MultiHeadAttention")
      .function("initSeeded", &mha_init_seeded)
      .function("setProjection", &mha_set_projection)
      .function("setFromPytorch", &mha_set_from_pytorch)
      .function("parameters", &mha_parameters)
      .function("forward", &mha_forward)
      .function("dModel", &mha_d_model)
      .function("numHeads", &mha_num_heads)
      .function("keyDim", &mha_key_dim)
      .function("parameterCount", &mha_parameter_count);
  function("createMultiHeadAttention", &mha_create, allow_raw_pointers());
}
