//! The session list: one row per conversation, a column per fact, sorted
//! by any column. Names, sizes and dates show at once; the facts fill in as
//! the worker sums each conversation up.

use gloo::events::{EventListener, EventListenerOptions};
use wasm_bindgen::JsCast;
use yew::prelude::*;

use crate::app::redact::use_redaction;
use crate::app::shared::Shared;
use crate::fmt;
use crate::folder::SessionFacts;
use crate::state::browser::{row_step, Browser, Column, ListUi, Slot};

/// Rows drawn before "Show all" (a picked home directory can hold thousands).
pub const FIRST_ROWS: usize = 500;
/// Rows drawn in the first frame, and added in each frame after it: the
/// list is on screen at once and no task draws hundreds of rows.
const ROWS_PER_FRAME: usize = 60;

/// What a view of the session list takes: this table, and the dashboard
/// over the same rows.
#[derive(Properties, PartialEq)]
pub struct ListProps {
    pub folder: Shared<Browser>,
    /// The conversations the list shows.
    pub rows: Shared<Vec<u32>>,
    pub on_list: Callback<ListUi>,
    /// A conversation was chosen.
    pub on_open: Callback<u32>,
}

/// A fact of a summed-up conversation, or how far it got.
fn cell<T: Into<Html>>(slot: &Slot, f: impl Fn(&SessionFacts) -> T) -> Html {
    match slot {
        Slot::Ready(facts) => f(facts).into(),
        Slot::Pending => html! { <span class="muted" aria-label="not read yet">{ "…" }</span> },
        Slot::Failed(_) => html! { <span class="muted">{ fmt::MISSING }</span> },
    }
}

fn value(slot: &Slot, size_bytes: u64, col: Column) -> Html {
    let tokens = |f: &SessionFacts, n: u64| fmt::or_missing(f.has_usage.then(|| fmt::tokens(n)), "no usage");
    // A date and its time, each kept whole: a narrow column breaks between them.
    let time = |t: Option<i64>| {
        t.map_or_else(|| html! { fmt::MISSING }, |ms| {
            let at = fmt::utc_minute(ms);
            let (day, minute) = at.split_once(' ').unwrap_or((at.as_str(), ""));
            html! { <><span class="nowrap">{ day }</span>{ " " }<span class="nowrap">{ minute }</span></> }
        })
    };
    match col {
        Column::Title | Column::Project => html! {},
        Column::Size => html! { fmt::bytes(size_bytes) },
        Column::First => cell(slot, |f| time(f.first_ms)),
        Column::Last => cell(slot, |f| time(f.last_ms)),
        Column::Active => cell(slot, |f| f.active_ms.map_or_else(|| fmt::MISSING.to_string(), fmt::duration_ms)),
        Column::Turns => cell(slot, |f| fmt::count(f.line.stats.assistant_messages)),
        Column::Tools => cell(slot, |f| fmt::count(f.line.stats.tool_calls)),
        Column::Failures => cell(slot, |f| fmt::count(f.line.stats.failed_steps)),
        Column::Subagents => cell(slot, |f| fmt::count(f.runs.len() as u64)),
        Column::Compactions => cell(slot, |f| fmt::count(f.line.stats.compactions)),
        Column::Peak => cell(slot, |f| tokens(f, f.line.stats.peak_context_tokens)),
        Column::Output => cell(slot, |f| tokens(f, f.line.stats.output_tokens)),
    }
}

#[derive(Properties, PartialEq)]
struct RowProps {
    conv: u32,
    /// The path as shown (redacted when on) and the link to the conversation.
    path: AttrValue,
    href: AttrValue,
    /// The title as shown (redacted whole when on; cut by CSS only).
    title: Option<AttrValue>,
    slot: Slot,
    size_bytes: u64,
    deleted: bool,
    project_dir: AttrValue,
    on_open: Callback<u32>,
}

/// One conversation: its title (user content, as text), file, models and
/// clients, what is known of it so far, and a cell per fact. Redrawn only
/// when its own summary arrives.
#[function_component(SessionRow)]
fn session_row(p: &RowProps) -> Html {
    let red = use_redaction();
    let file = crate::fmt::file_name(&p.path).to_string();
    let (text, note): (String, Html) = match &p.slot {
        Slot::Ready(f) if !f.problems.is_empty() => (
            p.title.as_ref().map_or_else(|| file.clone(), |t| t.to_string()),
            html! { <span class="bad small" data-testid="problems">{ red.text(&f.problems.join("; ")) }</span> },
        ),
        Slot::Ready(f) => match (&p.title, &f.not_a_transcript) {
            (_, Some(why)) => (file.clone(), html! { <span class="muted small" data-testid="not-transcript">{ why.clone() }</span> }),
            (Some(t), None) => (t.to_string(), html! {}),
            (None, None) => (file.clone(), html! { <span class="muted small">{ "no prompt" }</span> }),
        },
        Slot::Pending => (file.clone(), html! { <span class="muted small">{ "reading…" }</span> }),
        Slot::Failed(why) => (file.clone(), html! { <span class="bad small" data-testid="unreadable">{ format!("could not be read: {why}") }</span> }),
    };
    let facts = p.slot.facts();
    let deleted = p.deleted.then(|| {
        // The marker's `releasedAt`, as every time on the page (UTC, to the minute).
        let at = facts
            .and_then(|f| f.line.deleted_at.as_deref())
            .map(|iso| crate::index::time::parse_rfc3339_ms(iso.as_bytes()).map_or_else(|| iso.to_string(), |ms| format!("{} UTC", fmt::utc_minute(ms))))
            .unwrap_or_else(|| "an unknown date".into());
        html! { <span class="chip warn" data-testid="deleted">{ format!("deleted in the desktop app on {at}") }</span> }
    });
    let open = {
        let (on_open, conv) = (p.on_open.clone(), p.conv);
        Callback::from(move |e: MouseEvent| {
            e.prevent_default();
            on_open.emit(conv)
        })
    };
    html! {
        <tr data-path={p.path.clone()} class={classes!(p.deleted.then_some("deleted"))}>
            <td class="title-cell">
                <a href={p.href.clone()} onclick={open}>
                    <div class="conv-title">
                        <span class="title-text" data-testid="conv-title">{ text }</span>
                        { for deleted }
                        { note }
                        <div class="conv-meta muted small">
                            <code>{ file }</code>
                            { for facts.into_iter().flat_map(|f| f.models.iter()).map(|m| html! { <span class="chip">{ m.clone() }</span> }) }
                            { for facts.into_iter().flat_map(|f| f.line.stats.entrypoints.iter()).map(|e| html! { <span class="chip client">{ e.clone() }</span> }) }
                        </div>
                    </div>
                </a>
            </td>
            <td class="project-cell" title={p.project_dir.clone()}>{ p.project_dir.clone() }</td>
            { for Column::ALL[2..].iter().map(|&col| html! { <td class="num" data-col={format!("{col:?}")}>{ value(&p.slot, p.size_bytes, col) }</td> }) }
        </tr>
    }
}

#[function_component(SessionTable)]
pub fn session_table(p: &ListProps) -> Html {
    let all = use_state(|| false);
    let drawn = use_state(|| ROWS_PER_FRAME);
    let wanted = if *all { p.rows.len() } else { p.rows.len().min(FIRST_ROWS) };
    {
        let drawn = drawn.clone();
        use_effect_with((*drawn, wanted), move |&(now, wanted)| {
            if now < wanted {
                yew::platform::spawn_local(async move {
                    crate::app::task::yield_to_page().await;
                    drawn.set(now + ROWS_PER_FRAME);
                });
            }
        });
    }
    use_row_keys();
    let folder = &p.folder;
    let red = use_redaction();
    let list = &folder.list;
    let header = |col: Column| {
        let (on_list, now) = (p.on_list.clone(), list.clone());
        let onclick = Callback::from(move |_: MouseEvent| {
            let descending = if now.sort == col { !now.descending } else { !matches!(col, Column::Title | Column::Project) };
            on_list.emit(ListUi { sort: col, descending, ..now.clone() });
        });
        let sorted = (list.sort == col).then_some(if list.descending { "descending" } else { "ascending" });
        let arrow = match sorted {
            Some("descending") => " ↓",
            Some(_) => " ↑",
            None => "",
        };
        html! {
            <th aria-sort={sorted.unwrap_or("none")} class={classes!((col != Column::Title && col != Column::Project).then_some("num"))}>
                <button class="sort" {onclick} data-sort={format!("{col:?}")}>{ format!("{}{arrow}", col.label()) }</button>
            </th>
        }
    };
    let shown = wanted.min(*drawn);
    // Each project's label once, not once per row.
    let labels: Vec<AttrValue> = (0..folder.tree.projects.len() as u32).map(|k| AttrValue::from(red.text(&folder.project_dir(k)))).collect();
    let show_all = {
        let all = all.clone();
        Callback::from(move |_: MouseEvent| all.set(true))
    };
    html! {
        <div class="table-wrap sessions-wrap">
            <table class="sessions" data-testid="sessions" data-count={p.rows.len().to_string()}>
                <thead><tr>{ for Column::ALL.iter().map(|&c| header(c)) }</tr></thead>
                <tbody>
                    { for p.rows[..shown].iter().map(|&c| {
                        let conv = &folder.tree.conversations[c as usize];
                        let href = format!("#{}", crate::app::address::of(&conv.path, conv.entry, red.on, None));
                        let title = folder.facts(c).and_then(|f| f.line.title.as_deref()).map(|t| AttrValue::from(red.text(t)));
                        html! {
                            <SessionRow key={conv.path.clone()} conv={c} path={AttrValue::from(red.text(&conv.path))} {href} {title} slot={folder.slots[c as usize].clone()}
                                size_bytes={folder.tree.entry(conv.entry).size_bytes} deleted={conv.released.is_some()}
                                project_dir={labels[conv.project as usize].clone()} on_open={p.on_open.clone()} />
                        }
                    }) }
                </tbody>
            </table>
            if wanted < p.rows.len() {
                <button class="link-button" onclick={show_all}>{ format!("Show all {}", fmt::plural(p.rows.len() as u64, "conversation", "conversations")) }</button>
            }
        </div>
    }
}

/// The rows' links, on screen (the list is kept, hidden, under an open conversation).
pub const ROW_LINKS: &str = ".browser-slot:not([hidden]) table.sessions tbody td.title-cell > a";

/// `j`/`k` (and the arrows) move the focus from row to row
/// (`state::browser::row_step`); Enter on a focused row opens it.
#[hook]
fn use_row_keys() {
    use_effect_with((), |_| {
        let listener = web_sys::window().and_then(|w| w.document()).map(|doc| {
            let d = doc.clone();
            // Not passive: a handled key must not also scroll the page.
            EventListener::new_with_options(&doc, "keydown", EventListenerOptions::enable_prevent_default(), move |e| {
                let Some(e) = e.dyn_ref::<web_sys::KeyboardEvent>() else { return };
                let typing = e.target().and_then(|t| t.dyn_into::<web_sys::Element>().ok()).is_some_and(|el| matches!(el.tag_name().as_str(), "INPUT" | "SELECT" | "TEXTAREA"));
                if typing || e.ctrl_key() || e.meta_key() || e.alt_key() {
                    return;
                }
                let Ok(links) = d.query_selector_all(ROW_LINKS) else { return };
                let active = d.active_element();
                let at = (0..links.length()).find(|&i| links.get(i).as_ref() == active.as_ref().map(|a| a.as_ref()));
                let Some(k) = row_step(&e.key(), at.map(|i| i as usize), links.length() as usize) else { return };
                if let Some(link) = links.get(k as u32).and_then(|l| l.dyn_into::<web_sys::HtmlElement>().ok()) {
                    e.prevent_default();
                    let _ = link.focus();
                }
            })
        });
        move || drop(listener)
    });
}
