#include "launch_plan.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>

namespace engine {
namespace {

using Notes = std::vector<std::string>;

// ⌈tokens / (global_batch × seq_len)⌉ optimizer steps; 0 when no tokens are given.
long long TrainSteps(const LaunchPlan& plan) {
  const double tokens_per_step = double(plan.global_batch) * plan.seq_len;
  return plan.tokens > 0 ? static_cast<long long>(std::ceil(plan.tokens / tokens_per_step)) : 0;
}

std::string Degree(const char* name, int value) { return std::string(name) + " = " + std::to_string(value); }

// "tp = 8, pp = 4, cp = 2" for the model-parallel degrees above 1; "" when there are none.
std::string ModelParallelDegrees(const Parallelism& p) {
  std::string out;
  const std::pair<const char*, int> degrees[] = {{"tp", p.tp}, {"pp", p.pp}, {"cp", p.cp}, {"ep", p.ep}};
  for (const auto& [name, value] : degrees) {
    if (value > 1) out += (out.empty() ? "" : ", ") + Degree(name, value);
  }
  return out;
}

// Settings no data-parallel launcher (DeepSpeed, torchrun/FSDP, LLaMA-Factory) expresses.
void AddCheckpointingNotes(const Training& t, const std::string& whole_layers, Notes& notes) {
  if (t.activation_checkpointing == Recompute::kSelective) {
    notes.push_back("not expressible: selective recomputation; " + whole_layers + " recomputes whole layers.");
  }
  if (t.activation_checkpointing == Recompute::kFull && t.recompute_layers > 0) {
    notes.push_back("not expressible: recompute_layers = " + std::to_string(t.recompute_layers) + "; " +
                    whole_layers + " checkpoints every layer.");
  }
}

// What a data-parallel-only tool does with the scenario's tp, pp and cp: it starts every
// GPU as a data-parallel rank, so its layout and memory per GPU are not the estimate's; and
// the global batch it had to round (PlanLaunch(s, tool)).
void AddDataParallelOnlyNotes(const Scenario& s, LaunchTool tool, Notes& notes) {
  const LaunchPlan plan = PlanLaunch(s, tool);
  const int layout_dp = std::max(1, s.parallel.DataParallel());
  if (plan.data_parallel != layout_dp) {
    notes.push_back("This config runs all " + std::to_string(plan.data_parallel) + " GPUs as data-parallel ranks, not "
                    "the plan's " + std::to_string(layout_dp) + ": the layout differs from the plan's, and so does "
                    "memory per GPU (each GPU holds whole layers and whole sequences; recheck the estimate with "
                    "tp = pp = cp = 1).");
  }
  if (plan.global_batch != plan.requested_global_batch) {
    notes.push_back("global_batch = " + std::to_string(plan.requested_global_batch) + " is not a multiple of "
                    "micro-batch " + std::to_string(plan.micro_batch) + " × " + std::to_string(plan.data_parallel) +
                    " data-parallel ranks: this config uses " + std::to_string(plan.global_batch) +
                    ", the nearest that is.");
  }
}

// Model parallelism lives in DeepSpeed's model code, not in its config.
Notes DeepSpeedParallelNotes(const Scenario& s) {
  const Parallelism& p = s.parallel;
  Notes notes;
  if (p.tp > 1) {
    notes.push_back(Degree("tp", p.tp) + " is not a DeepSpeed config setting: shard the model in code (Megatron-DeepSpeed "
                    "or DeepSpeed AutoTP).");
  }
  if (p.pp > 1) notes.push_back(Degree("pp", p.pp) + " is set in the model code (DeepSpeed PipelineModule), not in this file.");
  if (p.tp > 1 || p.pp > 1) {
    // DeepSpeed divides train_batch_size by the data-parallel world its model-parallel unit reports.
    const LaunchPlan layout = PlanLaunch(s);
    notes.push_back("With tp or pp in the model code, DeepSpeed counts only the " +
                    std::to_string(layout.data_parallel) + " data-parallel ranks: set train_batch_size to " +
                    std::to_string(layout.global_batch) +
                    " and gradient_accumulation_steps to " + std::to_string(layout.grad_accum_steps) + ", the plan's.");
  }
  if (p.virtual_pipeline > 1) {
    notes.push_back("not expressible: " + Degree("virtual_pipeline", p.virtual_pipeline) +
                    "; DeepSpeed's pipeline engine has no interleaved schedule.");
  }
  if (p.cp > 1) {
    notes.push_back("not expressible: " + Degree("cp", p.cp) + "; DeepSpeed's config has no context parallelism "
                    "(DeepSpeed-Ulysses sequence parallelism is set up in the model code).");
  }
  if (p.ep > 1) notes.push_back(Degree("ep", p.ep) + " is set in the model code (deepspeed.moe.layer.MoE ep_size).");
  AddDataParallelOnlyNotes(s, LaunchTool::kDeepSpeed, notes);
  return notes;
}

Notes DeepSpeedNotes(const Scenario& s) {
  const Training& t = s.training;
  const Parallelism& p = s.parallel;
  Notes notes = DeepSpeedParallelNotes(s);
  if (t.precision == Precision::kFp8) {
    notes.push_back("not expressible: fp8; DeepSpeed's config has no FP8 switch (use Transformer Engine layers in the "
                    "model); bf16 is set.");
  }
  if (t.precision == Precision::kBf16Pure) {
    notes.push_back("not expressible: bf16-pure; DeepSpeed's bf16 mode keeps fp32 master weights.");
  }
  if (t.optimizer != Optimizer::kAdamW) {
    notes.push_back("optimizer " + std::string(EnumName(kOptimizerNames, t.optimizer)) +
                    " is not a DeepSpeed built-in: create it in the training script and pass it to "
                    "deepspeed.initialize (zero_allow_untested_optimizer is set).");
  }
  if (p.offload != Offload::kNone && p.zero == 0) {
    notes.push_back("not expressible: offload with zero 0; DeepSpeed offloads only under ZeRO stages 1-3.");
  }
  if (t.method == Method::kLora || t.method == Method::kQlora || t.method == Method::kFreeze) {
    notes.push_back("method " + std::string(EnumName(kMethodNames, t.method)) +
                    ": adapters, 4-bit loading and frozen layers are set up in the training script (PEFT, "
                    "bitsandbytes); this file holds batch, precision, optimizer and ZeRO settings.");
  }
  AddCheckpointingNotes(t, "DeepSpeed activation checkpointing", notes);
  return notes;
}

Notes TorchrunNotes(const Scenario& s) {
  const Training& t = s.training;
  const Parallelism& p = s.parallel;
  Notes notes;
  if (const std::string degrees = ModelParallelDegrees(p); !degrees.empty()) {
    notes.push_back("not expressible: " + degrees + " with Trainer FSDP flags (data parallel only); use Megatron-LM or "
                    "torchtitan.");
  }
  AddDataParallelOnlyNotes(s, LaunchTool::kTorchrun, notes);
  if (p.zero == 1 && p.gpus > 1) {
    notes.push_back("zero 1 (optimizer state only) has no FSDP strategy: shard_grad_op also shards gradients, so memory "
                    "is lower than estimated.");
  }
  if (p.offload == Offload::kOptimizer) {
    notes.push_back("not expressible: optimizer-only offload; FSDP's CPU offload moves parameters and gradients too.");
  }
  if (p.offload != Offload::kNone && p.zero < 2) {
    notes.push_back("not expressible: offload without sharding (zero " + std::to_string(p.zero) + "); FSDP offloads "
                    "sharded state only.");
  }
  if (t.precision == Precision::kFp8) {
    notes.push_back("not expressible: fp8 with Trainer flags (needs Transformer Engine or torchao in the script); "
                    "--bf16 is set.");
  }
  if (t.method == Method::kFreeze) {
    notes.push_back("not expressible: freeze; training only the top " + std::to_string(t.freeze_trainable_layers) +
                    " layers is done in the training script.");
  }
  AddCheckpointingNotes(t, "--gradient_checkpointing", notes);
  return notes;
}

Notes LlamaFactoryNotes(const Scenario& s) {
  const Training& t = s.training;
  const Parallelism& p = s.parallel;
  Notes notes;
  if (const std::string degrees = ModelParallelDegrees(p); !degrees.empty()) {
    notes.push_back("not expressible: " + degrees + "; LLaMA-Factory trains data parallel only (DeepSpeed ZeRO or "
                    "FSDP), no TP/PP/CP/EP.");
  }
  AddDataParallelOnlyNotes(s, LaunchTool::kLlamaFactory, notes);
  if (t.precision == Precision::kFp8) notes.push_back("not expressible: fp8; bf16 is set.");
  if (p.offload != Offload::kNone && p.zero == 0) {
    notes.push_back("not expressible: offload with zero 0; offload goes through a DeepSpeed ZeRO config.");
  }
  if ((t.method == Method::kLora || t.method == Method::kQlora) && t.lora_targets != LoraTargets::kAllLinear) {
    notes.push_back("lora_target uses Llama-style module names (q_proj, v_proj, ...); other architectures name them "
                    "differently.");
  }
  AddCheckpointingNotes(t, "LLaMA-Factory's gradient checkpointing", notes);
  return notes;
}

Notes MegatronModelNotes(const ModelSpec& m) {
  Notes notes;
  if (m.attention == AttentionKind::kMla) {
    notes.push_back("not set: multi-latent attention; add --multi-latent-attention and the model's q/kv LoRA ranks.");
  }
  return notes;
}

Notes MegatronNotes(const Scenario& s) {
  const Training& t = s.training;
  const Parallelism& p = s.parallel;
  Notes notes = MegatronModelNotes(s.model);
  if (p.zero >= 2) {
    notes.push_back("not expressible: zero " + std::to_string(p.zero) + "; Megatron-LM's distributed optimizer shards "
                    "optimizer state only (ZeRO-1, --use-distributed-optimizer is set). Megatron FSDP "
                    "(--use-megatron-fsdp) is its ZeRO-3 counterpart.");
  }
  if (p.offload != Offload::kNone) {
    notes.push_back("not expressible: offload = " + std::string(EnumName(kOffloadNames, p.offload)) +
                    "; optimizer state stays on the GPU.");
  }
  if (t.method != Method::kPretrain && t.method != Method::kFull) {
    notes.push_back("not expressible: method " + std::string(EnumName(kMethodNames, t.method)) +
                    "; Megatron-LM's pretrain_gpt.py trains every parameter (PEFT lives in NeMo / Megatron-Bridge). "
                    "These arguments train the full model.");
  }
  if (t.optimizer == Optimizer::kAdamW8bit || t.optimizer == Optimizer::kAdafactor) {
    notes.push_back("not expressible: optimizer " + std::string(EnumName(kOptimizerNames, t.optimizer)) +
                    "; Megatron-LM offers adam (AdamW) and sgd; --optimizer adam is set.");
  }
  if (t.precision == Precision::kBf16Pure) {
    notes.push_back("not expressible: bf16-pure; --bf16 keeps fp32 main weights and gradients.");
  }
  // Megatron-core splits the query groups over the TP ranks, divide(num_query_groups, tp) in
  // megatron/core/transformer/attention.py, which asserts divisibility; MLA has no groups.
  if (s.model.attention == AttentionKind::kStandard && s.model.kv_heads % p.tp != 0) {
    notes.push_back(Degree("tp", p.tp) + " does not divide the " + std::to_string(s.model.kv_heads) +
                    " KV heads (--num-query-groups): Megatron-LM splits the KV heads over the TP ranks and stops "
                    "with a divisibility error; use a tp that divides them.");
  }
  if (s.model.layers % p.pp != 0) {
    notes.push_back(Degree("pp", p.pp) + " does not divide the " + std::to_string(s.model.layers) +
                    " layers: give Megatron-LM the first/last stage layer counts, or it refuses the split.");
  }
  if (TrainingTokens(t) <= 0) notes.push_back("no tokens given: --train-iters is a placeholder (1000).");
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

std::vector<std::string> LaunchNotes(const Scenario& s, LaunchTool tool) {
  Notes notes;
  if (PlanLaunch(s).uneven_nodes) {
    notes.push_back("gpus = " + std::to_string(s.parallel.gpus) + " cannot be split evenly over " +
                    std::to_string(s.parallel.Nodes()) + " nodes of " + std::to_string(s.parallel.gpus_per_node) +
                    ": launchers start the same number of processes on every node.");
  }
  if (s.training.optimizer_in_backward) {
    notes.push_back("not expressible: optimizer_in_backward; the optimizer steps after the backward pass.");
  }
  Notes specific;
  switch (tool) {
    case LaunchTool::kDeepSpeed: specific = DeepSpeedNotes(s); break;
    case LaunchTool::kTorchrun: specific = TorchrunNotes(s); break;
    case LaunchTool::kLlamaFactory: specific = LlamaFactoryNotes(s); break;
    case LaunchTool::kMegatron: specific = MegatronNotes(s); break;
  }
  notes.insert(notes.end(), specific.begin(), specific.end());
  return notes;
}

}  // namespace engine
