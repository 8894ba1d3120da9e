//! The landing panel: file picker, drop hint, sample button.

use web_sys::HtmlInputElement;
use yew::prelude::*;

use super::Source;

#[derive(Properties, PartialEq)]
pub struct Props {
    pub on_open: Callback<Source>,
    /// A read is under way.
    pub busy: bool,
    /// A file is shown: the panel shrinks to a bar.
    pub compact: bool,
}

#[function_component(Picker)]
pub fn picker(props: &Props) -> Html {
    let onchange = {
        let on_open = props.on_open.clone();
        Callback::from(move |e: Event| {
            let input: HtmlInputElement = e.target_unchecked_into();
            if let Some(file) = input.files().and_then(|fs| fs.get(0)) {
                on_open.emit(Source::File(file));
            }
            // Picking the same file again must fire `change` again.
            input.set_value("");
        })
    };
    let sample = {
        let on_open = props.on_open.clone();
        Callback::from(move |_: MouseEvent| on_open.emit(Source::Sample))
    };
    html! {
        <section class={classes!("picker", props.compact.then_some("compact"))}>
            if !props.compact {
                <h1>{ "See what happened in a Claude Code session" }</h1>
                <p class="lead">
                    { "Open a " }<code>{ ".jsonl" }</code>{ " transcript from " }<code>{ "~/.claude/projects/" }</code>
                    { ": turns, tool calls, failures, compactions, tokens and time. Large files are fine — they are read in chunks." }
                </p>
            }
            <div class="actions">
                <label class="button primary" for="file-input">{ if props.compact { "Open another file…" } else { "Choose a transcript…" } }</label>
                <input id="file-input" type="file" accept=".jsonl,.json,application/x-ndjson,application/json,text/plain" {onchange} />
                <button class="button" type="button" onclick={sample} data-testid="open-sample">{ "Open the sample" }</button>
                if !props.compact {
                    <span class="hint">{ "or drop a file anywhere on this page" }</span>
                }
                if props.busy {
                    <span class="hint" aria-live="polite">{ "Reading…" }</span>
                }
            </div>
        </section>
    }
}
