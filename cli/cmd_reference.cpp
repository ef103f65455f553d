// attention-lab reference: the core against PyTorch's nn.MultiheadAttention, per case.
#include "command.hpp"
#include "json.hpp"
#include "reference_check.hpp"
#include "table.hpp"

namespace attn::cli {
namespace {

// The agreement we require: float32 rounding, nothing else.
constexpr double kReferenceTolerance = 1e-6;

class ReferenceCommand : public Command {
 public:
  explicit ReferenceCommand(CLI::App& parent) {
    app =
        parent.add_subcommand("reference", "largest differences between the core and PyTorch on the reference fixture");
    app->add_flag("--json", json, "print JSON instead of a table");
    app->add_option("--fixture", fixture_, "fixture written by tests/reference/make_fixture.py")->capture_default_str();
    app->add_option("--write-native", native_,
                    "also write the core's own results and seeded draws there, for the WebAssembly tests");
  }

  int run(std::ostream& out) override {
    if (!native_.empty()) write_native_outputs(fixture_, native_);
    const auto results = check_reference_fixture(fixture_);
    const auto within = [](const ReferenceCaseResult& r) {
      return r.output_diff <= kReferenceTolerance && r.weights_diff <= kReferenceTolerance;
    };
    bool all_within = true;
    for (const auto& r : results) all_within = all_within && within(r);
    if (json) {
      Json cases = Json::array();
      for (const auto& r : results)
        cases.push_back({{"case", r.name},
                         {"kind", r.kind},
                         {"batch", r.batch},
                         {"outputMaxAbsDiff", r.output_diff},
                         {"weightsMaxAbsDiff", r.weights_diff}});
      out << Json{{"tolerance", kReferenceTolerance}, {"allWithin", all_within}, {"cases", cases}}.dump() << '\n';
    } else {
      Table table(
          {"case (vs PyTorch nn.MultiheadAttention)", "batch", "output max|diff|", "weights max|diff|", "within 1e-6"});
      for (const auto& r : results)
        table.add({r.name, std::to_string(r.batch), scientific(r.output_diff), scientific(r.weights_diff),
                   within(r) ? "yes" : "NO"});
      table.print(out);
    }
    return all_within ? 0 : 1;
  }

 private:
  std::string fixture_ = ATTN_DEFAULT_FIXTURE;
  std::string native_;
};

}  // namespace

std::unique_ptr<Command> reference_command(CLI::App& parent) { return std::make_unique<ReferenceCommand>(parent); }

}  // namespace attn::cli
