//! A rehearsal before the first pick: the built-in sample is drawn once by
//! a real [`Viewer`], out of sight, then removed.
//!
//! The first viewer a page draws is slow for reasons that have nothing to
//! do with the file: wasm functions run for the first time, the browser
//! compiles its styles and finds its fonts, including the fallback fonts
//! for scripts the page's fonts lack ([`SCRIPTS`]). Measured on a generated 80 MB
//! file, the first preview's draw and layout took 60–170 ms of main-thread
//! time; on a second pick in the same page, under 40 ms. Doing that work at
//! start-up, while the person is still choosing a file, moves it off the
//! path between the pick and the first rows.
//!
//! After the draw, [`exercise`] runs the page's part of opening a large
//! file on the sample repeated (index, decode, stats, view, markdown) and
//! [`churn`] re-renders keyed rows in a detached element, so that V8 has
//! optimised those functions before a pick rather than during one.
//!
//! The rehearsal lives in a shadow root (so no `document.querySelector` —
//! the page's own code or a test — ever finds it), is hidden and
//! `aria-hidden`, and its viewer neither reads nor writes the address nor
//! listens to keys ([`viewer::Props::rehearsal`]). Its bytes are built into
//! the wasm: no request is made. A pick during the rehearsal ends it at
//! its next turn ([`stop`]). When it is over, `<html>` gets
//! `data-rehearsed="ok"` (or `"failed"`; the browser benchmark waits for
//! it, as a person would be still choosing a file).

use std::cell::Cell;
use std::rc::Rc;

use js_sys::{Array, Reflect, Uint8Array};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{Blob, CssStyleSheet, HtmlElement, ShadowRootInit, ShadowRootMode};

use yew::prelude::*;

use super::reader::yield_to_page;
use super::shared::Shared;
use super::viewer::{Props, Viewer};
use super::load::{loaded, Timing};
use crate::index::Indexer;

const SAMPLE: &[u8] = include_bytes!("../../www/sample.jsonl");

/// Text that real transcripts hold beyond ASCII and the page's fonts lack:
/// the first time the browser lays such a character out in a given face
/// and size, it looks for a fallback font (an IPC from the sandboxed
/// renderer), and it does so per face. Measured on the generated 80 MB
/// file, whose text has a few of these: laying out its first rows took
/// 21–50 ms, the same file with those characters made ASCII 4 ms, and a
/// second pick of the original 3 ms.
const SCRIPTS: &str = "é ñ ü ï ß ø ç — – “” ‘’ … • · ± × ÷ ≤ ≥ ≠ ≈ ∞ √ ∑ π λ Ω α β γ Жж Яя \
    → ← ↑ ↓ ↔ ⇒ ✓ ✔ ✗ ✘ ★ ⚠ ⛔ ❌ ✅ ❗ ─ │ ┌ ┐ └ ┘ ├ ┤ ┬ ┴ ═ ║ ▶ ▼ ■ □ ● ○ \
    代码 中文 日本語 ひらがな カタカナ 한국어 שלום مرحبا नमस्ते สวัสดี \
    😀 😅 🎉 🚀 👍 👀 🔥 💡 📝 📁 🐛 ✨ 🤖 🧪 ⭐";

/// A few records whose text is [`SCRIPTS`] in every place user content is
/// drawn (title, prompt, markdown, thinking, tool input, result), drawn
/// first, so that their fallback fonts are found here, not at the first pick.
fn scripts_records() -> String {
    let t = SCRIPTS;
    let base = r#""sessionId":"rehearsal","timestamp":"2026-01-01T00:00:00.000Z""#;
    [
        format!(r#"{{"type":"custom-title","customTitle":"{t}",{base}}}"#),
        format!(r#"{{"type":"user","uuid":"r1","parentUuid":null,{base},"message":{{"role":"user","content":"{t}"}}}}"#),
        format!(
            r#"{{"type":"assistant","uuid":"r2","parentUuid":"r1",{base},"message":{{"id":"r","role":"assistant","model":"m","content":[{{"type":"thinking","thinking":"{t}"}},{{"type":"text","text":"{t}\n\n**{t}** *{t}* `{t}`\n\n- {t}\n\n```\n{t}\n```"}},{{"type":"tool_use","id":"ra","name":"Bash","input":{{"command":"echo {t}","description":"{t}"}}}},{{"type":"tool_use","id":"rb","name":"Edit","input":{{"file_path":"/{t}","old_string":"{t}","new_string":"{t} {t}"}}}}]}}}}"#
        ),
        format!(r#"{{"type":"user","uuid":"r3","parentUuid":"r2",{base},"message":{{"role":"user","content":[{{"type":"tool_result","tool_use_id":"ra","content":"{t}"}},{{"type":"tool_result","tool_use_id":"rb","content":[{{"type":"text","text":"{t}"}}],"is_error":true}}]}}}}"#),
    ]
    .join("\n")
        + "\n"
}

/// How long the rehearsal may wait for its items' bodies at most.
const BODIES_WAIT_MS: f64 = 2000.0;

thread_local! {
    static STOPPED: Cell<bool> = const { Cell::new(false) };
}

/// Ends the rehearsal (if it still runs) at its next turn: a file was picked.
pub fn stop() {
    STOPPED.with(|s| s.set(true));
}

/// Starts the rehearsal after the page's first paint; failures only warn.
pub fn start() {
    wasm_bindgen_futures::spawn_local(async {
        gloo::timers::future::TimeoutFuture::new(0).await;
        let outcome = run().await;
        if let Err(e) = &outcome {
            web_sys::console::warn_1(&format!("ccscope: the start-up rehearsal did not run ({e:?}); the first file may draw more slowly").into());
        }
        if let Some(html) = web_sys::window().and_then(|w| w.document()).and_then(|d| d.document_element()) {
            let _ = html.set_attribute("data-rehearsed", if outcome.is_ok() { "ok" } else { "failed" });
        }
    });
}

/// The page's style rules, copied into one constructed sheet (no request, and
/// allowed by the page's CSP, which governs only loaded styles).
fn page_styles(doc: &web_sys::Document) -> Result<CssStyleSheet, JsValue> {
    let mut text = String::new();
    let sheets = doc.style_sheets();
    for i in 0..sheets.length() {
        let Some(sheet) = sheets.item(i).and_then(|s| s.dyn_into::<CssStyleSheet>().ok()) else { continue };
        let Ok(rules) = sheet.css_rules() else { continue };
        for k in 0..rules.length() {
            if let Some(rule) = rules.item(k) {
                text.push_str(&rule.css_text());
                text.push('\n');
            }
        }
    }
    let sheet = CssStyleSheet::new()?;
    sheet.replace_sync(&text)?;
    Ok(sheet)
}

async fn run() -> Result<(), JsValue> {
    if STOPPED.with(Cell::get) {
        return Ok(());
    }
    let doc = web_sys::window().and_then(|w| w.document()).ok_or("no document")?;
    let body = doc.body().ok_or("no body")?;
    let host: HtmlElement = doc.create_element("div")?.dyn_into()?;
    host.set_attribute("aria-hidden", "true")?;
    host.set_attribute("inert", "")?;
    // Laid out at a real size (that is the work to do), never painted. Set
    // through the CSSOM: the CSP forbids style attributes.
    host.style().set_css_text("position:fixed;left:-20000px;top:0;width:1100px;height:900px;visibility:hidden;overflow:hidden;contain:strict");
    let shadow = host.attach_shadow(&ShadowRootInit::new(ShadowRootMode::Closed))?;
    let styles: JsValue = page_styles(&doc)?.into();
    Reflect::set(&shadow, &"adoptedStyleSheets".into(), &Array::of1(&styles))?;
    let root: HtmlElement = doc.create_element("div")?.dyn_into()?;
    root.set_attribute("class", "page viewing")?;
    root.style().set_css_text("height:900px");
    shadow.append_child(&root)?;
    body.append_child(&host)?;
    // Whatever happens while drawing, nothing stays behind.
    let drawn = draw(&root).await;
    host.remove();
    drawn?;
    exercise()
        .await
        .map_err(|e| JsValue::from_str(&format!("the model's warm-up failed: {e}")))
}

/// Copies of the sample [`exercise`] works through: 3,800 records.
const EXERCISE_REPEATS: usize = 200;

/// Runs the page's part of opening a large file — index its head, decode
/// the worker's index, stats, verdict, the list's view (markdown: see
/// [`churn`]) — on [`SAMPLE`]
/// repeated [`EXERCISE_REPEATS`] times, in tasks of a few ms each.
///
/// Why: V8 swaps a wasm function's first, quickly compiled code for its
/// optimising compiler's only once the function has run a while, and it
/// compiles on the machine's other threads. The drawing above runs these
/// functions on 19 records only; without this, an 80 MB file's first
/// thousands of records made V8 compile them during the load (290 ms of
/// compiling in its last 75 ms, on a 2-core machine whose other core was
/// reading the file).
async fn exercise() -> Result<(), String> {
    let mut bytes = Vec::with_capacity(SAMPLE.len() * EXERCISE_REPEATS);
    for _ in 0..EXERCISE_REPEATS {
        bytes.extend_from_slice(SAMPLE);
    }
    let blob = Blob::new_with_u8_array_sequence(&Array::of1(&Uint8Array::from(&bytes[..]))).map_err(|e| format!("{e:?}"))?;
    let stopped = || STOPPED.with(Cell::get);
    for _ in 0..2 {
        yield_to_page().await;
        if stopped() {
            return Ok(());
        }
        let index = Indexer::index_bytes(&bytes);
        yield_to_page().await;
        // As the worker hands its index over, and as the page takes it.
        let pieces = super::worker::encode(&index);
        drop(index);
        yield_to_page().await;
        let index = super::worker::decode(pieces).await.map_err(|e| e.to_string())?;
        yield_to_page().await;
        if stopped() {
            return Ok(());
        }
        let timing = Timing { elapsed_ms: 0.0, index_ms: 0.0, wait_ms: 0.0, worker_memory_bytes: None };
        let l = loaded("exercise.jsonl", bytes.len() as u64, &blob, index, Rc::from(&bytes[..64 << 10]), timing);
        if l.index.malformed_lines > 0 || l.view.items.is_empty() {
            return Err("its records did not index".into());
        }
    }
    churn().await
}

#[derive(Properties, PartialEq)]
struct ChurnProps {
    round: u32,
}

/// Keyed rows of markdown, shifted by one each round: Yew creates,
/// moves, updates and removes nodes as the list does when it scrolls.
#[function_component(Churn)]
fn churn_view(p: &ChurnProps) -> Html {
    let first = p.round as usize;
    html! {
        <div>
            { for (first..first + CHURN_ROWS).map(|k| html! {
                <div key={k} class={if k % 2 == 0 { "even" } else { "odd" }} data-id={k.to_string()}>
                    <span>{ k }</span>{ super::md::render(MARKDOWN) }
                </div>
            }) }
        </div>
    }
}

const CHURN_ROWS: usize = 40;
const CHURN_ROUNDS: u32 = 12;

/// Yew's reconciling functions and the markdown renderer, run as often as
/// a large file's first screens run them, in a detached element (never
/// laid out or painted): the drawing above runs them on one screen only,
/// and V8 then optimised them during the first pick (on a 2-core machine,
/// 70-85 ms of compiling for Yew's; 140-230 ms for the renderer, the
/// largest function the first rows run, with the parser inlined).
async fn churn() -> Result<(), String> {
    let doc = web_sys::window().and_then(|w| w.document()).ok_or("no document")?;
    let root = doc.create_element("div").map_err(|e| format!("{e:?}"))?;
    let mut app = yew::Renderer::<Churn>::with_root_and_props(root, ChurnProps { round: 0 }).render();
    for round in 1..=CHURN_ROUNDS {
        yield_to_page().await;
        if STOPPED.with(Cell::get) {
            break;
        }
        app.update(ChurnProps { round });
    }
    yield_to_page().await;
    app.destroy();
    Ok(())
}

/// Every construct the markdown renderer handles, for [`churn`].
const MARKDOWN: &str = "## Plan\n\nThe **build** fails because `parse()` returns *None* when the input is ~~empty~~ blank; see \
[the docs](https://example.com/docs) and <https://example.com>.\n\n1. Read `src/index/mod.rs`\n2. Fix the carry\n   - keep `\\r`\n   \
- test 1-byte chunks\n\n> Quoted: a line  \nwith a hard break.\n\n```rust\nfn main() {\n    println!(\"hi\");\n}\n```\n\n\
| file | lines |\n| --- | ---: |\n| a.rs | 12 |\n| b.rs | 340 |\n\n---\n\n### Done\n\nAll tests pass.\n";

/// Draws [`scripts_records`] and then the sample into `root` until its
/// items have their bodies, then unmounts it.
async fn draw(root: &HtmlElement) -> Result<(), JsValue> {
    let mut bytes = scripts_records().into_bytes();
    bytes.extend_from_slice(SAMPLE);
    let blob = Blob::new_with_u8_array_sequence(&Array::of1(&Uint8Array::from(&bytes[..])))?;
    let index = Indexer::index_bytes(&bytes);
    if index.malformed_lines > 0 {
        return Err("its records are malformed".into());
    }
    let timing = Timing { elapsed_ms: 0.0, index_ms: 0.0, wait_ms: 0.0, worker_memory_bytes: None };
    // Half of it as the file's head: bodies come both from the head and from
    // `Blob.slice` reads, as in a large file.
    let head = Rc::from(&bytes[..bytes.len() / 2]);
    let l = Rc::new(loaded("sample.jsonl", bytes.len() as u64, &blob, index, head, timing));
    let props = Props { loaded: Shared(l.clone()), view: Shared(l.view.clone()), partial: false, rehearsal: true };
    let app = yew::Renderer::<Viewer>::with_root_and_props(root.clone().into(), props).render();
    // Until the items have their bodies (or long enough), a turn at a time.
    let started = super::now_ms();
    loop {
        yield_to_page().await;
        gloo::timers::future::TimeoutFuture::new(16).await;
        let items = root.query_selector_all("article.item")?.length();
        let waiting = root.query_selector(".pending")?.is_some();
        if (items > 0 && !waiting) || super::now_ms() - started > BODIES_WAIT_MS || STOPPED.with(Cell::get) {
            break;
        }
    }
    // Force the layout the draw would need, then take it all down.
    let _ = root.get_bounding_client_rect();
    app.destroy();
    Ok(())
}
