#include "attn/cue/probe.hpp"

#include "nn/kernels.hpp"

#include <algorithm>
#include <cmath>
#include <string>

namespace attn::nn {

CueProbe probe_cue_model(TinyTransformer<float>& model, const CueTaskConfig& task, const std::vector<int>& tokens) {
  const int length = model.config().length, vocabulary = model.config().vocabulary;
  if (int(tokens.size()) != length)
    throw ArgumentError("tokens", ErrorCode::bad_length,
                        "must hold " + std::to_string(length) + " token ids (the sequence length), got " +
                            std::to_string(tokens.size()),
                        {{"min", double(length)}, {"max", double(length)}, {"got", double(tokens.size())}});
  for (std::size_t i = 0; i < tokens.size(); ++i)
    if (tokens[i] < 0 || tokens[i] >= vocabulary)
      throw ArgumentError(
          "tokens", ErrorCode::out_of_range,
          "must be token ids in 0.." + std::to_string(vocabulary - 1) + ", got " + std::to_string(tokens[i]) +
              " at index " + std::to_string(i),
          {{"min", 0}, {"max", double(vocabulary - 1)}, {"got", double(tokens[i])}, {"index", double(i)}});

  CueProbe probe;
  probe.tokens = tokens;
  const int cue = cue_token(task);
  const auto body_end = tokens.end() - 1;
  if (tokens.back() == cue && std::count(tokens.begin(), body_end, cue) == 1) {
    const int at = int(std::find(tokens.begin(), body_end, cue) - tokens.begin());
    if (at <= length - 3) {
      probe.cue_position = at;
      probe.expected = tokens[std::size_t(at) + 1];
    }
  }

  Mat<float> logits = model.forward(tokens, nullptr, /*last_query_only=*/false);  // (1, C)
  kernels::softmax_rows<float>(logits.data(), 1, int(logits.cols()), logits.cols());
  probe.probabilities.assign(logits.data(), logits.data() + logits.size());
  probe.prediction =
      int(std::max_element(probe.probabilities.begin(), probe.probabilities.end()) - probe.probabilities.begin());
  for (int b = 0; b < model.config().blocks; ++b) {
    const auto& attention = model.block(b).attention;
    auto& heads = probe.attention.emplace_back();
    for (int h = 0; h < attention.heads; ++h) {
      const Mat<float>& w = attention.weights_of(0, h);  // (T, T)
      heads.emplace_back(w.data(), w.data() + w.size());
    }
  }
  return probe;
}

std::vector<float> parameter_values(const ParameterList<float>& params) {
  std::vector<float> values;
  values.reserve(std::size_t(count_parameters(params)));
  for (const auto& p : params) values.insert(values.end(), p.value->data(), p.value->data() + p.value->size());
  return values;
}

void set_parameter_values(const ParameterList<float>& params, const std::vector<float>& values) {
  const long expected = count_parameters(params);
  if (long(values.size()) != expected)
    throw ArgumentError(
        "weights", ErrorCode::bad_length,
        "must hold the model's " + std::to_string(expected) + " parameters, got " + std::to_string(values.size()),
        {{"min", double(expected)}, {"max", double(expected)}, {"got", double(values.size())}});
  for (std::size_t i = 0; i < values.size(); ++i)
    if (!std::isfinite(values[i]))
      throw ArgumentError("weights", ErrorCode::not_finite,
                          "must be finite, got " + std::to_string(values[i]) + " at index " + std::to_string(i),
                          {{"got", values[i]}, {"index", double(i)}});
  std::size_t at = 0;
  for (const auto& p : params) {
    std::copy_n(values.begin() + long(at), p.value->size(), p.value->data());
    at += std::size_t(p.value->size());
  }
}

}  // namespace attn::nn
