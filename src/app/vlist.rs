//! A virtualised list: only the items near the viewport exist in the DOM.
//!
//! Heights are estimated per item until it has been on screen once, then
//! measured (`heights`, by item id, survive filtering). The rows sit in
//! normal flow between two spacers whose heights stand for everything above
//! and below the window. Spacer heights are set through the CSSOM (the CSP
//! forbids style attributes).
//!
//! Anchoring is ours, not the browser's (`overflow-anchor: none`): after
//! each scroll the first row in view and its distance from the list's top
//! edge are remembered (`anchor`); after every render — a row measured
//! taller than its estimate, a body arriving, the window moving — the
//! scroll position is corrected so that row stays exactly where it was.
//! The browser's own anchoring chose rows that the next render removed and
//! made the view jump back by thousands of pixels on tall items.

use std::cell::Cell;
use std::rc::Rc;

use wasm_bindgen::closure::Closure;
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
    /// Changes when item ids are renumbered (measured heights then mean
    /// nothing); while it stays, ids below the old `all` name the same items.
    pub numbering: u32,
    /// First guess of an item's height in pixels.
    pub estimate: Callback<u32, f32>,
    /// Renders item `id`; `on_resize` must be passed to it.
    pub render: Callback<(u32, Callback<()>), Html>,
    pub target: Option<Target>,
    /// Written with the id of the first item in view (read on key presses).
    pub top: Rc<Cell<u32>>,
    /// Render only what is in view, no overscan: set while the file is
    /// still being read, whose reading shares the machine's cores with the
    /// page's drawing (the rows beyond the edges come when it ends).
    #[prop_or_default]
    pub lean: bool,
}

pub enum Msg {
    Scroll,
    /// Something may have changed size: measure before the next paint.
    Measure,
    /// The animation frame `Measure` asked for.
    MeasureNow,
    /// Wheel, touch, pointer or key on the list: the person takes over.
    Took,
}

/// A row's place on screen when it was last seen.
#[derive(Clone, Copy, Debug)]
struct Anchor {
    id: u32,
    /// Its top edge minus the list's top edge, in pixels.
    offset_px: f64,
    /// The list's `scrollTop` at that moment: a scroll made since (whose
    /// event has not arrived yet) is the person's and is kept.
    scroll_px: i32,
}

pub struct VList {
    heights: Vec<f32>,
    window: (usize, usize),
    pads: (f64, f64),
    /// A jump being held in place: item id and until when (ms since epoch).
    pending: Option<(u32, f64)>,
    /// The row that must not move on screen (see the module comment).
    anchor: Option<Anchor>,
    container: NodeRef,
    top_pad: NodeRef,
    bottom_pad: NodeRef,
    on_resize: Callback<()>,
    /// Watches the rendered rows, so a size change nobody reported (an
    /// image decoding, a font arriving) is measured too. Re-armed after
    /// each render; `None` where the browser has no `ResizeObserver`.
    observer: Option<(web_sys::ResizeObserver, Closure<dyn FnMut(js_sys::Array)>)>,
    /// The animation frame that will measure (id, callback), if one is
    /// requested: many reports in one frame (every item's body arriving)
    /// cost one layout, not one each.
    frame: Option<(i32, Closure<dyn FnMut()>)>,
    /// 0 for the first render (only what is in view, so the first rows
    /// come fast) and while [`Props::lean`], [`OVERSCAN_PX`] from then on.
    overscan_px: f64,
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
        let (lo, hi) = (scroll - self.overscan_px, scroll + viewport + self.overscan_px);
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
            anchor: None,
            container: NodeRef::default(),
            top_pad: NodeRef::default(),
            bottom_pad: NodeRef::default(),
            on_resize: ctx.link().callback(|()| Msg::Measure),
            observer: None,
            frame: None,
            overscan_px: 0.0,
        };
        let measure = me.on_resize.clone();
        let f = Closure::<dyn FnMut(js_sys::Array)>::new(move |_: js_sys::Array| measure.emit(()));
        me.observer = web_sys::ResizeObserver::new(f.as_ref().unchecked_ref()).ok().map(|o| (o, f));
        me.reset_heights(ctx);
        me.refresh(ctx);
        me
    }

    fn update(&mut self, ctx: &Context<Self>, msg: Msg) -> bool {
        match msg {
            Msg::Scroll => {
                // The person (or a jump) moved the view: this is the place to keep.
                self.anchor = self.find_anchor();
                self.refresh(ctx)
            }
            Msg::Took => {
                self.pending = None;
                false
            }
            Msg::Measure => {
                if self.frame.is_none() {
                    let link = ctx.link().clone();
                    let f = Closure::<dyn FnMut()>::new(move || link.send_message(Msg::MeasureNow));
                    match web_sys::window().map(|w| w.request_animation_frame(f.as_ref().unchecked_ref())) {
                        Some(Ok(id)) => self.frame = Some((id, f)),
                        // No frames (a hidden page): measure now.
                        _ => return self.measure_now(ctx),
                    }
                }
                false
            }
            Msg::MeasureNow => {
                self.frame = None;
                self.measure_now(ctx)
            }
        }
    }

    fn changed(&mut self, ctx: &Context<Self>, old: &Props) -> bool {
        let p = ctx.props();
        if p.numbering != old.numbering {
            self.reset_heights(ctx);
        } else if p.all != old.all || p.estimate != old.estimate {
            // More of the same file (the whole of it after its preview): the
            // heights known stay, but the last old item may have grown.
            let keep = old.all.min(p.all).saturating_sub(1);
            self.heights.truncate(keep);
            self.heights.extend((keep as u32..p.all as u32).map(|id| p.estimate.emit(id)));
        }
        if let Some(t) = ctx.props().target.filter(|t| Some(*t) != old.target) {
            self.begin_jump(ctx, t);
        }
        if !p.lean && self.overscan_px == 0.0 {
            self.overscan_px = OVERSCAN_PX;
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

    fn destroy(&mut self, _ctx: &Context<Self>) {
        if let Some((o, _)) = &self.observer {
            o.disconnect();
        }
        if let (Some((id, _)), Some(w)) = (self.frame.take(), web_sys::window()) {
            let _ = w.cancel_animation_frame(id);
        }
    }

    fn rendered(&mut self, ctx: &Context<Self>, first: bool) {
        set_height(&self.top_pad, self.pads.0);
        set_height(&self.bottom_pad, self.pads.1);
        let changed = self.measure();
        self.observe_rows();
        if first {
            if let Some(t) = ctx.props().target {
                self.begin_jump(ctx, t);
            }
            // The rows beyond the viewport, in a frame of their own.
            if !ctx.props().lean {
                self.overscan_px = OVERSCAN_PX;
                ctx.link().send_message(Msg::Measure);
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
        if self.pending.is_none() && !realigned {
            realigned = self.restore_anchor();
        }
        if self.pending.is_some() || realigned || self.anchor.is_none() {
            self.anchor = self.find_anchor();
        }
        if changed || realigned {
            ctx.link().send_message(Msg::Scroll);
        }
    }
}

impl VList {
    /// A row changed size (its body arrived, it was expanded, an image
    /// decoded): render again only if the window or a spacer moves.
    fn measure_now(&mut self, ctx: &Context<Self>) -> bool {
        let measured = self.measure();
        self.refresh(ctx) || measured
    }

    /// The rendered rows, top to bottom.
    fn rows(&self) -> Vec<HtmlElement> {
        let Some(rows) = self.element().and_then(|c| c.query_selector_all(":scope > .vrows > .vrow").ok()) else { return Vec::new() };
        (0..rows.length()).filter_map(|i| rows.item(i)?.dyn_into::<HtmlElement>().ok()).collect()
    }

    fn row_element(&self, id: u32) -> Option<HtmlElement> {
        let c = self.element()?;
        c.query_selector(&format!(":scope > .vrows > .vrow[data-id=\"{id}\"]")).ok()??.dyn_into::<HtmlElement>().ok()
    }

    /// Points the resize observer at the rows now in the DOM (its first
    /// report for each comes as one `Msg::Measure`, which finds nothing new
    /// and renders nothing).
    fn observe_rows(&self) {
        let Some((o, _)) = &self.observer else { return };
        o.disconnect();
        for el in self.rows() {
            o.observe(&el);
        }
    }

    /// The first rendered row whose bottom is below the list's top edge, and
    /// its top edge relative to the list's top edge.
    fn find_anchor(&self) -> Option<Anchor> {
        let c = self.element()?;
        let top = c.get_bounding_client_rect().top();
        for el in self.rows() {
            let r = el.get_bounding_client_rect();
            if r.bottom() > top {
                let id = el.get_attribute("data-id")?.parse::<u32>().ok()?;
                return Some(Anchor { id, offset_px: r.top() - top, scroll_px: c.scroll_top() });
            }
        }
        None
    }

    /// Scrolls so the anchor row is where it was; whether the scroll position
    /// changed. Without the row in the DOM (the window moved past it) there
    /// is nothing to hold.
    fn restore_anchor(&self) -> bool {
        let Some(a) = self.anchor else { return false };
        let (Some(c), Some(el)) = (self.element(), self.row_element(a.id)) else { return false };
        let before = c.scroll_top();
        let now = el.get_bounding_client_rect().top() - c.get_bounding_client_rect().top();
        let expected = a.offset_px - f64::from(before - a.scroll_px);
        let shift = now - expected;
        if shift.abs() < 1.0 {
            return false;
        }
        c.set_scroll_top(before + shift.round() as i32);
        c.scroll_top() != before
    }

    /// Reads the rendered rows' heights; whether any changed.
    ///
    /// A row still waiting for its body is not measured (its placeholder is
    /// not its height) and is held at exactly its last known height, so rows
    /// that come back into view do not shrink and grow under the reader.
    fn measure(&mut self) -> bool {
        // All style writes first, then all reads: a read after a write forces
        // a layout, so interleaving them laid the page out once per row.
        let mut settled_rows = Vec::new();
        for el in self.rows() {
            let Some(id) = el.get_attribute("data-id").and_then(|s| s.parse::<usize>().ok()) else { continue };
            let settled = el.query_selector(":scope > [data-settled]").ok().flatten().is_some();
            let style = el.style();
            if settled {
                let _ = style.remove_property("height");
                let _ = style.remove_property("overflow");
                settled_rows.push((id, el));
            } else if let Some(h) = self.heights.get(id) {
                // Exactly its last height, so the rows below sit where the
                // height table says they do.
                let _ = style.set_property("height", &format!("{h:.0}px"));
                let _ = style.set_property("overflow", "hidden");
            }
        }
        let mut changed = false;
        for (id, el) in settled_rows {
            let h = el.get_bounding_client_rect().height() as f32;
            if id < self.heights.len() && (self.heights[id] - h).abs() > 0.5 {
                self.heights[id] = h;
                changed = true;
            }
        }
        changed
    }
}
