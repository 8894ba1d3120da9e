//! A virtualised list: only the items near the viewport exist in the DOM.
//!
//! Heights are estimated per item until it has been on screen once, then
//! measured (`heights`, by item id, survive filtering). The rows sit in
//! normal flow between two spacers whose heights stand for everything above
//! and below the window, so the browser's scroll anchoring keeps the view
//! steady when a measured row turns out taller than its estimate. Spacer
//! heights are set through the CSSOM (the CSP forbids style attributes).

use std::cell::Cell;
use std::rc::Rc;

use wasm_bindgen::JsCast;
use web_sys::HtmlElement;
use yew::prelude::*;

use super::shared::Shared;

/// Pixels rendered beyond each edge of the viewport.
const OVERSCAN_PX: f64 = 900.0;
/// How long a jump keeps its target at the top while rows around it are
/// fetched and measured, unless the person scrolls first.
const SETTLE_MS: f64 = 2500.0;

/// "Bring item `id` to the top"; a new `nonce` repeats the request.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Target {
    pub id: u32,
    pub nonce: u64,
}

#[derive(Properties, PartialEq)]
pub struct Props {
    /// Item ids in display order.
    pub ids: Shared<Vec<u32>>,
    /// Number of all item ids (the height table's size).
    pub all: usize,
    /// First guess of an item's height in pixels.
    pub estimate: Callback<u32, f32>,
    /// Renders item `id`; `on_resize` must be passed to it.
    pub render: Callback<(u32, Callback<()>), Html>,
    pub target: Option<Target>,
    /// Written with the id of the first item in view (read on key presses).
    pub top: Rc<Cell<u32>>,
}

pub enum Msg {
    Scroll,
    Measure,
    /// Wheel, touch, pointer or key on the list: the person takes over.
    Took,
}

pub struct VList {
    heights: Vec<f32>,
    window: (usize, usize),
    pads: (f64, f64),
    /// A jump being held in place: item id and until when (ms since epoch).
    pending: Option<(u32, f64)>,
    container: NodeRef,
    top_pad: NodeRef,
    bottom_pad: NodeRef,
    on_resize: Callback<()>,
}

impl VList {
    fn reset_heights(&mut self, ctx: &Context<Self>) {
        let p = ctx.props();
        self.heights = (0..p.all as u32).map(|id| p.estimate.emit(id)).collect();
    }

    fn element(&self) -> Option<HtmlElement> {
        self.container.cast::<HtmlElement>()
    }

    /// The window of ids to render for the current scroll position, and the
    /// heights above and below it.
    fn compute_window(&self, ctx: &Context<Self>) -> ((usize, usize), (f64, f64), usize) {
        let ids = &ctx.props().ids;
        let (scroll, viewport) = self.element().map_or((0.0, 1000.0), |e| (e.scroll_top() as f64, e.client_height().max(200) as f64));
        let (lo, hi) = (scroll - OVERSCAN_PX, scroll + viewport + OVERSCAN_PX);
        let mut y = 0.0;
        let (mut start, mut end) = (ids.len(), ids.len());
        let mut top_y = 0.0;
        let mut first_visible = 0;
        let mut seen_visible = false;
        for (k, &id) in ids.iter().enumerate() {
            let h = self.heights.get(id as usize).copied().unwrap_or(80.0) as f64;
            if start == ids.len() && y + h >= lo {
                start = k;
                top_y = y;
            }
            if !seen_visible && y + h > scroll {
                first_visible = k;
                seen_visible = true;
            }
            y += h;
            if start != ids.len() && y > hi {
                end = k + 1;
                break;
            }
        }
        let bottom: f64 = ids[end..].iter().map(|&id| self.heights.get(id as usize).copied().unwrap_or(80.0) as f64).sum();
        ((start, end), (top_y, bottom), first_visible)
    }

    fn offset_of(&self, ids: &[u32], k: usize) -> f64 {
        ids[..k].iter().map(|&id| self.heights.get(id as usize).copied().unwrap_or(80.0) as f64).sum()
    }

    fn refresh(&mut self, ctx: &Context<Self>) -> bool {
        let (window, pads, first) = self.compute_window(ctx);
        if let Some(&id) = ctx.props().ids.get(first) {
            ctx.props().top.set(id);
        }
        let changed = window != self.window || (pads.0 - self.pads.0).abs() > 0.5 || (pads.1 - self.pads.1).abs() > 0.5;
        self.window = window;
        self.pads = pads;
        changed
    }

    fn begin_jump(&mut self, ctx: &Context<Self>, target: Target) {
        if self.begin_jump_to(ctx, target.id) {
            self.pending = Some((target.id, js_sys::Date::now() + SETTLE_MS));
        }
    }

    /// Scrolls to where item `id` is estimated to be; whether it is listed.
    fn begin_jump_to(&self, ctx: &Context<Self>, id: u32) -> bool {
        let ids = &ctx.props().ids;
        let Some(k) = ids.iter().position(|&i| i == id) else { return false };
        let y = self.offset_of(ids, k);
        if let Some(e) = self.element() {
            e.set_scroll_top(y as i32);
        }
        true
    }
}

fn set_height(node: &NodeRef, px: f64) {
    if let Some(e) = node.cast::<HtmlElement>() {
        // Through the CSSOM: allowed under `style-src 'self'`.
        let _ = e.style().set_property("height", &format!("{px:.0}px"));
    }
}

impl Component for VList {
    type Message = Msg;
    type Properties = Props;

    fn create(ctx: &Context<Self>) -> Self {
        let mut me = VList {
            heights: Vec::new(),
            window: (0, 0),
            pads: (0.0, 0.0),
            pending: None,
            container: NodeRef::default(),
            top_pad: NodeRef::default(),
            bottom_pad: NodeRef::default(),
            on_resize: ctx.link().callback(|()| Msg::Measure),
        };
        me.reset_heights(ctx);
        me.refresh(ctx);
        me
    }

    fn update(&mut self, ctx: &Context<Self>, msg: Msg) -> bool {
        match msg {
            Msg::Scroll => self.refresh(ctx),
            Msg::Took => {
                self.pending = None;
                false
            }
            // A row changed size (its body arrived, it was expanded).
            Msg::Measure => {
                self.measure();
                self.refresh(ctx);
                true
            }
        }
    }

    fn changed(&mut self, ctx: &Context<Self>, old: &Props) -> bool {
        if ctx.props().all != old.all || ctx.props().estimate != old.estimate {
            self.reset_heights(ctx);
        }
        if let Some(t) = ctx.props().target.filter(|t| Some(*t) != old.target) {
            self.begin_jump(ctx, t);
        }
        self.refresh(ctx);
        true
    }

    fn view(&self, ctx: &Context<Self>) -> Html {
        let p = ctx.props();
        let (start, end) = self.window;
        let onscroll = ctx.link().callback(|_: Event| Msg::Scroll);
        let took = ctx.link().callback(|_: Event| Msg::Took);
        html! {
            <div class="vlist" ref={self.container.clone()} {onscroll} data-testid="turn-list" data-count={p.ids.len().to_string()}
                onwheel={took.reform(|e: WheelEvent| e.into())} onpointerdown={took.reform(|e: PointerEvent| e.into())}
                ontouchstart={took.reform(|e: TouchEvent| e.into())} onkeydown={took.reform(|e: KeyboardEvent| e.into())}>
                <div class="vpad" ref={self.top_pad.clone()} aria-hidden="true"></div>
                // The keyed rows get a parent of their own: Yew reconciles a
                // keyed list reliably only when no unkeyed siblings share it.
                <div class="vrows">
                    { for p.ids[start.min(p.ids.len())..end.min(p.ids.len())].iter().map(|&id| html! {
                        <div class="vrow" key={id} data-id={id.to_string()}>{ p.render.emit((id, self.on_resize.clone())) }</div>
                    }) }
                </div>
                <div class="vpad" ref={self.bottom_pad.clone()} aria-hidden="true"></div>
            </div>
        }
    }

    fn rendered(&mut self, ctx: &Context<Self>, first: bool) {
        set_height(&self.top_pad, self.pads.0);
        set_height(&self.bottom_pad, self.pads.1);
        let changed = self.measure();
        if first {
            if let Some(t) = ctx.props().target {
                self.begin_jump(ctx, t);
            }
        }
        let mut realigned = false;
        if let Some((id, until_ms)) = self.pending {
            if js_sys::Date::now() > until_ms {
                self.pending = None;
            } else if let (Some(c), Some(el)) = (self.element(), self.row_element(id)) {
                let want = el.offset_top() - 6;
                if (c.scroll_top() - want).abs() > 1 {
                    c.set_scroll_top(want);
                    realigned = true;
                }
            } else {
                // Not rendered yet: scroll to its estimated place.
                self.begin_jump_to(ctx, id);
                realigned = true;
            }
        }
        if changed || realigned {
            ctx.link().send_message(Msg::Scroll);
        }
    }
}

impl VList {
    fn row_element(&self, id: u32) -> Option<HtmlElement> {
        let c = self.element()?;
        c.query_selector(&format!(":scope > .vrows > .vrow[data-id=\"{id}\"]")).ok()??.dyn_into::<HtmlElement>().ok()
    }

    /// Reads the rendered rows' heights; whether any changed.
    ///
    /// A row still waiting for its body is not measured (its placeholder is
    /// not its height) and is held at its last known height, so rows that
    /// come back into view do not shrink and grow under the reader.
    fn measure(&mut self) -> bool {
        let Some(c) = self.element() else { return false };
        let Ok(rows) = c.query_selector_all(":scope > .vrows > .vrow") else { return false };
        let mut changed = false;
        for i in 0..rows.length() {
            let Some(el) = rows.item(i).and_then(|n| n.dyn_into::<HtmlElement>().ok()) else { continue };
            let Some(id) = el.get_attribute("data-id").and_then(|s| s.parse::<usize>().ok()) else { continue };
            let settled = el.query_selector(":scope > [data-settled]").ok().flatten().is_some();
            if !settled {
                if let Some(h) = self.heights.get(id) {
                    let _ = el.style().set_property("min-height", &format!("{h:.0}px"));
                }
                continue;
            }
            let _ = el.style().remove_property("min-height");
            let h = el.get_bounding_client_rect().height() as f32;
            if id < self.heights.len() && (self.heights[id] - h).abs() > 0.5 {
                self.heights[id] = h;
                changed = true;
            }
        }
        changed
    }
}
