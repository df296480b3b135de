// The fields of a custom architecture ({"model": {"layers": 32, ...}}), each declared once
// (field_table.h): the JSON reader and writer (engine/contract/model_json.cpp), the range
// checks, the page's architecture form and the contract table in engine/README.md.
#pragma once

#include <array>
#include <span>
#include <string_view>

#include "field_table.h"
#include "model_spec.h"

namespace engine {

using ArchitectureField = Field<ModelSpec>;

// The names of the architecture's variants, in the order of their enums' values.
inline constexpr std::array<std::string_view, 2> kMlpNames = {"swiglu", "gelu"};             // MlpKind
inline constexpr std::array<std::string_view, 2> kNormNames = {"rmsnorm", "layernorm"};      // NormKind
inline constexpr std::array<std::string_view, 2> kAttentionNames = {"standard", "mla"};      // AttentionKind

// Every architecture field, in the form's (and the reader's) order.
std::span<const ArchitectureField> ArchitectureFields();

// Their numeric-contract limits, named "model.<field>", in table order.
std::span<const NumericLimit> ArchitectureFieldLimits();

}  // namespace engine
