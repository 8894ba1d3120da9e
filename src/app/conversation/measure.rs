//! Reading the virtual list's rows from the DOM: which rows are rendered,
//! their heights, and the row the reader's eye is on.

use wasm_bindgen::JsCast;
use web_sys::HtmlElement;

use crate::state::window::{Anchor, Heights};

/// The rendered rows, top to bottom.
pub fn rows(list: &HtmlElement) -> Vec<HtmlElement> {
    let Ok(rows) = list.query_selector_all(":scope > .vrows > .vrow") else { return Vec::new() };
    (0..rows.length()).filter_map(|i| rows.item(i)?.dyn_into::<HtmlElement>().ok()).collect()
}

pub fn row(list: &HtmlElement, id: u32) -> Option<HtmlElement> {
    list.query_selector(&format!(":scope > .vrows > .vrow[data-id=\"{id}\"]")).ok()??.dyn_into::<HtmlElement>().ok()
}

fn id_of(el: &HtmlElement) -> Option<u32> {
    el.get_attribute("data-id")?.parse().ok()
}

/// The first rendered row whose bottom is below the list's top edge.
pub fn find_anchor(list: Option<&HtmlElement>) -> Option<Anchor> {
    let list = list?;
    let top = list.get_bounding_client_rect().top();
    let el = rows(list).into_iter().find(|el| el.get_bounding_client_rect().bottom() > top)?;
    Some(Anchor { id: id_of(&el)?, offset_px: el.get_bounding_client_rect().top() - top, scroll_px: list.scroll_top() })
}

/// Records the rendered rows' heights; whether any changed.
///
/// A row still waiting for its body is not measured (its placeholder is not
/// its height) and is held at exactly its last known height, so rows that
/// come back into view do not shrink and grow under the reader. All style
/// writes come first, then all reads: a read after a write forces a layout.
pub fn heights(list: &HtmlElement, heights: &mut Heights) -> bool {
    let mut settled = Vec::new();
    for el in rows(list) {
        let Some(id) = id_of(&el) else { continue };
        let style = el.style();
        if el.query_selector(":scope > [data-settled]").ok().flatten().is_some() {
            let _ = style.remove_property("height");
            let _ = style.remove_property("overflow");
            settled.push((id, el));
        } else if (id as usize) < heights.len() {
            let _ = style.set_property("height", &format!("{:.0}px", heights.get(id)));
            let _ = style.set_property("overflow", "hidden");
        }
    }
    let mut changed = false;
    for (id, el) in settled {
        changed |= heights.set(id, el.get_bounding_client_rect().height());
    }
    changed
}
