// The 简体中文 page is complete: every string the UI draws through T()/L() and every
// sentence the engine says (warnings, checklist, bill of materials, planner rejections)
// has a translation, and every character of the translations is in the embedded font.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <optional>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "catalog/codec/catalog_loader.h"
#include "catalog/codec/hf_config.h"
#include "catalog/codec/plan_json.h"
#include "catalog/codec/scenario_json.h"
#include "engine/estimate.h"
#include "engine/launch_plan.h"
#include "engine/planner.h"
#include "imgui.h"
#include "imgui_internal.h"  // ImTextCharFromUtf8
#include "wasm/ui/i18n.h"
#include "wasm/ui/theme.h"

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
};

const Sweep& EngineSweep() {
  static const Sweep sweep = [] {
    const engine::Catalog& catalog = catalog::Embedded().value();
    Sweep out;
    auto add = [&](const std::string& text) {
      if (!text.empty()) out.sentences.push_back(text);
    };
    auto collect = [&](const engine::Estimate& e) {
      for (const engine::Warning& w : e.warnings) {
        add(w.message);
        out.warning_codes.insert(w.code);
      }
      for (const engine::CheckItem& c : e.checklist) {
        add(c.topic);
        add(c.answer);
        out.topics.insert(c.topic);
      }
      for (const engine::BomLine& line : e.server.lines) {
        add(line.item);
        add(line.why);
      }
      if (e.claim.present) {
        add(e.claim.verdict);
        add(e.claim.message);
        out.verdicts.insert(e.claim.verdict);
      }
      if (e.model_derived) add(e.model.name);  // "Dense model derived from 30.0B parameters"
    };
    // Every estimate also gets the launch-config notes of every tool (the export panel
    // shows them through TranslateMessage).
    auto estimate = [&](const engine::Scenario& s) -> std::optional<engine::Estimate> {
      auto e = engine::RunEstimate(s, catalog);
      EXPECT_TRUE(e.ok()) << "sweep scenario rejected: " << (e.ok() ? "" : e.error().field + ": " + e.error().message);
      if (!e.ok()) return std::nullopt;
      collect(e.value());
      for (engine::LaunchTool tool : {engine::LaunchTool::kDeepSpeed, engine::LaunchTool::kTorchrun,
                                      engine::LaunchTool::kLlamaFactory, engine::LaunchTool::kMegatron}) {
        for (const std::string& note : engine::LaunchNotes(s, tool)) add(note);
      }
      return e.value();
    };
    auto plan = [&](const engine::Scenario& s, const engine::PlanConstraints& goal) {
      auto p = engine::RunPlan(s, goal, catalog);
      EXPECT_TRUE(p.ok()) << "sweep plan rejected: " << (p.ok() ? "" : p.error().field + ": " + p.error().message);
      if (!p.ok()) return;
      for (const engine::Rejection& r : p.value().rejected) add(r.reason);
      for (const engine::Plan& pick : p.value().picks) {
        for (const std::string& label : pick.labels) add(label);
      }
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
    for (const engine::GpuSpec& g : catalog.gpus) {
      engine::Scenario s = base("llama-3.2-1b", g.id.c_str(), 1);
      s.training.method = engine::Method::kPretrain;
      estimate(s);
      s = base("llama-3.2-1b", g.id.c_str(), 16);
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
      s = base("llama-3-8b", "h100-sxm-80gb", 9);  // 9 GPUs over two 8-GPU nodes; optimizer in backward
      s.parallel.gpus_per_node = 8;
      s.training.optimizer_in_backward = true;
      estimate(s);
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
        // wasm/ui/app_state.cpp ImportPastedConfig
        std::string status = "Imported " + imported.value().spec.name + ".";
        for (const engine::Warning& w : imported.value().warnings) status += " " + w.message;
        add(status);
      }
      doc["model"]["hf_config"].erase("_name_or_path");
      imported = catalog::ImportHfConfig(doc["model"]["hf_config"]);
      if (imported.ok()) add("Imported " + imported.value().spec.name + ".");
      add("Not valid JSON: paste the whole config.json.");
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

    // The catalog's examples as the page loads them: title, description, estimate, plan.
    for (const engine::Example& x : catalog.examples) {
      add(x.title);
      add(x.description);
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
                           "uneven_pipeline", "sequence_parallel_without_tp", "no_flash_attention_long_context",
                           "pipeline_bubble", "no_auto_restart", "low_goodput", "does_not_fit", "hf_config_unknown_type",
                           "hf_config_dense_layers", "hf_config_unmapped_keys"}) {
    EXPECT_TRUE(sweep.warning_codes.count(code)) << "the sweep never triggers warning " << code;
  }
  for (const char* verdict : {"impossible", "implausible", "optimistic", "plausible", "conservative", "incomplete"}) {
    EXPECT_TRUE(sweep.verdicts.count(verdict)) << "the sweep never reaches claim verdict " << verdict;
  }
  EXPECT_EQ(sweep.topics.size(), 7u) << "the sweep misses a checklist topic";
}

TEST(I18n, EveryEngineSentenceIsTranslated) {
  std::set<std::string> missing;
  for (const std::string& sentence : EngineSweep().sentences) {
    if (!ui::CoversMessage(sentence)) missing.insert(sentence);
  }
  for (const std::string& m : missing) ADD_FAILURE() << "no 简体中文 pattern covers: \"" << m << "\"";
}

// A sentence the table does not know can still hide inside a pattern's {} (a slot takes
// any text), so translations are also checked for English prose left over: four lowercase
// words in a row.
TEST(I18n, EngineTranslationsLeaveNoEnglishProse) {
  const std::regex prose(R"([a-z]+ [a-z]+ [a-z]+ [a-z]+)");
  ui::SetLanguage(ui::Lang::kZh);
  std::set<std::string> leaks;
  for (const std::string& sentence : EngineSweep().sentences) {
    const std::string& zh = ui::TranslateMessage(sentence);
    if (zh != sentence && std::regex_search(zh, prose)) leaks.insert(sentence + "\n    -> " + zh);
  }
  ui::SetLanguage(ui::Lang::kEn);
  for (const std::string& leak : leaks) ADD_FAILURE() << "English left in the translation of: " << leak;
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
  // Not covered: the English comes back unchanged.
  EXPECT_EQ(ui::TranslateMessage("bf16 training. Something new."), "bf16 training. Something new.");
  ui::SetLanguage(ui::Lang::kEn);
  EXPECT_EQ(ui::TranslateMessage("bf16 training."), "bf16 training.");
}

// Prints every sentence of the sweep with its translation, for reading the table in context:
//   ui_smoke_test --gtest_also_run_disabled_tests --gtest_filter=I18n.DISABLED_PrintEngineTranslations
TEST(I18n, DISABLED_PrintEngineTranslations) {
  ui::SetLanguage(ui::Lang::kZh);
  std::set<std::string> seen;
  for (const std::string& sentence : EngineSweep().sentences) {
    if (seen.insert(sentence).second) std::cout << sentence << "\n  " << ui::TranslateMessage(sentence) << "\n";
  }
  ui::SetLanguage(ui::Lang::kEn);
}

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
