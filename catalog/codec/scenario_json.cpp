#include "scenario_json.h"

#include <set>
#include <string>

#include "hf_config.h"
#include "limited_fields.h"
#include "model_json.h"

namespace catalog {
namespace {

using engine::InputError;
using engine::Result;

const std::set<std::string> kScenarioFieldNames = {
    "model", "method", "lora_rank", "lora_targets", "lora_dropout", "kernels", "freeze_trainable_layers", "precision", "optimizer", "seq_len",
    "micro_batch", "global_batch", "tokens", "activation_checkpointing", "flash_attention", "cross_entropy",
    "optimizer_in_backward", "gpu", "gpus",
    "gpus_per_node", "tp", "pp", "cp", "ep", "virtual_pipeline", "sequence_parallel", "zero", "offload", "framework", "network", "node_gbps", "dataset_tokens",
    "epochs", "mfu", "claim", "auto_restart", "restart_minutes", "recompute_layers", "tp_comm_overlap", "storage",
    // planner constraints (plan_json.cpp)
    "deadline_days", "budget", "currency", "objective", "purchase", "allowed_gpus", "allowed_providers", "region",
    "max_gpus", "allow_spot", "own_utilization"};

// wall_days is read as wall_hours × 24; ScenarioToJson writes wall_hours.
const std::set<std::string> kClaimFieldNames = {"tokens_per_s", "wall_hours", "wall_days"};

template <class Enum, size_t N>
std::optional<InputError> ReadEnum(const Json& doc, const char* key, const std::array<std::string_view, N>& names,
                                   Enum* out) {
  auto it = doc.find(key);
  if (it == doc.end()) return std::nullopt;
  std::string allowed;
  for (auto n : names) allowed += (allowed.empty() ? "" : ", ") + std::string(n);
  if (!it->is_string()) return InputError{key, "must be one of " + allowed + ", got " + TypeName(*it)};
  auto value = engine::EnumFromName<Enum>(names, it->get_ref<const std::string&>());
  if (!value) return InputError{key, "must be one of " + allowed + ", got '" + engine::QuotedInput(it->get_ref<const std::string&>()) + "'"};
  *out = *value;
  return std::nullopt;
}

std::optional<InputError> ReadModel(const Json& doc, const engine::Catalog& catalog, engine::Scenario& s,
                                    HfQuantization& quantization) {
  if (!doc.contains("model")) {
    return InputError{"model", "is required: a preset id, {\"params_b\": N}, an architecture or {\"hf_config\": {...}}"};
  }
  const Json& m = doc["model"];
  if (m.is_string()) {
    const std::string id = m.get<std::string>();
    const engine::ModelPreset* preset = catalog.FindModel(id);
    if (preset == nullptr) {
      return InputError{"model", "unknown preset '" + engine::QuotedInput(id) + "'; see `trainsizer catalog` for the " +
                                     std::to_string(catalog.models.size()) + " preset ids"};
    }
    s.model = preset->spec;
    return std::nullopt;
  }
  if (m.is_object() && m.contains("params_b")) {
    if (m.size() != 1) return InputError{"model", "params_b cannot be combined with other model fields"};
    double billions = 0;
    if (auto e = ReadLimited(m, "params_b", "model.", &billions)) return e;
    auto shape = engine::DeriveDenseShape(billions * 1e9);
    if (!shape.ok()) return shape.error();
    s.model = shape.value();
    s.model_derived = true;
    return std::nullopt;
  }
  if (m.is_object() && m.contains("hf_config")) {
    if (m.size() != 1) return InputError{"model", "hf_config cannot be combined with other model fields"};
    auto imported = ImportHfConfig(m["hf_config"]);
    if (!imported.ok()) return imported.error();
    s.model = imported.value().spec;
    s.input_warnings = imported.value().warnings;
    quantization = imported.value().quantization;
    return std::nullopt;
  }
  auto arch = ParseArchitecture(m, "model.");
  if (!arch.ok()) return arch.error();
  s.model = arch.value();
  return std::nullopt;
}

std::optional<InputError> ReadTraining(const Json& d, engine::Training& t) {
  using namespace engine;
  if (auto e = ReadEnum(d, "method", kMethodNames, &t.method)) return e;
  if (auto e = ReadEnum(d, "lora_targets", kLoraTargetNames, &t.lora_targets)) return e;
  if (auto e = ReadEnum(d, "precision", kPrecisionNames, &t.precision)) return e;
  if (auto e = ReadEnum(d, "optimizer", kOptimizerNames, &t.optimizer)) return e;
  if (auto e = ReadEnum(d, "activation_checkpointing", kRecomputeNames, &t.activation_checkpointing)) return e;
  if (auto e = ReadLimited(d, "lora_rank", "", &t.lora_rank)) return e;
  if (auto e = ReadLimited(d, "recompute_layers", "", &t.recompute_layers)) return e;
  if (auto e = ReadLimited(d, "freeze_trainable_layers", "", &t.freeze_trainable_layers)) return e;
  if (auto e = ReadLimited(d, "seq_len", "", &t.seq_len)) return e;
  if (auto e = ReadLimited(d, "micro_batch", "", &t.micro_batch)) return e;
  if (auto e = ReadLimited(d, "global_batch", "", &t.global_batch)) return e;
  if (auto e = ReadLimited(d, "tokens", "", &t.tokens)) return e;
  if (auto e = ReadLimited(d, "dataset_tokens", "", &t.dataset_tokens)) return e;
  if (auto e = ReadLimited(d, "epochs", "", &t.epochs)) return e;
  if (auto e = ReadLimited(d, "mfu", "", &t.mfu)) return e;
  if (auto e = ReadBool(d, "auto_restart", "", &t.auto_restart)) return e;
  if (auto e = ReadLimited(d, "restart_minutes", "", &t.restart_minutes)) return e;
  if (d.contains("claim")) {
    const Json& c = d["claim"];
    if (!c.is_object()) return InputError{"claim", "must be an object like {\"tokens_per_s\": 100000} or {\"wall_days\": 3}"};
    for (const auto& [key, value] : c.items()) {
      if (key.empty()) return InputError{"claim", "has an empty key \"\"; its fields are tokens_per_s, wall_hours, wall_days"};
      if (!kClaimFieldNames.count(key)) {
        return InputError{"claim." + engine::QuotedInput(key), "is not a claim field (tokens_per_s, wall_hours, wall_days)"};
      }
    }
    double days = 0;
    if (auto e = ReadLimited(c, "tokens_per_s", "claim.", &t.claim.tokens_per_s)) return e;
    if (auto e = ReadLimited(c, "wall_hours", "claim.", &t.claim.wall_hours)) return e;
    if (auto e = ReadLimited(c, "wall_days", "claim.", &days)) return e;
    if (days > 0) t.claim.wall_hours = days * 24;
  }
  if (auto e = ReadEnum(d, "cross_entropy", kCrossEntropyNames, &t.cross_entropy)) return e;
  if (auto e = ReadEnum(d, "kernels", kKernelNames, &t.kernels)) return e;
  if (auto e = ReadLimited(d, "lora_dropout", "", &t.lora_dropout)) return e;
  if (auto e = ReadBool(d, "optimizer_in_backward", "", &t.optimizer_in_backward)) return e;
  return ReadBool(d, "flash_attention", "", &t.flash_attention);
}

std::optional<InputError> ReadParallel(const Json& d, engine::Parallelism& p) {
  if (auto e = ReadLimited(d, "gpus", "", &p.gpus)) return e;
  if (auto e = ReadLimited(d, "gpus_per_node", "", &p.gpus_per_node)) return e;
  if (auto e = ReadLimited(d, "tp", "", &p.tp)) return e;
  if (auto e = ReadLimited(d, "pp", "", &p.pp)) return e;
  if (auto e = ReadLimited(d, "cp", "", &p.cp)) return e;
  if (auto e = ReadLimited(d, "ep", "", &p.ep)) return e;
  if (auto e = ReadLimited(d, "virtual_pipeline", "", &p.virtual_pipeline)) return e;
  if (auto e = ReadLimited(d, "zero", "", &p.zero)) return e;
  if (auto e = ReadBool(d, "sequence_parallel", "", &p.sequence_parallel)) return e;
  if (auto e = ReadBool(d, "tp_comm_overlap", "", &p.tp_comm_overlap)) return e;
  if (auto e = ReadEnum(d, "framework", engine::kFrameworkNames, &p.framework)) return e;
  if (auto e = ReadString(d, "network", "", &p.network)) return e;
  if (auto e = ReadLimited(d, "node_gbps", "", &p.node_gbps)) return e;
  return ReadEnum(d, "offload", engine::kOffloadNames, &p.offload);
}

}  // namespace

Result<engine::Scenario> ScenarioFromJson(const Json& doc, const engine::Catalog& catalog) {
  if (!doc.is_object()) return InputError{"scenario", "must be a JSON object, got " + TypeName(doc)};
  for (const auto& [key, value] : doc.items()) {
    if (!kScenarioFieldNames.count(key)) {
      // An empty key cannot be the field an error names: the document is.
      if (key.empty()) return InputError{"scenario", "has an empty key \"\", which is not a scenario field"};
      return InputError{engine::QuotedInput(key), "is not a scenario field (see engine/README.md for the list)"};
    }
  }
  engine::Scenario s;
  HfQuantization quantization;
  if (auto e = ReadModel(doc, catalog, s, quantization)) return *e;
  if (auto e = ReadTraining(doc, s.training)) return *e;
  // A GPTQ/AWQ/bitsandbytes checkpoint trains through adapters only.
  if (auto e = CheckQuantizedCheckpointMethod(quantization, s.training.method)) return *e;
  if (auto e = ReadParallel(doc, s.parallel)) return *e;
  if (auto e = ReadString(doc, "gpu", "", &s.gpu_id)) return *e;
  if (auto e = ReadString(doc, "storage", "", &s.storage)) return *e;
  if (!doc.contains("gpus_per_node")) s.parallel.gpus_per_node = std::min(s.parallel.gpus, 8);
  return s;
}

const std::set<std::string>& ScenarioFieldNames() { return kScenarioFieldNames; }

const std::set<std::string>& ClaimFieldNames() { return kClaimFieldNames; }

Result<Json> ParseScenarioDocument(std::string_view text) { return ParseUserJson(text, kMaxScenarioBytes, "scenario"); }

Result<engine::Scenario> ParseScenario(std::string_view text, const engine::Catalog& catalog) {
  auto doc = ParseScenarioDocument(text);
  if (!doc.ok()) return doc.error();
  return ScenarioFromJson(doc.value(), catalog);
}

Json ScenarioToJson(const engine::Scenario& s) {
  using engine::EnumName;
  const engine::Training& t = s.training;
  const engine::Parallelism& p = s.parallel;
  Json model = s.model.id != "custom" && !s.model_derived ? Json(s.model.id) : ArchitectureToJson(s.model);
  return Json{{"model", model},
              {"method", EnumName(engine::kMethodNames, t.method)},
              {"lora_rank", t.lora_rank},
              {"lora_targets", EnumName(engine::kLoraTargetNames, t.lora_targets)},
              {"lora_dropout", t.lora_dropout},
              {"kernels", EnumName(engine::kKernelNames, t.kernels)},
              {"freeze_trainable_layers", t.freeze_trainable_layers},
              {"precision", EnumName(engine::kPrecisionNames, t.precision)},
              {"optimizer", EnumName(engine::kOptimizerNames, t.optimizer)},
              {"seq_len", t.seq_len},
              {"micro_batch", t.micro_batch},
              {"global_batch", t.global_batch},
              {"tokens", t.tokens},
              {"dataset_tokens", t.dataset_tokens},
              {"epochs", t.epochs},
              {"mfu", t.mfu},
              {"claim", {{"tokens_per_s", t.claim.tokens_per_s}, {"wall_hours", t.claim.wall_hours}}},
              {"auto_restart", t.auto_restart},
              {"restart_minutes", t.restart_minutes},
              {"activation_checkpointing", EnumName(engine::kRecomputeNames, t.activation_checkpointing)},
              {"recompute_layers", t.recompute_layers},
              {"flash_attention", t.flash_attention},
              {"cross_entropy", EnumName(engine::kCrossEntropyNames, t.cross_entropy)},
              {"optimizer_in_backward", t.optimizer_in_backward},
              {"gpu", s.gpu_id},
              {"storage", s.storage},
              {"gpus", p.gpus},
              {"gpus_per_node", p.gpus_per_node},
              {"tp", p.tp},
              {"pp", p.pp},
              {"cp", p.cp},
              {"ep", p.ep},
              {"virtual_pipeline", p.virtual_pipeline},
              {"sequence_parallel", p.sequence_parallel},
              {"tp_comm_overlap", p.tp_comm_overlap},
              {"zero", p.zero},
              {"framework", EnumName(engine::kFrameworkNames, p.framework)},
              {"network", p.network},
              {"node_gbps", p.node_gbps},
              {"offload", EnumName(engine::kOffloadNames, p.offload)}};
}

}  // namespace catalog
