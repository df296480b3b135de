// Side-by-side accelerators from the catalog (sortable), with the seed table's wrong
// figures marked, and the pre-order checklist answered for the current plan.
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "app.h"
#include "format.h"
#include "i18n.h"
#include "local_text.h"
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

using Cells = std::array<std::string, kColumns>;

// Every cell's text as drawn (the name without its "seed wrong" mark); the same strings
// size the columns.
Cells CellTexts(const engine::GpuSpec& g) {
  Cells c;
  c[kName] = g.name;
  c[kMemory] = GibText(g.memory_bytes);
  c[kBandwidth] = Printf("%.2f TB/s", g.memory_bandwidth_bytes_per_s / 1e12);
  c[kBf16] = Tflops(g.bf16_flops);
  c[kFp8] = Tflops(g.fp8_flops);
  // Catalog list prices are US dollars, shown as such whatever the page's currency.
  c[kPrice] = g.price_new_usd > 0 ? "$" + WithThousands(std::round(g.price_new_usd)) : "–";
  c[kExport] = g.export_restricted_cn ? T("restricted") : "–";
  return c;
}

// The TFLOPS and export headers take two lines, so that no header is much wider than its figures.
std::array<std::string, kColumns> Headers() {
  return {L("GPU"), L("Memory"), L("Bandwidth"), "BF16\nTFLOPS", "FP8\nTFLOPS", L("New price"),
          Printf("%s\n%s###export", T("Export"), T("to China"))};
}

// The width each column needs for its header (with the sort arrow) and its widest cell (a
// "seed wrong" mark goes under the name when it does not fit beside it).
std::array<float, kColumns> ContentWidths(const std::vector<const engine::GpuSpec*>& rows,
                                          const std::array<std::string, kColumns>& headers) {
  const ImGuiStyle& style = ImGui::GetStyle();
  const float arrow = ImGui::GetFontSize() * 0.65f + style.FramePadding.x;  // as ImGui::TableHeader
  std::array<float, kColumns> widths{};
  for (int c = 0; c < kColumns; ++c) widths[c] = ImGui::CalcTextSize(headers[c].c_str(), nullptr, true).x + arrow;
  for (const engine::GpuSpec* g : rows) {
    const Cells cells = CellTexts(*g);
    for (int c = 0; c < kColumns; ++c) widths[c] = std::max(widths[c], ImGui::CalcTextSize(cells[c].c_str()).x);
  }
  return widths;
}

// The "seed wrong" mark after a GPU's name (on a line of its own when the name fills the
// cell), with the datasheet value on hover.
void SeedMark(const engine::GpuSpec& g, bool same_line) {
  if (g.seed_claim.empty()) return;
  if (same_line) ImGui::SameLine();
  ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(Colors().bad), "%s", T("(often misquoted)"));
  if (!ImGui::IsItemHovered()) return;
  ImGui::BeginTooltip();
  ImGui::PushTextWrapPos(ImGui::GetFontSize() * 30);
  WrappedText(MessageText("catalog.seed_correction",
                          {engine::TextArg("claim", Local(g.seed_claim)), engine::TextArg("correct", Local(g.seed_datasheet))})
                  .c_str());
  ImGui::PopTextWrapPos();
  ImGui::EndTooltip();
}

void DrawRow(const engine::GpuSpec& g) {
  const Cells cells = CellTexts(g);
  ImGui::TableNextRow();
  ImGui::TableSetColumnIndex(kName);
  const float cell_width = ImGui::GetContentRegionAvail().x;
  const float mark_width = ImGui::GetStyle().ItemSpacing.x + ImGui::CalcTextSize(T("(often misquoted)")).x;
  const float name_width = ImGui::CalcTextSize(g.name.c_str()).x;
  WrappedText(g.name.c_str());  // long names wrap when the pane is narrow
  SeedMark(g, name_width + mark_width <= cell_width);
  for (int c = kName + 1; c < kColumns; ++c) {
    ImGui::TableSetColumnIndex(c);
    ImGui::TextUnformatted(cells[c].c_str());
  }
  if (ImGui::IsItemHovered() && !g.export_note_cn.empty()) {  // the export column, drawn last
    ImGui::SetTooltip("%s", Local(g.export_note_cn).c_str());
  }
}

// Column widths for a pane `avail` wide: every column as wide as its widest text, the GPU
// column giving way (its names wrap) down to a floor; the widths may add up to more than
// `avail`, and the table then scrolls sideways.
std::array<float, kColumns> FitWidths(std::array<float, kColumns> widths, float avail, float scale) {
  const float padding = 2 * ImGui::GetStyle().CellPadding.x + 2;  // each column's, as ImGui's tables
  float others = 0;
  for (int c = kName + 1; c < kColumns; ++c) others += widths[c] + padding;
  const float floor = std::min(widths[kName], 180 * scale);
  widths[kName] = std::clamp(avail - others - padding, floor, widths[kName]);
  return widths;
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
  const char* label = FittingLabel(T("All catalog GPUs: memory, bandwidth, dense TFLOPS, price, export status"),
                                   T("All catalog GPUs"));
  if (!ImGui::CollapsingHeader(Printf("%s###all_gpus", label).c_str())) return;
  std::vector<const engine::GpuSpec*> rows;
  for (const engine::GpuSpec& g : state.catalog->gpus) rows.push_back(&g);
  const std::array<std::string, kColumns> headers = Headers();
  // Columns share out the pane's width in proportion to what they hold, and never get
  // less: a pane narrower than the table scrolls sideways instead of cutting text off.
  const ImGuiStyle& style = ImGui::GetStyle();
  const float avail = ImGui::GetContentRegionAvail().x - style.ScrollbarSize;
  const std::array<float, kColumns> widths = FitWidths(ContentWidths(rows, headers), avail, state.dpi_scale);
  float needed = 0;
  for (float w : widths) needed += w + 2 * style.CellPadding.x + 2;
  const float inner_width = std::max(needed, avail);
  const ImGuiTableFlags flags = ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerH | ImGuiTableFlags_Sortable |
                                ImGuiTableFlags_SizingStretchProp | ImGuiTableFlags_ScrollX | ImGuiTableFlags_ScrollY;
  if (!ImGui::BeginTable("compare", kColumns, flags, ImVec2(0, 380 * state.dpi_scale), inner_width)) return;
  ImGui::TableSetupScrollFreeze(1, 1);
  for (int c = 0; c < kColumns; ++c) {
    const ImGuiTableColumnFlags sort = c == kName ? ImGuiTableColumnFlags_DefaultSort : 0;
    ImGui::TableSetupColumn(headers[c].c_str(), ImGuiTableColumnFlags_WidthStretch | sort, widths[c]);
  }
  TableHeadersRowFitted();
  SortRows(rows);
  for (const engine::GpuSpec* g : rows) DrawRow(*g);
  ImGui::EndTable();
  MutedText(T("Dense tensor TFLOPS (no 2:4 sparsity); GeForce BF16 at FP32 accumulate. Hover a mark for the "
              "datasheet value that a widely shared spec table gets wrong."));
}

void DrawChecklistSection(const engine::Estimate& e, const Fonts& fonts) {
  Heading(T("Before you order"), fonts);
  for (const engine::CheckItem& c : e.checklist) {
    ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(StatusColor(c.status)), "\u25CF");
    ImGui::SameLine();
    ImGui::PushFont(fonts.heading);
    ImGui::TextUnformatted(MessageText(c.topic).c_str());
    ImGui::PopFont();
    ImGui::Indent();
    WrappedText(MessageText(c.answer).c_str());
    ImGui::Unindent();
  }
}

}  // namespace ui
