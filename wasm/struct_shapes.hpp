// The test build's record of every struct the bindings register: its JS name and, per key, the
// JS type the member crosses as (js_struct.hpp records them), so that tests/wasm/types.test.mjs can
// compare the facade's hand-written TypeScript (web/src/core/types.ts) with what the core sends.
// Compiled in only with ATTN_STRUCT_SHAPES (attention_lab_test); the shipped modules skip it.
#pragma once

#include <string>
#include <vector>

namespace attn::wasm::shapes {

struct Field {
  std::string key;
  std::string (*type)();  // read when asked: a nested struct may be registered after its holder
};
struct Shape {
  std::string name;
  bool config;  // a config (its lists are also taken from JS)
  std::vector<Field> fields;
};

std::vector<Shape>& all();

// Every recorded struct as JSON: [{"name", "config", "fields": [[key, type], ...]}, ...].
std::string to_json();

}  // namespace attn::wasm::shapes
