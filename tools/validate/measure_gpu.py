#!/usr/bin/env python3
"""Measure training and serving peaks on a GPU and put them beside modelatlas's figures.

For ten small and medium configs from the repository's snapshot (`hub/`; random weights built from
the config, so nothing is downloaded) and each run kind:

- full fine-tune, AMP (bf16 autocast, fp32 master weights), fused AdamW            (`amp-adamw`)
- the same with gradient checkpointing                                             (`--checkpointing`)
- full fine-tune, AMP, Adafactor                                                   (`amp-adafactor`)
- LoRA r=16 on every linear of the layers (PEFT), frozen bf16 base, AMP adapters   (`--mode lora`)
- QLoRA: the same over an NF4 base with double quantisation (bitsandbytes)         (`--mode qlora`)
- serving: a bf16 forward over the prompt and 16 generated tokens (KV cache)       (`--mode serve`)

and, for the two BERT-style encoders, eager attention at batch 1 and 4 under AMP and under fp32
without autocast (`fp32-adamw`): the runs that say whether the published BERT-large batch-4 rows'
shortfall (`validation_table.md`) is the caching allocator's (reserved grows, allocated does not).

one warm-up step, then the peak counters are reset and one step is measured. Three figures per run:
`torch.cuda.max_memory_allocated`, `torch.cuda.max_memory_reserved`, and what `nvidia-smi` shows for
this process just after the step (the allocator keeps its reserve cached, so that is reserved plus
the CUDA context). The plan's figures come from `modelatlas what-if` with the same settings (the
same mode, batch, length, recipe, attention and card); each row prints all three and the error of
each. It must finish in a few minutes on one GPU: every run is small.

Usage (on a GPU machine, after `cargo build`):
    python3 tools/validate/measure_gpu.py --out "$OUT"      # writes measure_gpu.json and .md
    python3 tools/validate/measure_gpu.py --dry-run         # CPU, tiny lengths, no counters

`--dry-run` runs every code path on the CPU with tiny lengths and no memory counters: what
`tools/validate/test_measure_gpu.py` runs, with the bookkeeping (the what-if arguments, the card,
NVML's reading, the errors, the table) tested without torch.
"""
import argparse
import gc
import json
import os
import statistics
import subprocess
import sys
import tempfile
from dataclasses import asdict, dataclass, field

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BIN = os.environ.get("MODELATLAS", os.path.join(ROOT, "target", "debug", "modelatlas"))

# (snapshot id, what the model is for: causal, masked, seq2seq, classifier)
MODELS = [
    ("openai-community/gpt2", "causal"),
    ("facebook/opt-125m", "causal"),
    ("EleutherAI/pythia-160m", "causal"),
    ("Qwen/Qwen2.5-0.5B", "causal"),
    ("google-bert/bert-base-uncased", "masked"),
    ("FacebookAI/roberta-base", "masked"),
    ("distilbert/distilbert-base-uncased", "masked"),
    ("google-t5/t5-small", "seq2seq"),
    ("facebook/bart-base", "seq2seq"),
    ("EleutherAI/pythia-1b", "causal"),
]


# Encoders measured with eager attention at batch 1 and 4 (dropout as their configs set it).
EAGER_BATCH_MODELS = ("google-bert/bert-base-uncased", "FacebookAI/roberta-base")


@dataclass
class Spec:
    """One measured run, in the planner's terms."""

    model: str
    kind: str
    mode: str  # full, lora, qlora, serve
    batch: int
    seq: int
    recipe: str = "amp-adamw"
    checkpointing: bool = False
    attention: str = "sdpa"
    new_tokens: int = 0  # serving: tokens generated after the prompt

    def label(self):
        extra = " + checkpointing" if self.checkpointing else ""
        extra += ", eager" if self.attention == "eager" else ""
        return f"{self.model} {self.mode} ({self.recipe}{extra}), batch {self.batch} x {self.seq} tokens"


@dataclass
class Row:
    spec: Spec
    measured: dict = field(default_factory=dict)  # allocated, reserved, nvidia_smi (bytes)
    plan: dict = field(default_factory=dict)  # allocated, reserved, nvidia_smi (bytes)
    note: str = ""

    def errors(self):
        return {k: error(self.plan.get(k), self.measured.get(k)) for k in ("allocated", "reserved", "nvidia_smi")}


def specs(seq=512, batch=2):
    """Every run, in a fixed order (the table's)."""
    out = []
    for model, kind in MODELS:
        s = min(seq, 512)
        out.append(Spec(model, kind, "full", batch, s))
        out.append(Spec(model, kind, "full", batch, s, checkpointing=True))
        out.append(Spec(model, kind, "full", batch, s, recipe="amp-adafactor"))
        out.append(Spec(model, kind, "lora", batch, s))
        out.append(Spec(model, kind, "qlora", batch, s))
        if kind in ("causal", "seq2seq"):
            out.append(Spec(model, kind, "serve", 1, s, new_tokens=16))
        if model in EAGER_BATCH_MODELS:
            for recipe in ("amp-adamw", "fp32-adamw"):
                for b in (1, 4):
                    out.append(Spec(model, kind, "full", b, s, recipe=recipe, attention="eager"))
    return out


def card_for(gpu_name, total_bytes):
    """The catalogue card a GPU is, from its name and memory (None: not in the catalogue)."""
    n = gpu_name.lower()
    gb = total_bytes / 1e9
    if "h200" in n:
        return "h200-141gb"
    if "h100" in n:
        return "h100-80gb"
    if "a100" in n:
        return "a100-80gb" if gb > 50 else "a100-40gb"
    if "l40s" in n:
        return "l40s-48gb"
    if "a10g" in n:
        return "a10g-24gb"
    if "l4" in n:
        return "l4-24gb"
    if "t4" in n:
        return "t4-16gb"
    if "4090" in n:
        return "rtx4090-24gb"
    return None


def plan_args(spec, card, transformers_release="5.x"):
    """`modelatlas what-if` for the same settings as the run."""
    args = [BIN, "what-if", spec.model, "--mode", spec.mode, "--card", card, "--batch", str(spec.batch),
            "--seq", str(spec.seq + spec.new_tokens), "--recipe", spec.recipe, "--attention", spec.attention,
            "--transformers", transformers_release]
    if spec.checkpointing:
        args.append("--checkpointing")
    return args


def plan_figures(what_if_json):
    """The plan's three figures from what-if's answer."""
    w = json.loads(what_if_json)
    return {"allocated": w["allocated_bytes"], "reserved": w["reserved_bytes"], "nvidia_smi": w["peak_bytes"]}


def parse_nvidia_smi(text, pid):
    """Bytes `nvidia-smi --query-compute-apps=pid,used_memory --format=csv,noheader,nounits` reports
    for `pid` (MiB in, bytes out); None when the process is not listed."""
    for line in text.strip().splitlines():
        parts = [p.strip() for p in line.split(",")]
        if len(parts) >= 2 and parts[0] == str(pid):
            try:
                return int(parts[1]) * 2**20
            except ValueError:
                return None
    return None


def error(plan, measured):
    """Signed error of the plan against the measurement, in percent; None when either is missing."""
    if plan is None or not measured:
        return None
    return (plan - measured) / measured * 100.0


def fmt_bytes(b):
    return "–" if b is None else f"{b / 2**30:.2f} GiB"


def fmt_err(e):
    return "–" if e is None else f"{e:+.1f}%"


def markdown(rows, device):
    lines = [
        f"Measured on {device} by tools/validate/measure_gpu.py; plan: `modelatlas what-if` with the same settings.",
        "",
        "| Run | Allocated: measured / plan / error | Reserved: measured / plan / error | nvidia-smi: measured / plan / error | Note |",
        "|---|---|---|---|---|",
    ]
    for r in rows:
        e = r.errors()
        cells = [f"{fmt_bytes(r.measured.get(k))} / {fmt_bytes(r.plan.get(k))} / {fmt_err(e[k])}"
                 for k in ("allocated", "reserved", "nvidia_smi")]
        lines.append(f"| {r.spec.label()} | " + " | ".join(cells) + f" | {r.note} |")
    errs = [r.errors()["nvidia_smi"] for r in rows if r.errors()["nvidia_smi"] is not None]
    if errs:
        lines += ["", f"nvidia-smi error over {len(errs)} runs: median {statistics.median(errs):+.1f}%, "
                      f"largest {max(errs, key=abs):+.1f}%."]
    return "\n".join(lines) + "\n"


# --- Running (torch from here on) ---------------------------------------------------------------


def snapshot_config(model_id):
    folder = os.path.join(ROOT, "hub", "models--" + model_id.replace("/", "--"), "snapshots")
    snap = sorted(os.listdir(folder))[0]
    return os.path.join(folder, snap)


def build_model(spec, device, dry):
    import torch
    import transformers as T

    config = T.AutoConfig.from_pretrained(snapshot_config(spec.model))
    if dry:
        # Tiny shapes so the CPU gets through every path in seconds.
        for k, v in {"num_hidden_layers": 2, "n_layer": 2, "num_layers": 2, "num_decoder_layers": 2,
                     "encoder_layers": 2, "decoder_layers": 2, "n_layers": 2}.items():
            if hasattr(config, k):
                setattr(config, k, v)
    auto = {"causal": T.AutoModelForCausalLM, "masked": T.AutoModelForMaskedLM,
            "seq2seq": T.AutoModelForSeq2SeqLM}[spec.kind]
    attn = {"attn_implementation": spec.attention}
    dtype = torch.float32 if spec.mode == "full" else torch.bfloat16
    if spec.mode == "qlora":
        if dry or device == "cpu":
            raise Skip("QLoRA needs bitsandbytes on a GPU")
        try:
            import bitsandbytes  # noqa: F401
        except ImportError:
            raise Skip("bitsandbytes is not installed")
        with tempfile.TemporaryDirectory() as d:
            try:
                auto.from_config(config, **attn).save_pretrained(d)
            except (ValueError, TypeError):
                auto.from_config(config).save_pretrained(d)
            q = T.BitsAndBytesConfig(load_in_4bit=True, bnb_4bit_quant_type="nf4", bnb_4bit_use_double_quant=True,
                                     bnb_4bit_compute_dtype=torch.bfloat16)
            model = auto.from_pretrained(d, quantization_config=q, dtype=torch.bfloat16, device_map={"": 0})
        return model, config
    try:
        model = auto.from_config(config, dtype=dtype, **attn)
    except (ValueError, TypeError):
        # A family without SDPA runs eager, as the plan says.
        model = auto.from_config(config, dtype=dtype)
    return model.to(device), config


class Skip(Exception):
    pass


def batch_for(spec, config, device):
    import torch

    vocab = getattr(config, "vocab_size", 1000)
    ids = torch.randint(3, max(4, vocab - 1), (spec.batch, spec.seq), device=device)
    if spec.kind == "seq2seq":
        return {"input_ids": ids, "labels": ids.clone()}
    return {"input_ids": ids, "labels": ids.clone(), "attention_mask": torch.ones_like(ids)}


def step_fn(spec, model, config, device, dry):
    """One training or serving step as the plan models it."""
    import torch

    if spec.mode == "serve":
        model.eval()
        ids = batch_for(spec, config, device)["input_ids"]

        def serve():
            with torch.no_grad():
                model.generate(ids, max_new_tokens=spec.new_tokens, min_new_tokens=spec.new_tokens,
                               do_sample=False, pad_token_id=0)
        return serve

    if spec.mode in ("lora", "qlora"):
        import peft

        if spec.mode == "qlora":
            model = peft.prepare_model_for_kbit_training(model, use_gradient_checkpointing=spec.checkpointing)
        model = peft.get_peft_model(model, peft.LoraConfig(r=16, lora_alpha=32, target_modules="all-linear"))
    if spec.checkpointing and spec.mode != "qlora":
        model.gradient_checkpointing_enable()
    model.train()
    params = [p for p in model.parameters() if p.requires_grad]
    if spec.recipe == "amp-adafactor":
        from transformers.optimization import Adafactor

        opt = Adafactor(params, lr=1e-4, relative_step=False, scale_parameter=False)
    else:
        opt = torch.optim.AdamW(params, lr=1e-5, fused=(device != "cpu"))
    batch = batch_for(spec, config, device)
    amp_dtype = torch.bfloat16
    # The fp32 recipes run without autocast.
    amp = not spec.recipe.startswith("fp32")

    def train():
        with torch.autocast(device_type="cuda" if device != "cpu" else "cpu", dtype=amp_dtype, enabled=amp):
            loss = model(**batch).loss
        loss.backward()
        opt.step()
        # Gradients stay allocated, as under gradient accumulation (what the plan counts).
        opt.zero_grad(set_to_none=False)
    return train


class Meter:
    """The three figures; on the CPU (dry run) none."""

    def __init__(self, device):
        self.device = device

    def reset(self):
        import torch

        if self.device != "cpu":
            torch.cuda.synchronize()
            torch.cuda.reset_peak_memory_stats()

    def read(self):
        import torch

        if self.device == "cpu":
            return {}
        torch.cuda.synchronize()
        smi = subprocess.run(["nvidia-smi", "--query-compute-apps=pid,used_memory", "--format=csv,noheader,nounits"],
                             capture_output=True, text=True).stdout
        return {"allocated": torch.cuda.max_memory_allocated(), "reserved": torch.cuda.max_memory_reserved(),
                "nvidia_smi": parse_nvidia_smi(smi, os.getpid())}


def run_one(spec, device, card, dry, transformers_release):
    import torch

    row = Row(spec)
    try:
        model, config = build_model(spec, device, dry)
        step = step_fn(spec, model, config, device, dry)
        meter = Meter(device)
        step()  # warm-up: optimizer states, kernels, the allocator's first blocks
        meter.reset()
        step()
        row.measured = meter.read()
    except Skip as e:
        row.note = f"skipped: {e}"
    except ImportError as e:
        row.note = f"skipped: {e.name} is not installed"
    except torch.cuda.OutOfMemoryError:
        row.note = "out of memory"
    finally:
        gc.collect()
        if device != "cpu":
            torch.cuda.empty_cache()
    if card and not dry:
        try:
            out = subprocess.run(plan_args(spec, card, transformers_release), capture_output=True, text=True,
                                 check=True, cwd=ROOT).stdout
            row.plan = plan_figures(out)
        except (subprocess.CalledProcessError, FileNotFoundError, KeyError, json.JSONDecodeError) as e:
            row.note = (row.note + "; " if row.note else "") + f"no plan: {e}"
    return row


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default=None, help="folder for measure_gpu.json and measure_gpu.md")
    ap.add_argument("--dry-run", action="store_true", help="CPU, tiny lengths, no counters")
    ap.add_argument("--seq", type=int, default=512)
    ap.add_argument("--batch", type=int, default=2)
    ap.add_argument("--only", default=None, help="run only the specs whose label contains this")
    a = ap.parse_args(argv)
    import torch
    import transformers

    dry = a.dry_run or not torch.cuda.is_available()
    device = "cpu" if dry else "cuda"
    seq, batch = (16, 1) if dry else (a.seq, a.batch)
    if dry:
        name, card = "CPU (dry run)", None
    else:
        props = torch.cuda.get_device_properties(0)
        name, card = props.name, card_for(props.name, props.total_memory)
    major = int(transformers.__version__.split(".")[0])
    release = "5.x" if major >= 5 else ("4.57" if int(transformers.__version__.split(".")[1]) >= 50 else "4.46")
    rows = []
    for spec in specs(seq, batch):
        if a.only and a.only not in spec.label():
            continue
        rows.append(run_one(spec, device, card, dry, release))
        print(spec.label(), rows[-1].measured, rows[-1].note, file=sys.stderr)
    device_words = f"{name} (card {card}), torch {torch.__version__}, transformers {transformers.__version__}"
    md = markdown(rows, device_words)
    if a.out:
        os.makedirs(a.out, exist_ok=True)
        with open(os.path.join(a.out, "measure_gpu.json"), "w") as f:
            json.dump({"device": device_words, "rows": [asdict(r) for r in rows]}, f, indent=1)
        with open(os.path.join(a.out, "measure_gpu.md"), "w") as f:
            f.write(md)
    print(md)
    return 0


if __name__ == "__main__":
    sys.exit(main())
