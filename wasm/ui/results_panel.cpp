// The result details: a stacked memory bar against the GPU's capacity, the term-by-term
// table with formulas and sources, and which catalog GPUs fit.
#include <algorithm>
#include <array>
#include <string>

#include "accuracy.h"
#include "engine/scenario_fields.h"
#include "app.h"
#include "format.h"
#include "i18n.h"
#include "local_text.h"
#include "widgets.h"

namespace ui {
namespace {

struct TermView {
  const char* label;
  const engine::MemoryTerm* term;
};

std::array<TermView, 7> Terms(const engine::MemoryBreakdown& m) {
  return {{{T("Weights"), &m.weights},
           {T("Gradients"), &m.gradients},
           {T("Optimizer states"), &m.optimizer},
           {T("Activations"), &m.activations},
           {T("Logits"), &m.logits},
           {T("Overheads"), &m.overhead},
           {T("Other roles and rollout"), &m.roles}}};
}

// Stacked horizontal bar of the terms, scaled so both the need and the capacity fit,
// with a marker at the GPU's capacity and a hover read-out per segment.
void DrawMemoryBar(const engine::Estimate& e, float scale) {
  ImDrawList* draw = ImGui::GetWindowDrawList();
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  const float width = ImGui::GetContentRegionAvail().x;
  const float height = 30 * scale;
  const double full = std::max(e.need_bytes, e.capacity_bytes) * 1.02;
  float x = origin.x;
  const auto terms = Terms(e.memory);
  for (size_t i = 0; i < terms.size(); ++i) {
    const float w = float(terms[i].term->bytes / full) * width;
    if (w <= 0) continue;
    const ImVec2 a(x, origin.y), b(x + w, origin.y + height);
    draw->AddRectFilled(a, b, TermColor(int(i)));
    if (ImGui::IsMouseHoveringRect(a, b)) {
      ImGui::SetTooltip("%s: %s", terms[i].label, GibText(terms[i].term->bytes).c_str());
    }
    x += w;
  }
  draw->AddRect(origin, ImVec2(origin.x + width, origin.y + height), Colors().chart_frame);
  const float cap_x = origin.x + float(e.capacity_bytes / full) * width;
  draw->AddLine(ImVec2(cap_x, origin.y - 6 * scale), ImVec2(cap_x, origin.y + height + 6 * scale), Colors().bad,
                2.5f * scale);
  ImGui::Dummy(ImVec2(width, height + 8 * scale));
  ImGui::PushStyleColor(ImGuiCol_Text, Colors().muted);
  ImGui::Text(T("Red line: GPU capacity %s"), GibText(e.capacity_bytes).c_str());
  ImGui::PopStyleColor();
}

void DrawTermTable(const engine::Estimate& e, float scale) {
  const ImGuiTableFlags flags = ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerH | ImGuiTableFlags_SizingStretchProp;
  if (!ImGui::BeginTable("terms", 3, flags)) return;
  ImGui::TableSetupColumn(L("Term"), ImGuiTableColumnFlags_WidthFixed, 150 * scale);
  ImGui::TableSetupColumn(L("Per GPU"), ImGuiTableColumnFlags_WidthFixed, 90 * scale);
  ImGui::TableSetupColumn(L("How it is computed (hover for the source)"), ImGuiTableColumnFlags_WidthStretch);
  TableHeadersRowFitted();
  const auto terms = Terms(e.memory);
  for (size_t i = 0; i < terms.size(); ++i) {
    if (terms[i].term == &e.memory.roles && e.memory.post.roles.empty()) continue;  // not post-training
    ImGui::TableNextRow();
    ImGui::TableSetColumnIndex(0);
    const ImVec2 p = ImGui::GetCursorScreenPos();
    const float box = ImGui::GetTextLineHeight() * 0.7f;
    ImGui::GetWindowDrawList()->AddRectFilled(ImVec2(p.x, p.y + box * 0.25f), ImVec2(p.x + box, p.y + box * 1.25f),
                                              TermColor(int(i)), 2 * scale);
    ImGui::Dummy(ImVec2(box, box));
    ImGui::SameLine();
    ImGui::TextUnformatted(terms[i].label);
    ImGui::TableSetColumnIndex(1);
    ImGui::TextUnformatted(GibText(terms[i].term->bytes).c_str());
    ImGui::TableSetColumnIndex(2);
    const engine::Message& formula = terms[i].term->formula;  // none for a term this stage lacks
    WrappedText(formula.id.empty() ? "" : MessageText(formula).c_str());
    if (ImGui::IsItemHovered() && !terms[i].term->source.id.empty()) {
      ImGui::BeginTooltip();
      ImGui::PushTextWrapPos(ImGui::GetFontSize() * 30);
      WrappedText(Printf(T("Source: %s"), MessageText(terms[i].term->source).c_str()).c_str());
      ImGui::PopTextWrapPos();
      ImGui::EndTooltip();
    }
  }
  if (e.memory.cpu_ram.bytes > 0) {
    ImGui::TableNextRow();
    ImGui::TableSetColumnIndex(0);
    ImGui::TextUnformatted(T("Host RAM (offload)"));
    ImGui::TableSetColumnIndex(1);
    ImGui::TextUnformatted(GibText(e.memory.cpu_ram.bytes).c_str());
    ImGui::TableSetColumnIndex(2);
    WrappedText(MessageText(e.memory.cpu_ram.formula).c_str());
  }
  ImGui::EndTable();
}

// A role's name as the page says it.
const char* RoleLabel(std::string_view role) {
  if (role == "policy") return T("Policy (trained)");
  if (role == "reference") return T("Reference (frozen)");
  if (role == "critic") return T("Critic (trained)");
  if (role == "reward") return T("Reward model (frozen)");
  return T("Rollout engine");
}

const char* PoolLabel(engine::RolePool pool) {
  switch (pool) {
    case engine::RolePool::kShared: return T("every GPU, in turn");
    case engine::RolePool::kTraining: return T("training GPUs");
    case engine::RolePool::kRollout: return T("rollout GPUs");
  }
  return "";
}

// Post-training: each role's memory on the GPUs it occupies (docs/model.md §12.2).
void DrawRoleTable(const engine::Estimate& e, float scale) {
  const engine::PostTrainingMemory& post = e.memory.post;
  if (post.roles.empty()) return;
  const ImGuiTableFlags flags = ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerH | ImGuiTableFlags_SizingStretchProp;
  if (!ImGui::BeginTable("roles", 3, flags)) return;
  ImGui::TableSetupColumn(L("Role"), ImGuiTableColumnFlags_WidthStretch);
  ImGui::TableSetupColumn(L("Per GPU"), ImGuiTableColumnFlags_WidthFixed, 90 * scale);
  ImGui::TableSetupColumn(L("Where"), ImGuiTableColumnFlags_WidthStretch);
  TableHeadersRowFitted();
  for (const engine::RoleMemory& r : post.roles) {
    ImGui::TableNextRow();
    ImGui::TableSetColumnIndex(0);
    WrappedText(RoleLabel(r.role));
    ImGui::TableSetColumnIndex(1);
    ImGui::TextUnformatted(GibText(r.per_gpu_bytes).c_str());
    ImGui::TableSetColumnIndex(2);
    WrappedText(PoolLabel(r.pool));
  }
  ImGui::EndTable();
  if (post.rollout.bytes > 0) {
    const engine::RolloutSizing& r = post.rollout;
    MutedText(Printf(T("Rollout engine: %d instance(s) at tensor parallel %d, %s answers decoded at once, "
                       "gpu_memory_utilization %.2f (weights %s, KV cache %s)."),
                     r.instances, r.tp, WithThousands(r.batch).c_str(), r.utilization, GibText(r.weight_bytes).c_str(),
                     GibText(r.kv_bytes).c_str())
                  .c_str());
  }
}

void DrawGpuFitTable(const engine::Estimate& e, float scale) {
  const ImGuiTableFlags flags = ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerH | ImGuiTableFlags_SizingStretchProp;
  // On a narrow page the figures' columns shrink to their text and the names wrap.
  const float figures_scale = TooNarrowForColumns(scale) ? 0.8f * scale : scale;
  if (!ImGui::BeginTable("fits", 4, flags)) return;
  ImGui::TableSetupColumn(L("GPU"), ImGuiTableColumnFlags_WidthStretch);
  ImGui::TableSetupColumn(L("Memory"), ImGuiTableColumnFlags_WidthFixed, 90 * figures_scale);
  ImGui::TableSetupColumn(L("Fits?"), ImGuiTableColumnFlags_WidthFixed, 110 * figures_scale);
  ImGui::TableSetupColumn(L("Headroom"), ImGuiTableColumnFlags_WidthFixed, 100 * figures_scale);
  TableHeadersRowFitted();
  for (const engine::GpuFit& f : e.fit_by_gpu) {
    ImGui::TableNextRow();
    ImGui::TableSetColumnIndex(0);
    WrappedText(f.name.c_str());
    ImGui::TableSetColumnIndex(1);
    ImGui::TextUnformatted(GibText(f.capacity_bytes).c_str());
    ImGui::TableSetColumnIndex(2);
    ImGui::PushStyleColor(ImGuiCol_Text, f.fits ? Colors().ok : Colors().bad);
    ImGui::Text("%s %s", f.fits ? "\u2713" : "\u2717", f.fits ? T("fits") : T("too small"));
    ImGui::PopStyleColor();
    ImGui::TableSetColumnIndex(3);
    ImGui::TextUnformatted(GibText(f.capacity_bytes - f.need_bytes).c_str());
  }
  ImGui::EndTable();
}

void DrawWarnings(const engine::Estimate& e) {
  for (const engine::Warning& w : e.warnings) {
    if (w.code == "does_not_fit") continue;  // the verdict already says so
    ImGui::PushStyleColor(ImGuiCol_Text, Colors().warn);
    ImGui::Bullet();
    WrappedText(WarningText(w).c_str());
    ImGui::PopStyleColor();
  }
}

}  // namespace

void DrawResultsDetails(AppState& state, const Fonts& fonts) {
  if (!state.last_good) return;
  const engine::Estimate& e = *state.last_good;
  DrawSequenceSection(state, e, fonts);
  Heading(T("Memory per GPU"), fonts);
  DrawMemoryBar(e, state.dpi_scale);
  DrawTermTable(e, state.dpi_scale);
  const engine::Training& training = state.inputs.scenario.training;
  const engine::Framework framework = state.inputs.scenario.parallel.framework;
  DrawRoleTable(e, state.dpi_scale);
  MutedText(AccuracyNote(AccuracyMetric::kMemory, training, framework).c_str());
  DrawWarnings(e);
  DrawPlanSection(state, fonts);
  DrawSpeedSection(e, fonts, state.dpi_scale);
  MutedText(AccuracyNote(AccuracyMetric::kThroughput, training, framework).c_str());
  DrawTimeSection(e, fonts, state.dpi_scale);
  DrawServerSection(e, fonts, state.dpi_scale);
  DrawRentBuySection(state, e, fonts);
  DrawChecklistSection(e, fonts);
  Heading(T("Which GPUs fit this plan"), fonts);
  DrawGpuFitTable(e, state.dpi_scale);
  DrawGpuCompareSection(state, fonts);
  ImGui::Spacing();
  DrawExportSection(state, fonts);
  DrawAssumptionsSection(state, fonts);
}

}  // namespace ui
