// attention-lab reference: the core against PyTorch's nn.MultiheadAttention, per case.
#include "command.hpp"
#include "json_writer.hpp"
#include "reference_check.hpp"
#include "table.hpp"

namespace attn::cli {

// The agreement we require: float32 rounding, nothing else.
constexpr double kReferenceTolerance = 1e-6;

Command reference_command() {
  return {"reference",
          "largest differences between the core and PyTorch on the reference fixture",
          {{"fixture", "PATH", "fixture from tests/reference/make_fixture.py (default: the build's)"},
           {"write-native", "PATH",
            "also write the core's own results and seeded draws there, for the WebAssembly tests"}},
          [](const Args& args, std::ostream& out) {
            const std::string fixture = args.text("fixture", ATTN_DEFAULT_FIXTURE);
            if (args.has("write-native")) write_native_outputs(fixture, args.text("write-native", ""));
            const auto results = check_reference_fixture(fixture);
            bool all_within = true;
            for (const auto& r : results)
              all_within = all_within && r.output_diff <= kReferenceTolerance &&
                           r.weights_diff <= kReferenceTolerance;
            if (args.flag("json")) {
              JsonWriter json(out);
              json.begin_object().field("tolerance", kReferenceTolerance).field("all_within", all_within);
              json.key("cases").begin_array();
              for (const auto& r : results)
                json.begin_object()
                    .field("case", r.name)
                    .field("kind", r.kind)
                    .field("batch", r.batch)
                    .field("output_max_abs_diff", r.output_diff)
                    .field("weights_max_abs_diff", r.weights_diff)
                    .end_object();
              json.end_array().end_object();
            } else {
              Table table({"case (vs PyTorch " "nn.MultiheadAttention)", "batch", "output max|diff|",
                           "weights max|diff|", "within 1e-6"});
              for (const auto& r : results)
                table.add({r.name, std::to_string(r.batch), scientific(r.output_diff),
                           scientific(r.weights_diff),
                           r.output_diff <= kReferenceTolerance && r.weights_diff <= kReferenceTolerance
                               ? "yes" : "NO"});
              table.print(out);
            }
            return all_within ? 0 : 1;
          }};
}

}  // namespace attn::cli
