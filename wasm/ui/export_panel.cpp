// Taking the answer away: the scenario and result as JSON (the API contract), the plans as
// CSV, a Markdown report with the checklist, and ready-to-run launch configs (DeepSpeed,
// torchrun + FSDP, LLaMA-Factory, Megatron-LM) for the current layout. The texts are
// written by the same writers the CLI and the JS API use (engine/exports/export_text.h,
// launch_configs.h), from the estimate and plan the page already holds.
#include <iterator>
#include <limits>
#include <string>
#include <vector>

#include "app.h"
#include "engine/contract/json_fields.h"
#include "engine/contract/result_json.h"
#include "engine/exports/export_text.h"
#include "engine/exports/launch_configs.h"
#include "engine/exports/proposal.h"
#include "engine/post_training.h"
#include "i18n.h"
#include "widgets.h"

namespace ui {
namespace {

struct ExportKind {
  const char* label;
  bool plan;  // the plans, else the estimate
  engine::exports::ExportFormat format;
  const char* file_name;
  const char* mime;
};

constexpr ExportKind kExports[] = {
    {"Scenario and result (JSON)", false, engine::exports::ExportFormat::kJson, "trainsizer-estimate.json", "application/json"},
    {"Report (Markdown)", false, engine::exports::ExportFormat::kMarkdown, "trainsizer-report.md", "text/markdown"},
    {"Plans (CSV)", true, engine::exports::ExportFormat::kCsv, "trainsizer-plans.csv", "text/csv"},
    {"Plans (JSON)", true, engine::exports::ExportFormat::kJson, "trainsizer-plans.json", "application/json"},
    {"Proposal (Markdown, to print)", true, engine::exports::ExportFormat::kProposal, "trainsizer-proposal.md",
     "text/markdown"},
};

struct LaunchTool {
  const char* label;
  const char* key;  // in engine::exports::LaunchConfigsToJson's answer
  const char* file_name;
  engine::LaunchTool tool;
};

constexpr LaunchTool kTools[] = {
    {"DeepSpeed JSON", "deepspeed", "ds_config.json", engine::LaunchTool::kDeepSpeed},
    {"torchrun + FSDP", "torchrun", "launch_fsdp.sh", engine::LaunchTool::kTorchrun},
    {"LLaMA-Factory YAML", "llamafactory", "llamafactory.yaml", engine::LaunchTool::kLlamaFactory},
    {"ms-swift", "swift", "swift_sft.sh", engine::LaunchTool::kSwift},
    {"Megatron-LM", "megatron", "megatron_args.sh", engine::LaunchTool::kMegatron},
    {"verl (PPO, GRPO)", "verl", "verl_main_ppo.sh", engine::LaunchTool::kVerl},
    {"OpenRLHF", "openrlhf", "openrlhf.sh", engine::LaunchTool::kOpenRlhf},
    {"TRL script", "trl", "train_trl.py", engine::LaunchTool::kTrl},
};

// Launch configs for the link they were made for: recomputed only after an edit. The
// notes are kept as messages, to be drawn in the page's language.
struct LaunchCache {
  std::string for_fragment;
  engine::contract::Json answer;  // null while the inputs have an error (configs are made for a valid scenario)
  std::vector<std::vector<engine::Message>> notes;  // by engine::LaunchTool
};

const LaunchCache& LaunchConfigsFor(const AppState& state) {
  static LaunchCache cache;
  if (cache.for_fragment != state.link_fragment || cache.answer.is_null()) {
    const auto scenario = ComputedScenario(state);
    const bool valid = state.result.ok() && scenario.ok();
    // The model spec has no RoPE base; the page's models never carry a config.json's.
    const engine::GpuSpec* gpu = valid ? state.catalog->FindGpu(scenario.value().gpu_id) : nullptr;
    cache.answer = valid ? engine::exports::LaunchConfigsToJson(scenario.value(), HfRepo(state), {},
                                                                gpu != nullptr ? gpu->memory_bytes : 0)
                         : engine::contract::Json();
    cache.notes.clear();
    // The training tools' notes are of the policy's update, as their texts are.
    const engine::Scenario trained = valid ? engine::TrainedScenario(scenario.value()) : engine::Scenario{};
    for (const LaunchTool& tool : kTools) {
      cache.notes.push_back(valid ? engine::exports::LaunchConfigNotes(trained, tool.tool, {})
                                  : std::vector<engine::Message>());
    }
    cache.for_fragment = state.link_fragment;
  }
  return cache;
}

std::string PageMessageText(std::string_view id, const std::vector<engine::MessageArg>& args) {
  return MessageText(id, args);
}

// The export's text from the page's estimate or plan, or the error JSON the CLI would
// print for these inputs. A plan still being searched is finished first.
std::string ExportText(AppState& state, const ExportKind& kind) {
  const auto scenario = ComputedScenario(state);
  if (!scenario.ok()) return engine::contract::DumpJson(engine::contract::ErrorToJson(scenario.error()));
  // The goal is checked as the CLI checks it (currency, GPU ids); a plan runs even when the
  // estimate's own GPU refuses the scenario (bf16 on a T4), as the planner does.
  if (auto goal_error = engine::ValidateConstraints(state.goal, *state.catalog)) {
    return engine::contract::DumpJson(engine::contract::ErrorToJson(*goal_error));
  }
  if (!kind.plan) {
    if (!state.result.ok()) return engine::contract::DumpJson(engine::contract::ErrorToJson(state.result.error()));
    return engine::exports::EstimateExportText(scenario.value(), state.result.value(), kind.format);
  }
  AdvancePlan(state, std::numeric_limits<double>::infinity());
  if (!state.plan.ok()) return engine::contract::DumpJson(engine::contract::ErrorToJson(state.plan.error()));
  if (kind.format == engine::exports::ExportFormat::kProposal) {
    // The proposal is for people: written in the page's language.
    return engine::exports::PlanProposal(scenario.value(), state.goal, state.plan.value(), *state.catalog,
                                         &PageMessageText);
  }
  return engine::exports::PlanExportText(scenario.value(), state.goal, state.plan.value(), *state.catalog, kind.format);
}

void CopyOrDownload(AppState& state, const std::string& text, const char* file_name, const char* mime) {
  if (state.host.copy_text) {
    if (ImGui::SmallButton(L("Copy"))) {
      state.host.copy_text(text);
      state.copied_status = std::string(T("Copied:")) + " " + file_name;
    }
    ImGui::SameLine();
  }
  if (state.host.download && ImGui::SmallButton(L("Download"))) state.host.download(file_name, mime, text);
}

void DrawExports(AppState& state) {
  MutedText(T("The same output as the command line: trainsizer estimate|plan --format json|csv|markdown."));
  for (const ExportKind& kind : kExports) {
    ImGui::PushID(kind.file_name);
    ImGui::AlignTextToFramePadding();
    ImGui::BulletText("%s", T(kind.label));
    ImGui::SameLine();
    const bool copy = state.host.copy_text && ImGui::SmallButton(L("Copy"));
    ImGui::SameLine();
    const bool download = state.host.download && ImGui::SmallButton(L("Download"));
    if (copy || download) {
      // Written on demand: a plan export is tens of kilobytes, too much to write every frame.
      const std::string text = ExportText(state, kind);
      if (copy) {
        state.host.copy_text(text);
        state.copied_status = std::string(T("Copied:")) + " " + kind.file_name;
      }
      if (download) state.host.download(kind.file_name, kind.mime, text);
    }
    ImGui::PopID();
  }
}

void DrawLaunchConfigs(AppState& state) {
  const LaunchCache& configs = LaunchConfigsFor(state);
  const engine::contract::Json& answer = configs.answer;
  if (!answer.is_object() || answer.contains("error")) {
    ImGui::PushStyleColor(ImGuiCol_Text, Colors().bad);
    WrappedText(T("Fix the inputs first: launch configs are made for a valid scenario."));
    ImGui::PopStyleColor();
    return;
  }
  if (answer.contains("plan")) {
    const engine::contract::Json& p = answer["plan"];
    char line[240];
    const int nodes = p.value("nodes", 0);
    std::snprintf(line, sizeof line,
                  nodes == 1 ? T("%d node × %d processes; data parallel %d × micro-batch %d × accumulation %d = global batch %d; %lld steps.")
                             : T("%d nodes × %d processes; data parallel %d × micro-batch %d × accumulation %d = global batch %d; %lld steps."),
                  nodes, p.value("procs_per_node", 0), p.value("data_parallel", 0),
                  p.value("micro_batch", 0), p.value("grad_accum_steps", 0), p.value("global_batch", 0),
                  static_cast<long long>(p.value("train_steps", 0.0)));
    WrappedText(line);
  }
  if (!ImGui::BeginTabBar("launch_tools")) return;
  for (size_t i = 0; i < std::size(kTools); ++i) {
    const LaunchTool& tool = kTools[i];
    const bool selected = ImGui::BeginTabItem(L(tool.label));
    MarkAnchor(state, std::string("launch-tool:") + tool.key);
    if (!selected) continue;
    const std::string text = answer.value(tool.key, "");
    CopyOrDownload(state, text, tool.file_name, "text/plain");
    ImGui::InputTextMultiline("##config", const_cast<char*>(text.c_str()), text.size() + 1,
                              ImVec2(-FLT_MIN, ImGui::GetTextLineHeight() * 14), ImGuiInputTextFlags_ReadOnly);
    MarkAnchor(state, std::string("launch-config:") + tool.key);
    for (const engine::Message& note : configs.notes[i]) {
      ImGui::PushStyleColor(ImGuiCol_Text, Colors().warn);
      ImGui::Bullet();
      WrappedText(MessageText(note).c_str());
      ImGui::PopStyleColor();
    }
    ImGui::EndTabItem();
  }
  ImGui::EndTabBar();
}

}  // namespace

void DrawExportSection(AppState& state, const Fonts& fonts) {
  ImGui::PushFont(fonts.heading);
  const bool open = ImGui::CollapsingHeader(L("Export and launch configs"));
  MarkAnchor(state, "exports");
  ImGui::PopFont();
  if (!open) return;
  DrawExports(state);
  Heading(T("Launch configs for this layout"), fonts);
  DrawLaunchConfigs(state);
}

void ShowProposal(AppState& state) {
  if (!state.host.show_printable) return;
  constexpr ExportKind kProposal = kExports[std::size(kExports) - 1];
  static_assert(kProposal.format == engine::exports::ExportFormat::kProposal);
  state.host.show_printable(ExportText(state, kProposal), Language() == Lang::kZh ? "zh" : "en",
                            T("Print or save as PDF"), T("Close"));
}

}  // namespace ui
