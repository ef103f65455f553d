// Linked into the test build of the module only (attention_lab_test): structShapes(), the
// record of struct_shapes.hpp as JSON (names and types hold no characters JSON must escape).
#include "struct_shapes.hpp"

#include <emscripten/bind.h>

namespace attn::wasm::shapes {

std::vector<Shape>& all() {
  static std::vector<Shape> shapes;
  return shapes;
}

std::string to_json() {
  std::string out = "[";
  for (const Shape& shape : all()) {
    if (out.size() > 1) out += ",";
    out += "{\"name\":\"" + shape.name + "\",\"config\":" + (shape.config ? "true" : "false") + ",\"fields\":[";
    for (std::size_t i = 0; i < shape.fields.size(); ++i)
      out += (i ? ",[\"" : "[\"") + shape.fields[i].key + "\",\"" + shape.fields[i].type() + "\"]";
    out += "]}";
  }
  return out + "]";
}

}  // namespace attn::wasm::shapes

EMSCRIPTEN_BINDINGS(attention_struct_shapes) { emscripten::function("structShapes", &attn::wasm::shapes::to_json); }
