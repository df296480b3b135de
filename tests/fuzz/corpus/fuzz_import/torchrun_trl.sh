# torchrun + PyTorch FSDP through the Hugging Face Trainer: train.py is a Trainer/TRL script taking
# TrainingArguments and TRL ModelConfig flags (e.g. TRL's examples/scripts/sft.py).
# Run the same command on each of the 1 node(s); MASTER_ADDR = the first node's address.
# 8 GPUs, data parallel 8, global batch 512 = 1 x 8 x 64 accumulation steps; sequences of 2048 tokens (TRL >= 0.16 --max_length).
# FSDP reference: https://huggingface.co/docs/transformers/fsdp
torchrun --nnodes 1 --nproc_per_node 8 --rdzv_backend c10d --rdzv_endpoint $MASTER_ADDR:29500 --rdzv_id trainsizer --max-restarts 3 \
  train.py \
  --model_name_or_path Qwen/Qwen2.5-7B \
  --max_length 2048 \
  --per_device_train_batch_size 1 \
  --gradient_accumulation_steps 64 \
  --num_train_epochs 1 \
  --learning_rate 1.0e-4 \
  --max_grad_norm 1 \
  --optim adamw_torch \
  --bf16 \
  --use_peft --lora_r 16 --lora_target_modules all-linear

