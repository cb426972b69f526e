#!/usr/bin/env python3
"""Two builds of the same models.toml, compared: every figure must be the same.

Reads each model's JSON from both sites, drops the fields whose form may change (`--ignore`, by
default schema_version and the structure), reads a schema_version 7 file as v6 (the fields v7
left out computed back by the README's formulas, the activation rows named and front-coded again),
and requires the rest
to be equal; prints the files that differ otherwise and each model's JSON and HTML bytes before
and after.

Usage: python3 tools/bench/compare_sites.py BEFORE_SITE AFTER_SITE [--ignore structure ...]
"""
import argparse
import json
import sys
from pathlib import Path

# `siblings` left the model JSON in schema_version 6 (the family page and JSON list them); what
# schema_version 7 left out is computed back by `as_v6`.
DEFAULT_IGNORE = ["schema_version", "structure", "siblings"]


def drop(doc, dotted):
    *path, last = dotted.split(".")
    for k in path:
        doc = doc.get(k) if isinstance(doc, dict) else None
        if doc is None:
            return
    if isinstance(doc, dict):
        doc.pop(last, None)


def growth_at(terms, seq):
    t = list(terms) + [0] * (6 - len(terms))
    fixed, per_sample, per_token, per_token_sq, windowed, window = t[:6]
    g = per_sample + seq * per_token + seq * seq * per_token_sq + (min(seq, window) * windowed if window > 0 else 0)
    return fixed + g


def as_v6(doc):
    """A schema_version 7 model JSON read as v6, by the README's formulas ("schema_version 7
    (what changed from 6)"): the fields v7 left out are computed back, so that the comparison
    checks those formulas too."""
    if doc.get("schema_version", 0) < 7:
        return doc
    doc.setdefault("url", "models/" + doc["id"] + ".html")
    for k, empty in (("unsupported_reason", None), ("config_facts", []), ("changes", [])):
        doc.setdefault(k, empty)
    for k in ("downloads", "last_modified", "likes", "gated"):
        doc["source"].setdefault(k, None)
    if doc.get("params"):
        doc["params"].setdefault("other_release", None)
    for lint in doc.get("lints", []):
        lint.setdefault("fix", None)
    t = doc.get("training")
    if t:
        # The activation rows, front-coded by name as v6 wrote them.
        def node_name(si, ni):
            sec = doc["structure"]["sections"][si]
            name = sec["nodes"][ni][0]
            return sec["name"] + name if name.startswith(".") else name

        def named(rows, base):
            out = []
            for r in rows:
                if isinstance(r, int):
                    out.append((base[r][0], r))
                elif isinstance(r[0], str):
                    out.append((r[0], r[1:]))
                else:
                    out.append((node_name(r[0], r[1]), r[2:]))
            return out

        def front_coded(rows):
            out, prev = [], ""
            for name, rest in rows:
                if isinstance(rest, int):
                    out.append(rest)
                else:
                    shared = 0
                    while shared < min(len(prev), len(name)) and prev[shared] == name[shared]:
                        shared += 1
                    out.append([shared, name[shared:]] + rest)
                prev = name
            return out

        sdpa = named(t["activation_nodes"], [])
        eager = named(t["activation_nodes_eager"], sdpa)
        t["activation_nodes"], t["activation_nodes_eager"] = front_coded(sdpa), front_coded(eager)
        lora = t.pop("lora_params")
        trainable = {"full": doc["params"]["derived"], "lora": lora, "qlora": lora}
        for m in ("full", "lora", "qlora"):
            t[m] = {"trainable_params": trainable[m], "breakdown": t[m]}
    s = doc.get("serving")
    if s:
        s.setdefault("encoder_working_bytes_per_token", None)
        derived, q = doc["params"]["derived"], s["quantised_params"]
        s["weights"] = [[p, bits, 2 * (derived - q) + bits / 8 * q] for p, bits in s["weights"]]
        kv = s["kv"]
        if kv:
            lay, ctx = kv["layout"], doc["config"]["context"]
            own = sum(g["layers"] * g["values_per_token"] for g in lay["groups"])
            cross = lay["cross"]["layers"] * lay["cross"]["values_per_token"] if lay["cross"] else 0
            values = sum(g["layers"] * g["values_per_token"] * (min(ctx, g["window"]) if g["window"] else ctx)
                         for g in lay["groups"])
            values += cross * (lay["cross_fixed_len"] or ctx)
            if lay.get("recurrent"):
                r = lay["recurrent"]
                values += r["layers"] * (r["conv_values"] + r["ssm_values"])
            kv["bytes_per_token_bf16"] = 2 * (own + (cross if lay["cross_fixed_len"] is None else 0))
            kv["bytes_at_context_bf16"] = 2 * values
    fit = doc.get("fit")
    if fit:
        for m in fit["modes"]:
            best = (0, "")
            for ph in m["phases"]:
                at = growth_at(ph[1:], fit["seq_len"])
                if at > best[0]:
                    best = (at, ph[0])
            # In v6's key order: after the phases, before smallest_card.
            card = m.pop("smallest_card")
            m["batch1_peak_bytes"], m["peak_phase"], m["smallest_card"] = best[0], best[1], card
    return doc


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
        x, y = as_v6(json.loads(f.read_text())), as_v6(json.loads(g.read_text()))
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
