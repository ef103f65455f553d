// The cue task's data: "find the cue, then read the token after it".
//
// A sequence has `length` tokens. Positions 0..length-2 are the body: exactly one CUE token
// at a position drawn uniformly from 0..length-3, every other body position an independent
// uniform draw from the `symbols` symbols (repeats allowed). The last position is the query
// and holds CUE again. The label is the symbol right after the body's CUE.
// Token ids: symbols 0..symbols-1, then CUE = symbols, then PAD = symbols + 1 (never used in
// the data, kept so the vocabulary matches the lesson's 9 tokens).
//
// Everything is drawn from one attn::Random, so a seed gives the same data natively and in
// WebAssembly. What this file leaves out: the model and its training (trainer.hpp).
#pragma once

#include "attn/config.hpp"
#include "attn/random.hpp"

#include <cstdint>
#include <vector>

namespace attn {

// Limits of the task (inclusive), checked by require_cue_task_config().
constexpr int kCueMaxLength = ATTN_PICK(64, 24);
constexpr int kCueMaxSymbols = ATTN_PICK(64, 16);
constexpr int kCueMaxSetSize = ATTN_PICK(100000, 4000);

struct CueTaskConfig {
  int length = ATTN_PICK(10, 8);  // tokens per sequence, query included
  int symbols = ATTN_PICK(7, 5);  // distinct symbols
  int train_size = ATTN_PICK(2000, 600);
  int validation_size = ATTN_PICK(1000, 300);

  template <typename Visit>
  static void fields(Visit&& visit) {
    visit(FieldInfo{"length", "length", "length", 3, kCueMaxLength, "tokens per sequence, the query included"},
          member<&CueTaskConfig::length>);
    visit(FieldInfo{"symbols", "symbols", "symbols", 2, kCueMaxSymbols, "distinct symbols"},
          member<&CueTaskConfig::symbols>);
    visit(FieldInfo{"train_size", "trainSize", "train-size", 1, kCueMaxSetSize, "training sequences"},
          member<&CueTaskConfig::train_size>);
    visit(FieldInfo{"validation_size", "validationSize", "validation-size", 1, kCueMaxSetSize, "validation sequences"},
          member<&CueTaskConfig::validation_size>);
  }
};

// Throws attn::ArgumentError naming the field and the value it got.
void require_cue_task_config(const CueTaskConfig& config);

inline int cue_token(const CueTaskConfig& c) { return c.symbols; }
inline int pad_token(const CueTaskConfig& c) { return c.symbols + 1; }
inline int cue_vocabulary(const CueTaskConfig& c) { return c.symbols + 2; }

// n sequences of `length` tokens, stored row after row.
struct CueSet {
  int length = 0;
  std::vector<int> tokens;        // (n * length)
  std::vector<int> labels;        // (n), the symbol after the body's cue
  std::vector<int> cue_position;  // (n), where the body's cue is (0..length-3)
  int size() const { return int(labels.size()); }
  const int* sequence(int i) const { return tokens.data() + std::size_t(i) * length; }
};

// n sequences drawn from rng. Throws attn::ArgumentError for a bad config or n < 1.
CueSet make_cue_set(const CueTaskConfig& config, int n, Random& rng);

struct CueData {
  CueSet train, validation;
};

// Training set first, then validation, from one generator seeded with `seed`.
CueData make_cue_data(const CueTaskConfig& config, std::uint64_t seed);

// Accuracy of the strategy "answer the symbol that occurs most often in the body" (what a
// model that cannot find the cue can still do). Ties are shared: a sequence whose label is
// one of t equally frequent symbols counts 1/t, the expected score of a fair tie-break.
double most_frequent_symbol_accuracy(const CueSet& set, int symbols);

}  // namespace attn
