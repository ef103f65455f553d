// libFuzzer target over the CLI's option parsing (cli/args.hpp): Args::parse on any words,
// then every typed getter with fuzzer-chosen bounds.
//
// A bad word or value must come back as UsageError (exit code 2 in the command), never as
// another exception, a crash or a value outside the bounds asked for. A well-formed command
// line written from fuzzer-chosen numbers must parse back to exactly those numbers.
// Leaves out: the subcommands themselves (each has Catch2 tests of its options).
#include "fuzz_input.hpp"

#include "args.hpp"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

namespace {

using attn::cli::Args;
using attn::cli::OptionSpec;
using attn::cli::UsageError;
using attn::fuzz::Input;

#define FUZZ_CHECK(cond)                                                               \
  do {                                                                                 \
    if (!(cond)) {                                                                     \
      std::fprintf(stderr, "fuzz_cli_args: check failed at line %d: %s\n", __LINE__, #cond); \
      std::abort();                                                                    \
    }                                                                                  \
  } while (0)

const std::vector<OptionSpec> kSpec = {
    {"seed", "S", "seed"}, {"dk", "LIST", "key sizes"}, {"rate", "R", "a rate"},
    {"name", "TEXT", "a name"}, {"verbose", "", "a flag"},
};
const char* const kNames[] = {"seed", "dk", "rate", "name", "verbose", "json", "help", "nope"};

template <typename F>
bool returns(F&& f) {
  try {
    f();
    return true;
  } catch (const UsageError& error) {
    FUZZ_CHECK(error.what()[0] != '\0');
    return false;
  }
}

// A word that is often option-shaped: "--name", "--name=value", a value, or raw bytes.
std::string word(Input& in) {
  const std::string raw = in.provider().ConsumeRandomLengthString(24);
  const std::string name = kNames[in.byte() % 8];
  switch (in.byte() % 5) {
    case 0: return "--" + name;
    case 1: return "--" + name + "=" + raw;
    case 2: return "--" + raw;
    default: return raw;
  }
}

// Bounds for a getter: ordinary, extreme, or reversed (min > max).
long bound(Input& in) {
  switch (in.byte() % 8) {
    case 0: return std::numeric_limits<long>::min();
    case 1: return std::numeric_limits<long>::max();
    case 2: return in.provider().ConsumeIntegral<long>();
    default: return in.in_range<long>(-100, 100);
  }
}

void call_getters(Input& in, const Args& args) {
  for (const char* name : kNames) {
    (void)args.flag(name);
    (void)args.has(name);
    (void)args.text(name, "x");
    const long lo = bound(in), hi = bound(in);
    long i = 0;
    if (returns([&] { i = args.integer(name, lo, lo, hi); }) && args.has(name))
      FUZZ_CHECK(i >= lo && i <= hi);
    // Bounds are constants in the commands, never NaN; infinite ones are fair.
    auto not_nan = [](double x) { return std::isnan(x) ? 0.0 : x; };
    const double dlo = not_nan(in.value()), dhi = not_nan(in.value());
    double d = 0;
    if (returns([&] { d = args.number(name, 0.0, dlo, dhi); }) && args.has(name))
      FUZZ_CHECK(std::isfinite(d) && d >= dlo && d <= dhi);
    const std::size_t max_count = in.in_range<std::size_t>(0, 6);
    std::vector<long> list;
    if (returns([&] { list = args.integer_list(name, {}, lo, hi, max_count); }) && args.has(name)) {
      FUZZ_CHECK(!list.empty() && list.size() <= max_count);
      for (long x : list) FUZZ_CHECK(x >= lo && x <= hi);
    }
  }
}

// Writes a valid command line from fuzzer numbers and checks they come back unchanged.
void round_trip(Input& in) {
  const long seed = in.provider().ConsumeIntegral<long>();
  std::vector<long> dk(in.in_range<std::size_t>(1, 5));
  std::string dk_text;
  for (long& x : dk) {
    x = in.in_range<long>(-1000000, 1000000);
    dk_text += (dk_text.empty() ? "" : ",") + std::to_string(x);
  }
  const bool inline_form = in.flag(), verbose = in.flag();
  std::vector<std::string> argv;
  if (inline_form) {
    argv = {"--seed=" + std::to_string(seed), "--dk=" + dk_text};
  } else {
    argv = {"--seed", std::to_string(seed), "--dk", dk_text};
  }
  if (verbose) argv.push_back("--verbose");
  const Args args = Args::parse(argv, kSpec);
  const long lo = std::numeric_limits<long>::min(), hi = std::numeric_limits<long>::max();
  FUZZ_CHECK(args.integer("seed", 0, lo, hi) == seed);
  FUZZ_CHECK(args.integer_list("dk", {}, lo, hi, dk.size()) == dk);
  FUZZ_CHECK(args.flag("verbose") == verbose);
  FUZZ_CHECK(!args.has("rate") && args.number("rate", 0.25, 0, 1) == 0.25);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  Input in(data, size);
  if (in.byte() % 4 == 0) {
    round_trip(in);
    return 0;
  }
  std::vector<std::string> argv(in.in_range<std::size_t>(0, 8));
  for (auto& w : argv) w = word(in);
  Args args;
  if (returns([&] { args = Args::parse(argv, kSpec); })) call_getters(in, args);
  (void)attn::cli::describe_options(kSpec);
  return 0;
}
