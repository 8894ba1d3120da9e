//! The way from a background call to its answer: a call made with
//! `run_in_background: true` returns at once, and what the task did
//! arrives later as a `<task-notification>` record naming the call
//! (`model::background`). The indexer flags such records; the few after
//! the call are read to find the one that names it.

use std::rc::Rc;

use yew::prelude::*;

use crate::app::ctx::Ctx;
use crate::app::shared::Shared;
use crate::index::flag;
use crate::model::background::task_notification;

/// Flagged records read at most to find an answer.
const CANDIDATES: usize = 400;

#[derive(Properties, PartialEq)]
pub struct Props {
    pub ctx: Shared<Ctx>,
    pub call_id: Rc<str>,
    /// The row of the call: its answer comes after it.
    pub after_row: u32,
    /// Said once the link is drawn: the list measures the card again.
    pub on_resize: Callback<()>,
}

/// "↓ its answer arrived on line N", once found.
#[function_component(AnswerLink)]
pub fn answer_link(p: &Props) -> Html {
    // The answers after the call, any task's: none (a file from before
    // task notifications, or the answer not written yet) and nothing is said.
    let rows = use_memo((p.ctx.clone(), p.after_row), |(ctx, after)| {
        let ix = ctx.ix();
        (after + 1..ix.rows.len() as u32).filter(|&r| ix.rows[r as usize].has(flag::TASK_NOTIFICATION)).take(CANDIDATES).collect::<Vec<u32>>()
    });
    // None: not looked yet; Some(None): no record names the call.
    let found = use_state(|| None::<Option<u32>>);
    {
        let on_resize = p.on_resize.clone();
        use_effect_with(*found, move |_| on_resize.emit(()));
    }
    {
        let (found, ctx, call, rows) = (found.clone(), p.ctx.clone(), p.call_id.clone(), rows.clone());
        use_effect_with((p.ctx.clone(), p.call_id.clone(), rows.clone()), move |_| {
            if rows.is_empty() {
                return;
            }
            yew::platform::spawn_local(async move {
                let bodies = crate::app::bodies::fetch(&ctx, &rows).await;
                let line = bodies.iter().find_map(|(r, b)| {
                    let names = b.as_ref().is_some_and(|b| task_notification(&b.prompt_text()).and_then(|n| n.tool_use_id) == Some(&*call));
                    names.then(|| ctx.ix().rows[*r as usize].line_no)
                });
                found.set(Some(line));
            });
        });
    }
    match *found {
        None => html! {},
        Some(Some(line)) => html! {
            <p class="small answer-link"><a href={p.ctx.line_href(line)} data-testid="task-answer-link">{ format!("↓ its answer arrived on line {line}") }</a></p>
        },
        Some(None) => html! { <p class="small muted answer-link" data-testid="task-answer-link">{ "its answer is not in this file (yet)" }</p> },
    }
}
