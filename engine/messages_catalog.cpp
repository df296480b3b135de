// Templates of the catalog's and the config.json import's input errors
// (catalog/catalog_entries.cpp, catalog_loader.cpp, hf_config.cpp). Figures a catalog
// entry states are quoted as written ({limit}, {value}: text arguments), not rounded.
#include "message_templates.h"

namespace engine {
namespace {

constexpr MessageTemplate kTemplates[] = {
    // [SECTION] catalog entries (catalog/catalog_entries.cpp)
    {"catalog.not_object", "must be an object"},
    {"catalog.slug", "must be a lowercase slug (letters, digits, '-', '.')"},
    {"catalog.slug.example", "must be a lowercase slug like {example}"},
    {"catalog.at_most", "must be at most {other} ({limit}), got {value}"},
    {"catalog.memory_gib", "must be between {low} and {high} (half of memory_gb to memory_gb), got {value}"},
    {"catalog.not_one_of", "must be one of {allowed}, got '{value}'"},
    {"catalog.facility_unit", "must be one of {allowed}, got '{unit}'"},
    {"catalog.fabric_scope", "must be scale-up or scale-out, got '{scope}'"},
    {"catalog.scale_out_node_gbps", "is required for a scale-out fabric"},
    {"catalog.per_gpu_units", "must be 1 for per-gpu billing"},
    {"catalog.gpus_over_max", "must be between 1 and max_gpus ({max_gpus}), got {gpus}"},
    {"catalog.example_scenario", "must be a scenario object"},
    {"catalog.currency_code", "must be a three-letter ISO 4217 code like CNY, got '{code}'"},
    {"catalog.currency_usd", "must not be USD: rates are per US dollar, the base currency (1 USD = 1 USD)"},
    {"catalog.local_text", "must be a string (the Chinese text of {field}), got {type}"},
    // [SECTION] catalog files (catalog/catalog_loader.cpp)
    {"catalog.not_array", "must be an array"},
    {"catalog.file_not_object", "must hold a JSON object"},
    {"catalog.unknown_section",
     "is not a catalog section (gpus, models, fabrics, offers, rates, servers, network_gear, storage, facility, "
     "examples)"},
    {"catalog.duplicate_id", "duplicates an earlier entry's id '{id}'"},
    {"catalog.duplicate_id.other_file", "duplicates id '{id}' from another catalog file"},
    {"catalog.unknown_gpu", "names no catalog GPU: '{gpu}'"},
    {"catalog.unknown_fabric", "names no catalog fabric: '{fabric}'"},
    {"catalog.no_gpus", "holds no GPUs"},
    {"catalog.overlay_too_large", "is larger than the 8 MiB overlay limit"},
    // [SECTION] JSON value types, quoted in "got {type}"
    {"catalog.json_type.null", "null"},
    {"catalog.json_type.object", "an object"},
    {"catalog.json_type.array", "an array"},
    {"catalog.json_type.string", "a string"},
    {"catalog.json_type.boolean", "a boolean"},
    {"catalog.json_type.number", "a number"},
    {"catalog.json_type.other", "an unsupported value"},
    // [SECTION] config.json import (engine/imports/hf_config.cpp)
    {"hf_config.required", "is required to size the model"},
    {"hf_config.hybrid_pattern",
     "must list the blocks as M (Mamba-2), * (attention) and - (MLP), with no more MLPs than mixers; got '{block}'"},
    {"hf_config.hybrid_pattern.length",
     "lists {blocks} blocks but num_hidden_layers is {layers}; the pattern has one block per layer"},
    {"hf_config.required.mamba", "is required to size the Mamba-2 layers that hybrid_override_pattern lists"},
    {"hf_config.required.attention", "is required to size the attention of model_type {model_type}"},
    {"hf_config.required.head_dim",
     "is required for model_type {model_type}: its transformers config class defaults head_dim to a fixed width, "
     "not hidden_size / num_attention_heads"},
    {"hf_config.required.mlp",
     "is required to size the MLP (its width, e.g. 14336 for Llama 3 8B); model_type {model_type} does not define "
     "it by hidden_size"},
    {"hf_config.required.moe", "is required for a Mixture-of-Experts model"},
    {"hf_config.text_config_defaults",
     "{reason}; a text_config written by transformers leaves out the values equal to its config class's defaults, "
     "so copy the key from the language model's own config.json"},
    {"hf_config.text_config_defaults.named",
     "{reason}; a text_config written by transformers leaves out the values equal to its config class's defaults, "
     "so copy the key from the language model's own config.json ({model})"},
    {"hf_config.rope_not_object",
     "must be an object (e.g. {\"rope_type\": \"llama3\", \"factor\": 8.0}) or null, got {type}"},
    {"hf_config.weight_block_size",
     "must be [rows, columns], two whole numbers between 16 and 65536 (DeepSeek-V3: [128, 128]), got {value}"},
    {"hf_config.quantization_not_object", "must be an object with quant_method, got {type}"},
    {"hf_config.group_size",
     "must be -1 (one scale per column) or between 16 and 1048576 (real checkpoints: 32 to 128), got {group_size}"},
    {"hf_config.derived_head_dim",
     "gives head_dim = hidden_size / num_attention_heads, which {reason}; give head_dim, or heads that divide "
     "hidden_size"},
    {"hf_config.quantized_method",
     "cannot be {method} on a quantized checkpoint (quantization_config: {quant_method}): the Hugging Face Trainer "
     "and LLaMA-Factory train only adapters on quantized weights; use lora or qlora, or load the unquantized "
     "checkpoint"},
    {"hf_config.not_object", "must be the JSON object of a config.json"},
    {"hf_config.text_config_not_object", "must be the language model's config object, got {type}"},
    {"hf_config.kv_heads_divide", "must divide num_attention_heads ({heads}), got {kv_heads}"},
    // [SECTION] the page's config.json import status (wasm/ui/app_state.cpp)
    {"hf_config.status.not_json", "Not valid JSON: paste the whole config.json."},
    {"hf_config.status.imported", "Imported {model}."},
    {"hf_config.status.refused", "{field}: {reason}"},
    // [SECTION] catalog prose built from parts (catalog_entries.cpp)
    {"catalog.seed_correction", "A widely shared spec table says: {claim}. Datasheet: {correct}."},
};

}  // namespace

std::span<const MessageTemplate> CatalogTemplates() { return kTemplates; }

}  // namespace engine
