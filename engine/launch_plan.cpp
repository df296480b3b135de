#include "launch_plan.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>

#include "framework_profile.h"

namespace engine {
namespace {

using Notes = std::vector<Message>;

// ⌈tokens / (global_batch × seq_len)⌉ optimizer steps; 0 when no tokens are given.
long long TrainSteps(const LaunchPlan& plan) {
  const double tokens_per_step = double(plan.global_batch) * plan.seq_len;
  return plan.tokens > 0 ? static_cast<long long>(std::ceil(plan.tokens / tokens_per_step)) : 0;
}

std::string Degree(const char* name, int value) { return std::string(name) + " = " + std::to_string(value); }

// A note from template `id` with `args`.
void Add(Notes& notes, std::string id, std::vector<MessageArg> args = {}) {
  notes.push_back(MakeMessage(std::move(id), std::move(args)));
}

// The tool's name in a template id ("launch.recompute_layers.torchrun").
std::string ToolKey(LaunchTool tool) { return std::string(kLaunchToolNames[size_t(tool)]); }

// A setting's value as the scenario names it ("adamw8bit", "qlora"): an id, not prose.
MessageArg OptimizerArg(Optimizer o) { return TextArg("optimizer", std::string(EnumName(kOptimizerNames, o))); }
MessageArg MethodArg(Method m) { return TextArg("method", std::string(EnumName(kMethodNames, m))); }

// "tp = 8, pp = 4, cp = 2" for the model-parallel degrees above 1; "" when there are none.
std::string ModelParallelDegrees(const Parallelism& p) {
  std::string out;
  const std::pair<const char*, int> degrees[] = {{"tp", p.tp}, {"pp", p.pp}, {"cp", p.cp}, {"ep", p.ep}};
  for (const auto& [name, value] : degrees) {
    if (value > 1) out += (out.empty() ? "" : ", ") + Degree(name, value);
  }
  return out;
}

// Settings no data-parallel launcher (DeepSpeed, torchrun/FSDP, LLaMA-Factory) expresses;
// each note names the tool's own whole-layer checkpointing switch.
void AddCheckpointingNotes(const Training& t, LaunchTool tool, Notes& notes) {
  if (t.activation_checkpointing == Recompute::kSelective) Add(notes, "launch.selective_recompute." + ToolKey(tool));
  if (t.activation_checkpointing == Recompute::kFull && t.recompute_layers > 0) {
    Add(notes, "launch.recompute_layers." + ToolKey(tool), {CountArg("recompute_layers", t.recompute_layers)});
  }
  // LLaMA-Factory offloads checkpointed layer inputs (use_unsloth_gc); nothing else here
  // offloads activations.
  const bool offload_expressed = tool == LaunchTool::kLlamaFactory && t.activation_checkpointing == Recompute::kFull;
  if (t.activation_offload && !offload_expressed) Add(notes, "launch.activation_offload." + ToolKey(tool));
}

// What a data-parallel-only tool does with the scenario's tp, pp and cp: it starts every
// GPU as a data-parallel rank, so its layout and memory per GPU are not the estimate's; and
// the global batch it had to round (PlanLaunch(s, tool)).
void AddDataParallelOnlyNotes(const Scenario& s, LaunchTool tool, Notes& notes) {
  const LaunchPlan plan = PlanLaunch(s, tool);
  const int layout_dp = std::max(1, s.parallel.DataParallel());
  if (plan.data_parallel != layout_dp) {
    Add(notes, "launch.all_gpus_data_parallel",
        {CountArg("gpus", plan.data_parallel), CountArg("layout_dp", layout_dp)});
  }
  if (plan.global_batch != plan.requested_global_batch) {
    Add(notes, "launch.global_batch_rounded",
        {CountArg("requested_global_batch", plan.requested_global_batch), CountArg("micro_batch", plan.micro_batch),
         CountArg("data_parallel", plan.data_parallel), CountArg("global_batch", plan.global_batch)});
  }
}

// A data-parallel-only launcher's note on the scenario's model-parallel degrees
// ("launch.<tool>.model_parallel", naming the tool that runs them), then the data-parallel notes.
void AddModelParallelNotes(const Scenario& s, LaunchTool tool, Notes& notes) {
  if (const std::string degrees = ModelParallelDegrees(s.parallel); !degrees.empty()) {
    Add(notes, "launch." + ToolKey(tool) + ".model_parallel", {TextArg("degrees", degrees)});
  }
  AddDataParallelOnlyNotes(s, tool, notes);
}

// Model parallelism lives in DeepSpeed's model code, not in its config.
Notes DeepSpeedParallelNotes(const Scenario& s) {
  const Parallelism& p = s.parallel;
  Notes notes;
  if (p.tp > 1) Add(notes, "launch.deepspeed.tp", {CountArg("tp", p.tp)});
  if (p.pp > 1) Add(notes, "launch.deepspeed.pp", {CountArg("pp", p.pp)});
  if (p.tp > 1 || p.pp > 1) {
    // DeepSpeed divides train_batch_size by the data-parallel world its model-parallel unit reports.
    const LaunchPlan layout = PlanLaunch(s);
    Add(notes, "launch.deepspeed.model_parallel_batch",
        {CountArg("data_parallel", layout.data_parallel), CountArg("global_batch", layout.global_batch),
         CountArg("grad_accum_steps", layout.grad_accum_steps)});
  }
  if (p.virtual_pipeline > 1) {
    Add(notes, "launch.deepspeed.virtual_pipeline", {CountArg("virtual_pipeline", p.virtual_pipeline)});
  }
  if (p.pp > 1 && p.UnevenEnds()) {
    Add(notes, "launch.deepspeed.stage_layers",
        {CountArg("first_stage_layers", p.first_stage_layers), CountArg("last_stage_layers", p.last_stage_layers)});
  }
  if (p.cp > 1) Add(notes, "launch.deepspeed.cp", {CountArg("cp", p.cp)});
  if (p.ep > 1) Add(notes, "launch.deepspeed.ep", {CountArg("ep", p.ep)});
  AddDataParallelOnlyNotes(s, LaunchTool::kDeepSpeed, notes);
  return notes;
}

Notes DeepSpeedNotes(const Scenario& s) {
  const Training& t = s.training;
  const Parallelism& p = s.parallel;
  Notes notes = DeepSpeedParallelNotes(s);
  if (IsLowPrecisionGemm(t.precision)) Add(notes, "launch.deepspeed.fp8");
  if (t.precision == Precision::kBf16Pure) Add(notes, "launch.deepspeed.bf16_pure");
  if (t.optimizer != Optimizer::kAdamW) Add(notes, "launch.deepspeed.optimizer", {OptimizerArg(t.optimizer)});
  if (p.offload != Offload::kNone && p.zero == 0) Add(notes, "launch.deepspeed.offload_zero0");
  if (t.method == Method::kLora || t.method == Method::kQlora || t.method == Method::kFreeze) {
    Add(notes, "launch.deepspeed.method", {MethodArg(t.method)});
  }
  AddCheckpointingNotes(t, LaunchTool::kDeepSpeed, notes);
  return notes;
}

Notes TorchrunNotes(const Scenario& s) {
  const Training& t = s.training;
  const Parallelism& p = s.parallel;
  Notes notes;
  AddModelParallelNotes(s, LaunchTool::kTorchrun, notes);
  if (p.zero == 1 && p.gpus > 1) Add(notes, "launch.torchrun.zero1");
  if (p.offload == Offload::kOptimizer) Add(notes, "launch.torchrun.optimizer_offload");
  if (p.offload != Offload::kNone && p.zero < 2) {
    Add(notes, "launch.torchrun.offload_unsharded", {CountArg("zero", p.zero)});
  }
  if (IsLowPrecisionGemm(t.precision)) Add(notes, "launch.torchrun.fp8");
  if (t.method == Method::kFreeze) {
    Add(notes, "launch.torchrun.freeze", {CountArg("layers", t.freeze_trainable_layers)});
  }
  // The Trainer has no switches for a vision-language model's parts: the script freezes them.
  if (s.model.vision.present()) {
    Add(notes, "launch.torchrun.vision",
        {TextArg("vision_training", std::string(EnumName(kVisionTrainingNames, t.media.tower))),
         TextArg("projector_training", t.media.projector ? "true" : "false"),
         TextArg("freeze_llm", t.media.freeze_llm ? "true" : "false")});
  }
  AddCheckpointingNotes(t, LaunchTool::kTorchrun, notes);
  return notes;
}

Notes LlamaFactoryNotes(const Scenario& s) {
  const Training& t = s.training;
  const Parallelism& p = s.parallel;
  Notes notes;
  AddModelParallelNotes(s, LaunchTool::kLlamaFactory, notes);
  if (IsLowPrecisionGemm(t.precision)) Add(notes, "launch.llamafactory.fp8");
  if (p.offload != Offload::kNone && p.zero == 0) Add(notes, "launch.llamafactory.offload_zero0");
  if (ShardsThroughAccelerateFsdp(p)) Add(notes, "launch.llamafactory.fsdp");
  if (TrainsAdapters(t.method) && t.lora_targets != LoraTargets::kAllLinear) {
    Add(notes, "launch.llamafactory.lora_target");
  }
  AddCheckpointingNotes(t, LaunchTool::kLlamaFactory, notes);
  // LLaMA-Factory trains an unfrozen tower the run's own way: adapters under finetuning_type
  // lora, every weight under full (its freeze_vision_tower switch has no third state).
  if (s.model.vision.present() && t.media.tower != VisionTraining::kFrozen &&
      TrainsAdapters(t.method) != (t.media.tower == VisionTraining::kLora)) {
    Add(notes, "launch.llamafactory.vision_training",
        {TextArg("vision_training", std::string(EnumName(kVisionTrainingNames, t.media.tower)))});
  }
  return notes;
}

Notes SwiftNotes(const Scenario& s) {
  const Training& t = s.training;
  const Parallelism& p = s.parallel;
  Notes notes;
  AddModelParallelNotes(s, LaunchTool::kSwift, notes);
  if (IsLowPrecisionGemm(t.precision)) Add(notes, "launch.swift.fp8");
  // Its DeepSpeed presets offload at stage 2 or 3 only; its FSDP preset shards everything.
  if (p.offload != Offload::kNone && p.zero < 2 && !ShardsThroughAccelerateFsdp(p)) {
    Add(notes, "launch.swift.offload_stage", {CountArg("zero", p.zero)});
  }
  if (ShardsThroughAccelerateFsdp(p) && (p.zero != 3 || p.offload != Offload::kNone)) {
    Add(notes, "launch.swift.fsdp", {CountArg("zero", p.zero)});
  }
  if (t.method == Method::kFreeze) Add(notes, "launch.swift.freeze", {CountArg("layers", t.freeze_trainable_layers)});
  AddCheckpointingNotes(t, LaunchTool::kSwift, notes);
  return notes;
}

Notes MegatronModelNotes(const ModelSpec& m) {
  Notes notes;
  if (m.attention == AttentionKind::kMla) Add(notes, "launch.megatron.mla");
  return notes;
}

Notes MegatronNotes(const Scenario& s) {
  const Training& t = s.training;
  const Parallelism& p = s.parallel;
  Notes notes = MegatronModelNotes(s.model);
  if (p.zero >= 2) Add(notes, "launch.megatron.zero", {CountArg("zero", p.zero)});
  if (s.model.vision.present()) Add(notes, "launch.megatron.vision");
  if (p.offload != Offload::kNone) {
    Add(notes, "launch.megatron.offload", {TextArg("offload", std::string(EnumName(kOffloadNames, p.offload)))});
  }
  if (t.method != Method::kPretrain && t.method != Method::kFull) {
    Add(notes, "launch.megatron.method", {MethodArg(t.method)});
  }
  if (t.optimizer == Optimizer::kAdamW8bit || t.optimizer == Optimizer::kAdafactor) {
    Add(notes, "launch.megatron.optimizer", {OptimizerArg(t.optimizer)});
  }
  if (t.precision == Precision::kBf16Pure) Add(notes, "launch.megatron.bf16_pure");
  // Megatron-core splits the query groups over the TP ranks, divide(num_query_groups, tp) in
  // megatron/core/transformer/attention.py, which asserts divisibility; MLA has no groups.
  if (s.model.attention == AttentionKind::kStandard && s.model.kv_heads % p.tp != 0) {
    Add(notes, "launch.megatron.kv_heads", {CountArg("tp", p.tp), CountArg("kv_heads", s.model.kv_heads)});
  }
  if (s.model.layers % p.pp != 0) {
    Add(notes, "launch.megatron.pp_layers", {CountArg("pp", p.pp), CountArg("layers", s.model.layers)});
  }
  if (TrainingTokens(t) <= 0) Add(notes, "launch.megatron.no_tokens");
  return notes;
}

}  // namespace

LaunchPlan PlanLaunch(const Scenario& s) {
  const Training& t = s.training;
  const Parallelism& p = s.parallel;
  LaunchPlan plan;
  plan.gpus = p.gpus;
  plan.nodes = p.Nodes();
  plan.uneven_nodes = p.gpus % plan.nodes != 0;
  // Spread evenly when possible (12 GPUs, 8 per node → 2 × 6): torchrun starts the same
  // number of processes on every node.
  plan.procs_per_node = plan.uneven_nodes ? p.gpus_per_node : p.gpus / plan.nodes;
  plan.data_parallel = std::max(1, p.DataParallel());
  plan.micro_batch = t.micro_batch;
  plan.global_batch = GlobalBatch(t, p);
  plan.requested_global_batch = plan.global_batch;
  plan.grad_accum_steps = std::max(1, plan.global_batch / (t.micro_batch * plan.data_parallel));
  plan.seq_len = t.seq_len;
  plan.tokens = TrainingTokens(t);
  plan.train_steps = TrainSteps(plan);
  return plan;
}

bool DataParallelOnly(LaunchTool tool) { return tool != LaunchTool::kMegatron; }

LaunchPlan PlanLaunch(const Scenario& s, LaunchTool tool) {
  LaunchPlan plan = PlanLaunch(s);
  if (!DataParallelOnly(tool) || plan.data_parallel == plan.gpus) return plan;
  plan.data_parallel = plan.gpus;
  // In 64 bits: micro_batch × gpus can pass 2^31 for absurd inputs; the result is capped
  // at the int range the rest of the plan counts sequences in.
  const long long per_pass = static_cast<long long>(plan.micro_batch) * plan.gpus;
  const long long accumulation = std::max(1LL, std::llround(double(plan.requested_global_batch) / double(per_pass)));
  const long long global = std::min<long long>(accumulation * per_pass, std::numeric_limits<int>::max());
  plan.global_batch = static_cast<int>(global);
  plan.grad_accum_steps = static_cast<int>(std::min<long long>(accumulation, std::numeric_limits<int>::max()));
  plan.train_steps = TrainSteps(plan);
  return plan;
}

std::vector<Message> LaunchNotes(const Scenario& s, LaunchTool tool) {
  Notes notes;
  if (PlanLaunch(s).uneven_nodes) {
    Add(notes, "launch.uneven_nodes", {CountArg("gpus", s.parallel.gpus), CountArg("nodes", s.parallel.Nodes()),
                                       CountArg("gpus_per_node", s.parallel.gpus_per_node)});
  }
  if (s.training.optimizer_in_backward) Add(notes, "launch.optimizer_in_backward");
  Notes specific;
  switch (tool) {
    case LaunchTool::kDeepSpeed: specific = DeepSpeedNotes(s); break;
    case LaunchTool::kTorchrun: specific = TorchrunNotes(s); break;
    case LaunchTool::kLlamaFactory: specific = LlamaFactoryNotes(s); break;
    case LaunchTool::kSwift: specific = SwiftNotes(s); break;
    case LaunchTool::kMegatron: specific = MegatronNotes(s); break;
    // The post-training texts say what they cannot run in their own comments.
    case LaunchTool::kVerl:
    case LaunchTool::kOpenRlhf:
    case LaunchTool::kTrl: break;
  }
  notes.insert(notes.end(), specific.begin(), specific.end());
  return notes;
}

}  // namespace engine
