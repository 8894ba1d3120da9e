//! "Plans", in the insights of a conversation picked with its `~/.claude`:
//! the plan files plan mode wrote (`model::plans`), each opened on demand
//! and shown as Markdown, redacted as the page is. A plan named but not
//! picked is said so.

use std::rc::Rc;

use yew::prelude::*;

use super::in_folder::InFolder;
use crate::app::ctx::Ctx;
use crate::app::shared::Shared;
use crate::model::plans::{plan_files, plan_rows};

#[derive(Properties, PartialEq)]
pub struct Props {
    pub ctx: Shared<Ctx>,
}

#[function_component(PlanFiles)]
pub fn plan_files_card(p: &Props) -> Html {
    let in_folder = use_context::<InFolder>().filter(|f| f.run.is_none() && !f.folder.tree.plans.is_empty());
    let named = use_state(|| None::<Rc<Vec<(String, u32)>>>);
    {
        let (named, has_home) = (named.clone(), in_folder.is_some());
        use_effect_with(p.ctx.clone(), move |ctx| {
            let rows = plan_rows(ctx.ix());
            if !has_home || rows.is_empty() {
                return;
            }
            let ctx = ctx.clone();
            yew::platform::spawn_local(async move {
                // As written: the names are matched against plans/ (and redacted where shown).
                let bodies = crate::app::bodies::fetch_unredacted(&ctx, &rows).await;
                named.set(Some(Rc::new(plan_files(ctx.ix(), &rows, &bodies))));
            });
        });
    }
    let (Some(f), Some(named)) = (in_folder, (*named).clone()) else { return html! {} };
    if named.is_empty() {
        return html! {};
    }
    html! {
        <div class="card" data-testid="plan-files">
            <h3>{ "Plans" }</h3>
            <p class="small">{ "The plan files plan mode wrote (plans/), read when you open one." }</p>
            <ul class="files">{ for named.iter().map(|(name, line)| html! {
                <PlanRow ctx={p.ctx.clone()} folder={f.clone()} name={Rc::<str>::from(name.as_str())} line={*line} />
            }) }</ul>
        </div>
    }
}

#[derive(Properties, PartialEq)]
struct RowProps {
    ctx: Shared<Ctx>,
    folder: InFolder,
    name: Rc<str>,
    line: u32,
}

#[function_component(PlanRow)]
fn plan_row(p: &RowProps) -> Html {
    // None: closed; Some(Err): could not be read.
    let text = use_state(|| None::<Result<Rc<str>, String>>);
    let red = crate::app::redact::use_redaction();
    let entry = p.folder.folder.tree.plan(p.folder.conv, &p.name);
    let shown = red.text(&p.name);
    let toggle = {
        let (text, f, red) = (text.clone(), p.folder.clone(), red.clone());
        Callback::from(move |_: MouseEvent| {
            if text.is_some() {
                text.set(None);
                return;
            }
            let Some((_, blob)) = entry.and_then(|e| f.blob(e)) else { return };
            let (text, red) = (text.clone(), red.clone());
            yew::platform::spawn_local(async move {
                let read = crate::app::blob::read_all(&blob).await.map(|b| Rc::<str>::from(red.text(&String::from_utf8_lossy(&b)))).map_err(|e| format!("could not be read ({e})"));
                text.set(Some(read));
            });
        })
    };
    html! {
        <li class="changed-file" data-testid="plan-file" data-name={shown.clone()} data-picked={entry.is_some().to_string()}>
            if entry.is_some() {
                <button class="file-head" aria-expanded={text.is_some().to_string()} onclick={toggle}>
                    <code class="path">{ format!("plans/{shown}") }</code>
                    <span class="muted small">{ format!("first named on line {}", p.line) }</span>
                </button>
            } else {
                <p class="small"><code>{ format!("plans/{shown}") }</code>{ format!(" (named on line {}) was not picked.", p.line) }</p>
            }
            { match &*text {
                None => html! {},
                Some(Ok(t)) => html! { <div class="plan-card" data-testid="plan-file-text"><p class="plan-label">{ "Plan" }</p>{ super::md::render(t) }</div> },
                Some(Err(why)) => html! { <p class="notice warn small">{ why.clone() }</p> },
            } }
        </li>
    }
}
