#include "checklist.h"

#include "estimate.h"
#include "format.h"
#include "units.h"

namespace engine {
namespace {

CheckItem SequenceLength(const Scenario& s, const Estimate& e) {
  const Training& t = s.training;
  const ModelSpec& m = s.model;
  CheckItem c{"Sequence length", CheckStatus::kOk, ""};
  const double share = e.memory.activations.bytes / std::max(1.0, e.need_bytes);
  c.answer = Num(t.seq_len) + " tokens; activations are " + Num(share * 100) + "% of per-GPU memory.";
  if (m.max_context > 0 && t.seq_len > m.max_context) {
    c.status = CheckStatus::kAttention;
    c.answer += " Longer than the model's trained " + Num(m.max_context) + "-token context: plan a context "
                "extension (RoPE scaling) and long-context data.";
  } else if (t.seq_len >= 32768 && s.parallel.cp == 1) {
    c.status = CheckStatus::kAttention;
    c.answer += " At this length context parallelism (cp > 1) spreads the activations across GPUs.";
  }
  if (!t.flash_attention) {
    c.status = CheckStatus::kAttention;
    c.answer += " Without FlashAttention the s² attention scores cost memory and time.";
  }
  return c;
}

CheckItem Quantization(const Scenario& s, const GpuSpec& gpu) {
  const Training& t = s.training;
  CheckItem c{"Quantization and precision", CheckStatus::kOk, ""};
  c.answer = std::string(EnumName(kPrecisionNames, t.precision)) + " training";
  if (t.method == Method::kQlora) c.answer += " with a 4-bit NF4 base (bitsandbytes): adapters only, some quality loss";
  c.answer += ".";
  if (t.precision == Precision::kFp8) {
    c.status = CheckStatus::kAttention;
    c.answer += " FP8 needs Transformer Engine or torchao and loss-curve checks against a bf16 run.";
  } else if (gpu.SupportsFp8() && t.method == Method::kPretrain) {
    c.answer += " " + gpu.name + " supports FP8, about 1.3× faster for large GEMMs.";
  }
  if (t.precision == Precision::kFp16) {
    c.status = CheckStatus::kAttention;
    c.answer += " FP16 needs loss scaling; prefer bf16 where the GPU supports it.";
  }
  return c;
}

CheckItem SoftwareStackCheck(const Scenario& s, const GpuSpec& gpu) {
  const Parallelism& p = s.parallel;
  CheckItem c{"Framework and software stack", CheckStatus::kOk, ""};
  c.answer = std::string(EnumName(kFrameworkNames, p.framework)) + " layout TP" + Num(p.tp) + " PP" + Num(p.pp) +
             " DP" + Num(p.DataParallel()) + (p.zero > 0 ? " ZeRO-" + Num(p.zero) : "") + ".";
  if (p.tp > 1 || p.pp > 1) c.answer += " Tensor/pipeline parallelism needs Megatron-LM, NeMo or torchtitan.";
  switch (gpu.stack) {
    case SoftwareStack::kCuda: break;
    case SoftwareStack::kRocm:
      c.status = CheckStatus::kAttention;
      c.answer += " " + gpu.name + " runs ROCm: check that your kernels (FlashAttention, fused optimizers) have ROCm builds.";
      break;
    case SoftwareStack::kCann:
      c.status = CheckStatus::kAttention;
      c.answer += " " + gpu.name + " needs Huawei CANN with MindSpore or torch_npu: CUDA code must be adapted.";
      break;
    case SoftwareStack::kXla:
      c.status = CheckStatus::kAttention;
      c.answer += " TPUs run through XLA (JAX or PyTorch/XLA), not CUDA.";
      break;
    case SoftwareStack::kOther:
      c.status = CheckStatus::kAttention;
      c.answer += " " + gpu.name + " needs its vendor's software stack (e.g. Intel Gaudi SynapseAI).";
      break;
  }
  return c;
}

CheckItem DataIo(const Scenario& s, const Estimate& e) {
  CheckItem c{"Data preprocessing and I/O", CheckStatus::kOk, ""};
  const double tokens_per_s_per_node = e.throughput.tokens_per_s / std::max(1, s.parallel.Nodes());
  const double bytes_per_token = TokenBytes(s.model);
  c.answer = "Pre-tokenize and pack sequences; each node reads " + Num(tokens_per_s_per_node * bytes_per_token / 1e6) +
             " MB/s of tokens, far below any NVMe.";
  if (TrainingTokens(s.training) <= 0) {
    c.status = CheckStatus::kAttention;
    c.answer += " Give the token count to size storage and time.";
  }
  return c;
}

CheckItem FaultTolerance(const Scenario& s, const Estimate& e) {
  const Reliability& r = e.reliability;
  CheckItem c{"Fault tolerance", CheckStatus::kOk, ""};
  c.answer = "Checkpoint every " + Num(r.interval_hours) + " h (" + Num(r.checkpoint_bytes / 1e9) + " GB, " +
             Num(r.checkpoint_write_s) + " s to write); about " + Num(r.expected_interruptions) +
             " interruptions expected.";
  if (!s.training.auto_restart && r.expected_interruptions >= 1) {
    c.status = CheckStatus::kProblem;
    c.answer += " No automatic restart is planned: use torchrun --max-restarts or a job supervisor.";
  } else if (r.ettr < 0.9) {
    c.status = CheckStatus::kAttention;
    c.answer += " Only " + Num(r.ettr * 100) + "% goodput: checkpoint asynchronously and restart automatically.";
  }
  return c;
}

CheckItem Compliance(const GpuSpec& gpu) {
  CheckItem c{"Compliance and export controls", CheckStatus::kOk, ""};
  if (gpu.export_restricted_cn) {
    c.status = CheckStatus::kAttention;
    c.answer = gpu.name + " is export-restricted for China and some other destinations (" + gpu.export_note_cn.en +
               "). Check licences before ordering for such sites.";
  } else {
    c.answer = gpu.name + ": " + (gpu.export_note_cn.empty() ? "no export restriction recorded" : gpu.export_note_cn.en) +
               ". Check the model's licence for your use.";
  }
  return c;
}

}  // namespace

std::vector<CheckItem> PreOrderChecklist(const Scenario& s, const Estimate& e, const GpuSpec& gpu) {
  std::vector<CheckItem> items = {SequenceLength(s, e), Quantization(s, gpu), SoftwareStackCheck(s, gpu),
                                  DataIo(s, e),         FaultTolerance(s, e), Compliance(gpu)};
  if (!e.fits) {
    items.push_back({"Memory", CheckStatus::kProblem,
                     "Needs " + GiBText(e.need_bytes) + " per GPU, more than the " + GiBText(e.capacity_bytes) +
                         " of " + gpu.name + ": shard more (ZeRO-3), recompute, offload or add GPUs."});
  }
  return items;
}

}  // namespace engine
