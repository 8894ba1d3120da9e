//! ccscope: a private viewer for Claude Code session transcripts.
//!
//! - [`index`]: bytes → flat rows (push-based, no I/O, shared by CLI and wasm).
//! - [`model`]: rows → facts (turns, tools, failures, time, tokens, subagents).
//! - `app` (wasm only): the Yew viewer.

pub mod fmt;
pub mod index;
pub mod model;

#[cfg(not(target_arch = "wasm32"))]
pub mod disk;
pub mod synth;

#[cfg(target_arch = "wasm32")]
pub mod app;
