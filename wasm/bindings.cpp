// The core's door to JavaScript (embind). This file only translates: numbers in the WASM heap
// become attn::Matrix / attn::Mask, the core computes, results are left where JS can copy them,
// and every std::invalid_argument becomes a JS Error with the same message.
//
// It leaves out everything a caller should see: argument names, nested arrays, Float32Array
// checks and copying live in web/src/core.ts, the only intended user of this module.
//
// How data crosses (chosen for speed; embind vectors and vals cost more per call):
//   - JS asks for scratch space (scratch()), writes its inputs there with typed-array views and
//     passes byte offsets and shapes. Inputs are read through Eigen::Map, never kept.
//   - Results stay in static slots owned by this file until the next call of the same kind;
//     each compute function returns the offset of a table of uint32 offsets, one per result
//     (see `results`). Memory may grow during any call: JS takes its heap views afterwards.
//   - Errors: caught here, the message copied to a static string, and thrown as a JS Error
//     from outside the catch block (EM_JS), after restoring the stack pointer. Nothing is
//     allocated per error and no stack is lost, so nothing leaks.
#include "attn/attention.hpp"
#include "attn/experiments/heads_demo.hpp"
#include "attn/experiments/mask_demo.hpp"
#include "attn/experiments/pitfalls.hpp"
#include "attn/experiments/scale_sweep.hpp"
#include "attn/masks.hpp"
#include "attn/multihead.hpp"
#include "attn/random.hpp"
#include "attn/softmax.hpp"
#include "attn/nn/cue_trainer.hpp"

#include <emscripten.h>
#include <emscripten/bind.h>
#include <emscripten/emmalloc.h>
#include <emscripten/heap.h>
#include <emscripten/stack.h>

#include <cerrno>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <malloc.h>
#include <new>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

using Offset = std::uint32_t;  // a byte offset into the WASM heap (wasm32)

// Throws a JS Error through the wasm frames below it. Those frames never return, so the
// shadow-stack pointer is put back first (to its base: these functions are only entered from
// JS, never nested inside other wasm calls); without this every error would leak ~80 bytes of
// stack and a long session would eventually overflow it.
EM_JS(void, attn_throw_error, (const char* message, std::uintptr_t stack_base), {
  var error = new Error(UTF8ToString(message));
  stackRestore(stack_base);
  throw error;
})

namespace {

std::string pending_error;         // outlives the catch block; reused, so never leaks
std::vector<double> scratch_area;  // JS writes inputs here (double for 8-byte alignment)
std::vector<Offset> results;       // offsets of the latest results, read by JS

// Live heap blocks, counted by the malloc/free wrappers below (for leak tests).
long live_blocks = 0;

// Runs fn; a C++ exception becomes a pending message that throw_pending() raises in JS.
template <typename Fn>
bool run_guarded(Fn&& fn) {
  try {
    fn();
    return true;
  } catch (const std::invalid_argument& e) {
    pending_error = e.what();
  } catch (const std::bad_alloc&) {
    pending_error = "out of memory: the WebAssembly heap cannot grow any further";
  } catch (const std::exception& e) {
    pending_error = std::string("internal error: ") + e.what();
  }
  return false;
}

// Called only after run_guarded has returned false, with no C++ object alive in the caller.
[[noreturn]] void throw_pending() {
  attn_throw_error(pending_error.c_str(), emscripten_stack_get_base());
  __builtin_unreachable();
}

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

// ---- exported functions (names in snake_case here, camelCase in core.ts) ----

// -> offset of at least `bytes` bytes of scratch, 8-byte aligned, valid until the next call.
Offset scratch(Offset bytes) {
  Offset result = 0;
  if (!run_guarded([&] {
        if (scratch_area.size() * sizeof(double) < bytes) scratch_area.resize((bytes + 7) / 8);
        result = offset_of(scratch_area.data());
      }))
    throw_pending();
  return result;
}

// scores (rows, cols) -> [weights]
Offset softmax(Offset scores, int rows, int cols) {
  if (!run_guarded([&] {
        matrix_slot[0] = attn::softmax(matrix_at(scores, rows, cols));
        publish({matrix_slot[0].data()});
      }))
    throw_pending();
  return offset_of(results.data());
}

// query (n_q, d_k), key (n_k, d_k), value (n_k, d_v), mask (n_q, n_k) bytes or offset 0
//   -> [output (n_q, d_v), weights (n_q, n_k)]
// Every input comes with the shape JS was given, so the core sees (and names) any mismatch.
Offset attention(Offset query, int q_rows, int q_cols, Offset key, int k_rows, int k_cols,
                 Offset value, int v_rows, int v_cols, Offset mask, int m_rows, int m_cols,
                 bool scale, float masked_value) {
  if (!run_guarded([&] {
        const auto options = options_of(scale, masked_value);
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

std::uint64_t seed_of(double seed) {
  // 2^53 - 1: the largest integer a JS number holds exactly.
  if (!(seed >= 0 && seed <= 9007199254740991.0) || std::floor(seed) != seed)
    throw std::invalid_argument("seed must be a whole number between 0 and 2^53 - 1, got " +
                                std::to_string(seed));
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

void require_count(int n) {
  if (n < 0 || n > (1 << 24))
    throw std::invalid_argument("n must be between 0 and 16777216, got " + std::to_string(n));
}

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

// ---- the lesson's experiments (core/include/attn/experiments/) ----
//
// One call each, with results of many shapes, so these return a fresh JS object (an
// emscripten::val) whose arrays are typed-array copies: nothing needs freeing on the JS side.
// The core's result goes to a static slot, so no C++ object is alive in the caller when
// throw_pending() runs (a live one would make the error pass through a landing pad that
// leaves the stack pointer short); the object is built after that, and the slot emptied.
// Whole numbers arrive as doubles; the core checks their ranges and names them.

using emscripten::val;
namespace experiments = attn::experiments;

experiments::ScaleSweepResult sweep_slot;
experiments::MaskDemo mask_demo_slot;
experiments::HeadsDemo heads_demo_slot;
experiments::HalfPrecisionPitfall pitfall_slot;

int whole(const char* name, double value) {
  if (!(value >= -2147483648.0 && value <= 2147483647.0) || std::floor(value) != value)
    throw std::invalid_argument(std::string(name) + " must be a whole number of at most 32 bits, got " +
                                std::to_string(value));
  return int(value);
}

template <typename T>
val typed_copy(const char* type, const std::vector<T>& items) {
  return val::global(type).new_(emscripten::typed_memory_view(items.size(), items.data()));
}
val f64(const std::vector<double>& items) { return typed_copy("Float64Array", items); }

template <typename T, typename Convert>
val js_array(const std::vector<T>& items, Convert&& convert) {
  val out = val::array();
  for (const T& item : items) out.call<void>("push", convert(item));
  return out;
}

// Converts the slot's result to JS, then empties the slot.
template <typename Result, typename ToJs>
val take(Result& slot, ToJs&& to_js) {
  val out = to_js(slot);
  slot = Result();
  return out;
}

val sweep_stat(const experiments::SweepStat& s) {
  val o = val::object();
  o.set("mean", s.mean);
  o.set("standardError", s.standard_error);
  o.set("perDraw", f64(s.per_draw));
  return o;
}

val sweep_measures(const experiments::SweepMeasures& m) {
  val o = val::object();
  o.set("maxWeight", sweep_stat(m.max_weight));
  o.set("entropy", sweep_stat(m.entropy));
  o.set("jacobianNorm", sweep_stat(m.jacobian_norm));
  return o;
}

val sweep_js(const experiments::ScaleSweepResult& r) {
  val o = val::object();
  o.set("draws", r.draws);
  o.set("tokens", r.tokens);
  o.set("seed", double(r.seed));
  val uniform = val::object();
  uniform.set("maxWeight", r.uniform.max_weight);
  uniform.set("entropy", r.uniform.entropy);
  uniform.set("jacobianNorm", r.uniform.jacobian_norm);
  o.set("uniform", uniform);
  o.set("rows", js_array(r.rows, [](const experiments::ScaleSweepRow& row) {
          val x = val::object();
          x.set("dk", row.d_k);
          x.set("unscaled", sweep_measures(row.unscaled));
          x.set("scaled", sweep_measures(row.scaled));
          return x;
        }));
  return o;
}

// d_ks: `count` doubles at offset d_ks -> { draws, tokens, seed, uniform, rows: [...] }
val scale_sweep(Offset d_ks, int count, double draws, double tokens, double seed) {
  if (!run_guarded([&] {
        if (count < 0) throw std::invalid_argument("d_ks must not have a negative length, got " + std::to_string(count));
        std::vector<int> dk_list;
        for (int i = 0; i < count; ++i) dk_list.push_back(whole("d_k", at<double>(d_ks)[i]));
        sweep_slot = experiments::scale_sweep(dk_list, whole("draws", draws), whole("tokens", tokens), seed_of(seed));
      }))
    throw_pending();
  return take(sweep_slot, sweep_js);
}

val mask_demo_js(const experiments::MaskDemo& r) {
  val o = val::object();
  o.set("positions", r.positions);
  o.set("real", r.real);
  o.set("dK", r.d_k);
  o.set("seed", double(r.seed));
  o.set("maskedValue", r.masked_value);
  o.set("scores", f64(r.scores));
  o.set("cases", js_array(r.cases, [](const experiments::MaskDemoCase& c) {
          val x = val::object();
          x.set("name", c.name);
          x.set("allowed", typed_copy("Uint8Array", c.allowed));
          x.set("allowedFraction", c.allowed_fraction);
          x.set("weights", f64(c.weights));
          x.set("rowSums", f64(c.row_sums));
          x.set("maxBlockedWeight", c.max_blocked_weight);
          x.set("blockedExactlyZero", c.blocked_exactly_zero);
          x.set("mistakeWeights", f64(c.mistake_weights));
          x.set("mistakeRowSums", f64(c.mistake_row_sums));
          return x;
        }));
  return o;
}

// -> { positions, real, dK, seed, maskedValue, scores, cases: [...] }
val mask_demo(double positions, double real, double seed, double d_k) {
  if (!run_guarded([&] {
        mask_demo_slot = experiments::mask_demo(whole("positions", positions), whole("real", real), seed_of(seed),
                                        whole("d_k", d_k));
      }))
    throw_pending();
  return take(mask_demo_slot, mask_demo_js);
}

val heads_layer_js(const experiments::HeadsDemoLayer& layer) {
  val o = val::object();
  o.set("numHeads", layer.num_heads);
  o.set("keyDim", layer.key_dim);
  o.set("parameterCount", double(layer.parameter_count));
  o.set("weights", js_array(layer.weights, [](const std::vector<double>& w) { return f64(w); }));
  o.set("argmax", js_array(layer.argmax, [](const std::vector<int>& a) { return typed_copy("Int32Array", a); }));
  o.set("meanMaxWeight", f64(layer.mean_max_weight));
  o.set("meanEntropy", f64(layer.mean_entropy));
  return o;
}

val heads_demo_js(const experiments::HeadsDemo& r) {
  val o = val::object();
  o.set("dModel", r.d_model);
  o.set("tokens", r.tokens);
  o.set("seed", double(r.seed));
  o.set("multi", heads_layer_js(r.multi));
  o.set("single", heads_layer_js(r.single));
  o.set("headDistance", f64(r.head_distance));
  o.set("queriesWithDifferingArgmax", r.queries_with_differing_argmax);
  return o;
}

// -> { dModel, tokens, seed, multi, single, headDistance, queriesWithDifferingArgmax }
val heads_demo(double d_model, double num_heads, double tokens, double seed) {
  if (!run_guarded([&] {
        heads_demo_slot = experiments::heads_demo(whole("d_model", d_model), whole("num_heads", num_heads),
                                          whole("tokens", tokens), seed_of(seed));
      }))
    throw_pending();
  return take(heads_demo_slot, heads_demo_js);
}

val pitfall_js(const experiments::HalfPrecisionPitfall& r) {
  val o = val::object();
  o.set("positions", r.positions);
  o.set("real", r.real);
  o.set("dK", r.d_k);
  o.set("seed", double(r.seed));
  o.set("allowed", typed_copy("Uint8Array", r.allowed));
  o.set("fullyMaskedRows", typed_copy("Int32Array", r.fully_masked_rows));
  o.set("cases", js_array(r.cases, [](const experiments::PitfallCase& c) {
          val x = val::object();
          x.set("precision", c.precision);
          x.set("constant", c.constant);
          x.set("requested", c.requested);
          x.set("stored", c.stored);
          x.set("weights", f64(c.weights));
          x.set("rowSums", f64(c.row_sums));
          x.set("fullyMaskedRowsNan", c.fully_masked_rows_nan);
          x.set("allFinite", c.all_finite);
          x.set("blockedExactlyZero", c.blocked_exactly_zero);
          return x;
        }));
  return o;
}

// -> { positions, real, dK, seed, allowed, fullyMaskedRows, cases: [...] }
val half_precision_pitfall(double positions, double real, double seed, double d_k) {
  if (!run_guarded([&] {
        pitfall_slot = experiments::half_precision_pitfall(whole("positions", positions), whole("real", real),
                                                   seed_of(seed), whole("d_k", d_k));
      }))
    throw_pending();
  return take(pitfall_slot, pitfall_js);
}

// ---- memory figures for the leak tests ----

struct MemoryStats {
  double heap_bytes;        // size of the WASM memory
  double used_bytes;        // bytes in allocated blocks (mallinfo)
  double live_allocations;  // blocks allocated and not yet freed
};

MemoryStats memory_stats() {
  const struct mallinfo info = mallinfo();
  return {double(emscripten_get_heap_size()), double(info.uordblks), double(live_blocks)};
}

}  // namespace

// The allocator, counting live blocks for the leak tests: these strong definitions replace
// dlmalloc's weak malloc/free/... (the documented way to hook malloc in Emscripten); the work
// is still done by dlmalloc through its emscripten_builtin_* names.
extern "C" {
void* malloc(std::size_t size) {
  void* p = emscripten_builtin_malloc(size);
  if (p) ++live_blocks;
  return p;
}
void free(void* p) {
  if (p) --live_blocks;
  emscripten_builtin_free(p);
}
void* memalign(std::size_t alignment, std::size_t size) {
  void* p = emscripten_builtin_memalign(alignment, size);
  if (p) ++live_blocks;
  return p;
}
void* aligned_alloc(std::size_t alignment, std::size_t size) { return memalign(alignment, size); }
int posix_memalign(void** out, std::size_t alignment, std::size_t size) {
  void* p = memalign(alignment, size);
  if (!p) return ENOMEM;
  *out = p;
  return 0;
}
void* calloc(std::size_t count, std::size_t size) {
  if (size && count > SIZE_MAX / size) return nullptr;
  void* p = malloc(count * size);
  if (p) std::memset(p, 0, count * size);
  return p;
}
void* realloc(void* old, std::size_t size) {
  if (!old) return malloc(size);
  if (!size) {
    free(old);
    return nullptr;
  }
  void* p = malloc(size);
  if (!p) return nullptr;
  const std::size_t old_size = malloc_usable_size(old);
  std::memcpy(p, old, old_size < size ? old_size : size);
  free(old);
  return p;
}
}

// ---- the cue task's trainer (tiny transformer, core/nn/): a handle core.ts keeps private ----
namespace {

// A trainer plus what the page reads between calls: the latest batch's figures and the
// latest analysis. Allocated by cue_create, freed by the handle's delete().
struct CueSession {
  explicit CueSession(const attn::nn::CueTrainConfig& config) : trainer(config) {
    trainer.on_batch = [this](const attn::nn::BatchReport& r) { last_batch = r; };
  }
  CueSession(const CueSession&) = delete;
  CueSession& operator=(const CueSession&) = delete;

  attn::nn::CueTrainer trainer;
  attn::nn::BatchReport last_batch;
  std::string circuit = "none";
  std::vector<double> slot;  // the latest history or analysis table, read by JS
};

struct CueStatus {
  double epoch;              // completed epochs
  double batch;              // batches done in the current epoch
  double batches_per_epoch;
  double epochs;             // configured
  bool finished;
  double parameter_count;
  double best_validation_accuracy;
  double best_epoch;
  double baseline_accuracy;  // most frequent body symbol, validation set
  double chance_accuracy;
  double last_batch_loss;    // NaN before the first batch
  double last_batch_accuracy;
};

CueSession* cue_create(int blocks, int heads, int epochs, int batch_size, double learning_rate,
                       double dropout, double seed, int length, bool post_layer_norm,
                       bool last_query_only) {
  CueSession* session = nullptr;
  if (!run_guarded([&] {
        attn::nn::CueTrainConfig config;
        config.blocks = blocks;
        config.heads = heads;
        config.epochs = epochs;
        config.batch_size = batch_size;
        config.adam.learning_rate = learning_rate;
        config.dropout = dropout;
        config.seed = seed_of(seed);
        config.task.length = length;
        config.post_layer_norm = post_layer_norm;
        config.last_query_only = last_query_only;
        session = new CueSession(config);
      }))
    throw_pending();
  return session;
}

void require_unfinished(const CueSession& s) {
  if (s.trainer.finished())
    throw std::invalid_argument("training is finished: all " + std::to_string(s.trainer.config().epochs) +
                                " epochs ran");
}

// -> completed epochs
int cue_train_epoch(CueSession& s) {
  if (!run_guarded([&] {
        require_unfinished(s);
        s.trainer.train_epoch();
      }))
    throw_pending();
  return s.trainer.epoch();
}

// -> batches run (0 when finished)
int cue_train_batches(CueSession& s, int n) {
  int done = 0;
  if (!run_guarded([&] { done = s.trainer.train_batches(n); })) throw_pending();
  return done;
}

CueStatus cue_status(const CueSession& s) {
  const auto& t = s.trainer;
  const bool any = s.last_batch.batch > 0;
  return {double(t.epoch()), double(t.batch_in_epoch()), double(t.batches_per_epoch()),
          double(t.config().epochs), t.finished(), double(t.parameter_count()),
          t.best_validation_accuracy(), double(t.best_epoch()), t.baseline_accuracy(),
          t.chance_accuracy(), any ? s.last_batch.loss : NAN, any ? s.last_batch.accuracy : NAN};
}

// -> [epochs x (epoch, train loss, train accuracy, validation loss, validation accuracy)]
Offset cue_history(CueSession& s) {
  s.slot.clear();
  for (const auto& m : s.trainer.history())
    s.slot.insert(s.slot.end(), {double(m.epoch), m.train_loss, m.train_accuracy, m.validation_loss,
                                 m.validation_accuracy});
  publish({s.slot.data()});
  return offset_of(results.data());
}

// -> [heads x 4 (last block by offset -2, -1, 0, +1), heads (first block cue -> next)]
Offset cue_analyse(CueSession& s) {
  if (!run_guarded([&] {
        const attn::nn::CueAnalysis a = s.trainer.analyse();
        s.slot.clear();
        for (const auto& head : a.last_block_by_offset) s.slot.insert(s.slot.end(), head.begin(), head.end());
        s.slot.insert(s.slot.end(), a.first_block_cue_to_next.begin(), a.first_block_cue_to_next.end());
        s.circuit = a.circuit;
        publish({s.slot.data()});
      }))
    throw_pending();
  return offset_of(results.data());
}

// "cue", "answer" or "none", from the latest cue_analyse.
std::string cue_circuit(const CueSession& s) { return s.circuit; }
int cue_heads(const CueSession& s) { return s.trainer.config().heads; }
double cue_default_seed() { return double(attn::nn::kCueDefaultSeed); }

}  // namespace

EMSCRIPTEN_BINDINGS(attention_core) {
  using namespace emscripten;

  value_object<MemoryStats>("MemoryStats")
      .field("heapBytes", &MemoryStats::heap_bytes)
      .field("usedBytes", &MemoryStats::used_bytes)
      .field("liveAllocations", &MemoryStats::live_allocations);

  function("scratch", &scratch);
  function("softmax", &softmax);
  function("attention", &attention);
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

  function("scaleSweep", &scale_sweep);
  function("maskDemo", &mask_demo);
  function("headsDemo", &heads_demo);
  function("halfPrecisionPitfall", &half_precision_pitfall);

  function("memoryStats", &memory_stats);

  value_object<CueStatus>("CueStatus")
      .field("epoch", &CueStatus::epoch)
      .field("batch", &CueStatus::batch)
      .field("batchesPerEpoch", &CueStatus::batches_per_epoch)
      .field("epochs", &CueStatus::epochs)
      .field("finished", &CueStatus::finished)
      .field("parameterCount", &CueStatus::parameter_count)
      .field("bestValidationAccuracy", &CueStatus::best_validation_accuracy)
      .field("bestEpoch", &CueStatus::best_epoch)
      .field("baselineAccuracy", &CueStatus::baseline_accuracy)
      .field("chanceAccuracy", &CueStatus::chance_accuracy)
      .field("lastBatchLoss", &CueStatus::last_batch_loss)
      .field("lastBatchAccuracy", &CueStatus::last_batch_accuracy);
  class_<CueSession>("CueSession")
      .function("trainEpoch", &cue_train_epoch)
      .function("trainBatches", &cue_train_batches)
      .function("status", &cue_status)
      .function("history", &cue_history)
      .function("analyse", &cue_analyse)
      .function("circuit", &cue_circuit)
      .function("heads", &cue_heads);
  function("createCueSession", &cue_create, allow_raw_pointers());
  function("cueDefaultSeed", &cue_default_seed);
}
