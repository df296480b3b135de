// Hugging Face config.json import at its edges (issue 14): missing MLP widths, quantized
// checkpoints, vision-language configs, errors that name the config.json key, absurd RoPE
// values and huge strings. Expected counts are worked out by hand in the comments from
// the published shapes; configs are the models' published config.json (token ids and
// similar left out where noted).
#include <gtest/gtest.h>

#include <set>
#include <string>

#include "catalog/catalog_loader.h"
#include "engine/imports/hf_config.h"
#include "hf_import_test_util.h"
#include "engine/link/url_state.h"
#include "engine/service/api.h"

namespace engine::imports {
namespace {

bool Contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

// meta-llama/Meta-Llama-3-8B config.json sizing keys; intermediate_size is left out below.
constexpr const char* kLlamaKeys = R"("model_type": "llama", "hidden_size": 4096, "num_attention_heads": 32,
  "num_hidden_layers": 32, "num_key_value_heads": 8, "vocab_size": 128256)";

// [SECTION] 1. the MLP width

TEST(HfImportEdges, MissingIntermediateSizeIsRefusedByName) {
  auto r = Import(std::string("{") + kLlamaKeys + "}");
  ASSERT_FALSE(r.ok()) << "no MLP width must not become 4 x hidden silently";
  EXPECT_EQ(r.error().field, "model.hf_config.intermediate_size");
  EXPECT_TRUE(Contains(r.error().message, "required")) << r.error().message;
}

TEST(HfImportEdges, GptNeoxWithoutIntermediateSizeIsRefused) {
  // GPTNeoXConfig's default 24576 is NeoX-20B's width, not a rule of the architecture.
  auto r = Import(R"({"model_type": "gpt_neox", "hidden_size": 6144, "num_attention_heads": 64,
    "num_hidden_layers": 44, "vocab_size": 50432})");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().field, "model.hf_config.intermediate_size");
}

// tiiuae/falcon-7b config.json (token ids left out): no ffn_hidden_size, so FalconConfig
// takes 4 × 4544 = 18176. By hand: embedding 65024 × 4544 = 295,469,056 (tied); per layer
// fused QKV 4544 × (4544 + 2·64) = 21,229,568, dense 4544² = 20,647,936, MLP 2 × 4544 ×
// 18176 = 165,183,488, one LayerNorm 2 × 4544 = 9,088 → 207,070,080; × 32 = 6,626,242,560;
// + final LayerNorm 9,088 = 6,921,720,704 (the model card's 7B; HF shows 6.92B).
TEST(HfImportEdges, FalconWithoutFfnHiddenSizeUsesFourHiddenAndSaysSo) {
  auto r = Import(R"({"alibi": false, "architectures": ["FalconForCausalLM"], "attention_dropout": 0.0,
    "bias": false, "hidden_dropout": 0.0, "hidden_size": 4544, "initializer_range": 0.02,
    "layer_norm_epsilon": 1e-05, "model_type": "falcon", "multi_query": true, "new_decoder_architecture": false,
    "num_attention_heads": 71, "num_hidden_layers": 32, "parallel_attn": true, "torch_dtype": "bfloat16",
    "use_cache": true, "vocab_size": 65024})");
  ASSERT_TRUE(r.ok()) << r.error().field << ": " << r.error().message;
  EXPECT_DOUBLE_EQ(engine::CountParams(r.value().spec).total, 6'921'720'704.0);
  const engine::Warning* w = FindWarning(r.value(), "hf_config_assumed");
  ASSERT_NE(w, nullptr) << "the 4 x hidden default must be stated";
  EXPECT_TRUE(Contains(w->message, "ffn_hidden_size")) << w->message;
  EXPECT_TRUE(Contains(w->message, "18176")) << w->message;
}

TEST(HfImportEdges, GemmaWithoutHeadDimIsRefused) {
  // google/gemma-7b: head_dim 256 while hidden/heads = 3072/16 = 192.
  auto r = Import(R"({"model_type": "gemma", "hidden_size": 3072, "intermediate_size": 24576,
    "num_attention_heads": 16, "num_hidden_layers": 28, "num_key_value_heads": 16, "vocab_size": 256000})");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().field, "model.hf_config.head_dim");
}

// [SECTION] 2. quantization_config

// TheBloke/Llama-2-7B-GPTQ config.json quantization_config (4-bit, group 128). Packed size
// by hand (AutoGPTQ buffers): 4/8 B weight + (2 B fp16 scale + 0.5 B packed zero) / 128 =
// 0.5195 B per weight.
TEST(HfImportEdges, GptqCheckpointIsReadAndNamedInAWarning) {
  auto r = Import(std::string("{") + kLlamaKeys + R"(, "intermediate_size": 14336, "quantization_config": {
    "bits": 4, "group_size": 128, "damp_percent": 0.01, "desc_act": false, "sym": true, "true_sequential": true,
    "model_name_or_path": null, "model_file_base_name": "model", "quant_method": "gptq"}})");
  ASSERT_TRUE(r.ok()) << r.error().field << ": " << r.error().message;
  const HfQuantization& q = r.value().quantization;
  EXPECT_TRUE(q.present);
  EXPECT_EQ(q.method, "gptq");
  EXPECT_EQ(q.bits, 4);
  EXPECT_EQ(q.group_size, 128);
  const engine::Warning* w = FindWarning(r.value(), "quantized_checkpoint");
  ASSERT_NE(w, nullptr);
  EXPECT_TRUE(Contains(w->message, "gptq, 4-bit, group size 128")) << w->message;
  EXPECT_TRUE(Contains(w->message, "0.52")) << w->message;
  EXPECT_TRUE(Contains(w->message, "as stored")) << "says what the sizing assumes: " << w->message;
  // 4/8 + (2 + 4/8)/128 = 0.51953125 B, exactly representable.
  EXPECT_DOUBLE_EQ(q.bytes_per_weight, 0.51953125);
  EXPECT_DOUBLE_EQ(r.value().spec.stored_weight_bytes, 0.51953125);
}

// A GPTQ checkpoint without `bits` cannot be sized as stored: 16-bit weights and a
// warning that says so.
TEST(HfImportEdges, QuantizedCheckpointWithoutBitsIsSizedAtSixteenBits) {
  auto r = Import(std::string("{") + kLlamaKeys +
                  R"(, "intermediate_size": 14336, "quantization_config": {"quant_method": "gptq"}})");
  ASSERT_TRUE(r.ok()) << r.error().field << ": " << r.error().message;
  EXPECT_EQ(r.value().spec.stored_weight_bytes, 0);
  const engine::Warning* w = FindWarning(r.value(), "quantized_checkpoint");
  ASSERT_NE(w, nullptr);
  EXPECT_TRUE(Contains(w->message, "16 bits")) << w->message;
}

// deepseek-ai/DeepSeek-V3 config.json: {"quant_method": "fp8", "fmt": "e4m3",
// "activation_scheme": "dynamic", "weight_block_size": [128, 128]}: 1 B per weight plus an
// fp32 scale per 128 × 128 block = 1 + 4/16384 B.
TEST(HfImportEdges, Fp8BlockScaledCheckpointIsOneBytePlusBlockScales) {
  auto r = Import(std::string("{") + kLlamaKeys + R"(, "intermediate_size": 14336, "quantization_config": {
    "quant_method": "fp8", "fmt": "e4m3", "activation_scheme": "dynamic", "weight_block_size": [128, 128]}})");
  ASSERT_TRUE(r.ok()) << r.error().field << ": " << r.error().message;
  EXPECT_DOUBLE_EQ(r.value().spec.stored_weight_bytes, 1.0 + 4.0 / 16384.0);
}

// unsloth/llama-3-8b-bnb-4bit config.json quantization_config.
TEST(HfImportEdges, BitsAndBytesFourBitIsRead) {
  auto r = Import(std::string("{") + kLlamaKeys + R"(, "intermediate_size": 14336, "quantization_config": {
    "_load_in_4bit": true, "_load_in_8bit": false, "bnb_4bit_compute_dtype": "bfloat16",
    "bnb_4bit_quant_storage": "uint8", "bnb_4bit_quant_type": "nf4", "bnb_4bit_use_double_quant": true,
    "llm_int8_enable_fp32_cpu_offload": false, "llm_int8_has_fp16_weight": false, "llm_int8_skip_modules": null,
    "llm_int8_threshold": 6.0, "load_in_4bit": true, "load_in_8bit": false, "quant_method": "bitsandbytes"}})");
  ASSERT_TRUE(r.ok()) << r.error().field << ": " << r.error().message;
  EXPECT_EQ(r.value().quantization.method, "bitsandbytes");
  EXPECT_EQ(r.value().quantization.bits, 4);
  ASSERT_NE(FindWarning(r.value(), "quantized_checkpoint"), nullptr);
  // NF4 with double quantization (QLoRA §3): 4 + 8/64 + 32/(64·256) = 4.126953125 bits
  // = 0.515869140625 B.
  EXPECT_DOUBLE_EQ(r.value().spec.stored_weight_bytes, 0.515869140625);
}

TEST(HfImportEdges, QuantizedCheckpointAllowsOnlyAdapterTraining) {
  HfQuantization awq{true, "awq", 4, 128};
  for (engine::Method m : {engine::Method::kFull, engine::Method::kPretrain, engine::Method::kFreeze}) {
    const auto e = CheckQuantizedCheckpointMethod(awq, m);
    ASSERT_TRUE(e.has_value());
    EXPECT_EQ(e->field, "method");
    EXPECT_TRUE(Contains(e->message, "awq")) << e->message;
    EXPECT_TRUE(Contains(e->message, "lora")) << e->message;
  }
  EXPECT_FALSE(CheckQuantizedCheckpointMethod(awq, engine::Method::kLora).has_value());
  EXPECT_FALSE(CheckQuantizedCheckpointMethod(awq, engine::Method::kQlora).has_value());
  EXPECT_FALSE(CheckQuantizedCheckpointMethod(HfQuantization{}, engine::Method::kFull).has_value());
}

TEST(HfImportEdges, BadQuantizationValuesNameTheirKey) {
  auto bits = Import(std::string("{") + kLlamaKeys +
                     R"(, "intermediate_size": 14336, "quantization_config": {"quant_method": "gptq", "bits": 0}})");
  ASSERT_FALSE(bits.ok());
  EXPECT_EQ(bits.error().field, "model.hf_config.quantization_config.bits");
  EXPECT_TRUE(Contains(bits.error().message, "between 1 and 8")) << bits.error().message;
  // Found by an outside run: a group of 1 or a 1 × 1 fp8 block stored more scale than
  // weight and was refused under an engine name (model.hf_config.weight_bytes); a
  // malformed block was taken as one scale per tensor.
  auto group = Import(std::string("{") + kLlamaKeys +
                      R"(, "intermediate_size": 14336, "quantization_config": {"quant_method": "gptq", "bits": 4, "group_size": 1}})");
  ASSERT_FALSE(group.ok());
  EXPECT_EQ(group.error().field, "model.hf_config.quantization_config.group_size");
  for (const char* block : {"[1, 1]", "[0, 0]", "[\"a\"]", "[]", "[128]", "[128, 128, 128]", "[0.5, 0.5]", "128"}) {
    auto fp8 = Import(std::string("{") + kLlamaKeys + R"(, "intermediate_size": 14336, "quantization_config": {"quant_method": "fp8", "weight_block_size": )" + block + "}}");
    ASSERT_FALSE(fp8.ok()) << block;
    EXPECT_EQ(fp8.error().field, "model.hf_config.quantization_config.weight_block_size") << block;
  }
  auto wide = Import(std::string("{") + kLlamaKeys +
                     R"(, "intermediate_size": 14336, "quantization_config": {"quant_method": "gptq", "bits": 16}})");
  ASSERT_FALSE(wide.ok());
  EXPECT_EQ(wide.error().field, "model.hf_config.quantization_config.bits");
  auto shape = Import(std::string("{") + kLlamaKeys + R"(, "intermediate_size": 14336, "quantization_config": "gptq"})");
  ASSERT_FALSE(shape.ok());
  EXPECT_EQ(shape.error().field, "model.hf_config.quantization_config");
}

// [SECTION] 3. vision-language configs

// Qwen/Qwen2-VL-7B-Instruct config.json (token ids left out): the text keys at the top level,
// a vision_config beside them. The language model is Qwen2-7B's shape, QKV bias included: by
// hand, per layer q/o 2 × 3584² = 25,690,112, k/v 2 × 3584 × 512 = 3,670,016, QKV bias
// 3584 + 1024 = 4,608, SwiGLU 3 × 3584 × 18944 = 203,685,888, 2 norms 7,168 → 233,057,792;
// × 28 = 6,525,618,176; + embedding and head 2 × 152064 × 3584 = 1,089,994,752 + final norm
// 3584 = 7,615,616,512 (8,291,375,616 in the checkpoint minus its 675,759,104-weight ViT).
// The ViT and merger by hand (hf_vision_config_test.cpp): 631,183,360 + 44,575,744 = 675,759,104.
constexpr const char* kQwen2Vl7B = R"({"architectures": ["Qwen2VLForConditionalGeneration"],
  "attention_dropout": 0.0, "hidden_act": "silu", "hidden_size": 3584, "initializer_range": 0.02,
  "intermediate_size": 18944, "max_position_embeddings": 32768, "max_window_layers": 28, "model_type": "qwen2_vl",
  "num_attention_heads": 28, "num_hidden_layers": 28, "num_key_value_heads": 4, "rms_norm_eps": 1e-06,
  "rope_theta": 1000000.0, "sliding_window": 32768, "tie_word_embeddings": false, "torch_dtype": "bfloat16",
  "transformers_version": "4.41.2", "use_cache": true, "use_sliding_window": false,
  "vision_config": {"depth": 32, "embed_dim": 1280, "mlp_ratio": 4, "num_heads": 16, "in_chans": 3,
    "hidden_size": 3584, "patch_size": 14, "spatial_merge_size": 2, "spatial_patch_size": 14,
    "temporal_patch_size": 2},
  "rope_scaling": {"type": "mrope", "mrope_section": [16, 24, 24]}, "vocab_size": 152064})";

TEST(HfImportEdges, Qwen2VlSizesItsQwen2LanguageModelAndItsVisionTower) {
  auto r = Import(kQwen2Vl7B);
  ASSERT_TRUE(r.ok()) << r.error().field << ": " << r.error().message;
  EXPECT_DOUBLE_EQ(engine::CountParams(r.value().spec).total, 8'291'375'616.0);
  EXPECT_EQ(FindWarning(r.value(), "hf_config_unknown_type"), nullptr) << "qwen2_vl is read as qwen2";
  EXPECT_EQ(FindWarning(r.value(), "vision_tower_not_sized"), nullptr);
}

// llava-hf/llava-1.5-7b-hf config.json as published: transformers wrote only the
// text_config values that differ from LlamaConfig's defaults.
constexpr const char* kLlava15Sparse = R"({"architectures": ["LlavaForConditionalGeneration"],
  "ignore_index": -100, "image_token_index": 32000, "model_type": "llava", "pad_token_id": 32001,
  "projector_hidden_act": "gelu",
  "text_config": {"_name_or_path": "lmsys/vicuna-7b-v1.5", "architectures": ["LlamaForCausalLM"],
    "max_position_embeddings": 4096, "model_type": "llama", "rms_norm_eps": 1e-05, "torch_dtype": "float16",
    "vocab_size": 32064},
  "tie_word_embeddings": false, "torch_dtype": "float16", "transformers_version": "4.36.0.dev0",
  "vision_config": {"hidden_size": 1024, "image_size": 336, "intermediate_size": 4096,
    "model_type": "clip_vision_model", "num_attention_heads": 16, "num_hidden_layers": 24, "patch_size": 14,
    "projection_dim": 768, "vocab_size": 32000},
  "vision_feature_layer": -2, "vision_feature_select_strategy": "default"})";

TEST(HfImportEdges, SparseTextConfigNamesTheMissingKeyAndWhereToFindIt) {
  auto r = Import(kLlava15Sparse);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().field, "model.hf_config.text_config.num_hidden_layers");
  EXPECT_TRUE(Contains(r.error().message, "lmsys/vicuna-7b-v1.5")) << r.error().message;
}

// The same LLaVA-1.5 config with its text_config completed from lmsys/vicuna-7b-v1.5's
// config.json (Llama-2-7B's shape). By hand: Llama-2-7B's 6,738,415,616 plus the 64 added
// rows of embedding and head, 2 × 64 × 4096 = 524,288 → 6,738,939,904. Its CLIP ViT-L/14 and
// projector (hf_vision_config_test.cpp): 303,502,336 + 20,979,712 → 7,063,421,952.
TEST(HfImportEdges, LlavaSizesTheTextConfigAndTheClipTower) {
  contract::Json config = contract::Json::parse(kLlava15Sparse);
  contract::Json& text = config["text_config"];
  text["hidden_size"] = 4096;
  text["intermediate_size"] = 11008;
  text["num_attention_heads"] = 32;
  text["num_hidden_layers"] = 32;
  text["num_key_value_heads"] = 32;
  auto r = ImportHfConfig(config);
  ASSERT_TRUE(r.ok()) << r.error().field << ": " << r.error().message;
  EXPECT_DOUBLE_EQ(engine::CountParams(r.value().spec).total, 7'063'421'952.0);
  EXPECT_EQ(r.value().spec.max_context, 4096);
  EXPECT_FALSE(r.value().spec.tied_embeddings) << "the wrapper's tie_word_embeddings: false";
  EXPECT_EQ(FindWarning(r.value(), "hf_config_unmapped_keys"), nullptr) << "wrapper keys are known";
}

// google/gemma-3-12b-it config.json (as embedded in a public repository's loader, source
// cited there): the text_config leaves out vocab_size and head_dim (Gemma3TextConfig defaults).
TEST(HfImportEdges, Gemma3SparseTextConfigIsRefusedNamingTheNestedKey) {
  auto r = Import(R"({"architectures": ["Gemma3ForConditionalGeneration"], "boi_token_index": 255999,
    "eoi_token_index": 256000, "eos_token_id": [1, 106], "image_token_index": 262144, "initializer_range": 0.02,
    "mm_tokens_per_image": 256, "model_type": "gemma3",
    "text_config": {"hidden_size": 3840, "intermediate_size": 15360, "model_type": "gemma3_text",
      "num_attention_heads": 16, "num_hidden_layers": 48, "num_key_value_heads": 8,
      "rope_scaling": {"factor": 8.0, "rope_type": "linear"}, "sliding_window": 1024},
    "torch_dtype": "bfloat16",
    "vision_config": {"hidden_size": 1152, "image_size": 896, "intermediate_size": 4304,
      "model_type": "siglip_vision_model", "num_attention_heads": 16, "num_hidden_layers": 27, "patch_size": 14,
      "vision_use_head": false}})");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().field, "model.hf_config.text_config.vocab_size");
}

TEST(HfImportEdges, TextConfigThatIsNotAnObjectIsRefused) {
  auto r = Import(std::string("{") + kLlamaKeys + R"(, "intermediate_size": 14336, "text_config": "llama"})");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().field, "model.hf_config.text_config");
}

// [SECTION] 4. errors name the config.json key and the range

TEST(HfImportEdges, RangeErrorsNameTheConfigKeyAndTheRange) {
  struct Case {
    const char* change;
    const char* field;
    const char* range;
  } cases[] = {
      {R"("num_hidden_layers": 0)", "model.hf_config.num_hidden_layers", "between 1 and 1000"},
      {R"("num_hidden_layers": 5000)", "model.hf_config.num_hidden_layers", "between 1 and 1000"},
      {R"("hidden_size": 4)", "model.hf_config.hidden_size", "between 8 and 262144"},
      {R"("intermediate_size": 5000000)", "model.hf_config.intermediate_size", "between 1 and 4194304"},
      {R"("vocab_size": 20000000)", "model.hf_config.vocab_size", "between 1 and 16777216"},
      {R"("max_position_embeddings": 99999999)", "model.hf_config.max_position_embeddings", ""},
  };
  for (const Case& c : cases) {
    contract::Json config = contract::Json::parse(std::string("{") + kLlamaKeys + R"(, "intermediate_size": 14336})");
    const contract::Json change = contract::Json::parse(std::string("{") + c.change + "}");
    config.update(change);
    auto r = ImportHfConfig(config);
    if (std::string(c.range).empty()) {
      EXPECT_TRUE(r.ok()) << c.change;
      continue;
    }
    ASSERT_FALSE(r.ok()) << c.change;
    EXPECT_EQ(r.error().field, c.field) << c.change;
    EXPECT_TRUE(Contains(r.error().message, c.range)) << c.change << ": " << r.error().message;
  }
}

TEST(HfImportEdges, FalconKvHeadErrorNamesItsOwnKey) {
  auto r = Import(R"({"model_type": "falcon", "hidden_size": 8192, "num_attention_heads": 128,
    "num_hidden_layers": 60, "vocab_size": 65024, "new_decoder_architecture": true, "num_kv_heads": 3})");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().field, "model.hf_config.num_kv_heads");
}

TEST(HfImportEdges, NestedRangeErrorsNameTheTextConfigKey) {
  contract::Json config = contract::Json::parse(kLlava15Sparse);
  contract::Json& text = config["text_config"];
  text.update(contract::Json::parse(R"({"hidden_size": 4096, "intermediate_size": 11008, "num_attention_heads": 32,
    "num_hidden_layers": 0})"));
  auto r = ImportHfConfig(config);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().field, "model.hf_config.text_config.num_hidden_layers");
  EXPECT_TRUE(Contains(r.error().message, "between 1 and 1000")) << r.error().message;
}

// [SECTION] 5. RoPE values

TEST(HfImportEdges, AbsurdRopeValuesAreRefusedAtImport) {
  struct Case {
    const char* change;
    const char* field;
  } cases[] = {
      {R"("rope_theta": 0.4)", "model.hf_config.rope_theta"},
      {R"("rope_theta": 1e300)", "model.hf_config.rope_theta"},
      {R"("rope_scaling": {"rope_type": "llama3", "factor": 1e308})", "model.hf_config.rope_scaling.factor"},
      {R"("rope_scaling": {"rope_type": "linear", "factor": 0})", "model.hf_config.rope_scaling.factor"},
      {R"("rope_scaling": "llama3")", "model.hf_config.rope_scaling"},
      {R"("rope_parameters": {"rope_theta": -5})", "model.hf_config.rope_parameters.rope_theta"},
  };
  for (const Case& c : cases) {
    contract::Json config = contract::Json::parse(std::string("{") + kLlamaKeys + R"(, "intermediate_size": 14336})");
    config.update(contract::Json::parse(std::string("{") + c.change + "}"));
    auto r = ImportHfConfig(config);
    ASSERT_FALSE(r.ok()) << c.change;
    EXPECT_EQ(r.error().field, c.field) << c.change;
  }
  // The largest published base (gradientai/Llama-3-8B-Instruct-Gradient-1048k) is accepted.
  contract::Json gradient = contract::Json::parse(std::string("{") + kLlamaKeys + R"(, "intermediate_size": 14336,
    "rope_theta": 3580165449.0})");
  EXPECT_TRUE(ImportHfConfig(gradient).ok());
}

TEST(HfImportEdges, RopeThetaErrorGivesTheRange) {
  auto r = Import(std::string("{") + kLlamaKeys + R"(, "intermediate_size": 14336, "rope_theta": 0.4})");
  ASSERT_FALSE(r.ok());
  EXPECT_TRUE(Contains(r.error().message, "between 100 and")) << r.error().message;
  EXPECT_TRUE(Contains(r.error().message, "0.4")) << r.error().message;
}

// [SECTION] 6. long strings are not echoed whole

TEST(HfImportEdges, HugeStringsAreCappedInMessagesAndNames) {
  const std::string huge(1 << 20, 'x');
  contract::Json config = contract::Json::parse(std::string("{") + kLlamaKeys + R"(, "intermediate_size": 14336})");
  config["model_type"] = huge;
  config["_name_or_path"] = huge;
  config[huge] = 1;
  auto r = ImportHfConfig(config);
  ASSERT_TRUE(r.ok()) << r.error().field;
  for (const engine::Warning& w : r.value().warnings) {
    EXPECT_LT(w.message.size(), 400u) << w.code;
  }
  EXPECT_LT(r.value().spec.name.size(), 100u);
  const engine::Warning* type = FindWarning(r.value(), "hf_config_unknown_type");
  ASSERT_NE(type, nullptr);
  EXPECT_TRUE(Contains(type->message, "…"));

  config.erase(huge);
  config["quantization_config"] = {{"quant_method", huge}};
  auto quantized = ImportHfConfig(config);
  ASSERT_TRUE(quantized.ok());
  EXPECT_LT(FindWarning(quantized.value(), "quantized_checkpoint")->message.size(), 800u);
  const auto refusal = CheckQuantizedCheckpointMethod(quantized.value().quantization, engine::Method::kFull);
  ASSERT_TRUE(refusal.has_value());
  EXPECT_LT(refusal->message.size(), 400u);
}

TEST(HfImportEdges, ManyUnknownKeysAreListedUpToALimit) {
  contract::Json config = contract::Json::parse(std::string("{") + kLlamaKeys + R"(, "intermediate_size": 14336})");
  for (int i = 0; i < 1000; ++i) config["custom_key_" + std::to_string(i)] = i;
  auto r = ImportHfConfig(config);
  ASSERT_TRUE(r.ok());
  const engine::Warning* w = FindWarning(r.value(), "hf_config_unmapped_keys");
  ASSERT_NE(w, nullptr);
  EXPECT_TRUE(Contains(w->message, "and 980 more")) << w->message.substr(0, 200);
}

// [SECTION] through the scenario API

// A GPTQ checkpoint loads as stored under lora and qlora alike (the engine test
// MemoryModel.GptqCheckpointBaseWeightsAreSizedAsStored checks the bytes), and full
// training on it is refused, naming the method.
TEST(HfImportEdges, GptqCheckpointSizesTheSameUnderLoraAndQlora) {
  contract::Json config = contract::Json::parse(std::string("{") + kLlamaKeys + R"(, "intermediate_size": 14336,
    "quantization_config": {"quant_method": "gptq", "bits": 4, "group_size": 128}})");
  contract::Json weights_gib;
  for (const char* method : {"lora", "qlora"}) {
    const contract::Json scenario = {{"model", {{"hf_config", config}}}, {"method", method}, {"gpu", "h100-sxm-80gb"}};
    const contract::Json r = contract::Json::parse(service::Session().Estimate(scenario.dump()).json);
    ASSERT_FALSE(r.contains("error")) << r.dump();
    if (weights_gib.is_null()) weights_gib = r["memory"]["weights_gib"];
    EXPECT_EQ(r["memory"]["weights_gib"], weights_gib) << method;
  }
  const contract::Json full = {{"model", {{"hf_config", config}}}, {"method", "full"}, {"gpu", "h100-sxm-80gb"}};
  const contract::Json e = contract::Json::parse(service::Session().Estimate(full.dump()).json);
  ASSERT_TRUE(e.contains("error")) << e.dump();
  EXPECT_EQ(e["error"]["field"], "method");
}

// The stored width travels with the architecture: JSON (`weight_bytes`) and links
// (`m.weight_bytes`), and a value outside 0.125-2 B is refused naming the field.
TEST(HfImportEdges, StoredWeightBytesRoundTripAndRange) {
  contract::Json arch = {{"layers", 32}, {"hidden", 4096}, {"heads", 32}, {"kv_heads", 8}, {"ffn", 14336},
               {"vocab", 128256}, {"weight_bytes", 0.51953125}};
  const contract::Json ok = contract::Json::parse(service::Session().Estimate(contract::Json{{"model", arch}, {"method", "lora"}}.dump()).json);
  ASSERT_FALSE(ok.contains("error")) << ok.dump();
  const contract::Json full = contract::Json::parse(service::Session().Estimate(contract::Json{{"model", arch}, {"method", "full"}}.dump()).json);
  ASSERT_TRUE(full.contains("error"));
  EXPECT_EQ(full["error"]["field"], "method");
  arch["weight_bytes"] = 0.05;
  const contract::Json small = contract::Json::parse(service::Session().Estimate(contract::Json{{"model", arch}, {"method", "lora"}}.dump()).json);
  ASSERT_TRUE(small.contains("error"));
  EXPECT_EQ(small["error"]["field"], "model.weight_bytes");
  arch["weight_bytes"] = 0.51953125;
  const std::string fragment = link::EncodeUrlState(contract::Json{{"model", arch}, {"method", "lora"}}, {});
  EXPECT_TRUE(Contains(fragment, "m.weight_bytes=0.51953125")) << fragment;
  const link::UrlState link = link::DecodeUrlState(fragment, catalog::Embedded().value());
  EXPECT_TRUE(link.ignored.empty()) << link.ignored.front().english;
  ASSERT_TRUE(link.scenario.contains("model")) << link.scenario.dump();
  EXPECT_DOUBLE_EQ(link.scenario["model"]["weight_bytes"].get<double>(), 0.51953125);
}

TEST(HfImportEdges, ScenarioCarriesTheVisionAndQuantizationWarnings) {
  contract::Json config = contract::Json::parse(kQwen2Vl7B);
  config["model_type"] = "qwen2";  // a vision_config of no known family, without image_size: not sized
  config["quantization_config"] = {{"quant_method", "awq"}, {"bits", 4}, {"group_size", 128}};
  const contract::Json scenario = {{"model", {{"hf_config", config}}}, {"method", "qlora"}, {"gpu", "h100-sxm-80gb"}};
  const contract::Json r = contract::Json::parse(service::Session().Estimate(scenario.dump()).json);
  ASSERT_FALSE(r.contains("error")) << r.dump();
  std::set<std::string> codes;
  for (const contract::Json& w : r["warnings"]) codes.insert(w["code"].get<std::string>());
  EXPECT_TRUE(codes.count("vision_tower_not_sized"));
  EXPECT_TRUE(codes.count("quantized_checkpoint"));
}

}  // namespace
}  // namespace engine::imports
