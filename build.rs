//! Two things the crate embeds, prepared at build time:
//! - the built-in card catalogue (`src/estimate/cards.toml`) as JSON for the planning core, so that
//!   the WebAssembly module carries no TOML parser (42 kB of its 1.5 MB budget). The library still
//!   checks every card when it reads this JSON, as it checks a user's file;
//! - with the `io` feature (the CLI, which writes sites), the in-browser planner's three modules
//!   (`static/planner*.wasm`) gzipped and base64-encoded, the payload of the site's
//!   `static/planner*-wasm.js` (`src/planner_assets.rs`): 5.3 MB of base64 per site become 2.2 MB
//!   (issue 11's bytes per model), and no build of a site spends time compressing.

use std::io::Write;
use std::path::Path;

use base64::Engine;

fn main() {
    let out_dir = std::env::var("OUT_DIR").expect("cargo sets OUT_DIR");
    let out_dir = Path::new(&out_dir);
    cards(out_dir);
    if std::env::var_os("CARGO_FEATURE_IO").is_some() {
        for name in ["planner", "planner-b", "planner-c"] {
            planner_module(out_dir, name);
        }
    }
}

fn cards(out_dir: &Path) {
    let path = "src/estimate/cards.toml";
    println!("cargo::rerun-if-changed={path}");
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let value: toml::Value = toml::from_str(&text).unwrap_or_else(|e| panic!("{path}: {e}"));
    let json = serde_json::to_string(&value).unwrap_or_else(|e| panic!("{path}: {e}"));
    let out = out_dir.join("cards.json");
    std::fs::write(&out, json).unwrap_or_else(|e| panic!("{}: {e}", out.display()));
}

/// `OUT_DIR/<name>.wasm.gz.b64`. gzip with no file name and a zero time stamp (flate2's
/// `GzEncoder` writes neither), so the same module gives the same bytes on every machine.
fn planner_module(out_dir: &Path, name: &str) {
    let path = format!("static/{name}.wasm");
    println!("cargo::rerun-if-changed={path}");
    let module = std::fs::read(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
    gz.write_all(&module).unwrap_or_else(|e| panic!("{path}: gzip: {e}"));
    let gz = gz.finish().unwrap_or_else(|e| panic!("{path}: gzip: {e}"));
    let out = out_dir.join(format!("{name}.wasm.gz.b64"));
    std::fs::write(&out, base64::engine::general_purpose::STANDARD.encode(gz))
        .unwrap_or_else(|e| panic!("{}: {e}", out.display()));
}
