// attention-lab pitfalls: the masked-score constant in half precision and float32, on a
// problem with fully masked rows (padded query positions).
#include "json.hpp"
#include "options.hpp"
#include "table.hpp"

#include "attn/experiments/pitfalls.hpp"

#include <cmath>
#include <cstdio>

namespace attn::cli {
namespace {

using namespace attn::experiments;

std::string number(double x) {
  if (std::isnan(x)) return "NaN";
  if (std::isinf(x)) return x < 0 ? "-inf" : "inf";
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.5g", x);
  return buffer;
}

// The range of the row sums of `rows`, "NaN" if any is NaN.
std::string sum_range(const PitfallCase& c, int rows) {
  double lo = INFINITY, hi = -INFINITY;
  for (int i = 0; i < rows; ++i) {
    if (std::isnan(c.row_sums[i])) return "NaN";
    lo = std::min(lo, c.row_sums[i]);
    hi = std::max(hi, c.row_sums[i]);
  }
  return fixed(lo, 4) == fixed(hi, 4) ? fixed(lo, 4) : fixed(lo, 4) + " .. " + fixed(hi, 4);
}

void print(std::ostream& out, const HalfPrecisionPitfall& p) {
  const int n = p.positions, real = p.real;
  out << "Masked-score constants: " << n << " positions of which " << real
      << " are real, padded on both sides,\nso rows " << real << ".." << n - 1
      << " (padded queries) have every key blocked. Q and K are seeded (seed " << p.seed << ", d_k " << p.d_k
      << ");\nthe float16 cases run the same attention code in Eigen::half.\n\n";
  Table table({"precision", "constant", "stored as", "fully masked rows", "blocked weights", "sums of the other rows",
               "result"});
  for (const auto& c : p.cases)
    table.add({c.precision, c.constant == "lowest" ? "lowest (" + number(c.requested) + ")" : c.constant,
               number(c.stored),
               c.fully_masked_rows_nan ? "NaN" : "uniform " + fixed(c.weights[std::size_t(real) * n], 4),
               c.blocked_exactly_zero ? "exactly 0" : "NOT 0", sum_range(c, real), c.all_finite ? "finite" : "NaN"});
  table.print(out);
  out << "\nIn half precision (largest finite 65504) -1e30 and -1e9 both round to -inf; a row of -inf\n"
         "has no finite maximum, -inf - (-inf) is NaN and the whole row is NaN. float32 holds -1e9 and\n"
         "-1e30 as ordinary numbers. -1e4 or the type's lowest finite value are safe in both: the row\n"
         "becomes uniform and blocked pairs of the other rows still get exactly zero weight.\n"
         "Other pitfalls, measured: dropping the scale (attention-lab scale), masking after the\n"
         "softmax (attention-lab masks).\n";
}

class PitfallsCommand : public ConfigCommand<PitfallConfig> {
 public:
  explicit PitfallsCommand(CLI::App& parent) {
    add_options(*parent.add_subcommand(
        "pitfalls", "the masked-score constant in half precision and float32: which ones turn a masked row into NaN"));
  }

  int run(std::ostream& out) override {
    const HalfPrecisionPitfall p = half_precision_pitfall(config_);
    if (json)
      out << to_json(p).dump() << '\n';
    else
      print(out, p);
    return 0;
  }
};

}  // namespace

std::unique_ptr<Command> pitfalls_command(CLI::App& parent) { return std::make_unique<PitfallsCommand>(parent); }

}  // namespace attn::cli
