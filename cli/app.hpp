// The whole attention-lab command line, as a function the tests can call: parses `args` (the
// words after the program name), runs the subcommand and returns the exit code. A usage error
// (a malformed option, or a value the core refuses) writes one line naming the flag to `err`
// and returns 2; a failing measurement returns 1.
#pragma once

#include <ostream>
#include <string>
#include <vector>

namespace attn::cli {

int run_attention_lab(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

}  // namespace attn::cli
