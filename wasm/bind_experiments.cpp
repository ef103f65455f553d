// The experiments part of the core's door to JavaScript (the overview is at the top of
// bind_common.cpp): the lesson's experiments, objects in, objects out.
#include "errors.hpp"
#include "heap.hpp"
#include "js_struct.hpp"

#include "attn/config.hpp"
#include "attn/experiments/attention_steps.hpp"
#include "attn/experiments/heads_demo.hpp"
#include "attn/experiments/mask_demo.hpp"
#include "attn/experiments/pitfalls.hpp"
#include "attn/experiments/scale_sweep.hpp"

#include <emscripten/bind.h>

using namespace attn::wasm;

namespace {

namespace experiments = attn::experiments;

// Runs the core on a config object. Never throws into JS (the config's heap copy is freed
// only when the call returns): on failure it returns an empty Result and leaves the message,
// in JS names, for raiseError().
template <typename Config, typename Result>
Result on_config(Result (*compute)(const Config&), const Config& config) {
  Result result;
  run_guarded<Config>([&] { result = compute(config); });
  return result;
}

experiments::ScaleSweepResult scale_sweep(const experiments::ScaleSweepConfig& c) {
  return on_config(&experiments::scale_sweep, c);
}
experiments::MaskDemo mask_demo(const experiments::MaskDemoConfig& c) { return on_config(&experiments::mask_demo, c); }
experiments::HeadsDemo heads_demo(const experiments::HeadsDemoConfig& c) {
  return on_config(&experiments::heads_demo, c);
}
experiments::HalfPrecisionPitfall pitfall(const experiments::PitfallConfig& c) {
  return on_config(&experiments::half_precision_pitfall, c);
}

experiments::AttentionSteps attention_steps(const experiments::AttentionStepsConfig& c) {
  return on_config<experiments::AttentionStepsConfig, experiments::AttentionSteps>(&experiments::attention_steps, c);
}

// Given cells: query (tokens, d_k), key (tokens, d_k), value (tokens, d_v) at these offsets, the
// shapes the config names (checked first, so nothing is read beyond what JS wrote).
experiments::AttentionSteps attention_steps_given(const experiments::AttentionStepsConfig& c, Offset query, Offset key,
                                                  Offset value) {
  experiments::AttentionSteps result;
  run_guarded<experiments::AttentionStepsConfig>([&] {
    attn::require_fields(c);
    result = experiments::attention_steps(c, matrix_at(query, c.tokens, c.d_k), matrix_at(key, c.tokens, c.d_k),
                                          matrix_at(value, c.tokens, c.d_v));
  });
  return result;
}

}  // namespace

EMSCRIPTEN_BINDINGS(attention_experiments) {
  using namespace emscripten;

  register_struct<experiments::RowMeasures>("RowMeasures");
  register_struct<experiments::SweepStat>("SweepStat");
  register_struct<experiments::SweepMeasures>("SweepMeasures");
  register_struct<experiments::ScaleSweepRow>("ScaleSweepRow");
  register_struct<experiments::ScaleSweepResult>("ScaleSweepResult");
  function("scaleSweep", &scale_sweep);

  register_struct<experiments::MaskDemoCase>("MaskDemoCase");
  register_struct<experiments::MaskDemo>("MaskDemo");
  function("maskDemo", &mask_demo);

  register_struct<experiments::HeadsDemoLayer>("HeadsDemoLayer");
  register_struct<experiments::HeadsDemo>("HeadsDemo");
  function("headsDemo", &heads_demo);

  register_struct<experiments::PitfallCase>("PitfallCase");
  register_struct<experiments::HalfPrecisionPitfall>("HalfPrecisionPitfall");
  function("halfPrecisionPitfall", &pitfall);

  register_struct<experiments::AttentionSteps>("AttentionSteps");
  function("attentionSteps", &attention_steps);
  function("attentionStepsGiven", &attention_steps_given);
}
