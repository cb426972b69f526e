//! The in-browser planner's modules as the site ships them. `static/planner.wasm` (part A) and
//! `static/planner-b.wasm` and `static/planner-c.wasm` (parts B and C: the families A leaves out,
//! see `family::TABLES`) are built by `tools/build-wasm.sh` and committed; the site carries each
//! gzipped and base64-encoded inside a script (`static/planner-wasm.js`, `static/planner-b-wasm.js`,
//! `static/planner-c-wasm.js`), because a page opened from `file://` may load a script but may not
//! `fetch()` a file beside it. `static/planner.js` decodes the base64 and ungzips with the
//! browser's `DecompressionStream`. The payloads are made once, at build time (`build.rs`). The
//! page loads part B's and C's scripts only when a config needs them.

/// The planner compiled for wasm32-unknown-unknown (see `src/wasm.rs`), part A.
pub const PLANNER_WASM: &[u8] = include_bytes!("../static/planner.wasm");
/// Part B.
pub const PLANNER_B_WASM: &[u8] = include_bytes!("../static/planner-b.wasm");
/// Part C.
pub const PLANNER_C_WASM: &[u8] = include_bytes!("../static/planner-c.wasm");

const PLANNER_GZ_B64: &str = include_str!(concat!(env!("OUT_DIR"), "/planner.wasm.gz.b64"));
const PLANNER_B_GZ_B64: &str = include_str!(concat!(env!("OUT_DIR"), "/planner-b.wasm.gz.b64"));
const PLANNER_C_GZ_B64: &str = include_str!(concat!(env!("OUT_DIR"), "/planner-c.wasm.gz.b64"));

/// `static/planner-wasm.js`: part A, gzipped, as a base64 string the page decodes.
pub fn wasm_script() -> String {
    script("static/planner.wasm", "MODELATLAS_PLANNER_WASM", PLANNER_GZ_B64)
}

/// `static/planner-b-wasm.js`: part B, as [`wasm_script`].
pub fn wasm_b_script() -> String {
    script("static/planner-b.wasm", "MODELATLAS_PLANNER_B_WASM", PLANNER_B_GZ_B64)
}

/// `static/planner-c-wasm.js`: part C, as [`wasm_script`].
pub fn wasm_c_script() -> String {
    script("static/planner-c.wasm", "MODELATLAS_PLANNER_C_WASM", PLANNER_C_GZ_B64)
}

fn script(file: &str, global: &str, payload: &str) -> String {
    let head = format!(
        "// {file} (tools/build-wasm.sh), gzipped, base64: loadable from file:// too.\nself.{global} = \""
    );
    let mut s = String::with_capacity(head.len() + payload.len() + 3);
    s.push_str(&head);
    s.push_str(payload);
    s.push_str("\";\n");
    s
}

#[cfg(test)]
mod tests {
    use std::io::Read;

    use base64::Engine;

    use super::*;

    /// What `planner.js` does: the string between the quotes, base64-decoded, then gunzipped.
    fn decoded(script: &str) -> Vec<u8> {
        let payload = script.split('"').nth(1).expect("a quoted payload");
        let gz = base64::engine::general_purpose::STANDARD
            .decode(payload)
            .expect("standard base64, as atob reads it");
        let mut module = Vec::new();
        flate2::read::GzDecoder::new(gz.as_slice()).read_to_end(&mut module).expect("gzip");
        module
    }

    #[test]
    fn each_script_decodes_to_its_committed_module_byte_for_byte() {
        for (script, module) in [
            (wasm_script(), PLANNER_WASM),
            (wasm_b_script(), PLANNER_B_WASM),
            (wasm_c_script(), PLANNER_C_WASM),
        ] {
            assert!(decoded(&script) == module, "{} bytes decode to another module", script.len());
        }
    }

    #[test]
    fn gzip_makes_the_three_scripts_less_than_half_the_plain_base64() {
        // Plain base64 is 4/3 of the module (5.34 MB for the three on 5 December); gzip -9 keeps
        // about 40% of these modules (2.15 MB for the three), well under half the plain base64.
        let plain: usize =
            [PLANNER_WASM, PLANNER_B_WASM, PLANNER_C_WASM].iter().map(|m| m.len().div_ceil(3) * 4).sum();
        let shipped: usize = [wasm_script(), wasm_b_script(), wasm_c_script()].iter().map(String::len).sum();
        assert!(shipped * 2 < plain, "{shipped} bytes shipped against {plain} in plain base64");
    }

    #[test]
    fn the_shipped_modules_are_webassembly_under_the_size_budget() {
        for module in [PLANNER_WASM, PLANNER_B_WASM, PLANNER_C_WASM] {
            assert_eq!(&module[..4], b"\0asm", "the WebAssembly magic number");
            assert!(module.len() < 1_500_000, "{} bytes", module.len());
        }
    }
}
