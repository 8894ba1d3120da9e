//! A virtualised list: only the items near the viewport exist in the DOM.
//! The arithmetic (which items, how much space above and below, where to
//! scroll so the row being read stays put) is `state::window`; this component
//! measures rows and moves the scroll position.
//!
//! The rows sit in normal flow between two spacers whose heights stand for
//! everything above and below the window, set through the CSSOM (the CSP
//! forbids style attributes). Anchoring is ours (`overflow-anchor: none`):
//! after each scroll the first row in view and its distance from the list's
//! top edge are remembered; after every render the scroll position is
//! corrected so that row stays exactly where it was. A jump holds its
//! target at the top while rows around it are read and measured, until the
//! person scrolls.

use std::rc::Rc;

use wasm_bindgen::closure::Closure;
use wasm_bindgen::JsCast;
use web_sys::HtmlElement;
use yew::prelude::*;

use crate::state::conversation::Target;
use crate::state::window::{Anchor, Heights, Window, MIN_VIEWPORT_PX, UNLAID_VIEWPORT_PX};

/// Pixels rendered beyond each edge of the viewport.
const OVERSCAN_PX: f64 = 900.0;
/// How long a jump keeps its target at the top, unless the person scrolls.
const SETTLE_MS: f64 = 2500.0;
/// A jump puts its row this far below the list's top edge.
const JUMP_MARGIN_PX: i32 = 6;

#[derive(Properties, PartialEq)]
pub struct Props {
    /// Item ids in display order.
    pub ids: Rc<Vec<u32>>,
    /// Number of all item ids (the height table's size).
    pub all: usize,
    /// Changes when item ids are renumbered (see `Ui::numbering`).
    pub numbering: u64,
    /// First guess of an item's height in pixels.
    pub estimate: Callback<u32, f32>,
    /// Renders item `id`; `on_resize` must be passed to it.
    pub render: Callback<(u32, Callback<()>), Html>,
    pub target: Option<Target>,
    /// Told the id of the first item in view when it changes, and whether
    /// the person scrolled it there (no jump is being held).
    pub on_top: Callback<(u32, bool)>,
    /// Render only what is in view, no overscan: set while the file is
    /// still being read (the rows beyond the edges come when it ends).
    #[prop_or_default]
    pub lean: bool,
    /// The file is followed: items added while the list is at its bottom
    /// scroll in; added elsewhere, a pill counts them and jumps there.
    #[prop_or_default]
    pub live: bool,
}

pub enum Msg {
    Scroll,
    /// Something may have changed size: measure before the next paint.
    Measure,
    MeasureNow,
    /// Wheel, touch, pointer or key on the list: the person takes over.
    Took,
    /// The "N new" pill: to the bottom, where the new items are.
    ToBottom,
}

/// Pixels from the bottom that still count as "at the bottom".
const BOTTOM_SLACK_PX: i32 = 24;

pub struct VList {
    heights: Heights,
    window: Window,
    /// A jump being held in place: item id and until when (ms since epoch).
    pending: Option<(u32, f64)>,
    anchor: Option<Anchor>,
    top_reported: Option<u32>,
    container: NodeRef,
    top_pad: NodeRef,
    bottom_pad: NodeRef,
    on_resize: Callback<()>,
    /// Watches the rendered rows, so a size change nobody reported (an image
    /// decoding, a font arriving) is measured too.
    observer: Option<(web_sys::ResizeObserver, Closure<dyn FnMut(js_sys::Array)>)>,
    /// The animation frame that will measure: many reports in one frame
    /// cost one layout.
    frame: Option<(i32, Closure<dyn FnMut()>)>,
    /// 0 for the first render (the first rows come fast) and while lean.
    overscan_px: f64,
    /// Followed: items added below the view since the person was last at the bottom.
    new_below: usize,
    /// Followed: the list is held at its bottom until then (ms since epoch),
    /// while the new items are measured, unless the person scrolls.
    bottom_hold: Option<f64>,
}

fn set_height(node: &NodeRef, px: f64) {
    if let Some(e) = node.cast::<HtmlElement>() {
        let _ = e.style().set_property("height", &format!("{px:.0}px"));
    }
}

impl VList {
    fn element(&self) -> Option<HtmlElement> {
        self.container.cast::<HtmlElement>()
    }

    /// Recomputes the window; whether anything on screen changes.
    fn refresh(&mut self, ctx: &Context<Self>) -> bool {
        let p = ctx.props();
        let (scroll, viewport) = self
            .element()
            .map_or((0.0, UNLAID_VIEWPORT_PX), |e| (f64::from(e.scroll_top()), f64::from(e.client_height()).max(MIN_VIEWPORT_PX)));
        let w = self.heights.window(&p.ids, scroll, viewport, self.overscan_px);
        if let Some(&top) = p.ids.get(w.first_visible) {
            if self.top_reported != Some(top) {
                self.top_reported = Some(top);
                p.on_top.emit((top, self.pending.is_none()));
            }
        }
        let changed = w.differs(&self.window);
        self.window = w;
        changed
    }

    fn begin_jump(&mut self, ctx: &Context<Self>, target: Target) {
        if self.scroll_to_estimate(ctx, target.id) {
            self.pending = Some((target.id, js_sys::Date::now() + SETTLE_MS));
        }
    }

    /// Scrolls to where item `id` is estimated to be; whether it is listed.
    fn scroll_to_estimate(&self, ctx: &Context<Self>, id: u32) -> bool {
        let ids = &ctx.props().ids;
        let Some(k) = ids.iter().position(|&i| i == id) else { return false };
        if let Some(e) = self.element() {
            e.set_scroll_top(self.heights.offset_of(ids, k) as i32);
        }
        true
    }

    /// Holds a pending jump's row at the top; whether it scrolled.
    fn hold_jump(&mut self, ctx: &Context<Self>) -> bool {
        let Some((id, until_ms)) = self.pending else { return false };
        if js_sys::Date::now() > until_ms {
            self.pending = None;
            return false;
        }
        match (self.element(), self.row_element(id)) {
            (Some(c), Some(el)) => {
                let want = el.offset_top() - JUMP_MARGIN_PX;
                let moved = (c.scroll_top() - want).abs() > 1;
                if moved {
                    c.set_scroll_top(want);
                }
                moved
            }
            // Not rendered yet: scroll to its estimated place.
            _ => self.scroll_to_estimate(ctx, id),
        }
    }
}

impl Component for VList {
    type Message = Msg;
    type Properties = Props;

    fn create(ctx: &Context<Self>) -> Self {
        let p = ctx.props();
        let mut me = VList {
            heights: Heights::estimated(p.all, |id| p.estimate.emit(id)),
            window: Window::default(),
            pending: None,
            anchor: None,
            top_reported: None,
            container: NodeRef::default(),
            top_pad: NodeRef::default(),
            bottom_pad: NodeRef::default(),
            on_resize: ctx.link().callback(|()| Msg::Measure),
            observer: None,
            frame: None,
            overscan_px: 0.0,
            new_below: 0,
            bottom_hold: None,
        };
        let measure = me.on_resize.clone();
        let f = Closure::<dyn FnMut(js_sys::Array)>::new(move |_: js_sys::Array| measure.emit(()));
        me.observer = web_sys::ResizeObserver::new(f.as_ref().unchecked_ref()).ok().map(|o| (o, f));
        me.refresh(ctx);
        me
    }

    fn update(&mut self, ctx: &Context<Self>, msg: Msg) -> bool {
        match msg {
            Msg::Scroll => {
                // The person (or a jump) moved the view: this is the place to
                // keep. Rows above may have changed size since the last frame
                // (a busy page draws late): that shift is put right first, or
                // it would be taken for the person's place.
                if self.pending.is_none() && self.bottom_hold.is_none() {
                    self.restore_anchor();
                }
                self.anchor = super::measure::find_anchor(self.element().as_ref());
                let seen_new = self.new_below > 0 && self.at_bottom();
                if seen_new {
                    self.new_below = 0;
                }
                self.refresh(ctx) || seen_new
            }
            Msg::Took => {
                self.pending = None;
                self.bottom_hold = None;
                false
            }
            Msg::ToBottom => {
                self.new_below = 0;
                self.pending = None;
                self.hold_bottom();
                self.refresh(ctx);
                true
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
            self.heights = Heights::estimated(p.all, |id| p.estimate.emit(id));
        } else if p.all != old.all {
            self.heights.grow(p.all, |id| p.estimate.emit(id));
        }
        if let Some(t) = p.target.filter(|t| Some(*t) != old.target) {
            self.begin_jump(ctx, t);
        }
        // The followed file grew (same numbering, more items).
        if p.live && p.numbering == old.numbering && p.ids.len() > old.ids.len() {
            if self.bottom_hold.is_some() || (self.pending.is_none() && self.at_bottom()) {
                self.hold_bottom();
            } else {
                self.new_below += p.ids.len() - old.ids.len();
            }
        }
        if !p.lean && self.overscan_px == 0.0 {
            self.overscan_px = OVERSCAN_PX;
        }
        self.refresh(ctx);
        true
    }

    fn view(&self, ctx: &Context<Self>) -> Html {
        let p = ctx.props();
        let Window { start, end, .. } = self.window;
        let onscroll = ctx.link().callback(|_: Event| Msg::Scroll);
        let took = ctx.link().callback(|_: Event| Msg::Took);
        html! {
            <div class="vlist" ref={self.container.clone()} {onscroll} data-testid="turn-list" data-count={p.ids.len().to_string()}
                role="feed" tabindex="0" aria-label={format!("The conversation: {} items shown; j and k move between turns", p.ids.len())}
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
                if p.live && self.new_below > 0 {
                    <button class="new-pill" type="button" data-testid="new-pill" onclick={ctx.link().callback(|_: MouseEvent| Msg::ToBottom)}>
                        { format!("{} new ↓", crate::fmt::count(self.new_below as u64)) }
                    </button>
                }
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
        set_height(&self.top_pad, self.window.above_px);
        set_height(&self.bottom_pad, self.window.below_px);
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
        let mut realigned = self.hold_jump(ctx);
        if self.pending.is_none() && !realigned {
            realigned = if self.bottom_hold.is_some() { self.keep_bottom() } else { self.restore_anchor() };
        }
        if self.pending.is_some() || realigned || self.anchor.is_none() {
            self.anchor = super::measure::find_anchor(self.element().as_ref());
        }
        if changed || realigned {
            ctx.link().send_message(Msg::Scroll);
        }
    }
}

impl VList {
    /// A row changed size: render again only if the window or a spacer moves.
    fn measure_now(&mut self, ctx: &Context<Self>) -> bool {
        let measured = self.measure();
        self.refresh(ctx) || measured
    }

    fn at_bottom(&self) -> bool {
        self.element().is_some_and(|c| c.scroll_top() + c.client_height() >= c.scroll_height() - BOTTOM_SLACK_PX)
    }

    /// Holds the list at its bottom for a while (new items being measured).
    fn hold_bottom(&mut self) {
        self.bottom_hold = Some(js_sys::Date::now() + SETTLE_MS);
        self.keep_bottom();
    }

    /// Scrolls to the bottom while held there; whether it scrolled.
    fn keep_bottom(&mut self) -> bool {
        if self.bottom_hold.is_some_and(|until| js_sys::Date::now() > until) {
            self.bottom_hold = None;
            return false;
        }
        let Some(c) = self.element() else { return false };
        let before = c.scroll_top();
        c.set_scroll_top(c.scroll_height());
        c.scroll_top() != before
    }

    fn row_element(&self, id: u32) -> Option<HtmlElement> {
        super::measure::row(self.element().as_ref()?, id)
    }

    fn observe_rows(&self) {
        let (Some((o, _)), Some(c)) = (&self.observer, self.element()) else { return };
        o.disconnect();
        for el in super::measure::rows(&c) {
            o.observe(&el);
        }
    }

    /// Scrolls so the anchor row is where it was; whether it scrolled.
    fn restore_anchor(&self) -> bool {
        let Some(a) = self.anchor else { return false };
        let (Some(c), Some(el)) = (self.element(), self.row_element(a.id)) else { return false };
        let before = c.scroll_top();
        let now = el.get_bounding_client_rect().top() - c.get_bounding_client_rect().top();
        let Some(to) = a.correction(before, now) else { return false };
        c.set_scroll_top(to);
        c.scroll_top() != before
    }

    /// Reads the rendered rows' heights into the table; whether any changed.
    fn measure(&mut self) -> bool {
        let Some(c) = self.element() else { return false };
        super::measure::heights(&c, &mut self.heights)
    }
}
