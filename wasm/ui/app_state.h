// Everything the page shows, in one place: the inputs the user edits (a scenario plus
// how the model was chosen), the last engine result, and the dirty flag that makes the
// engine run once per edit instead of once per frame.
#pragma once

#include <array>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "engine/catalog.h"
#include "engine/contract/json_fields.h"
#include "engine/estimate.h"
#include "engine/imports/config_import.h"
#include "engine/planner.h"
#include "engine/result.h"
#include "engine/scenario.h"
#include "engine/service/api.h"
#include "refusal.h"

namespace ui {

enum class ModelSource { kPreset, kParamCount, kArchitecture };

// The model picker's search: text over name, id, family and licence; dense or MoE; licence kind.
struct ModelFilter {
  std::string text;
  int architecture = 0;  // 0 all, 1 dense, 2 MoE
  int licence = 0;       // 0 all, 1 permissive (Apache-2.0, MIT), 2 others
};

struct Inputs {
  ModelSource model_source = ModelSource::kPreset;
  std::string preset_id = "llama-3-8b";
  double params_b = 13;  // double: a link's 13.3 comes back as 13.3, not 13.300000190734863
  engine::ModelSpec architecture;  // edited field by field, or imported from a config.json
  std::string hf_config_text;      // a pasted Hugging Face config.json
  engine::Message hf_config_status;  // what the import made of it (empty english: nothing yet)
  std::vector<engine::Warning> hf_config_warnings;  // and what it could not read exactly
  ModelFilter model_filter;
  // The claimed wall time's unit as shown: hours below a day, else days, picked again
  // whenever the value changes from outside the field (an example, a link).
  struct ClaimWallUnit {
    bool in_hours = false;
    double seen_hours = -1;
  } claim_wall_unit;
  engine::Scenario scenario;  // its model is filled from the two fields above
};

// What the page asks of its host: the browser (wasm/main.cpp) fills these in; natively
// they stay empty and the buttons that need them are not drawn.
struct HostActions {
  std::function<void(const std::string& text)> copy_text;  // to the clipboard
  std::function<void(const std::string& file_name, const std::string& mime, const std::string& text)> download;
  std::function<void()> download_offline_copy;  // the single-file trainsizer.html
  std::function<void()> open_full_tool;         // from an embed: the page in a new tab
  std::function<std::string()> page_url;        // location.href, for "Copy link"
  // A Markdown document drawn by the browser over the page, with Print and Close buttons
  // labelled in the page's language (`lang` "en" or "zh"): the proposal to print.
  std::function<void(const std::string& markdown, const std::string& lang, const std::string& print_label,
                     const std::string& close_label)>
      show_printable;
};

// What was dropped where: `x, y` in framebuffer pixels (CSS pixels × devicePixelRatio),
// the coordinates ImGui draws in.
struct DroppedText {
  float x = 0;
  float y = 0;
  std::string text;
};

struct AppState {
  // The session whose catalog the page computes with; the page's JS API shares it, so an
  // overlay set either way acts on one catalog. Outlives the state (wasm/js_api.cpp).
  engine::service::Session* session = nullptr;
  const engine::Catalog* catalog = nullptr;  // session->catalog() as of the last swap
  Inputs inputs;
  engine::Result<engine::Estimate> result = engine::MakeInputError("", "input.page.not_computed");
  std::optional<engine::Estimate> last_good;  // shown while the inputs are invalid
  engine::PlanConstraints goal;               // deadline, budget, objective, purchase
  engine::Result<engine::PlanResult> plan = engine::MakeInputError("", "input.page.not_planned");
  // The planner for the latest inputs, a catalog GPU at a time across frames (a whole
  // search takes ~50 ms in WebAssembly, three frames); `plan` keeps the previous answer
  // on screen until it is done.
  std::optional<engine::PlanSearch> plan_search;
  bool dirty = true;
  float dpi_scale = 1.0f;  // device pixels per CSS pixel
  bool dark = false;       // dark theme (starts from the browser's prefers-color-scheme)
  std::string example_id;  // the example last loaded, shown with its description
  // The training configs pasted or dropped into the import box, and what reading them gave:
  // the import (shown field by field before it is applied) or why it was refused.
  std::string config_import_text;
  std::optional<engine::imports::ConfigImport> config_import;
  std::optional<engine::InputError> config_import_error;
  bool config_import_applied = false;  // Apply took the import read last
  std::string overlay_text;     // the user's catalog overlay JSON as typed
  std::string overlay_status;   // result of the last Apply
  std::optional<engine::InputError> overlay_error;  // the overlay refused by the last Apply, shown instead
  // Figures changed in the Assumptions panel, by catalog section and entry key:
  // {"facility": {"pue-typical": {"value": 1.3}}, "offers": {id: {field: v}}, "rates": {code: {...}}}.
  // They ride on the overlay, so the engine sees them exactly like catalog data.
  engine::contract::Json assumption_edits = engine::contract::Json::object();
  // An overlay or Assumptions change waiting for the next frame's start: applying it while
  // panels draw would free the catalog entries they still hold references to.
  bool overlay_pending = false;
  bool embed = false;           // compact layout for an iframe in a blog post (?embed=1)
  bool lang_chosen = false;     // language picked by the user or the link (then links carry it)
  bool theme_chosen = false;    // likewise for the theme
  std::vector<engine::Message> link_notice;  // link parameters that were ignored, "key: why"
  // What the page refused after an exception or allocation failure (wasm/main.cpp puts
  // the last good inputs back and says so here); shown in the notice box until dismissed.
  std::optional<Refusal> refusal;
  // Counts catalog swaps (overlays applied by the page or through the JS API): results
  // hold pointers into the catalog they were computed with.
  long catalog_generation = 0;
  std::string link_fragment;             // the inputs as a link fragment (no '#')
  std::string copied_status;             // "Link copied" and the like, shown briefly
  // Where named controls were drawn in the last frame, {x, y, width, height} in CSS pixels:
  // browser tests click them by name (TrainSizer.current().anchors) instead of by position.
  std::map<std::string, std::array<float, 4>> anchors;
  HostActions host;
  // A file or text dropped on the page, waiting for this frame's drawing: the document box
  // under the drop point takes it (DocumentBox); the frame's end forgets it otherwise.
  std::optional<DroppedText> dropped;
};

// The inputs and answers of the last frame that computed, planned and drew without an
// exception: what the page goes back to when a later one throws (wasm/main.cpp). Saved
// only once the plan search for those inputs has finished.
struct GoodFrame {
  Inputs inputs;
  engine::PlanConstraints goal;
  std::string example_id;
  engine::Result<engine::Estimate> result = engine::MakeInputError("", "input.page.not_computed");
  std::optional<engine::Estimate> last_good;
  engine::Result<engine::PlanResult> plan = engine::MakeInputError("", "input.page.not_planned");
  std::string link_fragment;
  long catalog_generation = 0;
};

GoodFrame SaveGoodFrame(const AppState& state);

// Puts `good` back: the pending plan search is dropped and nothing is dirty. When the
// catalog changed since `good` was saved, its answers (which point into the old catalog)
// are dropped and the inputs recomputed at the next frame instead.
void RestoreGoodFrame(AppState& state, const GoodFrame& good);

// A sensible first screen: Llama-3-8B full fine-tune on 8× H100 with ZeRO-3, computed
// with `session`'s catalog.
AppState MakeInitialState(engine::service::Session& session);

// The scenario the engine runs for the inputs: the model filled in from how it was chosen
// (preset, parameter count or architecture). An unknown preset or a size no shape fits
// is the model's error.
engine::Result<engine::Scenario> ComputedScenario(const AppState& state);

// The Hugging Face repository of the chosen preset (launch configs load it); "" for a
// model given by size or architecture.
std::string HfRepo(const AppState& state);

// Applies a pending catalog change, then runs the estimate and starts the planner if an
// input changed since the last call.
void RecomputeIfDirty(AppState& state);

// Runs the started planner for about `budget_s` seconds (at least one GPU), and puts its
// answer in state.plan once it has searched every GPU.
void AdvancePlan(AppState& state, double budget_s);

// Reads the pasted config.json into the architecture fields (and switches to them).
void ImportPastedConfig(AppState& state);

// The goal's market follows the page's language while it is still the other language's:
// 中文 prices in CNY and rents from Chinese clouds (a team in China rents there and cannot
// buy export-restricted parts, cost_model.h), English in USD anywhere. The budget is
// converted with the catalog's rates. A currency or region set by the user, a link or an
// example (anything else) is left alone.
void FollowLanguageMarket(AppState& state);

// Reads the import box's configs (several joined by "---" lines) over the current inputs.
void ReadConfigImport(AppState& state);
// Applies the import read last to the inputs, as a link with those fields would.
void ApplyConfigImport(AppState& state);

// Loads a catalog example (scenario and goal) into the inputs.
void LoadExample(AppState& state, const engine::Example& example);

// Merges (or with empty text removes) the user's catalog overlay and points the page at
// the resulting catalog; on error the catalog in force stays and the status says why.
void ApplyCatalogOverlay(AppState& state);
// The status line of the overlay, in the page's language: the last Apply's result, or
// "Not applied: <field>: <why>".
std::string OverlayStatusText(const AppState& state);

// The inputs and goal as one scenario document (the JSON contract): for links, exports
// and launch configs.
engine::contract::Json ScenarioDocument(const AppState& state);

// Reads a link fragment (location.hash) into the inputs. Parameters that cannot be used
// are listed in state.link_notice; an empty fragment leaves the inputs as they are.
void ApplyLink(AppState& state, std::string_view fragment);

// Recomputes state.link_fragment from the inputs (after any edit).
void RefreshLink(AppState& state);

// Changes one catalog figure (an Assumptions panel edit); the overlay is re-applied when
// the next frame starts (RecomputeIfDirty).
// `key` is the entry's id (currency code for "rates").
void EditAssumption(AppState& state, const std::string& section, const std::string& key, const std::string& field,
                    double value);
// The built-in catalog's entry (with its source, date and confidence), or null.
engine::contract::Json BuiltInEntry(const std::string& section, const std::string& key);

// Drops every Assumptions edit.
void ResetAssumptions(AppState& state);

// Makes a plan from the planner the current scenario's hardware and layout.
void AdoptPlan(AppState& state, const engine::Plan& plan);
// An estimate's fit option applied to the inputs (its changes, as the engine tried them).
void AdoptFitOption(AppState& state, const engine::FitOption& option);

}  // namespace ui
