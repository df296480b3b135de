// The Assumptions panel: every figure from outside the user's inputs that the answer rests
// on (hardware efficiency, facility and ownership figures, cloud and server prices,
// exchange rates, memory overheads), with its source and date, and editable. Edits go
// into the catalog overlay, so the engine reads them exactly like catalog data.
#include <cstdio>
#include <iterator>
#include <utility>
#include <string>

#include "app.h"
#include "engine/dates.h"
#include "engine/efficiency.h"
#include "format.h"
#include "i18n.h"
#include "local_text.h"
#include "widgets.h"

namespace ui {
namespace {

// The facility figures the ownership cost reads (engine/cost_model.cpp AssumptionsFromCatalog).
constexpr const char* kOwnershipFigures[] = {"pue-typical",        "electricity-us",           "colocation-us",
                                             "depreciation-years", "resale-fraction-5y",       "maintenance-rate",
                                             "network-storage-fraction", "install-fraction", "sustained-power-fraction"};

std::string Text(const engine::contract::Json& entry, const char* field) {
  if (!entry.is_object() || !entry.contains(field) || !entry[field].is_string()) return "";
  return entry[field].get<std::string>();
}

// A catalog entry's confidence: the common levels translated, a qualified one as written.
const char* ConfidenceText(const std::string& confidence) {
  if (confidence == "high") return T("high");
  if (confidence == "medium-high") return T("medium-high");
  if (confidence == "medium") return T("medium");
  if (confidence == "low-medium") return T("low-medium");
  if (confidence == "low") return T("low");
  return confidence.c_str();
}

// Hover card for a catalog figure: its source, date, confidence and notes.
void SourceTooltip(const engine::contract::Json& entry) {
  if (!ImGui::IsItemHovered() || !entry.is_object()) return;
  std::string what = Text(entry, "notes");
  const std::string confidence = Text(entry, "confidence");
  if (!confidence.empty()) what += (what.empty() ? "" : "\n") + std::string(T("Confidence:")) + " " + ConfidenceText(confidence);
  std::string source = Text(entry, "source");
  const std::string date = Text(entry, "source_date").empty() ? Text(entry, "price_date") : Text(entry, "source_date");
  if (!date.empty()) source += " (" + date + ")";
  FormulaTooltip(what.empty() ? T("Catalog figure") : what.c_str(), source.c_str());
}

// An editable number; true (with *value changed) once the user commits an edit.
bool FigureInput(const char* id, double* value, const char* format) {
  ImGui::SetNextItemWidth(-FLT_MIN);
  ImGui::InputDouble(id, value, 0, 0, format);
  return ImGui::IsItemDeactivatedAfterEdit();
}

bool BeginFigureTable(const char* id, int columns) {
  return ImGui::BeginTable(id, columns,
                           ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerH | ImGuiTableFlags_SizingStretchProp);
}

void DrawEfficiency(AppState& state, const engine::GpuSpec& gpu, const Fonts& fonts) {
  const engine::Efficiency eff = engine::BaseEfficiency(gpu, state.inputs.scenario.training);
  Heading(T("Hardware efficiency"), fonts);
  char line[240];
  std::snprintf(line, sizeof line, T("%s: large GEMMs reach %.0f%% of peak, FlashAttention %.0f%%, memory-bound kernels %.0f%% of HBM bandwidth."),
                gpu.name.c_str(), eff.gemm * 100, eff.attention * 100, eff.memory * 100);
  WrappedText(line);
  if (ImGui::IsItemHovered()) {
    FormulaTooltip(MessageText(eff.basis).c_str(), T("engine/efficiency.cpp, calibrated on 34 published runs."));
  }
  // Editable at the bf16 base the catalog entry stores: fp8 and eager attention scale it.
  const engine::Efficiency base = engine::BaseEfficiency(gpu, engine::Training{});
  const std::pair<const char*, double> figures[] = {{"gemm_efficiency", base.gemm},
                                                    {"attention_efficiency", base.attention},
                                                    {"memory_efficiency", base.memory}};
  const char* labels[] = {T("GEMM efficiency (bf16, % of peak)"), T("Attention efficiency (% of bf16 peak)"),
                          T("Memory-bound kernels (% of HBM bandwidth)")};
  for (size_t i = 0; i < std::size(figures); ++i) {
    double percent = figures[i].second * 100;
    ImGui::AlignTextToFramePadding();
    ImGui::TextUnformatted(labels[i]);
    ImGui::SameLine();
    ImGui::SetNextItemWidth(120 * state.dpi_scale);
    ImGui::PushID(figures[i].first);
    ImGui::InputDouble("##eff", &percent, 0, 0, "%.0f");
    if (ImGui::IsItemDeactivatedAfterEdit() && percent >= 1 && percent <= 100) {
      EditAssumption(state, "gpus", gpu.id, figures[i].first, percent / 100);
    }
    ImGui::PopID();
  }
  double mfu_percent = state.inputs.scenario.training.mfu * 100;
  ImGui::AlignTextToFramePadding();
  ImGui::TextUnformatted(T("Your MFU (%, 0 = predicted)"));
  ImGui::SameLine();
  ImGui::SetNextItemWidth(120 * state.dpi_scale);
  ImGui::InputDouble("##mfu", &mfu_percent, 0, 0, "%.1f");
  if (ImGui::IsItemDeactivatedAfterEdit()) {
    state.inputs.scenario.training.mfu = mfu_percent / 100;
    state.dirty = true;
  }
  if (ImGui::IsItemHovered()) {
    ImGui::SetTooltip("%s", T("Replaces the predicted speed: step time = tokens per step × model FLOPs per token / "
                              "(GPUs × peak × MFU). Use a figure measured on your own cluster."));
  }
}

// The share of the time owned GPUs are busy: the user's own figure, not the catalog's.
void DrawUtilizationRow(AppState& state, bool narrow) {
  ImGui::TableNextRow();
  ImGui::TableNextColumn();
  WrappedText(T("Utilization of owned GPUs"));
  if (ImGui::IsItemHovered()) {
    FormulaTooltip(T("A job's share of owning = fixed cost per hour / utilization + power per used hour."),
                   T("docs/model.md §8; 70% is a well-run shared cluster."));
  }
  if (narrow) MutedText("%");
  ImGui::TableNextColumn();
  double utilization_percent = state.goal.own_utilization * 100;
  if (FigureInput("##utilization", &utilization_percent, "%.0f") && utilization_percent >= 5 &&
      utilization_percent <= 100) {
    state.goal.own_utilization = utilization_percent / 100;
    state.dirty = true;
  }
  if (!narrow) {
    ImGui::TableNextColumn();
    ImGui::TextUnformatted("%");
  }
}

void DrawOwnership(AppState& state, const Fonts& fonts) {
  Heading(T("Owning: facility and depreciation"), fonts);
  const bool narrow = TooNarrowForColumns(state.dpi_scale);
  if (!BeginFigureTable("ownership", narrow ? 2 : 3)) return;
  ImGui::TableSetupColumn(L("Figure"), ImGuiTableColumnFlags_WidthStretch, 2.0f);
  ImGui::TableSetupColumn(L("Value"), ImGuiTableColumnFlags_WidthStretch, narrow ? 1.0f : 0.8f);
  if (!narrow) ImGui::TableSetupColumn(L("Unit"), ImGuiTableColumnFlags_WidthStretch, 1.4f);
  TableHeadersRowFitted();
  for (const char* id : kOwnershipFigures) {
    const engine::FacilityFigure* figure = state.catalog->FindFacility(id);
    if (figure == nullptr) continue;
    ImGui::TableNextRow();
    ImGui::TableNextColumn();
    WrappedText(Local(figure->name).c_str());
    SourceTooltip(BuiltInEntry("facility", id));
    const std::string& unit = Local(figure->unit);
    if (narrow) MutedText(unit.c_str());  // under the name: no room for a column of its own
    ImGui::TableNextColumn();
    double value = figure->value;
    ImGui::PushID(id);
    if (FigureInput("##v", &value, "%.4g")) EditAssumption(state, "facility", id, "value", value);
    ImGui::PopID();
    if (!narrow) {
      ImGui::TableNextColumn();
      WrappedText(unit.c_str());
    }
  }
  DrawUtilizationRow(state, narrow);
  ImGui::EndTable();
}

// The price date and confidence columns of a price table (none when narrow).
void SetupDateAndConfidenceColumns(bool narrow) {
  if (narrow) return;
  ImGui::TableSetupColumn(L("Price date"), ImGuiTableColumnFlags_WidthStretch, 0.8f);
  ImGui::TableSetupColumn(L("Confidence"), ImGuiTableColumnFlags_WidthStretch, 1.2f);
}

// A price's date and confidence: their own columns, or a muted line under the name when
// narrow. A price seen over a year before the catalog's date, or undated, says so in the
// warning colour (issue 19).
void DateAndConfidence(const AppState& state, const std::string& date, const std::string& confidence, bool narrow) {
  const bool stale = engine::PriceIsStale(date, state.catalog->date);
  const std::string when = date.empty() ? T("unknown date") : stale ? Printf(T("%s (over a year old)"), date.c_str()) : date;
  const bool colored = stale || narrow;
  if (colored) ImGui::PushStyleColor(ImGuiCol_Text, stale ? Colors().warn : Colors().muted);
  if (narrow) {
    WrappedText(Printf(T("%s, confidence: %s"), when.c_str(), ConfidenceText(confidence)).c_str());
  } else {
    ImGui::TableNextColumn();
    WrappedText(when.c_str());
  }
  if (colored) ImGui::PopStyleColor();
  if (narrow) return;
  ImGui::TableNextColumn();
  WrappedText(ConfidenceText(confidence));
}

void DrawCloudOffer(AppState& state, const engine::CloudOffer& offer, bool narrow) {
  ImGui::PushID(offer.id.c_str());
  ImGui::TableNextRow();
  ImGui::TableNextColumn();
  WrappedText(Printf("%s %s (%d× %s)", offer.provider_name.c_str(), offer.instance.c_str(), offer.gpus,
                     offer.currency.c_str()).c_str());
  SourceTooltip(BuiltInEntry("offers", offer.id));
  if (narrow) DateAndConfidence(state, offer.price_date, offer.confidence, narrow);
  ImGui::TableNextColumn();
  double on_demand = offer.on_demand_per_hour;
  if (FigureInput("##od", &on_demand, "%.2f") && on_demand >= 0) {
    EditAssumption(state, "offers", offer.id, "on_demand_per_hour", on_demand);
  }
  ImGui::TableNextColumn();
  double spot = offer.spot_per_hour;
  if (FigureInput("##spot", &spot, "%.2f") && spot >= 0) EditAssumption(state, "offers", offer.id, "spot_per_hour", spot);
  if (!narrow) DateAndConfidence(state, offer.price_date, offer.confidence, narrow);
  ImGui::PopID();
}

void DrawCloudPrices(AppState& state, const engine::GpuSpec& gpu, const Fonts& fonts) {
  Heading(T("Cloud prices for this GPU"), fonts);
  const bool narrow = TooNarrowForColumns(state.dpi_scale);
  if (!BeginFigureTable("cloud_prices", narrow ? 3 : 5)) return;
  ImGui::TableSetupColumn(L("Offer"), ImGuiTableColumnFlags_WidthStretch, 2.0f);
  ImGui::TableSetupColumn(L("On demand /h"), ImGuiTableColumnFlags_WidthStretch, 0.9f);
  ImGui::TableSetupColumn(L("Spot /h"), ImGuiTableColumnFlags_WidthStretch, 0.9f);
  SetupDateAndConfidenceColumns(narrow);
  TableHeadersRowFitted();
  int shown = 0;
  for (const engine::CloudOffer& offer : state.catalog->offers) {
    if (offer.gpu_id != gpu.id) continue;
    ++shown;
    DrawCloudOffer(state, offer, narrow);
  }
  ImGui::EndTable();
  if (shown == 0) MutedText(T("The catalog has no cloud offer for this GPU."));
}

void DrawServerPrices(AppState& state, const engine::GpuSpec& gpu, const Fonts& fonts) {
  Heading(T("Server prices for this GPU"), fonts);
  const bool narrow = TooNarrowForColumns(state.dpi_scale);
  int shown = 0;
  if (!BeginFigureTable("server_prices", narrow ? 2 : 4)) return;
  ImGui::TableSetupColumn(L("Server"), ImGuiTableColumnFlags_WidthStretch, 2.2f);
  ImGui::TableSetupColumn(L("New, USD"), ImGuiTableColumnFlags_WidthStretch, 1.0f);
  SetupDateAndConfidenceColumns(narrow);
  TableHeadersRowFitted();
  for (const engine::ServerOption& server : state.catalog->servers) {
    if (server.gpu_id != gpu.id) continue;
    ++shown;
    ImGui::PushID(server.id.c_str());
    ImGui::TableNextRow();
    ImGui::TableNextColumn();
    WrappedText(server.name.c_str());
    SourceTooltip(BuiltInEntry("servers", server.id));
    if (narrow) DateAndConfidence(state, server.price_date, server.confidence, narrow);
    ImGui::TableNextColumn();
    double price = server.price_usd_new;
    if (FigureInput("##new", &price, "%.0f") && price >= 0) EditAssumption(state, "servers", server.id, "price_usd_new", price);
    if (!narrow) DateAndConfidence(state, server.price_date, server.confidence, narrow);
    ImGui::PopID();
  }
  ImGui::EndTable();
  if (shown == 0) MutedText(T("No server for this GPU in the catalog: owning is priced from the GPU's list price."));
}

void DrawExchangeRates(AppState& state, const Fonts& fonts) {
  Heading(T("Exchange rates"), fonts);
  for (const engine::CurrencyRate& rate : state.catalog->currencies) {
    ImGui::PushID(rate.code.c_str());
    ImGui::AlignTextToFramePadding();
    ImGui::Text(T("%s per US dollar (%s)"), rate.code.c_str(), rate.date.c_str());
    SourceTooltip(BuiltInEntry("rates", rate.code));
    ImGui::SameLine();
    double per_usd = rate.per_usd;
    ImGui::SetNextItemWidth(120 * state.dpi_scale);
    ImGui::InputDouble("##rate", &per_usd, 0, 0, "%.4f");
    if (ImGui::IsItemDeactivatedAfterEdit() && per_usd > 0) EditAssumption(state, "rates", rate.code, "per_usd", per_usd);
    ImGui::PopID();
  }
}

void DrawMemoryOverheads(const engine::Estimate& e, const Fonts& fonts) {
  Heading(T("Memory overheads"), fonts);
  const engine::OverheadParts& o = e.memory.overhead_parts;
  char line[200];
  std::snprintf(line, sizeof line, T("CUDA context %s, NCCL buffers %s, allocator fragmentation %s per GPU."),
                GibText(o.cuda_context_bytes).c_str(), GibText(o.nccl_bytes).c_str(),
                GibText(o.fragmentation_bytes).c_str());
  WrappedText(line);
  if (ImGui::IsItemHovered()) {
    const engine::MemoryTerm& overhead = e.memory.overhead;
    FormulaTooltip(MessageText(overhead.formula).c_str(), MessageText(overhead.source).c_str());
  }
}

}  // namespace

void DrawAssumptionsSection(AppState& state, const Fonts& fonts) {
  ImGui::PushFont(fonts.heading);
  const char* label = FittingLabel(T("Assumptions: efficiency, overheads, prices and their dates"),
                                   T("Assumptions and their sources"));
  const bool open = ImGui::CollapsingHeader(Printf("%s###assumptions", label).c_str());
  ImGui::PopFont();
  if (!open) return;
  MutedText(T("Every figure below comes from the catalog or a calibration, with its source and date on hover. "
              "Edit any of them: the whole page recomputes with your figures."));
  if (!state.assumption_edits.empty()) {
    if (ImGui::SmallButton(L("Reset to the catalog's figures"))) ResetAssumptions(state);
  }
  const engine::GpuSpec* gpu = state.catalog->FindGpu(state.inputs.scenario.gpu_id);
  if (gpu != nullptr) DrawEfficiency(state, *gpu, fonts);
  if (state.last_good) DrawMemoryOverheads(*state.last_good, fonts);
  if (gpu != nullptr) DrawCloudPrices(state, *gpu, fonts);
  if (gpu != nullptr) DrawServerPrices(state, *gpu, fonts);
  DrawOwnership(state, fonts);
  DrawExchangeRates(state, fonts);
  if (const std::string status = OverlayStatusText(state); !status.empty()) MutedText(status.c_str());
}

}  // namespace ui
