# ms-swift >= 4.0 (on 3.x write --train_type for --tuner_type). One node.
# 8 GPUs, data parallel 8, global batch 1024 = 1 x 8 x 128 accumulation steps; sequences of 2048 tokens as --max_length.
# Flags: https://swift.readthedocs.io/en/latest/Instruction/Command-line-parameters.html
CUDA_VISIBLE_DEVICES=0,1,2,3,4,5,6,7 \
NPROC_PER_NODE=8 \
swift rlhf \
  --model Qwen/Qwen2.5-7B --use_hf true \
  --dataset REPLACE_WITH_DATASET \
  --rlhf_type grpo \
  --num_generations 8 --max_completion_length 1024 \
  --use_vllm true --vllm_mode server \
  --tuner_type lora \
  --lora_rank 16 --lora_alpha 32 --lora_dropout 0 --target_modules all-linear \
  --torch_dtype bfloat16 --attn_impl flash_attn \
  --max_length 2048 \
  --per_device_train_batch_size 1 --gradient_accumulation_steps 128 \
  --num_train_epochs 1 \
  --learning_rate 1.0e-4 --lr_scheduler_type cosine --warmup_ratio 0.03 \
  --optim adamw_torch --adam_beta2 0.95 --weight_decay 0.1 --max_grad_norm 1 \
  --gradient_checkpointing false \
  --output_dir saves/qwen2.5-7b --logging_steps 10 --save_steps 500
