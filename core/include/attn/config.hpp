// Configuration fields, described once.
//
// Every configurable call of the core takes a config struct whose members carry their
// defaults, and whose static `fields(visit)` lists each member once: the name C++ gives it,
// the name the JS facade and the command line give it, its allowed range and a line of help.
// From that list the core checks every field (require_fields), the WebAssembly bindings export
// defaults and ranges and convert JS objects, and the CLI builds its options and --help. So a
// default, a limit or an argument's name is written in exactly one place.
//
// visit(const FieldInfo& info, Access access) is called once per field, in order; `access`
// returns a reference to the field of any config it is given (const or not): see member below.
//
// Result structs list their fields the same way, as visit(key, access), with the key every
// front door shows (the CLI's JSON and the JS objects alike): one description per struct.
//
// Errors: the checks throw ArgumentError (attn/argument_error.hpp), which names an argument as
// C++ does ("batch_size"); a front door rebuilds the message with its own names, so a caller
// reads "batchSize" in JS and "--batch" on the command line.
#pragma once

#include "attn/argument_error.hpp"

#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>

namespace attn {

// ATTN_PICK(normal, altered): `normal` in every real build. The test build with
// ATTN_ALTERED_CONFIG defined takes `altered` for every default and limit, so the tests can
// show that each front door follows the core instead of keeping a copy.
#ifdef ATTN_ALTERED_CONFIG
#define ATTN_PICK(normal, altered) (altered)
#else
#define ATTN_PICK(normal, altered) (normal)
#endif

// The most values one matrix, mask, layer or batch of draws may hold (64 MiB of float32): a
// typo in a size is refused before anything is allocated.
constexpr long kMaxElements = ATTN_PICK(1L << 24, 1L << 20);
// Seeds go up to 2^53 - 1, the largest whole number a JS number holds exactly, so a seed means
// the same run on every front door.
constexpr std::uint64_t kMaxSeed = (std::uint64_t(1) << 53) - 1;

struct FieldInfo {
  const char* name;                         // the member as C++ and the core's messages name it: "batch_size"
  const char* js;                           // the JS facade's option: "batchSize"
  const char* flag;                         // the command-line flag, without "--": "batch"
  double min, max;                          // allowed range (each element's, for a list)
  const char* help;                         // one line, without the default or the range
  bool open_min = false, open_max = false;  // exclude min / max themselves
  int max_count = 0;                        // lists: 1..max_count elements
  const char* choices = nullptr;            // choices (std::string fields): the allowed values, "|"-separated
  const char* divides = nullptr;  // int fields: the C++ name of the same config's int field this one must divide
};

// A field that holds one of a few names: choice("ablation", "ablation", "ablation", "zero|mean", help).
constexpr FieldInfo choice(const char* name, const char* js, const char* flag, const char* choices, const char* help) {
  return {name, js, flag, 0, 0, help, false, false, 0, choices};
}

// "[1, 8]", "(0, 10]", "[0, 1)": the range as the messages and --help print it.
std::string range_text(const FieldInfo& field);

// Whole-number checks (int fields, list elements; seeds, exact to the last digit): min <= value <= max.
void require_whole(const FieldInfo& field, double value);
void require_whole(const FieldInfo& field, std::uint64_t value);
// Numbers: finite and inside the range, honouring open ends.
void require_number(const FieldInfo& field, double value);
// Lists: 1..max_count elements, each a whole number in range.
void require_list(const FieldInfo& field, const std::vector<int>& values);
// Choices: one of field.choices.
void require_choice(const FieldInfo& field, const std::string& value);
// A choice field's allowed values, in order.
std::vector<std::string> choices_of(const FieldInfo& field);

// member<&Config::field>: the access of a field that is a direct member. An access is an
// empty type whose call operator returns the field of any config it is given (const or not),
// so front doors can use it at compile time (the WebAssembly bindings make a plain getter
// function per field from it).
template <auto Pointer>
struct Member {
  template <typename Config>
  auto& operator()(Config& config) const {
    return config.*Pointer;
  }
};
template <auto Pointer>
inline constexpr Member<Pointer> member{};

template <typename>
struct member_type;
template <typename Class, typename T>
struct member_type<T Class::*> {
  using type = T;
};

// The access of a field of the struct held at Outer's member Inner.
template <auto Inner, typename Access>
struct Nested {
  template <typename Outer>
  auto& operator()(Outer& outer) const {
    return Access{}(outer.*Inner);
  }
};

// Visits the fields of the struct held at member Inner as fields of the struct that holds it.
template <auto Inner, typename Visit>
void visit_nested(Visit&& visit) {
  member_type<decltype(Inner)>::type::fields(
      [&](const auto& key, auto access) { visit(key, Nested<Inner, decltype(access)>{}); });
}

// Checks one field's value against its FieldInfo.
template <typename T>
void require_field(const FieldInfo& field, const T& value) {
  if constexpr (std::is_same_v<T, bool>) {
    (void)field, (void)value;  // any value is valid
  } else if constexpr (std::is_same_v<T, std::uint64_t>) {
    require_whole(field, value);
  } else if constexpr (std::is_integral_v<T>) {
    require_whole(field, static_cast<double>(value));
  } else if constexpr (std::is_floating_point_v<T>) {
    require_number(field, value);
  } else if constexpr (std::is_same_v<T, std::string>) {
    require_choice(field, value);
  } else {
    require_list(field, value);
  }
}

// Checks every field of `config` against its range. Cross-field rules are the caller's.
template <typename Config>
void require_fields(const Config& config) {
  Config::fields([&](const FieldInfo& field, auto access) { require_field(field, access(config)); });
}

// What a field holds, from its C++ type: bool, a 32-bit int, a seed (std::uint64_t), a double,
// a list of ints, or one of a few names (std::string).
enum class FieldKind { boolean, integer, seed, number, integers, choice };

template <typename T>
constexpr FieldKind kind_of() {
  if constexpr (std::is_same_v<T, bool>)
    return FieldKind::boolean;
  else if constexpr (std::is_same_v<T, std::uint64_t>)
    return FieldKind::seed;
  else if constexpr (std::is_integral_v<T>)
    return FieldKind::integer;
  else if constexpr (std::is_floating_point_v<T>)
    return FieldKind::number;
  else if constexpr (std::is_same_v<T, std::string>)
    return FieldKind::choice;
  else
    return FieldKind::integers;
}

struct FieldEntry {
  FieldInfo info;
  FieldKind kind;
};

// Config's fields as a table, built once.
template <typename Config>
const std::vector<FieldEntry>& field_table() {
  static const std::vector<FieldEntry> table = [] {
    std::vector<FieldEntry> entries;
    Config::fields([&](const FieldInfo& field, auto access) {
      using T = std::decay_t<decltype(access(std::declval<Config&>()))>;
      entries.push_back({field, kind_of<T>()});
    });
    return entries;
  }();
  return table;
}

// The FieldInfo of Config's field `name`, or nullptr.
template <typename Config>
const FieldInfo* find_field(const std::string& name) {
  for (const FieldEntry& entry : field_table<Config>())
    if (name == entry.info.name) return &entry.info;
  return nullptr;
}

// A simple argument that is not a config field, for messages of plain functions.
inline FieldInfo argument(const char* name, double min, double max) { return {name, name, name, min, max, ""}; }

}  // namespace attn
