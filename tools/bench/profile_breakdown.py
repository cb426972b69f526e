#!/usr/bin/env python3
"""Where a build's time goes, by phase, from `perf script` of a `perf record --call-graph dwarf`.

Each sample is charged to the innermost frame that names one of the buckets below (so "planning,
other" is planning less the named parts of it), and malloc/free samples are also counted on their
own. Usage:
    perf record -F 1000 --call-graph dwarf,32768 -o perf.data modelatlas build --full ...
    perf script -i perf.data | python3 tools/bench/profile_breakdown.py
"""
import collections
import sys

# Phases (the outermost frame that names one wins), then within a phase its parts (the innermost
# frame that names one wins; a phase's remainder is "<phase>: other").
PHASES = [
    ("planning", ["plan::plan_with"]),
    ("rendering a model", ["Renderer::model_parts"]),
    ("rendering siblings", ["Renderer::model_siblings"]),
    ("site pages (index, families, method)", ["write_site_pages", "Renderer::changes", "feeds::site_feed"]),
    ("writing files", ["SiteWriter::write", "SiteWriter::append", "SiteWriter::reuse", "std::fs::write"]),
    ("reading sources", ["source::", "ModelSource"]),
    ("fingerprints", ["incremental::"]),
    ("cleanup of the previous site", ["remove_entries", "remove_site"]),
]
PARTS = {
    "planning": [
        ("FP8 block scales", ["fp8_block_scales"]),
        ("reconciliation", ["estimate::reconcile"]),
        ("training memory", ["estimate::training"]),
        ("serving", ["estimate::serving"]),
        ("fit", ["estimate::fit"]),
        ("cost", ["estimate::cost"]),
        ("lints", ["estimate::lints"]),
        ("config parse", ["config::parse", "serde_json::de"]),
        ("graph", ["::graph::", "Architecture"]),
    ],
    "rendering a model": [
        ("model JSON", ["render::to_json"]),
        ("charts", ["render::model_charts"]),
        ("calculator data", ["render::calc_data"]),
        ("page to minijinja values", ["minijinja::value::serialize"]),
        ("templates", ["Renderer::render"]),
    ],
}
ALLOC = ["mi_", "_mi_", "malloc", "free", "realloc", "__rust_alloc", "__rust_dealloc", "clear_page", "page_fault"]


def main():
    counts = collections.Counter()
    alloc = 0
    total = 0
    stack = []

    def flush():
        nonlocal alloc, total
        if not stack:
            return
        total += 1
        if any(a in stack[0] for a in ALLOC) or any("do_huge_pmd" in f for f in stack[:12]):
            alloc += 1
        root_first = stack[::-1]
        for i, frame in enumerate(root_first):
            phase = next((name for name, keys in PHASES if any(k in frame for k in keys)), None)
            if phase is None:
                continue
            part = "other"
            for inner in root_first[i + 1:]:
                found = next((n for n, keys in PARTS.get(phase, []) if any(k in inner for k in keys)), None)
                if found:
                    part = found
            counts[f"{phase}: {part}" if phase in PARTS else phase] += 1
            return
        counts["other (rayon, main, kernel)"] += 1

    for line in sys.stdin:
        line = line.rstrip("\n")
        if not line.strip():
            flush()
            stack = []
        elif line.startswith((" ", "\t")):
            parts = line.strip().split(" ", 1)
            stack.append(parts[1] if len(parts) > 1 else parts[0])
    flush()
    for name, n in counts.most_common():
        print(f"{n / total:6.1%}  {name}")
    print(f"{alloc / total:6.1%}  (of all samples: malloc, free and page faults, inside the above)")
    print(f"{total} samples")


if __name__ == "__main__":
    main()
