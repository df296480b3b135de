// The scenario's fields, each declared once: its contract key (JSON, links, the field an
// error names), type, range, default, unit, help text and place in the page's form. The
// JSON reader and writer (engine/contract/scenario_json.cpp), the range checks
// (scenario_check.cpp), the link codec (through the writer's defaults), the form rows
// (wasm/ui/input_panel.cpp) and the contract table in engine/README.md all come from this
// table, so adding a field is one entry here plus its physics.
#pragma once

#include <span>
#include <string>
#include <string_view>

#include "input_limits.h"
#include "scenario.h"

namespace engine {

enum class FieldType {
  kModel,    // the model: a preset id, a parameter count, an architecture or a config.json
  kInteger,  // a whole number of the numeric contract
  kNumber,   // any number of the numeric contract
  kBool,
  kChoice,   // one of `choices` (index = the enum's value)
  kText,     // a catalog id
};

// Where the page's form draws the field; kNone: not on the form (JSON and links only).
enum class FormSection { kNone, kTraining, kHardware };

// How the form edits a number: its steps, and the unit it is shown in when that is not
// the contract's (tokens in billions, MFU in percent).
struct FormStyle {
  double step = 1;
  double step_fast = 0;         // 0: 8 × step
  double display_unit = 1;      // contract units per unit shown (tokens: 1e9, shown in billions)
  bool percent = false;         // a fraction shown as a percentage (mfu)
  const char* format = "%.2f";  // for kNumber
  bool slider = false;          // kInteger over a short range (zero: 0-3)
};

struct ScenarioField {
  std::string_view key{};  // contract name; a group's field is "group.field" ("claim.wall_hours")
  FieldType type = FieldType::kNumber;
  const char* label = nullptr;  // the form's label (English; the page translates it)
  const char* help = "";        // what it means: the form's tooltip and the contract table's meaning
  FormSection section = FormSection::kNone;
  NumericLimit limit{};                          // kInteger, kNumber: range, unit, what 0 means
  std::span<const std::string_view> choices{};   // kChoice: the names JSON and links carry
  std::span<const char* const> choice_labels{};  // kChoice: the form's names for them
  std::string_view type_text{};     // kText, kModel: what the text names, for the contract table
  std::string_view default_text{};  // the default when it is not a plain value ("min(gpus, 8)")
  // The value in a Scenario: numbers, booleans (0/1) and choices (the enum's index) as a double.
  double (*get)(const Scenario&) = nullptr;
  void (*set)(Scenario&, double) = nullptr;
  const std::string& (*get_text)(const Scenario&) = nullptr;  // kText
  std::string& (*text)(Scenario&) = nullptr;                  // kText
  // Whether the field matters for this scenario (LoRA rank for lora/qlora); the form hides
  // it otherwise. nullptr: always.
  bool (*applies)(const Scenario&) = nullptr;
  bool written = true;  // false for an input-only alias (claim.wall_days, read into wall_hours)
  FormStyle form{};
};

// Every scenario field, in the form's order (which is also the order they are read in).
std::span<const ScenarioField> ScenarioFields();

// The field with `key`, or nullptr.
const ScenarioField* FindScenarioField(std::string_view key);

// A group's name and field ("claim.wall_hours" -> "claim", "wall_hours"); empty group for
// a top-level field.
std::string_view FieldGroup(const ScenarioField& field);
std::string_view FieldName(const ScenarioField& field);

// The numeric-contract limits of the scenario fields, in table order.
std::span<const NumericLimit> ScenarioFieldLimits();

// Range checks of every numeric field of `s` (table order): the first value outside its
// limit, as an error naming the field.
std::optional<InputError> CheckFieldLimits(const Scenario& s);

}  // namespace engine
