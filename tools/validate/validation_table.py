#!/usr/bin/env python3
"""The published validation table: public measured runs against the plan (no GPU needed).

Each row is a run someone published, with its exact settings, the figure they measured and which
figure it is (allocated / active, reserved, or nvidia-smi), and its source (repository, path and
commit, or address). For a row the planner can express, the script asks the built binary
(`modelatlas what-if`) for the same settings and prints the plan's figure of the same kind and the
error; a row the planner cannot express says why. Nothing here is invented: a figure not in the
cited source is not in the table.

Usage: cargo build && python3 tools/validate/validation_table.py > tools/validate/validation_table.md
"""
import json, os, statistics, subprocess, sys
import tomllib

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BIN = os.environ.get("MODELATLAS", os.path.join(ROOT, "target", "debug", "modelatlas"))
CONFIGS = os.path.join(ROOT, "tools", "validate", "configs")
CARDS = os.path.join(ROOT, "tools", "validate", "cards_validation.toml")
MIB, GIB = 2**20, 2**30

HF_PERF = ("huggingface/transformers `docs/source/en/perf_train_gpu_one.mdx` at "
           "98513dfd0db6dab00d26c1ef3a0e5f7410ce2035 (\"Efficient Training on a Single GPU\")")
HF_ANATOMY = ("huggingface/transformers `docs/source/en/model_memory_anatomy.md` at "
              "249ef8164cfbd8e288c2f6d8395539b9e90e8300 (\"Model training anatomy\")")
TORCHTUNE = "pytorch/torchtune `README.md` at a9ea6d5bf023ebebca7a8ec7981099b03696c67a"
VLLM_10511 = ("vllm-project/vllm pull request #10511 (\"[core] overhaul memory profiling\"), comment by youkaichao "
              "of 2024-12-14, at https://github.com/vllm-project/vllm/pull/10511")
QWEN_SPEED = ("QwenLM/Qwen2.5 `docs/source/getting_started/speed_benchmark.md` at "
              "ac7272455d45483d2f579a88295e81586d60ff6f (\"Speed Benchmark\", the Qwen3 series)")
QWEN_COMMON = ("Qwen/Qwen3-8B, bf16, transformers 4.51.3 `generate`, Flash Attention 2.7.4, PyTorch 2.6.0, "
               "NVIDIA H20 96 GB, batch 1, 2,048 tokens generated after a prompt of ")
QWEN_KIND = ("the benchmark's \"GPU Memory (MB)\", read as allocated MiB (the page does not name the counter; "
             "its figures grow by 147,456 bytes per token, the KV cache's own rate)")
VLLM_COMMON = ("vLLM (Dec 2024, `vllm serve meta-llama/Meta-Llama-3-8B`), bf16, gpu_memory_utilization 0.90, "
               "a card of 79.22 GiB (80 GB)")
# The V100 runs' own CUDA context, measured in the same source (CUDA 11.2, before lazy loading):
# "torch.ones((1, 1)).to('cuda') ... GPU memory occupied: 1343 MB" (nvml used // 1024**2).
V100_CONTEXT_MIB = 1343

BERT = "bert-large-uncased-seqcls.json"
BERT_COMMON = ("google-bert/bert-large-uncased as BertForSequenceClassification (2 labels), 512 tokens, "
               "V100-SXM2 16 GB, Trainer (Jan 2022), eager attention, dropout 0.1")

ROWS = [
    # source, settings (words), measured, unit, figure kind, what-if args or None, reason if None
    (HF_PERF, BERT_COMMON + "; fp32, AdamW, batch 4", 14949, "MiB", "nvidia-smi",
     (BERT, ["--mode", "full", "--recipe", "fp32-adamw", "--batch", "4"]), None),
    (HF_PERF, BERT_COMMON + "; fp32, AdamW, batch 1, gradient accumulation 4", 8681, "MiB", "nvidia-smi",
     (BERT, ["--mode", "full", "--recipe", "fp32-adamw", "--batch", "1"]), None),
    (HF_PERF, BERT_COMMON + "; fp32, AdamW, batch 1, accumulation 4, gradient checkpointing", 6775, "MiB", "nvidia-smi",
     (BERT, ["--mode", "full", "--recipe", "fp32-adamw", "--batch", "1", "--checkpointing"]), None),
    (HF_PERF, BERT_COMMON + "; fp16 mixed precision, AdamW, batch 4", 13939, "MiB", "nvidia-smi",
     (BERT, ["--mode", "full", "--recipe", "amp-adamw", "--batch", "4"]), None),
    (HF_PERF, BERT_COMMON + "; fp16 mixed precision, AdamW, batch 1, accumulation 4, gradient checkpointing", 7275, "MiB", "nvidia-smi",
     (BERT, ["--mode", "full", "--recipe", "amp-adamw", "--batch", "1", "--checkpointing"]), None),
    (HF_PERF, BERT_COMMON + "; fp32, Adafactor, batch 4", 12295, "MiB", "nvidia-smi",
     (BERT, ["--mode", "full", "--recipe", "fp32-adafactor", "--batch", "4"]), None),
    (HF_PERF, BERT_COMMON + "; fp16 mixed precision, Adafactor, batch 1, accumulation 4, gradient checkpointing", 4847, "MiB", "nvidia-smi",
     (BERT, ["--mode", "full", "--recipe", "amp-adafactor", "--batch", "1", "--checkpointing"]), None),
    (HF_PERF, BERT_COMMON + "; fp32, bitsandbytes Adam8bit, batch 4", 13085, "MiB", "nvidia-smi",
     (BERT, ["--mode", "full", "--recipe", "fp32-adamw-8bit", "--batch", "4"]), None),
    (HF_PERF, BERT_COMMON + "; fp16 mixed precision, bitsandbytes Adam8bit, batch 1, accumulation 4, gradient checkpointing", 5363, "MiB", "nvidia-smi",
     (BERT, ["--mode", "full", "--recipe", "amp-adamw-8bit", "--batch", "1", "--checkpointing"]), None),
    (TORCHTUNE, "Llama 3.2 3B, full_finetune_single_device, batch 2, packed to 4,096 tokens, pure bf16, torch AdamW (bf16 states), no compile, no checkpointing, A100 (\"+ Packed Dataset\" row)",
     60.0, "GiB", "allocated (peak memory active)",
     ("llama-3.2-3b.json", ["--mode", "full", "--recipe", "bf16-adamw-bf16-states", "--batch", "2", "--seq", "4096", "--card", "a100-80gb"]),
     None),
    (TORCHTUNE, "Llama 3.2 3B, as above with torch.compile (\"+ Compile\")", 51.0, "GiB", "allocated (peak memory active)", None,
     "torch.compile fuses kernels and frees intermediates: not expressible"),
    (TORCHTUNE, "Llama 3.2 3B, + chunked cross-entropy (\"+ Chunked Cross Entropy\")", 42.9, "GiB", "allocated (peak memory active)", None,
     "torchtune's chunked cross-entropy: not expressible (and torch.compile)"),
    (TORCHTUNE, "Llama 3.1 8B, full fine-tune, 1x RTX 4090, batch 2, packed to 2,048 tokens, torch.compile", 18.9, "GiB", "peak memory per GPU", None,
     "torch.compile: not expressible"),
    (TORCHTUNE, "Llama 3.1 8B, LoRA, 1x RTX 4090, batch 2, packed to 2,048 tokens, torch.compile", 16.2, "GiB", "peak memory per GPU", None,
     "torch.compile: not expressible"),
    (TORCHTUNE, "Llama 3.1 8B, QLoRA, 1x RTX 4090, batch 2, packed to 2,048 tokens, torch.compile", 7.4, "GiB", "peak memory per GPU", None,
     "torch.compile: not expressible"),
    (QWEN_SPEED, QWEN_COMMON + "1 token", 15947, "MiB", QWEN_KIND,
     ("Qwen/Qwen3-8B", ["--mode", "serve", "--card", "h100-80gb", "--seq", str(1 + 2048)]), None),
    (QWEN_SPEED, QWEN_COMMON + "6,144 tokens", 16811, "MiB", QWEN_KIND,
     ("Qwen/Qwen3-8B", ["--mode", "serve", "--card", "h100-80gb", "--seq", str(6144 + 2048)]), None),
    (QWEN_SPEED, QWEN_COMMON + "14,336 tokens", 17963, "MiB", QWEN_KIND,
     ("Qwen/Qwen3-8B", ["--mode", "serve", "--card", "h100-80gb", "--seq", str(14336 + 2048)]), None),
    (QWEN_SPEED, QWEN_COMMON + "30,720 tokens", 20267, "MiB", QWEN_KIND,
     ("Qwen/Qwen3-8B", ["--mode", "serve", "--card", "h100-80gb", "--seq", str(30720 + 2048)]), None),
    (VLLM_10511, VLLM_COMMON + ", tensor parallel 1: \"model weights take 14.96GiB\"", 14.96, "GiB",
     "allocated (torch, after loading the weights)", ("meta-llama-3-8b.json", "serve-weights"), None),
    (VLLM_10511, VLLM_COMMON + ", tensor parallel 2: \"model weights take 7.48GiB\" per GPU", 7.48, "GiB",
     "allocated (torch, per GPU)", None,
     "tensor parallelism (weights split over 2 cards) is not expressible: the plan serves on one card or "
     "counts whole-model bytes; half the plan's 14.96 GiB is 7.48 GiB"),
    (VLLM_10511, VLLM_COMMON + ", tensor parallel 1: \"available_kv_cache_memory 53.29GiB\"", 53.29, "GiB",
     "vLLM's KV pool (0.90 x card - weights - non-torch 1.79 GiB - activation peak 1.26 GiB)",
     ("meta-llama-3-8b.json", "vllm-kv"), None),
]


# Rows whose error is explained below the table rather than modelled (BERT-large at batch 4).
BATCH4_ROWS = {1, 4, 6, 8}
BATCH4_NOTE = (
    "Rows 1, 4, 6 and 8 (BERT-large at batch 4, no checkpointing) under-predict by 8 to 12%; the cause "
    "is not modelled. What is known: the same runs at batch 1 are within 3% (rows 2, 3, 5, 7, 9); the "
    "differences between batch-4 rows that change only the optimizer match (AdamW less Adafactor: plan "
    "2,682 MiB, measured 2,654; AdamW less 8-bit Adam: 2,012 and 1,864), so weights, gradients and states "
    "are right; the fp32 activations the plan counts equal what autograd saves, to 0.05% at 512 tokens "
    "(`tools/validate/activations_report_fp32.md`, dropout 0). The shortfall is per sample: measured "
    "(14,949 - 8,681) / 3 = 2,089 MiB per extra sample in fp32, planned 1,742, some 350 MiB more, about "
    "one fp32 score tensor per layer (24 layers x 16 heads x 512 x 512 x 4 bytes = 384 MiB per sample). "
    "That fits torch 1.10's caching allocator keeping, in each layer of eager attention, a freed "
    "score-sized block that later requests cannot reuse (the scores, their scaled and masked copies are "
    "transient; the 1-byte dropout mask splits one of their blocks), which `max_memory_reserved` and "
    "nvidia-smi see and `max_memory_allocated` does not. It is not added to the model because no run here "
    "separates allocated from reserved: `tools/validate/measure_gpu.py` records both, and its eager rows "
    "at batch 1 and 4 decide it.")


def bf16_weights(plan):
    """The bf16 weights' bytes of a plan's JSON: schema_version 7 gives the rows' bits, and the
    bytes are 2 x (derived - quantised) + bits / 8 x quantised (2 x derived in bf16)."""
    bits = next(w[1] for w in plan["serving"]["weights"] if w[0] == "bf16")
    derived, quantised = plan["params"]["derived"], plan["serving"]["quantised_params"]
    return 2 * (derived - quantised) + bits / 8 * quantised


def what_if(config, args):
    # A Hub ID is read from the repository's snapshot (`hub/`), a file name from `configs/`.
    target = config if "/" in config else os.path.join(CONFIGS, config)
    cmd = [BIN, "what-if", target, "--attention", "eager", "--transformers", "4.57",
           "--seq", "512", "--card", "v100-16gb", "--cards", CARDS] if config == BERT else \
          [BIN, "what-if", target, "--transformers", "4.57"]
    out = subprocess.run(cmd + args, check=True, capture_output=True, text=True, cwd=ROOT).stdout
    return json.loads(out)


def main():
    print("| # | Source | Settings | Measured | Figure | Plan | Error |")
    print("|---:|---|---|---:|---|---:|---:|")
    errors = []
    for i, (src, settings, measured, unit, kind, run, reason) in enumerate(ROWS, 1):
        scale = MIB if unit == "MiB" else GIB
        if run is None:
            print(f"| {i} | {src} | {settings} | {measured:,} {unit} | {kind} | cannot be matched: {reason} | – |")
            continue
        if run[1] == "vllm-kv":
            out = subprocess.run([BIN, "plan", os.path.join(CONFIGS, run[0]), "--format", "json", "--cards", CARDS],
                                 check=True, capture_output=True, text=True).stdout
            # schema_version 4 leaves vLLM's view per card to the reader (README, the model
            # JSON): gpu_memory_utilization 0.90 x the card less the bf16 weights.
            cards = tomllib.load(open(CARDS, "rb"))["card"]
            gb = next(c["memory_gb"] for c in cards if c["id"] == "h100-79.22gib")
            plan = 0.90 * gb * 1e9 - bf16_weights(json.loads(out))
            err = (plan / scale - measured) / measured * 100
            errors.append(err)
            print(f"| {i} | {src} | {settings} | {measured:,} {unit} | {kind} | {plan / scale:,.2f} {unit} "
                  f"(the plan's vLLM view, 0.90 x 79.22 GiB - the bf16 weights; it does not subtract vLLM's "
                  f"non-torch memory or its profiling run's activation peak, 3.05 GiB here, as its rule says) "
                  f"| {err:+.1f}% |")
            continue
        if run[1] == "serve-weights":
            out = subprocess.run([BIN, "plan", os.path.join(CONFIGS, run[0]), "--format", "json"],
                                 check=True, capture_output=True, text=True).stdout
            plan = bf16_weights(json.loads(out))
            err = (plan / scale - measured) / measured * 100
            err = 0.0 if abs(err) < 0.05 else err
            errors.append(err)
            print(f"| {i} | {src} | {settings} | {measured:,} {unit} | {kind} | {plan / scale:,.2f} {unit} "
                  f"(the plan's bf16 weights, {plan:,.0f} bytes) | {err:+.1f}% |")
            continue
        w = what_if(*run)
        if kind == "nvidia-smi":
            # The V100 runs' own context (1,343 MiB, measured in the same source) replaces the
            # planner's lazy-loading figure for Volta.
            plan = w["reserved_bytes"] + V100_CONTEXT_MIB * MIB
            how = f"reserved {w['reserved_bytes'] / scale:,.0f} {unit} + the run's measured context {V100_CONTEXT_MIB:,} MiB"
        else:
            plan = w["allocated_bytes"]
            how = "allocated"
        err = (plan / scale - measured) / measured * 100
        errors.append(err)
        note = "; under-predicts at batch 4, see the note below the table" if i in BATCH4_ROWS else ""
        print(f"| {i} | {src} | {settings} | {measured:,} {unit} | {kind} | {plan / scale:,.1f} {unit} ({how}; peak set by {w['peak_phase']}{note}) | {err:+.1f}% |")
    print()
    print(f"Rows matched: {len(errors)} of {len(ROWS)}; median error {statistics.median(errors):+.1f}%, "
          f"median absolute error {statistics.median(abs(e) for e in errors):.1f}%, largest {max(errors, key=abs):+.1f}%, "
          f"{sum(abs(e) > 10 for e in errors)} beyond 10%.")
    print()
    print(BATCH4_NOTE)


if __name__ == "__main__":
    sys.exit(main())
