#include "args.hpp"

#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <sstream>

namespace attn::cli {
namespace {

const std::vector<OptionSpec> kCommonOptions = {
    {"json", "", "print machine-readable JSON instead of a table"},
    {"help", "", "show this help"},
};

const OptionSpec* find(const std::vector<OptionSpec>& spec, const std::string& name) {
  for (const auto* list : {&spec, &kCommonOptions})
    for (const auto& option : *list)
      if (option.name == name) return &option;
  return nullptr;
}

long parse_integer(const std::string& name, const std::string& text, long min, long max) {
  errno = 0;
  char* end = nullptr;
  const long long value = std::strtoll(text.c_str(), &end, 10);
  // strtoll skips leading white space; a command-line number has none.
  if (text.empty() || std::isspace(static_cast<unsigned char>(text[0])) || *end != '\0' || errno == ERANGE)
    throw UsageError("--" + name + " must be a whole number, got '" + text + "'");
  if (value < min || value > max)
    throw UsageError("--" + name + " must be between " + std::to_string(min) + " and " +
                     std::to_string(max) + ", got " + text);
  return long(value);
}

}  // namespace

Args Args::parse(const std::vector<std::string>& argv, const std::vector<OptionSpec>& spec) {
  Args args;
  for (std::size_t i = 0; i < argv.size(); ++i) {
    const std::string& word = argv[i];
    if (word.size() < 3 || word.compare(0, 2, "--") != 0)
      throw UsageError("unexpected argument '" + word + "'");
    std::string name = word.substr(2), value;
    const bool inline_value = name.find('=') != std::string::npos;
    if (inline_value) {
      value = name.substr(name.find('=') + 1);
      name = name.substr(0, name.find('='));
    }
    const OptionSpec* option = find(spec, name);
    if (!option) throw UsageError("unknown option '--" + name + "'");
    if (option->value_name.empty()) {
      if (inline_value) throw UsageError("--" + name + " takes no value");
      args.flags_.insert(name);
      continue;
    }
    if (!inline_value) {
      if (i + 1 >= argv.size()) throw UsageError("--" + name + " needs a value (" + option->value_name + ")");
      value = argv[++i];
    }
    if (args.values_.count(name)) throw UsageError("--" + name + " is given twice");
    args.values_[name] = value;
  }
  return args;
}

std::string Args::text(const std::string& name, const std::string& fallback) const {
  auto it = values_.find(name);
  return it == values_.end() ? fallback : it->second;
}

long Args::integer(const std::string& name, long fallback, long min, long max) const {
  auto it = values_.find(name);
  return it == values_.end() ? fallback : parse_integer(name, it->second, min, max);
}

double Args::number(const std::string& name, double fallback, double min, double max) const {
  auto it = values_.find(name);
  if (it == values_.end()) return fallback;
  const std::string& text = it->second;
  char* end = nullptr;
  const double value = std::strtod(text.c_str(), &end);
  if (text.empty() || *end != '\0' || !std::isfinite(value))
    throw UsageError("--" + name + " must be a number, got '" + text + "'");
  if (value < min || value > max) {
    std::ostringstream message;
    message << "--" << name << " must be between " << min << " and " << max << ", got " << text;
    throw UsageError(message.str());
  }
  return value;
}

std::vector<long> Args::integer_list(const std::string& name, const std::vector<long>& fallback,
                                     long min, long max, std::size_t max_count) const {
  auto it = values_.find(name);
  if (it == values_.end()) return fallback;
  std::vector<long> items;
  if (!it->second.empty() && it->second.back() == ',')  // getline would drop the empty last item
    throw UsageError("--" + name + " must not end with a comma, got '" + it->second + "'");
  std::stringstream parts(it->second);
  std::string part;
  while (std::getline(parts, part, ',')) {
    items.push_back(parse_integer(name, part, min, max));
    if (items.size() > max_count)
      throw UsageError("--" + name + " takes at most " + std::to_string(max_count) + " values");
  }
  if (items.empty()) throw UsageError("--" + name + " needs at least one value");
  return items;
}

std::string describe_options(const std::vector<OptionSpec>& spec) {
  std::ostringstream out;
  for (const auto* list : {&spec, &kCommonOptions})
    for (const auto& option : *list) {
      std::string left = "  --" + option.name + (option.value_name.empty() ? "" : " " + option.value_name);
      left.resize(std::max<std::size_t>(left.size() + 2, 24), ' ');
      out << left << option.help << '\n';
    }
  return out.str();
}

}  // namespace attn::cli
