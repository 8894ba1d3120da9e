//! ccscope: a private viewer for Claude Code session transcripts.
//!
//! - [`index`]: bytes → flat rows (push-based, no I/O, shared by CLI and wasm).
//! - [`model`]: rows → facts (turns, tools, failures, time, tokens, subagents).
//! - [`folder`]: a picked folder's conversations and what lies beside them,
//!   each summed up (the session browser, `ccscope sessions`).
//! - [`ui`]: what the viewer decides (state, actions, caches, window maths,
//!   search matching), with no DOM; native-tested.
//! - `app` (wasm only): the Yew viewer, thin glue over `ui`.

pub mod fmt;
pub mod folder;
pub mod index;
pub mod model;
pub mod state;

#[cfg(not(target_arch = "wasm32"))]
pub mod disk;
/// The benchmark generator: native builds only (never in the page).
#[cfg(not(target_arch = "wasm32"))]
pub mod synth;

#[cfg(target_arch = "wasm32")]
pub mod app;
