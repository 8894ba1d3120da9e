//! In headless Chromium (`make wasm-test`): the app mounts, and reading a
//! file's bytes through the browser's `Blob.slice` reader gives exactly the
//! bytes, and the facts the native CLI wrote for the same file
//! (`target/wasm-expect/`).
#![cfg(target_arch = "wasm32")]

use ccscope::app::{blob_of, read_range, Chunks, FromWorker, ToWorker, FIRST_CHUNK_BYTES};
use ccscope::index::Indexer;
use ccscope::model::{Stats, DEFAULT_IDLE_GAP_SECS};
use serde_json::Value;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

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
async fn chunked_blob_reading_gives_every_byte_and_the_native_facts() {
    let cases: [(&str, &[u8], &str); 2] = [
        ("sample.jsonl", include_bytes!("../www/sample.jsonl"), include_str!("../target/wasm-expect/sample.json")),
        ("generated.jsonl", include_bytes!("../target/wasm-expect/generated.jsonl"), include_str!("../target/wasm-expect/generated.json")),
    ];
    for (name, bytes, native) in cases {
        let blob = blob_of(bytes).expect("a Blob");
        // Odd chunk sizes split lines, UTF-8 sequences and escapes; one
        // read in flight (the page) and several (the worker).
        for (chunk, in_flight) in [(1009u64, 1), (64 * 1024 + 7, 1), (64 * 1024 + 7, 3), (4 << 20, 1), (8 << 20, 2)] {
            let mut chunks = Chunks::file(&blob, chunk, in_flight);
            let (mut buf, mut all, mut ix, mut reads) = (Vec::new(), Vec::new(), Indexer::new(), 0u64);
            while let Some(start) = chunks.next(&mut buf).await.expect("readable") {
                assert_eq!(start, all.len() as u64, "{name}: chunks in order, none missing");
                all.extend_from_slice(&buf);
                ix.push(&buf);
                reads += 1;
            }
            assert!(all == bytes, "{name}: every byte once ({chunk} bytes, {in_flight} in flight)");
            // The first read is at most FIRST_CHUNK_BYTES, the rest `chunk` each.
            let len = bytes.len() as u64;
            let first = chunk.min(FIRST_CHUNK_BYTES).min(len);
            assert_eq!(reads, 1 + (len - first).div_ceil(chunk), "{name}: reads of {chunk} bytes");
            assert_same_facts(name, &Stats::compute(&ix.finish(), DEFAULT_IDLE_GAP_SECS), native);
        }
    }
}

/// Ranges read back by `Blob.slice` (how bodies and titles are read) are
/// the file's bytes, wherever they start and end.
#[wasm_bindgen_test]
async fn ranges_read_back_are_the_files_bytes() {
    let bytes = include_bytes!("../target/wasm-expect/generated.jsonl");
    let blob = blob_of(bytes).expect("a Blob");
    let len = bytes.len() as u64;
    for (start, end) in [(0, 0), (0, 1), (3, 70_000), (len / 2, len / 2 + 1_000_000), (len - 5, len), (len - 5, len + 100)] {
        let got = read_range(&blob, start, end).await.expect("readable");
        assert!(got == bytes[start as usize..end.min(len) as usize], "bytes {start}..{end}");
    }
}

/// The wasm (simd128) string scanner, byte by byte, against serde_json.
#[wasm_bindgen_test]
fn every_byte_at_every_block_position_reads_as_serde_json_reads_it() {
    if let Some(wrong) = ccscope::index::reference::every_byte_disagreement() {
        panic!("{wrong}");
    }
}

#[wasm_bindgen_test]
async fn the_app_mounts_with_its_picker() {
    let doc = web_sys::window().unwrap().document().unwrap();
    let root = doc.create_element("div").unwrap();
    doc.body().unwrap().append_child(&root).unwrap();
    yew::Renderer::<ccscope::app::App>::with_root(root.clone()).render();
    // Rendering happens in a later task: wait for it (not a fixed sleep).
    for _ in 0..200 {
        if root.query_selector("input#file-input[type=file]").unwrap().is_some() {
            break;
        }
        ccscope::app::yield_to_page().await;
    }
    let text = root.text_content().unwrap_or_default();
    assert!(text.contains("Open files…"), "rendered: {text}");
    assert!(text.contains("Open the sample"));
}

/// The worker's messages are postcard bytes plus the JS objects they hold
/// (`src/app/worker/protocol.rs`): a `File` comes back as the same object, and
/// what is not a message is refused, naming who sent it.
#[wasm_bindgen_test]
fn a_worker_message_keeps_its_file_and_a_stranger_is_named() {
    let blob = blob_of(b"{}\n").expect("a Blob");
    let sent = ToWorker::Find { id: 7, query: "needle".into(), blob: blob.clone() }.encode().expect("encodes");
    match ToWorker::decode(sent) {
        Ok(ToWorker::Find { id, query, blob: got }) => {
            assert_eq!((id, query.as_str()), (7, "needle"));
            assert!(js_sys::Object::is(&got, &blob), "the same Blob");
        }
        _ => panic!("a Find comes back a Find"),
    }
    let stranger = FromWorker::decode(wasm_bindgen::JsValue::from_str("hello")).err().expect("refused");
    assert!(stranger.to_string().contains("reading worker"), "{stranger}");
    // `Read { id: 1, blob: object 0, settled: true }` in postcard (variant, varints, bool), with a number as object 0.
    let read = js_sys::Array::of2(&js_sys::Uint8Array::from(&[0u8, 1, 0, 1][..]), &wasm_bindgen::JsValue::from_f64(3.0));
    let err = ToWorker::decode(read.into()).err().expect("a number is no Blob");
    assert!(err.to_string().contains("not of its field's type"), "{err}");
    let read = js_sys::Array::of2(&js_sys::Uint8Array::from(&[0u8, 1, 0, 1][..]), &blob);
    assert!(matches!(ToWorker::decode(read.into()), Ok(ToWorker::Read { id: 1, settled: true, .. })), "the same bytes with a Blob");
}
