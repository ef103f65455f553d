// attention-lab scale: the scale sweep (why the scores are divided by sqrt(d_k)) next to the
// lesson's table, with the differences and the sampling noise.
#include "json.hpp"
#include "options.hpp"
#include "table.hpp"

#include "attn/experiments/scale_sweep.hpp"

#include <cmath>

namespace attn::cli {
namespace {

using namespace attn::experiments;

// One swept d_k against the lesson's row for it.
struct LessonComparison {
  LessonScaleRow lesson;
  // This run minus the lesson: max weight unscaled, max weight scaled, entropy unscaled, scaled.
  double difference[4];
  bool within_tolerance;
};

// The rows of the sweep that the lesson's table has (it is for 12 tokens only).
std::vector<LessonComparison> compare_with_lesson(const ScaleSweepResult& sweep) {
  std::vector<LessonComparison> out;
  if (sweep.tokens != 12) return out;
  for (const auto& row : sweep.rows)
    for (const auto& lesson : kLessonScaleTable) {
      if (lesson.d_k != row.d_k) continue;
      LessonComparison c{
          lesson,
          {row.unscaled.max_weight.mean - lesson.max_weight_unscaled,
           row.scaled.max_weight.mean - lesson.max_weight_scaled, row.unscaled.entropy.mean - lesson.entropy_unscaled,
           row.scaled.entropy.mean - lesson.entropy_scaled},
          false};
      c.within_tolerance = std::abs(c.difference[0]) <= kLessonMaxWeightTolerance &&
                           std::abs(c.difference[1]) <= kLessonMaxWeightTolerance &&
                           std::abs(c.difference[2]) <= kLessonEntropyTolerance &&
                           std::abs(c.difference[3]) <= kLessonEntropyTolerance;
      out.push_back(c);
    }
  return out;
}

std::string with_error(const SweepStat& stat) {
  return fixed(stat.mean, 4) + " +-" + (std::isnan(stat.standard_error) ? "n/a" : fixed(stat.standard_error, 4));
}

std::string signed_fixed(double value) { return (value >= 0 ? "+" : "") + fixed(value, 4); }

void print(std::ostream& out, const ScaleSweepResult& sweep, const std::vector<LessonComparison>& lesson) {
  out << "Scale sweep: " << sweep.draws << " draws of " << sweep.tokens << " queries x " << sweep.tokens
      << " keys (standard normal) per d_k, seed " << sweep.seed
      << ".\nEvery query row is measured and averaged; +- is the standard error over draws.\n\n";
  const std::vector<std::string> columns = {"d_k", "largest weight, unscaled", "largest weight, scaled",
                                            "entropy, unscaled", "entropy, scaled"};
  Table ours(columns);
  for (const auto& row : sweep.rows)
    ours.add({std::to_string(row.d_k), with_error(row.unscaled.max_weight), with_error(row.scaled.max_weight),
              with_error(row.unscaled.entropy), with_error(row.scaled.entropy)});
  ours.print(out);
  out << "Uniform weights over " << sweep.tokens << " tokens (the same measuring code): max weight "
      << fixed(sweep.uniform.max_weight, 4) << ", entropy " << fixed(sweep.uniform.entropy, 4) << " nats.\n";

  out << "\nThe gradient: size of the softmax's Jacobian, ||diag(p) - p p^T|| (Frobenius), per row.\n"
         "It shrinks as the weights saturate; a uniform row has "
      << fixed(sweep.uniform.jacobian_norm, 4) << ", a one-hot row 0.\n";
  Table gradient({"d_k", "Jacobian norm, unscaled", "Jacobian norm, scaled", "unscaled / scaled"});
  for (const auto& row : sweep.rows)
    gradient.add({std::to_string(row.d_k), with_error(row.unscaled.jacobian_norm), with_error(row.scaled.jacobian_norm),
                  fixed(row.unscaled.jacobian_norm.mean / row.scaled.jacobian_norm.mean, 2)});
  gradient.print(out);

  if (sweep.tokens != 12) {
    out << "\nThe lesson's table is for 12 tokens: no comparison at " << sweep.tokens << " tokens.\n";
    return;
  }
  if (lesson.empty()) {
    out << "\nNone of these d_k is in the lesson's table (4, 16, 64, 256).\n";
    return;
  }
  Table theirs(columns);
  std::vector<std::string> diff_columns = columns;
  diff_columns.push_back("within tolerance");
  Table diff(diff_columns);
  for (const auto& c : lesson) {
    const auto& l = c.lesson;
    theirs.add({std::to_string(l.d_k), fixed(l.max_weight_unscaled, 4), fixed(l.max_weight_scaled, 4),
                fixed(l.entropy_unscaled, 4), fixed(l.entropy_scaled, 4)});
    diff.add({std::to_string(l.d_k), signed_fixed(c.difference[0]), signed_fixed(c.difference[1]),
              signed_fixed(c.difference[2]), signed_fixed(c.difference[3]), c.within_tolerance ? "yes" : "NO"});
  }
  out << "\nThe lesson's table (200 draws of its own, which cannot be replayed):\n";
  theirs.print(out);
  out << "Uniform: " << fixed(kLessonUniformWeight, 4) << ", entropy " << fixed(kLessonUniformEntropy, 4)
      << ".\n\nThis run minus the lesson (tolerance +-" << fixed(kLessonMaxWeightTolerance, 2) << " for max weights, +-"
      << fixed(kLessonEntropyTolerance, 2) << " for entropies):\n";
  diff.print(out);
}

Json lesson_json(const std::vector<LessonComparison>& lesson) {
  Json rows = Json::array();
  for (const auto& c : lesson)
    rows.push_back({{"dk", c.lesson.d_k},
                    {"maxWeightUnscaled", c.lesson.max_weight_unscaled},
                    {"maxWeightScaled", c.lesson.max_weight_scaled},
                    {"entropyUnscaled", c.lesson.entropy_unscaled},
                    {"entropyScaled", c.lesson.entropy_scaled},
                    {"difference", c.difference},
                    {"withinTolerance", c.within_tolerance}});
  return {
      {"maxWeightTolerance", kLessonMaxWeightTolerance}, {"entropyTolerance", kLessonEntropyTolerance}, {"rows", rows}};
}

class ScaleCommand : public ConfigCommand<ScaleSweepConfig> {
 public:
  explicit ScaleCommand(CLI::App& parent) {
    add_options(*parent.add_subcommand(
        "scale", "largest attention weight, entropy and softmax Jacobian with and without 1/sqrt(d_k)"));
  }

  int run(std::ostream& out) override {
    const ScaleSweepResult sweep = scale_sweep(config_);
    const auto lesson = compare_with_lesson(sweep);
    if (!json) {
      print(out, sweep, lesson);
      return 0;
    }
    Json result = to_json(sweep);
    // The lesson's table, for the rows it has (differences are this run minus the lesson's, in
    // the order max weight unscaled, scaled, entropy unscaled, scaled).
    if (!lesson.empty()) result["lesson"] = lesson_json(lesson);
    out << result.dump() << '\n';
    return 0;
  }
};

}  // namespace

std::unique_ptr<Command> scale_command(CLI::App& parent) { return std::make_unique<ScaleCommand>(parent); }

}  // namespace attn::cli
