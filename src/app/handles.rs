//! File System Access, where the browser has it (Chromium: Chrome, Edge,
//! Brave, Arc): files and folders picked (or dropped) as handles, a
//! folder's handle walked, a file as it is now (`getFile()`), and the
//! browser's permission asked again for a remembered handle. Called through
//! `Reflect` (web-sys has these only among its unstable APIs); everything
//! here is absent, not broken, where the browser lacks it.

use js_sys::{Array, Function, Object, Promise, Reflect};
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;
use web_sys::File;

pub fn get(o: &JsValue, key: &str) -> JsValue {
    Reflect::get(o, &JsValue::from_str(key)).unwrap_or(JsValue::UNDEFINED)
}

/// `target.method(...args)`, awaited when it returns a promise.
pub async fn call(target: &JsValue, method: &str, args: &[JsValue]) -> Result<JsValue, JsValue> {
    let f: Function = get(target, method).dyn_into().map_err(|_| JsValue::from_str(&format!("no {method}() here")))?;
    let out = f.apply(target, &args.iter().collect::<Array>())?;
    match out.dyn_into::<Promise>() {
        Ok(p) => JsFuture::from(p).await,
        Err(v) => Ok(v),
    }
}

/// Whether the browser gives pages handles (pickers that return them).
pub fn supported() -> bool {
    let w = js_sys::global();
    get(&w, "showOpenFilePicker").is_function() && get(&w, "showDirectoryPicker").is_function()
}

/// Why a pick gave nothing.
#[derive(Debug)]
pub enum PickError {
    /// The person closed the dialog.
    Dismissed,
    Failed(String),
}

fn words(e: &JsValue) -> String {
    let name = get(e, "name").as_string().unwrap_or_default();
    let message = get(e, "message").as_string().unwrap_or_else(|| format!("{e:?}"));
    if name.is_empty() {
        message
    } else {
        format!("{name}: {message}")
    }
}

fn pick_error(e: JsValue) -> PickError {
    match get(&e, "name").as_string().as_deref() {
        Some("AbortError") => PickError::Dismissed,
        _ => PickError::Failed(words(&e)),
    }
}

fn options(pairs: &[(&str, JsValue)]) -> JsValue {
    let o = Object::new();
    for (k, v) in pairs {
        let _ = Reflect::set(&o, &JsValue::from_str(k), v);
    }
    o.into()
}

/// `showOpenFilePicker({multiple: true})`: the handles of the files picked.
pub async fn pick_files() -> Result<Vec<JsValue>, PickError> {
    let opts = options(&[("multiple", true.into()), ("id", "ccscope-files".into())]);
    let picked = call(&js_sys::global(), "showOpenFilePicker", &[opts]).await.map_err(pick_error)?;
    Ok(picked.dyn_into::<Array>().map(|a| a.iter().collect()).unwrap_or_default())
}

/// `showDirectoryPicker({mode: "read"})`: the folder's handle.
pub async fn pick_folder() -> Result<JsValue, PickError> {
    let opts = options(&[("mode", "read".into()), ("id", "ccscope-folder".into())]);
    call(&js_sys::global(), "showDirectoryPicker", &[opts]).await.map_err(pick_error)
}

/// The handle's name (a file's or a folder's).
pub fn name(handle: &JsValue) -> String {
    get(handle, "name").as_string().unwrap_or_default()
}

pub fn is_folder(handle: &JsValue) -> bool {
    get(handle, "kind").as_string().as_deref() == Some("directory")
}

/// The file as it is now; `Err` in words (it vanished, or may no longer be read).
pub async fn file_of(handle: &JsValue) -> Result<File, String> {
    call(handle, "getFile", &[]).await.map_err(|e| words(&e))?.dyn_into::<File>().map_err(|_| "not a file".to_string())
}

/// The files of `handles` as they are now, asked for all at once (one by
/// one, each waits for the browser's answer); `None` for one that could not
/// be read.
pub async fn files_of<'a>(handles: impl Iterator<Item = &'a JsValue>) -> Vec<Option<File>> {
    let asked: Array = handles.map(|h| get(h, "getFile").dyn_into::<Function>().and_then(|f| f.call0(h)).unwrap_or_else(|e| Promise::reject(&e).into())).collect();
    // Each answer as `{status, value}` or `{status, reason}`: `allSettled` never fails.
    let settled: Array = JsFuture::from(Promise::all_settled(&asked)).await.map(JsCast::unchecked_into).unwrap_or_default();
    (0..asked.length()).map(|k| get(&settled.get(k), "value").dyn_into::<File>().ok()).collect()
}

/// Whether the page may read through `handle`; with `ask`, the browser asks
/// the person (only from a click).
pub async fn permitted(handle: &JsValue, ask: bool) -> bool {
    let opts = options(&[("mode", "read".into())]);
    let state = |v: Result<JsValue, JsValue>| v.ok().and_then(|s| s.as_string());
    if state(call(handle, "queryPermission", std::slice::from_ref(&opts)).await).as_deref() == Some("granted") {
        return true;
    }
    ask && state(call(handle, "requestPermission", &[opts]).await).as_deref() == Some("granted")
}

/// Whether two handles name the same file or folder.
pub async fn same(a: &JsValue, b: &JsValue) -> bool {
    call(a, "isSameEntry", std::slice::from_ref(b)).await.ok().and_then(|v| v.as_bool()).unwrap_or(false)
}

/// The dropped items' handles (`getAsFileSystemHandle()`), asked for while
/// the drop event lasts (the items are gone after it); `None` where the
/// browser has no such call.
pub fn dropped(dt: &web_sys::DataTransfer) -> Option<Vec<Promise>> {
    let items = dt.items();
    let mut out = Vec::new();
    for i in 0..items.length() {
        let item = items.get(i)?;
        let f: Function = get(&item, "getAsFileSystemHandle").dyn_into().ok()?;
        out.push(f.call0(&item).ok()?.dyn_into::<Promise>().ok()?);
    }
    Some(out)
}

/// The handles of a drop, once they resolved: `None` without them, or if
/// any item gave none (a drag from another page, say: the files are then
/// taken as they are).
pub async fn resolve_all(promises: Option<Vec<Promise>>) -> Option<Vec<JsValue>> {
    let mut out = Vec::new();
    for p in promises? {
        let h = JsFuture::from(p).await.ok().filter(|h| !h.is_null() && !h.is_undefined())?;
        out.push(h);
    }
    (!out.is_empty()).then_some(out)
}
