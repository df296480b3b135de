#include "startup.h"

#include <algorithm>
#include <cmath>

#include "flops.h"
#include "reliability.h"

namespace engine {
namespace {

// [SECTION] figures, with their evidence (model.md §7.5; researched 2026-12-02)
//
// Provisioning a cloud GPU node: Lambda states "Single-GPU instances usually take 3-5
// minutes to launch. Multi-GPU instances usually take 10-15 minutes" (dstack issue #508,
// 2023-06); dstack measured 8× H100 "a little over 20 minutes" (PR #2353, 2025-02). A
// marketplace container starts on a host that is already running [A]; owned servers are.
constexpr double kCloudOneGpuProvisionS = 4 * 60;
constexpr double kCloudNodeProvisionS = 15 * 60;
constexpr double kMarketplaceProvisionS = 60;
// The slowest of n nodes sets the start: a minute more per doubling of the count [A].
constexpr double kPerNodeDoublingS = 60;
// The training image: NGC PyTorch is ~20 GB unpacked ("nvcr.io/nvidia/pytorch:23.03-py3
// accounting for ~20GB", torchdrive PR #4, 2023); pulls are bound by gzip inflation on
// one core, ~15 s to fetch and ~30 s to inflate a 2.7 GiB layer (containerd #13559,
// 2026-06): ~0.15 GB/s of image with a fixed start.
constexpr double kImageBytes = 20e9;
constexpr double kImageBytesPerS = 0.15e9;
constexpr double kImageFixedS = 15;
// Hugging Face Hub downloads stop near 0.5 GB/s in plain Python ("to go beyond ~500MB/s
// ... Python cannot cap out the available bandwidth", hf_transfer README); the default
// safetensors loader put Llama 3 8B (~15 GB) on a GPU in 48 s (NVIDIA Run:ai Model
// Streamer blog, 2025-09): 0.31 GB/s.
constexpr double kWeightsDownloadBytesPerS = 0.5e9;
constexpr double kWeightsLoadBytesPerS = 15e9 / 48;
// Object storage to and from one node: aws-cli's CRT client moved 0.75-1.5 GiB/s for one
// 8.5 GB file (aws-cli #6736, 2022): ~1 GB/s per node, nodes in parallel.
constexpr double kObjectStoreBytesPerS = 1e9;
// Communicator start: ~10 s on one 8-GPU node (NCCL init 2.5 s and a store barrier ~9 s,
// NCCL issue logs), and "2.5-minute init time at large scale (e.g. above certain K GPUs)"
// on PyTorch's default path (NVIDIA/nccl #1156, 2024-01): ~0.015 s per rank.
constexpr double kNcclBaseS = 10;
constexpr double kNcclPerRankS = 0.015;

double ProvisionSeconds(Provisioning provisioning, int gpus, int nodes) {
  double s = 0;
  switch (provisioning) {
    case Provisioning::kCloudInstance: s = gpus == 1 ? kCloudOneGpuProvisionS : kCloudNodeProvisionS; break;
    case Provisioning::kMarketplace: s = kMarketplaceProvisionS; break;
    case Provisioning::kOwned: return 0;
  }
  return s + kPerNodeDoublingS * std::log2(std::max(1, nodes));
}

// Evaluation is forward passes only, a third of full training's model FLOPs per token (2N
// of 6N, and a third of the attention's; PaLM App. B), at the rate the training run reaches
// (its hardware FLOPs per token × tokens/s) [A].
double EvaluationSeconds(const Scenario& s, const ParamCounts& params, double tokens_per_s) {
  const double eval_tokens = s.training.eval_share * TrainingTokens(s.training);
  if (eval_tokens <= 0 || tokens_per_s <= 0) return 0;
  Scenario full = s;
  full.training.method = Method::kFull;
  full.training.activation_checkpointing = Recompute::kNone;
  const double forward_flops = TrainingFlopsPerToken(full, params).model / 3;
  const double training_rate = TrainingFlopsPerToken(s, params).hardware * tokens_per_s;
  return training_rate > 0 ? eval_tokens * forward_flops / training_rate : 0;
}

}  // namespace

Provisioning ProvisioningOf(const CloudOffer& offer) {
  return offer.capacity_kind == CapacityKind::kMarketplace ? Provisioning::kMarketplace
                                                           : Provisioning::kCloudInstance;
}

StartupTeardown EstimateStartup(const Scenario& s, const ParamCounts& params, Provisioning provisioning,
                                double tokens_per_s) {
  const Training& t = s.training;
  const int nodes = s.parallel.Nodes();
  StartupTeardown r;
  r.provision_s = ProvisionSeconds(provisioning, s.parallel.gpus, nodes);
  r.environment_s = kImageFixedS + kImageBytes / kImageBytesPerS;
  // Fine-tuning starts from a published checkpoint at 16 bits, which every node downloads
  // and loads; pre-training starts from random weights.
  if (t.method != Method::kPretrain) {
    const double checkpoint = ExportBytes(params);
    r.weights_s = checkpoint / kWeightsDownloadBytesPerS + checkpoint / kWeightsLoadBytesPerS;
  }
  const double epoch_tokens = TrainingTokens(t) / std::max(1.0, t.epochs);
  r.dataset_s = epoch_tokens * TokenBytes(s.model) / nodes / kObjectStoreBytesPerS;
  r.nccl_s = s.parallel.gpus > 1 ? kNcclBaseS + kNcclPerRankS * s.parallel.gpus : 0;
  r.eval_s = EvaluationSeconds(s, params, tokens_per_s);
  // The result: a pre-training run's resumable checkpoint, written by every node in
  // parallel; a fine-tune's model (or adapters), written once.
  const bool pretrain = t.method == Method::kPretrain;
  const double result = pretrain || TrainsAdapters(t.method) ? CheckpointBytes(s, params) : ExportBytes(params);
  r.upload_s = result / ((pretrain ? nodes : 1) * kObjectStoreBytesPerS);
  return r;
}

}  // namespace engine
