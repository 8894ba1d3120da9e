//! Following the conversation on screen while Claude Code writes it (a file
//! opened through a File System Access handle): what the page shows about
//! the following, and which tool calls are still running.

use crate::index::{Index, Sym};
use crate::model::conversation::{CallState, ToolCall};
use crate::model::kind::{Kind, Kinds};

/// How often a followed file is looked at (its size and date only; the
/// appended bytes are read when they changed).
pub const CHECK_MS: u32 = 1000;

/// The following of the file on screen, as the page shows it.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Live {
    /// Bytes of a line still being written at the last check (not shown
    /// until it ends).
    pub open_line_bytes: u64,
    /// The wall clock (ms since 1970) at the last check: a running call's
    /// duration counts to here.
    pub now_ms: i64,
    /// The file is no longer there (or no longer readable): what was read
    /// stays on screen, following stopped.
    pub gone: Option<String>,
}

/// Tool calls (indices into `Index::tool_uses`) still running: no result
/// yet, and nothing from the person after the call (an interrupted call is
/// followed by the person's next message, and is not running).
pub fn running(ix: &Index, calls: &[ToolCall]) -> Vec<u32> {
    let kinds = Kinds::new(ix);
    // The last record the person wrote (not a tool result, not a meta record).
    let last_prompt = ix
        .rows
        .iter()
        .rposition(|r| kinds.of(r) == Kind::User && r.tool_results_len == 0 && !r.has(crate::index::flag::META))
        .map(|k| k as u32);
    calls
        .iter()
        .filter(|c| c.state == CallState::NoResult)
        .filter(|c| ix.tool_uses[c.tool_use as usize].id != Sym::NONE)
        .filter(|c| last_prompt.is_none_or(|p| ix.tool_uses[c.tool_use as usize].row > p))
        .map(|c| c.tool_use)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::index::Indexer;
    use crate::model::conversation::tool_calls;

    fn call(id: &str) -> String {
        format!(r#"{{"type":"assistant","message":{{"id":"m{id}","content":[{{"type":"tool_use","id":"{id}","name":"Bash","input":{{}}}}]}}}}"#)
    }

    #[test]
    fn a_call_is_running_until_its_result_or_the_persons_next_message() {
        let result = |id: &str| format!(r#"{{"type":"user","message":{{"content":[{{"type":"tool_result","tool_use_id":"{id}","content":"ok"}}]}}}}"#);
        let prompt = r#"{"type":"user","message":{"content":"[Request interrupted by user]"}}"#;
        let text = [call("a"), prompt.to_string(), call("b"), call("c"), result("b")].join("\n") + "\n";
        let ix = Indexer::index_bytes(text.as_bytes());
        let calls = tool_calls(&ix);
        let names: Vec<&str> = running(&ix, &calls).iter().map(|&k| ix.str(ix.tool_uses[k as usize].id)).collect();
        assert_eq!(names, ["c"], "a was interrupted by the person, b has its result");
    }
}
