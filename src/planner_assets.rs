//! The in-browser planner's module as the site ships it. `static/planner.wasm` is built by
//! `tools/build-wasm.sh` and committed; the site carries it base64-encoded inside a script
//! (`static/planner-wasm.js`), because a page opened from `file://` may load a script but may not
//! `fetch()` a file beside it.

/// The planner compiled for wasm32-unknown-unknown (see `src/wasm.rs`).
pub const PLANNER_WASM: &[u8] = include_bytes!("../static/planner.wasm");

/// `static/planner-wasm.js`: the module as a base64 string the page decodes.
pub fn wasm_script() -> String {
    let mut s = String::with_capacity(PLANNER_WASM.len() * 4 / 3 + 64);
    s.push_str("// static/planner.wasm (tools/build-wasm.sh), base64: loadable from file:// too.\n");
    s.push_str("self.MODELATLAS_PLANNER_WASM = \"");
    base64(PLANNER_WASM, &mut s);
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
    fn the_shipped_module_is_webassembly_under_the_size_budget() {
        assert_eq!(&PLANNER_WASM[..4], b"\0asm", "the WebAssembly magic number");
        assert!(PLANNER_WASM.len() < 1_500_000, "{} bytes", PLANNER_WASM.len());
    }
}
