// The core's door to JavaScript (embind), in four parts linked into two modules (wasm/CMakeLists.txt):
//   bind_common.cpp       both modules: the scratch area, errors, limits, memory figures, and
//                         every config's defaults and fields (the attention core's users read
//                         them too)
//   bind_attention.cpp    both modules: attention, masks, the generator, multi-head layers
//   bind_experiments.cpp  the whole core only: the lesson's experiments
//   bind_trainer.cpp      the whole core only: the cue trainer
// attention_core is the first two parts, for a page whose widgets need only attention;
// attention_lab is all four, for the lesson's pages and the training Worker. These files only
// translate: they bind the core's functions and classes, and every C++ error becomes a JS Error
// with the same message (errors.hpp). The facade (web/src/core/) is their only intended user.
//
// Two kinds of calls:
//   - The fast path, for calls a page makes many times a second (attention, softmax, masks,
//     the generator, multi-head layers): inputs are written by JS into a scratch area and
//     passed as byte offsets and shapes, read through Eigen::Map; results stay in static
//     slots until the next call of the same kind, and the function returns the offset of a
//     table of their offsets (`results`). Memory may grow during any call: JS takes its heap
//     views afterwards. Measured: this is several times cheaper per call than embind vectors.
//     scratch, attention and softmax skip embind altogether (plain exports, bind_attention.cpp).
//   - Everything else crosses as plain JS objects through value_object bindings made from the
//     core's field lists (js_struct.hpp): configs in (defaults and ranges exported too),
//     results out, and the cue trainer as a class handle.
#include "errors.hpp"
#include "heap.hpp"
#include "js_struct.hpp"

#include "attn/attention.hpp"
#include "attn/config.hpp"
#include "attn/cue/trainer.hpp"
#include "attn/experiments/attention_steps.hpp"
#include "attn/experiments/heads_demo.hpp"
#include "attn/experiments/mask_demo.hpp"
#include "attn/experiments/pitfalls.hpp"
#include "attn/experiments/scale_sweep.hpp"

#include <emscripten/bind.h>
#include <emscripten/heap.h>

#include <malloc.h>
#include <string>
#include <vector>

using namespace attn::wasm;

namespace {

std::vector<double> scratch_area;  // JS writes inputs here (double for 8-byte alignment)

}  // namespace

extern "C" {

// -> offset of at least `bytes` bytes of scratch, 8-byte aligned, valid until the next call.
// A plain export (the facade calls `_attn_scratch`): see bind_attention.cpp for why.
EMSCRIPTEN_KEEPALIVE Offset attn_scratch(Offset bytes) {
  Offset result = 0;
  if (!run_guarded([&] {
        if (scratch_area.size() * sizeof(double) < bytes) scratch_area.resize((bytes + 7) / 8);
        result = offset_of(scratch_area.data());
      }))
    throw_pending();
  return result;
}

}  // extern "C"

namespace {

namespace experiments = attn::experiments;
namespace nn = attn::nn;

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
  pending.raisable = false;  // answered here, not raised
  return {pending.argument, pending.message};
}

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

EMSCRIPTEN_BINDINGS(attention_common) {
  using namespace emscripten;

  function("raiseError", &raise_pending);

  register_struct<FieldSpec>("FieldSpec");
  register_struct<Limits>("Limits");
  register_struct<MemoryStats>("MemoryStats");
  function("limits", &limits);
  function("memoryStats", &memory_stats);

  register_config<attn::AttentionOptions>("AttentionOptions", "attentionOptions");
  register_config<experiments::ScaleSweepConfig>("ScaleSweepConfig", "scaleSweepConfig");
  register_config<experiments::MaskDemoConfig>("MaskDemoConfig", "maskDemoConfig");
  register_config<experiments::HeadsDemoConfig>("HeadsDemoConfig", "headsDemoConfig");
  register_config<experiments::PitfallConfig>("PitfallConfig", "pitfallConfig");
  register_config<experiments::AttentionStepsConfig>("AttentionStepsConfig", "attentionStepsConfig");
  register_config<nn::CueTrainConfig>("CueTrainConfig", "cueTrainConfig");
  register_config<nn::InterventionConfig>("InterventionConfig", "interventionConfig");
  register_struct<ConfigCheck>("ConfigCheck");
  function("cueTrainConfigError", &cue_config_error);
}
