#!/usr/bin/env bash
# Measures the alternative the planner module did not take: the same planning call exported
# through wasm-bindgen instead of the plain C ABI of src/wasm.rs. Builds both with the profile of
# tools/build-wasm.sh, shrinks both with the same wasm-opt flags, and prints the module sizes
# (raw and gzipped) and the JavaScript glue each needs. Outside CI: needs the wasm32 target,
# binaryen, and `wasm-bindgen` (the CLI, `cargo install wasm-bindgen-cli --version $WBG`).
#
#   tools/measure-wasm-bindgen.sh
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$(pwd)
WBG=${WBG:-0.2.105}
command -v wasm-bindgen >/dev/null || { echo "wasm-bindgen CLI not found: cargo install wasm-bindgen-cli --version $WBG" >&2; exit 1; }
work=target/wasm-bindgen-compare
mkdir -p "$work/src"
cat > "$work/Cargo.toml" <<TOML
[package]
name = "planner-bindgen"
version = "0.0.0"
edition = "2024"
publish = false
[lib]
crate-type = ["cdylib"]
[dependencies]
modelatlas = { path = "$repo", default-features = false }
serde_json = "1"
wasm-bindgen = "=$WBG"
[workspace]
TOML
# The same call as src/wasm.rs's `ma_plan`, with strings passed by wasm-bindgen.
cat > "$work/src/lib.rs" <<'RS'
use modelatlas::api::{self, PlanRequest};
use modelatlas::render::Renderer;
use wasm_bindgen::prelude::*;

#[wasm_bindgen]
pub fn plan(request: &str) -> String {
    let result = serde_json::from_str::<PlanRequest>(request)
        .map_err(|e| api::ApiError::bad("request", format!("not a plan request: {e}")))
        .and_then(|request| api::plan(&request, &Renderer::new(), true));
    let value = match result {
        Ok(p) => serde_json::json!({"ok": true, "json": p.json, "markdown": p.markdown, "html": p.html}),
        Err(e) => serde_json::json!({"ok": false, "error": e.message, "field": e.field}),
    };
    value.to_string()
}
RS
(cd "$work" && CARGO_TARGET_DIR="$repo/target/wasm-bindgen-compare/target" \
  CARGO_PROFILE_RELEASE_OPT_LEVEL=z CARGO_PROFILE_RELEASE_LTO=true CARGO_PROFILE_RELEASE_CODEGEN_UNITS=1 \
  CARGO_PROFILE_RELEASE_PANIC=abort CARGO_PROFILE_RELEASE_STRIP=true \
  cargo build -q --release --target wasm32-unknown-unknown)
wasm-bindgen --target web --out-dir "$work/out" "$work/target/wasm32-unknown-unknown/release/planner_bindgen.wasm"
wasm-opt --enable-bulk-memory --enable-sign-ext --enable-mutable-globals \
  --enable-nontrapping-float-to-int --enable-multivalue --enable-reference-types -Oz --strip-debug --strip-producers \
  "$work/out/planner_bindgen_bg.wasm" -o "$work/out/planner_bindgen.opt.wasm"
size() { printf '%s bytes (%s gzipped)' "$(stat -c %s "$1")" "$(gzip -9 -c "$1" | wc -c)"; }
# The C ABI's glue: the part of static/planner.js that loads the module and moves strings.
cabi_glue=$(awk '/function load\(\)/,/return JSON.parse\(text\);/' static/planner.js | grep -cv '^\s*\(//.*\)\?$' || true)
echo "C ABI (static/planner.wasm):       $(size static/planner.wasm); glue: $cabi_glue lines of static/planner.js"
echo "wasm-bindgen $WBG (+ wasm-opt):  $(size "$work/out/planner_bindgen.opt.wasm"); glue: $(grep -cv '^\s*\(//.*\)\?$' "$work/out/planner_bindgen.js") generated lines ($(stat -c %s "$work/out/planner_bindgen.js") bytes)"
