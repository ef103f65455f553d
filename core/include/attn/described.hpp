// What a front door needs to walk a struct of the core as data (the CLI's JSON, the bindings'
// JS objects): whether a type lists its fields (attn/config.hpp), whether it is a list, and the
// key every front door shows for a field (a config's JS name, a result's key).
#pragma once

#include "attn/config.hpp"

#include <type_traits>
#include <vector>

namespace attn {

namespace detail {
struct AnyVisit {
  template <typename... A>
  void operator()(A&&...) const {}
};
}  // namespace detail

// described<T>::value: T lists its fields with a static fields(visit).
template <typename T, typename = void>
struct described : std::false_type {};
template <typename T>
struct described<T, std::void_t<decltype(T::fields(detail::AnyVisit{}))>> : std::true_type {};

template <typename T>
struct is_vector : std::false_type {};
template <typename T>
struct is_vector<std::vector<T>> : std::true_type {};

// The key of a field: visit(FieldInfo, access) for a config, visit(key, access) for a result.
inline const char* key_of(const FieldInfo& field) { return field.js; }
inline const char* key_of(const char* key) { return key; }

}  // namespace attn
