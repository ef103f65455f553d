// attention-lab intervene: change one head or block of a trained cue model (knock it out,
// replace its attention pattern, patch its output from a clean run) and report what breaks, on
// the validation set and for a sequence; --route runs the tests that name the model's route.
// The weights are those `cue --save-weights` wrote, with the same training flags (the seed
// fixes the validation set). --json is what the browser's probe computes (tests compare them).
#include "cue_names.hpp"
#include "json.hpp"
#include "options.hpp"
#include "table.hpp"
#include "weights_file.hpp"

#include "attn/cue/trainer.hpp"

#include <string>
#include <vector>

namespace attn::cli {
namespace {

void print_route(std::ostream& out, const nn::CueRoute& route) {
  Table table({"intervention", "val acc", "val loss"});
  for (const auto& test : route.tests) table.add({test_name(test), fixed(test.accuracy, 4), fixed(test.loss, 4)});
  table.print(out);
  out << "\nfrequency baseline: " << fixed(route.baseline_accuracy, 4)
      << "; block 1's tested head: " << route.tested_head << "\nroute: " << route_text(route) << '\n';
}

void print(std::ostream& out, const nn::CueIntervention& r, const nn::InterventionConfig& c,
           const CueTaskConfig& task) {
  Table table({"validation set", "accuracy", "loss"});
  table.add({"clean", fixed(r.clean_accuracy, 4), fixed(r.clean_loss, 4)});
  table.add({c.action == "none" ? "clean again" : c.action, fixed(r.accuracy, 4), fixed(r.loss, 4)});
  table.print(out);
  if (c.action == "patch")
    out << "\nlogit difference (clean answer - corrupted answer): clean " << fixed(r.clean_difference, 4)
        << ", corrupted " << fixed(r.corrupted_difference, 4) << ", patched " << fixed(r.patched_difference, 4)
        << "; restored " << fixed(r.restored_fraction, 4) << '\n';
  if (r.prediction < 0) return;
  out << "\nthe sequence: prediction " << token_name(r.prediction, task)
      << " (unchanged: " << token_name(r.unchanged_prediction, task) << ")";
  if (c.action == "patch") out << "; restored " << fixed(r.sequence_restored_fraction, 4);
  out << "\n\n";
  Table classes({"class", "changed", "unchanged"});
  for (std::size_t k = 0; k < r.probabilities.size(); ++k)
    classes.add({token_name(int(k), task), fixed(r.probabilities[k], 4), fixed(r.unchanged_probabilities[k], 4)});
  classes.print(out);
}

class InterveneCommand : public ConfigCommand<nn::CueTrainConfig> {
 public:
  explicit InterveneCommand(CLI::App& parent) {
    add_options(
        *parent.add_subcommand("intervene", "change one head or block of a trained cue model and measure what breaks"));
    add_config_options(*app, intervention_);
    app->add_option("--weights", weights_path_, "the trained weights, as `cue --save-weights` wrote them")->required();
    app->add_option("--tokens", inputs_.tokens, "a sequence to answer: token ids, comma-separated")->delimiter(',');
    app->add_option("--corrupted", inputs_.corrupted,
                    "patch: the sequence patched into (default: --tokens with the answer symbol moved)")
        ->delimiter(',');
    app->add_option("--positions", inputs_.positions, "patch: the positions copied, from 0 (default: every one)")
        ->delimiter(',');
    app->add_option("--given", inputs_.given, "pattern given: the (T, T) pattern, row-major, comma-separated")
        ->delimiter(',');
    app->add_flag("--route", route_, "run the knock-outs and ideal patterns that name the model's route");
  }

  std::string flag_of(const std::string& name) const override {
    if (name == "tokens" || name == "weights" || name == "corrupted" || name == "positions" || name == "given")
      return "--" + name;
    if (find_field<nn::InterventionConfig>(name)) return cli::flag_of<nn::InterventionConfig>(name);
    return ConfigCommand::flag_of(name);
  }

  int run(std::ostream& out) override {
    require_fields(intervention_);  // before the weights are read: a bad flag is named first
    nn::CueTrainer model(config_);
    model.load_weights(read_weights(weights_path_));
    if (route_) {
      const nn::CueRoute route = model.route();
      if (json)
        out << to_json(route).dump() << '\n';
      else
        print_route(out, route);
      return 0;
    }
    const nn::CueIntervention result = model.intervene(intervention_, inputs_);
    if (json)
      out << to_json(result).dump() << '\n';
    else
      print(out, result, intervention_, config_.task);
    return 0;
  }

 private:
  nn::InterventionConfig intervention_;
  nn::InterventionInputs inputs_;
  std::string weights_path_;
  bool route_ = false;
};

}  // namespace

std::unique_ptr<Command> intervene_command(CLI::App& parent) { return std::make_unique<InterveneCommand>(parent); }

}  // namespace attn::cli
