#!/usr/bin/env bash
# A long coverage-guided fuzz run of the planner and renderers (cargo-fuzz, libFuzzer).
# Needs a nightly toolchain and `cargo install cargo-fuzz`. Usage: tools/fuzz_long.sh [SECONDS]
# Seeds: every config of the snapshot; dictionary: every key they use. Findings go to
# fuzz/artifacts/plan_render/.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-1800}
corpus=fuzz/corpus/plan_render
mkdir -p "$corpus"
for f in hub/models--*/snapshots/*/config.json; do
  cp "$f" "$corpus/seed-$(echo "$f" | cut -d/ -f2)"
done
python3 - > fuzz/plan_render.dict <<'PY'
import glob, json
keys = set()
def walk(v):
    if isinstance(v, dict):
        for k, x in v.items():
            keys.add(k); walk(x)
    elif isinstance(v, list):
        for x in v: walk(x)
for f in glob.glob("hub/models--*/snapshots/*/config.json"):
    walk(json.load(open(f)))
for k in sorted(keys):
    print(json.dumps(json.dumps(k)))
PY
cargo +nightly fuzz run plan_render "$corpus" -- -max_total_time="$seconds" -dict=fuzz/plan_render.dict \
  -max_len=65536 -print_final_stats=1
