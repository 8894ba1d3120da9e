//! What a record is, by its top-level `type`, and the names the rules test
//! for: the record kinds, the `<synthetic>` model, the compaction subtype,
//! the tools that spawn subagent runs.

use crate::index::{Index, Row};

/// The model name the writer puts on an assistant record that stands for a
/// failed API call (with `isApiErrorMessage`): not a model.
pub const SYNTHETIC_MODEL: &str = "<synthetic>";
/// The `subtype` of the system record that marks a compaction.
pub const COMPACT_BOUNDARY: &str = "compact_boundary";
/// Tool names that spawn a subagent run (`Task` before 2.1, `Agent` after).
pub const AGENT_TOOLS: [&str; 2] = ["Agent", "Task"];

/// Whether `name` is a tool that spawns a subagent run.
pub fn is_agent_tool(name: &str) -> bool {
    AGENT_TOOLS.contains(&name)
}

/// What a record's top-level `type` says it is, for the rules that depend on it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    User,
    Assistant,
    System,
    /// Any other string type (bookkeeping, unknown).
    Other,
    /// No string `type`.
    Untyped,
    Malformed,
}

/// Resolves row kinds once per index: record types are symbols, so this is
/// three symbol comparisons per row.
pub struct Kinds {
    user: crate::index::Sym,
    assistant: crate::index::Sym,
    system: crate::index::Sym,
}

impl Kinds {
    pub fn new(ix: &Index) -> Self {
        let get = |s: &str| ix.strings.get(s).unwrap_or(crate::index::Sym(u32::MAX));
        Kinds { user: get("user"), assistant: get("assistant"), system: get("system") }
    }

    pub fn of(&self, row: &Row) -> Kind {
        if row.malformed.is_some() {
            Kind::Malformed
        } else if row.record_type.is_none() {
            Kind::Untyped
        } else if row.record_type == self.user {
            Kind::User
        } else if row.record_type == self.assistant {
            Kind::Assistant
        } else if row.record_type == self.system {
            Kind::System
        } else {
            Kind::Other
        }
    }
}
