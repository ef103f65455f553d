// attention-lab steps: scaled dot-product attention on a small seeded example, every
// intermediate matrix printed (Q, K, V, Q K^T, scaled, masked, softmax, output): the numbers
// the lesson's step-by-step view lays out.
#include "json.hpp"
#include "options.hpp"
#include "table.hpp"

#include "attn/experiments/attention_steps.hpp"

#include <string>
#include <vector>

namespace attn::cli {
namespace {

using experiments::AttentionSteps;
using experiments::AttentionStepsConfig;

void print_matrix(std::ostream& out, const std::string& title, const std::vector<float>& m, int rows, int cols,
                  const std::vector<std::uint8_t>* allowed = nullptr) {
  out << '\n' << title << '\n';
  std::vector<std::string> header{""};
  for (int j = 0; j < cols; ++j) header.push_back(std::to_string(j));
  Table table(header);
  for (int i = 0; i < rows; ++i) {
    std::vector<std::string> row{std::to_string(i)};
    for (int j = 0; j < cols; ++j) {
      const std::size_t at = std::size_t(i) * cols + j;
      row.push_back(allowed && !(*allowed)[at] ? "blocked" : fixed(m[at], 4));
    }
    table.add(row);
  }
  table.print(out);
}

class StepsCommand : public ConfigCommand<AttentionStepsConfig> {
 public:
  explicit StepsCommand(CLI::App& parent) {
    add_options(*parent.add_subcommand("steps", "scaled dot-product attention on a small example, step by step"));
  }

  int run(std::ostream& out) override {
    const AttentionSteps s = experiments::attention_steps(config_);
    if (json) {
      out << to_json(s).dump() << '\n';
      return 0;
    }
    const auto& c = s.config;
    out << c.tokens << " tokens, d_k " << c.d_k << ", d_v " << c.d_v << ", seed " << c.seed
        << ": Q, K, V standard normal, rounded to one decimal\n";
    print_matrix(out, "Q (tokens, d_k)", s.query, c.tokens, c.d_k);
    print_matrix(out, "K (tokens, d_k)", s.key, c.tokens, c.d_k);
    print_matrix(out, "V (tokens, d_v)", s.value, c.tokens, c.d_v);
    print_matrix(out, "Q K^T (query, key)", s.scores, c.tokens, c.tokens);
    print_matrix(out, c.scale ? "times 1/sqrt(d_k) = " + fixed(s.scale_factor, 6) : "not scaled", s.scaled, c.tokens,
                 c.tokens);
    if (c.causal)
      print_matrix(out, "causal mask: blocked pairs get " + scientific(s.masked_value), s.masked, c.tokens, c.tokens,
                   &s.allowed);
    print_matrix(out, "softmax of each row: the weights", s.weights, c.tokens, c.tokens);
    print_matrix(out, "weights V: the output (tokens, d_v)", s.output, c.tokens, c.d_v);
    return 0;
  }
};

}  // namespace

std::unique_ptr<Command> steps_command(CLI::App& parent) { return std::make_unique<StepsCommand>(parent); }

}  // namespace attn::cli
