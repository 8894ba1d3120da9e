//! The indexer never panics, and agrees with the serde_json reference, for
//! any bytes in any chunking. The first byte picks the chunk size: 1–17
//! bytes, or (top bit set) the whole input at once, where most lines take the
//! indexer's in-place path.
#![no_main]

use ccscope::index::{reference, Indexer};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some((&k, bytes)) = data.split_first() else { return };
    let chunk = if k & 0x80 != 0 { bytes.len().max(1) } else { (k as usize % 17) + 1 };
    let mut ix = Indexer::new();
    for c in bytes.chunks(chunk) {
        ix.push(c);
    }
    let got = reference::resolve(&ix.finish());
    let want = reference::resolve(&reference::index(bytes));
    assert_eq!(want, got);
});
