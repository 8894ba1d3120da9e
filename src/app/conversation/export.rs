//! The export menu: the whole conversation, what the filter shows, or the
//! current item, as Markdown or JSON (`model::export`, the code behind
//! `ccscope export`), downloaded through a `blob:` URL or copied. In a
//! folder, subagent runs nest under the calls that spawned them. The rows
//! it needs are read back from the file in batches, yielding to the page
//! between them; redaction applies when it is on.

use std::collections::HashMap;
use std::rc::Rc;

use wasm_bindgen::JsCast;
use yew::prelude::*;

use crate::app::blob::read_all;
use crate::app::bodies;
use crate::app::ctx::Ctx;
use crate::app::redact::Redaction;
use crate::app::shared::Shared;
use crate::app::task::yield_to_page;
use crate::fmt;
use crate::model::body::Body;
use crate::model::export::{Export, Format, Nested};
use crate::model::title;
use crate::model::items::Filter;

/// Rows read per batch.
const BATCH_ROWS: usize = 400;

#[derive(Clone, Copy, PartialEq, Eq)]
enum Scope {
    Whole,
    Filtered,
    Current,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Out {
    Download(Format),
    Copy,
}

#[derive(Properties, PartialEq)]
pub struct Props {
    pub ctx: Shared<Ctx>,
    pub visible: Shared<Vec<u32>>,
    pub current: Option<u32>,
}

/// Hands `text` to the person as a file called `name`.
fn download(name: &str, text: &str, mime: &str) -> Result<(), String> {
    let parts = js_sys::Array::of1(&text.into());
    let opts = web_sys::BlobPropertyBag::new();
    opts.set_type(mime);
    let blob = web_sys::Blob::new_with_str_sequence_and_options(&parts, &opts).map_err(|e| format!("{e:?}"))?;
    let url = web_sys::Url::create_object_url_with_blob(&blob).map_err(|e| format!("{e:?}"))?;
    let doc = web_sys::window().and_then(|w| w.document()).ok_or("no document")?;
    let a: web_sys::HtmlAnchorElement = doc.create_element("a").map_err(|e| format!("{e:?}"))?.unchecked_into();
    a.set_href(&url);
    a.set_download(name);
    a.click();
    let _ = web_sys::Url::revoke_object_url(&url);
    Ok(())
}

/// The runs of this conversation (in a folder), each exported whole, to
/// nest under their calls; `ccscope export` nests the same ones (the runs
/// under `<id>/subagents/`, linked to a call).
async fn nested_runs(in_folder: Option<&super::in_folder::InFolder>, redaction: Option<&Redaction>) -> Vec<Nested> {
    let mut out = Vec::new();
    // (A run opened as a transcript: `ccscope export` of its file nests nothing.)
    for l in in_folder.filter(|f| f.run.is_none()).and_then(|f| f.all_runs()).unwrap_or(&[]).iter().filter(|l| !l.legacy) {
        let (Some(f), Some(tool_use_id)) = (in_folder, l.link.tool_use_id.as_deref()) else { continue };
        let Some((_, blob)) = f.blob(l.run.entry) else { continue };
        if let Ok(bytes) = read_all(&blob).await {
            let redactor = redaction.and_then(Redaction::active);
            out.push(Nested::build_with(&l.run.agent_id, tool_use_id, &bytes, |b| {
                if let Some(r) = &redactor {
                    bodies::redact(b, &mut r.borrow_mut());
                }
            }));
        }
        yield_to_page().await;
    }
    out
}

async fn run(ctx: Shared<Ctx>, items: Vec<u32>, scope: String, out: Out, redaction: Option<Redaction>, in_folder: Option<super::in_folder::InFolder>, status: UseStateHandle<String>) {
    let ix = ctx.ix();
    let view = &ctx.view;
    let rows = crate::model::export::rows_needed(ix, view, &items, &ctx.doc.title);
    let mut bodies: HashMap<u32, Rc<Body>> = HashMap::with_capacity(rows.len());
    for (k, batch) in rows.chunks(BATCH_ROWS).enumerate() {
        status.set(format!("reading {}%…", (k * BATCH_ROWS * 100 / rows.len().max(1)).min(100)));
        for (r, b) in bodies::fetch(&ctx, batch).await {
            if let Some(b) = b {
                bodies.insert(r, b);
            }
        }
        yield_to_page().await;
    }
    let title = title::resolve(&ctx.doc.title, |r| bodies.get(&r).cloned());
    let nested = nested_runs(in_folder.as_ref(), redaction.as_ref()).await;
    let e = Export { ix, view, stats: &ctx.doc.stats, facts: &ctx.doc.facts, name: &ctx.doc.name, title: title.as_ref(), items: &items, scope: &scope, nested: &nested, depth: 0 };
    let format = match out {
        Out::Download(f) => f,
        Out::Copy => Format::Markdown,
    };
    // The bodies were redacted whole as they were read; what the index
    // adds (tool names, the file's name) is redacted once more with the rest.
    let mut text = e.render(format, |r| bodies.get(&r).cloned());
    if let Some(r) = redaction.as_ref().filter(|r| r.on) {
        text = r.text(&text);
    }
    let stem = ctx.doc.name.strip_suffix(".jsonl").unwrap_or(&ctx.doc.name).to_string();
    let done = match out {
        Out::Download(f) => {
            let name = match &redaction {
                Some(r) => r.file_name(&stem, f.extension()),
                None => format!("{stem}.{}", f.extension()),
            };
            let mime = if f == Format::Json { "application/json" } else { "text/markdown" };
            download(&name, &text, mime).map(|_| format!("saved {name} ({})", fmt::bytes(text.len() as u64)))
        }
        Out::Copy => match web_sys::window().map(|w| w.navigator().clipboard()) {
            Some(c) => wasm_bindgen_futures::JsFuture::from(c.write_text(&text)).await.map(|_| format!("copied ({})", fmt::bytes(text.len() as u64))).map_err(|_| "the browser refused the clipboard".to_string()),
            None => Err("no clipboard here".into()),
        },
    };
    status.set(done.unwrap_or_else(|why| format!("export failed: {why}")));
}

#[function_component(ExportMenu)]
pub fn export_menu(p: &Props) -> Html {
    let scope = use_state(|| Scope::Whole);
    let status = use_state(String::new);
    let redaction = use_context::<Redaction>();
    let in_folder = use_context::<super::in_folder::InFolder>();
    let go = |out: Out| {
        let (ctx, visible, current, scope, status, redaction, in_folder) = (p.ctx.clone(), p.visible.clone(), p.current, *scope, status.clone(), redaction.clone(), in_folder.clone());
        Callback::from(move |_: MouseEvent| {
            let ix = ctx.ix();
            let (items, words) = match scope {
                Scope::Whole => (Filter::default().apply(ix, &ctx.view), "the whole conversation".to_string()),
                Scope::Filtered => (visible.0.to_vec(), format!("{} the filter shows", fmt::plural(visible.len() as u64, "item", "items"))),
                Scope::Current => (current.into_iter().collect(), "one item".to_string()),
            };
            if items.is_empty() {
                status.set("nothing to export: pick an item first".into());
                return;
            }
            status.set("reading…".into());
            yew::platform::spawn_local(run(ctx.clone(), items, words, out, redaction.clone(), in_folder.clone(), status.clone()));
        })
    };
    let pick = |s: Scope| {
        let scope = scope.clone();
        Callback::from(move |_: Event| scope.set(s))
    };
    html! {
        <details class="export-menu" data-testid="export">
            <summary class="button">{ "Export" }</summary>
            <div class="export-panel card" role="group" aria-label="Export">
                <fieldset>
                    <legend>{ "What" }</legend>
                    <label><input type="radio" name="export-scope" checked={*scope == Scope::Whole} onchange={pick(Scope::Whole)} data-testid="export-whole" />{ " The whole conversation" }</label>
                    <label><input type="radio" name="export-scope" checked={*scope == Scope::Filtered} onchange={pick(Scope::Filtered)} data-testid="export-filtered" />
                        { format!(" What the filter shows ({})", fmt::count(p.visible.len() as u64)) }</label>
                    <label><input type="radio" name="export-scope" checked={*scope == Scope::Current} onchange={pick(Scope::Current)} disabled={p.current.is_none()} data-testid="export-current" />
                        { " The current item" }</label>
                </fieldset>
                <div class="actions">
                    <button class="button" onclick={go(Out::Download(Format::Markdown))} data-testid="export-md">{ "Markdown ↓" }</button>
                    <button class="button" onclick={go(Out::Download(Format::Json))} data-testid="export-json">{ "JSON ↓" }</button>
                    <button class="button" onclick={go(Out::Copy)} data-testid="export-copy">{ "Copy Markdown" }</button>
                </div>
                <p class="muted small" role="status" aria-live="polite" data-testid="export-status">{ (*status).clone() }</p>
                <p class="muted small">{ "Made in this browser; nothing is sent anywhere. With redaction on, the export is redacted too." }</p>
            </div>
        </details>
    }
}
