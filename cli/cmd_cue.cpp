// attention-lab cue: train the tiny transformer on the cue task and print its curve, the
// baselines and where the last block looks. --json is the recorded run the lesson page shows;
// --save-weights writes the trained weights (weights_file.hpp) for the page's probe; --trace
// adds the attention analysis after every epoch (where the heads look while accuracy jumps).
#include "cue_names.hpp"
#include "json.hpp"
#include "options.hpp"
#include "table.hpp"
#include "weights_file.hpp"

#include "attn/cue/trainer.hpp"

#include <algorithm>
#include <chrono>
#include <string>

namespace attn::cli {
namespace {

std::string offset_name(int offset) {
  switch (offset) {
    case -1: return "-1 (cue)";
    case 0: return "0 (answer)";
    default: return (offset > 0 ? "+" : "") + std::to_string(offset);
  }
}

// The strongest last-block head's share at `offset`.
double strongest_share(const nn::CueAnalysis& a, int offset) {
  const std::size_t o = std::size_t(std::find(a.offsets.begin(), a.offsets.end(), offset) - a.offsets.begin());
  double best = 0;
  for (const auto& head : a.last_block_by_offset) best = std::max(best, head[o]);
  return best;
}

void print_trace(std::ostream& out, const nn::CueReport& r, const std::vector<nn::CueAnalysis>& trace) {
  out << "\nafter each epoch: the strongest last-block head's weight on the earlier cue (-1) and on the\n"
         "answer (0) (attention only: the route above comes from interventions on the trained model)\n";
  Table table({"epoch", "val acc", "-1 (cue)", "0 (answer)"});
  for (std::size_t e = 0; e < trace.size(); ++e)
    table.add({std::to_string(e + 1), fixed(r.history[e].validation_accuracy, 4),
               fixed(strongest_share(trace[e], -1), 4), fixed(strongest_share(trace[e], 0), 4)});
  table.print(out);
}

void print(std::ostream& out, const nn::CueReport& r, double seconds) {
  const auto& config = r.config;
  out << "cue task, " << config.blocks << (config.blocks == 1 ? " block" : " blocks") << ", seed " << config.seed
      << ": " << grouped(r.parameter_count) << " parameters\n\n";
  Table curve({"epoch", "train loss", "train acc", "val loss", "val acc"});
  for (const auto& m : r.history)
    curve.add({std::to_string(m.epoch), fixed(m.train_loss, 4), fixed(m.train_accuracy, 4), fixed(m.validation_loss, 4),
               fixed(m.validation_accuracy, 4)});
  curve.print(out);
  out << '\n';
  Table summary({"validation accuracy", "value"});
  summary.add({"best (epoch " + std::to_string(r.best_epoch) + ")", fixed(r.best_validation_accuracy, 4)});
  summary.add({"most frequent body symbol", fixed(r.baseline_accuracy, 4)});
  summary.add({"chance (1/" + std::to_string(config.task.symbols) + ")", fixed(r.chance_accuracy, 4)});
  summary.print(out);

  const auto& a = r.analysis;
  out << "\nlast block, attention from the query by offset from the answer (validation mean);\n"
         "block 1, from the cue onto the answer after it and from the answer onto the cue before it\n";
  std::vector<std::string> header = {"head"};
  for (int o : a.offsets) header.push_back(offset_name(o));
  header.insert(header.end(), {"block 1: cue -> answer", "block 1: answer -> cue"});
  Table offsets(header);
  for (int h = 0; h < config.heads; ++h) {
    std::vector<std::string> row = {std::to_string(h + 1)};
    for (double w : a.last_block_by_offset[std::size_t(h)]) row.push_back(fixed(w, 4));
    row.push_back(fixed(a.first_block_cue_to_answer[std::size_t(h)], 4));
    row.push_back(fixed(a.first_block_answer_to_cue[std::size_t(h)], 4));
    offsets.add(row);
  }
  offsets.print(out);
  out << "\nwhat breaks when block 1 or a head is changed (validation accuracy; `intervene --route`):\n";
  Table tests({"intervention", "val acc"});
  for (const auto& test : r.route.tests) tests.add({test_name(test), fixed(test.accuracy, 4)});
  tests.print(out);
  out << "\nroute: " << route_text(r.route) << '\n' << "elapsed: " << fixed(seconds, 2) << " s\n";
}

class CueCommand : public ConfigCommand<nn::CueTrainConfig> {
 public:
  explicit CueCommand(CLI::App& parent) {
    add_options(*parent.add_subcommand(
        "cue", "train the tiny transformer on the cue task (find the cue, read the next token)"));
    app->add_option("--save-weights", weights_path_,
                    "write the trained weights to this file (raw little-endian float32, the model's parameter order)");
    app->add_flag("--trace", trace_, "analyse the attention after every epoch too (--json: analysisHistory)");
  }

  int run(std::ostream& out) override {
    const auto start = std::chrono::steady_clock::now();
    nn::CueTrainer trainer(config_);
    std::vector<nn::CueAnalysis> trace;
    while (!trainer.finished()) {
      trainer.train_epoch();
      if (trace_) trace.push_back(trainer.analyse());
    }
    const nn::CueReport report = trainer.report();
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (!weights_path_.empty()) write_weights(weights_path_, trainer.weights());
    if (!json) {
      print(out, report, seconds);
      if (trace_) print_trace(out, report, trace);
      return 0;
    }
    Json result = to_json(report);
    if (trace_) result["analysisHistory"] = to_json(trace);
    result["elapsedSeconds"] = seconds;
    out << result.dump() << '\n';
    return 0;
  }

 private:
  std::string weights_path_;
  bool trace_ = false;
};

}  // namespace

std::unique_ptr<Command> cue_command(CLI::App& parent) { return std::make_unique<CueCommand>(parent); }

}  // namespace attn::cli
