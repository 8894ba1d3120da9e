//! The progress bar of a read under way.

use std::rc::Rc;

use yew::prelude::*;

use crate::fmt;

#[derive(Properties, PartialEq)]
pub struct Props {
    pub name: Rc<str>,
    pub size_bytes: u64,
    pub read_bytes: u64,
}

#[function_component(Progress)]
pub fn progress(p: &Props) -> Html {
    let percent = if p.size_bytes == 0 { 100.0 } else { p.read_bytes as f64 * 100.0 / p.size_bytes as f64 };
    html! {
        <section class="card reading" data-testid="reading">
            <div class="reading-head">
                <span class="file-name">{ p.name.to_string() }</span>
                <span class="muted" role="status" aria-live="polite">{ format!("{} of {}", fmt::bytes(p.read_bytes), fmt::bytes(p.size_bytes)) }</span>
            </div>
            // A native <progress>: no inline style, which the CSP forbids.
            <progress class="bar" max="100" value={format!("{percent:.1}")}
                      aria-valuenow={format!("{percent:.0}")} aria-label="Reading the file"></progress>
        </section>
    }
}
