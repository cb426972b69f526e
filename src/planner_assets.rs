//! The in-browser planner's modules as the site ships them. `static/planner.wasm` (part A) and
//! `static/planner-b.wasm` and `static/planner-c.wasm` (parts B and C: the families A leaves out,
//! see `family::TABLES`) are built by
//! `tools/build-wasm.sh` and committed; the site carries each base64-encoded inside a script
//! (`static/planner-wasm.js`, `static/planner-b-wasm.js`, `static/planner-c-wasm.js`), because a page opened from `file://`
//! may load a script but may not `fetch()` a file beside it. The page loads part B's and C's scripts
//! only when a config needs them.

/// The planner compiled for wasm32-unknown-unknown (see `src/wasm.rs`), part A.
pub const PLANNER_WASM: &[u8] = include_bytes!("../static/planner.wasm");
/// Part B.
pub const PLANNER_B_WASM: &[u8] = include_bytes!("../static/planner-b.wasm");
/// Part C.
pub const PLANNER_C_WASM: &[u8] = include_bytes!("../static/planner-c.wasm");

/// `static/planner-wasm.js`: part A as a base64 string the page decodes.
pub fn wasm_script() -> String {
    script("static/planner.wasm", "MODELATLAS_PLANNER_WASM", PLANNER_WASM)
}

/// `static/planner-b-wasm.js`: part B, as [`wasm_script`].
pub fn wasm_b_script() -> String {
    script("static/planner-b.wasm", "MODELATLAS_PLANNER_B_WASM", PLANNER_B_WASM)
}

/// `static/planner-c-wasm.js`: part C, as [`wasm_script`].
pub fn wasm_c_script() -> String {
    script("static/planner-c.wasm", "MODELATLAS_PLANNER_C_WASM", PLANNER_C_WASM)
}

fn script(file: &str, global: &str, module: &[u8]) -> String {
    let mut s = String::with_capacity(module.len() * 4 / 3 + 128);
    s.push_str(&format!("// {file} (tools/build-wasm.sh), base64: loadable from file:// too.\n"));
    s.push_str(&format!("self.{global} = \""));
    base64(module, &mut s);
    s.push_str("\";\n");
    s
}

/// Standard base64 with padding (RFC 4648 section 4), as the browser's `atob` reads it.
fn base64(bytes: &[u8], out: &mut String) {
    const A: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    for chunk in bytes.chunks(3) {
        let b = [chunk[0], chunk.get(1).copied().unwrap_or(0), chunk.get(2).copied().unwrap_or(0)];
        let n = (u32::from(b[0]) << 16) | (u32::from(b[1]) << 8) | u32::from(b[2]);
        for i in 0..4 {
            if i <= chunk.len() {
                out.push(char::from(A[((n >> (18 - 6 * i)) & 63) as usize]));
            } else {
                out.push('=');
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base64_matches_rfc_4648_test_vectors() {
        // RFC 4648 section 10.
        for (input, expected) in [
            ("", ""),
            ("f", "Zg=="),
            ("fo", "Zm8="),
            ("foo", "Zm9v"),
            ("foob", "Zm9vYg=="),
            ("fooba", "Zm9vYmE="),
            ("foobar", "Zm9vYmFy"),
        ] {
            let mut out = String::new();
            base64(input.as_bytes(), &mut out);
            assert_eq!(out, expected, "{input:?}");
        }
    }

    #[test]
    fn the_shipped_modules_are_webassembly_under_the_size_budget() {
        for module in [PLANNER_WASM, PLANNER_B_WASM, PLANNER_C_WASM] {
            assert_eq!(&module[..4], b"\0asm", "the WebAssembly magic number");
            assert!(module.len() < 1_500_000, "{} bytes", module.len());
        }
    }
}
