// The English templates of the estimate's explanations: how each memory term and the step
// time are computed and where the formulas come from, what the efficiency figures rest on,
// the bill of materials, the pre-order checklist and the claim check. A text the engine
// builds from parts is a template whose {formula}/{answer}/{message} slot holds the part
// before it (a nested message), so each language joins the parts its own way.
#include "message_templates.h"

namespace engine {
namespace {

constexpr MessageTemplate kTemplates[] = {
    // [SECTION] memory terms: formulas (memory_model.cpp)
    {"memory.weights.formula", "{trainable} trainable × {trainable_bytes} B"},
    {"memory.weights.formula.frozen",
     "{trainable} trainable × {trainable_bytes} B + {frozen} frozen × {frozen_bytes} B"},
    {"memory.gradients.formula", "{trainable} × {grad_bytes} B"},
    {"memory.gradients.formula.optimizer_in_backward",
     "{largest} (largest tensor) × {grad_bytes} B, optimizer in backward"},
    {"memory.optimizer.formula", "{trainable} × ({master_bytes} B fp32 master + {moment_bytes} B moments)"},
    {"memory.optimizer.formula.grad_partition",
     "{trainable} × ({master_bytes} B fp32 master and grad partition + {moment_bytes} B moments)"},
    {"memory.formula.zero_sharded", "{formula} / {dp} (ZeRO)"},
    {"memory.formula.to_cpu", "{formula} → CPU"},
    {"memory.cpu_ram.formula", "{offloaded_bytes} offloaded × {buffer_factor} buffer factor"},
    {"memory.cpu_ram.formula.activations", "{activation_bytes} offloaded activations"},
    {"memory.cpu_ram.formula.plus_activations", "{formula} + {activation_bytes} offloaded activations"},
    {"memory.activations.formula.offloaded", "{formula}, less {offloaded_bytes} offloaded to the CPU (two layers stay)"},
    {"memory.activations.formula",
     "{layers} layers × {in_flight} micro-batch(es) in flight × {layer_bytes} per layer (s={seq_len}, "
     "b={micro_batch})"},
    {"memory.activations.formula.plus_vision", "{formula} + vision tower {vision_bytes} ({patches} patches)"},
    {"memory.activations.formula.scores",
     "{layers} layers × {in_flight} micro-batch(es) in flight × {layer_bytes} per layer (s={seq_len}, "
     "b={micro_batch}) + {scores_bytes} attention scores rebuilt for one layer"},
    {"memory.activations.formula.recompute",
     "{layers} layers × {in_flight} micro-batch(es) in flight × {stored_bytes} layer input + "
     "{working_set_bytes} recompute working set"},
    {"memory.activations.formula.recompute_share",
     "{layers} layers × {in_flight} micro-batch(es) in flight × {stored_bytes} ({recomputed_percent}% of layers "
     "recomputed) + {working_set_bytes} recompute working set"},
    {"memory.logits.formula.standard", "{logits} logits × {logit_bytes} B (standard cross-entropy)"},
    {"memory.logits.formula.eager", "{logits} logits × {logit_bytes} B (eager cross-entropy)"},
    {"memory.logits.formula.chunked", "{logits} logits × {logit_bytes} B (chunked cross-entropy)"},
    {"memory.overhead.formula", "1.0 GiB CUDA context"},
    {"memory.overhead.formula.nccl", "{formula} + 0.5 GiB NCCL"},
    {"memory.overhead.formula.gathered", "{formula} + {gathered_bytes} ZeRO-3 gathered units"},
    {"memory.overhead.formula.ddp_buckets", "{formula} + {bucket_bytes} DDP gradient buckets (a second copy)"},
    {"memory.overhead.formula.deepspeed_buckets", "{formula} + {bucket_bytes} DeepSpeed reduce and all-gather buckets"},
    {"memory.overhead.formula.fragmentation", "{formula} + 5% fragmentation ({fragmentation_bytes})"},
    // [SECTION] memory terms: sources (memory_model.cpp)
    {"memory.source.zero",
     "ZeRO (Rajbhandari et al. 2020) §3.1 and §5: 2+2+12 B/param mixed-precision Adam; stage 1 shards "
     "optimizer state, 2 adds gradients, 3 adds weights over the data-parallel ranks. DeepSpeed "
     "estimate_zero2_model_states_mem_needs (2 + 18/N); Megatron-LM dist_optimizer.md (fp32 main grads, 6 + 12/d)"},
    {"memory.source.quantized_checkpoint",
     "The checkpoint's quantization_config: linear layers at {bytes_per_weight} B/param as stored (packed weights "
     "with their group scales); embeddings, LM head and norms stay 16-bit"},
    {"memory.source.qlora",
     "QLoRA (Dettmers et al. 2023) §3: NF4 + double quantization = 0.516 B/param on linear layers; embeddings, LM "
     "head and norms stay 16-bit"},
    {"memory.source.activation_offload",
     "activation offload: torchtune OffloadActivations, Transformer Engine cpu_offload (one layer prefetched)"},
    {"memory.source.offload",
     "DeepSpeed ZeRO-Offload; stage3.py estimate_zero3_model_states_mem_needs (buffer factor 1.5)"},
    {"memory.source.activations",
     "Korthikanti et al. 2022 (arXiv 2205.05198) §4, adjusted per tensor for GQA, SwiGLU, no dropout and "
     "FlashAttention (no s² term); TP/SP/CP division and 1F1B in-flight micro-batches per Megatron-LM "
     "theoretical_memory_usage.py"},
    {"memory.roles.formula",
     "{roles} role(s) beside the policy held through the step, plus the rollout engine's {rollout_bytes} in "
     "generation's turn beyond the update's gradients and activations"},
    {"memory.source.roles",
     "docs/model.md §12: verl hybrid engine and OpenRLHF co-location (training states stay, vLLM sleeps during "
     "updates); vLLM gpu_memory_utilization reservation"},
    {"memory.source.logits",
     "Megatron-LM theoretical_memory_usage.py (4·s·b·V/t fp32 logits); Hugging Face eager upcast; torchtune "
     "CEWithChunkedOutputLoss"},
    {"memory.source.overhead",
     "HF Model training anatomy (CUDA kernels ~1.3 GB); NCCL_BUFFSIZE; DeepSpeed ZeRO-3 estimator; Megatron-LM 1.05 "
     "overhead factor"},
    // [SECTION] step time (time_model.cpp)
    {"time.step.formula.mfu",
     "step = tokens per step × model FLOPs per token / (GPUs × bf16 peak × MFU {mfu})"},
    {"time.step.formula",
     "step = {micro_batches} micro-batches × {micro_batch_ms} ms + bubble + exposed DP + optimizer"},
    {"time.step.formula.one_micro_batch",
     "step = {micro_batches} micro-batch × {micro_batch_ms} ms + bubble + exposed DP + optimizer"},
    // [SECTION] efficiency basis, per chip generation (efficiency.cpp)
    {"efficiency.basis.volta", "V100 cuBLAS FP16 GEMMs; no FlashAttention-2 support (eager attention)"},
    {"efficiency.basis.turing", "T4 is power-limited at 70 W"},
    {"efficiency.basis.ampere", "A100 cuBLAS bf16 ~80-85% of 312 TFLOPS; FlashAttention-2 fwd+bwd ~50%"},
    {"efficiency.basis.ada", "Ada GEMMs near the FP32-accumulate rate; FlashAttention-2"},
    {"efficiency.basis.hopper",
     "H100 training GEMMs ~65-70% of 989 TFLOPS (power and clock limited); FlashAttention-2 ~35%"},
    {"efficiency.basis.blackwell", "B200 and GB200 fitted on published NeMo and Megatron runs; FlashAttention as on Hopper"},
    {"efficiency.basis.blackwell-ultra",
     "B300 and GB300 fitted on their own published runs (Blackwell Ultra: other tensor cores, more power per chip)"},
    {"efficiency.basis.cdna2", "MI250X hipBLASLt benchmarks"},
    {"efficiency.basis.cdna3", "MI300X hipBLASLt ~55% of 1307 TFLOPS in public benchmarks"},
    {"efficiency.basis.davinci", "Ascend: no public per-kernel efficiency; conservative"},
    {"efficiency.basis.gaudi", "Gaudi MME: conservative"},
    {"efficiency.basis.tpu", "TPU MXU: PaLM reached 46% MFU at 540B scale"},
    {"efficiency.basis.unknown", "unknown architecture: conservative defaults"},
    {"efficiency.basis.user",
     "your figures for {gpu} (an Assumptions edit or catalog overlay); any other is the {architecture} default"},
    // [SECTION] bill of materials (bill_of_materials.cpp): items, units, reasons
    {"bom.gpu_nodes.item", "GPU nodes"},
    {"bom.cpu_cores.item", "CPU cores per node"},
    {"bom.host_ram.item", "Host RAM per node"},
    {"bom.local_nvme.item", "Local NVMe per node"},
    {"bom.shared_storage.item", "Shared parallel file system"},
    {"bom.network.item", "Scale-out network"},
    {"bom.power.item", "Power"},
    {"unit.node", "node"},
    {"unit.nodes", "nodes"},
    {"unit.cores", "cores"},
    {"unit.gib", "GiB"},
    {"unit.tb", "TB"},
    {"unit.kw", "kW"},
    {"unit.gbit_s_per_node", "Gbit/s per node"},
    {"bom.gpu_nodes.why", "{gpus} × {gpu} at {per_node} per node"},
    {"bom.cpu_cores.why", "{cores_per_gpu} per GPU for data loading and tokenization"},
    {"bom.cpu_cores.why.offload",
     "{cores_per_gpu} per GPU for data loading and tokenization, + {offload_cores_per_gpu} per GPU for the CPU "
     "optimizer (offload)"},
    {"bom.host_ram.why",
     "64 GiB OS + 32 GiB pinned/dataloader per GPU + {staging_bytes} checkpoint staging; the rule of thumb \"2× GPU "
     "memory\" says {rule_of_thumb_bytes}"},
    {"bom.host_ram.why.offload",
     "64 GiB OS + 32 GiB pinned/dataloader per GPU + {offloaded_bytes} offloaded state + {staging_bytes} checkpoint "
     "staging; the rule of thumb \"2× GPU memory\" says {rule_of_thumb_bytes}"},
    {"bom.local_nvme.why",
     "tokenized dataset {dataset_tb} TB ({bytes_per_token} B/token) + {checkpoints} checkpoint shards"},
    {"bom.shared_storage.why",
     "multi-node: one copy of the data and {checkpoints} full checkpoints of {checkpoint_tb} TB; write in {write_s} s"},
    {"bom.network.why",
     "{fabric}: {nics} NICs (one per GPU, rail-optimized) for data- and pipeline-parallel traffic"},
    {"bom.power.why", "{nodes} nodes × {node_kw} kW ({power_factor}× GPU TDP, as DGX A100/H100 datasheets)"},
    {"bom.power.why.one_node", "{nodes} node × {node_kw} kW ({power_factor}× GPU TDP, as DGX A100/H100 datasheets)"},
    {"bom.power.why.unknown", "{gpu}: the vendor publishes no chip power; ask for the system's rated power"},
    // [SECTION] pre-order checklist (checklist.cpp): topics, answers, and the sentences added to them
    {"checklist.answer.more", "{answer} {more}"},
    {"checklist.sequence_length.topic", "Sequence length"},
    {"checklist.sequence_length.answer", "{seq_len} tokens; activations are {activation_percent}% of per-GPU memory."},
    {"checklist.sequence_length.beyond_context",
     "Longer than the model's trained {max_context}-token context: plan a context extension (RoPE scaling) and "
     "long-context data."},
    {"checklist.sequence_length.context_parallel",
     "At this length context parallelism (cp > 1) spreads the activations across GPUs."},
    {"checklist.sequence_length.no_flash_attention",
     "Without FlashAttention the s² attention scores cost memory and time."},
    {"checklist.quantization.topic", "Quantization and precision"},
    {"checklist.quantization.answer", "{precision} training."},
    {"checklist.quantization.answer.qlora",
     "{precision} training with a 4-bit NF4 base (bitsandbytes): adapters only, some quality loss."},
    {"checklist.quantization.fp8", "FP8 needs Transformer Engine or torchao and loss-curve checks against a bf16 run."},
    {"checklist.quantization.fp8_available", "{gpu} supports FP8, about 1.3× faster for large GEMMs."},
    {"checklist.quantization.fp16", "FP16 needs loss scaling; prefer bf16 where the GPU supports it."},
    {"checklist.software.topic", "Framework and software stack"},
    {"checklist.software.answer", "{framework} layout TP{tp} PP{pp} DP{dp}."},
    {"checklist.software.answer.zero", "{framework} layout TP{tp} PP{pp} DP{dp} ZeRO-{zero}."},
    {"checklist.software.tp_pp", "Tensor/pipeline parallelism needs Megatron-LM, NeMo or torchtitan."},
    {"checklist.software.rocm",
     "{gpu} runs ROCm: check that your kernels (FlashAttention, fused optimizers) have ROCm builds."},
    {"checklist.software.cann", "{gpu} needs Huawei CANN with MindSpore or torch_npu: CUDA code must be adapted."},
    {"checklist.software.xla", "TPUs run through XLA (JAX or PyTorch/XLA), not CUDA."},
    {"checklist.software.other", "{gpu} needs its vendor's software stack (e.g. Intel Gaudi SynapseAI)."},
    {"checklist.data_io.topic", "Data preprocessing and I/O"},
    {"checklist.data_io.answer",
     "Pre-tokenize and pack sequences; each node reads {read_mb_per_s} MB/s of tokens, far below any NVMe."},
    {"checklist.data_io.no_tokens", "Give the token count to size storage and time."},
    {"checklist.fault_tolerance.topic", "Fault tolerance"},
    {"checklist.fault_tolerance.answer",
     "Checkpoint every {interval_hours} h ({checkpoint_gb} GB, {write_s} s to write); about {interruptions} "
     "interruptions expected."},
    {"checklist.fault_tolerance.no_auto_restart",
     "No automatic restart is planned: use torchrun --max-restarts or a job supervisor."},
    {"checklist.fault_tolerance.low_goodput",
     "Only {goodput_percent}% goodput: checkpoint asynchronously and restart automatically."},
    {"checklist.compliance.topic", "Compliance and export controls"},
    {"checklist.compliance.restricted",
     "{gpu} is export-restricted for China and some other destinations ({export_note}). Check licences before "
     "ordering for such sites."},
    {"checklist.compliance.answer", "{gpu}: {export_note}. Check the model's licence for your use."},
    {"checklist.compliance.answer.unrestricted",
     "{gpu}: no export restriction recorded. Check the model's licence for your use."},
    {"checklist.memory.topic", "Memory"},
    {"checklist.memory.answer",
     "Needs {need_bytes} per GPU, more than the {capacity_bytes} of {gpu}: shard more (ZeRO-3), recompute, offload "
     "or add GPUs."},
    // [SECTION] claim check (claim_check.cpp): one message per verdict, by its name
    {"claim.incomplete",
     "A wall-time claim needs tokens (or dataset_tokens × epochs); at the predicted {tokens_per_s} tokens/s, "
     "{wall_hours} h allows {tokens} tokens."},
    {"claim.impossible",
     "The claim needs {mfu_percent}% of the GPUs' dense bf16 peak: more than the hardware can compute. "
     "Predicted here: {predicted_tokens_per_s} tokens/s ({predicted_mfu_percent}% MFU)."},
    {"claim.implausible",
     "The claim needs {mfu_percent}% MFU; the best published runs on this GPU generation reach about "
     "{best_mfu_percent}%. Predicted here: {predicted_tokens_per_s} tokens/s ({predicted_mfu_percent}% MFU)."},
    {"claim.optimistic",
     "Possible in principle ({mfu_percent}% MFU) but {ratio}× faster than predicted here: "
     "{predicted_tokens_per_s} tokens/s ({predicted_mfu_percent}% MFU)."},
    {"claim.conservative",
     "Needs only {mfu_percent}% MFU; this setup should do it {speedup}× faster: "
     "{predicted_tokens_per_s} tokens/s ({predicted_mfu_percent}% MFU)."},
    {"claim.plausible",
     "Needs {mfu_percent}% MFU, within {difference_percent}% of the prediction: "
     "{predicted_tokens_per_s} tokens/s ({predicted_mfu_percent}% MFU)."},
    {"claim.does_not_fit",
     "{message} Also, the model states do not fit this layout's GPU memory as configured."},
    // [SECTION] model names the engine makes up (model_spec.cpp, contract/model_json.cpp)
    {"model.name.derived", "Dense model derived from {params_b}B parameters"},
    {"model.name.custom", "Custom architecture"},
    {"model.name.named", "{name}"},
};

}  // namespace

std::span<const MessageTemplate> ExplainTemplates() { return kTemplates; }

}  // namespace engine
