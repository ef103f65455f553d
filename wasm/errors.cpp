#include "errors.hpp"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <new>
#include <stdexcept>

// Throws a JS Error through the wasm frames below it: the module's createError(message,
// argument, code, detail, values) when the facade set one and the error is about an argument,
// else a plain Error. Those frames never return, so the shadow-stack pointer is put back first
// (to its base: these functions are only entered from JS, never nested inside other wasm
// calls); without this every error would leak ~80 bytes of stack and a long session would
// eventually overflow it.
EM_JS(void, attn_throw_error,
      (const char* message, const char* argument, const char* code, const char* detail, const char* names,
       const double* values, int count, int name_bytes, std::uintptr_t stack_base),
      {
        var text = UTF8ToString(message);
        var error;
        if (HEAPU8[code]) {
          var named = {};
          for (var i = 0; i < count; i++) named[UTF8ToString(names + i * name_bytes)] = HEAPF64[(values >> 3) + i];
          var fields = {
            argument : UTF8ToString(argument),
            code : UTF8ToString(code),
            detail : UTF8ToString(detail),
            values : named
          };
          error = Module['createError'] ? Module['createError'](text, fields) : Object.assign(new Error(text), fields);
        } else {
          error = new Error(text);
        }
        stackRestore(stack_base);
        throw error;
      })

namespace attn::wasm {
namespace {

// "real_len" -> "realLen": how the facade names a core argument that is not a config field.
std::string camel_case(const std::string& name) {
  std::string out;
  for (std::size_t i = 0; i < name.size(); ++i)
    if (name[i] == '_' && i + 1 < name.size() && name[i + 1] >= 'a' && name[i + 1] <= 'z')
      out += char(name[++i] - 'a' + 'A');
    else
      out += name[i];
  return out;
}

}  // namespace

void PendingError::clear() {
  message.clear();
  argument.clear();
  detail.clear();
  code = "";
  value_count = 0;
  raisable = false;
}

void record_argument_error(const ArgumentError& error, const FieldInfo* (*find)(const std::string& name)) {
  const auto js_name = [find](const std::string& name) {
    const FieldInfo* field = find(name);
    return field ? std::string(field->js) : camel_case(name);
  };
  // Copied in, not moved in: a moved-in string would bring its own buffer, sized to this
  // message (the leak tests compare bytes in use exactly).
  const std::string message = error.message(js_name), argument = js_name(error.argument()),
                    detail = substitute_names(error.detail(),
                                              [&](const std::string&name) { return "{" + js_name(name) + "}"; });
  pending.message.assign(message.data(), message.size());
  pending.argument.assign(argument.data(), argument.size());
  pending.detail.assign(detail.data(), detail.size());
  pending.code = code_name(error.code());
  for (const ErrorValue& value : error.values()) {
    if (pending.value_count == PendingError::kMaxValues) break;
    const std::string name = js_name(value.name);
    char* out = pending.value_names[pending.value_count];
    const std::size_t n = std::min(name.size(), std::size_t(PendingError::kNameBytes - 1));
    std::memcpy(out, name.data(), n);
    out[n] = '\0';
    pending.values[pending.value_count++] = value.value;
  }
}

void record_error(const std::exception& error) {
  if (dynamic_cast<const std::logic_error*>(&error))  // calls out of order
    pending.message.assign(error.what());
  else if (dynamic_cast<const std::bad_alloc*>(&error))
    pending.message.assign("out of memory: the WebAssembly heap cannot grow any further");
  else
    pending.message.assign("internal error: ").append(error.what());
}

void throw_pending() {
  pending.raisable = false;
  attn_throw_error(pending.message.c_str(), pending.argument.c_str(), pending.code, pending.detail.c_str(),
                   &pending.value_names[0][0], pending.values, pending.value_count, PendingError::kNameBytes,
                   emscripten_stack_get_base());
  __builtin_unreachable();
}

void raise_pending() {
  if (pending.raisable) throw_pending();
}

}  // namespace attn::wasm
