// The planner's and the launch configs' messages: why a GPU has no plan, the top picks'
// labels, where a plan's GPUs come from, and what a launcher cannot express. The page has
// the same ids in wasm/ui/i18n/zh-messages-plan.json.
#include "message_templates.h"

namespace engine {
namespace {

constexpr MessageTemplate kTemplates[] = {
    // [SECTION] rejections: why a GPU has no plan (planner.cpp)
    {"plan.no_offer", "{gpu}: no cloud offer or server for it in the catalog"},
    {"plan.no_offer.providers", "{gpu}: no cloud offer or server for it in the catalog among the allowed providers"},
    {"plan.no_offer.region", "{gpu}: no cloud offer or server for it in the catalog in region {region}"},
    {"plan.no_offer.providers_region",
     "{gpu}: no cloud offer or server for it in the catalog among the allowed providers in region {region}"},
    {"plan.no_server", "{gpu}: no server for it in the catalog"},
    {"plan.unavailable", "{gpu}: no public price to plan with: {note}"},
    {"plan.no_server.providers", "{gpu}: no server for it in the catalog among the allowed providers"},
    {"plan.no_server.region", "{gpu}: no server for it in the catalog in region {region}"},
    {"plan.no_server.providers_region",
     "{gpu}: no server for it in the catalog among the allowed providers in region {region}"},
    {"plan.does_not_fit",
     "{gpu}: does not fit even with ZeRO-3, full recomputation, CPU offload and micro-batch 1 on up to {gpus} GPUs "
     "offered (needs {need_bytes}; {capacity_bytes} usable after the memory safety margin)"},
    {"plan.does_not_fit.one_gpu",
     "{gpu}: does not fit even with ZeRO-3, full recomputation, CPU offload and micro-batch 1 on up to {gpus} GPU "
     "offered (needs {need_bytes}; {capacity_bytes} usable after the memory safety margin)"},
    {"plan.past_deadline",
     "{gpu}: the fastest plan ({gpus} GPUs) takes {days} days, past the {deadline_days}-day deadline"},
    {"plan.past_deadline.lead_time",
     "{gpu}: the fastest plan ({gpus} GPUs) takes {days} days after a {lead_days}-day wait for its capacity, past "
     "the {deadline_days}-day deadline"},
    {"plan.over_budget.rent", "{gpu}: the fastest plan needs {cash_outlay} of rental, more than the {budget} budget"},
    {"plan.over_budget.buy", "{gpu}: the fastest plan needs {cash_outlay} to buy, more than the {budget} budget"},
    {"plan.no_plan", "{gpu}: no plan within the constraints"},
    {"plan.sales_only", "{gpu}: rented only through a contract with the provider's sales (no self-serve offer)"},
    {"plan.over_capacity",
     "{gpu}: the offers rent one buyer at most {capacity} GPUs self-serve, too few for a plan that fits and meets "
     "the goal; more needs a cluster negotiated with the provider's sales (or owned servers)"},
    // [SECTION] how a rented plan's GPUs are had (planner.h CapacityMessage)
    {"plan.real_name_verification",
     "a Chinese cloud: the account must pass real-name verification with a Chinese ID or business licence"},
    {"plan.capacity", "{how}, up to {gpus} GPUs per buyer"},
    {"plan.capacity.lead_time", "{how}, up to {gpus} GPUs per buyer, ~{days} days to start"},
    {"plan.capacity.min_term", "{how}, up to {gpus} GPUs per buyer, billed at least {hours} h"},
    {"plan.capacity.lead_time_min_term",
     "{how}, up to {gpus} GPUs per buyer, ~{days} days to start, billed at least {hours} h"},
    {"plan.price_uncertain", "price uncertain (a low-confidence catalog price): ask for a quote"},
    {"plan.price_stale", "price seen {date}, over a year before this catalog: check today's"},
    {"plan.price_undated", "the catalog does not say when this price was seen: check today's"},
    {"plan.capacity.self-serve", "self-serve"},
    {"plan.capacity.quota-request", "after a quota request"},
    {"plan.capacity.marketplace", "marketplace hosts"},
    {"plan.capacity.capacity-block", "capacity block, booked ahead"},
    {"plan.capacity.reserved-cluster", "reserved cluster through the provider's sales"},
    {"plan.no_fp8", "{gpu}: no FP8 tensor cores for the fp8 recipe"},
    {"plan.no_block_scaled", "{gpu}: no block-scaled tensor cores for MXFP8 or NVFP4"},
    {"plan.no_bf16", "{gpu}: no bfloat16 arithmetic (fp16 with loss scaling would run)"},
    {"plan.export_restricted_cn", "{gpu}: export-restricted for China ({export_note})"},
    {"plan.export_restricted_cn.no_rental",
     "{gpu}: export-restricted for China ({export_note}), and no Chinese cloud in the catalog rents it"},
    // [SECTION] the top picks' labels (planner.h PickLabel; the JSON's label strings)
    {"plan.label.cheapest", "cheapest within the deadline"},
    {"plan.label.fastest", "fastest within the budget"},
    {"plan.label.best_value", "best value"},
    // [SECTION] where a plan's GPUs come from: a rental at its pricing, or servers bought
    {"plan.procurement.on_demand", "{provider} {instance}, on-demand"},
    {"plan.procurement.spot", "{provider} {instance}, spot"},
    {"plan.procurement.reserved_1yr", "{provider} {instance}, reserved-1yr"},
    {"plan.procurement.reserved_3yr", "{provider} {instance}, reserved-3yr"},
    {"plan.procurement.new", "{servers}× {server} (new)"},
    {"plan.procurement.used", "{servers}× {server} (used)"},
    {"plan.procurement.share_new", "{gpus} of the {server_gpus} GPUs of one {server} (new), the rest for other work"},
    {"plan.procurement.share_used", "{gpus} of the {server_gpus} GPUs of one {server} (used), the rest for other work"},
    // [SECTION] launch notes of every tool (launch_plan.cpp)
    {"launch.uneven_nodes",
     "gpus = {gpus} cannot be split evenly over {nodes} nodes of {gpus_per_node}: launchers start the same number of "
     "processes on every node."},
    {"launch.optimizer_in_backward",
     "not expressible: optimizer_in_backward; the optimizer steps after the backward pass."},
    {"launch.all_gpus_data_parallel",
     "This config runs all {gpus} GPUs as data-parallel ranks, not the plan's {layout_dp}: the layout differs from the "
     "plan's, and so does memory per GPU (each GPU holds whole layers and whole sequences; recheck the estimate with "
     "tp = pp = cp = 1)."},
    {"launch.global_batch_rounded",
     "global_batch = {requested_global_batch} is not a multiple of micro-batch {micro_batch} × {data_parallel} "
     "data-parallel ranks: this config uses {global_batch}, the nearest that is."},
    // Whole-layer checkpointing, worded by each data-parallel tool's own switch.
    {"launch.activation_offload.deepspeed",
     "not expressible: activation offload; DeepSpeed's cpu_checkpointing applies to models built on its "
     "checkpointing API only, so activations stay on the GPU."},
    {"launch.activation_offload.torchrun",
     "not expressible: activation offload; the Hugging Face Trainer keeps activations on the GPU."},
    {"launch.activation_offload.llamafactory",
     "not expressible: activation offload without full checkpointing; use_unsloth_gc offloads the inputs of "
     "checkpointed layers only."},
    {"launch.selective_recompute.deepspeed",
     "not expressible: selective recomputation; DeepSpeed activation checkpointing recomputes whole layers."},
    {"launch.selective_recompute.torchrun",
     "not expressible: selective recomputation; --gradient_checkpointing recomputes whole layers."},
    {"launch.selective_recompute.llamafactory",
     "not expressible: selective recomputation; LLaMA-Factory's gradient checkpointing recomputes whole layers."},
    {"launch.recompute_layers.deepspeed",
     "not expressible: recompute_layers = {recompute_layers}; DeepSpeed activation checkpointing checkpoints every "
     "layer."},
    {"launch.recompute_layers.torchrun",
     "not expressible: recompute_layers = {recompute_layers}; --gradient_checkpointing checkpoints every layer."},
    {"launch.activation_offload.swift", "not expressible: activation offload; ms-swift keeps activations on the GPU."},
    {"launch.selective_recompute.swift",
     "not expressible: selective recomputation; --gradient_checkpointing recomputes whole layers."},
    {"launch.recompute_layers.swift",
     "not expressible: recompute_layers = {recompute_layers}; --gradient_checkpointing checkpoints every layer."},
    {"launch.recompute_layers.llamafactory",
     "not expressible: recompute_layers = {recompute_layers}; LLaMA-Factory's gradient checkpointing checkpoints "
     "every layer."},
    // DeepSpeed
    {"launch.deepspeed.tp",
     "tp = {tp} is not a DeepSpeed config setting: shard the model in code (Megatron-DeepSpeed or DeepSpeed AutoTP)."},
    {"launch.deepspeed.pp", "pp = {pp} is set in the model code (DeepSpeed PipelineModule), not in this file."},
    {"launch.deepspeed.model_parallel_batch",
     "With tp or pp in the model code, DeepSpeed counts only the {data_parallel} data-parallel ranks: set "
     "train_batch_size to {global_batch} and gradient_accumulation_steps to {grad_accum_steps}, the plan's."},
    {"launch.deepspeed.stage_layers",
     "not expressible: first_stage_layers = {first_stage_layers}, last_stage_layers = {last_stage_layers}; DeepSpeed's "
     "PipelineModule partitions the layers itself (partition_method 'uniform' or 'parameters')."},
    {"launch.deepspeed.virtual_pipeline",
     "not expressible: virtual_pipeline = {virtual_pipeline}; DeepSpeed's pipeline engine has no interleaved "
     "schedule."},
    {"launch.deepspeed.cp",
     "not expressible: cp = {cp}; DeepSpeed's config has no context parallelism (DeepSpeed-Ulysses sequence "
     "parallelism is set up in the model code)."},
    {"launch.deepspeed.ep", "ep = {ep} is set in the model code (deepspeed.moe.layer.MoE ep_size)."},
    {"launch.deepspeed.fp8",
     "not expressible: fp8; DeepSpeed's config has no FP8 switch (use Transformer Engine layers in the model); bf16 "
     "is set."},
    {"launch.deepspeed.bf16_pure", "not expressible: bf16-pure; DeepSpeed's bf16 mode keeps fp32 master weights."},
    {"launch.deepspeed.optimizer",
     "optimizer {optimizer} is not a DeepSpeed built-in: create it in the training script and pass it to "
     "deepspeed.initialize (zero_allow_untested_optimizer is set)."},
    {"launch.deepspeed.offload_zero0",
     "not expressible: offload with zero 0; DeepSpeed offloads only under ZeRO stages 1-3."},
    {"launch.deepspeed.method",
     "method {method}: adapters, 4-bit loading and frozen layers are set up in the training script (PEFT, "
     "bitsandbytes); this file holds batch, precision, optimizer and ZeRO settings."},
    // torchrun with the Trainer's FSDP flags
    {"launch.torchrun.vision",
     "a vision-language model: run the TRL script (train_trl.py) as train.py; it loads the processor with the "
     "estimate's pixel caps and trains the parts as estimated (vision_training {vision_training}, "
     "projector_training {projector_training}, freeze_llm {freeze_llm})."},
    {"launch.llamafactory.vision_training",
     "not expressible: vision_training {vision_training} under this method; LLaMA-Factory trains an unfrozen "
     "vision tower with the run's own finetuning_type (LoRA adapters under lora, every weight under full)."},
    {"launch.megatron.vision",
     "a vision-language model: pretrain_gpt.py trains the language model alone; the vision tower and projector "
     "run through Megatron's multimodal example or Megatron-SWIFT / Megatron-Bridge, with these parallel settings."},
    {"launch.torchrun.model_parallel",
     "not expressible: {degrees} with Trainer FSDP flags (data parallel only); use Megatron-LM or torchtitan."},
    {"launch.torchrun.zero1",
     "zero 1 (optimizer state only) has no FSDP strategy: shard_grad_op also shards gradients, so memory is lower "
     "than estimated."},
    {"launch.torchrun.optimizer_offload",
     "not expressible: optimizer-only offload; FSDP's CPU offload moves parameters and gradients too."},
    {"launch.torchrun.offload_unsharded",
     "not expressible: offload without sharding (zero {zero}); FSDP offloads sharded state only."},
    {"launch.torchrun.fp8",
     "not expressible: fp8 with Trainer flags (needs Transformer Engine or torchao in the script); --bf16 is set."},
    {"launch.torchrun.freeze",
     "not expressible: freeze; training only the top {layers} layers is done in the training script."},
    // LLaMA-Factory
    {"launch.llamafactory.model_parallel",
     "not expressible: {degrees}; LLaMA-Factory trains data parallel only (DeepSpeed ZeRO or FSDP), no TP/PP/CP/EP."},
    {"launch.llamafactory.fp8", "not expressible: fp8; bf16 is set."},
    {"launch.llamafactory.fsdp",
     "sharding fsdp: start it with `accelerate launch --config_file fsdp_config.yaml` (FULL_SHARD, wrap "
     "per decoder layer) instead of a deepspeed entry; the DeepSpeed file is for the other route."},
    {"launch.llamafactory.offload_zero0",
     "not expressible: offload with zero 0; offload goes through a DeepSpeed ZeRO config."},
    {"launch.llamafactory.lora_target",
     "lora_target uses Llama-style module names (q_proj, v_proj, ...); other architectures name them differently."},
    // ms-swift
    {"launch.swift.model_parallel",
     "not expressible: {degrees}; swift sft trains data parallel only (DeepSpeed ZeRO or FSDP); Megatron-SWIFT "
     "(megatron sft) runs TP, PP, CP and EP."},
    {"launch.swift.fp8", "not expressible: fp8; bf16 is set."},
    {"launch.swift.offload_stage",
     "offload with zero {zero}: ms-swift's DeepSpeed presets offload at stage 2 or 3 only, so zero2_offload is "
     "written (gradients are sharded too)."},
    {"launch.swift.fsdp",
     "sharding fsdp with zero {zero}: ms-swift's fsdp2 preset shards parameters, gradients and optimizer states "
     "(as zero 3) and offloads nothing; edit its JSON for another strategy."},
    {"launch.swift.freeze",
     "method freeze ({layers} trained layers): written as --freeze_parameters_ratio, which freezes that share of "
     "the parameters from the bottom up, not whole layers."},
    {"launch.swift.vision_training",
     "not expressible: vision_training {vision_training} under full tuning; --freeze_vit false trains every "
     "weight of the vision tower."},
    {"launch.swift.projector_lora",
     "not expressible: projector_training beside a LoRA vision tower; --freeze_aligner false gives the projector "
     "LoRA adapters instead (--tuner_type lora_llm would train the tower in full)."},
    // Megatron-LM
    {"launch.megatron.mla",
     "not set: multi-latent attention; add --multi-latent-attention and the model's q/kv LoRA ranks."},
    {"launch.megatron.zero",
     "not expressible: zero {zero}; Megatron-LM's distributed optimizer shards optimizer state only (ZeRO-1, "
     "--use-distributed-optimizer is set). Megatron FSDP (--use-megatron-fsdp) is its ZeRO-3 counterpart."},
    {"launch.megatron.offload", "not expressible: offload = {offload}; optimizer state stays on the GPU."},
    {"launch.megatron.method",
     "not expressible: method {method}; Megatron-LM's pretrain_gpt.py trains every parameter (PEFT lives in NeMo / "
     "Megatron-Bridge). These arguments train the full model."},
    {"launch.megatron.optimizer",
     "not expressible: optimizer {optimizer}; Megatron-LM offers adam (AdamW) and sgd; --optimizer adam is set."},
    {"launch.megatron.bf16_pure", "not expressible: bf16-pure; --bf16 keeps fp32 main weights and gradients."},
    {"launch.megatron.kv_heads",
     "tp = {tp} does not divide the {kv_heads} KV heads (--num-query-groups): Megatron-LM splits the KV heads over "
     "the TP ranks and stops with a divisibility error; use a tp that divides them."},
    {"launch.megatron.pp_layers",
     "pp = {pp} does not divide the {layers} layers: give Megatron-LM the first/last stage layer counts, or it "
     "refuses the split."},
    {"launch.megatron.no_tokens", "no tokens given: --train-iters is a placeholder (1000)."},
    // The RoPE base, which the model spec lacks (engine/exports/launch_configs.cpp)
    {"launch.megatron.rope_placeholder",
     "not set: the RoPE base; replace the {placeholder} placeholder with rope_theta from the model's config.json "
     "(500000 for Llama 3, 1000000 for Qwen2.5; Megatron-LM's default is 10000)."},
    {"launch.megatron.rope_scaling",
     "If its rope_scaling has rope_type llama3 (Llama 3.1 and later), also add --use-rope-scaling "
     "--rope-scaling-factor with its factor."},
    {"launch.megatron.rope_theta_rounded",
     "rope_theta {rope_theta} is not a whole number; Megatron-LM takes the RoPE base as an integer, so {rotary_base} "
     "is written."},
};

}  // namespace

std::span<const MessageTemplate> PlanTemplates() { return kTemplates; }

}  // namespace engine
