//! The planner as a WebAssembly module for the browser (`wasm32-unknown-unknown`, built without the
//! `io` feature by `tools/build-wasm.sh`). A plain C ABI, so the page's glue is a few lines of
//! JavaScript and no binding generator is built:
//!
//! - `ma_init()`: compiles the templates (optional; the first plan does it otherwise);
//! - `ma_alloc(len) -> ptr`: a buffer the page writes its UTF-8 request into;
//! - `ma_plan(ptr, len) -> out`: plans the request (the JSON of [`crate::api::PlanRequest`]) and
//!   frees it; `out` points at a 4-byte little-endian length and then that many bytes of UTF-8
//!   JSON: `{"ok":true,"json":..,"markdown":..,"html":..}` or `{"ok":false,"error":..,"field":..}`;
//! - `ma_free(ptr, len)`: frees a buffer (`out` with `len` = 4 + its length).

use std::cell::OnceCell;

use crate::api::{self, PlanRequest};
use crate::render::Renderer;

thread_local! {
    // Compiling the templates is the slowest part of a first plan; the module keeps them.
    static RENDERER: OnceCell<Renderer> = const { OnceCell::new() };
}

/// Compiles the templates ahead of the first plan, so that the first plan a reader asks for is as
/// fast as the next ones.
#[unsafe(no_mangle)]
pub extern "C" fn ma_init() {
    RENDERER.with(|cell| {
        cell.get_or_init(Renderer::new);
    });
}

#[unsafe(no_mangle)]
pub extern "C" fn ma_alloc(len: usize) -> *mut u8 {
    let mut buf = Vec::<u8>::with_capacity(len.max(1));
    let ptr = buf.as_mut_ptr();
    std::mem::forget(buf);
    ptr
}

/// # Safety
/// `ptr` and `len` must come from `ma_alloc(len)` or from `ma_plan` (with `len` = 4 + the length
/// it wrote), and be freed once.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ma_free(ptr: *mut u8, len: usize) {
    // SAFETY: the caller hands back a buffer this module allocated with this capacity.
    drop(unsafe { Vec::from_raw_parts(ptr, 0, len.max(1)) });
}

/// # Safety
/// `ptr` must come from `ma_alloc(len)` with `len` bytes written; this call frees it.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ma_plan(ptr: *mut u8, len: usize) -> *mut u8 {
    // SAFETY: the caller wrote `len` bytes into a buffer of capacity `len` from `ma_alloc`.
    let input = unsafe { Vec::from_raw_parts(ptr, len, len.max(1)) };
    let answer = answer(&input);
    let body = answer.into_bytes();
    let mut out = Vec::with_capacity(4 + body.len());
    out.extend_from_slice(&u32::try_from(body.len()).unwrap_or(u32::MAX).to_le_bytes());
    out.extend_from_slice(&body);
    // `ma_free` is given 4 + the length, so the capacity must be exactly that.
    let mut out = out.into_boxed_slice();
    let p = out.as_mut_ptr();
    std::mem::forget(out);
    p
}

fn answer(input: &[u8]) -> String {
    let result = std::str::from_utf8(input)
        .map_err(|e| api::ApiError::bad("request", format!("not UTF-8: {e}")))
        .and_then(|text| {
            serde_json::from_str::<PlanRequest>(text)
                .map_err(|e| api::ApiError::bad("request", format!("not a plan request: {e}")))
        })
        .and_then(|request| {
            RENDERER.with(|cell| {
                let renderer = cell.get_or_init(Renderer::new);
                api::plan(&request, renderer, true)
            })
        });
    let value = match result {
        Ok(p) => serde_json::json!({"ok": true, "json": p.json, "markdown": p.markdown, "html": p.html}),
        Err(e) => serde_json::json!({"ok": false, "error": e.message, "field": e.field}),
    };
    value.to_string()
}
