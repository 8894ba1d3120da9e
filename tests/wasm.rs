//! In headless Chromium (`make wasm-test`): the app mounts, and reading a
//! file's bytes through the browser's `Blob.slice` reader gives exactly the
//! facts the native CLI wrote for the same file (`target/wasm-expect/`).
#![cfg(target_arch = "wasm32")]

use ccscope::app::{read_blob, ReadError, FIRST_CHUNK_BYTES};
use ccscope::model::{Stats, DEFAULT_IDLE_GAP_SECS};
use gloo::timers::future::TimeoutFuture;
use serde_json::Value;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

fn blob(bytes: &[u8]) -> web_sys::Blob {
    let parts = js_sys::Array::of1(&js_sys::Uint8Array::from(bytes));
    web_sys::Blob::new_with_u8_array_sequence(&parts).expect("a Blob from bytes")
}

fn assert_same_facts(name: &str, got: &Stats, native_json: &str) {
    let native: Value = serde_json::from_str(native_json).expect("native stats JSON");
    let got = serde_json::to_value(got).expect("stats as JSON");
    for (k, want) in native.as_object().expect("an object") {
        if k == "subagents" {
            continue; // needs the folder beside the file; a picked Blob has none
        }
        let g = &got[k];
        let same = match (want, g) {
            (Value::Number(a), Value::Number(b)) => (a.as_f64().unwrap() - b.as_f64().unwrap()).abs() <= 0.001,
            _ => want == g,
        };
        assert!(same, "{name}: {k}: native {want}, wasm {g}");
    }
}

#[wasm_bindgen_test]
async fn chunked_blob_reading_gives_the_native_facts() {
    let cases: [(&str, &[u8], &str); 2] = [
        ("sample.jsonl", include_bytes!("../www/sample.jsonl"), include_str!("../target/wasm-expect/sample.json")),
        ("generated.jsonl", include_bytes!("../target/wasm-expect/generated.jsonl"), include_str!("../target/wasm-expect/generated.json")),
    ];
    for (name, bytes, native) in cases {
        // Odd chunk sizes split lines, UTF-8 sequences and escapes.
        // One read in flight (the page) and several (the worker).
        for (chunk, in_flight) in [(1009u64, 1), (64 * 1024 + 7, 1), (64 * 1024 + 7, 3), (4 << 20, 1), (8 << 20, 2)] {
            let mut calls = 0;
            let out = match read_blob(&blob(bytes), chunk, in_flight, |_| {}, |_| {
                calls += 1;
                true
            })
            .await
            {
                Ok(o) => o,
                Err(ReadError::Browser(e)) => panic!("{name}: browser error {e}"),
                Err(ReadError::Superseded) => panic!("{name}: superseded"),
            };
            // The first read is at most FIRST_CHUNK_BYTES, the rest `chunk` each.
            let len = bytes.len() as u64;
            let first = chunk.min(FIRST_CHUNK_BYTES).min(len);
            let want_calls = 1 + (len - first).div_ceil(chunk);
            assert_eq!(calls as u64, want_calls, "{name}: one progress call per chunk ({chunk} bytes, {in_flight} in flight)");
            assert_same_facts(name, &Stats::compute(&out.index, DEFAULT_IDLE_GAP_SECS), native);
        }
    }
}

/// The wasm (simd128) string scanner, byte by byte, against serde_json.
#[wasm_bindgen_test]
fn every_byte_at_every_block_position_reads_as_serde_json_reads_it() {
    if let Some(wrong) = ccscope::index::reference::every_byte_disagreement() {
        panic!("{wrong}");
    }
}

/// Bodies taken from the file's head (the first chunk the page holds) are
/// the bodies `Blob.slice` reads give, for a head that ends anywhere:
/// before every line, inside one, after all of them.
#[wasm_bindgen_test]
async fn bodies_from_the_head_are_the_bodies_read_from_the_file() {
    use ccscope::app::{fetch_bodies, BodyCache, CACHE_BUDGET_BYTES};
    use std::cell::RefCell;
    use std::rc::Rc;
    let bytes = include_bytes!("../www/sample.jsonl");
    let ix = ccscope::index::Indexer::index_bytes(bytes);
    let rows: Vec<u32> = (0..ix.rows.len() as u32).collect();
    let b = blob(bytes);
    let bodies = |head_len: usize| {
        let (b, ix, rows) = (b.clone(), &ix, rows.clone());
        async move {
            let cache = Rc::new(RefCell::new(BodyCache::new(CACHE_BUDGET_BYTES)));
            let got = fetch_bodies(&b, &bytes[..head_len], ix, &cache, &rows).await;
            got.into_iter().map(|(r, body)| format!("{r}: {body:?}")).collect::<Vec<_>>()
        }
    };
    let from_file = bodies(0).await;
    assert_eq!(from_file.len(), ix.rows.len());
    assert!(from_file.iter().all(|b| !b.ends_with(": None")), "every sample line parses");
    let mid_line = ix.rows[ix.rows.len() / 2].offset as usize + 3;
    for head_len in [mid_line, bytes.len() / 3, bytes.len()] {
        assert_eq!(bodies(head_len).await, from_file, "head of {head_len} bytes");
    }
}

#[wasm_bindgen_test]
async fn a_superseded_read_stops() {
    let bytes = include_bytes!("../target/wasm-expect/generated.jsonl");
    let r = read_blob(&blob(bytes), 64 * 1024, 2, |_| {}, |read| read < 128 * 1024).await;
    assert!(matches!(r, Err(ReadError::Superseded)));
}

#[wasm_bindgen_test]
async fn the_app_mounts_with_its_picker() {
    let doc = web_sys::window().unwrap().document().unwrap();
    let root = doc.create_element("div").unwrap();
    doc.body().unwrap().append_child(&root).unwrap();
    yew::Renderer::<ccscope::app::App>::with_root(root.clone()).render();
    TimeoutFuture::new(50).await;
    let text = root.text_content().unwrap_or_default();
    assert!(text.contains("Choose a transcript"), "rendered: {text}");
    assert!(text.contains("Open the sample"));
    assert!(root.query_selector("input#file-input[type=file]").unwrap().is_some());
}
