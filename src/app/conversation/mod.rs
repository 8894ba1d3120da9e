//! The conversation view of one document: [`page::Conversation`] holds its
//! state (`state::conversation::Ui`) and its effects ([`hooks`]); the other
//! components render parts of it and report back through callbacks.

mod answer;
mod chart;
mod diff;
mod export;
mod files;
mod header;
mod history;
mod hooks;
mod insights;
mod marks;
pub mod item;
mod md;
mod measure;
mod output;
mod rows;
pub mod in_folder;
mod runs;
mod summary;
mod tasks;
mod timeline;
mod tool;
mod toolbar;
mod turn;
mod unknown;
mod page;
mod plans;
mod vlist;
mod workflow;

pub use md::render as markdown;
pub use summary::Summary;
pub use page::Conversation;
