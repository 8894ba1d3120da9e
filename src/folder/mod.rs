//! A whole picked folder (`~/.claude/projects`, one project, or files
//! picked together): which files are conversations and what lies beside
//! them ([`tree`]), and each conversation summed up ([`summary`]) for the
//! session browser and `ccscope sessions`.

pub mod summary;
pub mod survey;
pub mod totals;
pub mod tree;

pub use summary::{reads_needed, summarize, Doubt, Linked, Meta, Parts, PlacedWorkflow, Prefetched, ReadAt, Run, SessionFacts, SessionLine, SidecarError};
pub use tree::{Conversation, Entry, Project, RunFiles, Tree, WorkflowFiles};
