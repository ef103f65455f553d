// The core's door to JavaScript (embind). This file only translates: it binds the core's
// functions and classes, and every C++ error becomes a JS Error with the same message
// (errors.hpp). web/src/core.ts is its only intended user.
//
// Two kinds of calls:
//   - The fast path, for calls a page makes many times a second (attention, softmax, masks,
//     the generator, multi-head layers): inputs are written by JS into a scratch area and
//     passed as byte offsets and shapes, read through Eigen::Map; results stay in static
//     slots until the next call of the same kind, and the function returns the offset of a
//     table of their offsets (`results`). Memory may grow during any call: JS takes its heap
//     views afterwards. Measured: this is several times cheaper per call than embind vectors.
//     scratch, attention and softmax skip embind altogether (plain exports, see attn_attention).
//   - Everything else crosses as plain JS objects through value_object bindings made from the
//     core's field lists (js_struct.hpp): configs in (defaults and ranges exported too),
//     results out, and the cue trainer as a class handle.
#include "errors.hpp"
#include "js_struct.hpp"

#include "attn/attention.hpp"
#include "attn/config.hpp"
#include "attn/experiments/attention_steps.hpp"
#include "attn/experiments/heads_demo.hpp"
#include "attn/experiments/mask_demo.hpp"
#include "attn/experiments/pitfalls.hpp"
#include "attn/experiments/scale_sweep.hpp"
#include "attn/masks.hpp"
#include "attn/multihead.hpp"
#include "attn/nn/cue_trainer.hpp"
#include "attn/random.hpp"
#include "attn/softmax.hpp"

#include <emscripten/bind.h>
#include <emscripten/heap.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <malloc.h>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace {

using namespace attn::wasm;
using Offset = std::uint32_t;  // a byte offset into the WASM heap (wasm32)

// ---- the fast path ----

std::vector<double> scratch_area;  // JS writes inputs here (double for 8-byte alignment)
std::vector<Offset> results;       // offsets of the latest results, read by JS

Offset offset_of(const void* p) { return static_cast<Offset>(reinterpret_cast<std::uintptr_t>(p)); }

template <typename T>
const T* at(Offset offset) {
  return reinterpret_cast<const T*>(static_cast<std::uintptr_t>(offset));
}

attn::Matrix matrix_at(Offset data, int rows, int cols) {
  return Eigen::Map<const attn::Matrix>(at<float>(data), rows, cols);
}

// Masks cross as bytes, 1 = may attend.
attn::Mask mask_at(Offset data, int rows, int cols) {
  using Bytes = Eigen::Matrix<std::uint8_t, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
  return Eigen::Map<const Bytes>(at<std::uint8_t>(data), rows, cols).array() != 0;
}

// Query, key and value as the core takes them. Self-attention passes one array for all three
// (same offset and shape): it is copied once and shared.
struct QueryKeyValue {
  attn::Matrix q, k_copy, v_copy;
  const attn::Matrix* k;
  const attn::Matrix* v;
  QueryKeyValue(Offset query, int q_rows, int q_cols, Offset key, int k_rows, int k_cols,
                Offset value, int v_rows, int v_cols)
      : q(matrix_at(query, q_rows, q_cols)) {
    const bool k_is_q = key == query && k_rows == q_rows && k_cols == q_cols;
    if (!k_is_q) k_copy = matrix_at(key, k_rows, k_cols);
    k = k_is_q ? &q : &k_copy;
    const bool v_is_k = value == key && v_rows == k_rows && v_cols == k_cols;
    if (!v_is_k) v_copy = matrix_at(value, v_rows, v_cols);
    v = v_is_k ? k : &v_copy;
  }
  QueryKeyValue(const QueryKeyValue&) = delete;
  QueryKeyValue& operator=(const QueryKeyValue&) = delete;
};

attn::AttentionOptions options_of(bool scale, float masked_value) {
  attn::AttentionOptions options;
  options.scale = scale;
  options.masked_value = masked_value;
  return options;
}

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

// ---- exported functions (names in snake_case here, camelCase in core.ts) ----

// The calls a widget makes on every drag or key press are plain WebAssembly exports, which
// core.ts calls as `_attn_scratch`, `_attn_softmax` and `_attn_attention`: measured in node, such
// a call costs about 0.03 us where embind's invoker (built without eval, DYNAMIC_EXECUTION=0)
// takes 0.3 us for attention's 14 arguments, a sixth of a soft-lookup update.
extern "C" {

// -> offset of at least `bytes` bytes of scratch, 8-byte aligned, valid until the next call.
EMSCRIPTEN_KEEPALIVE Offset attn_scratch(Offset bytes) {
  Offset result = 0;
  if (!run_guarded([&] {
        if (scratch_area.size() * sizeof(double) < bytes) scratch_area.resize((bytes + 7) / 8);
        result = offset_of(scratch_area.data());
      }))
    throw_pending();
  return result;
}

// scores (rows, cols) -> [weights]
EMSCRIPTEN_KEEPALIVE Offset attn_softmax(Offset scores, int rows, int cols) {
  if (!run_guarded([&] {
        matrix_slot[0] = attn::softmax(matrix_at(scores, rows, cols));
        publish({matrix_slot[0].data()});
      }))
    throw_pending();
  return offset_of(results.data());
}

// query (n_q, d_k), key (n_k, d_k), value (n_k, d_v), mask (n_q, n_k) bytes or offset 0,
// scale 0 or 1 -> [output (n_q, d_v), weights (n_q, n_k)]
// Every input comes with the shape JS was given, so the core sees (and names) any mismatch.
EMSCRIPTEN_KEEPALIVE Offset attn_attention(Offset query, int q_rows, int q_cols, Offset key, int k_rows, int k_cols,
                                           Offset value, int v_rows, int v_cols, Offset mask, int m_rows, int m_cols,
                                           int scale, float masked_value) {
  if (!run_guarded([&] {
        const auto options = options_of(scale != 0, masked_value);
        const QueryKeyValue in(query, q_rows, q_cols, key, k_rows, k_cols, value, v_rows, v_cols);
        auto result = mask ? attn::attention(in.q, *in.k, *in.v, mask_at(mask, m_rows, m_cols), options)
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
  if (!run_guarded([&] { fraction = attn::allowed_fraction(mask_at(mask, rows, cols)); }))
    throw_pending();
  return fraction;
}

// ---- the seeded generator: its whole state lives in JS, as bytes ----
//
// attn::Random is trivially copyable, so JS can hold its state and hand it back for each
// batch of draws: no handle to free, and a generator can be copied or stored like any data.
static_assert(std::is_trivially_copyable<attn::Random>::value,
              "the JS facade keeps attn::Random's state as bytes");

int random_state_bytes() { return int(sizeof(attn::Random)); }

// A seed crosses as a double; the core's seed range (0..2^53 - 1) is checked here, where it is
// still a double, by the core's own check.
std::uint64_t seed_of(double seed) {
  attn::require_whole(attn::argument("seed", 0, double(attn::kMaxSeed)), seed);
  if (std::floor(seed) != seed) throw attn::ArgumentError("seed", "must be a whole number, got " + std::to_string(seed));
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

// -> [n doubles in [0, 1)]
Offset random_uniform(Offset state, int n) {
  return with_random(state, [&](attn::Random& rng) {
    require_count(n);
    draw_slot.resize(std::size_t(n));
    for (double& x : draw_slot) x = rng.uniform();
    publish({draw_slot.data()});
  });
}

// -> [n doubles, standard normal]
Offset random_normal(Offset state, int n) {
  return with_random(state, [&](attn::Random& rng) {
    require_count(n);
    draw_slot.resize(std::size_t(n));
    for (double& x : draw_slot) x = rng.normal();
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

// ---- multi-head attention: a class handle that core.ts keeps private and deletes ----

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
void mha_set_projection(MultiHeadAttention& layer, int which, Offset weight, int rows, int cols,
                        Offset bias, int bias_cols) {
  if (!run_guarded([&] {
        if (which < 0 || which > 3)
          throw std::invalid_argument("projection must be 0..3, got " + std::to_string(which));
        layer.set_projection(Projection(which), matrix_at(weight, rows, cols), matrix_at(bias, 1, bias_cols));
      }))
    throw_pending();
}

// PyTorch's in_proj_weight (3d, d), in_proj_bias (1, 3d), out_proj_weight (d, d),
// out_proj_bias (1, d), with the shapes JS was given.
void mha_set_from_pytorch(MultiHeadAttention& layer, Offset in_w, int in_w_rows, int in_w_cols,
                          Offset in_b, int in_b_cols, Offset out_w, int out_w_rows, int out_w_cols,
                          Offset out_b, int out_b_cols) {
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

// query (n_q, d), key (n_k, d), value (n_k, d), mask (n_q, n_k) bytes or 0
//   -> [output (n_q, d), weights of head 0 (n_q, n_k), ..., head h-1]
Offset mha_forward(const MultiHeadAttention& layer, Offset query, int q_rows, int q_cols, Offset key,
                   int k_rows, int k_cols, Offset value, int v_rows, int v_cols, Offset mask,
                   int m_rows, int m_cols, bool scale, float masked_value) {
  if (!run_guarded([&] {
        const auto options = options_of(scale, masked_value);
        const attn::Mask m = mask ? mask_at(mask, m_rows, m_cols) : attn::Mask();
        const QueryKeyValue in(query, q_rows, q_cols, key, k_rows, k_cols, value, v_rows, v_cols);
        auto result = layer.forward(in.q, *in.k, *in.v, mask ? &m : nullptr, options);
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


// ---- the lesson's experiments and the cue trainer: objects in, objects out ----

namespace experiments = attn::experiments;
namespace nn = attn::nn;

// Runs the core on a config object. Never throws into JS (the config's heap copy is freed
// only when the call returns): on failure it returns an empty Result and leaves the message,
// in JS names, for takeError().
template <typename Config, typename Result>
Result on_config(Result (*compute)(const Config&), const Config& config) {
  Result result;
  run_guarded<Config>([&] { result = compute(config); });
  return result;
}

experiments::ScaleSweepResult scale_sweep(const experiments::ScaleSweepConfig& c) { return on_config(&experiments::scale_sweep, c); }
experiments::MaskDemo mask_demo(const experiments::MaskDemoConfig& c) { return on_config(&experiments::mask_demo, c); }
experiments::HeadsDemo heads_demo(const experiments::HeadsDemoConfig& c) { return on_config(&experiments::heads_demo, c); }
experiments::HalfPrecisionPitfall pitfall(const experiments::PitfallConfig& c) {
  return on_config(&experiments::half_precision_pitfall, c);
}

experiments::AttentionSteps attention_steps(const experiments::AttentionStepsConfig& c) {
  return on_config<experiments::AttentionStepsConfig, experiments::AttentionSteps>(&experiments::attention_steps, c);
}

// Given cells: query (tokens, d_k), key (tokens, d_k), value (tokens, d_v) at these offsets, the
// shapes the config names (checked first, so nothing is read beyond what JS wrote).
experiments::AttentionSteps attention_steps_given(const experiments::AttentionStepsConfig& c, Offset query,
                                                  Offset key, Offset value) {
  experiments::AttentionSteps result;
  run_guarded<experiments::AttentionStepsConfig>([&] {
    attn::require_fields(c);
    result = experiments::attention_steps(c, matrix_at(query, c.tokens, c.d_k), matrix_at(key, c.tokens, c.d_k),
                                          matrix_at(value, c.tokens, c.d_v));
  });
  return result;
}

using nn::CueTrainer;

// -> a trainer handle, or null with the message left for takeError().
CueTrainer* create_cue_trainer(const nn::CueTrainConfig& config) {
  CueTrainer* trainer = nullptr;
  run_guarded<nn::CueTrainConfig>([&] { trainer = new CueTrainer(config); });
  return trainer;
}

// A trainer method that may throw, as a function that raises a JS Error instead. The result
// waits in a static slot while the error is raised, so no C++ object is alive in this frame.
template <auto Method, typename... Args>
auto guarded(CueTrainer& trainer, Args... args) {
  using Result = decltype((trainer.*Method)(args...));
  static Result slot;
  if (!run_guarded<nn::CueTrainConfig>([&] { slot = (trainer.*Method)(args...); })) throw_pending();
  return std::exchange(slot, Result());
}

// What is wrong with a training config, as the trainer would say it: the field's JS name and
// the message, both "" for a valid config. Lets a page check its inputs before it trains.
struct ConfigCheck {
  std::string key, message;

  template <typename Visit>
  static void fields(Visit&& visit) {
    visit("key", attn::member<&ConfigCheck::key>);
    visit("message", attn::member<&ConfigCheck::message>);
  }
};

ConfigCheck cue_config_error(const nn::CueTrainConfig& config) {
  run_guarded<nn::CueTrainConfig>([&] { nn::require_cue_train_config(config); });
  return {pending_argument, take_error()};
}

val cue_history(const CueTrainer& trainer) { return to_js(trainer.history()); }

// tokens: n int32 at this offset -> the probe (cue_probe.hpp).
nn::CueProbe cue_probe(CueTrainer& trainer, Offset tokens, int n) {
  static nn::CueProbe slot;
  if (!run_guarded<nn::CueTrainConfig>([&] {
        attn::require_range("tokens", n, 0, attn::kMaxElements);
        slot = trainer.probe(std::vector<int>(at<int>(tokens), at<int>(tokens) + n));
      }))
    throw_pending();
  return std::exchange(slot, nn::CueProbe());
}

// -> every parameter, as a Float32Array in the model's parameter order.
val cue_weights(const CueTrainer& trainer) { return to_js(trainer.weights()); }

// weights: n float32 at this offset, in the model's parameter order.
void cue_load_weights(CueTrainer& trainer, Offset weights, int n) {
  if (!run_guarded<nn::CueTrainConfig>([&] {
        attn::require_range("weights", n, 0, attn::kMaxElements);
        trainer.load_weights(std::vector<float>(at<float>(weights), at<float>(weights) + n));
      }))
    throw_pending();
}
double cue_parameter_count(const CueTrainer& trainer) { return double(trainer.parameter_count()); }

// ---- sizes and memory ----

struct Limits {
  double max_elements = double(attn::kMaxElements);  // values in one matrix, mask or batch of draws
  double max_seed = double(attn::kMaxSeed);

  template <typename Visit>
  static void fields(Visit&& visit) {
    visit("maxElements", attn::member<&Limits::max_elements>);
    visit("maxSeed", attn::member<&Limits::max_seed>);
  }
};
Limits limits() { return {}; }

struct MemoryStats {
  double heap_bytes;  // size of the WASM memory
  double used_bytes;  // bytes in allocated blocks (mallinfo)

  template <typename Visit>
  static void fields(Visit&& visit) {
    visit("heapBytes", attn::member<&MemoryStats::heap_bytes>);
    visit("usedBytes", attn::member<&MemoryStats::used_bytes>);
  }
};

MemoryStats memory_stats() {
  const struct mallinfo info = mallinfo();
  return {double(emscripten_get_heap_size()), double(info.uordblks)};
}

}  // namespace

EMSCRIPTEN_BINDINGS(attention_core) {
  using namespace emscripten;

  function("takeError", &take_error);

  function("causalMask", &causal_mask);
  function("paddingMask", &padding_mask);
  function("combineMasks", &combine_masks);
  function("allowedFraction", &allowed_fraction);

  function("randomStateBytes", &random_state_bytes);
  function("randomSeed", &random_seed);
  function("randomUniform", &random_uniform);
  function("randomNormal", &random_normal);
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

  register_struct<FieldSpec>("FieldSpec");
  register_struct<Limits>("Limits");
  register_struct<MemoryStats>("MemoryStats");
  function("limits", &limits);
  function("memoryStats", &memory_stats);

  register_struct<experiments::ScaleSweepConfig>("ScaleSweepConfig");
  register_struct<ConfigSpec<experiments::ScaleSweepConfig>>("ScaleSweepConfigSpec");
  register_struct<experiments::RowMeasures>("RowMeasures");
  register_struct<experiments::SweepStat>("SweepStat");
  register_struct<experiments::SweepMeasures>("SweepMeasures");
  register_struct<experiments::ScaleSweepRow>("ScaleSweepRow");
  register_struct<experiments::ScaleSweepResult>("ScaleSweepResult");
  function("scaleSweepConfig", &config_spec<experiments::ScaleSweepConfig>);
  function("scaleSweep", &scale_sweep);

  register_struct<experiments::MaskDemoConfig>("MaskDemoConfig");
  register_struct<ConfigSpec<experiments::MaskDemoConfig>>("MaskDemoConfigSpec");
  register_struct<experiments::MaskDemoCase>("MaskDemoCase");
  register_struct<experiments::MaskDemo>("MaskDemo");
  function("maskDemoConfig", &config_spec<experiments::MaskDemoConfig>);
  function("maskDemo", &mask_demo);

  register_struct<experiments::HeadsDemoConfig>("HeadsDemoConfig");
  register_struct<ConfigSpec<experiments::HeadsDemoConfig>>("HeadsDemoConfigSpec");
  register_struct<experiments::HeadsDemoLayer>("HeadsDemoLayer");
  register_struct<experiments::HeadsDemo>("HeadsDemo");
  function("headsDemoConfig", &config_spec<experiments::HeadsDemoConfig>);
  function("headsDemo", &heads_demo);

  register_struct<experiments::PitfallConfig>("PitfallConfig");
  register_struct<ConfigSpec<experiments::PitfallConfig>>("PitfallConfigSpec");
  register_struct<experiments::PitfallCase>("PitfallCase");
  register_struct<experiments::HalfPrecisionPitfall>("HalfPrecisionPitfall");
  function("pitfallConfig", &config_spec<experiments::PitfallConfig>);
  function("halfPrecisionPitfall", &pitfall);

  register_struct<experiments::AttentionStepsConfig>("AttentionStepsConfig");
  register_struct<ConfigSpec<experiments::AttentionStepsConfig>>("AttentionStepsConfigSpec");
  register_struct<experiments::AttentionSteps>("AttentionSteps");
  function("attentionStepsConfig", &config_spec<experiments::AttentionStepsConfig>);
  function("attentionSteps", &attention_steps);
  function("attentionStepsGiven", &attention_steps_given);

  register_struct<nn::CueTrainConfig>("CueTrainConfig");
  register_struct<ConfigSpec<nn::CueTrainConfig>>("CueTrainConfigSpec");
  register_struct<nn::EpochMetrics>("EpochMetrics");
  register_struct<nn::BatchReport>("BatchReport");
  register_struct<nn::CueAnalysis>("CueAnalysis");
  register_struct<nn::CueProgress>("CueProgress");
  register_struct<nn::CueReport>("CueReport");
  register_struct<nn::CueProbe>("CueProbe");
  function("cueTrainConfig", &config_spec<nn::CueTrainConfig>);
  class_<CueTrainer>("CueTrainer")
      .function("trainEpoch", &guarded<&CueTrainer::train_epoch>)
      .function("trainBatches", &guarded<&CueTrainer::train_batches, int>)
      .function("progress", &CueTrainer::progress)
      .function("history", &cue_history)
      .function("parameterCount", &cue_parameter_count)
      .function("baselineAccuracy", &CueTrainer::baseline_accuracy)
      .function("chanceAccuracy", &CueTrainer::chance_accuracy)
      .function("analyse", &guarded<&CueTrainer::analyse>)
      .function("report", &guarded<&CueTrainer::report>)
      .function("probe", &cue_probe)
      .function("weights", &cue_weights)
      .function("loadWeights", &cue_load_weights);
  function("createCueTrainer", &create_cue_trainer, allow_raw_pointers());
  register_struct<ConfigCheck>("ConfigCheck");
  function("cueTrainConfigError", &cue_config_error);
}
