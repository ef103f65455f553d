#include "errors.hpp"

#include <cstdint>
#include <new>
#include <stdexcept>

// Throws a JS Error through the wasm frames below it. Those frames never return, so the
// shadow-stack pointer is put back first (to its base: these functions are only entered from
// JS, never nested inside other wasm calls); without this every error would leak ~80 bytes of
// stack and a long session would eventually overflow it.
EM_JS(void, attn_throw_error, (const char* message, std::uintptr_t stack_base), {
  var error = new Error(UTF8ToString(message));
  stackRestore(stack_base);
  throw error;
})

namespace attn::wasm {

void record_argument_error(const ArgumentError& error, const FieldInfo* (*find)(const std::string& name)) {
  const auto js_name = [find](const std::string& name) {
    const FieldInfo* field = find(name);
    return field ? std::string(field->js) : name;
  };
  // Copied in, not moved in: a moved-in string would bring its own buffer, sized to this
  // message (the leak tests compare bytes in use exactly).
  const std::string message = error.message(js_name), argument = js_name(error.argument());
  pending_error.assign(message.data(), message.size());
  pending_argument.assign(argument.data(), argument.size());
}

void record_error(const std::exception& error) {
  if (dynamic_cast<const std::logic_error*>(&error))  // std::invalid_argument, and calls out of order
    pending_error.assign(error.what());
  else if (dynamic_cast<const std::bad_alloc*>(&error))
    pending_error.assign("out of memory: the WebAssembly heap cannot grow any further");
  else
    pending_error.assign("internal error: ").append(error.what());
}

void throw_pending() {
  attn_throw_error(pending_error.c_str(), emscripten_stack_get_base());
  __builtin_unreachable();
}

std::string take_error() {
  std::string message = pending_error;  // a copy: pending_error keeps its buffer
  pending_error.clear();
  return message;
}

}  // namespace attn::wasm
