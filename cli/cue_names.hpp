// How the cue commands name tokens, interventions and routes in their tables.
#pragma once

#include "attn/cue/intervene.hpp"
#include "attn/cue/task.hpp"

#include <string>

namespace attn::cli {

// "CUE" for the cue token, "PAD" for padding, else the symbol's number.
std::string token_name(int token, const CueTaskConfig& task);
// "clean", "knock out block 1, head 2", "block 1, head 1: next-token pattern".
std::string test_name(const nn::RouteTest& test);
// The route's label and what it means, one line.
std::string route_text(const nn::CueRoute& route);

}  // namespace attn::cli
