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
                "source": f"{row['exact_or_rounded']}: {row['source']}",
                "notes": (row.get("notes") or "").strip() or None,
                "tensors": None,
            }
            if (src / "checkpoint_tensors.tsv").exists():
                checkpoint["tensors"] = tensors_tsv(src / "checkpoint_tensors.tsv")
        meta = {
            "model_id": model_id,
            "config": {
                "verification": info["level"],
                "sha256": info["sha256"],
                "source": info["source"],
            },
            "checkpoint": checkpoint,
            "downloads": None,
        }
        (snap / "modelatlas.json").write_text(json.dumps(meta, indent=2, ensure_ascii=False) + "\n")
        print(f"{model_id:50} {commit[:12]:14} {'checkpoint ' + str(checkpoint['total_scalars']) if checkpoint else 'no checkpoint count'}")


if __name__ == "__main__":
    main()
