// The training Worker's part of the core's door to JavaScript (the overview is at the top of
// bind_common.cpp): the cue trainer, as a class handle that the facade keeps private and deletes.
#include "errors.hpp"
#include "heap.hpp"
#include "js_struct.hpp"

#include "attn/config.hpp"
#include "attn/cue/trainer.hpp"

#include <emscripten/bind.h>

#include <utility>
#include <vector>

using namespace attn::wasm;

namespace {

namespace nn = attn::nn;

using nn::CueTrainer;

// -> a trainer handle, or null with the error left for raiseError().
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

val cue_history(const CueTrainer& trainer) { return to_js(trainer.history()); }

// tokens: n int32 at this offset -> the probe (attn/cue/probe.hpp).
nn::CueProbe cue_probe(CueTrainer& trainer, Offset tokens, int n) {
  static nn::CueProbe slot;
  if (!run_guarded<nn::CueTrainConfig>([&] {
        attn::require_range("tokens", n, 0, attn::kMaxElements);
        slot = trainer.probe(std::vector<int>(at<int>(tokens), at<int>(tokens) + n));
      }))
    throw_pending();
  return std::exchange(slot, nn::CueProbe());
}

// config: an intervention; tokens, corrupted, positions: arrays of whole numbers; given: an
// array of numbers (attn/cue/intervene.hpp) -> the result, or an empty one with the error
// left for raiseError() (the config is an object, so the call must return normally).
nn::CueIntervention cue_intervene(CueTrainer& trainer, const nn::InterventionConfig& config, const val& tokens,
                                  const val& corrupted, const val& positions, const val& given) {
  nn::CueIntervention result;
  run_guarded<nn::InterventionConfig>([&] {
    result = trainer.intervene(config,
                               {emscripten::vecFromJSArray<int>(tokens), emscripten::vecFromJSArray<int>(corrupted),
                                emscripten::vecFromJSArray<int>(positions), emscripten::vecFromJSArray<double>(given)});
  });
  return result;
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

}  // namespace

EMSCRIPTEN_BINDINGS(attention_trainer) {
  using namespace emscripten;

  register_struct<nn::EpochMetrics>("EpochMetrics");
  register_struct<nn::BatchReport>("BatchReport");
  register_struct<nn::CueAnalysis>("CueAnalysis");
  register_struct<nn::RouteTest>("RouteTest");
  register_struct<nn::CueRoute>("CueRoute");
  register_struct<nn::CueIntervention>("CueIntervention");
  register_struct<nn::CueProgress>("CueProgress");
  register_struct<nn::CueReport>("CueReport");
  register_struct<nn::CueProbe>("CueProbe");
  class_<CueTrainer>("CueTrainer")
      .function("trainEpoch", &guarded<&CueTrainer::train_epoch>)
      .function("trainBatches", &guarded<&CueTrainer::train_batches, int>)
      .function("progress", &CueTrainer::progress)
      .function("history", &cue_history)
      .function("parameterCount", &cue_parameter_count)
      .function("baselineAccuracy", &CueTrainer::baseline_accuracy)
      .function("chanceAccuracy", &CueTrainer::chance_accuracy)
      .function("analyse", &guarded<&CueTrainer::analyse>)
      .function("route", &guarded<&CueTrainer::route>)
      .function("intervene", &cue_intervene)
      .function("report", &guarded<&CueTrainer::report>)
      .function("probe", &cue_probe)
      .function("weights", &cue_weights)
      .function("loadWeights", &cue_load_weights);
  function("createCueTrainer", &create_cue_trainer, allow_raw_pointers());
}
