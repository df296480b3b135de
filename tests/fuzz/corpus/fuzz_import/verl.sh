# verl main_ppo, FSDP workers with vLLM rollouts (docs: Config Explanation, ppo_trainer.yaml).
# 8 GPUs (1 node(s) x 8); 64 prompts x 8 answer(s) = 512 sequences per step; update micro-batch 1 per GPU x 8 GPUs x 64 accumulation steps.
# Rollout: 8 vLLM instance(s) at tensor parallel 1, 0.3 of each GPU (TrainSizer's estimate).
python3 -m verl.trainer.main_ppo \
  algorithm.adv_estimator=grpo \
  data.train_files=REPLACE_WITH_TRAIN_PARQUET \
  data.train_batch_size=64 \
  data.max_prompt_length=1024 \
  data.max_response_length=2048 \
  actor_rollout_ref.model.path=Qwen/Qwen2.5-7B \
  actor_rollout_ref.model.enable_gradient_checkpointing=False \
  actor_rollout_ref.model.lora_rank=16 \
  actor_rollout_ref.model.lora_alpha=32 \
  actor_rollout_ref.model.target_modules=all-linear \
  actor_rollout_ref.actor.ppo_mini_batch_size=64 \
  actor_rollout_ref.actor.ppo_micro_batch_size_per_gpu=1 \
  actor_rollout_ref.actor.ppo_epochs=1 \
  actor_rollout_ref.actor.use_kl_loss=True \
  actor_rollout_ref.actor.fsdp_config.param_offload=True \
  actor_rollout_ref.actor.fsdp_config.optimizer_offload=True \
  actor_rollout_ref.rollout.name=vllm \
  actor_rollout_ref.rollout.n=8 \
  actor_rollout_ref.rollout.tensor_model_parallel_size=1 \
  actor_rollout_ref.rollout.gpu_memory_utilization=0.3 \
  actor_rollout_ref.rollout.log_prob_micro_batch_size_per_gpu=2 \
  actor_rollout_ref.ref.fsdp_config.param_offload=True \
  trainer.n_gpus_per_node=8 \
  trainer.nnodes=1 \
  trainer.total_epochs=1

