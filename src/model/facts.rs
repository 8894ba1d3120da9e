//! Facts the viewer shows about a conversation beyond contract v1: who
//! wrote it (versions, models), which tools it called how often, how many
//! list items failed or are bookkeeping, and whether token counts were
//! recorded at all (absent is not zero).

use super::items::{ItemKind, Items};
use super::kind::SYNTHETIC_MODEL;
use crate::index::{flag, FxHashMap, Index, Sym};

/// Distinct non-empty symbols in order of first appearance.
pub fn first_seen(ix: &Index, syms: impl Iterator<Item = Sym>) -> Vec<String> {
    let mut seen = vec![false; ix.strings.len()];
    let mut out = Vec::new();
    for s in syms.filter(|s| s.is_some()) {
        if !std::mem::replace(&mut seen[s.index()], true) {
            out.push(ix.str(s).to_string());
        }
    }
    out
}

/// Calls of one tool name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ToolCount {
    pub name: Sym,
    pub calls: usize,
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Facts {
    /// Claude Code versions that wrote the file, first seen first.
    pub versions: Vec<String>,
    /// Models that answered, first seen first (not `<synthetic>`, which
    /// marks a failed API call, not a model).
    pub models: Vec<String>,
    /// Tool names by number of calls, most used first, then by name.
    pub tools: Vec<ToolCount>,
    /// List items holding a failed step.
    pub failed_items: usize,
    /// Bookkeeping items (hidden by default).
    pub bookkeeping_items: usize,
    /// Some assistant record carries `usage`: token figures mean something.
    /// Without it, "0 tokens" would be a claim the file does not make.
    pub has_usage: bool,
}

/// Models that answered, first seen first, without `<synthetic>`.
pub fn models(ix: &Index) -> Vec<String> {
    let synthetic = ix.strings.get(SYNTHETIC_MODEL).unwrap_or(Sym::NONE);
    first_seen(ix, ix.rows.iter().filter(|r| r.malformed.is_none()).map(|r| r.model).filter(|&m| m != synthetic))
}

/// Some record carries `usage`: token figures mean something.
pub fn has_usage(ix: &Index) -> bool {
    ix.rows.iter().any(|r| r.has(flag::HAS_USAGE))
}

impl Facts {
    pub fn compute(ix: &Index, view: &Items) -> Facts {
        Facts {
            versions: first_seen(ix, ix.rows.iter().filter(|r| r.malformed.is_none()).map(|r| r.version)),
            models: models(ix),
            tools: tool_counts(ix, view),
            failed_items: view.items.iter().filter(|i| i.failed).count(),
            bookkeeping_items: view.items.iter().filter(|i| i.kind == ItemKind::Other).count(),
            has_usage: has_usage(ix),
        }
    }

    /// Calls of `name`, if it was called.
    pub fn calls_of(&self, name: Sym) -> Option<usize> {
        self.tools.iter().find(|t| t.name == name).map(|t| t.calls)
    }
}

/// Tool names by number of calls (assistant calls only), most used first.
pub fn tool_counts(ix: &Index, view: &Items) -> Vec<ToolCount> {
    let mut counts: FxHashMap<Sym, usize> = FxHashMap::default();
    for c in &view.calls {
        *counts.entry(ix.tool_uses[c.tool_use as usize].name).or_default() += 1;
    }
    let mut v: Vec<ToolCount> = counts.into_iter().filter(|(s, _)| s.is_some()).map(|(name, calls)| ToolCount { name, calls }).collect();
    crate::sort::by(&mut v, |a, b| b.calls.cmp(&a.calls).then_with(|| ix.str(a.name).cmp(ix.str(b.name))));
    v
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::index::Indexer;

    #[test]
    fn models_skip_synthetic_and_tools_are_counted() {
        let text = concat!(
            r#"{"type":"assistant","version":"2.1.0","message":{"id":"a","model":"claude-x","content":[{"type":"tool_use","id":"t1","name":"Bash","input":{}}],"usage":{"output_tokens":3}}}"#, "\n",
            r#"{"type":"assistant","version":"2.1.0","message":{"id":"a","model":"claude-x","content":[{"type":"tool_use","id":"t2","name":"Read","input":{}}]}}"#, "\n",
            r#"{"type":"assistant","version":"2.1.1","isApiErrorMessage":true,"message":{"id":"b","model":"<synthetic>","content":[{"type":"text","text":"x"}]}}"#, "\n",
            r#"{"type":"assistant","message":{"id":"c","model":"claude-y","content":[{"type":"tool_use","id":"t3","name":"Bash","input":{}}]}}"#, "\n",
            r#"{"type":"file-history-snapshot"}"#, "\n",
        );
        let ix = Indexer::index_bytes(text.as_bytes());
        let view = Items::build(&ix, 900_000);
        let f = Facts::compute(&ix, &view);
        assert_eq!(f.versions, ["2.1.0", "2.1.1"]);
        assert_eq!(f.models, ["claude-x", "claude-y"]);
        let named: Vec<(&str, usize)> = f.tools.iter().map(|t| (ix.str(t.name), t.calls)).collect();
        assert_eq!(named, [("Bash", 2), ("Read", 1)]);
        assert_eq!((f.failed_items, f.bookkeeping_items), (1, 1));
        assert!(f.has_usage);
        let none = Indexer::index_bytes(b"{\"type\":\"assistant\",\"message\":{\"id\":\"a\",\"content\":\"hi\"}}\n");
        assert!(!Facts::compute(&none, &Items::build(&none, 1)).has_usage, "no usage object: tokens are absent, not 0");
    }
}
