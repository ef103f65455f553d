#include "cue_names.hpp"

namespace attn::cli {

std::string token_name(int token, const CueTaskConfig& task) {
  if (token == cue_token(task)) return "CUE";
  if (token == pad_token(task)) return "PAD";
  return std::to_string(token);
}

std::string test_name(const nn::RouteTest& test) {
  const std::string where = "block " + std::to_string(test.block) + ", head " + std::to_string(test.head);
  if (test.action == "none") return "clean";
  if (test.action == "knock-out") return "knock out " + where;
  return where + ": " + test.pattern + (test.pattern == "first-cue" ? " pattern" : "-token pattern");
}

std::string route_text(const nn::CueRoute& route) {
  const std::string& label = route.label;
  if (label == "cue-position")
    return label +
           ": block 1 copies the answer into the CUE position (an ideal next-token pattern keeps the "
           "accuracy), and the query reads it there";
  if (label == "answer-position")
    return label +
           ": block 1 marks the answer with the CUE before it (an ideal previous-token pattern keeps the "
           "accuracy), and the query finds that mark";
  if (label == "cue-broadcast")
    return label +
           ": block 1 spreads the CUE to every position (an ideal first-CUE pattern keeps the accuracy), "
           "and a later block reads the position after it";
  if (label == "other") return label + ": solved, by a route none of the ideal patterns reproduces";
  return label + ": not solved (clean accuracy below 0.9)";
}

}  // namespace attn::cli
