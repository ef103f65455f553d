// Command-line options for the attention-lab subcommands: `--name value` or `--name=value`,
// and boolean flags. Anything unknown or malformed throws UsageError, which main() turns
// into a one-line message and exit code 2.
#pragma once

#include <map>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

namespace attn::cli {

struct UsageError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

struct OptionSpec {
  std::string name;  // without the leading dashes
  std::string value_name;  // empty for a flag
  std::string help;
};

class Args {
 public:
  // Parses argv (the words after the subcommand) against spec. --help and --json are always known.
  static Args parse(const std::vector<std::string>& argv, const std::vector<OptionSpec>& spec);

  bool flag(const std::string& name) const { return flags_.count(name) > 0; }
  bool has(const std::string& name) const { return values_.count(name) > 0; }
  std::string text(const std::string& name, const std::string& fallback) const;
  // A whole number in [min, max]; fallback when the option is absent.
  long integer(const std::string& name, long fallback, long min, long max) const;
  // A number in [min, max] (finite); fallback when absent.
  double number(const std::string& name, double fallback, double min, double max) const;
  // Comma-separated whole numbers, each in [min, max], at most max_count of them.
  std::vector<long> integer_list(const std::string& name, const std::vector<long>& fallback,
                                 long min, long max, std::size_t max_count) const;

 private:
  std::map<std::string, std::string> values_;
  std::set<std::string> flags_;
};

// "--name VALUE  help" lines for a subcommand's --help.
std::string describe_options(const std::vector<OptionSpec>& spec);

}  // namespace attn::cli
