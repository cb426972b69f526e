//! The built-in card catalogue (`src/estimate/cards.toml`) as JSON for the planning core, so that
//! the WebAssembly module carries no TOML parser (42 kB of its 1.5 MB budget). The library still
//! checks every card when it reads this JSON, as it checks a user's file.

fn main() {
    let path = "src/estimate/cards.toml";
    println!("cargo::rerun-if-changed={path}");
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let value: toml::Value = toml::from_str(&text).unwrap_or_else(|e| panic!("{path}: {e}"));
    let json = serde_json::to_string(&value).unwrap_or_else(|e| panic!("{path}: {e}"));
    let out = std::path::Path::new(&std::env::var("OUT_DIR").expect("cargo sets OUT_DIR")).join("cards.json");
    std::fs::write(&out, json).unwrap_or_else(|e| panic!("{}: {e}", out.display()));
}
