// attention-lab masks: the share of query-key pairs each mask allows (the lesson's table),
// then the weights each mask leaves on one seeded score matrix, the exact zeros on blocked
// pairs, and the row sums of the mask-after-softmax mistake.
#include "json.hpp"
#include "options.hpp"
#include "table.hpp"

#include "attn/experiments/mask_demo.hpp"

namespace attn::cli {
namespace {

using experiments::MaskDemo;
using experiments::MaskDemoConfig;

// The (n, n) weight tables fit a terminal up to this many positions.
constexpr int kMaxPrintedPositions = 16;

void print_weights(std::ostream& out, const MaskDemo& demo) {
  const int n = demo.positions;
  out << "\nThe masks on one seeded score matrix (Q, K standard normal, d_k " << demo.d_k << ", seed " << demo.seed
      << "),\nmasked to " << demo.masked_value << " before the softmax. '.' is a blocked pair.\n";
  for (const auto& c : demo.cases) {
    out << "\n" << c.name << ": weights\n";
    std::vector<std::string> header{"query \\ key"};
    for (int j = 0; j < n; ++j) header.push_back(std::to_string(j));
    header.push_back("row sum");
    Table table(header);
    for (int i = 0; i < n; ++i) {
      std::vector<std::string> row{std::to_string(i)};
      for (int j = 0; j < n; ++j) {
        const std::size_t at = std::size_t(i) * n + j;
        row.push_back(c.allowed[at] ? fixed(c.weights[at], 3) : ".");
      }
      row.push_back(fixed(c.row_sums[i], 4));
      table.add(row);
    }
    table.print(out);
    out << "largest weight on a blocked pair: " << scientific(c.max_blocked_weight)
        << (c.blocked_exactly_zero ? " (every blocked weight is exactly 0)" : " (NOT all exactly 0)") << "\n";
  }
  out << "\nThe mistake: softmax of the unmasked scores, then the blocked pairs set to 0.\n"
         "Row sums (masking the scores first gives 1.0000 in every row, as above):\n";
  std::vector<std::string> header{"query"};
  for (const auto& c : demo.cases) header.push_back(c.name + ", masked after");
  Table sums(header);
  for (int i = 0; i < n; ++i) {
    std::vector<std::string> row{std::to_string(i)};
    for (const auto& c : demo.cases) row.push_back(fixed(c.mistake_row_sums[i], 4));
    sums.add(row);
  }
  sums.print(out);
  out << "Masked after the softmax, a row that blocks any key no longer sums to 1.\n";
}

class MasksCommand : public ConfigCommand<MaskDemoConfig> {
 public:
  explicit MasksCommand(CLI::App& parent) {
    add_options(*parent.add_subcommand(
        "masks", "fraction of query-key pairs allowed by the causal, padding and combined masks"));
  }

  int run(std::ostream& out) override {
    const MaskDemo demo = experiments::mask_demo(config_);
    if (json) {
      out << to_json(demo).dump() << '\n';
      return 0;
    }
    const std::string n = std::to_string(demo.positions);
    const std::string labels[] = {"causal (" + n + " positions)",
                                  "padding (" + std::to_string(demo.real) + " of " + n + " real)", "both"};
    Table table({"mask", "pairs allowed"});
    for (std::size_t i = 0; i < demo.cases.size(); ++i)
      table.add({labels[i], fixed(demo.cases[i].allowed_fraction, 4)});
    table.print(out);
    if (demo.positions <= kMaxPrintedPositions)
      print_weights(out, demo);
    else
      out << "\n(The weight tables are printed for up to " << kMaxPrintedPositions
          << " positions; --json has them all.)\n";
    return 0;
  }
};

}  // namespace

std::unique_ptr<Command> masks_command(CLI::App& parent) { return std::make_unique<MasksCommand>(parent); }

}  // namespace attn::cli
