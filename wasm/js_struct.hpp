// Structs of the core as JS objects, made from the field lists the core declares once
// (attn/config.hpp): register_struct<T>(name) binds T as an embind value_object whose keys are
// those the core lists (camelCase), so no object is ever built by hand here.
//
// How each member crosses:
//   bool, int, double, std::string     as themselves
//   long, std::uint64_t                as a JS number (seeds are below 2^53, counts far below)
//   std::vector<double / int / uint8>  as a Float64Array / Int32Array / Uint8Array copy
//   std::vector<struct>, nested vectors as a JS array of converted elements
//   a described struct                 as a JS object (its own value_object)
// Configs cross both ways; results only leave (their setters are never called).
#pragma once

#include "attn/described.hpp"

#ifdef ATTN_STRUCT_SHAPES
#include "struct_shapes.hpp"
#endif

#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <cstdint>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace attn::wasm {

using emscripten::val;

namespace detail {

template <typename T>
constexpr const char* typed_array_name() {
  if constexpr (std::is_same_v<T, double>)
    return "Float64Array";
  else if constexpr (std::is_same_v<T, float>)
    return "Float32Array";
  else if constexpr (std::is_same_v<T, int>)
    return "Int32Array";
  else if constexpr (std::is_same_v<T, std::uint8_t>)
    return "Uint8Array";
  else
    return nullptr;
}

}  // namespace detail

// The type a member of type T crosses as.
template <typename T>
using JsType = std::conditional_t<std::is_same_v<T, long> || std::is_same_v<T, std::uint64_t>, double,
                                  std::conditional_t<is_vector<T>::value, val, T>>;

template <typename T>
JsType<T> to_js(const T& value) {
  if constexpr (is_vector<T>::value) {
    using Item = typename T::value_type;
    if constexpr (detail::typed_array_name<Item>() != nullptr) {
      // new TypedArray(view) copies the heap view (a view would be detached when memory grows);
      // one copy, no second one by slice() (bench/call_cost.mjs: maskDemo 1.19x the baseline with it).
      return val::global(detail::typed_array_name<Item>())
          .new_(emscripten::typed_memory_view(value.size(), value.data()));
    } else {
      val array = val::array();
      for (const Item& item : value) array.template call<void>("push", val(to_js(item)));
      return array;
    }
  } else if constexpr (std::is_same_v<T, long> || std::is_same_v<T, std::uint64_t>) {
    return static_cast<double>(value);
  } else {
    return value;
  }
}

// JS -> member, for the members a config has. A seed that is not a whole number in 0..2^64
// becomes 2^64 - 1, which the core's range check then refuses (the facade checks seeds first).
template <typename T>
void from_js(const JsType<T>& value, T& out) {
  if constexpr (std::is_same_v<T, std::uint64_t>) {
    out =
        value >= 0 && value < 18446744073709551616.0 && value == static_cast<double>(static_cast<std::uint64_t>(value))
            ? static_cast<std::uint64_t>(value)
            : UINT64_MAX;
  } else if constexpr (std::is_same_v<T, std::vector<int>>) {
    out = emscripten::vecFromJSArray<int>(value);
  } else if constexpr (is_vector<T>::value || std::is_same_v<T, long>) {
    (void)value, (void)out;  // results only leave
  } else {
    out = value;
  }
}

// The getter and setter of one member, as plain functions (embind keeps a pointer to each):
// std::function would cost a vtable and a long type name per field in the .wasm.
template <typename T, typename Access, typename Member = std::decay_t<decltype(Access{}(std::declval<T&>()))>>
JsType<Member> get_member(const T& t) {
  return to_js(Access{}(t));
}
template <typename T, typename Access, typename Member = std::decay_t<decltype(Access{}(std::declval<T&>()))>>
void set_member(T& t, JsType<Member> value) {
  from_js<Member>(value, Access{}(t));
}

#ifdef ATTN_STRUCT_SHAPES
namespace shapes {

// The JS name T was registered under ("" until it is).
template <typename T>
std::string& name_of() {
  static std::string name;
  return name;
}

// Member type T as it crosses (see the table at the top): boolean, number, string, a typed
// array's name, X[] for other lists, or a registered struct's JS name.
template <typename T>
std::string type_text() {
  if constexpr (is_vector<T>::value) {
    using Item = typename T::value_type;
    if constexpr (detail::typed_array_name<Item>() != nullptr)
      return detail::typed_array_name<Item>();
    else
      return type_text<Item>() + "[]";
  } else if constexpr (std::is_same_v<T, bool>) {
    return "boolean";
  } else if constexpr (std::is_arithmetic_v<T>) {
    return "number";
  } else if constexpr (std::is_same_v<T, std::string>) {
    return "string";
  } else {
    return name_of<T>().empty() ? "(unregistered)" : name_of<T>();
  }
}

template <typename T>
void record(const char* name, bool config) {
  name_of<T>() = name;
  Shape shape{name, config, {}};
  T::fields([&](const auto& key, auto access) {
    using Member = std::decay_t<decltype(access(std::declval<T&>()))>;
    shape.fields.push_back({key_of(key), &type_text<Member>});
  });
  all().push_back(std::move(shape));
}

}  // namespace shapes
#endif

// Binds T as a value_object named `name` (`config`: T is a config, which also comes from JS).
// Each described struct a result nests must be registered too.
template <typename T>
void register_struct(const char* name, bool config = false) {
#ifdef ATTN_STRUCT_SHAPES
  shapes::record<T>(name, config);
#else
  (void)config;
#endif
  emscripten::value_object<T> object(name);
  T::fields([&](const auto& key, auto access) {
    using Access = decltype(access);
    object.field(key_of(key), &get_member<T, Access>, &set_member<T, Access>);
  });
}

// What JS needs to know of one config field: its key, kind, range and help, and the flag the
// command line gives it. `kind`: "boolean", "integer" (32-bit), "seed" (0..2^53 - 1), "number"
// or "integers" (a list).
struct FieldSpec {
  std::string key, kind, flag, help;
  double min = 0, max = 0;
  bool open_min = false, open_max = false;
  int max_count = 0;
  std::vector<std::string> choices;  // a choice's allowed values
  std::string divides;               // integers: the JS key of the field this one must divide, else ""

  template <typename Visit>
  static void fields(Visit&& visit) {
    visit("key", member<&FieldSpec::key>);
    visit("kind", member<&FieldSpec::kind>);
    visit("flag", member<&FieldSpec::flag>);
    visit("help", member<&FieldSpec::help>);
    visit("min", member<&FieldSpec::min>);
    visit("max", member<&FieldSpec::max>);
    visit("openMin", member<&FieldSpec::open_min>);
    visit("openMax", member<&FieldSpec::open_max>);
    visit("maxCount", member<&FieldSpec::max_count>);
    visit("choices", member<&FieldSpec::choices>);
    visit("divides", member<&FieldSpec::divides>);
  }
};

// A config's defaults (a default-constructed Config) and its fields.
template <typename Config>
struct ConfigSpec {
  Config defaults;
  std::vector<FieldSpec> field_specs;

  template <typename Visit>
  static void fields(Visit&& visit) {
    visit("defaults", member<&ConfigSpec::defaults>);
    visit("fields", member<&ConfigSpec::field_specs>);
  }
};

template <typename Config>
ConfigSpec<Config> config_spec() {
  static const char* const kinds[] = {"boolean", "integer", "seed", "number", "integers", "choice"};  // FieldKind order
  ConfigSpec<Config> spec;
  for (const FieldEntry& entry : field_table<Config>()) {
    const FieldInfo& f = entry.info;
    spec.field_specs.push_back(
        {f.js, kinds[int(entry.kind)], f.flag, f.help, f.min, f.max, f.open_min, f.open_max, f.max_count,
         entry.kind == FieldKind::choice ? choices_of(f) : std::vector<std::string>(), std::string()});
    if (f.divides != nullptr) spec.field_specs.back().divides = find_field<Config>(f.divides)->js;
  }
  return spec;
}

// Binds a config: its struct as `name`, its spec as `name` + "Spec", and `getter`, the JS
// function that returns the spec. (embind copies the names as it registers them.)
template <typename Config>
void register_config(const std::string& name, const char* getter) {
  register_struct<Config>(name.c_str(), true);
  register_struct<ConfigSpec<Config>>((name + "Spec").c_str());
  emscripten::function(getter, &config_spec<Config>);
}

}  // namespace attn::wasm
