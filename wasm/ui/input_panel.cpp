// The input side: model, training recipe and hardware. Every widget that changes marks
// the state dirty; the engine's field error is shown under the field it names.
#include <algorithm>
#include <array>
#include <cctype>
#include <cstdio>
#include <span>
#include <string>
#include <string_view>
#include <utility>

#include "app.h"
#include "misc/cpp/imgui_stdlib.h"
#include "engine/model_spec.h"
#include "engine/architecture_fields.h"
#include "engine/format.h"
#include "engine/framework_profile.h"
#include "engine/goal_fields.h"
#include "engine/scenario_fields.h"
#include "format.h"
#include "i18n.h"
#include "local_text.h"
#include "widgets.h"

namespace ui {
namespace {

// Starts a label/widget row of the current form table; the widget fills the second column.
void Row(const char* label, const char* help) {
  ImGui::TableNextRow();
  ImGui::TableSetColumnIndex(0);
  ImGui::AlignTextToFramePadding();
  ImGui::TextUnformatted(label);
  if (help != nullptr && ImGui::IsItemHovered()) ImGui::SetTooltip("%s", help);
  ImGui::TableSetColumnIndex(1);
  ImGui::SetNextItemWidth(-FLT_MIN);
}

bool BeginForm(const char* id, float scale) {
  if (!ImGui::BeginTable(id, 2, ImGuiTableFlags_SizingStretchProp)) return false;
  ImGui::TableSetupColumn("label", ImGuiTableColumnFlags_WidthFixed, 150 * scale);
  ImGui::TableSetupColumn("value", ImGuiTableColumnFlags_WidthStretch);
  return true;
}

// Shows the engine's complaint about `field` (if that is the field it names).
void ShowError(AppState& state, std::string_view field, const engine::InputError& error) {
  ImGui::PushStyleColor(ImGuiCol_Text, Colors().bad);
  WrappedText(ErrorText(error).c_str());
  ImGui::PopStyleColor();
  MarkAnchor(state, "error:" + std::string(field));
}

void FieldError(AppState& state, std::string_view field) {
  if (!state.result.ok() && state.result.error().field == field) ShowError(state, field, state.result.error());
}

// After a field's widget: records where it is, and puts the engine's complaint about it
// right under the widget, in the same cell, where the person is looking. A field with no
// widget on screen (hidden by the method) has its complaint only at the top of the results.
void FieldEnd(AppState& state, std::string_view field) {
  MarkAnchor(state, "field:" + std::string(field));
  FieldError(state, field);
}

// The goal's fields are checked by the planner, not the estimate: their complaints come
// from the plan.
void GoalFieldEnd(AppState& state, std::string_view field) {
  MarkAnchor(state, "field:" + std::string(field));
  if (!state.plan.ok() && state.plan.error().field == field) ShowError(state, field, state.plan.error());
}

// A combo over a choice's labels (English, each also in wasm/ui/i18n/zh-ui.json),
// translated where they are drawn; `index` is the enum's value.
bool ChoiceCombo(const char* id, int* index, std::span<const char* const> labels) {
  bool changed = false;
  if (BeginComboShowingAll(id, T(labels[size_t(*index)]))) {
    for (size_t i = 0; i < labels.size(); ++i) {
      if (ImGui::Selectable(L(labels[i]), int(i) == *index)) {
        *index = int(i);
        changed = true;
      }
    }
    ImGui::EndCombo();
  }
  return changed;
}

bool IntField(const char* id, int* value, int step) {
  return ImGui::InputInt(id, value, step, step * 8, ImGuiInputTextFlags_EnterReturnsTrue) ||
         ImGui::IsItemDeactivatedAfterEdit();
}

// A number shown in the form's unit (tokens in billions, MFU in percent), or the words
// for 0 where 0 means "none". ImGui prints the value with the format but parses typed
// text as a plain number, so a format without a conversion is only a label; typing
// replaces it (the field selects all on focus).
template <class Target>
bool NumberField(const char* id, const engine::Field<Target>& f, Target& t) {
  const engine::FormStyle& style = f.form;
  double shown = style.percent ? f.get(t) * 100 : f.get(t) / style.display_unit;
  const char* format = style.zero_text != nullptr && shown == 0 ? T(style.zero_text) : style.format;
  if (!ImGui::InputDouble(id, &shown, style.step, style.step_fast, format)) return false;
  f.set(t, style.percent ? shown / 100 : shown * style.display_unit);
  return true;
}

// The widget of a number, a switch or a choice of any field table; text fields have
// their own combos.
template <class Target>
bool ValueWidget(const engine::Field<Target>& f, Target& t) {
  const std::string id = "##" + std::string(f.key);
  int whole = static_cast<int>(f.get != nullptr ? f.get(t) : 0);
  bool changed = false;
  switch (f.type) {
    case engine::FieldType::kChoice: changed = ChoiceCombo(id.c_str(), &whole, f.choice_labels); break;
    case engine::FieldType::kInteger:
      changed = f.form.slider ? ImGui::SliderInt(id.c_str(), &whole, int(f.limit.min), int(f.limit.max))
                              : IntField(id.c_str(), &whole, int(f.form.step));
      break;
    case engine::FieldType::kBool: {
      bool on = whole != 0;
      changed = ImGui::Checkbox(id.c_str(), &on);
      whole = on ? 1 : 0;
      break;
    }
    case engine::FieldType::kNumber: return NumberField(id.c_str(), f, t);
    case engine::FieldType::kSize: {
      // Width and height side by side, as a person writes 1024 × 768.
      std::array<int, 2> size = f.get_size(t);
      if (!ImGui::InputInt2(id.c_str(), size.data())) return false;
      f.set_size(t, size);
      return true;
    }
    case engine::FieldType::kModel:
    case engine::FieldType::kText:
    case engine::FieldType::kTextList: return false;
  }
  if (changed) f.set(t, whole);
  return changed;
}

// The rows of one form section, in its field table's order (engine/*_fields.cpp); fields
// that do not apply are hidden. `widget(f)` draws a field's widget, `end(f)` what follows
// it (its complaint).
template <class Target, class Widget, class End>
bool FormRows(std::span<const engine::Field<Target>> fields, engine::FormSection section, const Target& target,
              Widget widget, End end) {
  bool changed = false;
  for (const engine::Field<Target>& f : fields) {
    if (f.section != section) continue;
    if (f.applies != nullptr && !f.applies(target)) continue;
    Row(T(f.label), T(f.help));
    changed |= widget(f);
    end(f);
  }
  return changed;
}

std::string Lowercase(std::string text) {
  for (char& c : text) c = char(std::tolower(static_cast<unsigned char>(c)));
  return text;
}

bool PermissiveLicence(const std::string& licence) { return licence == "Apache-2.0" || licence == "MIT"; }

// Whether a preset passes the picker's filters; the text matches name, id, family or licence.
bool PresetShown(const engine::ModelPreset& p, const ModelFilter& filter) {
  if (filter.architecture == 1 && p.spec.IsMoe()) return false;
  if (filter.architecture == 2 && !p.spec.IsMoe()) return false;
  if (filter.licence == 1 && !PermissiveLicence(p.license)) return false;
  if (filter.licence == 2 && PermissiveLicence(p.license)) return false;
  if (filter.text.empty()) return true;
  const std::string needle = Lowercase(filter.text);
  for (const std::string* hay : {&p.spec.name, &p.spec.id, &p.family, &p.license}) {
    if (Lowercase(*hay).find(needle) != std::string::npos) return true;
  }
  return false;
}

bool PresetCombo(AppState& state) {
  const engine::ModelPreset* current = state.catalog->FindModel(state.inputs.preset_id);
  ModelFilter& filter = state.inputs.model_filter;
  bool changed = false;
  if (ImGui::BeginCombo("##preset", current ? current->spec.name.c_str() : T("Choose a model"),
                        ImGuiComboFlags_HeightLarge)) {
    ImGui::SetNextItemWidth(-FLT_MIN);
    if (ImGui::IsWindowAppearing()) ImGui::SetKeyboardFocusHere();
    ImGui::InputTextWithHint("##filter", T("type to search: name, family, licence"), &filter.text);
    ImGui::RadioButton(L("All##arch"), &filter.architecture, 0);
    ImGui::SameLine();
    ImGui::RadioButton(L("Dense"), &filter.architecture, 1);
    ImGui::SameLine();
    ImGui::RadioButton(L("MoE"), &filter.architecture, 2);
    ImGui::RadioButton(L("Any licence"), &filter.licence, 0);
    ImGui::SameLine();
    ImGui::RadioButton(L("Apache-2.0 / MIT"), &filter.licence, 1);
    ImGui::SameLine();
    ImGui::RadioButton(L("Other licences"), &filter.licence, 2);
    ImGui::Separator();
    int shown = 0;
    for (const engine::ModelPreset& p : state.catalog->models) {
      if (!PresetShown(p, filter)) continue;
      ++shown;
      const std::string label = p.spec.name + "  (" + ParamsText(engine::CountParams(p.spec).total) +
                                (p.spec.IsMoe() ? ", MoE" : "") + (p.approximate.empty() ? "" : T(", approximate")) +
                                ")";
      if (ImGui::Selectable(label.c_str(), current == &p)) {
        state.inputs.preset_id = p.spec.id;
        changed = true;
      }
      if (ImGui::IsItemHovered()) {
        const std::string about = p.family + " · " + p.license + " · " + p.hf_repo +
                                  (p.approximate.empty() ? "" : "\n" + Local(p.approximate));
        ImGui::SetTooltip("%s", about.c_str());
      }
    }
    if (shown == 0) MutedText(T("No preset matches: clear the search or the filters."));
    ImGui::EndCombo();
  }
  return changed;
}

void PasteConfig(AppState& state) {
  const bool open = ImGui::CollapsingHeader(L("Paste a Hugging Face config.json"));
  MarkAnchor(state, "hf-config");
  if (!open) return;
  DocumentBox(state, "##hf_config", state.inputs.hf_config_text, 140 * state.dpi_scale);
  if (ImGui::Button(L("Import config.json"))) ImportPastedConfig(state);
  MarkAnchor(state, "import-config");
  // "Imported <model>." and the importer's warnings, or why the text was not read.
  const engine::Message& status = state.inputs.hf_config_status;
  if (!status.english.empty()) MutedText(MessageText(status).c_str());
  for (const engine::Warning& w : state.inputs.hf_config_warnings) MutedText(WarningText(w).c_str());
}

void DrawModelSection(AppState& state, const Fonts& fonts) {
  Heading(T("Model"), fonts, true);
  Inputs& in = state.inputs;
  int source = static_cast<int>(in.model_source);
  bool changed = ImGui::RadioButton(L("Preset"), &source, 0);
  ImGui::SameLine();
  changed |= ImGui::RadioButton(L("Size only"), &source, 1);
  ImGui::SameLine();
  changed |= ImGui::RadioButton(L("Architecture"), &source, 2);
  if (source == 2 && in.model_source != ModelSource::kArchitecture) {
    in.architecture = in.scenario.model;  // start from what is shown now
    in.architecture.id = "custom";
  }
  in.model_source = static_cast<ModelSource>(source);
  if (!BeginForm("model_form", state.dpi_scale)) return;
  if (in.model_source == ModelSource::kPreset) {
    Row(T("Model"), T("An open model with its published architecture (Hugging Face config.json)."));
    changed |= PresetCombo(state);
  } else if (in.model_source == ModelSource::kParamCount) {
    Row(T("Parameters (B)"), T("Billions of parameters; a Llama-style dense shape is derived from it."));
    changed |= ImGui::InputDouble("##params_b", &in.params_b, 1, 10, "%.2f");
  } else {
    changed |= FormRows(
        engine::ArchitectureFields(), engine::FormSection::kArchitecture, in.architecture,
        [&](const engine::ArchitectureField& f) { return ValueWidget(f, in.architecture); },
        [](const engine::ArchitectureField&) {});
  }
  ImGui::EndTable();
  if (!state.result.ok() && state.result.error().field.rfind("model", 0) == 0) {
    FieldError(state, state.result.error().field);
  }
  PasteConfig(state);
  if (changed) state.dirty = true;
}

// A combo over catalog entries that sets `id`; `label` names an entry, `shown` filters.
template <class T, class Label, class Shown>
bool CatalogCombo(const char* widget_id, const std::vector<T>& items, std::string& id, Label label, Shown shown) {
  const T* current = nullptr;
  for (const T& x : items) {
    if (x.id == id) current = &x;
  }
  bool changed = false;
  if (BeginComboShowingAll(widget_id, current ? label(*current).c_str() : id.c_str())) {
    for (const T& x : items) {
      if (!shown(x)) continue;
      if (ImGui::Selectable(label(x).c_str(), current == &x)) {
        id = x.id;
        changed = true;
      }
    }
    ImGui::EndCombo();
  }
  return changed;
}

bool GpuCombo(AppState& state) {
  return CatalogCombo(
      "##gpu", state.catalog->gpus, state.inputs.scenario.gpu_id,
      [](const engine::GpuSpec& g) { return g.name + "  (" + GibText(g.memory_bytes) + ")"; },
      [](const engine::GpuSpec&) { return true; });
}

bool NetworkCombo(AppState& state) {
  return CatalogCombo(
      "##network", state.catalog->fabrics, state.inputs.scenario.parallel.network,
      [](const engine::FabricSpec& f) { return Local(f.name); }, [](const engine::FabricSpec& f) { return f.scale_out; });
}

// The checkpoint storage tier: the catalog's, or "" for the default the engine assumes.
bool StorageCombo(AppState& state) {
  std::string& id = state.inputs.scenario.storage;
  const engine::StorageTier* current = state.catalog->FindStorage(id);
  const char* default_label = T("Default (NVMe; cluster: parallel FS)");
  bool changed = false;
  if (BeginComboShowingAll("##storage", current ? current->name.c_str() : default_label)) {
    if (ImGui::Selectable(default_label, current == nullptr)) {
      changed = !id.empty();
      id.clear();
    }
    for (const engine::StorageTier& tier : state.catalog->storage) {
      if (ImGui::Selectable(tier.name.c_str(), current == &tier)) {
        changed |= id != tier.id;
        id = tier.id;
      }
    }
    ImGui::EndCombo();
  }
  return changed;
}

// GPUs per node follow the GPU count (up to an 8-GPU server) until the person sets them.
bool GpusField(engine::Parallelism& p) {
  const bool node_follows_count = p.gpus_per_node == engine::DefaultGpusPerNode(p.gpus);
  if (!IntField("##gpus", &p.gpus, 1)) return false;
  if (node_follows_count) p.gpus_per_node = std::max(1, engine::DefaultGpusPerNode(p.gpus));
  return true;
}

// Picking a training stack sets what that stack does by default (kernels, loss,
// checkpointing, activation offload), as a scenario that leaves them out gets them.
bool FrameworkField(const engine::ScenarioField& f, engine::Scenario& s) {
  if (!ValueWidget(f, s)) return false;
  engine::ApplyFrameworkDefaults(s);
  return true;
}

bool ClaimWallTimeField(Inputs& inputs);

// The widget for one scenario field; the catalog ids, the GPU count and a claimed wall
// time have their own.
bool ScenarioWidget(AppState& state, const engine::ScenarioField& f) {
  engine::Scenario& s = state.inputs.scenario;
  if (f.key == "claim.wall_hours") return ClaimWallTimeField(state.inputs);
  if (f.key == "gpu") return GpuCombo(state);
  if (f.key == "network") return NetworkCombo(state);
  if (f.key == "storage") return StorageCombo(state);
  if (f.key == "gpus") return GpusField(s.parallel);
  if (f.key == "framework") return FrameworkField(f, s);
  return ValueWidget(f, s);
}

// A scenario section's rows, each with its complaint under it.
bool FieldRows(AppState& state, engine::FormSection section) {
  return FormRows(
      engine::ScenarioFields(), section, state.inputs.scenario,
      [&](const engine::ScenarioField& f) { return ScenarioWidget(state, f); },
      [&](const engine::ScenarioField& f) { FieldEnd(state, f.key); });
}

void DrawTrainingSection(AppState& state, const Fonts& fonts) {
  Heading(T("Training"), fonts, true);
  if (!BeginForm("training_form", state.dpi_scale)) return;
  const bool changed = FieldRows(state, engine::FormSection::kTraining);
  ImGui::EndTable();
  if (changed) state.dirty = true;
}

void DrawHardwareSection(AppState& state, const Fonts& fonts) {
  Heading(T("Hardware and parallelism"), fonts, true);
  MutedText(T("The figures on the right are for this hardware and layout. The planner searches every GPU and "
              "layout on its own; Use on a plan copies it here."));
  if (!BeginForm("hardware_form", state.dpi_scale)) return;
  const bool changed = FieldRows(state, engine::FormSection::kHardware);
  ImGui::EndTable();
  if (changed) state.dirty = true;
}

// [SECTION] check a claim

// A claimed wall time as blog posts and vendors state it: in days, or in hours for a
// short run. The unit shown is cosmetic (Inputs::ClaimWallUnit).
bool ClaimWallTimeField(Inputs& inputs) {
  engine::Claim& claim = inputs.scenario.training.claim;
  bool& in_hours = inputs.claim_wall_unit.in_hours;
  double& seen_hours = inputs.claim_wall_unit.seen_hours;
  if (claim.wall_hours != seen_hours) in_hours = claim.wall_hours > 0 && claim.wall_hours < 24;
  const char* days = T("days");
  const char* hours = T("hours");
  const ImGuiStyle& style = ImGui::GetStyle();
  const float unit_width = std::max(ImGui::CalcTextSize(days).x, ImGui::CalcTextSize(hours).x) +
                           ImGui::GetFrameHeight() + 2 * style.FramePadding.x;
  ImGui::SetNextItemWidth(std::max(1.0f, ImGui::GetContentRegionAvail().x - unit_width - style.ItemInnerSpacing.x));
  const double per_unit = in_hours ? 1 : 24;
  double shown = claim.wall_hours / per_unit;
  const char* format = shown == 0 ? T("no claim") : (in_hours ? "%.1f" : "%.2f");
  // No step buttons: a claim is typed as read, and on a phone the box needs their room.
  bool changed = ImGui::InputDouble("##claim.wall_hours", &shown, 0, 0, format);
  if (changed) claim.wall_hours = shown * per_unit;
  ImGui::SameLine(0, style.ItemInnerSpacing.x);
  ImGui::SetNextItemWidth(unit_width);
  if (ImGui::BeginCombo("##claim_wall_unit", in_hours ? hours : days)) {
    if (ImGui::Selectable(days, !in_hours)) in_hours = false;
    if (ImGui::Selectable(hours, in_hours)) in_hours = true;
    ImGui::EndCombo();
  }
  seen_hours = claim.wall_hours;
  return changed;
}

// A throughput, wall time or MFU someone states for this setup (a blog post, a vendor),
// checked against physics; the verdict is drawn with the results.
void DrawClaimSection(AppState& state, const Fonts& fonts) {
  Heading(T("Check a claim"), fonts, true);
  MutedText(T("Enter what a blog post or a vendor states for this model, method and hardware: a speed, a wall time "
              "or an MFU. The verdict, with the MFU the claim implies and this tool's prediction, appears with the "
              "results. A wall time needs the training tokens above."));
  if (!BeginForm("claim_form", state.dpi_scale)) return;
  const bool changed = FieldRows(state, engine::FormSection::kClaim);
  ImGui::EndTable();
  if (changed) state.dirty = true;
}

// The planner's regions (PlanConstraints::region), English labels translated where drawn.
constexpr std::array<std::pair<const char*, const char*>, 5> kRegions = {
    {{"", "Anywhere"}, {"us", "United States"}, {"eu", "Europe"}, {"asia", "Asia-Pacific"},
     {"cn", "China (export rules)"}}};

bool RegionCombo(std::string& region) {
  const char* current = region.c_str();
  for (const auto& [code, label] : kRegions) {
    if (region == code) current = T(label);
  }
  bool changed = false;
  if (ImGui::BeginCombo("##region", current)) {
    for (const auto& [code, label] : kRegions) {
      if (ImGui::Selectable(L(label), region == code)) {
        changed = region != code;
        region = code;
      }
    }
    ImGui::EndCombo();
  }
  return changed;
}

bool CurrencyCombo(std::string& currency) {
  static constexpr std::array<const char*, 3> kCurrencies = {"USD", "CNY", "EUR"};
  bool changed = false;
  if (ImGui::BeginCombo("##currency", currency.c_str())) {
    for (const char* code : kCurrencies) {
      if (ImGui::Selectable(code, currency == code)) {
        changed = currency != code;
        currency = code;
      }
    }
    ImGui::EndCombo();
  }
  return changed;
}

bool GoalWidget(engine::PlanConstraints& g, const engine::GoalField& f) {
  if (f.key == "currency") return CurrencyCombo(g.currency);
  if (f.key == "region") return RegionCombo(g.region);
  return ValueWidget(f, g);
}

// Per setting, whether the planner chooses it or keeps the one in the form (the goal's
// `keep` list): ticked means "keep mine".
bool DrawKeepSwitches(AppState& state) {
  static constexpr std::pair<std::string_view, const char*> kSwitches[] = {
      {"gpu", "GPU"},  {"gpus", "GPU count"}, {"tp", "TP"}, {"pp", "PP"}, {"zero", "ZeRO"},
      {"micro_batch", "Micro-batch"}, {"activation_checkpointing", "Recomputation"}, {"offload", "Offload"}};
  std::vector<std::string>& keep = state.goal.keep;
  bool changed = false;
  ImGui::TextUnformatted(T("Keep mine (the planner chooses the rest):"));
  MarkAnchor(state, "keep");
  const float avail = ImGui::GetContentRegionAvail().x;
  float used = 0;
  for (const auto& [name, label] : kSwitches) {
    const auto at = std::find(keep.begin(), keep.end(), name);
    bool kept = at != keep.end();
    const float width = ImGui::CalcTextSize(T(label)).x + ImGui::GetFrameHeight() + 3 * ImGui::GetStyle().ItemSpacing.x;
    if (used > 0 && used + width < avail) ImGui::SameLine(); else used = 0;
    used += width;
    if (ImGui::Checkbox((std::string(T(label)) + "##keep_" + std::string(name)).c_str(), &kept)) {
      if (kept) keep.emplace_back(name); else keep.erase(at);
      changed = true;
    }
  }
  return changed;
}

void DrawGoalSection(AppState& state, const Fonts& fonts) {
  Heading(T("Goal"), fonts, true);
  engine::PlanConstraints& g = state.goal;
  if (!BeginForm("goal_form", state.dpi_scale)) return;
  const bool changed = FormRows(
      engine::GoalFields(), engine::FormSection::kGoal, g,
      [&](const engine::GoalField& f) { return GoalWidget(g, f); },
      [&](const engine::GoalField& f) {
        if (f.key == "budget") MarkAnchor(state, "budget");
        GoalFieldEnd(state, f.key);
      });
  ImGui::EndTable();
  if (DrawKeepSwitches(state)) state.dirty = true;
  if (changed) state.dirty = true;
}

}  // namespace

// The user's own catalog JSON: negotiated prices, a private cloud, a GPU not listed, other
// exchange rates; validated like the built-in catalog.
void DrawOverlaySection(AppState& state, const Fonts& fonts) {
  ImGui::Spacing();
  if (!ImGui::CollapsingHeader(L("Your own prices and hardware (catalog overlay)"))) return;
  (void)fonts;
  MutedText(T("Paste JSON shaped like the catalog files, e.g. {\"offers\": [...]} or {\"rates\": [...]}. "
              "Entries with a known id replace it; new ids are added."));
  DocumentBox(state, "##overlay", state.overlay_text, 160 * state.dpi_scale);
  if (ImGui::Button(L("Apply"))) state.overlay_pending = true;  // applied when the frame starts
  ImGui::SameLine();
  if (ImGui::Button(L("Remove"))) {
    state.overlay_text.clear();
    state.overlay_pending = true;
  }
  if (const std::string status = OverlayStatusText(state); !status.empty()) MutedText(status.c_str());
}

namespace {

// A value of the import as the user reads it: text without JSON quotes, a config.json
// model by name.
std::string ImportValueText(const engine::contract::Json& value) {
  if (value.is_string()) return value.get<std::string>();
  if (value.is_object() && value.contains("hf_config")) return "config.json";
  if (value.is_null()) return "-";
  if (value.is_number_float()) return engine::ExactNum(value.get<double>());  // 3, not 3.0
  return value.dump();
}

// The team's own configs read into the inputs: what was understood, field by field, what
// was not used and why, and what had to be assumed, shown before Apply changes anything.
void DrawConfigImportSection(AppState& state) {
  ImGui::Spacing();
  const bool open = ImGui::CollapsingHeader(L("Start from your training config (import)"));
  MarkAnchor(state, "config-import");
  if (!open) return;
  MutedText(T("Paste or drop a LLaMA-Factory or axolotl YAML, TRL/Trainer arguments or a torchrun line, a DeepSpeed "
              "JSON, a torchtune recipe, Megatron-LM arguments, a verl, OpenRLHF or ms-swift command, or a model's "
              "config.json. "
              "Several files: put a line with --- between them."));
  DocumentBox(state, "##config_import", state.config_import_text, 160 * state.dpi_scale);
  if (ImGui::Button(L("Read the config"))) ReadConfigImport(state);
  MarkAnchor(state, "config-import-read");
  if (state.config_import_error) {
    ImGui::TextColored(ImVec4(0.85f, 0.2f, 0.2f, 1.0f), "%s", ErrorText(*state.config_import_error).c_str());
  }
  if (!state.config_import) return;
  const engine::imports::ConfigImport& r = *state.config_import;
  ImGui::SameLine();
  if (ImGui::Button(L("Apply to the inputs"))) ApplyConfigImport(state);
  MarkAnchor(state, "config-import-apply");
  if (state.config_import_applied) {
    ImGui::SameLine();
    MutedText(T("Applied: the inputs hold these settings, and the link carries them."));
  }
  for (const engine::imports::DetectedFile& f : r.files) {
    MutedText((f.file + ": " + std::string(engine::imports::kConfigToolNames[static_cast<size_t>(f.tool)])).c_str());
  }
  ImGui::TextUnformatted(T("Understood"));
  for (const engine::imports::UsedKey& u : r.used) {
    std::string fields;
    for (const auto& [field, value] : u.fields.items()) {
      fields += (fields.empty() ? "" : ", ") + field + " = " + ImportValueText(value);
    }
    const std::string line = u.key + " (" + std::to_string(u.line) + ")" + (fields.empty() ? "" : " -> " + fields);
    WrappedText(line.c_str());
  }
  if (!r.assumed.empty()) ImGui::TextUnformatted(T("Assumed"));
  for (const engine::imports::Assumption& a : r.assumed) {
    const std::string line = a.field + " = " + ImportValueText(a.value) + ": " + MessageText(a.why);
    WrappedText(line.c_str());
  }
  if (!r.ignored.empty()) ImGui::TextUnformatted(T("Not used"));
  // A long config's unused keys are listed in full by the CLI and the JS API; the page
  // shows the first ones, so a pasted megabyte does not slow every frame.
  constexpr size_t kShownIgnored = 200;
  for (size_t k = 0; k < r.ignored.size() && k < kShownIgnored; ++k) {
    const engine::imports::IgnoredKey& i = r.ignored[k];
    const std::string line = i.key + " (" + std::to_string(i.line) + "): " + MessageText(i.why);
    MutedText(line.c_str());
  }
  if (r.ignored.size() > kShownIgnored) {
    MutedText(("+ " + std::to_string(r.ignored.size() - kShownIgnored) + " ...").c_str());
  }
}

}  // namespace

void DrawInputPanel(AppState& state, const Fonts& fonts) {
  DrawGoalSection(state, fonts);
  DrawConfigImportSection(state);
  DrawModelSection(state, fonts);
  DrawTrainingSection(state, fonts);
  DrawHardwareSection(state, fonts);
  DrawClaimSection(state, fonts);
  DrawOverlaySection(state, fonts);
}

}  // namespace ui
