#include "options.hpp"

#include <cctype>

namespace attn::cli {

CLI::Validator decimal_whole(const FieldInfo& field) {
  const bool may_be_negative = field.min < 0;
  const std::string expected = "a whole number in " + range_text(field);
  return CLI::Validator(
      [may_be_negative, expected](std::string& text) -> std::string {
        std::size_t digits = 0;
        if (may_be_negative && !text.empty() && (text[0] == '-' || text[0] == '+')) digits = 1;
        if (digits == text.size()) return "must be " + expected + ", got \"" + text + "\"";
        for (std::size_t i = digits; i < text.size(); ++i)
          if (!std::isdigit(static_cast<unsigned char>(text[i])))
            return "must be " + expected + ", got \"" + text + "\"";
        // Leading zeros are decimal here: "010" is ten, not strtoll's octal eight.
        const std::size_t first = text.find_first_not_of('0', digits);
        text.erase(digits, (first == std::string::npos ? text.size() - 1 : first) - digits);
        return {};
      },
      "");
}

std::string option_help(const FieldInfo& field) { return std::string(field.help) + ", in " + range_text(field); }

std::string choice_help(const FieldInfo& field) {
  const std::vector<std::string> names = choices_of(field);
  std::string text = std::string(field.help) + ": ";
  for (std::size_t i = 0; i < names.size(); ++i)
    text += (i == 0 ? "" : i + 1 == names.size() ? " or " : ", ") + names[i];
  return text;
}

}  // namespace attn::cli
