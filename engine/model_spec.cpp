#include "model_spec.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "vision.h"

namespace engine {
namespace {

// Attention projections of one layer, biases included (Megatron attention term with
// h_q = heads·head_dim and h_kv = kv_heads·head_dim, so GQA/MQA and head_dim ≠ h/heads
// are exact). MLA follows DeepSeek-V2 §2.1 / torchtitan deepseek_v3 model code:
// q (optionally through a low-rank q_lora), compressed kv + rope key, and output.
struct AttentionParams {
  double linear = 0;  // GEMM weights (+ their biases)
  double other = 0;   // MLA's latent norms
};

AttentionParams CountAttention(const ModelSpec& m) {
  const double h = m.hidden;
  AttentionParams p;
  if (m.attention == AttentionKind::kMla) {
    const MlaDims& a = m.mla;
    const double qk_dim = a.qk_nope_head_dim + a.qk_rope_head_dim;
    if (a.q_lora_rank > 0) {
      p.linear += h * a.q_lora_rank + double(a.q_lora_rank) * m.heads * qk_dim;
      p.other += a.q_lora_rank;
    } else {
      p.linear += h * m.heads * qk_dim;
    }
    p.linear += h * (a.kv_lora_rank + a.qk_rope_head_dim) +
                double(a.kv_lora_rank) * m.heads * (a.qk_nope_head_dim + a.v_head_dim);
    p.other += a.kv_lora_rank;
    p.linear += double(m.heads) * a.v_head_dim * h;
    return p;
  }
  const double hq = m.QueryWidth();
  const double hkv = m.KvWidth();
  if (m.attention_sinks) p.other += m.heads;
  p.linear = h * hq + 2 * h * hkv + hq * h;
  if (m.qkv_bias || m.linear_bias) p.linear += hq + 2 * hkv;
  if (m.linear_bias) p.linear += h;
  return p;
}

// A Mamba-2 mixer (transformers modeling_nemotron_h.py, mamba_ssm Mamba2): in_proj to
// z, x, B, C and dt (2·d_in + 2·G·N + H), a depthwise convolution with bias over x, B and
// C, per-head A, D and dt bias, a gated RMSNorm over d_in, and out_proj d_in → h.
AttentionParams CountMamba(const ModelSpec& m) {
  const MambaDims& d = m.mamba;
  const double h = m.hidden, inner = d.Inner(), bc = 2.0 * d.groups * d.state;
  AttentionParams p;
  p.linear = h * (2 * inner + bc + d.heads) + inner * h;
  p.other = (inner + bc) * (d.conv + 1) + 3.0 * d.heads + inner;
  return p;
}

// One MLP of width f: gated (SwiGLU/GeGLU) has gate, up and down; plain has fc1 and fc2.
double CountMlp(const ModelSpec& m, double f) {
  const double h = m.hidden;
  const double matrices = m.mlp == MlpKind::kGated ? 3 : 2;
  double p = matrices * h * f;
  if (m.linear_bias) p += (matrices - 1) * f + h;
  return p;
}

double NormParams(const ModelSpec& m) {
  return m.hidden * (m.norm == NormKind::kLayerNorm ? 2.0 : 1.0);
}

}  // namespace

ParamCounts CountParams(const ModelSpec& m) {
  const double h = m.hidden;
  const AttentionParams attn = CountAttention(m);
  const double norms = m.norms_per_layer * NormParams(m);
  const double dense_mlp = CountMlp(m, m.ffn);

  const MoeSpec& moe = m.moe;
  const int moe_layers = m.MoeLayers();
  const int dense_layers = m.layers - moe_layers;
  const double expert = m.IsMoe() ? CountMlp(m, moe.moe_ffn) : 0;
  const double shared = moe.shared_expert_ffn > 0 ? CountMlp(m, moe.shared_expert_ffn)
                                                  : moe.shared_experts * expert;
  const double router = m.IsMoe() ? h * moe.experts : 0;

  const double dense_layer = attn.linear + attn.other + norms + dense_mlp;
  const double moe_layer = attn.linear + attn.other + norms + moe.experts * expert + shared + router;
  const double moe_layer_active =
      attn.linear + attn.other + norms + moe.experts_per_token * expert + shared + router;

  ParamCounts c;
  c.embedding = double(m.vocab) * h + double(m.learned_positions) * h;
  c.lm_head = m.tied_embeddings ? 0 : double(m.vocab) * h;
  c.transformer = dense_layers * dense_layer + moe_layers * moe_layer + NormParams(m);
  c.total = c.embedding + c.lm_head + c.transformer;
  c.active = c.embedding + c.lm_head + dense_layers * dense_layer + moe_layers * moe_layer_active +
             NormParams(m);
  c.linear = dense_layers * (attn.linear + dense_mlp) +
             moe_layers * (attn.linear + moe.experts * expert + shared + router);
  // FLOP-relevant weights: the input-embedding lookup is not a GEMM, the LM head always is
  // (even when tied), norms are negligible (model.md §5.2, torchtitan convention).
  c.matmul_active = dense_layers * (attn.linear + dense_mlp) +
                    moe_layers * (attn.linear + moe.experts_per_token * expert + shared + router) +
                    double(m.vocab) * h;
  c.largest_layer = std::max(dense_layers > 0 ? dense_layer : 0.0, moe_layers > 0 ? moe_layer : 0.0);
  c.expert = moe_layers * moe.experts * expert;
  if (m.mamba.layers > 0 || m.mlp_free_layers > 0) {
    // Hybrid stacks: Mamba-2 mixers replace attention on mamba.layers layers, and
    // mlp_free_layers dense layers have no MLP.
    const AttentionParams mamba = CountMamba(m);
    const double mixers = m.mamba.layers * (mamba.linear + mamba.other - attn.linear - attn.other);
    const double mlps = -double(m.mlp_free_layers) * dense_mlp;
    const double linear = m.mamba.layers * (mamba.linear - attn.linear) + mlps;
    c.transformer += mixers + mlps;
    c.total += mixers + mlps;
    c.active += mixers + mlps;
    c.linear += linear;
    c.matmul_active += linear;
    if (m.mamba.layers > 0) {
      c.largest_layer = std::max(c.largest_layer, mamba.linear + mamba.other + norms + dense_mlp);
    }
  }
  if (m.mtp_layers > 0) {
    // Each module: the 2h → h projection, its two input norms and output norm, and one
    // block like the model's last layer; the embedding and the head are shared (DeepSeek-V3
    // §2.2). The head runs once more per module.
    const bool moe_block = moe_layers > 0;
    const double block = moe_block ? moe_layer : dense_layer;
    const double block_linear = attn.linear + (moe_block ? moe.experts * expert + shared + router : dense_mlp);
    const double block_active_linear =
        attn.linear + (moe_block ? moe.experts_per_token * expert + shared + router : dense_mlp);
    const double projection = 2.0 * h * h;
    c.mtp = m.mtp_layers * (projection + 3 * NormParams(m) + block);
    c.transformer += c.mtp;
    c.total += c.mtp;
    c.active += m.mtp_layers * (projection + 3 * NormParams(m) + (moe_block ? moe_layer_active : dense_layer));
    c.linear += m.mtp_layers * (projection + block_linear);
    c.matmul_active += m.mtp_layers * (projection + block_active_linear + double(m.vocab) * h);
    if (moe_block) c.expert += m.mtp_layers * moe.experts * expert;
  }
  if (m.vision.present()) {
    c.vision_tower = VisionTowerParams(m.vision);
    c.vision_projector = m.vision.projector_params;
    c.total += c.vision_tower + c.vision_projector;
    c.active += c.vision_tower + c.vision_projector;
  }
  return c;
}

namespace {

std::optional<InputError> RangeError(const std::string& field, double value, double lo, double hi) {
  if (!(value >= lo && value <= hi)) {  // also catches NaN
    return MakeInputError(field, "input.out_of_range",
                          {CountArg("min", static_cast<long long>(lo)), CountArg("max", static_cast<long long>(hi)),
                           NumberArg("got", value)});
  }
  return std::nullopt;
}

// A vision tower's shape: a ViT whose width divides into its heads, patches within the
// images it is given, and a pixel range that is a range.
std::optional<InputError> ValidateVision(const VisionSpec& v, const std::string& prefix) {
  if (!v.present()) return std::nullopt;
  if (auto e = RangeError(prefix + "vision_hidden", v.hidden, 8, 65536)) return e;
  if (auto e = RangeError(prefix + "vision_heads", v.heads, 1, v.hidden)) return e;
  if (auto e = RangeError(prefix + "vision_ffn", v.ffn, 1, 1048576)) return e;
  if (v.hidden % v.heads != 0) {
    return MakeInputError(prefix + "vision_heads", "input.must_divide",
                          {TextArg("what", "vision_hidden"), CountArg("total", v.hidden), CountArg("value", v.heads)});
  }
  if (auto e = RangeError(prefix + "vision_full_attention_layers", v.full_attention_layers, 0, v.layers)) return e;
  if (v.scheme != MediaScheme::kDynamic) {
    if (auto e = RangeError(prefix + "vision_image_size", v.image_size, v.patch, 16384)) return e;
  }
  if (v.max_pixels > 0 && v.max_pixels < v.min_pixels) {
    return RangeError(prefix + "vision_max_pixels", v.max_pixels, v.min_pixels, 268435456);
  }
  return std::nullopt;
}

}  // namespace

// Upper bound on a model: 10 trillion parameters is an order of magnitude past the
// largest published dense or MoE model, so anything beyond is a typo, not a plan.
constexpr double kMaxModelParams = 1e13;

// A quantized checkpoint stores a linear weight in 1 to 8 bits plus group scales: from
// 1/8 B up to, but not including, the 2 B of a 16-bit weight.
constexpr double kMinStoredWeightBytes = 0.125, kMaxStoredWeightBytes = 2;

std::optional<InputError> ValidateModel(const ModelSpec& m, const std::string& prefix) {
  const struct {
    const char* name;
    double value, lo, hi;
  } ranges[] = {
      {"layers", double(m.layers), 1, 1000},      {"hidden", double(m.hidden), 8, 262144},
      {"heads", double(m.heads), 1, 4096},        {"kv_heads", double(m.kv_heads), 1, 4096},
      {"head_dim", double(m.head_dim), 1, 4096},  {"ffn", double(m.ffn), 1, 4194304},
      {"vocab", double(m.vocab), 1, 16777216},    {"norms_per_layer", double(m.norms_per_layer), 0, 8},
      {"learned_positions", double(m.learned_positions), 0, 16777216},
      {"max_context", double(m.max_context), 0, 1e8},
  };
  for (const auto& r : ranges) {
    if (auto e = RangeError(prefix + r.name, r.value, r.lo, r.hi)) return e;
  }
  if (auto e = RangeError(prefix + "sliding_window_layers", m.sliding_window_layers, 0, m.layers)) return e;
  if (auto e = RangeError(prefix + "mamba_layers", m.mamba.layers, 0, m.layers)) return e;
  if (m.mamba.layers > 0) {
    const MambaDims& d = m.mamba;
    if (auto e = RangeError(prefix + "mamba_heads", d.heads, 1, 65536)) return e;
    if (auto e = RangeError(prefix + "mamba_head_dim", d.head_dim, 1, 4096)) return e;
    if (auto e = RangeError(prefix + "mamba_state", d.state, 1, 65536)) return e;
    if (auto e = RangeError(prefix + "mamba_groups", d.groups, 1, 4096)) return e;
    if (auto e = RangeError(prefix + "mamba_conv", d.conv, 1, 64)) return e;
    if (m.mamba.heads % std::max(1, m.mamba.groups) != 0) {
      return MakeInputError(prefix + "mamba_groups", "input.must_divide",
                            {TextArg("what", "mamba_heads"), CountArg("total", m.mamba.heads),
                             CountArg("value", m.mamba.groups)});
    }
  }
  const int dense_count = m.IsMoe() ? m.moe.dense_layers : m.layers;
  if (auto e = RangeError(prefix + "mlp_free_layers", m.mlp_free_layers, 0, dense_count)) return e;
  if (m.heads % m.kv_heads != 0) {
    return MakeInputError(prefix + "kv_heads", "input.must_divide",
                          {TextArg("what", "heads"), CountArg("total", m.heads), CountArg("value", m.kv_heads)});
  }
  if (m.IsMoe()) {
    const MoeSpec& e = m.moe;
    if (auto err = RangeError(prefix + "experts", e.experts, 1, 4096)) return err;
    if (auto err = RangeError(prefix + "experts_per_token", e.experts_per_token, 1, e.experts)) return err;
    if (auto err = RangeError(prefix + "moe_ffn", e.moe_ffn, 1, 4194304)) return err;
    if (auto err = RangeError(prefix + "shared_experts", e.shared_experts, 0, 64)) return err;
    if (auto err = RangeError(prefix + "dense_layers", e.dense_layers, 0, m.layers - 1)) return err;
  }
  if (m.attention == AttentionKind::kMla) {
    const MlaDims& a = m.mla;
    if (auto err = RangeError(prefix + "kv_lora_rank", a.kv_lora_rank, 1, 65536)) return err;
    if (auto err = RangeError(prefix + "qk_nope_head_dim", a.qk_nope_head_dim, 1, 4096)) return err;
    if (auto err = RangeError(prefix + "qk_rope_head_dim", a.qk_rope_head_dim, 0, 4096)) return err;
    if (auto err = RangeError(prefix + "v_head_dim", a.v_head_dim, 1, 4096)) return err;
  }
  if (auto e = ValidateVision(m.vision, prefix)) return e;
  // A stored weight narrower than 1 bit, or as wide as bf16, is not a quantized checkpoint.
  if (m.stored_weight_bytes != 0 &&
      !(m.stored_weight_bytes >= kMinStoredWeightBytes && m.stored_weight_bytes < kMaxStoredWeightBytes)) {
    return MakeInputError(prefix + "weight_bytes", "input.weight_bytes_range",
                          {NumberArg("got", m.stored_weight_bytes)});
  }
  const double total = CountParams(m).total;
  if (total > kMaxModelParams) {
    return MakeInputError(prefix.empty() ? "model" : prefix.substr(0, prefix.size() - 1), "input.model_too_large",
                          {NumberArg("trillions", total / 1e12)});
  }
  return std::nullopt;
}

namespace {

// Width/depth ratio (hidden / layers) of published dense models: Llama-2-7B/13B and
// Llama-3-8B use 128 (4096/32, 5120/40), Llama-2-70B/Llama-3-70B 102 (8192/80),
// Llama-3.1-405B 130 (16384/126). We interpolate 128 → 102 between 13B and 70B and keep
// 102 above; the shape is a plausible guess, shown to the user, not a claim.
double TargetAspectRatio(double params) {
  if (params <= 13e9) return 128;
  if (params >= 70e9) return 102;
  const double t = std::log(params / 13e9) / std::log(70.0 / 13.0);
  return 128 + t * (102 - 128);
}

}  // namespace

constexpr double kMinDerivedParams = 1e7;

Result<ModelSpec> DeriveDenseShape(double params) {
  if (!(params >= kMinDerivedParams && params <= kMaxModelParams)) {
    return MakeInputError("model.params_b", "input.between.unit",
                          {NumberArg("min", kMinDerivedParams / 1e9), NumberArg("max", kMaxModelParams / 1e9),
                           MessageArgOf("unit", MakeMessage("input.unit.billion_parameters"))});
  }
  // Llama-3 conventions: 128-wide heads, 8 KV heads, SwiGLU at 3.5·h, the 128,256-token
  // vocabulary; embeddings tied below 4B as in Llama-3.2-1B/3B (Meta HF configs).
  ModelSpec best;
  double best_score = 1e300;
  for (int heads = 4; heads <= 256; ++heads) {
    ModelSpec m;
    m.id = "custom";
    m.head_dim = heads * 128 >= 1024 ? 128 : 64;
    m.heads = heads;
    m.hidden = heads * m.head_dim;
    m.kv_heads = std::min(8, heads);
    while (heads % m.kv_heads != 0) --m.kv_heads;
    m.ffn = int(std::lround(3.5 * m.hidden / 256.0)) * 256;
    // Llama 3's 128,256-token vocabulary, unless its embedding alone would be over half
    // the model (below ~70M parameters): then Llama 2's 32,000 (Meta HF configs), as the
    // smallest published models use small vocabularies (Pythia-14M: 50,304).
    m.vocab = 128256.0 * 256 <= params / 2 ? 128256 : 32000;
    m.tied_embeddings = params < 4e9;
    m.layers = 1;
    const ParamCounts one = CountParams(m);
    const double per_layer = one.transformer - m.hidden;  // minus the final norm
    const double rest = one.total - per_layer;
    // Rounded to the nearest depth, but never past the model limit (params_b's 10,000).
    double layers = std::round((params - rest) / per_layer);
    if (rest + layers * per_layer + m.hidden > kMaxModelParams) layers = std::floor((kMaxModelParams - rest - m.hidden) / per_layer);
    if (layers < 2 || layers > 1000) continue;
    m.layers = int(layers);
    const double aspect = double(m.hidden) / m.layers;
    const double error = std::abs(CountParams(m).total - params) / params;
    const double score = std::abs(std::log(aspect / TargetAspectRatio(params))) + 10 * error;
    if (score < best_score) {
      best_score = score;
      best = m;
    }
  }
  if (best.layers == 0) {
    return MakeInputError("model.params_b", "input.no_dense_shape");
  }
  best.name = ModelNameMessage(best, /*derived=*/true).english;
  best.max_context = 8192;
  return best;
}

// "7.000B": the parameter count in billions, cut to five characters.
Message ModelNameMessage(const ModelSpec& model, bool derived) {
  if (derived) {
    return MakeMessage("model.name.derived",
                       {TextArg("params_b", std::to_string(CountParams(model).total / 1e9).substr(0, 5))});
  }
  if (model.id == "custom" && model.name == CustomModelName()) return MakeMessage("model.name.custom");
  return MakeMessage("model.name.named", {TextArg("name", model.name)});
}

std::string CustomModelName() { return RenderEnglish("model.name.custom", {}); }

}  // namespace engine
