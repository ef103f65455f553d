// One attention-lab subcommand: it adds itself to the command line (CLI11), with its options
// bound to a config it owns, and runs once the line is parsed. Each lives in its own
// cmd_*.cpp and is listed once in main.cpp.
#pragma once

#include <CLI/CLI.hpp>

#include <memory>
#include <ostream>
#include <string>

namespace attn::cli {

class Command {
 public:
  virtual ~Command() = default;
  // Writes a table, or JSON when --json was given; returns the exit code.
  virtual int run(std::ostream& out) = 0;
  // How this command's messages name an argument the core names `name` ("batch_size" ->
  // "--batch"); names it does not know stay as they are.
  virtual std::string flag_of(const std::string& name) const { return name; }

  CLI::App* app = nullptr;  // the subcommand, owned by the parent App
  bool json = false;        // --json
};

// Each adds its subcommand to `parent` and returns the object that runs it.
std::unique_ptr<Command> reference_command(CLI::App& parent);
std::unique_ptr<Command> scale_command(CLI::App& parent);
std::unique_ptr<Command> masks_command(CLI::App& parent);
std::unique_ptr<Command> heads_command(CLI::App& parent);
std::unique_ptr<Command> pitfalls_command(CLI::App& parent);
std::unique_ptr<Command> cue_command(CLI::App& parent);
std::unique_ptr<Command> probe_command(CLI::App& parent);
std::unique_ptr<Command> intervene_command(CLI::App& parent);
std::unique_ptr<Command> steps_command(CLI::App& parent);

}  // namespace attn::cli
