//! Task lists: what the session set out to do, as it stood after each
//! call that changed it. Two shapes build one:
//!
//! - `TodoWrite` (input `todos`: `content`, `status`, `activeForm`) gives
//!   the whole list each time;
//! - since 2.1.142, `TaskCreate` (`subject`, `description`, `activeForm`;
//!   its result says `Task #N created successfully: …`) adds one task and
//!   `TaskUpdate` (`taskId`, `status`, `subject`, `owner`, …) changes one;
//!   status `deleted` removes it.
//!
//! A call that failed, was denied or got no result changed nothing. Shapes
//! from the real 2.x transcripts under `../shared/fixtures/real/` (the
//! agent-teams session of daaain/claude-code-log's test data holds
//! TaskCreate/TaskUpdate) and daaain/claude-code-log
//! `dev-docs/tools-coverage.md`.

use std::rc::Rc;

use serde_json::Value;

use super::body::Body;
use super::conversation::{CallState, ToolCall};
use crate::index::{FxHashMap, Index};

/// The tools whose calls change the task list.
pub const TASK_TOOLS: [&str; 3] = ["TodoWrite", "TaskCreate", "TaskUpdate"];

/// One task as the list stood at some point.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Task {
    /// `TaskCreate`'s number; `None` for a `TodoWrite` item.
    pub id: Option<String>,
    pub subject: String,
    /// `pending`, `in_progress`, `completed` (or whatever the writer said).
    pub status: String,
    pub owner: Option<String>,
    /// New or changed by the call that made this state.
    pub changed: bool,
}

/// The list right after one call changed it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TaskState {
    /// The call (index into `Index::tool_uses`), its row and line.
    pub tool_use: u32,
    pub row: u32,
    pub line: u32,
    pub tasks: Vec<Task>,
    /// Tasks the call removed (a `TodoWrite` that left them out, a
    /// `TaskUpdate` to `deleted`), by subject.
    pub removed: Vec<String>,
}

impl TaskState {
    /// How many tasks have `status`.
    pub fn count(&self, status: &str) -> usize {
        self.tasks.iter().filter(|t| t.status == status).count()
    }
}

pub fn is_task_tool(name: &str) -> bool {
    TASK_TOOLS.contains(&name)
}

/// The calls that changed the list, in file order (failed ones left out).
pub fn task_calls(ix: &Index, calls: &[ToolCall]) -> Vec<ToolCall> {
    calls.iter().filter(|c| c.state == CallState::Ok && is_task_tool(ix.str(ix.tool_uses[c.tool_use as usize].name))).cloned().collect()
}

/// The rows [`states`] reads: each call's and its result's, ascending.
pub fn rows_to_read(ix: &Index, calls: &[ToolCall]) -> Vec<u32> {
    super::changes::rows_to_read(ix, calls)
}

fn s<'a>(v: &'a Value, key: &str) -> &'a str {
    v.get(key).and_then(Value::as_str).unwrap_or("")
}

/// `N` of a `Task #N created` result.
fn created_id(body: &Body, tool_use_id: &str) -> Option<String> {
    let text = body.result_for(tool_use_id)?.result_text();
    let rest = text.split("Task #").nth(1)?;
    let id: String = rest.chars().take_while(char::is_ascii_alphanumeric).collect();
    (!id.is_empty()).then_some(id)
}

/// The list after each call of `calls` (from [`task_calls`]); `bodies`
/// holds the rows of [`rows_to_read`]. A call whose body is missing is
/// passed over.
pub fn states(ix: &Index, calls: &[ToolCall], bodies: &FxHashMap<u32, Rc<Body>>) -> Vec<TaskState> {
    let mut out: Vec<TaskState> = Vec::new();
    let mut now: Vec<Task> = Vec::new();
    let mut created = 0u32;
    for call in calls {
        let tu = &ix.tool_uses[call.tool_use as usize];
        let id = ix.str(tu.id);
        let Some(input) = bodies.get(&tu.row).and_then(|b| b.blocks().iter().find(|b| b.kind.is("tool_use") && b.id.as_deref() == Some(id))).and_then(|b| b.input.as_ref()) else { continue };
        let before = now.clone();
        let mut removed = Vec::new();
        match ix.str(tu.name) {
            "TodoWrite" => {
                let Some(todos) = input.get("todos").and_then(Value::as_array) else { continue };
                now = todos.iter().map(|t| Task { id: None, subject: s(t, "content").to_string(), status: s(t, "status").to_string(), owner: None, changed: false }).collect();
                removed = before.iter().filter(|b| !now.iter().any(|t| t.subject == b.subject)).map(|b| b.subject.clone()).collect();
            }
            "TaskCreate" => {
                created += 1;
                let result = call.tool_result.and_then(|r| bodies.get(&ix.tool_results[r as usize].row));
                let number = result.and_then(|b| created_id(b, id)).unwrap_or_else(|| created.to_string());
                now.push(Task { id: Some(number), subject: s(input, "subject").to_string(), status: "pending".into(), owner: None, changed: false });
            }
            _ => {
                let task_id = match input.get("taskId") {
                    Some(Value::String(t)) => t.clone(),
                    Some(Value::Number(n)) => n.to_string(),
                    _ => continue,
                };
                let Some(k) = now.iter().position(|t| t.id.as_deref() == Some(task_id.as_str())) else { continue };
                match s(input, "status") {
                    "deleted" => removed.push(now.remove(k).subject),
                    "" => {}
                    st => now[k].status = st.to_string(),
                }
                if let Some(t) = now.get_mut(k).filter(|_| removed.is_empty()) {
                    if !s(input, "subject").is_empty() {
                        t.subject = s(input, "subject").to_string();
                    }
                    if !s(input, "owner").is_empty() {
                        t.owner = Some(s(input, "owner").to_string());
                    }
                }
            }
        }
        for t in &mut now {
            t.changed = !before.iter().any(|b| b.subject == t.subject && b.status == t.status && b.owner == t.owner && b.id == t.id);
        }
        out.push(TaskState { tool_use: call.tool_use, row: tu.row, line: ix.rows[tu.row as usize].line_no, tasks: now.clone(), removed });
    }
    out
}

/// The state in force after item `item` of the list: the last whose call
/// sits in that item or before it (`item_of_row` maps rows to items).
pub fn at<'a>(states: &'a [TaskState], item_of_row: &[u32], item: u32) -> Option<&'a TaskState> {
    let k = states.partition_point(|s| item_of_row.get(s.row as usize).is_some_and(|&i| i <= item));
    k.checked_sub(1).map(|k| &states[k])
}
