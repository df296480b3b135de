// What a tool's importer works with (engine/imports/import_*.cpp): one document, the
// shared state of the import, and the verbs that keep it honest: every key it reads is
// taken and listed as used (with the fields it gave) or ignored (with why); a value it
// cannot read stops the import with the key's line and column.
#pragma once

#include <initializer_list>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "engine/catalog.h"
#include "engine/imports/config_import.h"

namespace engine::imports {

// The largest count an import reads (steps, samples, a batch): long is 32 bits in WebAssembly.
inline constexpr long kMaxCount = 1000000000L;
// The most GPUs an import reads (the scenario's own limit is checked when it is read).
inline constexpr long kMaxGpus = 1L << 20;

// A setting no file wrote (a tool's default standing in for a missing key).
inline Setting DefaultSetting(std::string key, std::string value) {
  Setting s;
  s.key = std::move(key);
  s.value = std::move(value);
  return s;
}

// What the files of one import have given so far.
struct ImportState {
  ConfigImport result;
  std::map<std::string, std::string> field_file;  // scenario field → the file that set it
  std::map<std::string, size_t> field_used;        // scenario field → result.used index
  // Batch pieces the scenario's global_batch and tokens are made of once every file is read.
  struct Piece {
    long value = 0;
    std::string file, key;
  };
  std::optional<Piece> grad_accum;   // gradient accumulation steps
  std::optional<Piece> train_steps;  // optimizer steps of the run
  std::optional<Piece> samples;      // sequences in the dataset (LLaMA-Factory max_samples)
  std::optional<engine::InputError> error;
  const engine::Catalog* catalog = nullptr;
};

class Reader {
 public:
  Reader(ConfigDocument& doc, ImportState& state, ConfigTool tool) : doc_(doc), state_(state), tool_(tool) {}

  // The setting `key`, marked as read; nullptr when the document lacks it.
  const Setting* Take(std::string_view key);
  // The first of `keys` present (the others are taken too and listed as its aliases).
  const Setting* TakeAny(std::initializer_list<std::string_view> keys);

  // Scenario field `field` = `value`, given by `from`. A value another file already set
  // differently is kept, and this key is listed as ignored (the conflict named).
  void Set(std::string_view field, contract::Json value, const Setting& from);
  // `from` was read and agrees with what is set (e.g. bf16: true beside pure_bf16).
  void Used(const Setting& from);
  void Assume(std::string_view field, contract::Json value, engine::Message why);
  void Ignore(const Setting& from, engine::Message why);
  // Each of `keys` present is ignored with the message `why_id`.
  void IgnoreKeys(std::initializer_list<std::string_view> keys, const char* why_id);
  // Every key under `prefix.` (or equal to it) not yet taken.
  void IgnorePrefix(std::string_view prefix, const char* why_id);

  // Typed values; each fails the import with the key's place when the text is not one.
  std::optional<long> Int(const Setting& s, long lo, long hi);
  std::optional<double> Number(const Setting& s, double lo, double hi);
  std::optional<bool> Bool(const Setting& s);
  // One of the state's batch pieces, given by `from`.
  void SetPiece(std::optional<ImportState::Piece>& piece, long value, const Setting& from);
  // "auto" (DeepSpeed, axolotl): the value comes from elsewhere.
  static bool IsAuto(const Setting& s) { return s.value == "auto"; }

  // The model named by `s` (a Hugging Face id, a local path): a preset id set as `model`,
  // else an assumption saying a config.json is needed.
  void SetModelFromName(const Setting& s);

  bool failed() const { return state_.error.has_value(); }
  void Fail(const Setting& s, engine::Message reason);
  ConfigDocument& doc() { return doc_; }
  ImportState& state() { return state_; }
  ConfigTool tool() const { return tool_; }
  std::string_view tool_name() const { return kConfigToolNames[static_cast<size_t>(tool_)]; }
  // A field already set by this import.
  const contract::Json* Field(std::string_view field) const;

 private:
  UsedKey& UsedEntry(const Setting& from);
  std::optional<double> Parse(const Setting& s, double lo, double hi, bool whole);

  ConfigDocument& doc_;
  ImportState& state_;
  ConfigTool tool_;
};

// The importers, one per tool (import_<tool>.cpp). Each reads what it knows of `reader`'s
// document; keys left untaken afterwards are listed as not understood.
void ReadLlamaFactory(Reader& reader);
void ReadAxolotl(Reader& reader);
void ReadTrainerArguments(Reader& reader);  // Hugging Face Trainer / TRL, and the torchrun or accelerate launcher
void ReadDeepSpeed(Reader& reader);
void ReadTorchtune(Reader& reader);
void ReadMegatron(Reader& reader);
void ReadVerl(Reader& reader);
void ReadOpenRlhf(Reader& reader);
void ReadHfConfig(Reader& reader);
void ReadSwift(Reader& reader);  // ms-swift: swift sft / swift pt and the environment before it

// Launcher flags any command line may carry (torchrun --nnodes/--nproc_per_node,
// deepspeed --num_gpus/--num_nodes, accelerate --num_processes/--num_machines): gpus and
// gpus_per_node.
void ReadLauncher(Reader& reader);

// Shared by the Hugging Face family (Trainer, TRL, LLaMA-Factory, axolotl): `--fsdp`
// options ("full_shard auto_wrap offload") as zero, sharding and offload.
void ReadFsdpOption(Reader& reader, const Setting& s);
// A Trainer `optim` name (adamw_torch, adamw_bnb_8bit, paged_adamw_8bit, adafactor, sgd, ...).
void ReadTrainerOptimizer(Reader& reader, const Setting& s);
// LoRA target modules (PEFT names or "all"/"all-linear") as lora_targets.
void ReadLoraTargets(Reader& reader, const Setting& s);
// The setting `key` when it holds a value; an empty one (`max_seq_len:`, null) leaves the
// tool's default and is listed as such (YAML tools: axolotl, torchtune).
const Setting* TakeValue(Reader& reader, std::string_view key);
// The first of `keys` holding a value (the others present are listed as its aliases).
const Setting* TakeValueAny(Reader& reader, std::initializer_list<std::string_view> keys);
// `s` is present and true (an error is recorded when it is not a boolean).
bool IsTrue(Reader& reader, const Setting* s);
// `text` in lower case (ASCII): tool values compared without case ("RMSNorm", "Server").
std::string Lower(std::string text);
// A list value's items ("q_proj,v_proj", "[q_proj, v_proj]", "full_shard auto_wrap").
std::vector<std::string> SettingItems(const std::string& value);
// PPO's critic or the reward model (`field`: critic_model, reward_model) from its path.
void SetRoleModel(Reader& reader, const char* field, const char* role, const Setting& s, const Setting* policy);
// A processor's pixel cap (image_max_pixels, video_max_pixels) within the scenario field's
// range (784 px, one 28 × 28 patch group, to 268,435,456 px).
void ReadPixelCap(Reader& reader, const Setting& s, std::string_view field);

// LoRA modules_to_save (embed_tokens, lm_head) as lora_modules_to_save.
void ReadModulesToSave(Reader& reader, const Setting& s);

// The Hugging Face TrainingArguments every Trainer-based tool takes (LLaMA-Factory, TRL,
// axolotl's own names aside): batch, accumulation, steps or epochs, precision,
// checkpointing, FSDP, optimizer; hyperparameters, logging and output keys are listed as
// ignored with why.
void ReadTrainingArguments(Reader& reader);
// Keys that change the loss or the files, not memory or time: ignored with that reason.
void IgnoreHyperparameters(Reader& reader);

}  // namespace engine::imports
