#include <array>
#include "engine/contract/contract_doc.h"

#include <span>
#include <string_view>

#include "engine/format.h"
#include "engine/input_limits.h"
#include "engine/architecture_fields.h"
#include "engine/goal_fields.h"
#include "engine/scenario_fields.h"

namespace engine::contract {
namespace {

// Markdown table cells: a '|' would end the cell.
std::string Cell(std::string_view text) {
  std::string out;
  for (char c : text) {
    if (c == '|') out += '\\';
    out += c;
  }
  return out;
}

std::string Code(std::string_view text) { return "`" + std::string(text) + "`"; }

template <class Target>
std::string TypeText(const Field<Target>& f) {
  const std::string unit = f.limit.unit.empty() ? "" : " " + std::string(f.limit.unit);
  switch (f.type) {
    case FieldType::kModel:
    case FieldType::kText:
    case FieldType::kTextList: return std::string(f.type_text);
    case FieldType::kInteger: return "integer" + unit;
    case FieldType::kNumber: return "number" + unit;
    case FieldType::kBool: return "boolean";
    case FieldType::kSize: return "[width, height]" + unit;
    case FieldType::kChoice: {
      std::string out;
      for (std::string_view c : f.choices) out += (out.empty() ? "" : " | ") + Code(c);
      return out;
    }
  }
  return "";
}

// The default a field gets when it is left out: the table's text, else the value in a
// default-made target.
template <class Target>
std::string DefaultText(const Field<Target>& f) {
  if (!f.default_text.empty()) return std::string(f.default_text);
  const Target defaults{};
  switch (f.type) {
    case FieldType::kModel:
    case FieldType::kTextList: return "";
    case FieldType::kText: return Code(f.get_text(defaults));
    case FieldType::kSize: {
      const std::array<int, 2> size = f.get_size(defaults);
      return Code("[" + std::to_string(size[0]) + ", " + std::to_string(size[1]) + "]");
    }
    case FieldType::kBool: return f.get(defaults) != 0 ? "true" : "false";
    case FieldType::kChoice: return Code(f.choices[static_cast<size_t>(f.get(defaults))]);
    case FieldType::kInteger:
    case FieldType::kNumber: {
      const double value = f.get(defaults);
      if (value == 0 && f.limit.zero_is_unset) return "0 = " + std::string(f.limit.zero_means);
      return Num(value);
    }
  }
  return "";
}

template <class Target>
std::string FieldsMarkdown(std::span<const Field<Target>> fields) {
  std::string out = "| field | type, unit | default | meaning |\n| --- | --- | --- | --- |\n";
  for (const Field<Target>& f : fields) {
    out += "| " + Code(f.key) + " | " + Cell(TypeText(f)) + " | " + Cell(DefaultText(f)) + " | " + Cell(f.help) +
           " |\n";
  }
  return out;
}

}  // namespace

std::string ScenarioFieldsMarkdown() { return FieldsMarkdown(ScenarioFields()); }

std::string ArchitectureFieldsMarkdown() { return FieldsMarkdown(ArchitectureFields()); }

std::string GoalFieldsMarkdown() { return FieldsMarkdown(GoalFields()); }

std::string NumericContractMarkdown() {
  std::string out = "| field | allowed | unit |\n| --- | --- | --- |\n";
  for (const NumericLimit& limit : NumericLimits()) {
    out += "| " + Code(limit.field) + " | " + AllowedText(limit) + " | " + std::string(limit.unit) + " |\n";
  }
  return out;
}

}  // namespace engine::contract
