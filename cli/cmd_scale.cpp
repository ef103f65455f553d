// attention-lab scale: the scale sweep (why the scores are divided by sqrt(d_k)) next to the
// lesson's table, with the differences and the sampling noise.
#include "command.hpp"
#include "json_writer.hpp"
#include "table.hpp"

#include "attn/experiments/scale_sweep.hpp"

#include <cmath>

namespace attn::cli {
namespace {

using namespace attn::experiments;

const LessonScaleRow* lesson_row(int d_k) {
  for (const auto& row : kLessonScaleTable)
    if (row.d_k == d_k) return &row;
  return nullptr;
}

std::string with_error(const SweepStat& stat) {
  return fixed(stat.mean, 4) + " +-" + (std::isnan(stat.standard_error) ? "n/a" : fixed(stat.standard_error, 4));
}

std::string signed_fixed(double value) { return (value >= 0 ? "+" : "") + fixed(value, 4); }

void write_stat(JsonWriter& json, const std::string& name, const SweepStat& stat) {
  json.key(name).begin_object().field("mean", stat.mean).field("standard_error", stat.standard_error);
  json.key("per_draw").array(stat.per_draw).end_object();
}

void write_measures(JsonWriter& json, const std::string& name, const SweepMeasures& m) {
  json.key(name).begin_object();
  write_stat(json, "max_weight", m.max_weight);
  write_stat(json, "entropy", m.entropy);
  write_stat(json, "jacobian_norm", m.jacobian_norm);
  json.end_object();
}

}  // namespace

Command scale_command() {
  return {"scale",
          "largest attention weight, entropy and softmax Jacobian with and without 1/sqrt(d_k)",
          {{"draws", "N", "random draws per d_k, 1..100000 (default 200)"},
           {"tokens", "T", "queries and keys per draw, 2..4096 (default 12)"},
           {"dk", "LIST", "comma-separated key dimensions, each 1..4096 (default 4,16,64,256)"},
           {"seed", "S", "seed of the draws (default 0)"}},
          [](const Args& args, std::ostream& out) {
            const long draws = args.integer("draws", 200, 1, kMaxDraws);
            const long tokens = args.integer("tokens", 12, kMinTokens, kMaxTokens);
            const std::vector<long> dk_list = args.integer_list("dk", {4, 16, 64, 256}, 1, kMaxDk, kMaxDkCount);
            const long seed = args.integer("seed", 0, 0, 9007199254740991L);  // 2^53 - 1: exact in JS
            const std::vector<int> d_ks(dk_list.begin(), dk_list.end());
            const ScaleSweepResult sweep = scale_sweep(d_ks, int(draws), int(tokens), std::uint64_t(seed));
            // The lesson's table is for 12 tokens; other sizes have other expected values.
            const bool compare = tokens == 12;

            if (args.flag("json")) {
              JsonWriter json(out);
              json.begin_object().field("draws", draws).field("tokens", tokens).field("seed", seed);
              json.key("uniform").begin_object()
                  .field("max_weight", sweep.uniform.max_weight)
                  .field("entropy", sweep.uniform.entropy)
                  .field("jacobian_norm", sweep.uniform.jacobian_norm)
                  .end_object();
              json.key("tolerance").begin_object()
                  .field("max_weight", kLessonMaxWeightTolerance)
                  .field("entropy", kLessonEntropyTolerance)
                  .end_object();
              json.key("rows").begin_array();
              for (const auto& row : sweep.rows) {
                json.begin_object().field("d_k", row.d_k);
                write_measures(json, "unscaled", row.unscaled);
                write_measures(json, "scaled", row.scaled);
                const LessonScaleRow* lesson = compare ? lesson_row(row.d_k) : nullptr;
                if (lesson) {
                  json.key("lesson").begin_object()
                      .field("max_weight_unscaled", lesson->max_weight_unscaled)
                      .field("max_weight_scaled", lesson->max_weight_scaled)
                      .field("entropy_unscaled", lesson->entropy_unscaled)
                      .field("entropy_scaled", lesson->entropy_scaled)
                      .end_object();
                  const double diffs[] = {row.unscaled.max_weight.mean - lesson->max_weight_unscaled,
                                          row.scaled.max_weight.mean - lesson->max_weight_scaled,
                                          row.unscaled.entropy.mean - lesson->entropy_unscaled,
                                          row.scaled.entropy.mean - lesson->entropy_scaled};
                  json.key("difference").begin_object()
                      .field("max_weight_unscaled", diffs[0])
                      .field("max_weight_scaled", diffs[1])
                      .field("entropy_unscaled", diffs[2])
                      .field("entropy_scaled", diffs[3])
                      .end_object();
                  json.field("within_tolerance",
                             std::abs(diffs[0]) <= kLessonMaxWeightTolerance &&
                                 std::abs(diffs[1]) <= kLessonMaxWeightTolerance &&
                                 std::abs(diffs[2]) <= kLessonEntropyTolerance &&
                                 std::abs(diffs[3]) <= kLessonEntropyTolerance);
                }
                json.end_object();
              }
              json.end_array().end_object();
              return 0;
            }

            out << "Scale sweep: " << draws << " draws of " << tokens << " queries x " << tokens
                << " keys (standard normal) per d_k, seed " << seed
                << ".\nEvery query row is measured and averaged; +- is the standard error over draws.\n\n";
            Table ours({"d_k", "largest weight, unscaled", "largest weight, scaled", "entropy, unscaled",
                        "entropy, scaled"});
            for (const auto& row : sweep.rows)
              ours.add({std::to_string(row.d_k), with_error(row.unscaled.max_weight),
                        with_error(row.scaled.max_weight), with_error(row.unscaled.entropy),
                        with_error(row.scaled.entropy)});
            ours.print(out);
            out << "Uniform weights over " << tokens << " tokens (the same measuring code): max weight "
                << fixed(sweep.uniform.max_weight, 4) << ", entropy " << fixed(sweep.uniform.entropy, 4)
                << " nats.\n";

            out << "\nThe gradient: size of the softmax's Jacobian, ||diag(p) - p p^T|| (Frobenius), per row.\n"
                   "It shrinks as the weights saturate; a uniform row has "
                << fixed(sweep.uniform.jacobian_norm, 4) << ", a one-hot row 0.\n";
            Table gradient({"d_k", "Jacobian norm, unscaled", "Jacobian norm, scaled", "unscaled / scaled"});
            for (const auto& row : sweep.rows)
              gradient.add({std::to_string(row.d_k), with_error(row.unscaled.jacobian_norm),
                            with_error(row.scaled.jacobian_norm),
                            fixed(row.unscaled.jacobian_norm.mean / row.scaled.jacobian_norm.mean, 2)});
            gradient.print(out);
            if (!compare) {
              out << "\nThe lesson's table is for 12 tokens: no comparison at " << tokens << " tokens.\n";
              return 0;
            }

            Table lesson({"d_k", "largest weight, unscaled", "largest weight, scaled", "entropy, unscaled",
                          "entropy, scaled"});
            Table diff({"d_k", "largest weight, unscaled", "largest weight, scaled", "entropy, unscaled",
                        "entropy, scaled", "within tolerance"});
            bool any = false;
            for (const auto& row : sweep.rows) {
              const LessonScaleRow* l = lesson_row(row.d_k);
              if (!l) continue;
              any = true;
              lesson.add({std::to_string(l->d_k), fixed(l->max_weight_unscaled, 4), fixed(l->max_weight_scaled, 4),
                          fixed(l->entropy_unscaled, 4), fixed(l->entropy_scaled, 4)});
              const double d[] = {row.unscaled.max_weight.mean - l->max_weight_unscaled,
                                  row.scaled.max_weight.mean - l->max_weight_scaled,
                                  row.unscaled.entropy.mean - l->entropy_unscaled,
                                  row.scaled.entropy.mean - l->entropy_scaled};
              const bool within = std::abs(d[0]) <= kLessonMaxWeightTolerance &&
                                  std::abs(d[1]) <= kLessonMaxWeightTolerance &&
                                  std::abs(d[2]) <= kLessonEntropyTolerance &&
                                  std::abs(d[3]) <= kLessonEntropyTolerance;
              diff.add({std::to_string(row.d_k), signed_fixed(d[0]), signed_fixed(d[1]), signed_fixed(d[2]),
                        signed_fixed(d[3]), within ? "yes" : "NO"});
            }
            if (!any) {
              out << "\nNone of these d_k is in the lesson's table (4, 16, 64, 256).\n";
              return 0;
            }
            out << "\nThe lesson's table (" << "200 draws of its own, which cannot be replayed):\n";
            lesson.print(out);
            out << "Uniform: " << fixed(kLessonUniformWeight, 4) << ", entropy " << fixed(kLessonUniformEntropy, 4)
                << ".\n\nThis run minus the lesson (tolerance +-" << fixed(kLessonMaxWeightTolerance, 2)
                << " for max weights, +-" << fixed(kLessonEntropyTolerance, 2) << " for entropies):\n";
            diff.print(out);
            return 0;
          }};
}

}  // namespace attn::cli
