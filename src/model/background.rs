//! A background task's answer (issue 31): a call made with
//! `run_in_background: true` returns at once ("Async agent launched…"), and
//! what the task did arrives later as a user record the client wrote, whose
//! text is a `<task-notification>` block naming the call:
//!
//! ```text
//! <task-notification>
//! <task-id>b27a792</task-id>
//! <tool-use-id>toolu_012…</tool-use-id>
//! <output-file>/tmp/claude-1000/…/tasks/b27a792.output</output-file>
//! <status>completed</status>
//! <summary>Background command "…" completed (exit code 0)</summary>
//! </task-notification>
//! Read the output file to retrieve the result: /tmp/…/b27a792.output
//! ```
//!
//! (Sources: daaain/claude-code-log `dev-docs/agents.md` §2 and
//! `test/test_data/async_agents/`; kenn-io/agentsview
//! `internal/parser/claude.go`; the shape above as a transcript export
//! quotes it.) Every part is optional: a block missing one still reads.

/// What a `<task-notification>` says.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TaskNotification<'a> {
    pub task_id: Option<&'a str>,
    /// The call that launched the task (in this file or a run's).
    pub tool_use_id: Option<&'a str>,
    pub status: Option<&'a str>,
    pub summary: Option<&'a str>,
    /// Where the task's output was written (on the machine that ran it).
    pub output_file: Option<&'a str>,
    /// `<result>`, when the answer is carried inline.
    pub result: Option<&'a str>,
    /// What follows the block (the client's note to the model), trimmed.
    pub after: &'a str,
}

/// How a notification's text starts (the indexer flags such records).
const OPEN: &str = crate::index::scan::TASK_NOTIFICATION_TAG;
const CLOSE: &str = "</task-notification>";

/// The notification `text` is, if it starts with one (after white space);
/// `None` for anything else, and for a block that never closes (never guess
/// where it ends).
pub fn task_notification(text: &str) -> Option<TaskNotification<'_>> {
    let inner = text.trim_start().strip_prefix(OPEN)?;
    let end = inner.find(CLOSE)?;
    let (block, after) = (&inner[..end], inner[end + CLOSE.len()..].trim());
    let tag = |name: &str| {
        let open = format!("<{name}>");
        let start = block.find(&open)? + open.len();
        let len = block[start..].find(&format!("</{name}>"))?;
        Some(block[start..start + len].trim()).filter(|v| !v.is_empty())
    };
    Some(TaskNotification {
        task_id: tag("task-id"),
        tool_use_id: tag("tool-use-id"),
        status: tag("status"),
        summary: tag("summary"),
        output_file: tag("output-file"),
        result: tag("result"),
        after,
    })
}

impl TaskNotification<'_> {
    /// Whether the task ended badly, as its status says (`failed`, `killed`,
    /// `error`…); an absent status is not a failure.
    pub fn failed(&self) -> bool {
        self.status.is_some_and(|s| !matches!(s, "completed" | "done" | "success" | "running"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_notification_reads_its_parts_and_the_note_after_it() {
        let text = "<task-notification>\n<task-id>b27a792</task-id>\n<tool-use-id>toolu_012L</tool-use-id>\n<output-file>/tmp/t/b27a792.output</output-file>\n<status>completed</status>\n<summary>Background command \"git pull\" completed (exit code 0)</summary>\n</task-notification>\nRead the output file to retrieve the result: /tmp/t/b27a792.output";
        let n = task_notification(text).unwrap();
        assert_eq!(n.task_id, Some("b27a792"));
        assert_eq!(n.tool_use_id, Some("toolu_012L"));
        assert_eq!(n.status, Some("completed"));
        assert_eq!(n.summary, Some("Background command \"git pull\" completed (exit code 0)"));
        assert_eq!(n.output_file, Some("/tmp/t/b27a792.output"));
        assert_eq!(n.result, None);
        assert!(n.after.starts_with("Read the output file"));
        assert!(!n.failed());
    }

    #[test]
    fn missing_parts_stay_missing_and_anything_else_is_not_one() {
        let n = task_notification("  <task-notification><status>failed</status><result>boom</result></task-notification>").unwrap();
        assert_eq!((n.task_id, n.tool_use_id, n.result, n.after), (None, None, Some("boom"), ""));
        assert!(n.failed());
        assert_eq!(task_notification("<task-notification><status>completed</status>"), None, "never closed");
        assert_eq!(task_notification("please read <task-notification>x</task-notification>"), None, "not at the start");
        assert_eq!(task_notification("<task-notification><tool-use-id></tool-use-id></task-notification>").unwrap().tool_use_id, None, "empty is absent");
    }
}
