// attention-lab pitfalls: the masked-score constant in half precision and float32, on a
// problem with fully masked rows (padded query positions).
#include "command.hpp"
#include "json_writer.hpp"
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

std::string sum_range(const PitfallCase& c, const std::vector<int>& rows) {
  double lo = INFINITY, hi = -INFINITY;
  for (int i : rows) {
    if (std::isnan(c.row_sums[i])) return "NaN";
    lo = std::min(lo, c.row_sums[i]);
    hi = std::max(hi, c.row_sums[i]);
  }
  return fixed(lo, 4) == fixed(hi, 4) ? fixed(lo, 4) : fixed(lo, 4) + " .. " + fixed(hi, 4);
}

}  // namespace

Command pitfalls_command() {
  return {"pitfalls",
          "the masked-score constant in half precision and float32: which ones turn a masked row into NaN",
          {{"positions", "N", "positions, 2..1024 (default 6)"},
           {"real", "R", "real positions, 1..N-1; the other N-R rows are fully masked (default 4)"},
           {"seed", "S", "seed of the queries and keys (default 0)"}},
          [](const Args& args, std::ostream& out) {
            const long n = args.integer("positions", 6, 2, 1024);
            const long real = args.integer("real", 4, 1, n - 1);
            const long seed = args.integer("seed", 0, 0, 9007199254740991L);
            const HalfPrecisionPitfall p = half_precision_pitfall(int(n), int(real), std::uint64_t(seed));

            if (args.flag("json")) {
              JsonWriter json(out);
              json.begin_object().field("positions", n).field("real", real).field("d_k", p.d_k).field("seed", seed);
              json.key("allowed").array(p.allowed);
              json.key("fully_masked_rows").array(p.fully_masked_rows);
              json.key("cases").begin_array();
              for (const auto& c : p.cases) {
                json.begin_object()
                    .field("precision", c.precision)
                    .field("constant", c.constant)
                    .field("requested", c.requested)
                    .field("stored", c.stored);
                // JSON has no -inf: say so explicitly (NaN weights appear as null).
                json.field("stored_is_negative_infinity", std::isinf(c.stored) && c.stored < 0);
                json.key("weights").array(c.weights);
                json.key("row_sums").array(c.row_sums);
                json.field("fully_masked_rows_nan", c.fully_masked_rows_nan)
                    .field("all_finite", c.all_finite)
                    .field("blocked_exactly_zero", c.blocked_exactly_zero)
                    .end_object();
              }
              json.end_array().end_object();
              return 0;
            }

            std::vector<int> kept;
            for (int i = 0; i < real; ++i) kept.push_back(i);
            out << "Masked-score constants: " << n << " positions of which " << real
                << " are real, padded on both sides,\nso rows " << real << ".." << n - 1
                << " (padded queries) have every key blocked. Q and K are seeded (seed " << seed << ", d_k "
                << p.d_k << ");\nthe float16 cases run the same attention code in Eigen::half.\n\n";
            Table table({"precision", "constant", "stored as", "fully masked rows", "blocked weights",
                         "sums of the other rows", "result"});
            for (const auto& c : p.cases) {
              table.add({c.precision, c.constant == "lowest" ? "lowest (" + number(c.requested) + ")" : c.constant,
                         number(c.stored), c.fully_masked_rows_nan ? "NaN" : "uniform " + fixed(c.weights[std::size_t(real) * n], 4),
                         c.blocked_exactly_zero ? "exactly 0" : "NOT 0", sum_range(c, kept),
                         c.all_finite ? "finite" : "NaN"});
            }
            table.print(out);
            out << "\nIn half precision (largest finite 65504) -1e30 and -1e9 both round to -inf; a row of -inf\n"
                   "has no finite maximum, -inf - (-inf) is NaN and the whole row is NaN. float32 holds -1e9 and\n"
                   "-1e30 as ordinary numbers. -1e4 or the type's lowest finite value are safe in both: the row\n"
                   "becomes uniform and blocked pairs of the other rows still get exactly zero weight.\n"
                   "Other pitfalls, measured: dropping the scale (attention-lab scale), masking after the\n"
                   "softmax (attention-lab masks).\n";
            return 0;
          }};
}

}  // namespace attn::cli
