#include "message_templates.h"

#include <vector>

namespace engine {
namespace {

constexpr MessageTemplate kTemplates[] = {
    // [SECTION] estimate warnings (estimate.cpp)
    {"derived_shape",
     "Architecture guessed from the parameter count ({layers} layers, hidden {hidden}); pick a preset or give the "
     "shape for exact numbers."},
    {"approximate_model",
     "{model} is approximated: {why} Figures that depend on those layers are estimates, not exact counts."},
    {"seq_len_beyond_context", "seq_len {seq_len} exceeds the model's trained context of {max_context} tokens."},
    {"tp_across_nodes",
     "Tensor parallelism of {tp} spans nodes of {gpus_per_node} GPUs; its all-reduces then cross the slow "
     "inter-node network."},
    {"tp_exceeds_kv_heads", "tp {tp} exceeds the {kv_heads} KV heads; KV projections are replicated across TP ranks."},
    {"uneven_pipeline", "pp {pp} does not divide {layers} layers; the busiest stage is estimated as an even share."},
    {"rent_needs_sales",
     "No cloud offer rents one buyer {gpus} of these GPUs self-serve: the rental priced here ({offer}) gives at most "
     "{capacity}; a cluster this size is negotiated with the provider's sales, at prices that may differ."},
    {"sequence_parallel_without_tp", "sequence_parallel has no effect with tp = 1."},
    {"no_flash_attention_long_context",
     "Without FlashAttention the s² attention scores dominate activation memory at this length."},
    {"pipeline_bubble",
     "Only {micro_batches} micro-batches per step for {pp} pipeline stages: the bubble costs {bubble_percent}% of "
     "the step. Raise global_batch."},
    {"no_auto_restart",
     "About {interruptions} interruptions are expected and no automatic restart is planned: each waits for a "
     "person. Use torchrun --max-restarts or a job supervisor."},
    {"low_goodput",
     "Failures and checkpoints leave only {goodput_percent}% of wall time for training; checkpoint faster (async, "
     "sharded) or restart automatically."},
    {"node_larger_than_servers",
     "gpus_per_node {gpus_per_node} exceeds the largest node the catalog lists for {gpu} ({largest_node} GPUs); "
     "check the server before ordering."},
    {"does_not_fit", "Needs {need_bytes} per GPU but {gpu} has {capacity_bytes}."},
    // [SECTION] config.json import warnings (engine/imports/hf_config.cpp)
    {"hf_config_assumed",
     "ffn_hidden_size is absent: the MLP width is 4 × hidden_size = {ffn}, as transformers' FalconConfig defines "
     "it."},
    {"hf_config_dense_layers", "mlp_only_layers are read as leading dense layers."},
    {"hf_config_unmapped_keys", "config.json keys not used for sizing: {keys}."},
    {"hf_config_unmapped_keys.more", "config.json keys not used for sizing: {keys} and {more} more."},
    {"hf_config_unknown_type",
     "model_type '{model_type}' is not one TrainSizer knows; read as a Llama-style decoder (gated MLP, RMSNorm)."},
    {"quantized_checkpoint.grouped",
     "config.json has a quantization_config ({method}, {bits}-bit, group size {group_size}): the checkpoint's "
     "linear weights are sized as stored, {bytes_per_weight} B each with their scales, under lora and qlora alike. "
     "Only adapters train on quantized weights (lora or qlora); for full, freeze or pretrain, load the unquantized "
     "checkpoint."},
    {"quantized_checkpoint.bits",
     "config.json has a quantization_config ({method}, {bits}-bit): the checkpoint's linear weights are sized as "
     "stored, {bytes_per_weight} B each with their scales, under lora and qlora alike. Only adapters train on "
     "quantized weights (lora or qlora); for full, freeze or pretrain, load the unquantized checkpoint."},
    {"quantized_checkpoint.unknown_bits",
     "config.json has a quantization_config ({method}): it does not say how many bits a weight takes, so the base "
     "weights are sized at 16 bits (or as 4-bit NF4 for method qlora), which may overstate them. Only adapters "
     "train on quantized weights (lora or qlora); for full, freeze or pretrain, load the unquantized checkpoint."},
    {"vision_tower_not_sized",
     "config.json has a vision_config without the keys that size its tower (layers, width, heads, MLP width, "
     "image_size): the vision tower and the image tokens in each sequence are not counted; the estimate covers "
     "the language model only."},
    {"vision_config_assumed",
     "config.json's vision_config belongs to a model_type ({model_type}) whose processor TrainSizer does not "
     "know: the tower is sized from its generic keys ({tower_params_b}B parameters, no projector), and each "
     "image is assumed resized to {image_size} px and to become {tokens} tokens, one per patch. Check both "
     "against the model's processor."},
};

}  // namespace

std::span<const MessageTemplate> WarningTemplates() { return kTemplates; }

std::span<const MessageTemplate> MessageTemplates() {
  static const std::vector<MessageTemplate> all = [] {
    std::vector<MessageTemplate> v;
    const std::span<const MessageTemplate> tables[] = {
        WarningTemplates(),
        PlanTemplates(),
        ExplainTemplates(),
        CatalogTemplates(),
        InputTemplates(),
        ProposalTemplates(),
        ImportTemplates(),
    };
    for (const std::span<const MessageTemplate> table : tables) {
      for (const MessageTemplate& t : table) v.push_back(t);
    }
    return v;
  }();
  return all;
}

}  // namespace engine
