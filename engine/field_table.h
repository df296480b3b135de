// A field table: each field of an input struct declared once, with its contract key, type,
// range, default, unit, help text and place in the page's form. Three tables use it: the
// scenario (scenario_fields.h), a custom architecture (architecture_fields.h) and the
// planner's goal (goal_fields.h). The JSON reader and writer (engine/contract/field_json.h),
// the range checks, the form rows (wasm/ui/input_panel.cpp) and the contract tables in
// engine/README.md (engine/contract/contract_doc.cpp) all walk these tables, so adding a
// field is one entry plus its physics.
#pragma once

#include <array>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "input_limits.h"

namespace engine {

enum class FieldType {
  kModel,     // the scenario's model: a preset id, a parameter count, an architecture or a config.json
  kInteger,   // a whole number of the numeric contract
  kNumber,    // any number of the numeric contract
  kBool,
  kChoice,    // one of `choices` (get/set carry its index)
  kText,      // a catalog id or a code (currency)
  kTextList,  // a list of catalog ids or names
  kSize,      // two whole numbers, [width, height] (pixels); `limit` bounds each
};

// Where the page's form draws the field; kNone: not on the form (JSON and links only).
// kClaim: the "Check a claim" section (a throughput, wall time or MFU someone states).
enum class FormSection { kNone, kTraining, kHardware, kArchitecture, kGoal, kClaim };

// How the form edits a number: its steps, and the unit it is shown in when that is not
// the contract's (tokens in billions, MFU in percent).
struct FormStyle {
  double step = 1;
  double step_fast = 0;         // 0: 8 × step
  double display_unit = 1;      // contract units per unit shown (tokens: 1e9, shown in billions)
  bool percent = false;         // a fraction shown as a percentage (mfu)
  const char* format = "%.2f";  // for kNumber
  bool slider = false;          // kInteger over a short range (zero: 0-3)
  const char* zero_text = nullptr;  // shown instead of 0 where 0 means "none" (the goal's deadline)
};

// Another name a choice is read under ("fsdp2" for "fsdp"); written as `name`.
struct ChoiceAlias {
  std::string_view alias;
  std::string_view name;
};

template <class Target>
struct Field {
  std::string_view key{};  // contract name; a group's field is "group.field" ("claim.wall_hours")
  FieldType type = FieldType::kNumber;
  const char* label = nullptr;  // the form's label (English; the page translates it)
  const char* help = "";        // what it means: the form's tooltip and the contract table's meaning
  FormSection section = FormSection::kNone;
  NumericLimit limit{};                          // kInteger, kNumber: range, unit, what 0 means
  std::span<const std::string_view> choices{};   // kChoice: the names JSON and links carry
  std::span<const char* const> choice_labels{};  // kChoice: the form's names for them
  std::span<const ChoiceAlias> choice_aliases{};  // kChoice: other names read as a choice
  std::string_view type_text{};     // kText, kTextList, kModel: what the text names, for the contract table
  std::string_view default_text{};  // the default when it is not a plain value ("min(gpus, 8)")
  // The value: numbers, booleans (0/1) and choices (the index) as a double.
  double (*get)(const Target&) = nullptr;
  void (*set)(Target&, double) = nullptr;
  const std::string& (*get_text)(const Target&) = nullptr;  // kText
  std::string& (*text)(Target&) = nullptr;                  // kText
  std::vector<std::string>& (*list)(Target&) = nullptr;    // kTextList
  const std::vector<std::string>& (*get_list)(const Target&) = nullptr;
  std::array<int, 2> (*get_size)(const Target&) = nullptr;  // kSize
  void (*set_size)(Target&, std::array<int, 2>) = nullptr;
  // Whether the field matters for this target (LoRA rank for lora/qlora); the form hides
  // it otherwise. nullptr: always.
  bool (*applies)(const Target&) = nullptr;
  // The default when the field is left out and it follows other fields (GPUs per node
  // follow the GPU count, KV heads the heads, kernels the framework); run once every
  // field given has been read.
  void (*fill_default)(Target&) = nullptr;
  // Whether the writer emits the field (MoE fields for a MoE model only). nullptr: always.
  bool (*write_if)(const Target&) = nullptr;
  bool required = false;  // the reader refuses a document without it
  bool written = true;    // false for an input-only alias (claim.wall_days, read into wall_hours)
  FormStyle form{};

  // kChoice: the index of choice `name`, or choices.size() when it is none of them.
  size_t ChoiceIndex(std::string_view name) const {
    size_t i = 0;
    while (i < choices.size() && choices[i] != name) ++i;
    return i;
  }
};

// A group's name and field ("claim.wall_hours" -> "claim", "wall_hours"); empty group for
// a top-level field.
std::string_view KeyGroup(std::string_view key);
std::string_view KeyName(std::string_view key);

inline bool IsNumeric(FieldType type) { return type == FieldType::kInteger || type == FieldType::kNumber; }
// Whether a field carries a numeric limit: numbers, and each side of a size.
inline bool HasLimit(FieldType type) { return IsNumeric(type) || type == FieldType::kSize; }

// The numeric-contract limits of a table's fields, in table order.
template <class Target>
std::vector<NumericLimit> LimitsOf(std::span<const Field<Target>> fields) {
  std::vector<NumericLimit> out;
  for (const Field<Target>& f : fields) {
    if (HasLimit(f.type)) out.push_back(f.limit);
  }
  return out;
}

// Range checks of every numeric field of `target` (table order): the first value outside
// its limit, as an error naming the field.
template <class Target>
std::optional<InputError> CheckLimitsOf(std::span<const Field<Target>> fields, const Target& target) {
  for (const Field<Target>& f : fields) {
    if (!f.written) continue;  // an alias is checked as the field it sets
    if (f.type == FieldType::kSize) {
      for (int side : f.get_size(target)) {
        if (auto e = CheckLimit(f.limit.field, side)) return e;
      }
    }
    if (!IsNumeric(f.type)) continue;
    if (auto e = CheckLimit(f.limit.field, f.get(target))) return e;
  }
  return std::nullopt;
}

// The field of `fields` with `key`, or nullptr.
template <class Target>
const Field<Target>* FindField(std::span<const Field<Target>> fields, std::string_view key) {
  for (const Field<Target>& f : fields) {
    if (f.key == key) return &f;
  }
  return nullptr;
}

// A built table with its numeric limits, named `prefix` + key ("model.layers"): what each
// *_fields.cpp keeps in a function-local static.
template <class Target>
class FieldTable {
 public:
  FieldTable(std::vector<Field<Target>> fields, std::string_view limit_prefix) : fields_(std::move(fields)) {
    names_.reserve(fields_.size());
    for (Field<Target>& f : fields_) {
      names_.push_back(std::string(limit_prefix) + std::string(f.key));
      f.limit.field = names_.back();  // names_ never reallocates after the reserve
      f.limit.integer = f.type == FieldType::kInteger || f.type == FieldType::kSize;
    }
    limits_ = LimitsOf(std::span<const Field<Target>>(fields_));
  }
  FieldTable(const FieldTable&) = delete;
  FieldTable& operator=(const FieldTable&) = delete;

  std::span<const Field<Target>> fields() const { return fields_; }
  std::span<const NumericLimit> limits() const { return limits_; }

 private:
  std::vector<Field<Target>> fields_;
  std::vector<std::string> names_;
  std::vector<NumericLimit> limits_;
};

namespace field_access {

template <class T>
double ToNumber(T value) {
  if constexpr (std::is_enum_v<T>) {
    return static_cast<int>(value);
  } else {
    return static_cast<double>(value);
  }
}

// The contract's range checks run before a value is stored, so the casts below see whole
// numbers within int for integers and valid indices for choices.
template <class T>
void FromNumber(double value, T& out) {
  if constexpr (std::is_enum_v<T>) {
    out = static_cast<T>(static_cast<int>(value));
  } else if constexpr (std::is_same_v<T, bool>) {
    out = value != 0;
  } else if constexpr (std::is_integral_v<T>) {
    out = static_cast<T>(value);
  } else {
    out = value;
  }
}

// A numeric range: zero_means non-empty lets 0 stand for "not given" (what it means). The
// table fills in the field name and whether it is whole.
constexpr NumericLimit Range(double min, double max, std::string_view unit = "", std::string_view zero_means = "") {
  return NumericLimit{"", min, max, !zero_means.empty(), false, unit, zero_means};
}

}  // namespace field_access
}  // namespace engine

// get/set of the member at `path` of a `Target` (e.g. training.seq_len), for a table's
// entries. Only table sources (*_fields.cpp) use these.
#define TS_FIELD_VALUE(Target, path)                                                       \
  .get = [](const Target& t) { return ::engine::field_access::ToNumber(t.path); },         \
  .set = [](Target& t, double v) { ::engine::field_access::FromNumber(v, t.path); }
#define TS_FIELD_SIZE(Target, width, height)                                                     \
  .get_size = [](const Target& t) { return std::array<int, 2>{t.width, t.height}; },           \
  .set_size = [](Target& t, std::array<int, 2> v) { t.width = v[0]; t.height = v[1]; }
#define TS_FIELD_TEXT(Target, path)                                                 \
  .get_text = [](const Target& t) -> const std::string& { return t.path; }, \
  .text = [](Target& t) -> std::string& { return t.path; }
#define TS_FIELD_LIST(Target, path)                                                  \
  .list = [](Target& t) -> std::vector<std::string>& { return t.path; }, \
  .get_list = [](const Target& t) -> const std::vector<std::string>& { return t.path; }
