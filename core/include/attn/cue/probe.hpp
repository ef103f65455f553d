// Asking a trained cue model about one sequence of the reader's choosing, and carrying its
// weights from the native build to the browser.
//
// A probe runs one sequence through the model (evaluation: no dropout, every block on every
// row) and returns the prediction, the probability of every class, and the attention of every
// block and head over the tokens. The weights of a model travel as one flat list of floats in
// the model's parameter order (TinyTransformer::parameters()), which the CLI writes as raw
// little-endian float32 and the browser reads back: a forward pass of loaded weights is bit for
// bit the forward pass of the trained model, natively and in WebAssembly alike.
//
// Legend: T = tokens per sequence, h = heads, C = classes (symbols + 2).
// Left out: batches of sequences (the validation set has CueTrainer::analyse()), gradients.
#pragma once

#include "attn/cue/task.hpp"
#include "attn/nn/transformer.hpp"

#include <vector>

namespace attn::nn {

struct CueProbe {
  std::vector<int> tokens;  // (T) as given
  // The body's cue position and the right answer, when the sequence is a task sequence (its
  // last token the cue, exactly one cue before it, not directly before the query); else -1.
  int cue_position = -1;
  int expected = -1;
  int prediction = 0;                 // the most probable class
  std::vector<double> probabilities;  // (C), the softmax of the logits
  // [block][head] -> (T, T) flattened: row i is where position i attends, row T - 1 the query.
  std::vector<std::vector<std::vector<double>>> attention;

  template <typename Visit>
  static void fields(Visit&& visit) {
    using C = CueProbe;
    visit("tokens", member<&C::tokens>);
    visit("cuePosition", member<&C::cue_position>);
    visit("expected", member<&C::expected>);
    visit("prediction", member<&C::prediction>);
    visit("probabilities", member<&C::probabilities>);
    visit("attention", member<&C::attention>);
  }
};

// tokens (T), each an id of the task's vocabulary -> the model's answer and its attention.
// Throws attn::ArgumentError naming "tokens" for a wrong length or an id outside the
// vocabulary. Leaves the model's cached activations as of this forward pass.
CueProbe probe_cue_model(TinyTransformer<float>& model, const CueTaskConfig& task, const std::vector<int>& tokens);

// Every parameter's values, in the model's parameter order, each matrix row-major.
std::vector<float> parameter_values(const ParameterList<float>& params);

// Sets every parameter from such a list. Throws attn::ArgumentError naming "weights" when the
// count is not the model's parameter count or a value is not finite; nothing changes then.
void set_parameter_values(const ParameterList<float>& params, const std::vector<float>& values);

}  // namespace attn::nn
