//! Rows → facts. Pure functions over an [`Index`](crate::index::Index);
//! nothing here reads files (see [`crate::disk`] for the CLI's side).

pub mod agents;
pub mod background;
pub mod body;
pub mod changes;
pub mod conversation;
pub mod diff;
pub mod checkpoints;
pub mod export;
pub mod facts;
pub mod kind;
pub mod markdown;
pub mod plans;
pub mod prices;
pub mod record;
pub mod report;
pub mod safe_md;
pub mod stats;
pub mod subagents;
pub mod tasks;
pub mod time;
pub mod title;
pub mod teammate;
pub mod tools;
pub mod verdict;
pub mod workflow;
pub mod items;

pub use kind::{is_agent_tool, Kind, Kinds, AGENT_TOOLS, COMPACT_BOUNDARY, SYNTHETIC_MODEL};
pub use stats::{Stats, DEFAULT_IDLE_GAP_SECS};
pub use subagents::{Link, SubagentLink, SubagentRun};
