// Speed, time, reliability and the server bill of materials for the current plan.
#include <algorithm>
#include <array>
#include <cstdio>
#include <string>
#include <vector>
#include <cmath>

#include "app.h"
#include "format.h"
#include "i18n.h"
#include "local_text.h"
#include "widgets.h"

namespace ui {
namespace {

// The step bar's legend, one "● part time" item after another, wrapping to a new line
// before an item that would run past `right_x`.
void DrawStepLegend(const std::array<std::pair<const char*, double>, 5>& parts, float right_x, float scale) {
  const float gap = 18 * scale;
  const float dot_width = ImGui::CalcTextSize("\u25CF").x + ImGui::GetStyle().ItemSpacing.x;
  bool first = true;
  for (size_t i = 0; i < parts.size(); ++i) {
    if (parts[i].second <= 0) continue;
    const std::string text = Printf("%s %s", parts[i].first, SecondsText(parts[i].second).c_str());
    if (!first) {
      const float next_right = ImGui::GetItemRectMax().x + gap + dot_width + ImGui::CalcTextSize(text.c_str()).x;
      if (next_right <= right_x) ImGui::SameLine(0, gap);
    }
    first = false;
    ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(TermColor(int(i == 0 ? 0 : i + 1))), "\u25CF");
    ImGui::SameLine();
    ImGui::TextUnformatted(text.c_str());
  }
}

// Stacked bar of where a step's time goes, part by part.
void DrawPartsBar(const std::array<std::pair<const char*, double>, 5>& parts, double step_s, float scale) {
  ImDrawList* draw = ImGui::GetWindowDrawList();
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  const float width = ImGui::GetContentRegionAvail().x;
  const float height = 22 * scale;
  float x = origin.x;
  for (size_t i = 0; i < parts.size(); ++i) {
    const float w = step_s > 0 ? float(parts[i].second / step_s) * width : 0;
    if (w <= 0) continue;
    const ImVec2 a(x, origin.y), c(x + w, origin.y + height);
    draw->AddRectFilled(a, c, TermColor(int(i == 0 ? 0 : i + 1)));
    if (ImGui::IsMouseHoveringRect(a, c)) {
      ImGui::SetTooltip("%s: %s (%.0f%%)", parts[i].first, SecondsText(parts[i].second).c_str(),
                        100 * parts[i].second / step_s);
    }
    x += w;
  }
  ImGui::Dummy(ImVec2(width, height + 4 * scale));
  DrawStepLegend(parts, origin.x + width, scale);
}

// A training step: compute, communication, bubble and the rest.
void DrawStepBar(const engine::StepBreakdown& b, double step_s, float scale) {
  DrawPartsBar({{{T("Compute"), b.compute_s},
                 {T("Tensor-parallel comm"), b.tp_comm_s},
                 {T("Data-parallel comm (exposed)"), b.dp_comm_s},
                 {T("Pipeline bubble"), b.pp_bubble_s},
                 {T("Optimizer, offload, other"), b.other_s}}},
               step_s, scale);
}

// A post-training step: its phases in turn (docs/model.md §12.3), with the rates a team
// plans by: prompts per hour and the generation's share.
void DrawPostTrainingStep(const engine::PostTrainingStep& p, float scale) {
  DrawPartsBar({{{T("Generation (rollout)"), p.generation_s},
                 {T("Reference, reward and old log-prob passes"), p.forward_s},
                 {T("Policy update"), p.policy_update_s},
                 {T("Critic update"), p.critic_update_s},
                 {T("Weight sync and switching"), p.weight_sync_s}}},
               p.total_s, scale);
  const double prompts_per_hour = p.total_s > 0 ? p.prompts * 3600 / p.total_s : 0;
  MutedText(Printf(T("%s prompts per hour (%s per step of %s); generation takes %.0f%% of the step."),
                   WithThousands(std::round(prompts_per_hour)).c_str(), WithThousands(p.prompts).c_str(),
                   SecondsText(p.total_s).c_str(), 100 * p.GenerationShare())
                .c_str());
}

// A figure with how it was computed: hovering the row shows the formula and its source.
// Every text is already in the page's language.
struct Fact {
  const char* label;
  std::string value;
  std::string formula;  // with this plan's numbers where the engine gives them
  const char* source;
};

void DrawFacts(const char* id, const std::vector<Fact>& rows, float scale) {
  if (!ImGui::BeginTable(id, 2, ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingStretchProp)) return;
  // The labels' column gives way on a narrow page so the values keep room to wrap in.
  const float label_width = std::min(220 * scale, ImGui::GetContentRegionAvail().x * 0.45f);
  ImGui::TableSetupColumn("what", ImGuiTableColumnFlags_WidthFixed, label_width);
  ImGui::TableSetupColumn("value", ImGuiTableColumnFlags_WidthStretch);
  for (const Fact& row : rows) {
    ImGui::TableNextRow();
    ImGui::TableSetColumnIndex(0);
    ImGui::TextUnformatted(row.label);
    const bool label_hovered = ImGui::IsItemHovered();
    ImGui::TableSetColumnIndex(1);
    WrappedText(row.value.c_str());
    if ((label_hovered || ImGui::IsItemHovered()) && !row.formula.empty()) {
      FormulaTooltip(row.formula.c_str(), row.source);
    }
  }
  ImGui::EndTable();
}

std::string AmountText(const engine::BomLine& l) {
  return QuantityText(l.quantity) + " " + MessageText(l.unit);
}

// A line's reason; the network's name is catalog text.
std::string WhyText(const engine::BomLine& l) { return MessageText(l.why); }

// The bill as lines of "item: amount" over the reason, for a region too narrow for columns.
void DrawServerBlocks(const engine::Estimate& e) {
  ImGui::Separator();
  for (const engine::BomLine& l : e.server.lines) {
    WrappedText(Printf(T("%s: %s"), MessageText(l.item).c_str(), AmountText(l).c_str()).c_str());
    MutedText(WhyText(l).c_str());
    ImGui::Separator();
  }
}

}  // namespace

void DrawSpeedSection(const engine::Estimate& e, const Fonts& fonts, float scale) {
  const engine::Throughput& t = e.throughput;
  Heading(T("Speed"), fonts);
  const std::string mfu = Printf(t.mfu_overridden ? T("%.1f%% MFU, %.1f%% HFU (your MFU)") : "%.1f%% MFU, %.1f%% HFU",
                                 t.mfu * 100, t.hfu * 100);
  const char* kStepSource =
      T("Physical step model (docs/model.md §6: GEMMs at calibrated efficiency, FlashAttention, collectives over the "
        "catalog's links, pipeline bubble), checked against 34 published runs (trainsizer validate).");
  const std::string tokens_per_step = WithThousands(std::round(t.tokens_per_step));
  DrawFacts("speed",
            {{T("Tokens per second"),
              Printf(T("%s (%s per GPU)"), WithThousands(std::round(t.tokens_per_s)).c_str(),
                     WithThousands(std::round(t.tokens_per_s_per_gpu)).c_str()),
              Printf(T("tokens/s = tokens per step / step time = %s / %s"), tokens_per_step.c_str(),
                     SecondsText(t.step_time_s).c_str()),
              kStepSource},
             {T("Utilization"), mfu,
              T("MFU = tokens/s × model FLOPs per token / (GPUs × dense bf16 peak); HFU counts recomputed FLOPs too"),
              T("Chowdhery et al. 2022 (PaLM), Appendix B; Korthikanti et al. 2022 for HFU.")},
             {T("Step"), Printf(T("%s for %s tokens"), SecondsText(t.step_time_s).c_str(), tokens_per_step.c_str()),
              MessageText(t.explain), kStepSource},
             {T("Global batch"),
              Printf(t.global_batch_default ? T("%s sequences, %d micro-batches per GPU (the method's default)")
                                            : T("%s sequences, %d micro-batches per GPU"),
                     WithThousands(t.global_batch).c_str(), t.micro_batches_per_step),
              T("Without a global batch: 4M tokens a step for pre-training, 128 sequences for fine-tuning, in whole "
                "micro-batches on every data-parallel rank"),
              T("Llama 2 (Touvron et al. 2023, §2.2) and Llama 3 (2024, §3.4.1): 4M tokens; Stanford Alpaca (2023): "
                "128.")},
             {T("Model FLOPs per token"),
              Printf(T("%s (hardware %s)"), FlopsText(t.flops_per_token.model).c_str(),
                     FlopsText(t.flops_per_token.hardware).c_str()),
              T("6 × active parameters (forward 2, backward 4) + attention 6·L·s·d per token (causal: half), "
                "less the frozen weights' gradients for LoRA/freeze; hardware adds recomputation"),
              T("Kaplan et al. 2020 (C ≈ 6N); Narayanan et al. 2021 (Megatron-LM) eq. 3; Dao 2023 (causal attention).")}},
            scale);
  if (t.post.total_s > 0) {
    DrawPostTrainingStep(t.post, scale);
  } else {
    DrawStepBar(t.breakdown, t.step_time_s, scale);
  }
  if (e.network_effect.empty()) {
    MutedText(T("One node: no traffic crosses the scale-out network."));
    return;
  }
  std::string networks;  // "name 87%, name 100%" (network names are proper nouns)
  for (const engine::FabricSpeed& f : e.network_effect) {
    const std::string item = Local(f.name) + " " + std::to_string(std::lround(f.relative * 100)) + "%";
    networks = networks.empty() ? item : Printf(T("%s, %s"), networks.c_str(), item.c_str());
  }
  MutedText(Printf(T("The same plan on other networks (usual bandwidth per node): %s."), networks.c_str()).c_str());
}

void DrawTimeSection(const engine::Estimate& e, const Fonts& fonts, float scale) {
  Heading(T("Time, checkpoints and failures"), fonts);
  const engine::TrainingTime& time = e.time;
  const engine::Reliability& r = e.reliability;
  if (time.tokens <= 0) {
    ImGui::PushStyleColor(ImGuiCol_Text, Colors().muted);
    WrappedText(T("Enter the tokens to train on to see wall time, GPU-hours and expected interruptions."));
    ImGui::PopStyleColor();
  }
  std::vector<Fact> rows;
  const char* kFailureSource = T("Grattafiori et al. 2024 (Llama 3) §3.3.4: 419 interruptions in 54 days on 16,384 "
                                 "H100s = 1.97e-5 per GPU-hour; Daly 2006 for the checkpoint interval.");
  if (time.tokens > 0) {
    rows.push_back({T("Wall time"),
                    Printf(T("%s (%s with failures and checkpoints)"), HoursText(time.wall_hours).c_str(),
                           HoursText(r.wall_hours_with_failures).c_str()),
                    T("wall time = tokens / tokens per second; then ÷ goodput for checkpoint writes, lost work and "
                      "restarts"),
                    kFailureSource});
    const engine::StartupTeardown& st = e.startup;
    rows.push_back({T("Start-up and tear-down"),
                    Printf(T("%s: node %s, image %s, weights %s, data %s, NCCL %s; evaluation %s; final upload %s"),
                           HoursText(st.TotalSeconds() / 3600).c_str(), SecondsText(st.provision_s).c_str(),
                           SecondsText(st.environment_s).c_str(), SecondsText(st.weights_s).c_str(),
                           SecondsText(st.dataset_s).c_str(), SecondsText(st.nccl_s).c_str(),
                           SecondsText(st.eval_s).c_str(), SecondsText(st.upload_s).c_str()),
                    T("a cloud node started for the job; the image pulled; the starting weights downloaded and "
                      "loaded; each node's data staged; communicators joined; held-out data evaluated (forward "
                      "passes at the training rate); the result uploaded"),
                    T("Lambda: multi-GPU instances take 10-15 min to launch; NGC image ~20 GB; Hugging Face Hub "
                      "~0.5 GB/s; NCCL init ~2.5 min at thousands of GPUs (docs/model.md §7.5).")});
    rows.push_back({T("GPU-hours"), WithThousands(std::round(time.gpu_hours)), T("GPU-hours = wall time × GPUs"),
                    T("Definition.")});
    rows.push_back({T("Expected interruptions"),
                    Printf(T("%lld (job MTBF %s)"), static_cast<long long>(std::llround(r.expected_interruptions)),
                           HoursText(r.job_mtbf_hours).c_str()),
                    T("interruptions = GPUs × hours × 1.97e-5; job MTBF = 1 / (GPUs × 1.97e-5) h"), kFailureSource});
  }
  rows.push_back({T("Checkpoint"),
                  Printf(T("%s resumable, %s weights; write %s"), GbText(r.checkpoint_bytes).c_str(),
                         GbText(r.export_bytes).c_str(), SecondsText(r.checkpoint_write_s).c_str()),
                  T("resumable = weights + fp32 master + optimizer state (LoRA: adapters and their state); "
                    "write time = size / storage write bandwidth"),
                  T("Rajbhandari et al. 2020 (ZeRO) §3 for the 16 bytes/parameter of mixed-precision Adam; "
                    "write bandwidths from the catalog's storage tiers.")});
  rows.push_back({T("Checkpoint every"),
                  Printf(T("%s (Daly), goodput %lld%%"), HoursText(r.interval_hours).c_str(),
                         static_cast<long long>(std::llround(r.ettr * 100))),
                  T("interval = √(2·δ·M) − δ with δ the write time and M the job MTBF"), kFailureSource});
  DrawFacts("time", rows, scale);
}

void DrawServerSection(const engine::Estimate& e, const Fonts& fonts, float scale) {
  Heading(T("Server bill of materials"), fonts);
  if (TooNarrowForColumns(scale)) return DrawServerBlocks(e);
  const ImGuiTableFlags flags = ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerH | ImGuiTableFlags_SizingStretchProp;
  if (!ImGui::BeginTable("bom", 3, flags)) return;
  ImGui::TableSetupColumn(L("Item"), ImGuiTableColumnFlags_WidthFixed, 190 * scale);
  ImGui::TableSetupColumn(L("Amount"), ImGuiTableColumnFlags_WidthFixed, 150 * scale);
  ImGui::TableSetupColumn(L("Why"), ImGuiTableColumnFlags_WidthStretch);
  TableHeadersRowFitted();
  for (const engine::BomLine& l : e.server.lines) {
    ImGui::TableNextRow();
    ImGui::TableSetColumnIndex(0);
    WrappedText(MessageText(l.item).c_str());
    ImGui::TableSetColumnIndex(1);
    WrappedText(AmountText(l).c_str());
    ImGui::TableSetColumnIndex(2);
    WrappedText(WhyText(l).c_str());
  }
  ImGui::EndTable();
}

}  // namespace ui
