//! The landing panel: pick a transcript, several, or a whole folder; drop
//! them; or open the sample. Says which folder to pick and how to see it
//! (`~/.claude` is hidden in the system's file dialog).

use web_sys::HtmlInputElement;
use yew::prelude::*;

use super::listing::{from_input, PickedFile};
use super::open::Source;

#[derive(Properties, PartialEq)]
pub struct Props {
    pub on_open: Callback<Source>,
    /// Several files, or a folder (`true`), were picked.
    pub on_files: Callback<(Vec<PickedFile>, bool)>,
    /// A read is under way.
    pub busy: bool,
    /// Something is shown: the panel shrinks to a bar.
    pub compact: bool,
    /// What a link opened before a pick asks for, in words
    /// (`state::address::describe`); shown above the buttons (`None` when compact).
    #[prop_or_default]
    pub wanted: Option<String>,
}

impl PartialEq for PickedFile {
    fn eq(&self, other: &Self) -> bool {
        self.entry == other.entry
    }
}

#[function_component(Landing)]
pub fn landing(props: &Props) -> Html {
    let on_input = |folder: bool| {
        let (on_open, on_files) = (props.on_open.clone(), props.on_files.clone());
        Callback::from(move |e: Event| {
            let input: HtmlInputElement = e.target_unchecked_into();
            if let Some(list) = input.files() {
                let mut picked = from_input(&list);
                match (folder, picked.len()) {
                    (_, 0) => {}
                    (false, 1) => on_open.emit(Source::File(picked.remove(0).file)),
                    _ => on_files.emit((picked, folder)),
                }
            }
            // Picking the same again must fire `change` again.
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
                <h1>{ "See what happened in your Claude Code sessions" }</h1>
                <p class="lead">
                    { "Open a " }<code>{ ".jsonl" }</code>{ " transcript, or the whole " }<code>{ "~/.claude/projects" }</code>
                    { " folder (or one project in it): every conversation with its turns, tool calls, subagents, failures, compactions, tokens and time. Large files are fine — they are read in chunks, on this device." }
                </p>
            }
            if let Some(w) = &props.wanted {
                <p class="deep-link" role="status" data-testid="deep-link">{ w.clone() }</p>
            }
            <div class="actions">
                <label class="button primary" for="file-input">{ "Open files…" }</label>
                <input id="file-input" type="file" multiple=true accept=".jsonl,.json,application/x-ndjson,application/json,text/plain" onchange={on_input(false)} />
                <label class="button" for="folder-input" data-testid="open-folder">{ "Open a folder…" }</label>
                <input id="folder-input" type="file" webkitdirectory=true onchange={on_input(true)} />
                <button class="button" type="button" onclick={sample} data-testid="open-sample">{ "Open the sample" }</button>
                if !props.compact {
                    <span class="hint">{ "or drop files or a folder anywhere on this page" }</span>
                }
                if props.busy {
                    <span class="hint" aria-live="polite">{ "Reading…" }</span>
                }
            </div>
            if !props.compact {
                <details class="hidden-folders">
                    <summary>{ "Where is ~/.claude? It is a hidden folder" }</summary>
                    <ul>
                        <li>{ "macOS: in the folder dialog press " }<kbd>{ "⌘" }</kbd>{ " " }<kbd>{ "⇧" }</kbd>{ " " }<kbd>{ "." }</kbd>{ " to show hidden folders, or " }<kbd>{ "⌘" }</kbd>{ " " }<kbd>{ "⇧" }</kbd>{ " " }<kbd>{ "G" }</kbd>{ " and type " }<code>{ "~/.claude/projects" }</code>{ "." }</li>
                        <li>{ "Linux: press " }<kbd>{ "Ctrl" }</kbd>{ " " }<kbd>{ "H" }</kbd>{ " in the dialog, or " }<kbd>{ "Ctrl" }</kbd>{ " " }<kbd>{ "L" }</kbd>{ " and type the path." }</li>
                        <li>{ "Windows: type " }<code>{ "%USERPROFILE%\\.claude\\projects" }</code>{ " in the dialog's address bar." }</li>
                    </ul>
                    <p class="muted small">{ "Pick projects (all your conversations) or one folder inside it (one working directory). Nothing is uploaded: the browser reads the files on this device." }</p>
                </details>
            }
        </section>
    }
}
