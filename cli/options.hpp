// Command-line options made from a core config's field list (attn/config.hpp): one option
// per field, bound to that field, its help text, range and default taken from the core. CLI11
// checks only the syntax (a decimal whole number, a number, a comma-separated list); the
// ranges are the core's to check, and its messages reach the user with the flags' names.
#pragma once

#include "command.hpp"

#include "attn/config.hpp"

#include <CLI/CLI.hpp>

#include <sstream>
#include <string>
#include <type_traits>
#include <vector>

namespace attn::cli {

// "--batch" for the core's "batch_size", from Config's field list; unknown names unchanged.
template <typename Config>
std::string flag_of(const std::string& name) {
  const FieldInfo* field = find_field<Config>(name);
  return field ? std::string("--") + field->flag : name;
}

// The syntax check of whole-number options: plain decimal digits (strtoll would read "010"
// as octal and "0x10" as hex), an optional sign where the field can be negative.
CLI::Validator decimal_whole(const FieldInfo& field);

// "transformer blocks, in [1, 8]" (the default is printed by CLI11 from the bound value).
std::string option_help(const FieldInfo& field);
// "how to knock a head out: zero or mean".
std::string choice_help(const FieldInfo& field);

// Adds one option per field of `config` to `sub`, bound to that field.
template <typename Config>
void add_config_options(CLI::App& sub, Config& config) {
  Config::fields([&](const FieldInfo& field, auto access) {
    auto& value = access(config);
    using T = std::decay_t<decltype(value)>;
    const std::string name = std::string("--") + field.flag;
    if constexpr (std::is_same_v<T, bool>) {
      // A flag that is on by default is offered as the way to turn it off.
      if (value)
        sub.add_flag(std::string("!--no-") + field.flag, value, std::string("turn off: ") + field.help);
      else
        sub.add_flag(name, value, field.help);
    } else if constexpr (std::is_integral_v<T>) {
      sub.add_option(name, value, option_help(field))->transform(decimal_whole(field))->capture_default_str();
    } else if constexpr (std::is_floating_point_v<T>) {
      sub.add_option(name, value, option_help(field))->capture_default_str();
    } else if constexpr (std::is_same_v<T, std::string>) {
      sub.add_option(name, value, choice_help(field))->capture_default_str();
    } else {
      sub.add_option(name, value,
                     option_help(field) + "; 1 to " + std::to_string(field.max_count) + ", comma-separated")
          ->delimiter(',')
          ->transform(decimal_whole(field))
          ->capture_default_str();
    }
  });
}

// The same command, with its options bound to a Config it owns; its messages name the flags.
template <typename Config>
class ConfigCommand : public Command {
 public:
  std::string flag_of(const std::string& name) const override { return cli::flag_of<Config>(name); }

 protected:
  // Adds --json and one option per field of config_ to `app`.
  void add_options(CLI::App& sub) {
    app = &sub;
    sub.add_flag("--json", json, "print JSON instead of tables");
    add_config_options(sub, config_);
  }

  Config config_;
};

}  // namespace attn::cli
