//! One list item: reads the bodies it needs when it mounts (from the cache
//! or the file), then shows a prompt, an API turn, a system row, a divider,
//! a bookkeeping row or a malformed line ([`super::rows`], [`super::turn`]).

use std::collections::HashMap;
use std::rc::Rc;

use yew::prelude::*;

use super::rows::{self, Bodies};
use crate::app::bodies;
use crate::app::ctx::Ctx;
use crate::app::shared::Shared;
use crate::fmt;
use crate::index::{flag, Row};
use crate::model::body::Body;
use crate::model::items::{Item, ItemKind};
use crate::model::COMPACT_BOUNDARY;

#[derive(Properties)]
pub struct Props {
    pub ctx: Shared<Ctx>,
    pub id: u32,
    pub current: bool,
    pub hit: bool,
    pub on_resize: Callback<()>,
}

/// The same context, or one grown from the other with this item unchanged
/// (a followed file: only the items that changed draw again).
impl PartialEq for Props {
    fn eq(&self, o: &Self) -> bool {
        (self.ctx == o.ctx || self.ctx.draws_alike(&o.ctx, self.id)) && self.id == o.id && self.current == o.current && self.hit == o.hit && self.on_resize == o.on_resize
    }
}

/// Estimated height in pixels, before an item has been measured.
pub fn estimate(item: &Item) -> f32 {
    match item.kind {
        ItemKind::Turn(_) => 170.0,
        ItemKind::User => 90.0,
        ItemKind::System | ItemKind::Other | ItemKind::Malformed => 40.0,
        ItemKind::Idle { .. } | ItemKind::Resume { .. } => 44.0,
    }
}

/// Whether an item shows text read back from the file.
fn needs_bodies(ctx: &Ctx, item: &Item) -> bool {
    match item.kind {
        ItemKind::Idle { .. } | ItemKind::Resume { .. } | ItemKind::Malformed => false,
        ItemKind::System => ctx.ix().str(ctx.ix().rows[item.row as usize].subtype) != COMPACT_BOUNDARY,
        _ => true,
    }
}

fn time_of(row: &Row) -> Html {
    match row.timestamp_ms {
        Some(ms) => {
            let full = fmt::utc_ms(ms);
            html! { <time title={full.clone()}>{ full.get(11..19).unwrap_or("").to_string() }</time> }
        }
        None => html! {},
    }
}

fn kind_class(kind: ItemKind) -> &'static str {
    match kind {
        ItemKind::User => "user",
        ItemKind::Turn(_) => "turn",
        ItemKind::System => "system",
        ItemKind::Other => "other",
        ItemKind::Malformed => "malformed",
        ItemKind::Idle { .. } | ItemKind::Resume { .. } => "divider",
    }
}

/// The bodies an item holds, with the rows they are for and whether they
/// were redacted: when the file grows under a mounted item (the preview
/// becoming the whole file), its rows may too, and bodies for the old rows
/// are not the item's any more; nor are redacted ones once redaction is off.
#[hook]
fn use_bodies(ctx: &Shared<Ctx>, id: u32, on_resize: &Callback<()>) -> Option<Bodies> {
    let rows = use_memo((ctx.clone(), id), |(c, id)| c.view.rows_of(c.ix(), &c.view.items[*id as usize]));
    let redacted = ctx.redactor.is_some();
    let held = use_state(|| {
        let mut cache = ctx.cache.borrow_mut();
        let got: HashMap<u32, Rc<Body>> = rows.iter().filter_map(|&r| cache.get(r).map(|b| (r, b))).collect();
        (got.len() == rows.len()).then(|| (rows.clone(), Rc::new(got), redacted))
    });
    let bodies = held.as_ref().filter(|(for_rows, _, r)| **for_rows == *rows && *r == redacted).map(|(_, b, _)| b.clone());
    let want = needs_bodies(ctx, &ctx.view.items[id as usize]) && bodies.is_none();
    {
        let (held, rows, c) = (held.clone(), rows.clone(), ctx.clone());
        use_effect_with((ctx.clone(), id), move |_| {
            if want {
                yew::platform::spawn_local(async move {
                    let got = bodies::fetch(&c, &rows).await;
                    held.set(Some((rows, Rc::new(got.into_iter().filter_map(|(r, b)| b.map(|b| (r, b))).collect()), c.redactor.is_some())));
                });
            }
        });
    }
    let on_resize = on_resize.clone();
    use_effect_with(bodies.is_some(), move |_| on_resize.emit(()));
    bodies
}

#[function_component(ItemView)]
pub fn item_view(p: &Props) -> Html {
    let ctx = &p.ctx;
    let item = ctx.view.items[p.id as usize];
    let bodies = use_bodies(ctx, p.id, &p.on_resize);
    let ix = ctx.ix();
    let row = &ix.rows[item.row as usize];
    let needs = needs_bodies(ctx, &item);
    let content = match (item.kind, &bodies) {
        (ItemKind::Idle { gap_ms }, _) => rows::idle(gap_ms),
        (ItemKind::Resume { session, client }, _) => rows::resume(ix, session, client),
        (ItemKind::Malformed, _) => rows::malformed(row),
        (_, None) if needs => rows::placeholder(ctx, &item),
        (kind, b) => {
            let b = b.clone().unwrap_or_default();
            match kind {
                ItemKind::Turn(t) => super::turn::turn(ctx, t, &b, &p.on_resize),
                ItemKind::User => rows::user(ctx, item.row, &b, &p.on_resize),
                ItemKind::System => rows::system(ctx, item.row, &b),
                _ => rows::other(ctx, item.row, &b),
            }
        }
    };
    // Focus follows the current item (from the keys or a link) while the
    // focus is in the list, so Tab goes on into its controls; never out of
    // the search box or another control outside the list.
    let node = use_node_ref();
    use_effect_with((p.current, node.clone()), |(current, node)| {
        let Some(el) = node.cast::<web_sys::HtmlElement>().filter(|_| *current) else { return };
        let doc = el.owner_document();
        let in_list = match doc.as_ref().and_then(|d| d.active_element()) {
            None => true,
            Some(a) => {
                let body = doc.as_ref().and_then(|d| d.body()).is_some_and(|b| *b == a);
                body || el.closest("[data-testid=turn-list]").ok().flatten().is_some_and(|l| l.contains(Some(&a)))
            }
        };
        if in_list {
            let opts = web_sys::FocusOptions::new();
            opts.set_prevent_scroll(true);
            let _ = el.focus_with_options(&opts);
        }
    });
    let line = row.line_no;
    let kind = kind_class(item.kind);
    // Settled: showing its real content, so its height can be measured.
    let settled = bodies.is_some() || !needs;
    html! {
        <article ref={node} tabindex={p.current.then_some("-1")} class={classes!("item", kind, item.failed.then_some("failed"), p.current.then_some("current"), p.hit.then_some("hit"),
                row.has(flag::SIDECHAIN).then_some("sidechain"))}
            data-item={p.id.to_string()} data-line={line.to_string()} data-kind={kind} data-settled={settled.then_some("")}
            data-turn={match item.kind { ItemKind::Turn(t) => Some(t.to_string()), _ => None }}>
            if !item.is_divider() {
                <div class="gutter">
                    <a class="ln" href={ctx.line_href(line)} title="Link to this line">{ format!("L{line}") }</a>
                    { time_of(row) }
                </div>
            }
            <div class="item-body">{ content }</div>
        </article>
    }
}
