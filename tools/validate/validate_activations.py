#!/usr/bin/env python3
"""Compare modelatlas's activation figure with what autograd really saves (outside CI).

For each model (small random configs of each family, and a few real small configs), on the CPU,
with random weights (fp32 parameters), under bf16 autocast and with attn_implementation "sdpa"
and "eager": run one forward pass with torch.autograd.graph.saved_tensors_hooks and add up the
storages autograd saves, each storage once, parameters excluded. The logits are the forward's
output (not saved) and no loss is computed, so the figure is modelatlas's
`training.activations_{sdpa,eager}` (fixed + s x per_token + s^2 x per_token_sq), which leaves
the logits and the loss out. Dropout is set to 0, as the plan assumes.

Usage: tools/.venv/bin/python tools/validate/validate_activations.py [--quick] > report.md
(the venv of /work/wt-validate/tools/.venv holds torch and transformers 4.57.1).
"""
import argparse, json, os, subprocess, sys, tempfile

import torch
import transformers
from transformers import AutoConfig, AutoModelForCausalLM, AutoModelForMaskedLM, AutoModelForSeq2SeqLM

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BIN = os.path.join(ROOT, "target", "debug", "modelatlas")
REF = os.environ.get("REFERENCE", "/work/shared/reference/models")

DROPOUT_KEYS = ["hidden_dropout_prob", "attention_probs_dropout_prob", "resid_pdrop", "embd_pdrop", "attn_pdrop",
                "dropout_rate", "attention_dropout", "dropout", "activation_dropout", "hidden_dropout", "classifier_dropout"]

def tiny(kind):
    T = transformers
    if kind == "bert":
        return T.BertConfig(hidden_size=128, num_hidden_layers=2, num_attention_heads=4, intermediate_size=512, vocab_size=1000, architectures=["BertForMaskedLM"])
    if kind == "roberta":
        return T.RobertaConfig(hidden_size=128, num_hidden_layers=2, num_attention_heads=4, intermediate_size=512, vocab_size=1000, max_position_embeddings=514, architectures=["RobertaForMaskedLM"])
    if kind == "gpt2":
        return T.GPT2Config(n_embd=128, n_layer=2, n_head=4, vocab_size=1000, architectures=["GPT2LMHeadModel"])
    if kind == "llama":
        return T.LlamaConfig(hidden_size=256, intermediate_size=688, num_hidden_layers=2, num_attention_heads=4, num_key_value_heads=2, vocab_size=1000, architectures=["LlamaForCausalLM"])
    if kind == "olmo":  # LayerNorms without parameters
        return T.OlmoConfig(hidden_size=256, intermediate_size=688, num_hidden_layers=2, num_attention_heads=4, vocab_size=1000, architectures=["OlmoForCausalLM"])
    if kind == "bitnet":  # sub-norms before o_proj and down_proj
        return T.BitNetConfig(hidden_size=256, intermediate_size=688, num_hidden_layers=2, num_attention_heads=4, num_key_value_heads=2, vocab_size=1000, architectures=["BitNetForCausalLM"])
    if kind == "nanochat":  # fc1/fc2 ReLU² MLP, norms without weights
        return T.NanoChatConfig(hidden_size=256, intermediate_size=1024, num_hidden_layers=2, num_attention_heads=4, vocab_size=1000, architectures=["NanoChatForCausalLM"])
    if kind == "mistral":
        return T.MistralConfig(hidden_size=256, intermediate_size=512, num_hidden_layers=2, num_attention_heads=8, num_key_value_heads=2, vocab_size=1000, sliding_window=4096, architectures=["MistralForCausalLM"])
    if kind == "qwen2":
        return T.Qwen2Config(hidden_size=256, intermediate_size=512, num_hidden_layers=2, num_attention_heads=8, num_key_value_heads=2, vocab_size=1000, architectures=["Qwen2ForCausalLM"])
    if kind == "gemma2":
        return T.Gemma2Config(hidden_size=256, intermediate_size=512, num_hidden_layers=2, num_attention_heads=4, num_key_value_heads=2, head_dim=64, vocab_size=1000, architectures=["Gemma2ForCausalLM"])
    if kind == "t5":
        return T.T5Config(d_model=128, d_kv=32, num_heads=4, d_ff=512, num_layers=2, num_decoder_layers=2, vocab_size=1000, architectures=["T5ForConditionalGeneration"])
    if kind == "mixtral":
        return T.MixtralConfig(hidden_size=128, intermediate_size=256, num_hidden_layers=2, num_attention_heads=4, num_key_value_heads=2, vocab_size=1000, num_local_experts=4, num_experts_per_tok=2, architectures=["MixtralForCausalLM"])
    if kind == "bart":
        return T.BartConfig(d_model=128, encoder_layers=2, decoder_layers=2, encoder_attention_heads=4, decoder_attention_heads=4, encoder_ffn_dim=512, decoder_ffn_dim=512, vocab_size=1000, max_position_embeddings=1024, architectures=["BartForConditionalGeneration"])
    if kind == "bamba":  # Mamba-2 mixers beside one attention layer (the scan's own saved tensors are not modelled)
        return T.BambaConfig(hidden_size=128, intermediate_size=256, num_hidden_layers=2, num_attention_heads=4, num_key_value_heads=2, vocab_size=1000, mamba_n_heads=8, mamba_d_state=16, mamba_n_groups=1, mamba_chunk_size=32, attn_layer_indices=[1], architectures=["BambaForCausalLM"])
    if kind == "lfm2":  # gated short convolutions beside one attention layer
        return T.Lfm2Config(hidden_size=128, intermediate_size=384, num_hidden_layers=2, num_attention_heads=4, num_key_value_heads=2, vocab_size=1000, full_attn_idxs=[1], block_multiple_of=32, architectures=["Lfm2ForCausalLM"])
    raise KeyError(kind)

def model_for(cfg):
    arch = (cfg.architectures or [""])[0]
    if "MaskedLM" in arch:
        return AutoModelForMaskedLM.from_config(cfg)
    if "ConditionalGeneration" in arch:
        return AutoModelForSeq2SeqLM.from_config(cfg)
    return AutoModelForCausalLM.from_config(cfg)

def saved_bytes(model, s, seq2seq, autocast=True):
    params = {p.untyped_storage().data_ptr() for p in model.parameters()}
    seen = {}
    def pack(t):
        st = t.untyped_storage()
        if st.data_ptr() not in params:
            seen[st.data_ptr()] = max(seen.get(st.data_ptr(), 0), st.nbytes())
        return t
    ids = torch.randint(0, min(model.config.vocab_size, 1000), (1, s))
    kw = {"decoder_input_ids": ids} if seq2seq else {}
    with torch.autograd.graph.saved_tensors_hooks(pack, lambda t: t):
        with torch.autocast("cpu", dtype=torch.bfloat16, enabled=autocast):
            out = model(input_ids=ids, **kw)
    del out
    return sum(seen.values())

def planned(cfg_dict, attn, recipe="amp-adamw"):
    with tempfile.TemporaryDirectory() as d:
        p = os.path.join(d, "config.json")
        json.dump(cfg_dict, open(p, "w"))
        out = subprocess.run([BIN, "plan", p, "--format", "json", "--recipe", recipe], capture_output=True, text=True, check=True).stdout
    t = json.loads(out)["training"]
    a = t["activations_sdpa"] if attn == "sdpa" and t["activations_sdpa"] else t["activations_eager"]
    # schema_version 4: [fixed, per_sample, per_token, per_token_sq], trailing zeros left out.
    a = a + [0] * (4 - len(a))
    return {"fixed_bytes": a[0], "per_sample_bytes": a[1], "per_token_bytes": a[2], "per_token_sq_bytes": a[3]}

class LoRA(torch.nn.Module):
    """A frozen linear (nn.Linear or GPT-2's Conv1D) plus fp32 adapters A (in -> r) and B (r -> out)."""
    def __init__(self, base, r=16):
        super().__init__()
        self.base = base
        w = base.weight
        inp, out = (base.in_features, base.out_features) if isinstance(base, torch.nn.Linear) else (w.shape[0], w.shape[1])
        self.A = torch.nn.Linear(inp, r, bias=False)
        self.B = torch.nn.Linear(r, out, bias=False)
        torch.nn.init.normal_(self.B.weight)
    @property
    def weight(self):  # T5 reads wo.weight.dtype
        return self.base.weight
    def forward(self, x):
        return self.base(x) + self.B(self.A(x))

def add_lora(model):
    """Every linear inside the layer stacks, as modelatlas's default targets; the rest frozen in bf16."""
    model.to(torch.bfloat16)
    for p in model.parameters():
        p.requires_grad_(False)
    stacks = (".layers.", ".layer.", ".h.", ".block.")
    targets = [(n, m) for n, m in model.named_modules()
               if ("Linear" in type(m).__name__ or type(m).__name__ == "Conv1D") and any(s in "." + n + "." for s in stacks)]
    for name, m in targets:
        parent = model.get_submodule(name.rsplit(".", 1)[0])
        setattr(parent, name.rsplit(".", 1)[1], LoRA(m))
    return model

def planned_lora(cfg_dict, attn):
    with tempfile.TemporaryDirectory() as d:
        p = os.path.join(d, "config.json")
        json.dump(cfg_dict, open(p, "w"))
        out = subprocess.run([BIN, "plan", p, "--format", "json", "--attention", attn], capture_output=True, text=True, check=True).stdout
    v = json.loads(out)
    # schema_version 7: a mode's breakdown is [weights, gradients, optimizer states, ...]; a
    # phase is [name, fixed, per_sample, per_token, per_token_sq], trailing zeros left out.
    b = v["training"]["lora"]
    c = next(m for m in v["fit"]["modes"] if m["id"] == "lora")["phases"][0]  # forward end = persistent + activations
    c = c[1:] + [0] * (5 - len(c))
    persistent = b[0] + b[1] + b[2]
    return {"fixed_bytes": c[0] - persistent, "per_token_bytes": c[2], "per_token_sq_bytes": c[3]}

def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true", help="small random configs only")
    ap.add_argument("--pure-bf16", action="store_true",
                    help="bf16 parameters without autocast, against the pure-bf16 recipe's activations")
    ap.add_argument("--lora", action="store_true",
                    help="LoRA r=16 on every linear of the layers over a frozen bf16 base, fp32 adapters, autocast")
    ap.add_argument("--fp32", action="store_true",
                    help="fp32 parameters without autocast, against the fp32-adamw recipe's activations")
    ap.add_argument("--keep-dropout", action="store_true",
                    help="keep the configs' dropout probabilities (masks saved) instead of setting them to 0")
    ap.add_argument("--only", help="run only the models whose label contains this")
    args = ap.parse_args()
    torch.manual_seed(0)
    cases = [(k, tiny(k), None) for k in ["bert", "roberta", "gpt2", "llama", "mistral", "qwen2", "gemma2", "t5", "mixtral", "bart", "olmo", "bitnet", "nanochat", "bamba", "lfm2"]]
    if not args.quick:
        for name in ["google-bert--bert-base-uncased", "openai-community--gpt2", "google-t5--t5-small", "Qwen--Qwen2.5-0.5B"]:
            cases.append((name.replace("--", "/"), AutoConfig.from_pretrained(os.path.join(REF, name, "config.json")), name))
    if args.only:
        cases = [c for c in cases if args.only in c[0]]
    rows = []
    for label, cfg, real in cases:
        for k in ([] if args.keep_dropout else DROPOUT_KEYS):
            if hasattr(cfg, k) and isinstance(getattr(cfg, k), float):
                setattr(cfg, k, 0.0)
        seq2seq = cfg.model_type in ("t5", "mt5", "umt5", "bart")
        for attn in ["sdpa", "eager"]:
            if attn == "sdpa" and cfg.model_type in ("t5",):
                continue
            cfg._attn_implementation = attn
            d = cfg.to_dict()
            d["_attn_implementation"] = None
            recipe = "bf16-adamw-fp32-states" if args.pure_bf16 else "fp32-adamw" if args.fp32 else "amp-adamw"
            # time_step_limit (Mamba-2 types) holds an infinity, which JSON cannot carry; no size reads it.
            clean = {k: v for k, v in d.items() if not k.startswith("_") and k != "time_step_limit"}
            a = planned_lora(clean, attn) if args.lora else planned(clean, attn, recipe)
            # fp32 parameters, as the AMP recipe has them (a config's torch_dtype would make them bf16).
            model = model_for(cfg).float()
            if args.pure_bf16:
                model = model.to(torch.bfloat16)
            if args.lora:
                model = add_lora(model)
            model.config._attn_implementation = attn
            model.train()
            seqs = [64, 256] if real else [32, 128, 512]
            if real and "Qwen" in label:
                seqs = [128]
            for s in seqs:
                got = saved_bytes(model, s, seq2seq, autocast=not (args.pure_bf16 or args.fp32))
                want = a["fixed_bytes"] + s * a["per_token_bytes"] + s * s * a["per_token_sq_bytes"]
                gap = (want - got) / got * 100
                rows.append((label, attn, s, got, want, gap))
                print(f"| {label} | {attn} | {s} | {got:,} | {want:,.0f} | {gap:+.2f}% |", file=sys.stderr, flush=True)
            del model
    print(f"# Activations: modelatlas vs autograd's saved tensors\n")
    how = "bf16 random weights, no autocast (pure bf16)" if args.pure_bf16 else "bf16 autocast, fp32 random weights"
    if args.fp32:
        how = "fp32 random weights, no autocast (fp32 throughout)"
    if args.lora:
        how = "LoRA r=16 on every linear of the layers, frozen bf16 base, fp32 adapters under bf16 autocast"
    drop = "dropout as each config sets it" if args.keep_dropout else "dropout 0"
    print(f"torch {torch.__version__}, transformers {transformers.__version__}, CPU, {how}, {drop}, batch 1.\n")
    print("| Model | Attention | Tokens | Saved by autograd (bytes) | modelatlas (bytes) | Gap |")
    print("|---|---|---:|---:|---:|---:|")
    for r in rows:
        print(f"| {r[0]} | {r[1]} | {r[2]} | {r[3]:,} | {r[4]:,.0f} | {r[5]:+.2f}% |")
    worst = max(abs(r[5]) for r in rows)
    print(f"\nLargest gap: {worst:.2f}% over {len(rows)} rows.")

if __name__ == "__main__":
    main()
