//! The folder's projects: each a working directory (a record's `cwd` when
//! the survey found one, else the directory name decoded), with its
//! conversations, last activity and memory files. Choosing one filters the
//! list; a memory file opens here, shown as markdown (it is written by the
//! assistant, about the person: content, shown as text).

use yew::prelude::*;

use crate::app::blob::ReadError;
use crate::app::shared::Shared;
use crate::app::conversation::markdown;
use crate::fmt;
use crate::state::browser::{Browser, ListUi};

#[derive(Properties, PartialEq)]
pub struct Props {
    pub folder: Shared<Browser>,
    pub on_list: Callback<ListUi>,
    /// Reads a memory file (entry) and hands back its text or why not.
    pub on_memory: Callback<(u32, Callback<Result<String, ReadError>>)>,
}

#[function_component(Projects)]
pub fn projects(p: &Props) -> Html {
    // The memory file open here: (entry, its text or why it could not be read).
    let memory = use_state(|| None::<(u32, Result<String, ReadError>)>);
    let folder = &p.folder;
    let red = crate::app::redact::use_redaction();
    let pick = |k: Option<u32>| {
        let (on_list, list) = (p.on_list.clone(), folder.list.clone());
        Callback::from(move |_: MouseEvent| on_list.emit(ListUi { project: k, ..list.clone() }))
    };
    let open_memory = |entry: u32| {
        let (on_memory, memory) = (p.on_memory.clone(), memory.clone());
        Callback::from(move |_: MouseEvent| {
            let memory = memory.clone();
            on_memory.emit((entry, Callback::from(move |text| memory.set(Some((entry, text))))));
        })
    };
    let close = {
        let memory = memory.clone();
        Callback::from(move |_: MouseEvent| memory.set(None))
    };
    html! {
        <div class="projects" data-testid="projects">
            <ul class="project-list">
                { for folder.tree.projects.iter().enumerate().map(|(k, proj)| {
                    let k = k as u32;
                    let last = folder.project_last_ms(k).map_or_else(|| fmt::MISSING.to_string(), fmt::utc_minute);
                    // Its files name other working directories: said beside the label.
                    let (label, cwds) = (folder.project_dir(k), folder.project_cwds(k));
                    let elsewhere = cwds.iter().any(|c| *c != label).then(|| red.text(&format!("worked in {}", cwds.join(", "))));
                    html! {
                        <li class={classes!("project", (folder.list.project == Some(k)).then_some("chosen"))} data-project={red.text(&proj.name)}>
                            <button class="link-button project-dir" onclick={pick((folder.list.project != Some(k)).then_some(k))} title={red.text(&proj.name)}>
                                { red.text(&label) }
                            </button>
                            <span class="muted small">{ format!("{} · last {last}", fmt::plural(proj.conversations.len() as u64, "conversation", "conversations")) }</span>
                            if let Some(w) = elsewhere {
                                <span class="muted small cwds" data-testid="project-cwds">{ w }</span>
                            }
                            { for proj.memory.iter().map(|&e| {
                                let name = crate::fmt::file_name(&folder.tree.entry(e).path).to_string();
                                html! { <button class="chip memory" onclick={open_memory(e)} data-testid="memory-file">{ format!("memory: {}", red.text(&name)) }</button> }
                            }) }
                        </li>
                    }
                }) }
            </ul>
            if let Some((entry, text)) = &*memory {
                <div class="memory-view card" data-testid="memory">
                    <div class="memory-head">
                        <code>{ red.text(&folder.tree.entry(*entry).path) }</code>
                        <span class="muted small">{ "what the assistant keeps about its user in this project" }</span>
                        <button class="link-button" onclick={close}>{ "Close" }</button>
                    </div>
                    { match text {
                        Ok(t) => html! { <div class="prose">{ markdown(&red.text(t)) }</div> },
                        Err(why) => html! { <p class="bad">{ format!("It could not be read: {why}") }</p> },
                    } }
                </div>
            }
        </div>
    }
}
