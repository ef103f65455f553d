// The CLI's --json output: any struct of the core that lists its fields (attn/described.hpp) as
// a JSON object with the keys the JS facade uses, so the command line and the browser name
// every result alike. Numbers keep full double precision; NaN and infinities become null.
#pragma once

#include "attn/described.hpp"

#include <nlohmann/json.hpp>

#include <string>

namespace attn::cli {

using Json = nlohmann::ordered_json;  // keys in the order the struct lists them

template <typename T>
Json to_json(const T& value) {
  if constexpr (described<T>::value) {
    Json object = Json::object();
    T::fields([&](const auto& key, auto access) { object[key_of(key)] = to_json(access(value)); });
    return object;
  } else if constexpr (is_vector<T>::value) {
    Json array = Json::array();
    for (const auto& item : value) array.push_back(to_json(item));
    return array;
  } else {
    return value;  // numbers, booleans, strings (nlohmann writes NaN and infinities as null)
  }
}

}  // namespace attn::cli
