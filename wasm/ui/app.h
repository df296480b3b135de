// The whole page as one immediate-mode frame: header, inputs and results, laid out side
// by side on wide windows and stacked on narrow ones.
#pragma once

#include "app_state.h"
#include "theme.h"

namespace ui {

// With `drawn_text`, also records the frame's text with every section open (for tests).
void DrawApp(AppState& state, const Fonts& fonts, std::string* drawn_text = nullptr);

// Panels (one file each).
void DrawInputPanel(AppState& state, const Fonts& fonts);
// The verdict (input errors, summary cards) and everything below it, drawn apart so a
// narrow page can put the verdict above the inputs.
void DrawResultsSummary(AppState& state, const Fonts& fonts);
void DrawResultsDetails(AppState& state, const Fonts& fonts);
void DrawSpeedSection(const engine::Estimate& estimate, const Fonts& fonts, float scale);
// A vision-language model's sequence split into text, images and video (sequence_panel.cpp).
void DrawSequenceSection(AppState& state, const engine::Estimate& estimate, const Fonts& fonts);
void DrawTimeSection(const engine::Estimate& estimate, const Fonts& fonts, float scale);
void DrawPlanSection(AppState& state, const Fonts& fonts);
// The estimate's cards; for a scenario that does not fit, its memory card and then
// `best_plan`'s cards, labelled as the best plan's (placeholders while there is none).
void DrawSummaryCards(const AppState& state, const engine::Estimate& estimate, const engine::Plan* best_plan,
                      const Fonts& fonts);
// A plan's layout in a few words: "TP2 PP1 DP4, ZeRO-3, recompute, mb 4" (plan_panel.cpp).
std::string PlanLayoutText(const engine::Plan& plan);
// The verdict on a claimed speed, wall time or MFU (claim_panel.cpp); nothing without a claim.
void DrawClaimVerdict(const AppState& state, const engine::Estimate& e);
void DrawGpuCompareSection(const AppState& state, const Fonts& fonts);
void DrawRentBuySection(const AppState& state, const engine::Estimate& estimate, const Fonts& fonts);
void DrawChecklistSection(const engine::Estimate& estimate, const Fonts& fonts);
void DrawAssumptionsSection(AppState& state, const Fonts& fonts);
void DrawExportSection(AppState& state, const Fonts& fonts);
// The tailored proposal for the current plans, in the page's language, shown by the
// browser as a page to print or save as PDF (HostActions::show_printable).
void ShowProposal(AppState& state);
void DrawServerSection(const engine::Estimate& estimate, const Fonts& fonts, float scale);

}  // namespace ui
