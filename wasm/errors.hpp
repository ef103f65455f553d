// How the core's errors reach JS. Two ways, because embind frees call arguments differently:
//
//  - Calls with plain arguments (numbers, heap offsets, class handles) throw a JS Error:
//    run_guarded() catches the C++ exception and keeps its message, and throw_pending()
//    raises it from a JS function (EM_JS) once no C++ object is alive in the caller. Nothing
//    is allocated per error, and the shadow stack is put back, so nothing leaks.
//  - Calls that take an object (a config, converted by embind's value_object into a heap copy
//    that embind frees only when the call returns) must return normally: they return an empty
//    result and leave the message for takeError(), which the facade checks after each call.
//
// Messages name arguments as JS does: a core ArgumentError about Config's fields is rendered
// with the fields' JS names (attn/config.hpp).
#pragma once

#include "attn/config.hpp"

#include <emscripten.h>
#include <emscripten/stack.h>

#include <exception>

#include <string>

namespace attn::wasm {

// The message of the latest failed call, and the JS name of the argument it is about ("" when
// it is not about one argument). Reused, so they never leak; sized once, so the bytes in use do
// not change with the length of the latest message (the leak tests compare them exactly).
inline std::string reserved_string() {
  std::string s;
  s.reserve(1024);
  return s;
}
inline std::string pending_error = reserved_string(), pending_argument = reserved_string();

// No config: messages keep the core's names (plain functions name their arguments as JS does).
struct NoConfig {
  template <typename Visit>
  static void fields(Visit&&) {}
};

// Record an exception as pending_error (and pending_argument): an ArgumentError with find(name)'s
// JS names, anything else by its kind. Out of line, so each guarded call carries two small
// landing pads instead of copies of these (and no rethrow, which would keep the exception
// object alive until the next one).
void record_argument_error(const ArgumentError& error, const FieldInfo* (*find)(const std::string& name));
void record_error(const std::exception& error);

// Runs fn; a C++ exception becomes pending_error. Returns whether fn succeeded.
template <typename Config = NoConfig, typename Fn>
bool run_guarded(Fn&& fn) {
  pending_error.clear();
  pending_argument.clear();
  try {
    fn();
    return true;
  } catch (const ArgumentError& e) {
    record_argument_error(e, &find_field<Config>);
  } catch (const std::exception& e) {
    record_error(e);
  }
  return false;
}

// Raises pending_error as a JS Error. Call only after run_guarded returned false, with no C++
// object alive in the caller.
[[noreturn]] void throw_pending();

// The pending message of an object-taking call, and clears it ("" when the call succeeded).
std::string take_error();

}  // namespace attn::wasm
