// The 简体中文 page is complete: every string the UI draws through T()/L() and every
// sentence the engine says (warnings, checklist, bill of materials, planner rejections)
// has a translation, and every character of the translations is in the embedded font.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <functional>
#include <fstream>
#include <iostream>
#include <optional>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "catalog/codec/api.h"
#include "catalog/codec/catalog_loader.h"
#include "catalog/codec/hf_config.h"
#include "catalog/codec/plan_json.h"
#include "catalog/codec/scenario_json.h"
#include "catalog/codec/url_state.h"
#include "engine/efficiency.h"
#include "engine/message_templates.h"
#include "engine/estimate.h"
#include "engine/input_limits.h"
#include "engine/launch_plan.h"
#include "engine/message.h"
#include "engine/scenario_fields.h"
#include "engine/planner.h"
#include "engine/scenario_check.h"
#include "imgui.h"
#include "imgui_internal.h"  // ImTextCharFromUtf8
#include "tests/data/bad_inputs.h"
#include "wasm/ui/i18n.h"
#include "wasm/ui/refusal.h"
#include "wasm/ui/theme.h"
#include "wasm/ui/widgets.h"

namespace {

// The string literals passed to T("...") and L("...") in the UI sources; adjacent
// literals ("a " "b") are joined as the compiler joins them, and "##id" is cut off.
std::set<std::string> UiStrings() {
  std::set<std::string> found;
  const std::regex call(R"re(\b[TL]\(\s*((?:"(?:[^"\\]|\\.)*"\s*)+)\))re");
  const std::regex literal(R"re("((?:[^"\\]|\\.)*)")re");
  for (const auto& entry : std::filesystem::directory_iterator(TRAINSIZER_SOURCE_DIR "/wasm/ui")) {
    if (entry.path().extension() != ".cpp") continue;
    std::ifstream in(entry.path());
    std::stringstream text;
    text << in.rdbuf();
    const std::string source = text.str();
    for (std::sregex_iterator it(source.begin(), source.end(), call), end; it != end; ++it) {
      std::string joined;
      const std::string parts = (*it)[1];
      for (std::sregex_iterator lit(parts.begin(), parts.end(), literal); lit != end; ++lit) joined += (*lit)[1];
      joined = std::regex_replace(joined, std::regex(R"(\\")"), "\"");
      if (const size_t hashes = joined.find("##"); hashes != std::string::npos) joined.resize(hashes);
      if (!joined.empty()) found.insert(joined);
    }
  }
  return found;
}

TEST(I18n, TableIsWellFormed) {
  for (const std::string& problem : ui::TableProblems()) ADD_FAILURE() << problem;
}

// The form's rows come from the scenario field table, not from T("...") literals: every
// label, tooltip and choice name of a field on the form, and every part of the refusal
// notice, has its 简体中文.
TEST(I18n, EveryFormFieldIsTranslated) {
  int rows = 0;
  for (const engine::ScenarioField& f : engine::ScenarioFields()) {
    if (f.section == engine::FormSection::kNone) continue;
    ++rows;
    ASSERT_NE(f.label, nullptr) << f.key;
    EXPECT_TRUE(ui::HasTranslation(f.label)) << "no 简体中文 for the label of " << f.key << ": \"" << f.label << "\"";
    EXPECT_TRUE(ui::HasTranslation(f.help)) << "no 简体中文 for the help of " << f.key << ": \"" << f.help << "\"";
    for (const char* choice : f.choice_labels) {
      EXPECT_TRUE(ui::HasTranslation(choice)) << "no 简体中文 for a choice of " << f.key << ": \"" << choice << "\"";
    }
  }
  EXPECT_GT(rows, 30) << "the form draws the table's training and hardware fields";
  // The refusal notice is a message (input.refused, its parts nested); its hint a UI string.
  EXPECT_STRNE(ui::SafeModeHint(ui::Lang::kZh), ui::SafeModeHint(ui::Lang::kEn));
}

TEST(I18n, EveryUiStringIsTranslated) {
  const std::set<std::string> strings = UiStrings();
  EXPECT_GT(strings.size(), 20u) << "the source scan found too few T()/L() strings";
  for (const std::string& s : strings) EXPECT_TRUE(ui::HasTranslation(s)) << "no 简体中文 for: \"" << s << "\"";
}

// Engine sentences from a sweep of scenarios that together reach every message: warnings
// (estimate.cpp), the pre-order checklist, the bill of materials, claim checks, launch-config
// notes, planner rejections and pick labels, Hugging Face config import warnings (and the
// status line the UI builds from them), and the catalog's examples. Each scenario below
// names the branch it is there for; SweepReachesEveryBranch checks the sweep still gets
// there.
struct Sweep {
  std::vector<std::string> sentences;
  std::set<std::string> warning_codes;  // engine::Warning::code seen
  std::set<std::string> verdicts;       // claim verdicts seen
  std::set<std::string> topics;         // checklist topics seen
  std::set<std::string> templates;      // message templates reached (engine/message.h)
  std::vector<std::string> explained;   // the English of those messages, to check each variant is reached
  std::vector<engine::Message> messages;  // the messages themselves (outermost), to read in 简体中文
};

const Sweep& EngineSweep() {
  static const Sweep sweep = [] {
    const engine::Catalog& catalog = catalog::Embedded().value();
    Sweep out;
    auto add = [&](const std::string& text) {
      if (!text.empty()) out.sentences.push_back(text);
    };
    // A message with a template needs no pattern: its id (and those nested in it) is
    // reached, its English kept to check which variants the sweep reaches.
    std::function<void(const engine::Message&)> visit = [&](const engine::Message& m) {
      if (m.id.empty()) return;
      out.templates.insert(m.id);
      out.explained.push_back(m.english);
      for (const engine::MessageArg& a : m.args) {
        for (const engine::Message& nested : a.nested) visit(nested);
      }
    };
    auto reach = [&](const engine::Message& m) {
      if (m.id.empty()) return;
      visit(m);
      out.messages.push_back(m);
    };
    auto collect = [&](const engine::Estimate& e) {
      for (const engine::Warning& w : e.warnings) {
        if (w.template_id.empty()) add(w.message);
        out.templates.insert(w.template_id);
        out.warning_codes.insert(w.code);
      }
      for (const engine::CheckItem& c : e.checklist) {
        reach(c.topic);
        reach(c.answer);
        out.topics.insert(c.topic.english);
      }
      for (const engine::BomLine& line : e.server.lines) {
        reach(line.item);
        reach(line.unit);
        reach(line.why);
      }
      if (e.claim.present) {
        reach(e.claim.message);
        out.verdicts.insert(std::string(engine::EnumName(engine::kClaimVerdictNames, e.claim.verdict)));
      }
      if (e.model_derived) add(e.model.name);  // "Dense model derived from 30.0B parameters"
      // How each figure is computed: the memory table's formulas and their sources
      // (results_panel.cpp; the overhead's also in assumptions_panel.cpp), and the step
      // time's formula (speed_panel.cpp). The other speed, time and checkpoint facts are
      // the page's own T() strings.
      const engine::MemoryBreakdown& m = e.memory;
      for (const engine::MemoryTerm* term :
           {&m.weights, &m.gradients, &m.optimizer, &m.activations, &m.logits, &m.overhead, &m.cpu_ram}) {
        reach(term->formula);
        reach(term->source);
      }
      reach(e.throughput.explain);
    };
    // Every estimate also gets the launch-config notes of every tool (messages: the
    // export panel draws them from their templates).
    auto estimate = [&](const engine::Scenario& s) -> std::optional<engine::Estimate> {
      auto e = engine::RunEstimate(s, catalog);
      EXPECT_TRUE(e.ok()) << "sweep scenario rejected: " << (e.ok() ? "" : e.error().field + ": " + e.error().message);
      if (!e.ok()) return std::nullopt;
      collect(e.value());
      for (engine::LaunchTool tool : {engine::LaunchTool::kDeepSpeed, engine::LaunchTool::kTorchrun,
                                      engine::LaunchTool::kLlamaFactory, engine::LaunchTool::kMegatron}) {
        for (const engine::Message& note : engine::LaunchNotes(s, tool)) out.templates.insert(note.id);
      }
      return e.value();
    };
    auto plan = [&](const engine::Scenario& s, const engine::PlanConstraints& goal) {
      auto p = engine::RunPlan(s, goal, catalog);
      EXPECT_TRUE(p.ok()) << "sweep plan rejected: " << (p.ok() ? "" : p.error().field + ": " + p.error().message);
      if (!p.ok()) return;
      for (const engine::Rejection& r : p.value().rejected) out.templates.insert(r.reason.id);
      for (const engine::Plan& pick : p.value().picks) {
        for (engine::PickLabel label : pick.labels) {
          out.templates.insert(std::string(engine::kPickLabelIds[size_t(label)]));
        }
      }
      for (const engine::Plan& each : p.value().plans) out.templates.insert(each.procurement.id);  // plan_panel.cpp
    };
    auto preset = [&](const char* id) {
      const engine::ModelPreset* p = catalog.FindModel(id);
      EXPECT_NE(p, nullptr) << id;
      return p != nullptr ? p->spec : engine::ModelSpec{};
    };
    auto base = [&](const char* model, const char* gpu, int gpus) {
      engine::Scenario s;
      s.model = preset(model);
      s.gpu_id = gpu;
      s.parallel.gpus = gpus;
      s.parallel.gpus_per_node = std::min(gpus, 8);
      s.training.tokens = 1e9;
      return s;
    };

    // A grid of models × GPUs of every software stack × methods, on one GPU (bf16, with
    // FlashAttention and automatic restart) and on two nodes (fp16, ZeRO-3, 64K context
    // past the trained one, no FlashAttention, no automatic restart).
    const char* presets[] = {"llama-3-8b", "llama-3-70b", "mixtral-8x7b", "deepseek-v3"};
    const char* gpus[] = {"h100-sxm-80gb", "rtx-4090-24gb", "mi300x-192gb", "ascend-910b-64gb",
                          "tpu-v5p-95gb", "gaudi3-128gb", "h20-96gb"};
    const engine::Method methods[] = {engine::Method::kPretrain, engine::Method::kFull, engine::Method::kLora,
                                      engine::Method::kQlora, engine::Method::kFreeze};
    for (const char* preset_id : presets) {
      for (const char* gpu : gpus) {
        for (engine::Method method : methods) {
          for (int gpus_n : {1, 16}) {
            engine::Scenario s = base(preset_id, gpu, gpus_n);
            s.training.method = method;
            s.training.seq_len = gpus_n == 1 ? 4096 : 65536;
            s.training.flash_attention = gpus_n == 1;
            s.training.precision = gpus_n == 1 ? engine::Precision::kBf16 : engine::Precision::kFp16;
            s.training.auto_restart = gpus_n == 1;
            s.parallel.zero = gpus_n == 1 ? 0 : 3;
            estimate(s);
          }
        }
      }
    }

    // Every catalog GPU: its name and export note in the compliance answer, FP8 support
    // for pre-training, power with and without a published TDP; alone and on two nodes
    // with offloaded optimizer state (the CPU cores and host RAM lines).
    // Volta and Turing (V100, T4) have no bfloat16: they run fp16 (bf16 is refused there).
    auto precision_for = [&](const engine::GpuSpec& g) {
      return g.SupportsBf16() ? engine::Precision::kBf16 : engine::Precision::kFp16;
    };
    for (const engine::GpuSpec& g : catalog.gpus) {
      engine::Scenario s = base("llama-3.2-1b", g.id.c_str(), 1);
      s.training.method = engine::Method::kPretrain;
      s.training.precision = precision_for(g);
      estimate(s);
      s = base("llama-3.2-1b", g.id.c_str(), 16);
      s.training.precision = precision_for(g);
      s.parallel.zero = 3;
      s.parallel.offload = engine::Offload::kOptimizerAndParams;
      estimate(s);
    }

    // Every precision (FP8 on a GPU with FP8 tensor cores), every framework and ZeRO stage
    // it allows, tensor and pipeline parallelism, both offload kinds.
    for (engine::Precision precision : {engine::Precision::kBf16, engine::Precision::kFp16, engine::Precision::kFp32,
                                        engine::Precision::kFp8, engine::Precision::kBf16Pure}) {
      for (engine::Method method : {engine::Method::kFull, engine::Method::kPretrain, engine::Method::kQlora}) {
        engine::Scenario s = base("llama-3-8b", "h100-sxm-80gb", 8);
        s.training.precision = precision;
        s.training.method = method;
        estimate(s);
      }
    }
    for (engine::Framework framework : {engine::Framework::kFsdp, engine::Framework::kDeepSpeed, engine::Framework::kMegatron}) {
      for (int zero = 0; zero <= 3; ++zero) {
        if (framework == engine::Framework::kMegatron && zero > 1) continue;
        for (auto [tp, pp] : {std::pair{1, 1}, {2, 1}, {1, 2}, {4, 2}}) {
          if (framework == engine::Framework::kDeepSpeed && pp > 1 && zero > 1) continue;
          engine::Scenario s = base("llama-3-70b", "h100-sxm-80gb", 16);
          s.parallel.framework = framework;
          s.parallel.zero = zero;
          s.parallel.tp = tp;
          s.parallel.pp = pp;
          s.parallel.sequence_parallel = tp > 1;
          if (zero >= 1) s.parallel.offload = zero == 3 ? engine::Offload::kOptimizerAndParams : engine::Offload::kOptimizer;
          estimate(s);
        }
      }
    }

    // Warnings, one scenario each.
    {
      engine::Scenario s = base("llama-3-8b", "h100-sxm-80gb", 16);  // tp_across_nodes, tp_exceeds_kv_heads
      s.parallel.tp = 16;
      estimate(s);
      s = base("llama-3-8b", "h100-sxm-80gb", 16);  // node_larger_than_servers
      s.parallel.gpus_per_node = 16;
      estimate(s);
      s = base("llama-3-8b", "h100-sxm-80gb", 3);  // uneven_pipeline (32 layers over 3 stages)
      s.parallel.pp = 3;
      estimate(s);
      s = base("llama-3-8b", "h100-sxm-80gb", 8);  // pipeline_bubble: 2 micro-batches for 4 stages
      s.parallel.pp = 4;
      s.training.global_batch = 4;
      estimate(s);
      s = base("llama-3-8b", "h100-sxm-80gb", 8);  // sequence_parallel_without_tp
      s.parallel.sequence_parallel = true;
      estimate(s);
      s = base("llama-3-8b", "h100-sxm-80gb", 8);  // no_flash_attention_long_context, seq_len_beyond_context
      s.training.flash_attention = false;
      s.training.seq_len = 16384;
      s.parallel.zero = 3;
      estimate(s);
      s = base("llama-3-8b", "h100-sxm-80gb", 8);  // long context within the trained one, cp = 1 and cp = 2
      s.model.max_context = 131072;
      s.training.seq_len = 32768;
      estimate(s);
      s.parallel.cp = 2;
      estimate(s);
      s = base("llama-3-70b", "h100-sxm-80gb", 16384);  // no_auto_restart, low_goodput
      s.parallel.tp = 8;
      s.parallel.zero = 1;
      s.training.tokens = 1e13;
      s.training.auto_restart = false;
      estimate(s);
      s.training.auto_restart = true;  // low goodput with automatic restart (checklist branch)
      s.training.restart_minutes = 600;
      estimate(s);
      s = base("llama-3-8b", "h100-sxm-80gb", 1);  // no tokens: the data I/O answer asks for them
      s.training.tokens = 0;
      estimate(s);
      s = base("llama-3-70b", "rtx-4090-24gb", 1);  // does_not_fit and the checklist's memory item
      estimate(s);
      auto shape = engine::DeriveDenseShape(30e9);  // derived_shape
      EXPECT_TRUE(shape.ok());
      if (shape.ok()) {
        s = base("llama-3-8b", "h100-sxm-80gb", 8);
        s.model = shape.value();
        s.model_derived = true;
        estimate(s);
      }
    }

    // Launch-config notes: settings each launcher cannot express (engine/launch_plan.cpp).
    {
      engine::Scenario s = base("llama-3-8b", "h100-sxm-80gb", 16);  // tp, pp, cp, virtual pipeline
      s.parallel.tp = 2;
      s.parallel.pp = 2;
      s.parallel.cp = 2;
      s.parallel.virtual_pipeline = 2;
      s.parallel.zero = 1;
      s.parallel.offload = engine::Offload::kOptimizer;  // optimizer-only offload, offload without sharding
      s.training.activation_checkpointing = engine::Recompute::kSelective;
      s.training.precision = engine::Precision::kFp8;
      s.training.optimizer = engine::Optimizer::kAdamW8bit;
      s.training.method = engine::Method::kLora;
      s.training.lora_targets = engine::LoraTargets::kQv;
      estimate(s);
      s = base("mixtral-8x7b", "h100-sxm-80gb", 16);  // expert parallelism, whole-layer recompute counts
      s.parallel.ep = 2;
      s.parallel.zero = 3;
      s.parallel.offload = engine::Offload::kOptimizerAndParams;
      s.training.activation_checkpointing = engine::Recompute::kFull;
      s.training.recompute_layers = 4;
      s.training.precision = engine::Precision::kBf16Pure;
      s.training.optimizer = engine::Optimizer::kAdafactor;
      s.training.method = engine::Method::kFreeze;
      estimate(s);
      s = base("deepseek-v3", "h100-sxm-80gb", 3);  // multi-latent attention; pp 3 over 61 layers; no tokens
      s.parallel.pp = 3;
      s.training.tokens = 0;
      s.training.method = engine::Method::kQlora;
      s.training.optimizer = engine::Optimizer::kSgd;
      estimate(s);
      s = base("llama-3-8b", "h100-sxm-80gb", 16);  // Megatron: tp 16 does not divide the 8 KV heads
      s.parallel.framework = engine::Framework::kMegatron;
      s.parallel.tp = 16;
      estimate(s);
      s = base("llama-3-8b", "h100-sxm-80gb", 9);  // 9 GPUs over two 8-GPU nodes; optimizer in backward
      s.parallel.gpus_per_node = 8;
      s.training.optimizer_in_backward = true;
      estimate(s);
    }

    // The memory table's formulas, the step formula and the efficiency basis across the
    // settings that change their wording: every method × precision × optimizer, every
    // framework × ZeRO stage × offload, recomputation × FlashAttention × pipelining, the
    // loss and kernel implementations, TP/PP/CP/EP layouts on dense and MoE models, and
    // GPUs of every vendor (SweepReachesEveryFormula checks each variant is reached).
    for (engine::Method method : methods) {
      for (engine::Precision precision : {engine::Precision::kBf16, engine::Precision::kFp16, engine::Precision::kFp32,
                                          engine::Precision::kFp8, engine::Precision::kBf16Pure}) {
        for (engine::Optimizer optimizer : {engine::Optimizer::kAdamW, engine::Optimizer::kAdamW8bit,
                                            engine::Optimizer::kSgd, engine::Optimizer::kAdafactor}) {
          engine::Scenario s = base("llama-3-8b", "h100-sxm-80gb", 8);
          s.training.method = method;
          s.training.precision = precision;
          s.training.optimizer = optimizer;
          s.parallel.zero = int(optimizer) % 4;  // every stage, each with several methods
          estimate(s);
        }
      }
    }
    for (engine::Framework framework : {engine::Framework::kFsdp, engine::Framework::kDeepSpeed, engine::Framework::kMegatron}) {
      for (int zero = 0; zero <= 3; ++zero) {
        for (engine::Offload offload :
             {engine::Offload::kNone, engine::Offload::kOptimizer, engine::Offload::kOptimizerAndParams}) {
          if (framework == engine::Framework::kMegatron && zero > 1) continue;
          if (offload != engine::Offload::kNone && zero == 0) continue;
          if (offload == engine::Offload::kOptimizerAndParams && zero != 3) continue;
          for (engine::Method method : {engine::Method::kFull, engine::Method::kLora, engine::Method::kFreeze}) {
            engine::Scenario s = base("llama-3-8b", "a100-sxm-80gb", 8);
            s.parallel.framework = framework;
            s.parallel.zero = zero;
            s.parallel.offload = offload;
            s.training.method = method;
            estimate(s);
          }
        }
      }
    }
    for (engine::Recompute recompute :
         {engine::Recompute::kNone, engine::Recompute::kSelective, engine::Recompute::kFull}) {
      for (bool flash : {true, false}) {
        for (int recompute_layers : {0, 8}) {
          for (int pp : {1, 4}) {
            engine::Scenario s = base("llama-3-8b", "h100-sxm-80gb", 8);
            s.training.activation_checkpointing = recompute;
            s.training.flash_attention = flash;
            s.training.recompute_layers = recompute == engine::Recompute::kFull ? recompute_layers : 0;
            s.training.seq_len = 8192;
            s.parallel.pp = pp;
            s.parallel.virtual_pipeline = pp > 1 && recompute_layers > 0 ? 2 : 1;
            estimate(s);
          }
        }
      }
    }
    for (engine::CrossEntropy loss :
         {engine::CrossEntropy::kStandard, engine::CrossEntropy::kEager, engine::CrossEntropy::kChunked}) {
      for (engine::Kernels kernels : {engine::Kernels::kFused, engine::Kernels::kEager}) {
        engine::Scenario s = base("qwen2.5-7b", "rtx-4090-24gb", 1);
        s.training.method = engine::Method::kQlora;
        s.training.cross_entropy = loss;
        s.training.kernels = kernels;
        s.training.lora_dropout = kernels == engine::Kernels::kEager ? 0.05 : 0;
        s.training.optimizer_in_backward = loss == engine::CrossEntropy::kChunked;
        estimate(s);
        s = base("llama-3-8b", "h100-sxm-80gb", 8);
        s.training.method = engine::Method::kFull;
        s.training.cross_entropy = loss;
        s.training.kernels = kernels;
        s.training.optimizer_in_backward = kernels == engine::Kernels::kEager;
        estimate(s);
      }
    }
    {
      struct Layout {
        const char* model;
        int gpus, tp, pp, cp, ep, vp;
      };
      for (const Layout& l : {Layout{"llama-3-70b", 64, 8, 4, 1, 1, 2}, Layout{"llama-3-70b", 64, 4, 2, 4, 1, 1},
                              Layout{"mixtral-8x7b", 32, 2, 2, 1, 4, 1}, Layout{"mixtral-8x7b", 16, 1, 1, 2, 8, 1},
                              Layout{"deepseek-v3", 256, 8, 8, 1, 4, 1}}) {
        for (int zero : {1, 3}) {
          if (zero == 3 && l.pp > 1) continue;  // keep within every framework's rules
          engine::Scenario s = base(l.model, "h100-sxm-80gb", l.gpus);
          s.parallel.tp = l.tp;
          s.parallel.pp = l.pp;
          s.parallel.cp = l.cp;
          s.parallel.ep = l.ep;
          s.parallel.virtual_pipeline = l.vp;
          s.parallel.sequence_parallel = l.tp > 1;
          s.parallel.zero = zero;
          s.training.seq_len = l.cp > 1 ? 32768 : 4096;
          s.training.activation_checkpointing = engine::Recompute::kSelective;
          estimate(s);
        }
      }
    }
    for (const char* gpu : {"a100-sxm-80gb", "v100-sxm2-32gb", "l40s-48gb", "b200-180gb", "mi250x-128gb",
                            "mi300x-192gb", "ascend-910b-64gb", "gaudi3-128gb", "tpu-v5p-95gb"}) {
      for (engine::Method method : {engine::Method::kPretrain, engine::Method::kLora}) {
        engine::Scenario s = base("llama-3-8b", gpu, 8);
        s.training.method = method;
        s.training.flash_attention = method == engine::Method::kLora;
        s.parallel.zero = 3;
        if (const engine::GpuSpec* g = catalog.FindGpu(gpu); g != nullptr) s.training.precision = precision_for(*g);
        estimate(s);
      }
    }
    // The efficiency basis shown with the assumptions (assumptions_panel.cpp), for every
    // catalog GPU and for an architecture the engine does not know.
    for (engine::GpuSpec g : catalog.gpus) {
      reach(engine::BaseEfficiency(g, {}).basis);
      g.architecture = engine::GpuArchitecture::kOther;
      reach(engine::BaseEfficiency(g, {}).basis);
    }
    {  // a GPU with the user's own efficiency figures, and one with no export note recorded
      engine::GpuSpec g = *catalog.FindGpu("h100-sxm-80gb");
      g.gemm_efficiency = 0.5;
      reach(engine::BaseEfficiency(g, {}).basis);
      const engine::Scenario s = base("llama-3-8b", "h100-sxm-80gb", 8);
      if (const auto e = estimate(s)) {
        g.export_restricted_cn = false;
        g.export_note_cn = {};
        for (const engine::CheckItem& c : engine::PreOrderChecklist(s, *e, g)) reach(c.answer);
      }
    }

    // Every scale-out fabric as the network of a two-node job (scale-up links are refused).
    for (const engine::FabricSpec& f : catalog.fabrics) {
      if (!f.scale_out) continue;
      engine::Scenario s = base("llama-3-8b", "h100-sxm-80gb", 16);
      s.parallel.network = f.id;
      estimate(s);
    }

    // Claims: every verdict, by claiming multiples of the predicted speed (with a low MFU
    // override too, so that 1.3× the prediction stays under the best published MFU and is
    // "optimistic"), a wall-time claim with tokens and one without, and a claim for a
    // layout that does not fit.
    for (auto [gpu, mfu_override] : {std::pair{"a100-sxm-80gb", 0.0}, {"h100-sxm-80gb", 0.0}, {"h100-sxm-80gb", 0.2}}) {
      engine::Scenario s = base("llama-3-8b", gpu, 8);
      s.parallel.zero = 3;
      s.training.mfu = mfu_override;
      const auto predicted = estimate(s);
      if (!predicted) continue;
      const double tps = predicted->throughput.tokens_per_s, mfu = predicted->throughput.mfu;
      for (double factor : {0.3, 1.0, 1.1, 1.3, 0.6 / mfu, 0.9 / mfu, 2.0 / mfu}) {
        s.training.claim = {};
        s.training.claim.tokens_per_s = tps * factor;
        estimate(s);
      }
      s.training.claim = {};
      s.training.claim.wall_hours = 24;
      estimate(s);
      s.training.tokens = 0;
      estimate(s);
    }
    {
      engine::Scenario s = base("llama-3-70b", "rtx-4090-24gb", 1);
      s.training.claim.tokens_per_s = 100;
      estimate(s);
    }

    // Hugging Face config.json imports: an unknown model_type, mlp_only_layers and keys
    // that are not read, as the scenario's input warnings and as the UI's status line.
    {
      const char* config = R"({"model_type": "my_moe", "num_hidden_layers": 24, "hidden_size": 2048,
          "num_attention_heads": 16, "num_key_value_heads": 4, "vocab_size": 32000, "intermediate_size": 5632,
          "num_experts": 8, "num_experts_per_tok": 2, "moe_intermediate_size": 1408, "mlp_only_layers": [0],
          "sliding_window_pattern": 6, "my_custom_scale": 1.5, "_name_or_path": "org/my-moe-2b"})";
      catalog::Json doc = catalog::Json::parse(R"({"gpu": "h100-sxm-80gb", "tokens": 1e9})");
      doc["model"]["hf_config"] = catalog::Json::parse(config);
      auto s = catalog::ScenarioFromJson(doc, catalog);
      EXPECT_TRUE(s.ok()) << (s.ok() ? "" : s.error().field + ": " + s.error().message);
      if (s.ok()) estimate(s.value());
      auto imported = catalog::ImportHfConfig(doc["model"]["hf_config"]);
      if (imported.ok()) {
        // wasm/ui/app_state.cpp ImportPastedConfig: the status line, then each warning
        add("Imported " + imported.value().spec.name + ".");
        for (const engine::Warning& w : imported.value().warnings) out.templates.insert(w.template_id);
      }
      doc["model"]["hf_config"].erase("_name_or_path");
      imported = catalog::ImportHfConfig(doc["model"]["hf_config"]);
      if (imported.ok()) add("Imported " + imported.value().spec.name + ".");
      add("Not valid JSON: paste the whole config.json.");
    }
    // More config.json imports, each for a warning of its own: quantized checkpoints
    // (GPTQ and AWQ packed, bitsandbytes 4-bit, fp8, a method with no bit width), a vision
    // tower (sized from its keys, or not), Falcon without ffn_hidden_size (the 4 × hidden
    // MLP assumed), a nested text_config and unread keys past the listed number.
    {
      const std::string llama = R"("num_hidden_layers": 32, "hidden_size": 4096, "num_attention_heads": 32,
          "num_key_value_heads": 8, "vocab_size": 128256, "intermediate_size": 14336)";
      auto import_config = [&](const std::string& config, const char* method) {
        catalog::Json doc = catalog::Json::parse(R"({"gpu": "h100-sxm-80gb", "tokens": 1e9})");
        doc["method"] = method;
        doc["model"]["hf_config"] = catalog::Json::parse(config);
        auto s = catalog::ScenarioFromJson(doc, catalog);
        EXPECT_TRUE(s.ok()) << config << ": " << (s.ok() ? "" : s.error().field + ": " + s.error().message);
        if (s.ok()) estimate(s.value());
        auto imported = catalog::ImportHfConfig(doc["model"]["hf_config"]);
        EXPECT_TRUE(imported.ok()) << config;
        if (imported.ok()) {
          add("Imported " + imported.value().spec.name + ".");
          for (const engine::Warning& w : imported.value().warnings) out.templates.insert(w.template_id);
        }
      };
      import_config("{" + llama + R"(, "quantization_config": {"quant_method": "gptq", "bits": 4, "group_size": 128}})",
                    "qlora");
      import_config("{" + llama + R"(, "quantization_config": {"quant_method": "awq", "bits": 3, "group_size": 64}})",
                    "lora");
      import_config("{" + llama + R"(, "quantization_config": {"quant_method": "gptq", "bits": 8, "group_size": -1}})",
                    "lora");
      import_config("{" + llama + R"(, "quantization_config": {"quant_method": "bitsandbytes", "load_in_4bit": true}})",
                    "qlora");
      import_config("{" + llama + R"(, "quantization_config": {"quant_method": "fp8"}})", "lora");
      import_config("{" + llama + R"(, "quantization_config": {"quant_method": "compressed-tensors"}})", "lora");
      import_config("{" + llama + R"(, "vision_config": {"num_hidden_layers": 24, "hidden_size": 1024,
          "intermediate_size": 4096}})", "lora");
      import_config("{" + llama + R"(, "vision_config": "clip"})", "full");
      import_config(R"({"model_type": "falcon", "num_hidden_layers": 32, "hidden_size": 4544,
          "num_attention_heads": 71, "multi_query": true, "vocab_size": 65024})", "full");
      import_config(R"({"model_type": "llava", "text_config": {"model_type": "llama", )" + llama +
                        R"(}, "vision_config": {"depth": 32, "embed_dim": 1280, "mlp_ratio": 4, "hidden_act": "silu"}})",
                    "full");
      std::string many = "{" + llama;
      for (int i = 0; i < 40; ++i) many += ", \"my_key_" + std::to_string(i) + "\": 1";
      import_config(many + "}", "full");
    }

    // The planner: GPUs too small even for the largest layout (on one GPU and on many),
    // no offer among the allowed providers, owning only, a deadline too short, a budget
    // too small, FP8 on GPUs without FP8, and the export-restricted GPUs for region cn.
    {
      engine::Scenario s;
      s.model = preset("llama-3.1-405b");
      s.training.tokens = 1e10;
      for (int max_gpus : {1, 64}) {
        engine::PlanConstraints goal;
        goal.max_gpus = max_gpus;
        plan(s, goal);
      }
      s.model = preset("llama-3-8b");
      engine::PlanConstraints goal;
      goal.max_gpus = 16;
      goal.providers = {"aws"};
      plan(s, goal);
      goal.purchase = engine::Purchase::kOwn;
      plan(s, goal);
      goal = {};
      goal.max_gpus = 16;
      goal.purchase = engine::Purchase::kOwn;
      plan(s, goal);
      goal.budget = 10;  // over the budget to buy
      plan(s, goal);
      goal.budget = 0;
      goal.purchase = engine::Purchase::kCloud;
      goal.deadline_days = 0.01;
      plan(s, goal);
      goal.deadline_days = 0;
      goal.budget = 10;  // over the budget of rental
      plan(s, goal);
      goal = {};
      goal.max_gpus = 16;
      goal.region = "cn";
      plan(s, goal);
      s.training.precision = engine::Precision::kFp8;
      plan(s, goal);
      for (const char* preset_id : presets) {  // deadline and budget together, as before
        s = {};
        s.model = preset(preset_id);
        s.training.tokens = 1e10;
        goal = {};
        goal.deadline_days = 1;
        goal.budget = 1000;
        goal.max_gpus = 64;
        plan(s, goal);
      }
    }

    // Procurement lines (plan_panel.cpp): every GPU planned alone, rented (on-demand and
    // spot) and owned (new and used servers), and both together.
    {
      engine::Scenario s;
      s.model = preset("llama-3-8b");
      s.training.tokens = 1e9;
      for (const engine::GpuSpec& g : catalog.gpus) {
        s.training.precision = precision_for(g);  // bf16 GPUs are rejected without bfloat16
        for (engine::Purchase purchase : {engine::Purchase::kCloud, engine::Purchase::kOwn, engine::Purchase::kBoth}) {
          engine::PlanConstraints goal;
          goal.gpus = {g.id};
          goal.max_gpus = 16;
          goal.purchase = purchase;
          goal.allow_spot = purchase == engine::Purchase::kCloud;
          plan(s, goal);
        }
      }
    }

    // The catalog's examples as the page loads them: estimate, plan (their titles and
    // descriptions carry their own Chinese: catalog_test.cpp CatalogProseHasChinese).
    for (const engine::Example& x : catalog.examples) {
      const catalog::Json doc = catalog::Json::parse(x.scenario_json, nullptr, false);
      auto s = catalog::ScenarioFromJson(doc, catalog);
      auto goal = catalog::ConstraintsFromJson(doc);
      EXPECT_TRUE(s.ok() && goal.ok()) << x.id;
      if (!s.ok() || !goal.ok()) continue;
      estimate(s.value());
      plan(s.value(), goal.value());
    }
    return out;
  }();
  return sweep;
}

TEST(I18n, SweepReachesEveryBranch) {
  const Sweep& sweep = EngineSweep();
  for (const char* code : {"derived_shape", "seq_len_beyond_context", "tp_across_nodes", "tp_exceeds_kv_heads",
                           "node_larger_than_servers", "uneven_pipeline", "sequence_parallel_without_tp", "no_flash_attention_long_context",
                           "pipeline_bubble", "no_auto_restart", "low_goodput", "does_not_fit", "hf_config_unknown_type",
                           "hf_config_dense_layers", "hf_config_unmapped_keys", "quantized_checkpoint",
                           "vision_tower_not_sized", "hf_config_assumed"}) {
    EXPECT_TRUE(sweep.warning_codes.count(code)) << "the sweep never triggers warning " << code;
  }
  for (const char* verdict : {"impossible", "implausible", "optimistic", "plausible", "conservative", "incomplete"}) {
    EXPECT_TRUE(sweep.verdicts.count(verdict)) << "the sweep never reaches claim verdict " << verdict;
  }
  EXPECT_EQ(sweep.topics.size(), 7u) << "the sweep misses a checklist topic";
  for (const char* id : {"launch.megatron.kv_heads", "plan.no_bf16"}) {
    EXPECT_TRUE(sweep.templates.count(id)) << "the sweep never reaches message " << id;
  }
}

// The formula variants of the memory table and step time, and every efficiency basis.
TEST(I18n, SweepReachesEveryFormula) {
  const Sweep& sweep = EngineSweep();
  auto reached = [&](const std::string& part) {
    return std::any_of(sweep.explained.begin(), sweep.explained.end(),
                       [&](const std::string& s) { return s.find(part) != std::string::npos; });
  };
  for (const char* part :
       {" trainable × ", " frozen × ", " (ZeRO)", "(largest tensor)", " fp32 master and grad partition", " → CPU",
        " offloaded × ", " per layer (s=", "attention scores rebuilt for one layer", "% of layers recomputed)",
        " layer input + ", "recompute working set", "standard cross-entropy", "eager cross-entropy",
        "chunked cross-entropy", " + 0.5 GiB NCCL", "ZeRO-3 gathered units", "5% fragmentation", "QLoRA (Dettmers",
        "step = tokens per step", " micro-batches × ", " micro-batch × ", "Korthikanti et al.", "DeepSpeed ZeRO-Offload",
        "Megatron-LM theoretical_memory_usage.py (4", "HF Model training anatomy", "V100 cuBLAS", "T4 is power-limited",
        "A100 cuBLAS", "Ada GEMMs", "H100 training GEMMs", "assumed like Hopper", "MI250X hipBLASLt",
        "MI300X hipBLASLt", "Ascend: no public", "Gaudi MME", "TPU MXU", "unknown architecture"}) {
    EXPECT_TRUE(reached(part)) << "the sweep never reaches a formula or source with \"" << part << "\"";
  }
}

// Every template of the estimate's explanations (engine/messages_explain.cpp) is reached
// by the sweep, so each is drawn on the page in some scenario.
TEST(I18n, SweepReachesEveryExplanationTemplate) {
  const Sweep& sweep = EngineSweep();
  for (const engine::MessageTemplate& t : engine::ExplainTemplates()) {
    EXPECT_TRUE(sweep.templates.count(std::string(t.id))) << "the sweep never reaches message " << t.id;
  }
}

// The explanations drawn in 简体中文 leave no English prose (four lowercase words in a
// row) outside their arguments: each template is Chinese throughout.
TEST(I18n, ExplanationsRenderInChinese) {
  const std::regex prose(R"([a-z]+ [a-z]+ [a-z]+ [a-z]+)");
  std::set<std::string> leaks;
  ui::SetLanguage(ui::Lang::kZh);
  for (const engine::Message& m : EngineSweep().messages) {
    // Catalog texts among the arguments (export notes, network names) carry their Chinese.
    const std::string zh = ui::MessageText(m);
    if (std::regex_search(zh, prose)) leaks.insert(m.id + ": " + zh.substr(0, 300));
  }
  ui::SetLanguage(ui::Lang::kEn);
  for (const std::string& leak : leaks) ADD_FAILURE() << "English left in " << leak;
}

// The checks every collected message must pass: a pattern covers it, and the translation
// leaves no English prose behind (only {} slots: fields, ids, numbers). A sentence the table
// does not know can still hide inside a pattern's {} (a slot takes any text): prose is
// four lowercase words in a row.
void ExpectCovered(const std::vector<std::string>& messages, const char* what) {
  std::set<std::string> missing;
  for (const std::string& m : messages) {
    if (!ui::CoversMessage(m)) missing.insert(m.substr(0, 300));
  }
  for (const std::string& m : missing) ADD_FAILURE() << "no 简体中文 pattern covers " << what << ": \"" << m << "\"";
}

// A value the translation quotes ('fraction of purchase price', a facility unit to type as
// it is) is not prose when the English has it word for word. Each pair is a text in
// English and in 简体中文.
void ExpectNoProse(const std::vector<std::pair<std::string, std::string>>& english_and_zh, const char* what) {
  const std::regex prose(R"([a-z]+ [a-z]+ [a-z]+ [a-z]+)");
  const std::regex quoted(R"('([^']*)')");
  std::set<std::string> leaks;
  for (const auto& [m, zh] : english_and_zh) {
    std::string unquoted;
    auto last = zh.cbegin();
    for (std::sregex_iterator it(zh.begin(), zh.end(), quoted), end; it != end; ++it) {
      const bool verbatim = m.find((*it)[1].str()) != std::string::npos;
      unquoted.append(last, (*it)[0].first);
      unquoted += verbatim ? "''" : (*it)[0].str();
      last = (*it)[0].second;
    }
    unquoted.append(last, zh.cend());
    if (std::regex_search(unquoted, prose)) leaks.insert(m.substr(0, 300) + "\n    -> " + zh.substr(0, 300));
  }
  for (const std::string& leak : leaks) ADD_FAILURE() << "English left in the translation of " << what << ": " << leak;
}

// The same for engine sentences translated by the patterns.
void ExpectNoEnglishProse(const std::vector<std::string>& messages, const char* what) {
  std::vector<std::pair<std::string, std::string>> pairs;
  ui::SetLanguage(ui::Lang::kZh);
  for (const std::string& m : messages) {
    if (ui::CoversMessage(m)) pairs.emplace_back(m, ui::TranslateMessage(m));  // else ExpectCovered reports it
  }
  ui::SetLanguage(ui::Lang::kEn);
  ExpectNoProse(pairs, what);
}

// Messages (engine/message.h) as the page draws them in 简体中文, each with its English.
std::vector<std::pair<std::string, std::string>> InChinese(const std::vector<engine::Message>& messages) {
  std::vector<std::pair<std::string, std::string>> pairs;
  ui::SetLanguage(ui::Lang::kZh);
  for (const engine::Message& m : messages) pairs.emplace_back(m.english, ui::MessageText(m));
  ui::SetLanguage(ui::Lang::kEn);
  return pairs;
}

// A message and those nested in its arguments all have a template (an id).
void ExpectTemplated(const engine::Message& m, const std::string& where) {
  EXPECT_FALSE(m.id.empty()) << where << ": no template for \"" << m.english << "\"";
  for (const engine::MessageArg& arg : m.args) {
    for (const engine::Message& nested : arg.nested) ExpectTemplated(nested, where);
  }
}

// Prints messages with their translations, for reading the table in context:
//   ui_smoke_test --gtest_also_run_disabled_tests --gtest_filter='I18n.DISABLED_Print*'
void PrintTranslations(const std::vector<std::string>& messages) {
  ui::SetLanguage(ui::Lang::kZh);
  std::set<std::string> seen;
  for (const std::string& m : messages) {
    if (seen.insert(m).second) std::cout << m << "\n  " << ui::TranslateMessage(m) << "\n";
  }
  ui::SetLanguage(ui::Lang::kEn);
}

TEST(I18n, MessagesRenderInChineseWithTheirArguments) {
  const engine::Warning w = engine::MakeWarning(
      "does_not_fit", {engine::BytesArg("need_bytes", 38.31 * 1073741824.0), engine::TextArg("gpu", "NVIDIA GeForce RTX 4090"),
                       engine::BytesArg("capacity_bytes", 23.99 * 1073741824.0)});
  EXPECT_EQ(w.message, "Needs 38.31 GiB per GPU but NVIDIA GeForce RTX 4090 has 23.99 GiB.");
  ui::SetLanguage(ui::Lang::kZh);
  const std::string zh = ui::WarningText(w);
  ui::SetLanguage(ui::Lang::kEn);
  EXPECT_NE(zh.find("38.31 GiB"), std::string::npos) << zh;
  EXPECT_NE(zh.find("23.99 GiB"), std::string::npos) << zh;
  EXPECT_EQ(zh.find("Needs"), std::string::npos) << zh;
  EXPECT_EQ(ui::WarningText(w), w.message);
}

TEST(I18n, EveryEngineSentenceIsTranslated) { ExpectCovered(EngineSweep().sentences, "engine sentence"); }

TEST(I18n, EngineTranslationsLeaveNoEnglishProse) {
  ExpectNoEnglishProse(EngineSweep().sentences, "engine sentence");
}

// Input errors as the page shows them (ui::ErrorText): next to their field (input_panel.cpp
// FieldError), under "No plan" (plan_panel.cpp) and in the link notice (app_state.cpp).
// Collected from every row of tests/data/bad_inputs.json through the JS API, from scenarios,
// models and constraints built to trip each check of engine/scenario_check.cpp,
// engine/model_spec.cpp and engine/planner.cpp, from the codec's readers (scenario, model
// architecture, config.json, constraints) and from catalog overlays. Each built case names
// the field its error must have, so a case that stops tripping its check fails too.
struct ErrorSweep {
  std::vector<engine::InputError> errors;
  std::set<std::string> fields;  // every field an error named
};

// The errors still made from a bare sentence (no template yet): those of the catalog's own
// entries and the config.json importer (catalog_entries.cpp, catalog_loader.cpp,
// hf_config.cpp, whose method check names the quantization_config), translated by the
// patterns of zh.json until they are given one.
bool MayLackTemplate(const engine::InputError& e) {
  return e.field.starts_with("overlay") || e.field.starts_with("model.hf_config") ||
         e.field.find(" (") != std::string::npos || e.message.find("(quantization_config: ") != std::string::npos;
}

const ErrorSweep& InputErrorSweep() {
  static const ErrorSweep sweep = [] {
    const engine::Catalog& catalog = catalog::Embedded().value();
    ErrorSweep out;
    auto add = [&](const engine::InputError& e) {
      out.fields.insert(e.field);
      out.errors.push_back(e);
    };
    auto expect = [&](const std::optional<engine::InputError>& e, const std::string& field, const std::string& what) {
      EXPECT_TRUE(e.has_value()) << what << ": accepted, expected an error on " << field;
      if (!e) return;
      EXPECT_EQ(e->field, field) << what << ": " << e->message;
      add(*e);
    };
    // The JS API's answer: {"error": {"field", "code", "args", "message"}}, and the error
    // it was written from.
    auto api_error = [&](const api::Response& r, const std::string& field, const std::string& what) {
      EXPECT_FALSE(r.ok) << what << ": accepted";
      if (r.ok) return;
      EXPECT_EQ(r.error.field, field) << what << ": " << r.error.message;
      add(r.error);
    };
    auto estimate = [&](const std::string& json, const char* field) { api_error(api::Session().Estimate(json), field, json); };
    auto plan = [&](const std::string& json, const char* field) { api_error(api::Session().Plan(json), field, json); };

    // Every row of the bad-input table, as the CLI and the JS API run it.
    const catalog::Json rows =
        testdata::BadInputTable()["rows"];
    EXPECT_GE(rows.size(), 45u);
    for (const catalog::Json& row : rows) {
      const std::string text = testdata::GenerateBadInput(row["input"]);
      for (const catalog::Json& command : row.value("commands", catalog::Json::array({"estimate", "plan"}))) {
        const api::Response r = command == "plan" ? api::Session().Plan(text) : api::Session().Estimate(text);
        api_error(r, row["field"], row["name"]);
      }
    }

    // engine::ValidateScenario, one check each, from a valid 8-GPU Llama-3-8B scenario.
    auto base = [&](const char* model = "llama-3-8b") {
      engine::Scenario s;
      const engine::ModelPreset* p = catalog.FindModel(model);
      EXPECT_NE(p, nullptr) << model;
      if (p != nullptr) s.model = p->spec;
      s.gpu_id = "h100-sxm-80gb";
      s.parallel.gpus = 8;
      s.parallel.gpus_per_node = 8;
      s.training.tokens = 1e9;
      return s;
    };
    auto scenario = [&](const char* field, auto edit, const char* model = "llama-3-8b") {
      engine::Scenario s = base(model);
      edit(s);
      expect(engine::ValidateScenario(s, catalog), field, std::string("scenario with a bad ") + field);
    };
    EXPECT_FALSE(engine::ValidateScenario(base(), catalog).has_value()) << "the base scenario is refused";
    scenario("seq_len", [](engine::Scenario& s) { s.training.seq_len = 0; });
    scenario("micro_batch", [](engine::Scenario& s) { s.training.micro_batch = 0; });
    scenario("global_batch", [](engine::Scenario& s) { s.training.global_batch = -1; });
    scenario("tokens", [](engine::Scenario& s) { s.training.tokens = 2e15; });
    scenario("dataset_tokens", [](engine::Scenario& s) { s.training.dataset_tokens = -5; });
    scenario("epochs", [](engine::Scenario& s) { s.training.epochs = 0; });
    scenario("mfu", [](engine::Scenario& s) { s.training.mfu = 1.5; });
    scenario("lora_rank", [](engine::Scenario& s) { s.training.lora_rank = 0; });
    scenario("freeze_trainable_layers", [](engine::Scenario& s) {  // more than the model's 32 layers
      s.training.method = engine::Method::kFreeze;
      s.training.freeze_trainable_layers = 40;
    });
    scenario("gpus", [](engine::Scenario& s) { s.parallel.gpus = 0; });
    scenario("gpus_per_node", [](engine::Scenario& s) { s.parallel.gpus_per_node = 1000; });
    scenario("tp", [](engine::Scenario& s) { s.parallel.tp = 0; });
    scenario("pp", [](engine::Scenario& s) { s.parallel.pp = 33; });
    scenario("cp", [](engine::Scenario& s) { s.parallel.cp = 0; });
    scenario("ep", [](engine::Scenario& s) { s.parallel.ep = 5000; });
    scenario("virtual_pipeline", [](engine::Scenario& s) { s.parallel.virtual_pipeline = 65; });
    scenario("zero", [](engine::Scenario& s) { s.parallel.zero = 4; });
    scenario("node_gbps", [](engine::Scenario& s) { s.parallel.node_gbps = -1; });
    scenario("tp", [](engine::Scenario& s) { s.parallel.tp = 3; });  // does not divide 32 heads
    scenario("cp", [](engine::Scenario& s) { s.parallel.cp = 3; });  // does not divide seq_len
    scenario("gpus", [](engine::Scenario& s) { s.parallel.tp = 16; s.parallel.gpus = 24; });
    scenario("virtual_pipeline", [](engine::Scenario& s) { s.parallel.virtual_pipeline = 2; });  // pp = 1
    scenario("virtual_pipeline", [](engine::Scenario& s) {  // 2 × 3 does not divide 32 layers
      s.parallel.pp = 2;
      s.parallel.virtual_pipeline = 3;
    });
    scenario("ep", [](engine::Scenario& s) { s.parallel.ep = 2; });  // a dense model
    scenario("ep", [](engine::Scenario& s) { s.parallel.ep = 3; s.parallel.gpus = 3; }, "mixtral-8x7b");
    scenario("ep", [](engine::Scenario& s) { s.parallel.ep = 4; s.parallel.gpus = 2; }, "mixtral-8x7b");
    scenario("zero", [](engine::Scenario& s) {
      s.parallel.framework = engine::Framework::kMegatron;
      s.parallel.zero = 2;
    });
    scenario("zero", [](engine::Scenario& s) {
      s.parallel.framework = engine::Framework::kDeepSpeed;
      s.parallel.pp = 2;
      s.parallel.zero = 3;
    });
    scenario("offload", [](engine::Scenario& s) { s.parallel.offload = engine::Offload::kOptimizer; });
    scenario("offload", [](engine::Scenario& s) {
      s.parallel.zero = 1;
      s.parallel.offload = engine::Offload::kOptimizerAndParams;
    });
    scenario("micro_batch", [](engine::Scenario& s) {
      s.parallel.gpus = 1048576;
      s.training.micro_batch = 65536;
    });
    scenario("optimizer_in_backward", [](engine::Scenario& s) {
      s.training.optimizer_in_backward = true;
      s.training.global_batch = 64;
    });
    scenario("global_batch", [](engine::Scenario& s) { s.training.global_batch = 12; });
    scenario("gpu", [](engine::Scenario& s) { s.gpu_id = "h100"; });
    scenario("network", [](engine::Scenario& s) { s.parallel.network = "infiniband"; });
    scenario("network", [](engine::Scenario& s) { s.parallel.network = "nvlink4"; });
    scenario("storage", [](engine::Scenario& s) { s.storage = "floppy"; });
    scenario("precision", [](engine::Scenario& s) {
      s.gpu_id = "a100-sxm-80gb";
      s.training.precision = engine::Precision::kFp8;
    });
    for (const engine::GpuSpec& g : catalog.gpus) {  // bf16 and bf16-pure on GPUs without bfloat16 (V100, T4)
      if (g.SupportsBf16()) continue;
      for (engine::Precision precision : {engine::Precision::kBf16, engine::Precision::kBf16Pure}) {
        scenario("precision", [&](engine::Scenario& s) {
          s.gpu_id = g.id;
          s.training.precision = precision;
        });
      }
    }

    // engine::ValidateModel, one check each, from Llama-3-8B, a MoE and an MLA model.
    auto model = [&](const char* field, auto edit, const char* preset = "llama-3-8b") {
      engine::ModelSpec m = base(preset).model;
      edit(m);
      expect(engine::ValidateModel(m, "model."), std::string("model.") + field,
             std::string("model with a bad ") + field);
    };
    model("layers", [](engine::ModelSpec& m) { m.layers = 0; });
    model("hidden", [](engine::ModelSpec& m) { m.hidden = 4; });
    model("heads", [](engine::ModelSpec& m) { m.heads = 0; });
    model("kv_heads", [](engine::ModelSpec& m) { m.kv_heads = 5000; });
    model("head_dim", [](engine::ModelSpec& m) { m.head_dim = 0; });
    model("ffn", [](engine::ModelSpec& m) { m.ffn = 0; });
    model("vocab", [](engine::ModelSpec& m) { m.vocab = 0; });
    model("norms_per_layer", [](engine::ModelSpec& m) { m.norms_per_layer = 9; });
    model("learned_positions", [](engine::ModelSpec& m) { m.learned_positions = -1; });
    model("max_context", [](engine::ModelSpec& m) { m.max_context = -1; });
    model("kv_heads", [](engine::ModelSpec& m) { m.kv_heads = 3; });
    model("experts", [](engine::ModelSpec& m) { m.moe.experts = 5000; }, "mixtral-8x7b");
    model("experts_per_token", [](engine::ModelSpec& m) { m.moe.experts_per_token = 9; }, "mixtral-8x7b");
    model("moe_ffn", [](engine::ModelSpec& m) { m.moe.moe_ffn = 0; }, "mixtral-8x7b");
    model("shared_experts", [](engine::ModelSpec& m) { m.moe.shared_experts = 65; }, "mixtral-8x7b");
    model("dense_layers", [](engine::ModelSpec& m) { m.moe.dense_layers = 32; }, "mixtral-8x7b");
    model("kv_lora_rank", [](engine::ModelSpec& m) { m.mla.kv_lora_rank = 0; }, "deepseek-v3");
    model("qk_nope_head_dim", [](engine::ModelSpec& m) { m.mla.qk_nope_head_dim = 0; }, "deepseek-v3");
    model("qk_rope_head_dim", [](engine::ModelSpec& m) { m.mla.qk_rope_head_dim = -1; }, "deepseek-v3");
    model("v_head_dim", [](engine::ModelSpec& m) { m.mla.v_head_dim = 0; }, "deepseek-v3");
    {
      engine::ModelSpec m = base().model;  // 10 trillion parameters and more
      m.layers = 1000;
      m.hidden = 131072;
      m.heads = 1024;
      m.kv_heads = 8;
      m.ffn = 524288;
      expect(engine::ValidateModel(m, "model."), "model", "a model past 10 trillion parameters");
    }
    {
      auto shape = engine::DeriveDenseShape(1e6);
      expect(shape.ok() ? std::nullopt : std::optional(shape.error()), "model.params_b", "1M parameters");
    }

    // engine::ValidateConstraints and RunPlan's own check.
    auto constraints = [&](const char* field, auto edit) {
      engine::PlanConstraints c;
      edit(c);
      expect(engine::ValidateConstraints(c, catalog), field, std::string("constraints with a bad ") + field);
    };
    constraints("deadline_days", [](engine::PlanConstraints& c) { c.deadline_days = -1; });
    constraints("budget", [](engine::PlanConstraints& c) { c.budget = -1; });
    constraints("max_gpus", [](engine::PlanConstraints& c) { c.max_gpus = 0; });
    constraints("currency", [](engine::PlanConstraints& c) { c.currency = "XYZ"; });
    constraints("allowed_gpus", [](engine::PlanConstraints& c) { c.gpus = {"abacus"}; });
    {
      engine::Scenario s = base();
      s.training.tokens = 0;
      auto p = engine::RunPlan(s, {}, catalog);
      expect(p.ok() ? std::nullopt : std::optional(p.error()), "tokens", "a plan without tokens");
    }

    // The codec's readers beyond the table's rows: the model as params_b, an architecture
    // or a config.json; enum and type errors; the constraints' fields.
    const std::string arch = R"("layers": 32, "hidden": 4096, "heads": 32, "ffn": 14336, "vocab": 128256)";
    const std::string hf = R"("num_hidden_layers": 32, "hidden_size": 4096, "num_attention_heads": 32,
                              "vocab_size": 128256, "intermediate_size": 14336)";
    estimate(R"({"model": {"params_b": 7, "layers": 32}})", "model");
    estimate(R"({"model": {"hf_config": {}, "layers": 32}})", "model");
    estimate(R"({"model": {"params_b": 1e-3}})", "model.params_b");
    estimate(R"({"model": {)" + arch + R"(, "activation": "relu"}})", "model.activation");
    estimate(R"({"model": {"layers": 32, "hidden": 4096, "heads": 32, "vocab": 128256}})", "model.ffn");
    estimate(R"({"model": {"layers": 32, "hidden": 4096, "heads": 3, "ffn": 14336, "vocab": 128256}})", "model.heads");
    estimate(R"({"model": {)" + arch + R"(, "kv_heads": 3}})", "model.kv_heads");
    estimate(R"({"model": {)" + arch + R"(, "mlp": "relu"}})", "model.mlp");
    estimate(R"({"model": {)" + arch + R"(, "norm": "batchnorm"}})", "model.norm");
    estimate(R"({"model": {)" + arch + R"(, "attention": "linear"}})", "model.attention");
    estimate(R"({"model": {)" + arch + R"(, "tied_embeddings": "no"}})", "model.tied_embeddings");
    estimate(R"({"model": {)" + arch + R"(, "name": 7}})", "model.name");
    estimate(R"({"model": {"layers": 32, "hidden": 4096.5, "heads": 32, "ffn": 14336, "vocab": 128256}})",
             "model.hidden");
    // A config.json as the scenario's model and as pasted into the page, whose status line
    // is "field: message" (app_state.cpp ImportPastedConfig).
    auto hf_config = [&](const std::string& config, const char* field) {
      estimate(R"({"model": {"hf_config": )" + config + "}}", field);
      auto imported = catalog::ImportHfConfig(catalog::Json::parse(config));
      EXPECT_FALSE(imported.ok()) << config;
      if (!imported.ok()) add(imported.error());
    };
    hf_config("[]", "model.hf_config");
    hf_config(R"({"hidden_size": 4096})", "model.hf_config.num_hidden_layers");
    hf_config("{" + hf + R"(, "model_type": 7})", "model.hf_config.model_type");
    hf_config(R"({"num_hidden_layers": 32, "hidden_size": 4096, "num_attention_heads": 0, "vocab_size": 128256,
                  "intermediate_size": 14336})",
              "model.hf_config.num_attention_heads");
    hf_config("{" + hf + R"(, "num_key_value_heads": 3})", "model.hf_config.num_key_value_heads");
    hf_config("{" + hf + R"(, "num_experts": 8})", "model.hf_config.moe_intermediate_size");
    hf_config(R"({"num_hidden_layers": 32, "hidden_size": "4096", "num_attention_heads": 32, "vocab_size": 128256,
                  "intermediate_size": 14336})",
              "model.hf_config.hidden_size");
    hf_config("{" + hf + R"(, "tie_word_embeddings": "yes"})", "model.hf_config.tie_word_embeddings");
    hf_config(R"({"num_hidden_layers": 0, "hidden_size": 4096, "num_attention_heads": 32, "vocab_size": 128256,
                  "intermediate_size": 14336})",
              "model.hf_config.num_hidden_layers");
    // The checks that name config.json keys: a llama config without intermediate_size, heads
    // that do not divide hidden_size, Gemma without head_dim, a text_config that leaves out a
    // key (with and without the model it names), and malformed nested objects.
    hf_config(R"({"num_hidden_layers": 32, "hidden_size": 4096, "num_attention_heads": 32, "vocab_size": 128256})",
              "model.hf_config.intermediate_size");
    hf_config(R"({"num_hidden_layers": 2, "hidden_size": 64, "num_attention_heads": 128, "vocab_size": 1000,
                  "intermediate_size": 256})",
              "model.hf_config.num_attention_heads");
    hf_config("{" + hf + R"(, "model_type": "gemma2", "num_key_value_heads": 8})", "model.hf_config.head_dim");
    hf_config(R"({"model_type": "gemma3", "text_config": {"model_type": "gemma3_text", "hidden_size": 3840,
                  "num_hidden_layers": 48, "num_attention_heads": 16, "vocab_size": 262208, "head_dim": 256,
                  "intermediate_size": 15360, "_name_or_path": "google/gemma-3-12b-pt"}})",
              "model.hf_config.text_config.num_key_value_heads");
    hf_config(R"({"model_type": "llava", "text_config": {"vocab_size": 32064}})",
              "model.hf_config.text_config.num_hidden_layers");
    hf_config("{" + hf + R"(, "text_config": 7})", "model.hf_config.text_config");
    hf_config("{" + hf + R"(, "rope_scaling": "linear"})", "model.hf_config.rope_scaling");
    hf_config("{" + hf + R"(, "rope_theta": 1e300})", "model.hf_config.rope_theta");
    hf_config("{" + hf + R"(, "rope_scaling": {"rope_type": "llama3", "factor": 1e6}})",
              "model.hf_config.rope_scaling.factor");
    hf_config("{" + hf + R"(, "quantization_config": "gptq"})", "model.hf_config.quantization_config");
    hf_config("{" + hf + R"(, "quantization_config": {"quant_method": "gptq", "bits": 64}})",
              "model.hf_config.quantization_config.bits");
    hf_config("{" + hf + R"(, "quantization_config": {"quant_method": "gptq", "bits": 4, "group_size": 4}})",
              "model.hf_config.quantization_config.group_size");
    hf_config("{" + hf + R"(, "quantization_config": {"quant_method": "fp8", "weight_block_size": [1, 1]}})",
              "model.hf_config.quantization_config.weight_block_size");
    // A quantized checkpoint refuses the methods that train its weights.
    for (const char* method : {"full", "freeze", "pretrain"}) {
      estimate(R"({"method": ")" + std::string(method) + R"(", "model": {"hf_config": {)" + hf +
                   R"(, "quantization_config": {"quant_method": "gptq", "bits": 4}}}})",
               "method");
    }
    estimate(R"({"model": "llama-3-8b", "": 1})", "scenario");  // an empty key: the document is at fault
    estimate(R"({"model": "llama-3-8b", "claim": {"": 1}})", "claim");
    estimate(R"({"model": "llama-3-8b", "method": ["lora"]})", "method");
    estimate(R"({"model": "llama-3-8b", "claim": {"wall_days": -1}})", "claim.wall_days");
    estimate(R"({"model": "llama-3-8b", "gpus": "8"})", "gpus");
    estimate(R"({"model": "llama-3-8b", "auto_restart": 1})", "auto_restart");
    estimate(R"({"model": "llama-3-8b", "network": 400})", "network");
    estimate(R"({"model": "llama-3-8b", "allowed_providers": [7]})", "allowed_providers[0]");
    estimate(R"({"model": "llama-3-8b", "allowed_providers": "aws"})", "allowed_providers");
    plan(R"({"model": "llama-3-8b", "tokens": 1e9, "budget": {"amount": "1000"}})", "budget.amount");
    plan(R"({"model": "llama-3-8b", "tokens": 1e9, "region": "CN"})", "region");
    plan(R"({"model": "llama-3-8b", "tokens": 1e9, "max_gpus": 1e6})", "max_gpus");
    plan(R"({"model": "llama-3-8b"})", "tokens");
    {
      auto goal = catalog::ConstraintsFromJson(catalog::Json::array());
      expect(goal.ok() ? std::nullopt : std::optional(goal.error()), "scenario", "constraints from an array");
    }
    add(engine::MakeInputError("scenario", "input.too_large_to_process"));  // api.cpp, on std::bad_alloc
    // The page's placeholders shown where a result or plan would be (app_state.cpp, and
    // wasm/main.cpp after repeated internal errors).
    for (const char* placeholder : {"input.page.not_computed", "input.page.not_planned", "input.page.stopped"}) {
      add(engine::MakeInputError("", placeholder));
    }
    // The finite guard's error (estimate.cpp RunEstimate), which the numeric contract keeps
    // out of reach: a figure that is not finite, blamed on one input or on the scenario.
    add(engine::MakeInputError("mfu", "input.outside_engine.field",
                               {engine::TextArg("field", "mfu"), engine::TextArg("figure", "time.wall_hours = inf")}));
    add(engine::MakeInputError("scenario", "input.outside_engine",
                               {engine::TextArg("figure", "throughput.mfu = nan")}));

    // The numeric contract (engine/input_limits.h), every field of its table at its edges:
    // under the floor (and a subnormal, the value the floors are there for), over the
    // ceiling, and a fraction where a whole number is needed; through the JSON reader (a
    // plan reads the scenario and the goal) and through engine::CheckLimit itself.
    for (const engine::NumericLimit& limit : engine::NumericLimits()) {
      const std::string field(limit.field);
      std::vector<double> values = {limit.min > 0 ? limit.min / 2 : limit.min - 1, limit.max * 2};
      if (limit.min > 0) values.push_back(5e-324);
      if (limit.integer) values.push_back(limit.min + 0.5);
      if (limit.zero_is_unset) values.push_back(-limit.min);
      for (double value : values) {
        catalog::Json doc = {{"model", "llama-3-8b"}, {"tokens", 1e9}};
        if (const size_t dot = field.find('.'); dot != std::string::npos) {
          catalog::Json& group = doc[field.substr(0, dot)];
          if (!group.is_object()) group = catalog::Json::object();
          group[field.substr(dot + 1)] = value;
        } else {
          doc[field] = value;
        }
        plan(doc.dump(), field.c_str());
        expect(engine::CheckLimit(field, value), field, "CheckLimit(" + field + ")");
      }
    }

    // Catalog overlays (catalog_loader.cpp, catalog_entries.cpp): malformed documents and
    // the embedded catalog's first entries with one field broken each. The error's field
    // reads "overlay: gpus[0] (<id>): memory_gb" (or "offers (<id>): gpu" for a cross
    // reference); the case checks how it ends.
    const catalog::Json files = catalog::Json::parse(catalog::EmbeddedCatalogJson());
    auto overlay = [&](const std::string& text, const std::string& field_end) {
      auto merged = catalog::ApplyOverlay(catalog, text, "overlay");
      const std::string what = "overlay " + text.substr(0, 80);
      EXPECT_FALSE(merged.ok()) << what << ": accepted, expected an error on " << field_end;
      if (merged.ok()) return;
      EXPECT_TRUE(merged.error().field.ends_with(field_end)) << what << ": " << merged.error().field;
      add(merged.error());
    };
    auto entry = [&](const char* file, const char* section, auto edit) {
      catalog::Json e = files[file][section][0];
      edit(e);
      return catalog::Json{{section, catalog::Json::array({e})}}.dump();
    };
    using catalog::Json;
    overlay(std::string(9u << 20, ' '), "overlay");
    overlay("{\"gpus\": [", "overlay");
    overlay(std::string(70, '[') + std::string(70, ']'), "overlay");
    overlay("[]", "overlay");
    overlay(R"({"gpus": {}})", "overlay: gpus");
    overlay(R"({"tpus": []})", "overlay: tpus");
    overlay(R"({"gpus": [7]})", "overlay: gpus[0]");
    overlay(entry("gpus", "gpus", [](Json& e) { e["id"] = "H100"; }), "): id");
    overlay(entry("gpus", "gpus", [](Json& e) { e["name"] = ""; }), "): name");
    overlay(entry("gpus", "gpus", [](Json& e) { e.erase("vendor"); }), "): vendor");
    overlay(entry("gpus", "gpus", [](Json& e) { e["memory_gb"] = 0; }), "): memory_gb");
    overlay(entry("gpus", "gpus", [](Json& e) { e["software"] = "opencl"; }), "): software");
    overlay(Json{{"gpus", {files["gpus"]["gpus"][0], files["gpus"]["gpus"][0]}}}.dump(), "gpus[1] (rtx-4090-24gb): id");
    overlay(entry("networks", "fabrics", [](Json& e) { e["id"] = "NVLink"; }), "): id");
    overlay(entry("networks", "fabrics", [](Json& e) { e["scope"] = "scale-across"; }), "): scope");
    overlay(entry("networks", "fabrics", [](Json& e) {
              e["scope"] = "scale-out";
              e["default_node_gbps"] = nullptr;
            }),
            "): default_node_gbps");
    overlay(entry("cloud_offers", "offers", [](Json& e) { e["id"] = "AWS p5"; }), "): id");
    overlay(entry("cloud_offers", "offers", [](Json& e) { e["billing"] = "per-gpu"; }), "): gpus");
    overlay(entry("cloud_offers", "offers", [](Json& e) { e["gpu"] = "abacus"; }), "): gpu");
    overlay(entry("cloud_offers", "offers", [](Json& e) { e["fabric"] = "smoke-signals"; }), "): fabric");
    overlay(entry("models", "models", [](Json& e) { e["id"] = "Llama 2"; }), "): id");
    overlay(entry("own_hardware", "servers", [](Json& e) { e["id"] = "HGX"; }), "): id");
    overlay(entry("own_hardware", "servers", [](Json& e) { e["form"] = "rack"; }), "): form");
    overlay(entry("own_hardware", "servers", [](Json& e) { e["gpu"] = "abacus"; }), "): gpu");
    overlay(entry("own_hardware", "network_gear", [](Json& e) { e["fabric"] = "smoke-signals"; }), "): fabric");
    overlay(entry("own_hardware", "storage", [](Json& e) { e["scope"] = "per rack"; }), "): scope");
    overlay(entry("examples", "examples", [](Json& e) { e["scenario"] = "llama-3-8b"; }), "): scenario");
    overlay(entry("examples", "examples", [](Json& e) { e["scenario"]["gpus"] = 0; }), "): scenario.gpus");
    // Each figure within the physical range of its unit, entries agreeing with themselves
    // (prices, node sizes), rates per US dollar, and the scenario parser's rules.
    overlay(entry("gpus", "gpus", [](Json& e) { e["memory_gib"] = e["memory_gb"].get<double>() * 3; }), "): memory_gib");
    overlay(entry("gpus", "gpus", [](Json& e) { e["tdp_w"] = 0.7; }), "): tdp_w");
    overlay(entry("gpus", "gpus", [](Json& e) { e["memory_bandwidth_tb_per_s"] = 2000; }), "): memory_bandwidth_tb_per_s");
    const std::string offer = R"({"offers":[{"id":"acme-8x","provider":"acme","provider_name":"Acme",
        "instance":"8xH100","gpu":"h100-sxm-80gb","billing":"instance","currency":"USD","region":"us",
        "price_date":"2026-11","confidence":"quote","source":"our quote","gpus":GPUS,"max_gpus":8,
        "on_demand_per_hour":24,"spot_per_hour":SPOT,"reserved_1yr_per_hour":R1,"reserved_3yr_per_hour":R3}]})";
    auto offer_with = [&](const char* gpus, const char* spot, const char* r1, const char* r3) {
      std::string text = offer;
      for (auto [from, to] : {std::pair{"GPUS", gpus}, {"SPOT", spot}, {"R1", r1}, {"R3", r3}}) {
        text.replace(text.find(from), std::string(from).size(), to);
      }
      return text;
    };
    overlay(offer_with("16", "null", "null", "null"), "): gpus");
    overlay(offer_with("8", "30", "null", "null"), "): spot_per_hour");
    overlay(offer_with("8", "null", "25", "null"), "): reserved_1yr_per_hour");
    overlay(offer_with("8", "null", "18", "19"), "): reserved_3yr_per_hour");
    overlay(offer_with("8", "1e9", "null", "null"), "): spot_per_hour");
    overlay(R"({"servers":[{"id":"my-hgx","name":"HGX","gpu":"h100-sxm-80gb","form":"hgx","gpus":8,"power_kw":10.2,
        "price_usd_new":300000,"price_usd_used":400000,"price_date":"2026-11","source":"quote","source_date":"2026-11"}]})",
            "): price_usd_used");
    auto rate = [](const char* code, const char* per_usd) {
      return std::string(R"({"rates":[{"currency":")") + code + R"(","per_usd":)" + per_usd +
             R"(,"date":"2026-11-01","source":"our bank"}]})";
    };
    overlay(rate("USD", "1"), "): currency");
    overlay(rate("cny", "7"), "): currency");
    overlay(rate("EUR", "85"), "): per_usd");
    auto facility = [](const char* id, const char* unit, const char* value) {
      return std::string(R"({"facility":[{"id":")") + id + R"(","name":"edited","unit":")" + unit +
             R"(","value":)" + value + R"(,"source":"our finance team","source_date":"2026-11"}]})";
    };
    overlay(facility("depreciation-years", "years", "0"), "): value");
    overlay(facility("depreciation-years", "months", "36"), "): unit");
    overlay(facility("my-figure", "furlongs", "1"), "): unit");
    overlay(facility("resale-fraction-3y", "months", "0.5"), "): unit");
    overlay(rate("CNY", "7.1") + std::string(1, '\0') + "{}", "overlay");
    overlay(R"({"rates":[],"rates":[]})", "rates");
    overlay(R"({"rates":[{"currency":"CNY","per_usd":7.1,"per_usd":710,"date":"2026-11-01","source":"x"}]})",
            "rates[0].per_usd");
    return out;
  }();
  return sweep;
}

// Link notices (app.cpp): the parameters DecodeUrlState ignores, each "key: why"; every
// fragment below has at least one.
std::vector<engine::Message> LinkNoticeSweep() {
  const engine::Catalog& catalog = catalog::Embedded().value();
  std::vector<engine::Message> notices;
  auto decode = [&](const std::string& fragment) {
    const catalog::UrlState link = catalog::DecodeUrlState(fragment, catalog);
    EXPECT_FALSE(link.ignored.empty()) << "no notice for " << fragment.substr(0, 200);
    notices.insert(notices.end(), link.ignored.begin(), link.ignored.end());
  };
  decode("#v=2&gpus=8");           // a newer version
  decode("#v=one&gpus=8");         // not a version
  decode("#v=1&seqlen=4096");      // unknown key
  decode("#v=1&" + std::string(80, 'k') + "=1");  // unknown and long: the key is cut
  decode("#v=1&gpus=eight");       // malformed number
  decode("#v=1&flash_attention=maybe");  // malformed boolean
  decode("#v=1&lang=fr");          // refused page settings
  decode("#v=1&theme=blue");
  decode("#v=1&gpus");             // no value
  decode("#v=1&tp=2&tp=4");        // given twice
  decode("#v=1&%zz=1");            // a broken escape
  // Values the scenario and constraint parsers refuse: "key: <input error>".
  for (const char* refused : {"gpus=0", "method=sft", "model=gpt-9", "tp=3", "network=nvlink4", "region=mars",
                              "deadline_days=-1", "params_b=0", "zero=2.5", "objective=fast"}) {
    decode(std::string("#v=1&") + refused);
  }
  decode("#v=1&m.layers=32&m.hidden=4096&m.heads=3&m.ffn=14336&m.vocab=128256");  // a refused architecture
  decode("#v=1&claim=2");          // a group, set field by field
  decode("#v=1&model=%ff%fe");     // a value that is not UTF-8
  decode("#v=1&%c3%28=1");         // a parameter name that is not UTF-8
  decode("#v=1&pp=33");            // more stages than the model's layers
  decode("#v=1&method=freeze&freeze_trainable_layers=40");
  decode("#v=1&gpu=v100-sxm2-32gb&precision=bf16");  // no bfloat16 on Volta
  // Every field of the numeric contract over its ceiling and, where it has one, under its
  // floor, as a link sets it (params_b is the link's name for model.params_b).
  for (const engine::NumericLimit& limit : engine::NumericLimits()) {
    const std::string key = limit.field == "model.params_b" ? "params_b" : std::string(limit.field);
    char value[64];
    std::snprintf(value, sizeof value, "%.17g", limit.max * 2);
    decode("#v=1&" + key + "=" + value);
    if (limit.min > 0) decode("#v=1&" + key + "=5e-324");
  }
  decode("#v=1&" + std::string(17000, 'x'));  // too long
  std::string many = "#v=1";
  for (int i = 0; i < 210; ++i) many += "&p" + std::to_string(i) + "=1";
  decode(many);  // too many parameters
  return notices;
}

TEST(I18n, InputErrorSweepReachesEveryCheck) {
  const ErrorSweep& sweep = InputErrorSweep();
  EXPECT_GT(sweep.errors.size(), 250u) << "the input-error sweep collects too few errors";
  for (const char* field : {"scenario", "model", "model.params_b", "model.heads", "model.hf_config", "seq_len", "gpus",
                            "tp", "ep", "zero", "offload", "gpu", "network", "precision", "currency", "budget.curency",
                            "allowed_gpus", "tokens", "overlay", "method", "freeze_trainable_layers",
                            "model.hf_config.intermediate_size", "model.hf_config.head_dim",
                            "model.hf_config.text_config.num_key_value_heads", "model.hf_config.quantization_config"}) {
    EXPECT_TRUE(sweep.fields.count(field)) << "no input error names " << field;
  }
  for (const engine::NumericLimit& limit : engine::NumericLimits()) {
    EXPECT_TRUE(sweep.fields.count(std::string(limit.field))) << "no input error names " << limit.field;
  }
}

// Every input error is drawn from its template (ui::ErrorText), with no English left; the
// few still made from a bare sentence are covered by the patterns meanwhile.
TEST(I18n, EveryInputErrorIsTranslated) {
  std::vector<engine::Message> templated;
  std::vector<std::string> sentences;
  for (const engine::InputError& e : InputErrorSweep().errors) {
    if (e.code.empty()) {
      EXPECT_TRUE(MayLackTemplate(e)) << "no template for the error of " << e.field << ": \"" << e.message << "\"";
      sentences.push_back(e.message);
      continue;
    }
    ExpectTemplated(engine::ErrorMessage(e), e.field);
    templated.push_back(engine::ErrorMessage(e));
  }
  ExpectNoProse(InChinese(templated), "input error");
  ExpectCovered(sentences, "input error");
  ExpectNoEnglishProse(sentences, "input error");
}

TEST(I18n, EveryLinkNoticeIsTranslated) {
  const std::vector<engine::Message> notices = LinkNoticeSweep();
  for (const engine::Message& notice : notices) ExpectTemplated(notice, "link notice");
  ExpectNoProse(InChinese(notices), "link notice");
}

TEST(I18n, DISABLED_PrintInputErrorTranslations) {
  std::vector<engine::Message> all;
  for (const engine::InputError& e : InputErrorSweep().errors) all.push_back(engine::ErrorMessage(e));
  for (const engine::Message& notice : LinkNoticeSweep()) all.push_back(notice);
  for (const auto& [english, zh] : InChinese(all)) std::cout << english << "\n  " << zh << "\n";
}

// Input errors and link notices from their templates, with the arguments the page formats
// and the words (units, JSON types, the parser's pieces) said in 简体中文 too.
TEST(I18n, RendersInputErrorsAndLinkNoticesFromTheirTemplates) {
  const engine::Catalog& catalog = catalog::Embedded().value();
  ui::SetLanguage(ui::Lang::kZh);
  EXPECT_EQ(ui::ErrorText(*engine::CheckLimit("mfu", 5e-324)),
            "必须为 0（取预测值）或在 0.001 到 1 之间，实际为 4.94e-324");
  EXPECT_EQ(ui::ErrorText(*engine::CheckLimit("seq_len", 0)), "必须在 1 到 10000000 tokens之间，实际为 0");
  EXPECT_EQ(ui::ErrorText(*engine::CheckLimit("mfu", 1.0000000000000002)),
            "必须为 0（取预测值）或在 0.001 到 1 之间，实际为 1.0000000000000002");
  const auto typed = catalog::ParseScenario(R"({"model": "llama-3-8b", "seq_len": "4096"})", catalog);
  ASSERT_FALSE(typed.ok());
  EXPECT_EQ(ui::ErrorText(typed.error()), "必须是数字，实际为字符串");
  const auto broken = catalog::ParseScenario(R"({"m)", catalog);
  ASSERT_FALSE(broken.ok());
  EXPECT_EQ(ui::ErrorText(broken.error()),
            "不是有效的 JSON：第 1 行第 4 列：解析对象键时出现语法错误，无效的字符串：缺少右引号（已读取 '\"m'），"
            "应为字符串");
  const catalog::UrlState link = catalog::DecodeUrlState("#v=1&gpus=0&seqlen=1", catalog);
  ASSERT_EQ(link.ignored.size(), 2u);
  EXPECT_EQ(ui::MessageText(link.ignored[0]), "seqlen：不是 TrainSizer 的设置项");
  EXPECT_EQ(ui::MessageText(link.ignored[1]), "gpus：必须在 1 到 1048576 张 GPU之间，实际为 0");
  // An error not yet given a template is its English sentence, through the patterns.
  EXPECT_EQ(ui::ErrorText(engine::InputError("gpus", "must be between 1 and 1048576, got 0")),
            "必须在 1 到 1048576 之间，实际为 0");
  ui::SetLanguage(ui::Lang::kEn);
  EXPECT_EQ(ui::ErrorText(typed.error()), "must be a number, got a string");
}

TEST(I18n, TranslatesInputErrorsAndLinkNotices) {
  ui::SetLanguage(ui::Lang::kZh);
  // A pattern ending in {}, and one whose last {} runs over spaces (the list of ids).
  EXPECT_EQ(ui::TranslateMessage("must be between 1 and 1048576, got 0"), "必须在 1 到 1048576 之间，实际为 0");
  EXPECT_EQ(ui::TranslateMessage("unknown storage tier 'floppy'; known: s3-standard, lustre-ssu"),
            "未知存储档位 'floppy'；可用：s3-standard, lustre-ssu");
  // A word the codec put into a slot, translated by the table.
  EXPECT_EQ(ui::TranslateMessage("must be an integer, got a string"), "必须是整数，实际为字符串");
  // A link notice: the key, then the input error.
  EXPECT_EQ(ui::TranslateMessage("gpus: must be between 1 and 1048576, got 0"), "gpus：必须在 1 到 1048576 之间，实际为 0");
  // The numeric contract's ranges, with the meaning of 0 and the unit; a link notice whose
  // key must not be swallowed by a pattern that starts with a slot ("{} needs ...").
  EXPECT_EQ(ui::TranslateMessage("mfu: must be 0 (predicted) or between 0.001 and 1, got 5e-324"),
            "mfu：必须为 0（取预测值）或在 0.001 到 1 之间，实际为 5e-324");
  EXPECT_EQ(ui::TranslateMessage("seq_len: must be between 1 and 10000000 tokens, got 0"),
            "seq_len：必须在 1 到 10000000 tokens 之间，实际为 0");
  EXPECT_EQ(ui::TranslateMessage("precision: bf16 needs bfloat16 arithmetic; NVIDIA Tesla T4 has none (use fp16: "
                                 "mixed precision with loss scaling)"),
            "precision：bf16 需要 bfloat16 运算，而 NVIDIA Tesla T4 不支持（请使用 fp16：带 loss scaling 的混合精度）");
  // The quantization's bits and group size go into their own slots, not one "({})".
  EXPECT_EQ(ui::TranslateMessage("config.json has a quantization_config (gptq, 4-bit, group size 128): the "
                                 "checkpoint's linear weights are sized as stored, 0.5195 B each with their scales, "
                                 "under lora and qlora alike."),
            "config.json 含有 quantization_config（gptq，4-bit，分组大小 128）：检查点的线性层权重按存储格式估算，"
            "每个 0.5195 B（含缩放因子），lora 与 qlora 相同。");
  // "{}: {}. Check the model's licence for your use." goes before "{}:", which it extends.
  EXPECT_EQ(ui::TranslateMessage("NVIDIA A30: Borderline under the US BIS 17-Oct-2023 rule: TPP~2640 < 4800 and "
                                 "density ~3.2 < 5.92 (not 3A090.a), but may fall under 3A090.b (data-center part, "
                                 "TPP>=2400) which needs a license or notification - unverified. Check the model's "
                                 "licence for your use."),
            "NVIDIA A30：处于美国 BIS 2023 年 10 月 17 日规则的边界：TPP~2640 < 4800，性能密度 ~3.2 < 5.92（不属 "
            "3A090.a），但可能属于 3A090.b（数据中心产品，TPP>=2400），需许可证或事先通报，未核实。"
            "请确认模型许可证是否允许你的用途。");
  // A JSON parse error, piece by piece.
  EXPECT_EQ(ui::TranslateMessage("is not valid JSON: at line 1, column 2: syntax error while parsing object key - "
                                 "invalid literal; last read: '{m'; expected string literal"),
            "不是有效的 JSON（第 1 行第 2 列）：解析对象键时出现语法错误，无效的字面量（已读取 '{m'），应为字符串");
  // Many places where a sentence could start ("gpu:" is a "{}:") and an end nothing
  // covers: each place is tried once, not in every combination (2^300).
  std::string many;
  for (int i = 0; i < 300; ++i) many += "gpu: ";
  many += "zzz";
  EXPECT_EQ(ui::TranslateMessage(many), many);
  // The worst case at the longest text translated (4,096 bytes), timed: a page frame.
  std::string longest;
  while (longest.size() + 5 < 4096) longest += "gpu: ";
  longest += "z";
  const auto start = std::chrono::steady_clock::now();
  EXPECT_EQ(ui::TranslateMessage(longest), longest);
  const std::chrono::duration<double> took = std::chrono::steady_clock::now() - start;
  std::printf("4,096-byte worst case: %.3f s\n", took.count());
  // Longer texts echo an input and are left as they are, at once.
  const std::string huge = many + std::string(100000, 'x');
  EXPECT_EQ(ui::TranslateMessage(huge), huge);
  ui::SetLanguage(ui::Lang::kEn);
}

TEST(I18n, TranslatesEngineSentences) {
  ui::SetLanguage(ui::Lang::kZh);
  // A warning with three slots (estimate.cpp, does_not_fit).
  EXPECT_EQ(ui::TranslateMessage("Needs 95.12 GiB per GPU but NVIDIA H100 SXM5 80GB has 79.65 GiB."),
            "每张 GPU 需要 95.12 GiB，但 NVIDIA H100 SXM5 80GB 只有 79.65 GiB。");
  // A checklist answer of three sentences.
  EXPECT_EQ(ui::TranslateMessage("fp16 training. NVIDIA H100 SXM5 80GB supports FP8, about 1.3× faster for large "
                                 "GEMMs. FP16 needs loss scaling; prefer bf16 where the GPU supports it."),
            "fp16 训练。NVIDIA H100 SXM5 80GB 支持 FP8，大型 GEMM 约快 1.3×。"
            "FP16 需要 loss scaling；GPU 支持时优先使用 bf16。");
  // Reordered slots ({0}, {2}, {1}).
  EXPECT_EQ(ui::TranslateMessage("Needs 40.2 GiB per GPU, more than the 24.00 GiB of NVIDIA GeForce RTX 4090: shard "
                                 "more (ZeRO-3), recompute, offload or add GPUs."),
            "每张 GPU 需要 40.2 GiB，超过了 NVIDIA GeForce RTX 4090 的 24.00 GiB：请加大分片（ZeRO-3）、启用重计算、"
            "offload 或增加 GPU。");
  // The host-RAM line with offload, matched piece by piece.
  EXPECT_EQ(ui::TranslateMessage("64 GiB OS + 32 GiB pinned/dataloader per GPU + 13.81 GiB offloaded state + 8.06 GiB "
                                 "checkpoint staging; the rule of thumb \"2× GPU memory\" says 1280.00 GiB"),
            "64 GiB 操作系统 + 每张 GPU 32 GiB 锁页内存/数据加载 + 13.81 GiB offload 的状态 + 8.06 GiB 检查点暂存；"
            "按“2× GPU 显存”的经验法则应为 1280.00 GiB");
  // Memory-table formulas, matched piece by piece ("+ ...", "/ 8 (ZeRO)", "→ CPU").
  EXPECT_EQ(ui::TranslateMessage("4.19e7 trainable × 4 B + 8.03e9 frozen × 2 B / 16 (ZeRO) → CPU"),
            "4.19e7 可训练参数 × 4 B + 8.03e9 冻结参数 × 2 B / 16（ZeRO） → CPU");
  EXPECT_EQ(ui::TranslateMessage("8.03e9 × (4 B fp32 master + 8 B moments) / 8 (ZeRO)"),
            "8.03e9 ×（4 B fp32 主权重 + 8 B 动量） / 8（ZeRO）");
  EXPECT_EQ(ui::TranslateMessage("32 layers × 1 micro-batch(es) in flight × 0.53 GiB per layer (s=4096, b=1)"),
            "32 层 × 1 个在途微批 × 每层 0.53 GiB（s=4096，b=1）");
  EXPECT_EQ(ui::TranslateMessage("1.0 GiB CUDA context + 0.5 GiB NCCL + 3.91 GiB ZeRO-3 gathered units + 5% "
                                 "fragmentation (1.94 GiB)"),
            "1.0 GiB CUDA 上下文 + 0.5 GiB NCCL + 3.91 GiB ZeRO-3 已聚合的单元 + 5% 显存碎片（1.94 GiB）");
  // Not covered: the English comes back unchanged.
  EXPECT_EQ(ui::TranslateMessage("bf16 training. Something new."), "bf16 training. Something new.");
  ui::SetLanguage(ui::Lang::kEn);
  EXPECT_EQ(ui::TranslateMessage("bf16 training."), "bf16 training.");
}

TEST(I18n, DISABLED_PrintEngineTranslations) { PrintTranslations(EngineSweep().sentences); }

TEST(I18n, TranslatesPatternsWithTheirNumbers) {
  ui::SetLanguage(ui::Lang::kZh);
  EXPECT_STREQ(ui::T("Dark theme"), "深色主题");
  EXPECT_EQ(std::string(ui::L("Dark theme")), "深色主题###Dark theme");
  ui::SetLanguage(ui::Lang::kEn);
  EXPECT_STREQ(ui::T("Dark theme"), "Dark theme");
  EXPECT_EQ(std::string(ui::L("Dark theme##x")), "Dark theme###Dark theme##x");
}

// Every character of every translation has a glyph in the page's fonts (Inter + the
// WenQuanYi subset built from the characters the sources use), so no tofu boxes.
TEST(I18n, EmbeddedFontsCoverEveryTranslatedCharacter) {
  ImGui::CreateContext();
  const ui::Fonts fonts = ui::LoadFontsAndStyle(1.0f);
  unsigned char* pixels = nullptr;
  int w = 0, h = 0;
  ImGui::GetIO().Fonts->GetTexDataAsRGBA32(&pixels, &w, &h);
  std::set<unsigned> missing;
  for (const std::string& text : ui::AllTranslations()) {
    for (const char* p = text.c_str(); *p != 0;) {
      unsigned c = 0;
      const int n = ImTextCharFromUtf8(&c, p, nullptr);
      p += n > 0 ? n : 1;
      if (c >= 0x20 && fonts.body->FindGlyphNoFallback(ImWchar(c)) == nullptr) missing.insert(c);
    }
  }
  ImGui::DestroyContext();
  for (unsigned c : missing) ADD_FAILURE() << "no glyph for U+" << std::hex << c;
}

}  // namespace
