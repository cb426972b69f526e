#!/usr/bin/env python3
"""Two builds of the same models.toml, compared: every figure must be the same.

Reads each model's JSON from both sites, drops the fields whose form may change (`--ignore`, by
default schema_version, the structure and the per-node activation rows), and requires the rest
to be equal; prints the files that differ otherwise and each model's JSON and HTML bytes before
and after.

Usage: python3 tools/bench/compare_sites.py BEFORE_SITE AFTER_SITE [--ignore structure ...]
"""
import argparse
import json
import sys
from pathlib import Path

# `siblings` left the model JSON in schema_version 6 (the family page and JSON list them).
DEFAULT_IGNORE = ["schema_version", "structure", "training.activation_nodes", "training.activation_nodes_eager", "siblings"]


def drop(doc, dotted):
    *path, last = dotted.split(".")
    for k in path:
        doc = doc.get(k) if isinstance(doc, dict) else None
        if doc is None:
            return
    if isinstance(doc, dict):
        doc.pop(last, None)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("before")
    ap.add_argument("after")
    ap.add_argument("--ignore", nargs="*", default=DEFAULT_IGNORE)
    a = ap.parse_args()
    before, after = Path(a.before), Path(a.after)
    bad = 0
    rows = []
    for f in sorted(before.glob("models/**/*.json")):
        if f.name.endswith(".badge.json"):
            continue
        rel = f.relative_to(before)
        g = after / rel
        if not g.is_file():
            print(f"missing after: {rel}")
            bad += 1
            continue
        x, y = json.loads(f.read_text()), json.loads(g.read_text())
        for k in a.ignore:
            drop(x, k)
            drop(y, k)
        if x != y:
            keys = sorted(k for k in set(x) | set(y) if x.get(k) != y.get(k))
            print(f"figures differ: {rel}: {keys}")
            bad += 1
        h = f.with_suffix(".html")
        rows.append((str(rel.with_suffix("")), f.stat().st_size, g.stat().st_size, h.stat().st_size,
                     g.with_suffix(".html").stat().st_size))
    for name, jb, ja, hb, ha in sorted(rows, key=lambda r: -r[1])[: 8]:
        print(f"{name:55} JSON {jb:8,} -> {ja:7,}   HTML {hb:7,} -> {ha:7,}")
    print(f"{len(rows)} models compared, {bad} with differing figures")
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
