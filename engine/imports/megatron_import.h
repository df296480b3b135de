// Internal to the Megatron-LM / NeMo 1.x importer, not an API: what import_megatron.cpp
// (the helpers, Megatron-LM's flags, ReadMegatron), import_megatron_model.cpp (the
// architecture) and import_nemo.cpp (NeMo 1.x) share.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "engine/imports/import_reader.h"

namespace engine::imports::megatron {

// Helpers of every file (import_megatron.cpp).

// A value of `s`, or nothing when absent (an error is recorded when it is not an integer).
std::optional<long> IntOf(Reader& reader, const Setting* s, long lo, long hi);
// A store_true flag of a command line ("--swiglu"): on unless written false. A mapping
// (NeMo YAML) holds a boolean, read strictly.
bool FlagOn(Reader& reader, const Setting* s);
void FailChoice(Reader& reader, const Setting& s, const char* allowed);
void IgnoreWith(Reader& reader, const Setting* s, const char* id, const char* arg, const char* text);

// The architecture (import_megatron_model.cpp).

// The architecture the flags describe, with Megatron-LM's defaults filled in
// (arguments.py _add_network_size_args and validate_args).
struct Arch {
  const Setting* layers_from = nullptr;  // the key the model is listed under
  long layers = 0, hidden = 0, heads = 0, kv_heads = 0, head_dim = 0, ffn = 0, vocab = 0, max_positions = 0;
  bool head_dim_given = false;
  bool swiglu = false, rmsnorm = false, tied = true, linear_bias = true, qkv_bias = false, learned = true;
  long experts = 0, topk = 0, moe_ffn = 0, shared_ffn = 0, dense_layers = 0;
  // --multi-latent-attention (DeepSeek MLA) with its ranks; --mtp-num-layers. Without the
  // flags the architecture does not say (TrainSizer's own command leaves them out).
  bool mla = false;
  long q_lora = 0, kv_lora = 0, qk_head = 0, qk_pos = 0, v_head = 0;
  std::optional<long> mtp;
  std::vector<const Setting*> flags;  // every key read for it, besides layers_from
};

// Megatron-LM's own flags (arguments.py _add_network_size_args, _add_moe_args).
std::optional<Arch> ReadMegatronArch(Reader& reader);
// NeMo 1.x model.* keys (megatron_gpt_config.yaml), with NeMo's defaults.
std::optional<Arch> ReadNemoArch(Reader& reader);
// The model: a catalog preset when one has exactly this architecture (the vocabulary, then
// the positions the command allows, choose among presets of the same shapes), else the
// architecture itself.
void SetArchitecture(Reader& reader, const Arch& a, std::optional<long> seq_len, const char* vocab_key);

// NeMo 1.x (import_nemo.cpp).

// A NeMo 1.x document: any model.* or trainer.* key.
bool IsNemo(const ConfigDocument& doc);
// NeMo 1.x YAML (megatron_gpt_config.yaml) or the same keys as Hydra overrides.
void ReadNemo(Reader& reader);

}  // namespace engine::imports::megatron
