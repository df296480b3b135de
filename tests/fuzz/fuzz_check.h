// What every fuzz target asserts about an api::Response: it is JSON, and an error is a
// clean one. api.cpp turns a stray C++ exception into "internal error: ..." so that the
// page survives it, but it is still a bug the fuzzer should stop on.
#pragma once

#include <string>

#include "catalog/codec/api.h"
#include "catalog/codec/json_fields.h"

namespace fuzz {

inline void CheckResponse(const api::Response& r) {
  const catalog::Json doc = catalog::Json::parse(r.json, nullptr, /*allow_exceptions=*/false);
  if (doc.is_discarded() || !doc.is_object()) __builtin_trap();
  if (r.ok) return;
  const auto error = doc.find("error");
  if (error == doc.end() || !error->is_object()) __builtin_trap();
  const auto message = error->find("message");
  if (message == error->end() || !message->is_string()) __builtin_trap();
  if (message->get_ref<const std::string&>().starts_with("internal error")) __builtin_trap();
}

}  // namespace fuzz
