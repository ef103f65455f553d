// One attention-lab subcommand: its name, options and what it runs. Each lives in its own
// cmd_*.cpp and is listed once in main.cpp.
#pragma once

#include "args.hpp"

#include <functional>
#include <ostream>
#include <string>
#include <vector>

namespace attn::cli {

struct Command {
  std::string name;
  std::string summary;
  std::vector<OptionSpec> options;
  // Writes a table, or JSON when args.flag("json"); returns the exit code.
  std::function<int(const Args& args, std::ostream& out)> run;
};

Command reference_command();
Command masks_command();
Command scale_command();
Command heads_command();
Command pitfalls_command();
Command cue_command();

}  // namespace attn::cli
