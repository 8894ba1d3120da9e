//! The files and folders opened through handles, remembered in this
//! browser's IndexedDB (database `ccscope`, store `handles`) so the landing
//! page can offer them again. Each record holds the handle (a reference the
//! browser can ask permission for again — never a file's contents), its
//! name, whether it is a folder, and when it was last opened. Nothing else
//! is stored; "Forget" and "Forget all" delete the records.

use js_sys::{Object, Promise, Reflect};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;

use super::handles::{self, get};

const DB: &str = "ccscope";
const STORE: &str = "handles";

/// One remembered handle.
#[derive(Clone)]
pub struct Remembered {
    /// The record's key.
    pub key: f64,
    pub name: String,
    pub is_folder: bool,
    /// When it was last opened (ms since 1970).
    pub opened_ms: f64,
    pub handle: JsValue,
}

impl PartialEq for Remembered {
    fn eq(&self, other: &Self) -> bool {
        self.key == other.key && self.opened_ms == other.opened_ms
    }
}

/// Awaits an `IDBRequest`: its `result`, or its `error`.
async fn request(req: JsValue) -> Result<JsValue, JsValue> {
    let p = Promise::new(&mut |resolve, reject| {
        let r = req.clone();
        let ok = Closure::once_into_js(move |_: JsValue| {
            let _ = resolve.call1(&JsValue::NULL, &get(&r, "result"));
        });
        let r = req.clone();
        let bad = Closure::once_into_js(move |_: JsValue| {
            let _ = reject.call1(&JsValue::NULL, &get(&r, "error"));
        });
        let _ = Reflect::set(&req, &"onsuccess".into(), &ok);
        let _ = Reflect::set(&req, &"onerror".into(), &bad);
    });
    JsFuture::from(p).await
}

/// The database, made on first use.
async fn open() -> Result<JsValue, JsValue> {
    let idb = get(&js_sys::global(), "indexedDB");
    if idb.is_undefined() || idb.is_null() {
        return Err("no IndexedDB here".into());
    }
    let req = handles::call(&idb, "open", &[DB.into(), 1.into()]).await?;
    let r = req.clone();
    let upgrade = Closure::once_into_js(move |_: JsValue| {
        let db = get(&r, "result");
        let opts = Object::new();
        let _ = Reflect::set(&opts, &"keyPath".into(), &"key".into());
        let _ = Reflect::set(&opts, &"autoIncrement".into(), &true.into());
        let _ = handles::get(&db, "createObjectStore").dyn_into::<js_sys::Function>().map(|f| f.call2(&db, &STORE.into(), &opts));
    });
    let _ = Reflect::set(&req, &"onupgradeneeded".into(), &upgrade);
    request(req).await
}

/// The store, in a transaction of `mode` ("readonly", "readwrite").
async fn store(mode: &str) -> Result<JsValue, JsValue> {
    let db = open().await?;
    let tx = handles::call(&db, "transaction", &[STORE.into(), mode.into()]).await?;
    handles::call(&tx, "objectStore", &[STORE.into()]).await
}

/// Every remembered handle, the most recently opened first; none when the
/// browser keeps none (no IndexedDB, a private window that refuses it).
pub async fn list() -> Vec<Remembered> {
    let all = async { request(handles::call(&store("readonly").await?, "getAll", &[]).await?).await };
    let Ok(all) = all.await else { return Vec::new() };
    let mut out: Vec<Remembered> = all
        .dyn_into::<js_sys::Array>()
        .map(|a| a.iter().collect::<Vec<_>>())
        .unwrap_or_default()
        .into_iter()
        .filter_map(|r| {
            Some(Remembered {
                key: get(&r, "key").as_f64()?,
                name: get(&r, "name").as_string().unwrap_or_default(),
                is_folder: get(&r, "folder").as_bool().unwrap_or(false),
                opened_ms: get(&r, "openedMs").as_f64().unwrap_or(0.0),
                handle: get(&r, "handle"),
            })
        })
        .collect();
    crate::sort::by(&mut out, |a, b| b.opened_ms.total_cmp(&a.opened_ms));
    out
}

/// Remembers `handle` as opened now (the record of the same file or folder
/// is updated, not doubled). Failing is not worth telling: it is offered
/// again only if it was kept.
pub async fn keep(handle: &JsValue) {
    let mut key = None;
    for r in list().await {
        if handles::same(&r.handle, handle).await {
            key = Some(r.key);
            break;
        }
    }
    let record = Object::new();
    let set = |k: &str, v: JsValue| {
        let _ = Reflect::set(&record, &k.into(), &v);
    };
    set("name", handles::name(handle).into());
    set("folder", handles::is_folder(handle).into());
    set("openedMs", js_sys::Date::now().into());
    set("handle", handle.clone());
    if let Some(k) = key {
        set("key", k.into());
    }
    let put = async { request(handles::call(&store("readwrite").await?, "put", &[record.into()]).await?).await };
    if let Err(e) = put.await {
        web_sys::console::warn_1(&format!("ccscope: could not remember {} ({e:?})", handles::name(handle)).into());
    }
}

/// Forgets one remembered handle (`Some(key)`) or all of them.
pub async fn forget(key: Option<f64>) {
    let done = async {
        let s = store("readwrite").await?;
        match key {
            Some(k) => request(handles::call(&s, "delete", &[k.into()]).await?).await,
            None => request(handles::call(&s, "clear", &[]).await?).await,
        }
    };
    if let Err(e) = done.await {
        web_sys::console::warn_1(&format!("ccscope: could not forget ({e:?})").into());
    }
}
