//! A picked folder in the page: the session browser ([`browser`]: the
//! list, [`table`]; the projects and memory, [`projects`]; the search
//! across the folder, [`search`]) and the work the worker does for it
//! ([`tasks`]).

pub mod browser;
mod dashboard;
pub mod follow;
mod projects;
mod search;
mod table;

pub use table::ROW_LINKS;
pub mod tasks;

