#!/usr/bin/env python3
"""Benchmark `modelatlas build`: the shipped site, and a synthetic site of N models.

Prints the median wall time of several full builds (`build --full` into the previous site, as a
user's rebuild after an upgrade; these machines are noisy: quote medians), models per second, the
peak resident memory of the largest run (`/usr/bin/time -v`, Debian's `time`; streaming: memory
flat in N), the CPU time (user and system: on a shared machine it says more than the wall
time, and 2 cores give at most 2 CPU seconds a second), and the bytes per model over all of a model's
files (HTML, Markdown, JSON, badge) plus its share of the index, family pages and the rest of the
site, against the 20 KB budget (GitHub Pages publishes at most 1 GB: 20 KB a model is 50,000
models). Then the incremental rebuilds: with nothing changed, and with one model's config changed,
each as a share of the full build. The synthetic models are copies of every model in the snapshot
(every family, round-robin) under made-up organisations, each with the vocabulary grown by its
own multiple of 64 (so every config is distinct, their numbers differ from the original's, and
the checkpoint comparison has a difference to explain); each is planned and rendered in full. With Debian's `hugo` on PATH it
also builds the same number of pages of the same weight with Hugo in the same run (median of as
many runs) and prints the ratio.

Usage: python3 tools/bench_build.py [--runs 3] [--sizes 1000,5000,10000] [--no-shipped] [--jobs 2]
"""
import argparse
import json
import os
import re
import shutil
import statistics
import subprocess
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
BIN = REPO / "target" / "release" / "modelatlas"
# Every snapshot model that the shipped models.toml builds (every family).
SUPPORTED = sorted(p.name[len("models--"):] for p in (REPO / "hub").glob("models--*--*")
                   if p.name != "models--NousResearch--Llama-2-7b-hf")
BUDGET = 20_000


def site_bytes(site: Path, n: int):
    """(bytes per model over everything, bytes per model over models/ alone)."""
    total = sum(f.stat().st_size for f in site.rglob("*") if f.is_file())
    models = sum(f.stat().st_size for f in (site / "models").rglob("*") if f.is_file())
    return total / n, models / n


def hugo_ratio(root: Path, n: int, page_bytes: int, runs: int):
    """Median seconds for Hugo to build n content pages of page_bytes each, or None without hugo."""
    if not shutil.which("hugo"):
        return None
    site = root / "hugo"
    (site / "content" / "m").mkdir(parents=True, exist_ok=True)
    (site / "layouts" / "_default").mkdir(parents=True, exist_ok=True)
    # Hugo's default 30 s limit per page is hit on a loaded machine at 10,000 pages.
    (site / "hugo.toml").write_text('baseURL = "https://example.org/"\ntimeout = "30m"\ndisableKinds = ["taxonomy", "term", "RSS", "sitemap"]\n')
    (site / "layouts" / "_default" / "single.html").write_text("<!DOCTYPE html><title>{{ .Title }}</title>{{ .Content }}")
    (site / "layouts" / "_default" / "list.html").write_text("<!DOCTYPE html>{{ range .Pages }}{{ .Title }}{{ end }}")
    body = ("| a | b | c |\n|---|---|---|\n" + "| 1,234 | 5.67 GB | comfortable |\n" * (page_bytes // 34))
    for i in range(n):
        (site / "content" / "m" / f"p{i}.md").write_text(f"---\ntitle: p{i}\n---\n" + body)
    times = []
    for _ in range(runs):
        t = time.perf_counter()
        if subprocess.run(["hugo", "--quiet", "-s", str(site)], stdout=subprocess.DEVNULL).returncode != 0:
            # A failed Hugo run says nothing of modelatlas: report no ratio rather than stop.
            shutil.rmtree(site)
            return None
        times.append(time.perf_counter() - t)
    shutil.rmtree(site)
    return statistics.median(times)


TIME_V = Path("/usr/bin/time")


def run(args, jobs=None):
    """Wall time, peak resident memory (KiB) and stderr of one build."""
    cmd = [str(BIN), *args] + (["--jobs", str(jobs)] if jobs and args[0] == "build" else [])
    if TIME_V.exists():
        cmd = [str(TIME_V), "-v", *cmd]
    t = time.perf_counter()
    p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    _, err = p.communicate()
    elapsed = time.perf_counter() - t
    if p.returncode != 0:
        raise SystemExit(f"build failed: {args}\n{err[-3000:]}")
    m = re.search(r"Maximum resident set size \(kbytes\): (\d+)", err)
    rss = int(m.group(1)) if m else 0
    cpu = sum(float(x) for x in re.findall(r"(?:User|System) time \(seconds\): ([\d.]+)", err))
    sys_s = sum(float(x) for x in re.findall(r"System time \(seconds\): ([\d.]+)", err))
    return elapsed, rss, err, cpu, sys_s


def vary(config: Path, i: int):
    """Every model gets its own vocabulary size, larger than the original's by 64 * (i + 1), so no
    two synthetic configs are alike and no memoisation of whole plans (by config, by family)
    can flatter the figure. A config without a vocabulary (none in the snapshot today) stays as
    it is."""
    c = json.loads(config.read_text())
    target = c.get("text_config", c) if "vocab_size" not in c else c
    if isinstance(target.get("vocab_size"), int):
        target["vocab_size"] += 64 * (i + 1)
        config.unlink()  # a copy, but never write through a link into the snapshot
        config.write_text(json.dumps(c))


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
        for config in dst.glob("snapshots/*/config.json"):
            vary(config, i)
        lines.append(f'[[model]]\nid = "{new_org}/{new_name}"\n')
    (root / "models.toml").write_text("\n".join(lines))
    return root


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--sizes", default="1000,5000,10000")
    ap.add_argument("--no-shipped", action="store_true")
    ap.add_argument("--jobs", type=int, help="worker threads (default: one per core)")
    ap.add_argument("--hugo-max", type=int, default=10**9, help="compare with Hugo only up to this many models")
    ap.add_argument("--bin", help="a built binary to time instead of building target/release (bytes only: a debug build's speed means nothing)")
    a = ap.parse_args()
    global BIN
    if a.bin:
        BIN = Path(a.bin).resolve()
    else:
        subprocess.run(["cargo", "build", "--release", "-q"], cwd=REPO, check=True)
    print(f"{os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f}; {BIN}", flush=True)
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        if not a.no_shipped:
            times = [run(["build", "--full", "--manifest", str(REPO / "models.toml"), "--hub", str(REPO / "hub"),
                          "--out", str(tmp / "site")], a.jobs)[0] for _ in range(a.runs)]
            print(f"shipped models.toml: median {statistics.median(times) * 1e3:.0f} ms over {a.runs} runs "
                  f"(min {min(times) * 1e3:.0f}, max {max(times) * 1e3:.0f})")
        for n in [int(s) for s in a.sizes.split(",")]:
            root = synthetic(tmp / f"syn{n}", n)
            build = ["build", "--manifest", str(root / "models.toml"), "--hub", str(root / "hub"),
                     "--out", str(root / "site")]
            results = [run([*build, "--full"], a.jobs) for _ in range(a.runs)]
            t = statistics.median(r[0] for r in results)
            rss = max(r[1] for r in results)
            # On a machine shared with other work the wall time says little; the CPU time (user
            # and system) says what the build costs: 2 cores give at most 2 CPU seconds a second.
            cpu = statistics.median(r[3] for r in results)
            per, per_models = site_bytes(root / "site", n)
            verdict = "within" if per <= BUDGET else "OVER"
            line = (f"{n} synthetic models: median {t:.2f} s (min {min(r[0] for r in results):.2f}), {n / t:.0f} models/s, "
                    f"CPU {cpu:.2f} s ({n / (cpu / 2):.0f} models/s on 2 idle cores; system "
                    f"{statistics.median(r[4] for r in results):.2f} s of it), "
                    f"peak RSS {rss / 1024:.0f} MiB, {per / 1000:.1f} kB per model ({per_models / 1000:.1f} kB in models/), "
                    f"{verdict} the {BUDGET // 1000} kB budget")
            hugo = hugo_ratio(root, n, int(per_models), a.runs) if n <= a.hugo_max else None
            if hugo:
                line += f"; Hugo {hugo:.2f} s for {n} pages of {per_models / 1000:.0f} kB: modelatlas/Hugo speed {hugo / t:.2f}x"
            else:
                line += "; hugo not installed, no ratio"
            print(line, flush=True)
            same = [run(build, a.jobs) for _ in range(a.runs)]
            ts = statistics.median(r[0] for r in same)
            if "nothing changed" not in same[-1][2]:
                raise SystemExit("a rebuild with nothing changed was not recognised as such")
            # One model's config changed: a model of a family with many members, so its siblings'
            # lists change too.
            config = next((root / "hub" / "models--bench0--Llama-2-7b-hf-20").glob("snapshots/*/config.json"), None) \
                or next((root / "hub").glob("models--bench0--*/snapshots/*/config.json"))
            one = []
            for k in range(a.runs):
                c = json.loads(config.read_text())
                c["vocab_size"] = c.get("vocab_size", 32000) + 64
                config.unlink()
                config.write_text(json.dumps(c))
                one.append(run(build, a.jobs))
            t1 = statistics.median(r[0] for r in one)
            rendered = re.search(r"(\d+) of \d+ models rendered, (\d+) files carried over", one[-1][2])
            detail = f" ({rendered.group(1)} model(s) rendered, {rendered.group(2)} files carried over)" if rendered else ""
            # The CPU time's share too: on a loaded machine a short run's wall time is mostly
            # waiting for a core.
            cs, c1 = statistics.median(r[3] for r in same), statistics.median(r[3] for r in one)
            print(f"  incremental: nothing changed {ts * 1e3:.0f} ms ({ts / t:.1%} of the full build; CPU "
                  f"{cs / cpu:.1%}), peak RSS {max(r[1] for r in same) / 1024:.0f} MiB; one config changed "
                  f"{t1 * 1e3:.0f} ms ({t1 / t:.1%}; CPU {c1 / cpu:.1%}){detail}", flush=True)
            shutil.rmtree(root)


if __name__ == "__main__":
    main()
