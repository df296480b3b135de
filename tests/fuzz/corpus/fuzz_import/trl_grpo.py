# TRL GRPOTrainer: accelerate launch --num_processes 8 train.py
# 64 prompts x 8 answer(s) = 512 sequences per step; update micro-batch 1 per GPU x 8 GPUs x 64 accumulation steps.
from trl import GRPOConfig, GRPOTrainer
from peft import LoraConfig

config = GRPOConfig(
    output_dir="saves/qwen2.5-7b-grpo",
    per_device_train_batch_size=1,
    gradient_accumulation_steps=64,
    num_train_epochs=1,
    gradient_checkpointing=False,
    bf16=True,
    num_generations=8,
    max_prompt_length=1024,
    max_completion_length=2048,
    num_iterations=1,
    beta=0.04,
    use_vllm=True,
    vllm_mode="colocate",
    vllm_gpu_memory_utilization=0.3,
    vllm_tensor_parallel_size=1,
)
trainer = GRPOTrainer(model="Qwen/Qwen2.5-7B", args=config, train_dataset=REPLACE_WITH_DATASET, reward_funcs=[REPLACE_WITH_REWARD_FUNCTION], peft_config=LoraConfig(r=16, target_modules="all-linear"))
trainer.train()

