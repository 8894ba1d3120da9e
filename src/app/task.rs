//! What every asynchronous piece of the app shares: the clock, the one way
//! to give the page a turn of its event loop, a cancel flag, and marks for
//! the browser benchmark (standard `performance.mark`s, read by
//! `tests/bench/browser.mjs`; the app itself never reads them).

use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;

/// The longest stretch of work a task does between two turns of the event loop.
pub const YIELD_EVERY_MS: f64 = 30.0;
/// How often a progress bar is redrawn while something is read (and how
/// often the reading worker reports progress).
pub const PROGRESS_MS: f64 = 100.0;

fn performance() -> Option<web_sys::Performance> {
    js_sys::Reflect::get(&js_sys::global(), &"performance".into()).ok()?.dyn_into().ok()
}

/// Milliseconds on this thread's clock (the page's or the worker's).
pub fn now_ms() -> f64 {
    performance().map_or_else(js_sys::Date::now, |p| p.now())
}

/// A `performance.mark` named `ccscope:<name>` (for the benchmark).
pub fn mark(name: &str) {
    if let Some(p) = performance() {
        let _ = p.mark(&format!("ccscope:{name}"));
    }
}

/// A mark whose detail is this wasm instance's memory size, `{wasmMemoryBytes}`
/// (the benchmark reports it; wasm memory only grows).
pub fn mark_memory(name: &str) {
    let Some(p) = performance() else { return };
    let bytes = wasm_bindgen::memory()
        .dyn_into::<js_sys::WebAssembly::Memory>()
        .ok()
        .and_then(|m| m.buffer().dyn_into::<js_sys::ArrayBuffer>().ok())
        .map_or(0.0, |b| f64::from(b.byte_length()));
    let detail = js_sys::Object::new();
    let opts = js_sys::Object::new();
    let _ = js_sys::Reflect::set(&detail, &"wasmMemoryBytes".into(), &bytes.into());
    let _ = js_sys::Reflect::set(&opts, &"detail".into(), &detail);
    // `mark(name, {detail})`: web-sys has it only among its unstable APIs.
    if let Ok(mark) = js_sys::Reflect::get(&p, &"mark".into()).and_then(|f| f.dyn_into::<js_sys::Function>()) {
        let _ = mark.call2(&p, &format!("ccscope:{name}").into(), &opts);
    }
}

/// Whether the page is shown (its tab visible): what follows a file looks
/// only then.
pub fn page_shown() -> bool {
    web_sys::window().and_then(|w| w.document()).is_none_or(|d| !d.hidden())
}

/// Gives the page a turn of its event loop (input, rendering) without the
/// 4 ms minimum that nested `setTimeout(0)`s get: a message to ourselves.
pub async fn yield_to_page() {
    let Ok(ch) = web_sys::MessageChannel::new() else {
        gloo::timers::future::TimeoutFuture::new(0).await;
        return;
    };
    let promise = js_sys::Promise::new(&mut |resolve, _| {
        ch.port1().set_onmessage(Some(resolve.unchecked_ref()));
        if ch.port2().post_message(&wasm_bindgen::JsValue::NULL).is_err() {
            let _ = resolve.call0(&wasm_bindgen::JsValue::NULL);
        }
    });
    let _ = JsFuture::from(promise).await;
    ch.port1().set_onmessage(None);
}

/// Waits until the page has drawn what was changed before the call: until
/// the animation frame after next begins (WebKit lays out and paints after
/// the first frame's callbacks, in tasks of its own; the second frame comes
/// only when they are done). A hidden page draws no frames: then, or after
/// `limit_ms` for a frame, it returns `false`.
pub async fn frame_drawn(limit_ms: u32) -> bool {
    for _ in 0..2 {
        let Some(w) = web_sys::window().filter(|_| page_shown()) else { return false };
        let frame = js_sys::Promise::new(&mut |resolve, _| {
            if w.request_animation_frame(&resolve).is_err() {
                let _ = resolve.call0(&wasm_bindgen::JsValue::NULL);
            }
        });
        let frame = std::pin::pin!(JsFuture::from(frame));
        let limit = std::pin::pin!(gloo::timers::future::TimeoutFuture::new(limit_ms));
        if let futures::future::Either::Right(_) = futures::future::select(frame, limit).await {
            return false;
        }
    }
    true
}

/// Yields when the work since the last yield ran for [`YIELD_EVERY_MS`].
pub struct Pacer {
    since_ms: f64,
}

impl Pacer {
    pub fn new() -> Pacer {
        Pacer { since_ms: now_ms() }
    }

    /// The event loop had a turn anyway (an awaited read took a while).
    pub fn yielded(&mut self) {
        self.since_ms = now_ms();
    }

    pub async fn maybe_yield(&mut self) {
        if now_ms() - self.since_ms >= YIELD_EVERY_MS {
            yield_to_page().await;
            self.since_ms = now_ms();
        }
    }
}

/// Why a task stopped before its end: it was cancelled (nothing more is
/// said), or it failed with `E` (said to the person once).
pub enum Stop<E> {
    Cancelled,
    Failed(E),
}

pub use crate::state::pace::{Cancel, Throttle};

/// A throttle on this thread's clock, at most every [`PROGRESS_MS`].
pub fn throttle() -> Throttle {
    Throttle::new(PROGRESS_MS, now_ms)
}
