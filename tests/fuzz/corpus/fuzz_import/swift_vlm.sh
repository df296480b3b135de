# ms-swift >= 4.0 (on 3.x write --train_type for --tuner_type). One node.
# 8 GPUs, data parallel 8, global batch 64 = 2 x 8 x 4 accumulation steps; sequences of 2514 tokens (512 text + 2002 media) as --max_length.
# Flags: https://swift.readthedocs.io/en/latest/Instruction/Command-line-parameters.html
CUDA_VISIBLE_DEVICES=0,1,2,3,4,5,6,7 \
NPROC_PER_NODE=8 \
MAX_PIXELS=1003520 \
MIN_PIXELS=3136 \
swift sft \
  --model Qwen/Qwen2.5-VL-7B-Instruct --use_hf true \
  --dataset REPLACE_WITH_DATASET \
  --tuner_type lora \
  --lora_rank 16 --lora_alpha 32 --lora_dropout 0 --target_modules all-linear \
  --freeze_vit false --freeze_aligner true --freeze_llm false \
  --torch_dtype bfloat16 --attn_impl flash_attn \
  --max_length 2514 \
  --per_device_train_batch_size 2 --gradient_accumulation_steps 4 \
  --max_steps 1244 \
  --learning_rate 1.0e-4 --lr_scheduler_type cosine --warmup_ratio 0.03 \
  --optim adamw_torch --adam_beta2 0.95 --weight_decay 0.1 --max_grad_norm 1 \
  --gradient_checkpointing false \
  --deepspeed zero2 \
  --output_dir saves/qwen2.5-vl-7b --logging_steps 10 --save_steps 500
