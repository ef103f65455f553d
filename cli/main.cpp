// attention-lab: the lesson's measurements from the native core, one subcommand each
// (attention-lab --help lists them).
#include "app.hpp"

#include <iostream>

int main(int argc, char** argv) { return attn::cli::run_attention_lab({argv + 1, argv + argc}, std::cout, std::cerr); }
