//! Reading and writing the address's `#` (which never leaves the browser);
//! what it says is `state::address`.

pub use crate::state::address::{describe, of, parse, prefix, Target};

pub fn current() -> String {
    web_sys::window().and_then(|w| w.location().hash().ok()).unwrap_or_default()
}

/// Puts `#<hash>` in the address as a new history entry (the back button
/// returns to the list), with no request and no `hashchange`.
pub fn push(hash: &str) {
    if let Some(h) = web_sys::window().and_then(|w| w.history().ok()) {
        let _ = h.push_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(&format!("#{hash}")));
    }
}

/// Replaces the address's `#` (no history entry).
pub fn replace(hash: &str) {
    if let Some(h) = web_sys::window().and_then(|w| w.history().ok()) {
        let _ = h.replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(&format!("#{hash}")));
    }
}
