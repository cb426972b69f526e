#!/usr/bin/env python3
"""Bytes per model, by file kind, on a synthetic site of N models (the 20 kB budget of issue 11).

Builds N models drawn round-robin from every family of the snapshot (tools/bench_build.py's
generator: each under a made-up organisation), then prints, per model, the bytes of each kind of
file (page HTML, Markdown twin, JSON, badge, feed), the model's share of the index, family pages
and the rest of the site, the total against the budget, and the HTML page's bytes per section
(`<section id=...>` / `<details id=...>`), so the next cut goes where the bytes are.

Usage: python3 tools/bench/bytes.py [--models 5000] [--bin target/debug/modelatlas] [--keep DIR]
"""
import argparse
import re
import subprocess
import sys
import tempfile
from collections import defaultdict
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
import bench_build  # noqa: E402  (the one generator of synthetic sites)

BUDGET = 20_000


def kind(rel: Path) -> str:
    parts = rel.parts
    name = rel.name
    if parts[0] == "models":
        for suffix, k in ((".badge.json", "model badge"), (".html", "model HTML"), (".md", "model Markdown"),
                          (".json", "model JSON"), (".atom", "model feed")):
            if name.endswith(suffix):
                return k
        return "model other"
    if parts[0] == "families":
        return "families (share)"
    if name.startswith("index."):
        return f"index{rel.suffix} (share)"
    if parts[0] == "static" or parts[0] == "schema":
        return "static/schema (share)"
    return "rest (share)"


PART = re.compile(rb'<section[^>]*aria-label(?:ledby)?="([^"]+)"|<script type="application/json" id="(calc-data)"'
                  rb'|<div class="(charts)"|<details[^>]*><summary>([^<]{0,40})|</details>|</section>')


def sections(html: bytes, acc):
    """Bytes of each section of a model page, and of each collapsed part inside one."""
    section, cur, last = None, "(before the first section)", 0
    for m in PART.finditer(html):
        acc[cur] += m.start() - last
        last = m.start()
        tok = m.group(0)
        if m.group(1):
            section = cur = m.group(1).decode()
        elif m.group(2) or m.group(3):
            cur = f"{section}/{(m.group(2) or m.group(3)).decode()}"
        elif tok.startswith(b"<details"):
            cur = f"{section}/<details> {m.group(4).decode(errors='replace').strip()}"
        elif tok == b"</details>":
            cur = section or "(outside sections)"
        else:
            section, cur = None, "(between sections)"
    acc[cur] += len(html) - last


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--models", type=int, default=5000)
    ap.add_argument("--bin", default=str(bench_build.REPO / "target" / "debug" / "modelatlas"))
    ap.add_argument("--keep", help="build into this folder and keep it")
    a = ap.parse_args()
    n = a.models
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(a.keep) if a.keep else Path(tmp)
        root.mkdir(parents=True, exist_ok=True)
        bench_build.synthetic(root, n)
        site = root / "site"
        subprocess.run([a.bin, "build", "--manifest", str(root / "models.toml"), "--hub", str(root / "hub"),
                        "--out", str(site)], check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        by_kind = defaultdict(int)
        by_section = defaultdict(int)
        for f in site.rglob("*"):
            if not f.is_file():
                continue
            rel = f.relative_to(site)
            k = kind(rel)
            by_kind[k] += f.stat().st_size
            if k == "model HTML":
                sections(f.read_bytes(), by_section)
        total = sum(by_kind.values())
        print(f"{n} synthetic models, bytes per model by file kind:")
        for k, v in sorted(by_kind.items(), key=lambda kv: -kv[1]):
            print(f"  {k:24} {v / n:10,.0f}")
        print(f"  {'total':24} {total / n:10,.0f}  ({'within' if total / n <= BUDGET else 'OVER'} the "
              f"{BUDGET:,} byte budget)")
        print("model HTML, bytes per model by section:")
        for k, v in sorted(by_section.items(), key=lambda kv: -kv[1]):
            print(f"  {v / n:10,.0f}  {k}")


if __name__ == "__main__":
    main()
