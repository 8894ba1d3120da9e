//! ccscope: a private viewer for Claude Code session transcripts.
//!
//! The layers, arrows only downward:
//!
//! ```text
//!   bin/ (CLI, wasm entry, bench)      app/ (wasm only: components, I/O, the worker)
//!            │                               │
//!            ├──────────► disk (CLI's reads)  ▼
//!            │                             state/  decisions without a DOM
//!            ▼                               │
//!         folder/  a picked folder: its tree, each conversation summed up
//!            │
//!            ▼
//!         model/   rows → facts: turns, calls, failures, time, tokens, titles, exports
//!            │
//!            ▼
//!         index    bytes → flat rows, push-based, no I/O        fmt: words for numbers,
//!                                                               sort: one shared sort
//!                  (crates/ccscope-index)
//! ```
//!
//! - [`index`]: bytes → flat rows (push-based, no I/O, shared by CLI and wasm);
//!   the package `crates/ccscope-index`, so that the page's wasm can be
//!   built for size while the indexer is built for speed.
//! - [`model`]: rows → facts (turns, tools, failures, time, tokens, subagents).
//! - [`folder`]: a picked folder's conversations and what lies beside them,
//!   each summed up (the session browser, `ccscope sessions`).
//! - [`state`]: what the viewer decides (the app's and the conversation's
//!   state and actions, caches, window maths, redaction, search matching),
//!   with no DOM; native-tested.
//! - `app` (wasm only): the Yew viewer, thin glue over `state`.
//!
//! Never:
//! - `index` imports nothing of ours (a package of its own: it cannot);
//! - `model` never imports `folder`, `state`, `app` or `disk`;
//! - `folder` never imports `state` or `app`; `state` never imports `app`;
//! - nothing below `app` imports a web crate (`web-sys`, `js-sys`, `yew`, …);
//! - no file imports another that imports it back, directly or through
//!   others (`tools/imports.mjs`, run by `make test`, draws the graph and
//!   fails on a circle); a `mod.rs` declares and re-exports, its children
//!   import from each other's files, never through the parent.

pub mod fmt;
pub mod sort;
pub mod folder;
/// Bytes → rows: the `ccscope-index` package (see its Cargo.toml for why it
/// is one of its own).
pub use ccscope_index as index;
pub mod model;
pub mod state;

#[cfg(not(target_arch = "wasm32"))]
pub mod disk;
/// The benchmark generator: native builds only (never in the page).
#[cfg(not(target_arch = "wasm32"))]
pub mod synth;

#[cfg(target_arch = "wasm32")]
pub mod app;
