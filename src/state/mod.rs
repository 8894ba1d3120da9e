//! What the viewer decides, with no DOM: the app's state and actions, the
//! conversation view's state, the body cache, which byte ranges to read,
//! the search's matching across chunk edges and the virtual list's
//! arithmetic. Compiles natively and is tested there; `app` (wasm only)
//! renders it and does the I/O it asks for.

pub mod cache;
pub mod chart;
pub mod dashboard;
pub mod doc;
pub mod example;
pub mod address;
pub mod browser;
pub mod insights;
pub mod live;
pub mod pace;
pub mod ranges;
pub mod redact;
/// The search's matcher: bytes → matches, built for speed with the indexer
/// in `crates/ccscope-index`.
pub use crate::index::search;
pub mod state;
pub mod conversation;
pub mod window;

pub use doc::{Doc, FileId};
