// attention-lab probe: one sequence through a trained cue model whose weights `cue
// --save-weights` wrote: the prediction, every class's probability, and the attention of every
// block and head over the tokens. --json is what the browser's probe computes from the same
// weights (tests/wasm compare the two exactly).
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

void print(std::ostream& out, const nn::CueProbe& p, const CueTaskConfig& task) {
  out << "tokens:";
  for (int t : p.tokens) out << ' ' << token_name(t, task);
  out << "\nprediction: " << token_name(p.prediction, task) << " (probability "
      << fixed(p.probabilities[std::size_t(p.prediction)], 4) << ")";
  if (p.expected >= 0)
    out << "; the right answer is " << p.expected << " (after the cue at position " << p.cue_position << ")";
  out << "\n\n";
  Table classes({"class", "probability"});
  for (std::size_t c = 0; c < p.probabilities.size(); ++c)
    classes.add({token_name(int(c), task), fixed(p.probabilities[c], 4)});
  classes.print(out);
  const std::size_t n = p.tokens.size();
  for (std::size_t b = 0; b < p.attention.size(); ++b)
    for (std::size_t h = 0; h < p.attention[b].size(); ++h) {
      out << "\nblock " << b + 1 << ", head " << h + 1 << ": attention (rows: from, columns: onto)\n";
      std::vector<std::string> header{"from \\ onto"};
      for (int t : p.tokens) header.push_back(token_name(t, task));
      Table table(header);
      for (std::size_t i = 0; i < n; ++i) {
        std::vector<std::string> row{std::to_string(i) + " " + token_name(p.tokens[i], task)};
        for (std::size_t j = 0; j < n; ++j) row.push_back(fixed(p.attention[b][h][i * n + j], 3));
        table.add(row);
      }
      table.print(out);
    }
}

class ProbeCommand : public ConfigCommand<nn::CueTrainConfig> {
 public:
  explicit ProbeCommand(CLI::App& parent) {
    add_options(
        *parent.add_subcommand("probe", "one sequence through a trained cue model: its answer and its attention"));
    app->add_option("--weights", weights_path_, "the trained weights, as `cue --save-weights` wrote them")->required();
    app->add_option("--tokens", tokens_, "the sequence: token ids (symbols 0.., then the cue), comma-separated")
        ->delimiter(',')
        ->required();
  }

  std::string flag_of(const std::string& name) const override {
    if (name == "tokens" || name == "weights") return "--" + name;
    return ConfigCommand::flag_of(name);
  }

  int run(std::ostream& out) override {
    nn::CueTrainer model(config_);
    model.load_weights(read_weights(weights_path_));
    const nn::CueProbe probe = model.probe(tokens_);
    if (json)
      out << to_json(probe).dump() << '\n';
    else
      print(out, probe, config_.task);
    return 0;
  }

 private:
  std::string weights_path_;
  std::vector<int> tokens_;
};

}  // namespace

std::unique_ptr<Command> probe_command(CLI::App& parent) { return std::make_unique<ProbeCommand>(parent); }

}  // namespace attn::cli
