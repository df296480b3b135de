// The time a job spends outside training steps: getting the machines, starting the
// software, bringing the weights and data to the GPUs, joining the ranks, evaluating on
// held-out data, and writing the result out at the end (model.md §7.5). A 17-minute job on 4,096 GPUs is not fast once
// these are counted.
#pragma once

#include "catalog.h"
#include "model_spec.h"
#include "scenario.h"

namespace engine {

// Where the GPUs come from: a cloud VM or bare-metal node started for the job, a
// marketplace container on a host that is already up, or servers one owns.
enum class Provisioning { kCloudInstance, kMarketplace, kOwned };

struct StartupTeardown {
  double provision_s = 0;    // request to a running node (all nodes in parallel)
  double environment_s = 0;  // training container image pulled and unpacked
  double weights_s = 0;      // the starting checkpoint downloaded and loaded (none for pre-training)
  double dataset_s = 0;      // each node's share of the tokenized dataset staged
  double nccl_s = 0;         // process groups and communicators initialized over all ranks
  double eval_s = 0;         // forward passes over the held-out tokens (eval_share), all evaluations together
  double upload_s = 0;       // the final checkpoint or model written to object storage
  double StartupSeconds() const { return provision_s + environment_s + weights_s + dataset_s + nccl_s; }
  double TotalSeconds() const { return StartupSeconds() + eval_s + upload_s; }
};

// How an offer's GPUs are provisioned (a marketplace's containers start on a running host).
Provisioning ProvisioningOf(const CloudOffer& offer);

// `tokens_per_s` is the training run's: evaluation runs at its FLOP rate.
StartupTeardown EstimateStartup(const Scenario& s, const ParamCounts& params, Provisioning provisioning,
                                double tokens_per_s);

}  // namespace engine
