// Causal tests of a trained cue model: change one head or one block, and measure what breaks.
//
// Attention patterns show where a model looks, not what it uses. These interventions (the
// standard ones of interpretability research) change one forward pass and report the model's
// accuracy and loss on the validation set, and, for a sequence the caller gives, its answer:
//   knock-out  a head's output (its slice of the context, the attention-weighted values before
//              the output projection W_O) set to zero ("zero"), or to its mean over the
//              validation set at each position ("mean");
//   pattern    a head's attention pattern replaced by an ideal one: "previous" (position i
//              attends to i - 1, position 0 to itself), "next" (i + 1, the last position to
//              itself), "self", "uniform", "first-cue" (every position attends to the first CUE
//              of its sequence; a sequence without a CUE keeps its own pattern), or "given"
//              (a (T, T) pattern the caller supplies, each row summing to 1);
//   patch      a head's output (head >= 1), or the block's output (head 0), at chosen positions
//              copied from a run of a clean sequence into a run of a corrupted one (activation
//              patching). On the validation set, each sequence is the clean one and its
//              corruption has the answer symbol s (the token after the first CUE) replaced by
//              (s + corrupt_shift) mod symbols. The report gives the restored fraction
//              (patched - corrupted) / (clean - corrupted) of the logit difference
//              logit(clean answer) - logit(corrupted answer), averaged over the set first.
// Every intervention runs every block on every row (last_query_only off), the clean pass
// included, so "clean" and "changed" differ by the intervention alone. Blocks and heads count
// from 1, as the lesson and the CLI print them. The functions live on CueTrainer (trainer.hpp).
//
// Legend: T = tokens per sequence, C = classes (symbols + 2).
#pragma once

#include "attn/config.hpp"
#include "attn/cue/task.hpp"

#include <string>
#include <vector>

namespace attn::nn {

struct InterventionConfig {
  std::string action = ATTN_PICK("knock-out", "pattern");
  std::string ablation = ATTN_PICK("zero", "mean");  // knock-out
  std::string pattern = ATTN_PICK("previous", "next");
  int block = ATTN_PICK(1, 2);          // 1-based
  int head = ATTN_PICK(1, 2);           // 1-based; 0 = the whole block (patch only)
  int corrupt_shift = ATTN_PICK(1, 2);  // patch's corruption on the validation set

  template <typename Visit>
  static void fields(Visit&& visit) {
    using C = InterventionConfig;
    visit(choice("action", "action", "action", "none|knock-out|pattern|patch", "what to change"), member<&C::action>);
    visit(choice("ablation", "ablation", "ablation", "zero|mean", "knock-out: the head's output becomes"),
          member<&C::ablation>);
    visit(choice("pattern", "pattern", "pattern", "previous|next|self|uniform|first-cue|given",
                 "pattern: the attention pattern that replaces the head's"),
          member<&C::pattern>);
    visit(FieldInfo{"block", "block", "block", 1, ATTN_PICK(64, 32), "the block changed, from 1"}, member<&C::block>);
    visit(FieldInfo{"head", "head", "head", 0, ATTN_PICK(4096, 1024),
                    "the head changed, from 1; 0 patches the block's output"},
          member<&C::head>);
    visit(FieldInfo{"corrupt_shift", "corruptShift", "corrupt-shift", 1, ATTN_PICK(63, 15),
                    "patch: the validation set's corruption moves the answer symbol by this much"},
          member<&C::corrupt_shift>);
  }
};

// What the caller gives besides the config: lists whose length depends on the model.
struct InterventionInputs {
  std::vector<int> tokens;     // (T) a sequence to answer, or empty
  std::vector<int> corrupted;  // (T) patch: the sequence patched into (empty: tokens' default corruption)
  std::vector<int> positions;  // patch: the positions copied, 0-based (empty: every position)
  std::vector<double> given;   // pattern "given": (T * T) row-major, rows summing to 1
};

struct CueIntervention {
  // The validation set, with and without the intervention (labels: the clean answers).
  double accuracy = 0, loss = 0;
  double clean_accuracy = 0, clean_loss = 0;
  // patch: mean logit differences and the restored fraction (0 when clean equals corrupted).
  double clean_difference = 0, corrupted_difference = 0, patched_difference = 0, restored_fraction = 0;
  // The given sequence (prediction -1 and no probabilities without one): the model's answer
  // with the intervention and without it. For a patch that sequence is the corrupted one:
  // patched, and as it is.
  int prediction = -1, unchanged_prediction = -1;
  std::vector<double> probabilities, unchanged_probabilities;  // (C)
  // patch, for the given sequence: the same fraction, between the clean and the corrupted run's
  // own answers (their most probable classes); 0 when those agree.
  double sequence_restored_fraction = 0;

  template <typename Visit>
  static void fields(Visit&& visit) {
    using C = CueIntervention;
    visit("accuracy", member<&C::accuracy>);
    visit("loss", member<&C::loss>);
    visit("cleanAccuracy", member<&C::clean_accuracy>);
    visit("cleanLoss", member<&C::clean_loss>);
    visit("cleanDifference", member<&C::clean_difference>);
    visit("corruptedDifference", member<&C::corrupted_difference>);
    visit("patchedDifference", member<&C::patched_difference>);
    visit("restoredFraction", member<&C::restored_fraction>);
    visit("prediction", member<&C::prediction>);
    visit("unchangedPrediction", member<&C::unchanged_prediction>);
    visit("probabilities", member<&C::probabilities>);
    visit("unchangedProbabilities", member<&C::unchanged_probabilities>);
    visit("sequenceRestoredFraction", member<&C::sequence_restored_fraction>);
  }
};

// One row of a route's evidence: an intervention and the validation accuracy it leaves.
struct RouteTest {
  std::string action;       // "none" (the clean model), "knock-out" (zero) or "pattern"
  std::string pattern;      // pattern: "next", "previous" or "first-cue"; else ""
  int block = 0, head = 0;  // 1-based; 0 for the clean row
  double accuracy = 0, loss = 0;

  template <typename Visit>
  static void fields(Visit&& visit) {
    visit("action", member<&RouteTest::action>);
    visit("pattern", member<&RouteTest::pattern>);
    visit("block", member<&RouteTest::block>);
    visit("head", member<&RouteTest::head>);
    visit("accuracy", member<&RouteTest::accuracy>);
    visit("loss", member<&RouteTest::loss>);
  }
};

// The thresholds of the route rule below, named once.
constexpr double kRouteSolved = 0.9;         // clean accuracy of a solved run
constexpr double kRouteKeeps = 0.95;         // share of clean accuracy an ideal pattern keeps
constexpr double kRouteBreaksHalfway = 0.5;  // share of (clean - baseline) a knock-out removes

// How a trained model solves the task, named from what breaks when a head is changed.
// Labels (tests/core/cue/test_cue_route.cpp checks each on a seed that has it):
//   cue-position     block 1's tested head, given the ideal next-token pattern, keeps >= 0.95 of
//                    the clean accuracy, and knocking out the block-1 head with the most
//                    CUE->answer weight brings accuracy at least halfway from clean down to the
//                    frequency baseline: block 1 copies the answer into the CUE position, which
//                    the query then reads;
//   answer-position  the same with the ideal previous-token pattern and the head with the most
//                    answer->CUE weight: block 1 marks the answer position with the CUE before
//                    it (a previous-token head), and the query finds that mark (an induction head);
//   cue-broadcast    the ideal "every position attends to the first CUE" pattern keeps >= 0.95,
//                    and neither test above passes: block 1 spreads the CUE to every position;
//   other            the clean model is solved (accuracy >= 0.9) and none of these fits;
//   none             the clean model is not solved.
// The tested head of block 1 is the one whose knock-out lowers accuracy most. Knock-outs here
// are zero knock-outs.
struct CueRoute {
  std::string label;
  int tested_head = 0;  // 1-based, in block 1
  // The block-1 head whose knock-out the label's test reads (1-based): the one with the most
  // CUE->answer weight for cue-position, the most answer->CUE weight for answer-position, else
  // the tested head.
  int knocked_head = 0;
  double clean_accuracy = 0, baseline_accuracy = 0;
  // What the rule read: block 1's tested head with the ideal next-token, previous-token and
  // first-CUE patterns, and the accuracy with knocked_head knocked out (all also in tests).
  double next_accuracy = 0, previous_accuracy = 0, first_cue_accuracy = 0, knocked_accuracy = 0;
  // The rule's thresholds, so that front doors quote them instead of restating them.
  double solved_at = kRouteSolved, keeps_share = kRouteKeeps, breaks_share = kRouteBreaksHalfway;
  // The clean row, a knock-out of every head of every block, then block 1's tested head with
  // the next-token, previous-token and first-CUE patterns.
  std::vector<RouteTest> tests;

  template <typename Visit>
  static void fields(Visit&& visit) {
    visit("label", member<&CueRoute::label>);
    visit("testedHead", member<&CueRoute::tested_head>);
    visit("knockedHead", member<&CueRoute::knocked_head>);
    visit("cleanAccuracy", member<&CueRoute::clean_accuracy>);
    visit("baselineAccuracy", member<&CueRoute::baseline_accuracy>);
    visit("nextAccuracy", member<&CueRoute::next_accuracy>);
    visit("previousAccuracy", member<&CueRoute::previous_accuracy>);
    visit("firstCueAccuracy", member<&CueRoute::first_cue_accuracy>);
    visit("knockedAccuracy", member<&CueRoute::knocked_accuracy>);
    visit("solvedAt", member<&CueRoute::solved_at>);
    visit("keepsShare", member<&CueRoute::keeps_share>);
    visit("breaksShare", member<&CueRoute::breaks_share>);
    visit("tests", member<&CueRoute::tests>);
  }
};

// An ideal attention pattern (T, T) row-major for `tokens` (T): "previous", "next", "self",
// "uniform" or "first-cue" (rows of a sequence without a CUE stay empty: all zero).
std::vector<double> ideal_pattern(const std::string& pattern, const std::vector<int>& tokens, int cue);

}  // namespace attn::nn
