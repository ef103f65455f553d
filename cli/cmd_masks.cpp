// attention-lab masks: the share of query-key pairs each mask allows (the lesson's table),
// then the masks demo: the weights each mask leaves on one seeded score matrix, the exact
// zeros on blocked pairs, and the row sums of the mask-after-softmax mistake.
#include "command.hpp"
#include "json_writer.hpp"
#include "table.hpp"

#include "attn/experiments/mask_demo.hpp"
#include "attn/masks.hpp"

namespace attn::cli {
namespace {

using experiments::MaskDemo;

void write_demo(JsonWriter& json, const MaskDemo& demo) {
  json.key("demo").begin_object()
      .field("seed", long(demo.seed))
      .field("d_k", demo.d_k)
      .field("masked_value", demo.masked_value);
  json.key("scores").array(demo.scores);
  json.key("cases").begin_array();
  for (const auto& c : demo.cases) {
    json.begin_object().field("mask", c.name).field("allowed_fraction", c.allowed_fraction);
    json.key("allowed").array(c.allowed);
    json.key("weights").array(c.weights);
    json.key("row_sums").array(c.row_sums);
    json.field("max_blocked_weight", c.max_blocked_weight).field("blocked_exactly_zero", c.blocked_exactly_zero);
    json.key("mistake_weights").array(c.mistake_weights);
    json.key("mistake_row_sums").array(c.mistake_row_sums);
    json.end_object();
  }
  json.end_array().end_object();
}

void print_demo(std::ostream& out, const MaskDemo& demo) {
  const int n = demo.positions;
  out << "\nThe masks on one seeded score matrix (Q, K standard normal, d_k " << demo.d_k << ", seed "
      << demo.seed << "),\nmasked to " << demo.masked_value << " before the softmax. '.' is a blocked pair.\n";
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

}  // namespace

Command masks_command() {
  return {"masks",
          "fraction of query-key pairs allowed by the causal, padding and combined masks",
          {{"positions", "N", "sequence length (default 10)"},
           {"real", "R", "real (non-padding) tokens, 1..N (default 6)"},
           {"seed", "S", "seed of the demo's queries and keys (default 0)"}},
          [](const Args& args, std::ostream& out) {
            const long n = args.integer("positions", 10, 1, kMaxMaskSide);
            const long real = args.integer("real", 6, 1, n);
            const long seed = args.integer("seed", 0, 0, 9007199254740991L);
            const Mask causal = causal_mask(n), padding = padding_mask(n, n, real);
            // The weights demo prints (n, n) tables: only for sizes that fit a terminal.
            const bool with_demo = n <= 16;
            MaskDemo demo;
            if (with_demo) demo = experiments::mask_demo(int(n), int(real), std::uint64_t(seed));
            const struct {
              std::string name, label;
              double fraction;
            } rows[] = {
                {"causal", "causal (" + std::to_string(n) + " positions)", allowed_fraction(causal)},
                {"padding", "padding (" + std::to_string(real) + " of " + std::to_string(n) + " real)",
                 allowed_fraction(padding)},
                {"both", "both", allowed_fraction(combine_masks(causal, padding))},
            };
            if (args.flag("json")) {
              JsonWriter json(out);
              json.begin_object().field("positions", n).field("real", real).key("masks").begin_array();
              for (const auto& row : rows)
                json.begin_object().field("mask", row.name).field("allowed_fraction", row.fraction).end_object();
              json.end_array();
              if (with_demo) write_demo(json, demo);
              json.end_object();
              return 0;
            }
            Table table({"mask", "pairs allowed"});
            for (const auto& row : rows) table.add({row.label, fixed(row.fraction, 4)});
            table.print(out);
            if (with_demo) print_demo(out, demo);
            else out << "\n(The weights demo is shown for up to 16 positions.)\n";
            return 0;
          }};
}

}  // namespace attn::cli
