//! A readable summary of a tool call's input, per common tool: what a
//! person scanning the list wants to see without opening the JSON.

use serde_json::Value;

/// One line of an Edit shown as a diff.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DiffLine {
    /// A hunk's header, `@@ -3,7 +3,6 @@` (from a `structuredPatch`).
    Hunk(String),
    Context(String),
    Removed(String),
    Added(String),
}

/// What the list shows of a call's input.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct InputSummary {
    /// One short line beside the tool name: a path, a pattern, a URL.
    pub headline: String,
    /// A longer body shown as code (a Bash command, a Write's content).
    pub code: Option<String>,
    /// Edit / MultiEdit: the change as removed and added lines.
    pub diff: Vec<DiffLine>,
    /// `mcp__server__tool` split into its server and tool.
    pub mcp: Option<(String, String)>,
    /// `ExitPlanMode`: the plan put to the person, Markdown.
    pub plan: Option<String>,
}

fn s<'a>(input: &'a Value, key: &str) -> &'a str {
    input.get(key).and_then(Value::as_str).unwrap_or("")
}

/// First line of `text`, cut to `max_chars` characters with an ellipsis.
/// A cut that would split a word backs off to the space before it: a key
/// or a name cut in half no longer looks like one to a redactor, so nothing
/// is cut mid-token that need not be.
pub fn first_line(text: &str, max_chars: usize) -> String {
    let line = text.lines().find(|l| !l.trim().is_empty()).unwrap_or("").trim();
    let mut out: String = line.chars().take(max_chars).collect();
    // (`nth`, not `count`: a 40 MB one-line prompt is not walked to its end.)
    let cut = line.chars().nth(max_chars).is_some();
    if cut && !line.chars().nth(max_chars).is_some_and(char::is_whitespace) {
        if let Some(space) = out.rfind(char::is_whitespace).filter(|&k| k > 0) {
            out.truncate(space);
        }
    }
    if cut || text.trim().lines().nth(1).is_some() {
        out.truncate(out.trim_end().len());
        out.push('…');
    }
    out
}

/// The change from `old` to `new` as lines, with the common leading and
/// trailing lines kept as context (at most two each side).
pub fn line_diff(old: &str, new: &str) -> Vec<DiffLine> {
    let a: Vec<&str> = old.lines().collect();
    let b: Vec<&str> = new.lines().collect();
    let head = a.iter().zip(&b).take_while(|(x, y)| x == y).count();
    let tail = a[head..].iter().rev().zip(b[head..].iter().rev()).take_while(|(x, y)| x == y).count();
    let mut out = Vec::new();
    out.extend(a[head.saturating_sub(2)..head].iter().map(|l| DiffLine::Context(l.to_string())));
    out.extend(a[head..a.len() - tail].iter().map(|l| DiffLine::Removed(l.to_string())));
    out.extend(b[head..b.len() - tail].iter().map(|l| DiffLine::Added(l.to_string())));
    out.extend(a[a.len() - tail..].iter().take(2).map(|l| DiffLine::Context(l.to_string())));
    out
}

/// Summarises the input of a call to `name`. Unknown tools show their input
/// as compact JSON.
pub fn summarize(name: &str, input: &Value) -> InputSummary {
    let mut out = InputSummary::default();
    match name {
        "Bash" => {
            let cmd = s(input, "command");
            out.headline = if s(input, "description").is_empty() { first_line(cmd, 120) } else { s(input, "description").to_string() };
            out.code = Some(cmd.to_string());
        }
        "Read" | "Write" | "Edit" | "MultiEdit" | "NotebookEdit" | "NotebookRead" => {
            let path = [s(input, "file_path"), s(input, "notebook_path"), s(input, "path")].into_iter().find(|p| !p.is_empty()).unwrap_or("");
            out.headline = path.to_string();
            match name {
                "Read" => {
                    if let Some(o) = input.get("offset").and_then(Value::as_u64) {
                        out.headline.push_str(&format!(" (from line {o})"));
                    }
                }
                "Write" => {
                    let content = s(input, "content");
                    out.headline.push_str(&format!(" ({} lines)", content.lines().count()));
                    out.code = Some(content.to_string());
                }
                "Edit" => out.diff = line_diff(s(input, "old_string"), s(input, "new_string")),
                "MultiEdit" => {
                    for e in input.get("edits").and_then(Value::as_array).into_iter().flatten() {
                        out.diff.extend(line_diff(s(e, "old_string"), s(e, "new_string")));
                    }
                }
                _ => {}
            }
        }
        "Grep" | "Glob" => {
            out.headline = s(input, "pattern").to_string();
            let path = s(input, "path");
            if !path.is_empty() {
                out.headline.push_str(&format!(" in {path}"));
            }
        }
        n if super::kind::is_agent_tool(n) => {
            let kind = s(input, "subagent_type");
            out.headline = s(input, "description").to_string();
            if !kind.is_empty() {
                out.headline.push_str(&format!(" ({kind})"));
            }
            // A teammate (agent teams): its name and team.
            let (mate, team) = (s(input, "name"), s(input, "team_name"));
            if !mate.is_empty() {
                out.headline.push_str(&format!(" · teammate {mate}"));
                if !team.is_empty() {
                    out.headline.push_str(&format!(" in team {team}"));
                }
            }
            // Launched to run on its own: the call's result is the launch,
            // its answer a `<task-notification>` later (model::background).
            if input.get("run_in_background").and_then(Value::as_bool) == Some(true) {
                out.headline.push_str(" · launched in the background");
            }
            out.code = Some(s(input, "prompt").to_string()).filter(|p| !p.is_empty());
        }
        // Its shapes (daaain/claude-code-log dev-docs/workflows.md §1): an
        // inline `script`, a `scriptPath`, or a saved workflow's `name`;
        // `args` and `resumeFromRunId` with any of them.
        super::workflow::WORKFLOW_TOOL => {
            let (script, path, saved) = (s(input, "script"), s(input, "scriptPath"), s(input, "name"));
            out.headline = match (script.is_empty(), path.is_empty(), saved.is_empty()) {
                (false, ..) => format!("inline script ({} lines)", script.lines().count()),
                (true, false, _) => format!("script file {path}"),
                (true, true, false) => format!("saved workflow {saved}"),
                _ => String::new(),
            };
            let resume = s(input, "resumeFromRunId");
            if !resume.is_empty() {
                out.headline.push_str(&format!(" · resumes run {resume}"));
            }
            let args = input.get("args").filter(|a| !a.is_null()).map(|a| format!("args: {a}"));
            out.code = Some(script.to_string()).filter(|c| !c.is_empty()).or(args);
        }
        // Agent teams (daaain/claude-code-log dev-docs/teammates.md §1.1).
        "TeamCreate" | "TeamDelete" => out.headline = format!("team {}", s(input, "team_name")).trim_end().to_string(),
        "SendMessage" => {
            let to = s(input, "recipient");
            out.headline = if to.is_empty() { "to the team".to_string() } else { format!("to {to}") };
            out.code = Some(s(input, "content").to_string()).filter(|c| !c.is_empty());
        }
        "TaskCreate" => out.headline = s(input, "subject").to_string(),
        "TaskUpdate" => {
            let mut h = format!("task #{}", s(input, "taskId"));
            for (key, word) in [("status", "→"), ("owner", "owner")] {
                if !s(input, key).is_empty() {
                    h.push_str(&format!(" · {word} {}", s(input, key)));
                }
            }
            out.headline = h;
        }
        // Plan mode: the plan put to the person for approval (its result
        // says whether it was approved), shown as the Markdown it is.
        "ExitPlanMode" => {
            out.headline = "the plan, put for approval".into();
            out.plan = Some(s(input, "plan").to_string()).filter(|p| !p.trim().is_empty());
        }
        "EnterPlanMode" => out.headline = "plan mode: read and plan, change nothing".into(),
        "WebFetch" => out.headline = s(input, "url").to_string(),
        "WebSearch" => out.headline = s(input, "query").to_string(),
        "TodoWrite" => {
            let todos = input.get("todos").and_then(Value::as_array);
            out.headline = format!("{} items", todos.map_or(0, Vec::len));
            out.code = todos.map(|t| {
                t.iter().map(|x| format!("[{}] {}", s(x, "status"), s(x, "content"))).collect::<Vec<_>>().join("\n")
            });
        }
        _ => {
            if let Some(rest) = name.strip_prefix("mcp__") {
                let (server, tool) = rest.split_once("__").unwrap_or((rest, ""));
                out.mcp = Some((server.to_string(), tool.to_string()));
                out.headline = format!("{server} · {tool}");
            }
            let json = match input {
                Value::Object(m) if m.is_empty() => String::new(),
                Value::Null => String::new(),
                v => v.to_string(),
            };
            if out.headline.is_empty() {
                out.headline = first_line(&json, 120);
            }
            out.code = Some(json).filter(|j| j.len() > 120);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_cut_backs_off_to_a_space() {
        assert_eq!(first_line("aws AKIAPLANTEDEXAMPLE12 more", 14), "aws…");
        assert_eq!(first_line("abcdefghij", 4), "abcd…", "one long word is cut where it must be");
        assert_eq!(first_line("one two", 3), "one…");
        assert_eq!(first_line("short", 10), "short");
    }

    #[test]
    fn bash_shows_the_command() {
        let s = summarize("Bash", &json!({"command": "cargo build\n--release"}));
        assert_eq!(s.headline, "cargo build…");
        assert_eq!(s.code.as_deref(), Some("cargo build\n--release"));
        let d = summarize("Bash", &json!({"command": "ls", "description": "List files"}));
        assert_eq!(d.headline, "List files");
    }

    #[test]
    fn a_workflow_call_says_which_shape_launched_it() {
        let inline = summarize("Workflow", &json!({"script": "phase('Map')\nreturn 1\n"}));
        assert_eq!((inline.headline.as_str(), inline.code.as_deref()), ("inline script (2 lines)", Some("phase('Map')\nreturn 1\n")));
        let file = summarize("Workflow", &json!({"scriptPath": "/h/sweep.workflow.js", "args": {"target": "docs/"}}));
        assert_eq!((file.headline.as_str(), file.code.as_deref()), ("script file /h/sweep.workflow.js", Some(r#"args: {"target":"docs/"}"#)));
        assert_eq!(summarize("Workflow", &json!({"name": "nightly", "resumeFromRunId": "wf_1"})).headline, "saved workflow nightly · resumes run wf_1");
    }

    #[test]
    fn team_tools_say_who_and_what() {
        assert_eq!(summarize("Agent", &json!({"description": "Relay tests", "name": "alice", "team_name": "core"})).headline, "Relay tests · teammate alice in team core");
        assert_eq!(summarize("SendMessage", &json!({"recipient": "bob", "content": "rebase"})).headline, "to bob");
        assert_eq!(summarize("TaskUpdate", &json!({"taskId": "3", "status": "completed", "owner": "alice"})).headline, "task #3 · → completed · owner alice");
        assert_eq!(summarize("TeamCreate", &json!({"team_name": "core"})).headline, "team core");
    }

    #[test]
    fn exit_plan_mode_carries_its_plan_as_markdown() {
        let s = summarize("ExitPlanMode", &json!({"plan": "# Plan\n\n1. Parse"}));
        assert_eq!((s.headline.as_str(), s.plan.as_deref(), s.code), ("the plan, put for approval", Some("# Plan\n\n1. Parse"), None));
        assert_eq!(summarize("ExitPlanMode", &json!({})).plan, None);
    }

    #[test]
    fn edit_is_a_diff_with_context() {
        let s = summarize("Edit", &json!({"file_path": "/a.rs", "old_string": "a\nb\nc\nd", "new_string": "a\nb\nX\nd"}));
        assert_eq!(s.headline, "/a.rs");
        assert_eq!(
            s.diff,
            vec![
                DiffLine::Context("a".into()),
                DiffLine::Context("b".into()),
                DiffLine::Removed("c".into()),
                DiffLine::Added("X".into()),
                DiffLine::Context("d".into()),
            ]
        );
    }

    #[test]
    fn grep_agent_web_mcp_and_unknown() {
        assert_eq!(summarize("Grep", &json!({"pattern": "fn main", "path": "src"})).headline, "fn main in src");
        assert_eq!(summarize("Task", &json!({"description": "Audit", "subagent_type": "general"})).headline, "Audit (general)");
        assert_eq!(summarize("Agent", &json!({"description": "Audit", "subagent_type": "general", "run_in_background": true})).headline, "Audit (general) · launched in the background");
        assert_eq!(summarize("WebFetch", &json!({"url": "https://x.test"})).headline, "https://x.test");
        let m = summarize("mcp__browser__screenshot", &json!({}));
        assert_eq!(m.mcp, Some(("browser".into(), "screenshot".into())));
        assert_eq!(m.headline, "browser · screenshot");
        assert_eq!(summarize("Frob", &json!({"k": 1})).headline, r#"{"k":1}"#);
    }
}
