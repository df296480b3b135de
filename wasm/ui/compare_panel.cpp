// Side-by-side accelerators from the catalog (sortable), with the seed table's wrong
// figures marked, and the pre-order checklist answered for the current plan.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "app.h"
#include "format.h"
#include "i18n.h"
#include "widgets.h"

namespace ui {
namespace {

enum Column { kName, kMemory, kBandwidth, kBf16, kFp8, kPrice, kExport, kColumns };

double SortValue(const engine::GpuSpec& g, int column) {
  switch (column) {
    case kMemory: return g.memory_bytes;
    case kBandwidth: return g.memory_bandwidth_bytes_per_s;
    case kBf16: return g.bf16_flops;
    case kFp8: return g.fp8_flops;
    case kPrice: return g.price_new_usd > 0 ? g.price_new_usd : 1e18;  // unknown prices last
    case kExport: return g.export_restricted_cn ? 1 : 0;
    default: return 0;
  }
}

void SortRows(std::vector<const engine::GpuSpec*>& rows) {
  ImGuiTableSortSpecs* specs = ImGui::TableGetSortSpecs();
  if (specs == nullptr || specs->SpecsCount == 0) return;
  const ImGuiTableColumnSortSpecs& s = specs->Specs[0];
  const bool ascending = s.SortDirection == ImGuiSortDirection_Ascending;
  std::stable_sort(rows.begin(), rows.end(), [&](const engine::GpuSpec* a, const engine::GpuSpec* b) {
    if (s.ColumnIndex == kName) return ascending ? a->name < b->name : a->name > b->name;
    const double x = SortValue(*a, s.ColumnIndex), y = SortValue(*b, s.ColumnIndex);
    return ascending ? x < y : x > y;
  });
}

std::string Tflops(double flops) {
  if (flops <= 0) return "–";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.0f", flops / 1e12);
  return buf;
}

void DrawRow(const engine::GpuSpec& g) {
  ImGui::TableNextRow();
  ImGui::TableSetColumnIndex(kName);
  ImGui::TextUnformatted(g.name.c_str());
  if (!g.seed_correction.empty()) {
    ImGui::SameLine();
    ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(Colors().bad), "%s", T("(seed wrong)"));
    if (ImGui::IsItemHovered()) {
      ImGui::BeginTooltip();
      ImGui::PushTextWrapPos(ImGui::GetFontSize() * 30);
      WrappedText(TranslateMessage(g.seed_correction).c_str());
      ImGui::PopTextWrapPos();
      ImGui::EndTooltip();
    }
  }
  ImGui::TableSetColumnIndex(kMemory);
  ImGui::TextUnformatted(GibText(g.memory_bytes).c_str());
  ImGui::TableSetColumnIndex(kBandwidth);
  ImGui::Text("%.2f TB/s", g.memory_bandwidth_bytes_per_s / 1e12);
  ImGui::TableSetColumnIndex(kBf16);
  ImGui::TextUnformatted(Tflops(g.bf16_flops).c_str());
  ImGui::TableSetColumnIndex(kFp8);
  ImGui::TextUnformatted(Tflops(g.fp8_flops).c_str());
  ImGui::TableSetColumnIndex(kPrice);
  ImGui::TextUnformatted(g.price_new_usd > 0 ? ("$" + WithThousands(std::llround(g.price_new_usd))).c_str() : "–");
  ImGui::TableSetColumnIndex(kExport);
  ImGui::TextUnformatted(g.export_restricted_cn ? T("restricted (CN)") : "–");
  if (ImGui::IsItemHovered() && !g.export_note_cn.empty()) {
    ImGui::SetTooltip("%s", TranslateMessage(g.export_note_cn).c_str());
  }
}

ImU32 StatusColor(engine::CheckStatus s) {
  switch (s) {
    case engine::CheckStatus::kOk: return Colors().ok;
    case engine::CheckStatus::kAttention: return Colors().warn;
    case engine::CheckStatus::kProblem: return Colors().bad;
  }
  return Colors().ok;
}

}  // namespace

void DrawGpuCompareSection(const AppState& state, const Fonts& fonts) {
  Heading(T("Compare accelerators"), fonts);
  if (!ImGui::CollapsingHeader(L("All catalog GPUs: memory, bandwidth, dense TFLOPS, price, export status"))) return;
  const float scale = state.dpi_scale;
  const ImGuiTableFlags flags = ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerH | ImGuiTableFlags_Sortable |
                                ImGuiTableFlags_SizingStretchProp | ImGuiTableFlags_ScrollY;
  if (!ImGui::BeginTable("compare", kColumns, flags, ImVec2(0, 380 * scale))) return;
  ImGui::TableSetupScrollFreeze(0, 1);
  ImGui::TableSetupColumn(L("GPU"), ImGuiTableColumnFlags_WidthStretch | ImGuiTableColumnFlags_DefaultSort, 2.6f);
  ImGui::TableSetupColumn(L("Memory"), ImGuiTableColumnFlags_WidthStretch, 0.9f);
  ImGui::TableSetupColumn(L("Bandwidth"), ImGuiTableColumnFlags_WidthStretch, 1.0f);
  ImGui::TableSetupColumn("BF16 TFLOPS", ImGuiTableColumnFlags_WidthStretch, 0.9f);
  ImGui::TableSetupColumn("FP8 TFLOPS", ImGuiTableColumnFlags_WidthStretch, 0.9f);
  ImGui::TableSetupColumn(L("New price"), ImGuiTableColumnFlags_WidthStretch, 0.9f);
  ImGui::TableSetupColumn(L("Export"), ImGuiTableColumnFlags_WidthStretch, 1.0f);
  ImGui::TableHeadersRow();
  std::vector<const engine::GpuSpec*> rows;
  for (const engine::GpuSpec& g : state.catalog->gpus) rows.push_back(&g);
  SortRows(rows);
  for (const engine::GpuSpec* g : rows) DrawRow(*g);
  ImGui::EndTable();
  MutedText(T("Dense tensor TFLOPS (no 2:4 sparsity); GeForce BF16 at FP32 accumulate. Hover a mark for the "
              "datasheet value the seed table got wrong."));
}

void DrawChecklistSection(const engine::Estimate& e, const Fonts& fonts) {
  Heading(T("Before you order"), fonts);
  for (const engine::CheckItem& c : e.checklist) {
    ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(StatusColor(c.status)), "\u25CF");
    ImGui::SameLine();
    ImGui::PushFont(fonts.heading);
    ImGui::TextUnformatted(TranslateMessage(c.topic).c_str());
    ImGui::PopFont();
    ImGui::Indent();
    WrappedText(TranslateMessage(c.answer).c_str());
    ImGui::Unindent();
  }
}

}  // namespace ui
