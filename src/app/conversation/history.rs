//! "File history", in the insights of a conversation picked with its
//! `~/.claude`: each file Claude Code tracked (`model::checkpoints`), and a
//! stepper through its versions, each shown as the diff from the one
//! before. A backup is read only when its version is shown; redaction
//! applies to it as to the rest of the page.

use std::rc::Rc;

use yew::prelude::*;

use super::diff::diff_view;
use super::in_folder::InFolder;
use crate::app::ctx::Ctx;
use crate::app::shared::Shared;
use crate::fmt;
use crate::model::checkpoints::{session_ids, snapshot_rows, tracked, Tracked};
use crate::model::diff::hunks;
use crate::model::tools::DiffLine;

/// Lines of a version's diff drawn before the rest is counted.
const DIFF_LINES: usize = 400;

#[derive(Properties, PartialEq)]
pub struct Props {
    pub ctx: Shared<Ctx>,
    pub on_goto: Callback<u32>,
}

#[function_component(FileHistory)]
pub fn file_history(p: &Props) -> Html {
    let in_folder = use_context::<InFolder>().filter(|f| f.run.is_none());
    let files = use_state(|| None::<Rc<Vec<Shared<Tracked>>>>);
    // The sessions whose backups were picked beside this conversation.
    let sessions = use_memo((p.ctx.clone(), in_folder.clone()), |(ctx, f)| {
        let Some(f) = f else { return Vec::new() };
        let path = f.folder.tree.conversations.get(f.conv as usize).map(|c| c.path.clone()).unwrap_or_default();
        let stem = path.rsplit('/').next().unwrap_or("").trim_end_matches(".jsonl").to_string();
        session_ids(ctx.ix(), &stem).into_iter().filter(|s| f.folder.tree.has_backups(f.conv, s)).collect::<Vec<String>>()
    });
    {
        let (files, sessions) = (files.clone(), sessions.clone());
        use_effect_with(p.ctx.clone(), move |ctx| {
            if sessions.is_empty() {
                return;
            }
            let ctx = ctx.clone();
            yew::platform::spawn_local(async move {
                let rows = snapshot_rows(ctx.ix());
                let bodies = crate::app::bodies::fetch_map(&ctx, &rows).await;
                files.set(Some(Rc::new(tracked(ctx.ix(), &rows, &bodies).into_iter().map(Shared::new).collect())));
            });
        });
    }
    let (Some(f), false) = (in_folder, sessions.is_empty()) else { return html! {} };
    let sessions = Rc::new(sessions.to_vec());
    html! {
        <div class="card" data-testid="file-history">
            <h3>{ "File history" }</h3>
            <p class="small">{ "Claude Code's own backups (file-history/), one per checkpoint: step through a file to see what each one changed." }</p>
            { match files.as_deref() {
                None => html! { <p class="muted">{ "Reading the checkpoints…" }</p> },
                Some(list) if list.is_empty() => html! { <p class="muted">{ "No checkpoint names a file." }</p> },
                Some(list) => html! { <ul class="files">{ for list.iter().map(|t| html! {
                    <Stepper ctx={p.ctx.clone()} folder={f.clone()} sessions={sessions.clone()} file={t.clone()} on_goto={p.on_goto.clone()} />
                }) }</ul> },
            } }
        </div>
    }
}

#[derive(Properties, PartialEq)]
struct StepperProps {
    ctx: Shared<Ctx>,
    folder: InFolder,
    sessions: Rc<Vec<String>>,
    file: Shared<Tracked>,
    on_goto: Callback<u32>,
}

/// What one version shows: its diff from the version before, or why not.
type Shown = Result<Vec<DiffLine>, String>;

/// Reads backup `name` (of any of `sessions`) as text, redacted as the page is.
async fn backup_text(f: &InFolder, sessions: &[String], name: Option<&str>, red: &crate::app::redact::Redaction) -> Result<String, String> {
    let Some(name) = name else { return Ok(String::new()) };
    let entry = sessions.iter().find_map(|s| f.folder.tree.backup(f.conv, s, name)).ok_or_else(|| format!("the backup {name} was not picked"))?;
    let (_, blob) = f.blob(entry).ok_or_else(|| format!("the backup {name} is not at hand"))?;
    let bytes = crate::app::blob::read_all(&blob).await.map_err(|e| format!("the backup {name} could not be read ({e})"))?;
    Ok(red.text(&String::from_utf8_lossy(&bytes)))
}

#[function_component(Stepper)]
fn stepper(p: &StepperProps) -> Html {
    let open = use_state(|| false);
    let n = p.file.versions.len();
    // The version shown (from the second: the first is where it started).
    let at = use_state(|| n.saturating_sub(1).min(1));
    let shown = use_state(|| None::<(usize, Shown)>);
    let red = crate::app::redact::use_redaction();
    {
        let (shown, f, sessions, file, red) = (shown.clone(), p.folder.clone(), p.sessions.clone(), p.file.clone(), red.clone());
        use_effect_with((*open, *at, red.on), move |&(open, at, _)| {
            if open {
                yew::platform::spawn_local(async move {
                    let before = match at.checked_sub(1) {
                        Some(k) => backup_text(&f, &sessions, file.versions[k].backup.as_deref(), &red).await,
                        None => Ok(String::new()),
                    };
                    let now = backup_text(&f, &sessions, file.versions[at].backup.as_deref(), &red).await;
                    shown.set(Some((at, before.and_then(|b| now.map(|n| hunks(&b, &n, 3))))));
                });
            }
        });
    }
    let step = |d: isize| {
        let at = at.clone();
        Callback::from(move |_: MouseEvent| at.set((*at as isize + d).clamp(0, n as isize - 1) as usize))
    };
    let toggle = {
        let open = open.clone();
        Callback::from(move |_: MouseEvent| open.set(!*open))
    };
    let v = &p.file.versions[*at];
    let item = p.ctx.item_of(v.row);
    let goto = {
        let on_goto = p.on_goto.clone();
        Callback::from(move |_: MouseEvent| if let Some(i) = item { on_goto.emit(i) })
    };
    let what = match (&v.backup, *at) {
        (None, _) => "the file did not exist yet".to_string(),
        (Some(_), 0) => "as first backed up".to_string(),
        (Some(_), _) => format!("changes since version {}", *at),
    };
    html! {
        <li class="changed-file" data-testid="tracked-file" data-path={p.file.path.clone()} data-versions={n.to_string()}>
            <button class="file-head" aria-expanded={open.to_string()} onclick={toggle}>
                <code class="path">{ p.file.path.clone() }</code>
                <span class="muted">{ fmt::plural(n as u64, "version", "versions") }</span>
            </button>
            if *open {
                <div class="change" data-testid="version" data-at={(*at + 1).to_string()}>
                    <p class="small stepper">
                        <button class="button small" data-testid="version-earlier" disabled={*at == 0} onclick={step(-1)}>{ "← Earlier" }</button>
                        <span data-testid="version-words">{ format!(" Version {} of {n} · {what} · ", *at + 1) }</span>
                        <button class="link" onclick={goto}>{ format!("checkpoint on line {}", v.line) }</button>
                        { " " }
                        <button class="button small" data-testid="version-later" disabled={*at + 1 >= n} onclick={step(1)}>{ "Later →" }</button>
                    </p>
                    { match shown.as_ref().filter(|(k, _)| *k == *at) {
                        None => html! { <p class="muted small">{ "Reading the backups…" }</p> },
                        Some((_, Err(why))) => html! { <p class="notice warn small" data-testid="version-missing">{ why.clone() }</p> },
                        Some((_, Ok(d))) if d.is_empty() => html! { <p class="muted small">{ "No line changed." }</p> },
                        Some((_, Ok(d))) => diff_view(d, DIFF_LINES, "the backup file holds them"),
                    } }
                </div>
            }
        </li>
    }
}
