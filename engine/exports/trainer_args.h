// Settings every Hugging Face Trainer based launch config writes the same way (the
// torchrun/TRL command, LLaMA-Factory, ms-swift, the TRL script of a vision-language
// model): the placeholder learning rate, AdamW's hyperparameters, the optimizer's and the
// LoRA targets' names, and the pixel caps a vision-language processor is given.
#pragma once

#include <string>

#include "engine/launch_plan.h"
#include "engine/scenario.h"

namespace engine::exports {

// A starting learning rate only: the scenario does not carry one. Common values: 3e-4
// pretraining, 1e-5 full fine-tuning, 1e-4 LoRA/QLoRA adapters. Written as "1.0e-4" because
// YAML 1.1 (PyYAML) reads "1e-4" as a string.
struct LearningRate {
  double value;
  const char* text;
};
LearningRate PlaceholderLearningRate(Method method);

// AdamW hyperparameters written into every config, so that DeepSpeed's optimizer section
// and the Trainer arguments of LLaMA-Factory agree (the HF DeepSpeed integration refuses
// mismatches). β₂ 0.95 and weight decay 0.1 are the Llama/GPT-3 training values.
inline constexpr double kBeta1 = 0.9, kBeta2 = 0.95, kEpsilon = 1e-8, kWeightDecay = 0.1, kClipNorm = 1.0;
inline constexpr int kRendezvousPort = 29500;

// A number as written in a config.json, all its digits: the shortest of %.15g and %.17g
// that reads back as the same double (engine::Num keeps only 3 significant digits).
std::string ExactNumber(double value);

// The Trainer's --optim name (transformers OptimizerNames).
const char* TrainerOptimizer(Optimizer o);

// "--max_steps N" when the tokens give a step count, else "--num_train_epochs E" (whole
// epochs, at least one); `separator` joins name and value ("=" for a Python keyword).
std::string StepsArgument(const LaunchPlan& plan, const Training& t, const char* steps_flag, const char* epochs_flag,
                          const char* separator = " ");

// The tower recomputes in backward while the language model does not, or the other way
// round: the Trainer's one gradient_checkpointing switch covers both.
bool TowerCheckpointingDiffers(const Training& t);

// Trainer's --fsdp options (transformers FSDPOption): zero 3 → full_shard; zero 1–2 →
// shard_grad_op (FSDP has no optimizer-only sharding); zero 0 or one GPU → plain DDP ("").
std::string FsdpOption(const Parallelism& p);

// PEFT module names as TRL's ModelConfig takes them (--lora_target_modules, nargs +), or as
// LLaMA-Factory's lora_target takes them (`yaml`, comma-separated, "all").
const char* LoraModules(LoraTargets targets, bool yaml);

// PEFT module names of the whole modules trained beside the adapters, or "" for none.
std::string SavedModuleNames(const Training& t, const char* separator);

// The pixel caps of a vision-language model's processor, as the estimate sized them (a
// dynamic-resolution scheme; 0 = none to write): the scenario's, else the model's.
struct PixelCaps {
  double image_max = 0;
  double image_min = 0;
  double video_max = 0;  // per frame
};
PixelCaps ProcessorPixelCaps(const Scenario& s);

}  // namespace engine::exports
