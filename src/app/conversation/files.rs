//! "Files changed", in the insights: every file the conversation's edit
//! calls touched (`model::changes`), read from the calls' and results'
//! lines when the panel opens. A file opens to its changes in order, each
//! a diff with a way to its place in the list; a file created here whose
//! steps all chain opens to its net change, the steps one click away.

use std::rc::Rc;

use yew::prelude::*;

use super::diff::diff_view;
use crate::app::ctx::Ctx;
use crate::app::shared::Shared;
use crate::fmt;
use crate::model::changes::{edit_calls, files_changed, rows_to_read, Change, FileChanges};

/// Lines of one diff drawn before the rest is counted.
const DIFF_LINES: usize = 300;

#[derive(Properties, PartialEq)]
pub struct Props {
    pub ctx: Shared<Ctx>,
    /// Shows an item of the list.
    pub on_goto: Callback<u32>,
}

/// "−3", or "−?" when a whole-file write replaced text the transcript
/// does not hold (absent, never 0).
fn removed_words(removed: Option<u64>) -> String {
    removed.map_or("−?".into(), |n| format!("−{}", fmt::count(n)))
}

#[function_component(FilesChanged)]
pub fn files_changed_card(p: &Props) -> Html {
    // None: still reading the calls.
    let files = use_state(|| None::<Rc<Vec<Shared<FileChanges>>>>);
    {
        let files = files.clone();
        use_effect_with(p.ctx.clone(), move |ctx| {
            let ctx = ctx.clone();
            yew::platform::spawn_local(async move {
                let edits = edit_calls(ctx.ix(), &ctx.view.calls);
                let rows = rows_to_read(ctx.ix(), &edits);
                let bodies = crate::app::bodies::fetch_map(&ctx, &rows).await;
                files.set(Some(Rc::new(files_changed(ctx.ix(), &edits, &bodies).into_iter().map(Shared::new).collect())));
            });
        });
    }
    let body = match files.as_deref() {
        None => html! { <p class="muted">{ "Reading the edits…" }</p> },
        Some(f) if f.is_empty() => html! { <p class="muted" data-testid="files-none">{ "No file was changed by an edit call." }</p> },
        Some(f) => {
            let changes: usize = f.iter().map(|f| f.changes.len()).sum();
            let failed: u64 = f.iter().map(|f| f.failed()).sum();
            let added: u64 = f.iter().map(|f| f.added()).sum();
            let removed: Option<u64> = f.iter().map(|f| f.removed()).sum();
            let mut words = format!("{} · {} · +{} {}", fmt::plural(f.len() as u64, "file", "files"), fmt::plural(changes as u64, "change", "changes"), fmt::count(added), removed_words(removed));
            if failed > 0 {
                words.push_str(&format!(" · {failed} failed"));
            }
            html! {
                <>
                    <p data-testid="files-summary">{ words }</p>
                    <ul class="files">{ for f.iter().map(|file| html! { <FileRow ctx={p.ctx.clone()} file={file.clone()} on_goto={p.on_goto.clone()} /> }) }</ul>
                </>
            }
        }
    };
    html! {
        <div class="card" data-testid="files-changed">
            <h3>{ "Files changed" }</h3>
            { body }
            <p class="muted small">{ "By Edit, MultiEdit, Write and NotebookEdit calls, paths relative to the working directory. \
                A file changed by a shell command is not listed: the transcript holds the command, not what it changed." }</p>
        </div>
    }
}

#[derive(Properties, PartialEq)]
struct RowProps {
    ctx: Shared<Ctx>,
    file: Shared<FileChanges>,
    on_goto: Callback<u32>,
}

#[function_component(FileRow)]
fn file_row(p: &RowProps) -> Html {
    let open = use_state(|| false);
    let steps = use_state(|| false);
    let f = &p.file;
    let toggle = {
        let open = open.clone();
        Callback::from(move |_: MouseEvent| open.set(!*open))
    };
    let flip = {
        let steps = steps.clone();
        Callback::from(move |_: MouseEvent| steps.set(!*steps))
    };
    let n = f.changes.len() as u64;
    let inside = match (&f.net, *steps) {
        (Some(net), false) => html! {
            <div class="change" data-testid="net-change">
                <p class="small">{ format!("Net change: created here, {} that all apply. ", fmt::plural(n, "step", "steps")) }
                    <button class="link" data-testid="show-steps" onclick={flip}>{ format!("Show the {}", fmt::plural(n, "step", "steps")) }</button></p>
                { diff_view(net, DIFF_LINES, "the steps hold every line") }
            </div>
        },
        (net, _) => html! {
            <>
                if net.is_some() {
                    <p class="small"><button class="link" data-testid="show-net" onclick={flip}>{ "Show the net change" }</button></p>
                }
                { for f.changes.iter().map(|c| change_view(&p.ctx, c, &p.on_goto)) }
            </>
        },
    };
    html! {
        <li class="changed-file" data-testid="changed-file" data-path={f.shown.clone()} data-changes={n.to_string()} data-added={f.added().to_string()}
            data-removed={f.removed().map(|r| r.to_string())} data-failed={f.failed().to_string()}>
            <button class="file-head" aria-expanded={open.to_string()} onclick={toggle} title={f.path.clone()}>
                <code class="path">{ f.shown.clone() }</code>
                <span class="add-count">{ format!("+{}", fmt::count(f.added())) }</span>
                <span class="del-count" title={f.removed().is_none().then_some("a whole-file write replaced text the transcript does not hold")}>{ removed_words(f.removed()) }</span>
                <span class="muted">{ fmt::plural(n, "change", "changes") }</span>
                if f.created() { <span class="badge">{ "created" }</span> }
                if f.failed() > 0 { <span class="badge fail">{ format!("{} failed", f.failed()) }</span> }
            </button>
            if *open { { inside } }
        </li>
    }
}

/// One change: its tool, its place (a link), its counts and its diff.
fn change_view(ctx: &Ctx, c: &Change, on_goto: &Callback<u32>) -> Html {
    let item = ctx.item_of(c.row);
    let goto = {
        let on_goto = on_goto.clone();
        Callback::from(move |_: MouseEvent| {
            if let Some(i) = item {
                on_goto.emit(i)
            }
        })
    };
    html! {
        <div class={classes!("change", c.failed.then_some("failed"))} data-testid="change" data-line={c.line.to_string()}>
            <p class="small">
                <button class="link" data-testid="change-line" onclick={goto}>{ format!("{} · line {}", c.tool, c.line) }</button>
                { format!(" +{} {}", fmt::count(c.added), removed_words(c.removed)) }
                if c.created { <span class="badge">{ "created" }</span> }
                if c.failed { <span class="badge fail">{ "failed: the file may not hold this" }</span> }
            </p>
            { diff_view(&c.diff, DIFF_LINES, "the call itself is in the list") }
        </div>
    }
}
