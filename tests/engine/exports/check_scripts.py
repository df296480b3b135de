#!/usr/bin/env python3
"""The ms-swift command and the TRL script `trainsizer launch` writes for a vision-language
fine-tune must be valid text for their interpreters: the command passes `bash -n`, the script
parses as Python (ast), for every way the estimate can train the tower, projector and
language model, and for a text model's ms-swift commands (swift sft, swift rlhf).

Usage: check_scripts.py PATH_TO_TRAINSIZER
"""
import ast
import itertools
import json
import subprocess
import sys


def launch(cli, scenario, tool):
    done = subprocess.run([cli, "launch", "-", "--tool", tool], input=json.dumps(scenario),
                          capture_output=True, text=True, check=True)
    return done.stdout


def main():
    cli = sys.argv[1]
    failures = 0
    base = {"model": "qwen2.5-vl-7b", "seq_len": 512, "images_per_sample": 1, "gpus": 8, "zero": 3}
    variants = itertools.product(["full", "lora", "qlora"], ["frozen", "lora", "full"], [False, True], [False, True])
    scenarios = [dict(base, method=m, vision_training=v, projector_training=p, freeze_llm=f)
                 for m, v, p, f in variants if not (f and v == "frozen" and not p)]
    scenarios += [{"model": "qwen3-vl-8b", "method": "lora", "video_seconds": 8, "lora_targets": "attention"},
                  {"model": "llava-1.5-7b", "method": "full", "freeze_llm": True, "projector_training": True,
                   "images_per_sample": 1},
                  {"model": "llama-3-8b", "method": "freeze", "freeze_trainable_layers": 4, "gpus": 16, "tp": 2},
                  {"model": "qwen2.5-7b", "method": "dpo", "gpus": 8, "zero": 3},
                  {"model": "qwen2.5-7b", "method": "grpo", "policy_update": "lora", "gpus": 8, "placement": "separate"}]
    for scenario in scenarios:
        swift = launch(cli, scenario, "swift")
        if subprocess.run(["bash", "-n"], input=swift, text=True).returncode != 0:
            print("bash -n fails for", scenario, "\n", swift)
            failures += 1
        if "images_per_sample" not in scenario and "video_seconds" not in scenario:
            continue  # the TRL script of a text model is post-training's (rl_launch) or a pointer
        script = launch(cli, scenario, "trl")
        try:
            ast.parse(script)
        except SyntaxError as error:
            print("Python syntax error for", scenario, error, "\n", script)
            failures += 1
    print(f"{len(scenarios)} scenarios, {failures} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
