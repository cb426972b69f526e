#!/usr/bin/env bash
# Rebuilds static/planner.wasm and static/planner-b.wasm, the planner the "Plan your own model"
# page runs in the browser: the library without its `io` feature, for wasm32-unknown-unknown, as
# a cdylib with a plain C ABI (src/wasm.rs), in two parts that each hold some of the families
# (features wasm-part-a and wasm-part-b), shrunk by binaryen's wasm-opt (Debian: `apt-get
# install binaryen`).
#
# The modules are committed, so that `cargo run -- build` works offline on a fresh clone without
# the wasm target or binaryen. Beside it, static/planner.wasm.sources records a hash of every
# file it is built from; `--check` recomputes that hash (no toolchain needed), so CI fails when
# the planner changed and the modules were not rebuilt (one hash for both). Byte-for-byte comparison would also fail
# on a mere rustc or binaryen upgrade, which changes the bytes but not the numbers; the browser
# test compares the module's numbers with the CLI's.
#
#   tools/build-wasm.sh           rebuild static/planner.wasm, planner-b.wasm, planner-c.wasm (and the .sources)
#   tools/build-wasm.sh --check   exit 1 when they are older than their sources
set -euo pipefail
cd "$(dirname "$0")/.."

sources_hash() {
  find Cargo.toml Cargo.lock build.rs src templates static/style.css static/calc.js static/index.js \
      static/favicon.svg static/schema -type f | LC_ALL=C sort | xargs sha256sum | sha256sum | cut -d' ' -f1
}

if [ "${1:-}" = "--check" ]; then
  if [ "$(sources_hash)" = "$(cat static/planner.wasm.sources 2>/dev/null)" ]; then
    echo "static/planner.wasm, planner-b.wasm and planner-c.wasm are up to date with their sources ($(stat -c %s static/planner.wasm), $(stat -c %s static/planner-b.wasm) and $(stat -c %s static/planner-c.wasm) bytes)"
    exit 0
  fi
  echo "static/planner.wasm, planner-b.wasm and planner-c.wasm are stale: the planner's sources changed; run tools/build-wasm.sh and commit static/planner*.wasm*" >&2
  exit 1
fi

command -v wasm-opt >/dev/null || { echo "wasm-opt not found: apt-get install binaryen" >&2; exit 1; }
out=target/wasm32-unknown-unknown/release/modelatlas.wasm
# Three modules, split by families (`family::TABLES` in src/family.rs): all of them in one is
# over the budget. static/planner.js plans with part A and, for a family A does not know, with
# part B, then part C.
for part in a b c; do
  dest=static/planner.wasm
  [ "$part" = a ] || dest=static/planner-$part.wasm
  # Size over speed: every reader of the page downloads the module, and a plan stays far inside
  # the page's 50 ms budget at opt-level z. (CARGO_PROFILE_RELEASE_STRIP=false keeps the names,
  # for a size analysis of target/wasm32-unknown-unknown/release/modelatlas-$part.wasm.)
  CARGO_PROFILE_RELEASE_OPT_LEVEL=z CARGO_PROFILE_RELEASE_LTO=true CARGO_PROFILE_RELEASE_CODEGEN_UNITS=1 \
  CARGO_PROFILE_RELEASE_PANIC=abort CARGO_PROFILE_RELEASE_STRIP=${CARGO_PROFILE_RELEASE_STRIP:-true} \
    cargo rustc --locked --release --lib --target wasm32-unknown-unknown --no-default-features \
    --features "wasm-part-$part" --crate-type cdylib
  cp "$out" "target/wasm32-unknown-unknown/release/modelatlas-$part.wasm"
  # The features rustc emits for this target (binaryen's `-all` would also allow typed function
  # references, which Chromium and Node reject).
  wasm-opt --enable-bulk-memory --enable-sign-ext --enable-mutable-globals \
    --enable-nontrapping-float-to-int --enable-multivalue --enable-reference-types -Oz --strip-debug --strip-producers "$out" -o "$dest"
done
sources_hash > static/planner.wasm.sources
over=0
for dest in static/planner.wasm static/planner-b.wasm static/planner-c.wasm; do
  size=$(stat -c %s "$dest")
  echo "$dest: $size bytes ($(gzip -9 -c "$dest" | wc -c) gzipped)"
  # The page's budget: each module under 1.5 MB before compression.
  [ "$size" -lt 1500000 ] || { echo "$dest is over the 1.5 MB budget" >&2; over=1; }
done
exit "$over"
