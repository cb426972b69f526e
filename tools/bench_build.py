#!/usr/bin/env python3
"""Benchmark `modelatlas build`: the shipped site, and a synthetic site of N models.

Prints the median wall time of several runs (these machines are noisy: quote medians), models per
second, and the peak resident memory of the largest run, so that streaming (memory flat in N) can
be checked. The synthetic models are copies of the six supported snapshot models under made-up
organisations; each is planned and rendered in full.

Usage: python3 tools/bench_build.py [--runs 7] [--sizes 1000,5000]
"""
import argparse
import shutil
import statistics
import subprocess
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
BIN = REPO / "target" / "release" / "modelatlas"
SUPPORTED = [
    "FacebookAI--xlm-roberta-base", "FacebookAI--xlm-roberta-large", "FacebookAI--roberta-base",
    "google-bert--bert-base-uncased", "sentence-transformers--all-MiniLM-L6-v2", "BAAI--bge-small-en-v1.5",
]


def run(args):
    """Wall time and peak resident memory (KiB) of one build."""
    import os
    t = time.perf_counter()
    p = subprocess.Popen([str(BIN), *args], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(p.pid, 0)
    elapsed = time.perf_counter() - t
    if status != 0:
        raise SystemExit(f"build failed: {args}")
    return elapsed, usage.ru_maxrss


def synthetic(root: Path, n: int) -> Path:
    hub = root / "hub"
    lines = ['[site]\ntitle = "bench"\nbase_url = "https://example.org/"\n']
    for i in range(n):
        src = SUPPORTED[i % len(SUPPORTED)]
        org, name = src.split("--", 1)
        new_org = f"bench{i // 500}"
        new_name = f"{name}-{i}"
        dst = hub / f"models--{new_org}--{new_name}"
        shutil.copytree(REPO / "hub" / f"models--{src}", dst)
        for meta in dst.glob("snapshots/*/modelatlas.json"):
            meta.write_text(meta.read_text().replace(f'"{org}/{name}"', f'"{new_org}/{new_name}"', 1))
        lines.append(f'[[model]]\nid = "{new_org}/{new_name}"\n')
    (root / "models.toml").write_text("\n".join(lines))
    return root


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=7)
    ap.add_argument("--sizes", default="1000,5000")
    a = ap.parse_args()
    subprocess.run(["cargo", "build", "--release", "-q"], cwd=REPO, check=True)
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        times = [run(["build", "--manifest", str(REPO / "models.toml"), "--hub", str(REPO / "hub"),
                      "--out", str(tmp / "site")])[0] for _ in range(a.runs)]
        print(f"shipped models.toml (29 models): median {statistics.median(times) * 1e3:.0f} ms over {a.runs} runs "
              f"(min {min(times) * 1e3:.0f}, max {max(times) * 1e3:.0f})")
        for n in [int(s) for s in a.sizes.split(",")]:
            root = synthetic(tmp / f"syn{n}", n)
            results = [run(["build", "--manifest", str(root / "models.toml"), "--hub", str(root / "hub"),
                            "--out", str(root / "site")]) for _ in range(max(3, a.runs // 2))]
            t = statistics.median(r[0] for r in results)
            rss = max(r[1] for r in results)
            print(f"{n} synthetic models: median {t:.2f} s, {n / t:.0f} models/s, peak RSS <= {rss / 1024:.0f} MiB")


if __name__ == "__main__":
    main()
