// The CLI's --json output: any struct of the core that lists its fields (attn/config.hpp) as
// a JSON object with the keys the JS facade uses, so the command line and the browser name
// every result alike. Numbers keep full double precision; NaN and infinities become null.
#pragma once

#include "attn/config.hpp"

#include <nlohmann/json.hpp>

#include <string>
#include <type_traits>
#include <vector>

namespace attn::cli {

using Json = nlohmann::ordered_json;  // keys in the order the struct lists them

namespace detail {

struct AnyVisit {
  template <typename... A>
  void operator()(A&&...) const {}
};
template <typename T, typename = void>
struct described : std::false_type {};
template <typename T>
struct described<T, std::void_t<decltype(T::fields(AnyVisit{}))>> : std::true_type {};

template <typename T>
struct is_vector : std::false_type {};
template <typename T>
struct is_vector<std::vector<T>> : std::true_type {};

inline const char* key_of(const FieldInfo& field) { return field.js; }
inline const char* key_of(const char* key) { return key; }

}  // namespace detail

template <typename T>
Json to_json(const T& value) {
  if constexpr (detail::described<T>::value) {
    Json object = Json::object();
    T::fields([&](const auto& key, auto access) { object[detail::key_of(key)] = to_json(access(value)); });
    return object;
  } else if constexpr (detail::is_vector<T>::value) {
    Json array = Json::array();
    for (const auto& item : value) array.push_back(to_json(item));
    return array;
  } else {
    return value;  // numbers, booleans, strings (nlohmann writes NaN and infinities as null)
  }
}

}  // namespace attn::cli
