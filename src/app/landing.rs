//! The landing panel: pick a transcript, several, or a whole folder; drop
//! them; or open the sample. Says which folder to pick and how to see it
//! (`~/.claude` is hidden in the system's file dialog). Where the browser
//! gives pages File System Access handles, the buttons pick through them
//! and what was opened is offered again ("Reopen"), with what is stored.

use wasm_bindgen::JsValue;
use web_sys::HtmlInputElement;
use yew::prelude::*;

use super::handles::{self, PickError};
use super::listing::{entries_of, files_of, PickedFile};
use super::open::Source;
use super::remembered::Remembered;

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
    /// The browser gives handles: the buttons pick through them.
    #[prop_or_default]
    pub handles: bool,
    /// Handles picked (files, or a folder).
    #[prop_or_default]
    pub on_handles: Callback<Vec<JsValue>>,
    /// What was opened through handles before, the most recent first.
    #[prop_or_default]
    pub remembered: Vec<Remembered>,
    #[prop_or_default]
    pub on_reopen: Callback<JsValue>,
    /// Forget one (its key) or all (`None`).
    #[prop_or_default]
    pub on_forget: Callback<Option<f64>>,
}

/// A picker's button: the handles it gives go to `on_handles`; a dismissed
/// dialog is nothing, a refusal is said in the console.
fn picker(folder: bool, on_handles: &Callback<Vec<JsValue>>) -> Callback<MouseEvent> {
    let on_handles = on_handles.clone();
    Callback::from(move |_: MouseEvent| {
        let on_handles = on_handles.clone();
        yew::platform::spawn_local(async move {
            let picked = if folder { handles::pick_folder().await.map(|d| vec![d]) } else { handles::pick_files().await };
            match picked {
                Ok(h) if !h.is_empty() => on_handles.emit(h),
                Ok(_) | Err(PickError::Dismissed) => {}
                Err(PickError::Failed(why)) => web_sys::console::warn_1(&format!("ccscope: the picker failed: {why}").into()),
            }
        });
    })
}

/// "Reopen …" for each remembered handle, each with "Forget", and "Forget all".
fn reopen_list(p: &Props, red: &super::redact::Redaction) -> Html {
    if p.remembered.is_empty() {
        return html! {};
    }
    let now_ms = js_sys::Date::now();
    html! {
        <section class="remembered" aria-labelledby="remembered-title" data-testid="remembered">
            <h2 id="remembered-title">{ "Opened here before" }</h2>
            <ul>
                { for p.remembered.iter().map(|r| {
                    let (reopen, forget) = (p.on_reopen.clone(), p.on_forget.clone());
                    let (handle, key) = (r.handle.clone(), r.key);
                    let name = red.text(&r.name);
                    let what = if r.is_folder { format!("{name}/") } else { name };
                    html! {
                        <li>
                            <button class="button" type="button" data-testid="reopen" onclick={Callback::from(move |_: MouseEvent| reopen.emit(handle.clone()))}>
                                { format!("Reopen {what}") }
                            </button>
                            <span class="muted small">{ format!(" last opened {}", crate::fmt::ago((now_ms - r.opened_ms) / 1000.0)) }</span>
                            <button class="link-button" type="button" data-testid="forget" aria-label={format!("Forget {what}")}
                                onclick={Callback::from(move |_: MouseEvent| forget.emit(Some(key)))}>{ "Forget" }</button>
                        </li>
                    }
                }) }
            </ul>
            <p class="muted small">
                { "Kept in this browser only (its IndexedDB, for this page): a handle to each file or folder, its name and when it was opened — never a file's contents. Reopening asks the browser's permission again. " }
                <button class="link-button" type="button" data-testid="forget-all" onclick={p.on_forget.reform(|_: MouseEvent| None)}>{ "Forget all" }</button>
            </p>
        </section>
    }
}

impl PartialEq for PickedFile {
    fn eq(&self, other: &Self) -> bool {
        self.entry == other.entry
    }
}

#[function_component(Landing)]
pub fn landing(props: &Props) -> Html {
    let red = super::redact::use_redaction();
    let on_input = |folder: bool| {
        let (on_open, on_files) = (props.on_open.clone(), props.on_files.clone());
        Callback::from(move |e: Event| {
            let input: HtmlInputElement = e.target_unchecked_into();
            let files = input.files().map(|list| files_of(&list)).unwrap_or_default();
            // Picking the same again must fire `change` again (the `File`s taken stay readable).
            input.set_value("");
            match (folder, files.len()) {
                (_, 0) => {}
                (false, 1) => {
                    if let Some((file, _)) = files.into_iter().next() {
                        on_open.emit(Source::File(file));
                    }
                }
                _ => {
                    let on_files = on_files.clone();
                    yew::platform::spawn_local(async move { on_files.emit((entries_of(files).await, folder)) });
                }
            }
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
                if props.handles {
                    <button class="button primary" type="button" onclick={picker(false, &props.on_handles)} data-testid="open-files">{ "Open files…" }</button>
                    <button class="button" type="button" onclick={picker(true, &props.on_handles)} data-testid="open-folder">{ "Open a folder…" }</button>
                    // Not offered here (the buttons pick through handles), but kept: a
                    // script or an extension may still hand files to them.
                    <input id="file-input" type="file" multiple=true tabindex="-1" aria-hidden="true" onchange={on_input(false)} />
                    <input id="folder-input" type="file" webkitdirectory=true tabindex="-1" aria-hidden="true" onchange={on_input(true)} />
                } else {
                    <label class="button primary" for="file-input" data-testid="open-files">{ "Open files…" }</label>
                    <input id="file-input" type="file" multiple=true accept=".jsonl,.json,application/x-ndjson,application/json,text/plain" onchange={on_input(false)} />
                    <label class="button" for="folder-input" data-testid="open-folder">{ "Open a folder…" }</label>
                    <input id="folder-input" type="file" webkitdirectory=true onchange={on_input(true)} />
                }
                <button class="button" type="button" onclick={sample} data-testid="open-sample">{ "Open the sample" }</button>
                if !props.compact {
                    <span class="hint">{ "or drop files or a folder anywhere on this page" }</span>
                }
                if props.busy {
                    <span class="hint" aria-live="polite">{ "Reading…" }</span>
                }
            </div>
            if !props.compact {
                { reopen_list(props, &red) }
                <p class="muted small" data-testid="handles-line">
                    if props.handles {
                        { "This browser lets the page follow a conversation as Claude Code writes it, and reopen what you opened here before." }
                    } else {
                        { "Following a conversation as it is written, and reopening what you opened before, need a Chromium-based browser (Chrome, Edge, Brave, Arc): they give pages handles to files." }
                    }
                </p>
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
