//! A diff drawn as lines: hunk headers, context, removed and added, cut at
//! a number of lines with the rest counted.

use yew::prelude::*;

use crate::fmt;
use crate::model::tools::DiffLine;

/// `diff`'s first `max_lines` lines; `more` says where the rest is.
pub fn diff_view(diff: &[DiffLine], max_lines: usize, more: &str) -> Html {
    html! {
        <>
            <pre class="diff">{ for diff.iter().take(max_lines).map(|d| match d {
                DiffLine::Hunk(h) => html! { <span class="hunk">{ format!("{h}\n") }</span> },
                DiffLine::Context(l) => html! { <span class="ctx">{ format!("  {l}\n") }</span> },
                DiffLine::Removed(l) => html! { <span class="del">{ format!("- {l}\n") }</span> },
                DiffLine::Added(l) => html! { <span class="add">{ format!("+ {l}\n") }</span> },
            }) }</pre>
            if diff.len() > max_lines {
                <p class="muted small">{ format!("… and {} more ({more})", fmt::plural((diff.len() - max_lines) as u64, "line", "lines")) }</p>
            }
        </>
    }
}
