// Everything the page shows, in one place: the inputs the user edits (a scenario plus
// how the model was chosen), the last engine result, and the dirty flag that makes the
// engine run once per edit instead of once per frame.
#pragma once

#include <optional>
#include <string>

#include "engine/catalog.h"
#include "engine/estimate.h"
#include "engine/planner.h"
#include "engine/result.h"
#include "engine/scenario.h"

namespace ui {

enum class ModelSource { kPreset, kParamCount, kArchitecture };

struct Inputs {
  ModelSource model_source = ModelSource::kPreset;
  std::string preset_id = "llama-3-8b";
  float params_b = 13.0f;
  engine::ModelSpec architecture;  // edited field by field, or imported from a config.json
  std::string hf_config_text;      // a pasted Hugging Face config.json
  std::string hf_config_status;    // what the import made of it
  engine::Scenario scenario;  // its model is filled from the two fields above
};

struct AppState {
  const engine::Catalog* catalog = nullptr;
  Inputs inputs;
  engine::Result<engine::Estimate> result = engine::InputError{"", "not computed yet"};
  std::optional<engine::Estimate> last_good;  // shown while the inputs are invalid
  engine::PlanConstraints goal;               // deadline, budget, objective, purchase
  engine::Result<engine::PlanResult> plan = engine::InputError{"", "not planned yet"};
  bool dirty = true;
  float dpi_scale = 1.0f;  // device pixels per CSS pixel
  bool dark = false;       // dark theme (starts from the browser's prefers-color-scheme)
  std::string example_id;  // the example last loaded, shown with its description
  std::string overlay_text;     // the user's catalog overlay JSON as typed
  std::string overlay_status;   // result of the last Apply
};

// A sensible first screen: Llama-3-8B full fine-tune on 8× H100 with ZeRO-3.
AppState MakeInitialState(const engine::Catalog& catalog);

// Runs the engine (estimate and planner) if an input changed since the last call.
void RecomputeIfDirty(AppState& state);

// Reads the pasted config.json into the architecture fields (and switches to them).
void ImportPastedConfig(AppState& state);

// Loads a catalog example (scenario and goal) into the inputs.
void LoadExample(AppState& state, const engine::Example& example);

// Merges (or with empty text removes) the user's catalog overlay and points the page at
// the resulting catalog; on error the catalog in force stays and the status says why.
void ApplyCatalogOverlay(AppState& state);

// Makes a plan from the planner the current scenario's hardware and layout.
void AdoptPlan(AppState& state, const engine::Plan& plan);

}  // namespace ui
