//! The task list beside the reading position (`model::tasks`): above the
//! list, what was pending, in progress and done as of where the person reads,
//! the tasks the last change touched marked; and in the insights, how the
//! list changed, each change a way to its call. The calls' lines are read
//! once per document; a conversation without a task list shows nothing.

use std::rc::Rc;

use yew::prelude::*;

use crate::app::ctx::Ctx;
use crate::app::shared::Shared;
use crate::fmt;
use crate::model::tasks::{at, rows_to_read, states, task_calls, Task, TaskState};

/// The states of the document's task list, read once (`None` while read).
#[hook]
fn use_states(ctx: &Shared<Ctx>) -> Option<Rc<Vec<TaskState>>> {
    let out = use_state(|| None::<Rc<Vec<TaskState>>>);
    {
        let out = out.clone();
        use_effect_with(ctx.clone(), move |ctx| {
            let ctx = ctx.clone();
            let calls = task_calls(ctx.ix(), &ctx.view.calls);
            if calls.is_empty() {
                out.set(Some(Rc::new(Vec::new())));
                return;
            }
            yew::platform::spawn_local(async move {
                let rows = rows_to_read(ctx.ix(), &calls);
                let bodies = crate::app::bodies::fetch_map(&ctx, &rows).await;
                out.set(Some(Rc::new(states(ctx.ix(), &calls, &bodies))));
            });
        });
    }
    (*out).clone()
}

fn mark(status: &str) -> (&'static str, &'static str) {
    match status {
        "completed" => ("✓", "done"),
        "in_progress" => ("▶", "in progress"),
        "pending" => ("○", "pending"),
        _ => ("·", "other"),
    }
}

fn task_row(t: &Task) -> Html {
    let (icon, word) = mark(&t.status);
    html! {
        <li class={classes!("task", t.status.replace('_', "-"), t.changed.then_some("changed"))} data-testid="task" data-status={t.status.clone()} data-changed={t.changed.to_string()}>
            <span class="task-mark" title={word} aria-label={word}>{ icon }</span>
            <span class="task-subject">{ t.id.as_ref().map(|id| format!("#{id} ")).unwrap_or_default() }{ t.subject.clone() }</span>
            if let Some(o) = &t.owner { <span class="muted small">{ format!(" · {o}") }</span> }
            if t.changed { <span class="badge">{ "changed" }</span> }
        </li>
    }
}

/// "2 done · 1 in progress · 3 pending".
fn counts(s: &TaskState) -> String {
    let mut parts = vec![format!("{} done", s.count("completed")), format!("{} in progress", s.count("in_progress")), format!("{} pending", s.count("pending"))];
    let other = s.tasks.len() - s.count("completed") - s.count("in_progress") - s.count("pending");
    if other > 0 {
        parts.push(format!("{other} other"));
    }
    parts.join(" · ")
}

#[derive(Properties, PartialEq)]
pub struct StripProps {
    pub ctx: Shared<Ctx>,
    /// The reading position (`Ui::reading`: where the person scrolled or
    /// jumped to; `None` at the start).
    pub reading: Option<u32>,
}

/// Above the list: the task list as of the reading position.
#[function_component(TaskStrip)]
pub fn task_strip(p: &StripProps) -> Html {
    let states = use_states(&p.ctx);
    let open = use_state(|| false);
    let Some(states) = states.filter(|s| !s.is_empty()) else { return html! {} };
    let now = at(&states, &p.ctx.view.item_of_row, p.reading.unwrap_or(0));
    let toggle = {
        let open = open.clone();
        Callback::from(move |_: MouseEvent| open.set(!*open))
    };
    let words = match now {
        Some(s) => format!("Tasks as of line {}: {}", s.line, counts(s)),
        None => format!("No task list yet here · the first is on line {}", states[0].line),
    };
    html! {
        <section class="task-strip" data-testid="task-strip" data-line={now.map(|s| s.line.to_string())} aria-label="Task list at the reading position">
            <button class="file-head" aria-expanded={open.to_string()} onclick={toggle} data-testid="task-strip-toggle">
                <span data-testid="task-strip-words">{ words }</span>
            </button>
            if *open {
                if let Some(s) = now {
                    <ul class="tasks">{ for s.tasks.iter().map(task_row) }</ul>
                    if !s.removed.is_empty() {
                        <p class="muted small">{ format!("Removed by this change: {}", s.removed.join(", ")) }</p>
                    }
                    <p class="small"><a href={p.ctx.line_href(s.line)}>{ format!("The change, on line {}", s.line) }</a></p>
                }
            }
        </section>
    }
}

#[derive(Properties, PartialEq)]
pub struct HistoryProps {
    pub ctx: Shared<Ctx>,
    pub on_goto: Callback<u32>,
}

/// In the insights: every change of the list, in order.
#[function_component(TaskHistory)]
pub fn task_history(p: &HistoryProps) -> Html {
    let states = use_states(&p.ctx);
    let Some(states) = states.filter(|s| !s.is_empty()) else { return html! {} };
    let ctx = &p.ctx;
    html! {
        <div class="card" data-testid="task-history">
            <h3>{ "Task list" }</h3>
            <p>{ format!("{} · at the end: {}", fmt::plural(states.len() as u64, "change", "changes"), states.last().map(counts).unwrap_or_default()) }</p>
            <ol class="task-history">{ for states.iter().map(|s| {
                let item = ctx.item_of(s.row);
                let on_goto = p.on_goto.clone();
                let goto = Callback::from(move |_: MouseEvent| if let Some(i) = item { on_goto.emit(i) });
                let tool = ctx.ix().str(ctx.ix().tool_uses[s.tool_use as usize].name).to_string();
                let changed: Vec<String> = s.tasks.iter().filter(|t| t.changed).map(|t| format!("{} {}", mark(&t.status).0, t.subject)).chain(s.removed.iter().map(|r| format!("✗ {r}"))).collect();
                html! {
                    <li data-testid="task-change" data-line={s.line.to_string()}>
                        <button class="link" onclick={goto}>{ format!("{tool} · line {}", s.line) }</button>
                        <span class="small">{ format!(" {}", if changed.is_empty() { "no change".into() } else { changed.join(" · ") }) }</span>
                    </li>
                }
            }) }</ol>
        </div>
    }
}
