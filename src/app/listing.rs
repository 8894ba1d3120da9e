//! What the person picked, as a list of files with their paths: a folder
//! from `<input webkitdirectory>`, several files from `<input multiple>`, or
//! whatever was dropped (files and directories, walked with
//! `webkitGetAsEntry()` / `readEntries()`). Only names, sizes and dates are
//! looked at here; nothing is read.

use js_sys::{Function, Promise, Reflect};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;
use web_sys::File;

use super::task::{Cancel, Pacer};
use crate::folder::Entry;

/// A file of the pick and its path (`/`-separated, from the picked folder's name down).
pub struct PickedFile {
    pub entry: Entry,
    pub file: File,
    /// Its File System Access handle, when it came through one.
    pub handle: Option<JsValue>,
}

fn get(o: &JsValue, key: &str) -> JsValue {
    Reflect::get(o, &JsValue::from_str(key)).unwrap_or(JsValue::UNDEFINED)
}

pub fn entry_of(file: File, path: String, handle: Option<JsValue>) -> PickedFile {
    let modified = file.last_modified();
    let entry = Entry { path, size_bytes: file.size() as u64, modified_ms: (modified > 0.0).then_some(modified as i64) };
    PickedFile { entry, file, handle }
}

/// The files of an `<input>` (or a drop) and their paths: with
/// `webkitdirectory` each has a `webkitRelativePath`
/// ("projects/-Users-you-app/x.jsonl"); plain picks have only their names.
/// Nothing else is asked of them here: see [`entries_of`].
pub fn files_of(files: &web_sys::FileList) -> Vec<(File, String)> {
    (0..files.length())
        .filter_map(|i| files.get(i))
        .map(|f| {
            let rel = get(&f, "webkitRelativePath").as_string().filter(|p| !p.is_empty());
            let path = rel.unwrap_or_else(|| f.name());
            (f, path)
        })
        .collect()
}

/// The entries (path, size, date) of `files`, giving the page a turn at
/// least every [`super::task::YIELD_EVERY_MS`]. A picked folder's file's
/// first size or date is a round trip to the browser in Chromium (0.2 ms
/// each: 200 ms in one task for 900 files, measured by `make bench-browser`);
/// paced, no task of the page's runs long however many files were picked.
pub async fn entries_of(files: Vec<(File, String)>) -> Vec<PickedFile> {
    let mut pacer = Pacer::new();
    let mut out = Vec::with_capacity(files.len());
    for (f, path) in files {
        out.push(entry_of(f, path, None));
        pacer.maybe_yield().await;
    }
    out
}

/// Calls `method(ok, err)` on `target`: a promise of what `ok` is called with.
fn callback_promise(target: &JsValue, method: &str) -> Promise {
    let f: Function = match get(target, method).dyn_into() {
        Ok(f) => f,
        Err(e) => return Promise::reject(&e),
    };
    let target = target.clone();
    Promise::new(&mut |resolve, reject| {
        if let Err(e) = f.call2(&target, &resolve, &reject) {
            let _ = reject.call1(&JsValue::NULL, &e);
        }
    })
}

/// [`callback_promise`], awaited.
async fn callback_call(target: &JsValue, method: &str) -> Result<JsValue, JsValue> {
    JsFuture::from(callback_promise(target, method)).await
}

/// Files a drop's walk asks the browser for at once, and folders it reads at once.
const FILE_BATCH: usize = 500;
const FOLDER_BATCH: usize = 64;

/// An entry's path from the dropped folder's name down.
fn path_of(e: &JsValue) -> String {
    let path = get(e, "fullPath").as_string().unwrap_or_else(|| get(e, "name").as_string().unwrap_or_default());
    path.trim_start_matches('/').to_string()
}

fn is_folder(e: &JsValue) -> bool {
    get(e, "isDirectory").as_bool() == Some(true)
}

/// A dropped folder's entries: `readEntries()` answers in batches until an empty one.
async fn entries_in(folder: &JsValue) -> Result<Vec<JsValue>, JsValue> {
    let reader = get(folder, "createReader").dyn_into::<Function>()?.call0(folder)?;
    let mut out = Vec::new();
    loop {
        let batch: js_sys::Array = callback_call(&reader, "readEntries").await?.unchecked_into();
        if batch.length() == 0 {
            return Ok(out);
        }
        out.extend(batch.iter());
    }
}

/// Walks what was dropped: `entries` are `FileSystemEntry`s (anything with
/// their shape: `isDirectory`, `createReader().readEntries(ok, err)` and
/// `file(ok, err)`). A part that cannot be read is named in `unreadable`
/// and left out.
///
/// Folders are read, and files asked for, many at once: one by one, each
/// waits for the browser's answer (a timer's turn in the e2e harness: 881
/// files in 341 folders took 4.5 s in Firefox, measured by `make bench-browser`).
pub async fn walk(entries: Vec<JsValue>, cancel: &Cancel, on_count: impl Fn(usize)) -> (Vec<PickedFile>, Vec<String>) {
    let mut out = Vec::new();
    let mut unreadable = Vec::new();
    let (mut folders, mut files): (Vec<JsValue>, Vec<JsValue>) = entries.into_iter().partition(is_folder);
    let (mut pacer, mut told) = (Pacer::new(), 0);
    while !cancel.is_cancelled() {
        for batch in std::mem::take(&mut files).chunks(FILE_BATCH) {
            // Each answer as `{status, value}` or `{status, reason}`: `allSettled` never fails.
            let asked: js_sys::Array = batch.iter().map(|e| callback_promise(e, "file")).collect();
            let settled: js_sys::Array = JsFuture::from(Promise::all_settled(&asked)).await.map(JsCast::unchecked_into).unwrap_or_default();
            for (k, e) in batch.iter().enumerate() {
                match get(&settled.get(k as u32), "value").dyn_into::<File>() {
                    Ok(f) => out.push(entry_of(f, path_of(e), None)),
                    Err(_) => unreadable.push(path_of(e)),
                }
            }
            if out.len() >= told + FILE_BATCH {
                on_count(out.len());
                told = out.len();
            }
            pacer.maybe_yield().await;
        }
        if folders.is_empty() {
            break;
        }
        let wave: Vec<JsValue> = folders.drain(folders.len().saturating_sub(FOLDER_BATCH)..).collect();
        let read = futures::future::join_all(wave.iter().map(entries_in)).await;
        for (folder, entries) in wave.iter().zip(read) {
            match entries {
                Ok(entries) => entries.into_iter().for_each(|e| if is_folder(&e) { folders.push(e) } else { files.push(e) }),
                Err(_) => unreadable.push(path_of(folder)),
            }
        }
        pacer.maybe_yield().await;
    }
    crate::sort::by(&mut out, |a, b| a.entry.path.cmp(&b.entry.path));
    (out, unreadable)
}

/// The dropped items as entries (`webkitGetAsEntry()`), or `None` when the
/// browser has no such call (then the dropped files are taken as files).
pub fn dropped_entries(dt: &web_sys::DataTransfer) -> Option<Vec<JsValue>> {
    let items = dt.items();
    let mut out = Vec::new();
    for i in 0..items.length() {
        let item = items.get(i)?;
        let f: Function = get(&item, "webkitGetAsEntry").dyn_into().ok()?;
        let entry = f.call0(&item).ok().filter(|e| !e.is_null() && !e.is_undefined())?;
        out.push(entry);
    }
    Some(out)
}

/// What a pick is called: its folder's name, or how many files it holds.
pub fn name_of(picked: &[PickedFile]) -> String {
    let first = |p: &PickedFile| p.entry.path.split('/').next().unwrap_or("").to_string();
    match picked.first() {
        Some(p) if p.entry.path.contains('/') && picked.iter().all(|q| q.entry.path.split('/').next() == Some(first(p).as_str())) => first(p),
        _ => crate::fmt::plural(picked.len() as u64, "file", "files"),
    }
}
