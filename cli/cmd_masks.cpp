// attention-lab masks: the share of query-key pairs each mask allows (the lesson's table).
#include "command.hpp"
#include "json_writer.hpp"
#include "table.hpp"

#include "attn/masks.hpp"

namespace attn::cli {

Command masks_command() {
  return {"masks",
          "fraction of query-key pairs allowed by the causal, padding and combined masks",
          {{"positions", "N", "sequence length (default 10)"},
           {"real", "R", "real (non-padding) tokens, 1..N (default 6)"}},
          [](const Args& args, std::ostream& out) {
            const long n = args.integer("positions", 10, 1, kMaxMaskSide);
            const long real = args.integer("real", 6, 1, n);
            const Mask causal = causal_mask(n), padding = padding_mask(n, n, real);
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
              json.end_array().end_object();
              return 0;
            }
            Table table({"mask", "pairs allowed"});
            for (const auto& row : rows) table.add({row.label, fixed(row.fraction, 4)});
            table.print(out);
            return 0;
          }};
}

}  // namespace attn::cli
