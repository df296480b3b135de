# Megatron-LM (pretrain_gpt.py): TP 1 x PP 1 x CP 1 x DP 8 = 8 GPUs; 64 micro-batches per step and data-parallel rank.
# Run on each of the 1 node(s); MASTER_ADDR = the first node's address.
# Add data and tokenizer arguments (--data-path, --tokenizer-type, --tokenizer-model, --save, --load).
# Flags: megatron/training/arguments.py in https://github.com/NVIDIA/Megatron-LM
# Notes:
#   not expressible: method lora; Megatron-LM's pretrain_gpt.py trains every parameter (PEFT lives in NeMo / Megatron-Bridge). These arguments train the full model.
#   no tokens given: --train-iters is a placeholder (1000).
#   not set: the RoPE base; replace the REPLACE_WITH_ROPE_THETA placeholder with rope_theta from the model's config.json (500000 for Llama 3, 1000000 for Qwen2.5; Megatron-LM's default is 10000).
#   If its rope_scaling has rope_type llama3 (Llama 3.1 and later), also add --use-rope-scaling --rope-scaling-factor with its factor.
torchrun --nnodes 1 --nproc_per_node 8 --rdzv_backend c10d --rdzv_endpoint $MASTER_ADDR:29500 --rdzv_id trainsizer --max-restarts 3 \
  pretrain_gpt.py \
  --tensor-model-parallel-size 1 \
  --pipeline-model-parallel-size 1 \
  --context-parallel-size 1 \
  --expert-model-parallel-size 1 \
  --micro-batch-size 1 \
  --global-batch-size 512 \
  --train-iters 1000 \
  --bf16 \
  --attention-backend flash \
  --optimizer adam \
  --lr 1.0e-4 --clip-grad 1 --weight-decay 0.1 --adam-beta1 0.9 --adam-beta2 0.95 \
  --num-layers 28 \
  --hidden-size 3584 \
  --num-attention-heads 28 \
  --ffn-hidden-size 18944 \
  --group-query-attention --num-query-groups 4 \
  --seq-length 2048 \
  --max-position-embeddings 131072 \
  --swiglu \
  --normalization RMSNorm \
  --position-embedding-type rope --rotary-base REPLACE_WITH_ROPE_THETA \
  --attention-dropout 0 --hidden-dropout 0 \
  --untie-embeddings-and-output-weights \
  --disable-bias-linear \
  --add-qkv-bias

