// How the core's errors reach JS. Two ways, because embind frees call arguments differently:
//
//  - Calls with plain arguments (numbers, heap offsets, class handles) throw a JS Error:
//    run_guarded() catches the C++ exception and keeps it as the pending error, and
//    throw_pending() raises it from a JS function (EM_JS) once no C++ object is alive in the
//    caller. Nothing is allocated per error, and the shadow stack is put back, so nothing leaks.
//  - Calls that take an object (a config, converted by embind's value_object into a heap copy
//    that embind frees only when the call returns) must return normally: they return an empty
//    result and leave the error pending; the facade then calls raiseError() (raise_pending()),
//    which throws it the first way.
//
// An ArgumentError crosses with its structure (attn/argument_error.hpp): the argument, the
// code, the detail with other arguments as {name}, and the named values, every name as JS
// writes it: a field's JS name for Config's fields (attn/config.hpp), else the core's name in
// camelCase ("real_len" -> "realLen"). The JS Error is made by the module's `createError`
// when the facade has set one (web/src/core/errors.ts), else a plain Error with those fields.
#pragma once

#include "attn/config.hpp"

#include <emscripten.h>
#include <emscripten/stack.h>

#include <exception>

#include <string>

namespace attn::wasm {

// The latest failed call's error, as it crosses. Reused, so it never leaks; its strings are
// sized once, so the bytes in use do not change with the length of the latest message (the
// leak tests compare them exactly).
inline std::string reserved_string() {
  std::string s;
  s.reserve(1024);
  return s;
}
struct PendingError {
  static constexpr int kMaxValues = 8;
  static constexpr int kNameBytes = 32;
  std::string message = reserved_string();   // the whole message, in JS names
  std::string argument = reserved_string();  // the argument's JS name; "" when not about an argument
  std::string detail = reserved_string();    // what follows the argument, other arguments as {jsName}
  const char* code = "";                     // code_name(); "" when not about an argument
  int value_count = 0;
  char value_names[kMaxValues][kNameBytes] = {};  // NUL-terminated JS names
  double values[kMaxValues] = {};
  bool raisable = false;  // failed and not yet raised (raise_pending)

  void clear();
};
inline PendingError pending;

// No config: messages keep the core's names in camelCase.
struct NoConfig {
  template <typename Visit>
  static void fields(Visit&&) {}
};

// Record an exception as the pending error: an ArgumentError with find(name)'s JS names,
// anything else by its kind. Out of line, so each guarded call carries two small landing pads
// instead of copies of these (and no rethrow, which would keep the exception object alive
// until the next one).
void record_argument_error(const ArgumentError& error, const FieldInfo* (*find)(const std::string& name));
void record_error(const std::exception& error);

// Runs fn; a C++ exception becomes the pending error. Returns whether fn succeeded.
template <typename Config = NoConfig, typename Fn>
bool run_guarded(Fn&& fn) {
  pending.clear();
  try {
    fn();
    return true;
  } catch (const ArgumentError& e) {
    record_argument_error(e, &find_field<Config>);
  } catch (const std::exception& e) {
    record_error(e);
  }
  pending.raisable = true;
  return false;
}

// Raises the pending error as a JS Error. Call only after run_guarded returned false, with no
// C++ object alive in the caller.
[[noreturn]] void throw_pending();

// raiseError(): raises the error an object-taking call left pending, once; returns if none.
void raise_pending();

}  // namespace attn::wasm
