#!/usr/bin/env python3
"""The LLaMA-Factory YAML written by `trainsizer launch --tool llamafactory` must parse with
PyYAML, carry typed values (numbers as numbers, not strings) and keep the batch arithmetic;
the DeepSpeed JSON it names must parse and agree with it, as Hugging Face's DeepSpeed
integration demands: train_micro_batch_size_per_gpu = per_device_train_batch_size,
gradient_accumulation_steps equal, and micro x accumulation x world size = train_batch_size.
LLaMA-Factory runs data parallel only, so its data-parallel degree is every GPU.

Usage: check_yaml.py PATH_TO_TRAINSIZER
Expected values are worked out by hand next to each scenario.
"""
import json
import subprocess
import sys

import yaml

CASES = [
    # Llama 3 8B LoRA on one GPU: 16 / (4 x 1 GPU) = 4 accumulation steps;
    # ceil(1e8 / (16 x 2048)) = ceil(3051.8) = 3052 steps.
    ({"model": "llama-3-8b", "method": "lora", "micro_batch": 4, "global_batch": 16, "seq_len": 2048,
      "tokens": 1e8},
     {"data_parallel": 1, "global_batch": 16, "finetuning_type": "lora", "max_steps": 3052}),
    # Llama 3 70B full fine-tuning, 16 GPUs, ZeRO-3: 256 / (1 x 16) = 16 accumulation steps.
    ({"model": "llama-3-70b", "method": "full", "gpus": 16, "zero": 3, "micro_batch": 1, "global_batch": 256,
      "tokens": 1e9},
     {"data_parallel": 16, "global_batch": 256, "finetuning_type": "full", "deepspeed": "ds_config.json"}),
    # QLoRA on two RTX 4090: 32 / (2 x 2) = 8 accumulation steps, 4-bit base weights.
    ({"model": "llama-3-8b", "method": "qlora", "gpu": "rtx-4090-24gb", "gpus": 2, "micro_batch": 2,
      "global_batch": 32, "lora_targets": "qv"},
     {"data_parallel": 2, "global_batch": 32, "finetuning_type": "lora", "quantization_bit": 4,
      "lora_target": "q_proj,v_proj"}),
    # Llama 3 8B full fine-tuning on 8 GPUs, ZeRO-3 with offload: 64 / (2 x 8) = 4 accumulation steps;
    # ceil(5e8 / (64 x 4096)) = ceil(1907.3) = 1908 steps.
    ({"model": "llama-3-8b", "method": "full", "gpus": 8, "zero": 3, "framework": "deepspeed",
      "offload": "optimizer+params", "micro_batch": 2, "global_batch": 64, "activation_checkpointing": "full",
      "tokens": 5e8},
     {"data_parallel": 8, "global_batch": 64, "gradient_accumulation_steps": 4, "max_steps": 1908,
      "deepspeed": "ds_config.json"}),
    # Llama 3 70B on 64 GPUs laid out TP 8 x PP 2 (DP 4 for Megatron-LM): LLaMA-Factory cannot do TP/PP
    # and starts 64 data-parallel ranks, so 512 / (1 x 64) = 8 accumulation steps, not 128.
    ({"model": "llama-3-70b", "method": "full", "gpus": 64, "tp": 8, "pp": 2, "sequence_parallel": True,
      "framework": "megatron", "zero": 1, "micro_batch": 1, "global_batch": 512, "activation_checkpointing": "full",
      "tokens": 2e9, "seq_len": 8192},
     {"data_parallel": 64, "global_batch": 512, "gradient_accumulation_steps": 8, "max_steps": 477,
      "deepspeed": "ds_config.json"}),
    # A custom architecture has no Hugging Face id: a placeholder path, still valid YAML. No
    # global batch given: a fine-tune's default 128 sequences, accumulated on the one GPU.
    ({"model": {"params_b": 3}, "method": "freeze", "freeze_trainable_layers": 4, "precision": "fp16"},
     {"data_parallel": 1, "global_batch": 128, "gradient_accumulation_steps": 128, "finetuning_type": "freeze", "freeze_trainable_layers": 4,
      "fp16": True}),
]


def launch(cli, scenario, tool):
    return subprocess.run([cli, "launch", "-", "--tool", tool], input=json.dumps(scenario),
                          capture_output=True, text=True, check=True).stdout


def deepspeed_problems(cli, scenario, doc, expected):
    """The DeepSpeed config against the YAML, as transformers' HfTrainerDeepSpeedConfig checks it."""
    ds = json.loads(launch(cli, scenario, "deepspeed"))
    problems = []
    world = expected["data_parallel"]
    if ds["train_micro_batch_size_per_gpu"] != doc.get("per_device_train_batch_size"):
        problems.append("ds micro-batch %s != YAML %s" % (ds["train_micro_batch_size_per_gpu"],
                                                          doc.get("per_device_train_batch_size")))
    if ds["gradient_accumulation_steps"] != doc.get("gradient_accumulation_steps"):
        problems.append("ds accumulation %s != YAML %s" % (ds["gradient_accumulation_steps"],
                                                           doc.get("gradient_accumulation_steps")))
    batch = ds["train_micro_batch_size_per_gpu"] * ds["gradient_accumulation_steps"] * world
    if batch != ds["train_batch_size"] or batch != expected["global_batch"]:
        problems.append("ds micro x accumulation x %d GPUs = %d, train_batch_size %d, want %d" %
                        (world, batch, ds["train_batch_size"], expected["global_batch"]))
    return problems


def main(cli):
    failures = 0
    for scenario, expected in CASES:
        doc = yaml.safe_load(launch(cli, scenario, "llamafactory"))
        problems = []
        if not isinstance(doc, dict):
            problems.append("not a YAML mapping")
            doc = {}
        batch = doc.get("per_device_train_batch_size", 0) * doc.get("gradient_accumulation_steps", 0)
        if batch * expected["data_parallel"] != expected["global_batch"]:
            problems.append("per_device_train_batch_size x gradient_accumulation_steps x DP = %s, want %s" %
                            (batch * expected["data_parallel"], expected["global_batch"]))
        if not isinstance(doc.get("learning_rate"), float):
            problems.append("learning_rate %r is not a number" % (doc.get("learning_rate"),))
        if not isinstance(doc.get("cutoff_len"), int):
            problems.append("cutoff_len is not an integer")
        for key, want in expected.items():
            if key in ("data_parallel", "global_batch"):
                continue
            if doc.get(key) != want:
                problems.append("%s = %r, want %r" % (key, doc.get(key), want))
        if "deepspeed" in doc:
            problems += deepspeed_problems(cli, scenario, doc, expected)
        for p in problems:
            print("%s: %s" % (json.dumps(scenario), p))
        failures += len(problems)
    print("check_yaml: %d case(s), %d problem(s)" % (len(CASES), failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
