// attention-lab: the lesson's measurements from the native core, one subcommand each.
// Usage errors print one line and exit 2; failures of a measurement exit 1.
#include "command.hpp"

#include <exception>
#include <iostream>

namespace {

using attn::cli::Command;

const std::vector<Command>& commands() {
  static const std::vector<Command> all = {
      attn::cli::reference_command(),
      attn::cli::scale_command(),
      attn::cli::masks_command(),
      attn::cli::heads_command(),
      attn::cli::pitfalls_command(),
      attn::cli::cue_command(),
  };
  return all;
}

void print_usage(std::ostream& out) {
  out << "usage: attention-lab COMMAND [options]   (attention-lab COMMAND --help for its options)\n\n"
         "commands:\n";
  for (const auto& command : commands()) {
    std::string name = "  " + command.name;
    name.resize(std::max<std::size_t>(name.size() + 2, 14), ' ');
    out << name << command.summary << '\n';
  }
}

}  // namespace

int main(int argc, char** argv) {
  const std::vector<std::string> words(argv + 1, argv + argc);
  if (words.empty() || words[0] == "--help" || words[0] == "-h" || words[0] == "help") {
    print_usage(std::cout);
    return words.empty() ? 2 : 0;
  }
  for (const auto& command : commands()) {
    if (command.name != words[0]) continue;
    try {
      const auto args = attn::cli::Args::parse({words.begin() + 1, words.end()}, command.options);
      if (args.flag("help")) {
        std::cout << "usage: attention-lab " << command.name << " [options]\n"
                  << command.summary << "\n\noptions:\n"
                  << attn::cli::describe_options(command.options);
        return 0;
      }
      return command.run(args, std::cout);
    } catch (const attn::cli::UsageError& e) {
      std::cerr << "attention-lab " << command.name << ": " << e.what() << " (see attention-lab "
                << command.name << " --help)\n";
      return 2;
    } catch (const std::invalid_argument& e) {
      std::cerr << "attention-lab " << command.name << ": " << e.what() << '\n';
      return 2;
    } catch (const std::exception& e) {
      std::cerr << "attention-lab " << command.name << ": " << e.what() << '\n';
      return 1;
    }
  }
  std::cerr << "attention-lab: unknown command '" << words[0] << "' (see attention-lab --help)\n";
  return 2;
}
