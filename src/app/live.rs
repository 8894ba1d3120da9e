//! The bar above a followed conversation: that it is followed (and the
//! toggle that stops it), a line still being written, or that the file is
//! gone (what was read stays on screen).

use yew::prelude::*;

use crate::state::live::Live;

#[derive(Properties, PartialEq)]
pub struct Props {
    pub live: Live,
    /// Following is on (the person's toggle).
    pub on: bool,
    pub on_follow: Callback<bool>,
}

#[function_component(LiveBar)]
pub fn live_bar(p: &Props) -> Html {
    let l = &p.live;
    let toggle = {
        let (on_follow, on) = (p.on_follow.clone(), p.on);
        Callback::from(move |_: Event| on_follow.emit(!on))
    };
    if let Some(why) = &l.gone {
        return html! {
            <div class="live-bar gone" role="status" data-testid="live">
                { format!("This file can no longer be read ({why}): following stopped; what was read is still shown.") }
            </div>
        };
    }
    html! {
        <div class={classes!("live-bar", p.on.then_some("on"))} role="status" data-testid="live">
            <label class="live-toggle">
                <input type="checkbox" checked={p.on} onchange={toggle} data-testid="follow" />
                { " Follow" }
            </label>
            <span class="muted small">
                if p.on {
                    <span class="live-dot" aria-hidden="true"></span>
                    { "New records appear as Claude Code writes them (checked every second while this tab is shown)." }
                    if l.open_line_bytes > 0 {
                        { format!(" A line is being written ({}).", crate::fmt::bytes(l.open_line_bytes)) }
                    }
                } else {
                    { "Paused: turn Follow on to catch up with what was written since." }
                }
            </span>
        </div>
    }
}
