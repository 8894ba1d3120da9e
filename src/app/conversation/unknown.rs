//! What this file holds that ccscope does not understand
//! (`model::record::not_understood`): one line in the header, and in the
//! insights the full list — each kind with its count, writer versions and
//! first line (a way to it), and a button that copies that line as a
//! redacted example to file a bug with.

use std::rc::Rc;

use yew::prelude::*;

use crate::app::ctx::Ctx;
use crate::app::shared::Shared;
use crate::fmt;
use crate::model::record::{not_understood, Unknown};

/// The kinds not understood in the document, computed once per document.
#[hook]
pub fn use_unknown(ctx: &Shared<Ctx>) -> Rc<Vec<Unknown>> {
    let ix_of = Shared(ctx.doc.clone());
    let ctx = ctx.clone();
    (*use_memo(ix_of, move |_| Rc::new(not_understood(ctx.ix())))).clone()
}

/// "record type frame-link". A name is the writer's own constant, but a
/// hostile file can put anything there: it is redacted like the rest.
fn name(ctx: &Ctx, u: &Unknown) -> String {
    match &u.name {
        Some(n) => format!("{} {}", u.level.words(), ctx.index_text(n)),
        None => format!("{} of a type not known", u.level.words()),
    }
}

/// The header's line: how many kinds, each a link to its first line.
pub fn brief(ctx: &Ctx, unknown: &[Unknown]) -> Html {
    if unknown.is_empty() {
        return html! {};
    }
    let n = unknown.len() as u64;
    html! {
        <p class="notice small" data-testid="unknown-brief" data-kinds={n.to_string()}>
            { format!("{} not understood, shown as plain rows (the insights list them): ", fmt::plural(n, "kind of record", "kinds of record")) }
            { for unknown.iter().take(4).map(|u| html! {
                <a href={ctx.line_href(u.first_line)}>{ format!("{} ×{} ", name(ctx, u), u.count) }</a>
            }) }
        </p>
    }
}

#[derive(Properties, PartialEq)]
pub struct Props {
    pub ctx: Shared<Ctx>,
    pub on_goto: Callback<u32>,
}

/// The insights card.
#[function_component(NotUnderstood)]
pub fn not_understood_card(p: &Props) -> Html {
    let unknown = use_unknown(&p.ctx);
    let copied = use_state(|| None::<(u32, String)>);
    let red = crate::app::redact::use_redaction();
    if unknown.is_empty() {
        return html! {};
    }
    let ctx = &p.ctx;
    html! {
        <div class="card" data-testid="not-understood">
            <h3>{ "Not understood" }</h3>
            <p class="small">{ "Kinds of record and of block this ccscope has no handling for: a record shows as a plain row, a block by its type. A newer Claude Code writes them; \
                a bug report with one example helps." }</p>
            <div class="table-wrap"><table class="figures">
                <thead><tr><th>{ "Kind" }</th><th class="num">{ "Count" }</th><th>{ "Versions" }</th><th>{ "First" }</th><th></th></tr></thead>
                <tbody>{ for unknown.iter().map(|u| {
                    let item = ctx.item_of(u.first_row);
                    let on_goto = p.on_goto.clone();
                    let goto = Callback::from(move |_: MouseEvent| if let Some(i) = item { on_goto.emit(i) });
                    let copy = {
                        let (ctx, copied, redactor, row) = (ctx.clone(), copied.clone(), red.redactor.clone(), u.first_row);
                        Callback::from(move |_: MouseEvent| {
                            let (ctx, copied, redactor) = (ctx.clone(), copied.clone(), redactor.clone());
                            yew::platform::spawn_local(async move {
                                let said = copy_example(&ctx, row, &redactor).await;
                                copied.set(Some((row, said)));
                            });
                        })
                    };
                    let note = copied.as_ref().filter(|(r, _)| *r == u.first_row).map(|(_, s)| s.clone());
                    let shown = u.name.as_deref().map(|n| ctx.index_text(n));
                    html! {
                        <tr data-testid="unknown-kind" data-level={format!("{:?}", u.level)} data-name={shown.clone()} data-count={u.count.to_string()} data-line={u.first_line.to_string()}>
                            <td>{ u.level.words() }{ " " }<code>{ shown.unwrap_or_else(|| "(see the line)".into()) }</code></td>
                            <td class="num">{ fmt::count(u.count) }</td>
                            <td class="small">{ if u.versions.is_empty() { fmt::MISSING.to_string() } else { format!("v{}", u.versions.join(", v")) } }</td>
                            <td><button class="link" onclick={goto}>{ format!("line {}", u.first_line) }</button></td>
                            <td><button class="link" data-testid="copy-example" onclick={copy}>{ "Copy an example (redacted)" }</button>
                                if let Some(n) = note { <span class="small muted" data-testid="copy-said">{ format!(" {n}") }</span> }</td>
                        </tr>
                    }
                }) }</tbody>
            </table></div>
        </div>
    }
}

/// Reads the row's line, redacts it whole (keys too, whatever the toggle
/// says) and puts it on the clipboard; says what happened.
async fn copy_example(ctx: &Ctx, row: u32, redactor: &Rc<std::cell::RefCell<crate::state::redact::Redactor>>) -> String {
    let r = &ctx.ix().rows[row as usize];
    let Ok(bytes) = crate::app::blob::read_range(&ctx.blob, r.offset, r.end_offset()).await else { return "the file could not be read again".into() };
    let Some(text) = crate::state::example::redacted_example(&bytes, &mut redactor.borrow_mut()) else { return "that line is not JSON".into() };
    let Some(clipboard) = web_sys::window().map(|w| w.navigator().clipboard()) else { return "no clipboard here".into() };
    match wasm_bindgen_futures::JsFuture::from(clipboard.write_text(&text)).await {
        Ok(_) => format!("copied ({})", fmt::bytes(text.len() as u64)),
        Err(_) => "the browser refused the clipboard".into(),
    }
}
