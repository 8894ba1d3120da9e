//! What the conversation view knows of the folder around it: the folder,
//! which conversation this is, the picked files, and the callbacks that open
//! a run or draw one of its items. Data only; a context the app provides
//! when a conversation of a folder is open.

use std::rc::Rc;

use yew::prelude::*;

use crate::app::ctx::Ctx;
use crate::app::files::Files;
use crate::app::shared::Shared;
use crate::folder::Linked;
use crate::state::browser::Browser;
use crate::state::FileId;

/// What the conversation view knows of the folder around it.
#[derive(Clone, PartialEq)]
pub struct InFolder {
    pub folder: Shared<Browser>,
    pub conv: u32,
    /// The run shown (by agent id), when a run of the conversation is
    /// opened as a transcript or its turns are drawn inline under its call;
    /// `None`: the conversation itself.
    pub run: Option<Rc<str>>,
    pub files: Files,
    /// Opens one of this conversation's runs as a transcript (by agent id).
    pub open_run: Callback<Rc<str>>,
    /// Draws item `id` of a run's own list (a render callback, as the
    /// virtual list has: the run card does not import the item it nests).
    pub render_item: Callback<(Shared<Ctx>, u32, Callback<()>), Html>,
}

impl InFolder {
    /// Every run beside the conversation (its own and theirs); `None`
    /// until the survey summed it up.
    pub fn all_runs(&self) -> Option<&[Linked]> {
        self.folder.facts(self.conv).map(|f| f.runs.as_slice())
    }

    /// The run shown, when a run is opened as a transcript.
    pub fn this_run(&self) -> Option<&Linked> {
        let agent = self.run.as_deref()?;
        self.all_runs()?.iter().find(|l| l.link.agent_id == agent)
    }

    /// The runs of what is shown: the conversation's; for a run, those its
    /// own calls spawned (their meta names one of its calls). `None` until
    /// the survey summed the conversation up.
    pub fn runs(&self) -> Option<Vec<&Linked>> {
        let all = self.all_runs()?;
        Some(match (&self.run, self.this_run()) {
            (None, _) => all.iter().collect(),
            (Some(_), Some(me)) => all.iter().filter(|l| l.spawned_by().is_some_and(|id| me.run.agent_calls.iter().any(|c| c == id))).collect(),
            (Some(_), None) => Vec::new(),
        })
    }

    /// The runs spawned by the call `tool_use_id` (in the conversation, not
    /// those whose meta names a call it does not have: they are unplaced;
    /// nor a workflow run's agents: they sit in its card).
    pub fn runs_of(&self, tool_use_id: &str) -> Vec<&Linked> {
        let all = self.all_runs().unwrap_or(&[]).iter().filter(|l| l.workflow.is_none());
        match self.run {
            None => all.filter(|l| l.link.tool_use_id.as_deref() == Some(tool_use_id) && !l.unplaced()).collect(),
            Some(_) => all.filter(|l| l.spawned_by() == Some(tool_use_id)).collect(),
        }
    }

    /// How deep run `agent_id` sits (`folder::summary::depth_of`).
    pub fn depth_of(&self, agent_id: &str) -> Option<u32> {
        crate::folder::summary::depth_of(self.all_runs()?, agent_id)
    }

    /// The full output of `tool_use_id`, if its `tool-results/` file was picked.
    pub fn tool_result(&self, tool_use_id: &str) -> Option<web_sys::Blob> {
        self.blob(self.folder.tree.tool_result(self.conv, tool_use_id)?).map(|(_, b)| b)
    }

    pub fn blob(&self, entry: u32) -> Option<(FileId, web_sys::Blob)> {
        let id = *self.folder.files.get(entry as usize)?;
        Some((id, self.files.get(id)?))
    }
}
