//! Reading and indexing in a Web Worker, so the page never waits for it:
//! the typed messages ([`protocol`]), the page's end ([`client`]), the
//! worker's end ([`serve`], doing [`jobs`]) and the index in transferable
//! pieces ([`pieces`]).

pub mod client;
mod jobs;
pub mod pieces;
pub mod protocol;
pub mod serve;
mod tails;

pub use client::{Client, Job, Reply, WorkerError};
