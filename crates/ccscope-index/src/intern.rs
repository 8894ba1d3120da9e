//! String interning for short identifiers (ids, names, versions).

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

/// An interned string. `Sym::NONE` (0) means "absent or not a string".
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Sym(pub u32);

impl Sym {
    pub const NONE: Sym = Sym(0);
    pub fn is_none(self) -> bool {
        self.0 == 0
    }
    pub fn is_some(self) -> bool {
        self.0 != 0
    }
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// FxHash (as in rustc): fast for short keys; hash flooding is no concern for
/// a local, single-user tool.
#[derive(Default)]
pub struct FxHasher(u64);

impl Hasher for FxHasher {
    fn write(&mut self, bytes: &[u8]) {
        const K: u64 = 0x51_7c_c1_b7_27_22_0a_95;
        let mut h = self.0;
        let mut chunks = bytes.chunks_exact(8);
        for c in &mut chunks {
            let w = u64::from_le_bytes([c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7]]);
            h = (h.rotate_left(5) ^ w).wrapping_mul(K);
        }
        for &b in chunks.remainder() {
            h = (h.rotate_left(5) ^ b as u64).wrapping_mul(K);
        }
        self.0 = h;
    }
    fn finish(&self) -> u64 {
        self.0
    }
}

pub type FxBuild = BuildHasherDefault<FxHasher>;
pub type FxHashMap<K, V> = HashMap<K, V, FxBuild>;

/// Interned strings, numbered in order of first appearance from 1.
#[derive(Default, Clone, Debug)]
pub struct Interner {
    map: FxHashMap<Box<str>, Sym>,
    /// `strings[0]` is the empty placeholder for `Sym::NONE`.
    strings: Vec<Box<str>>,
}

impl Interner {
    pub fn new() -> Self {
        Interner { map: FxHashMap::default(), strings: vec!["".into()] }
    }

    pub fn intern(&mut self, s: &str) -> Sym {
        if let Some(&sym) = self.map.get(s) {
            return sym;
        }
        let sym = Sym(self.strings.len() as u32);
        self.strings.push(s.into());
        self.map.insert(s.into(), sym);
        sym
    }

    pub fn get(&self, s: &str) -> Option<Sym> {
        self.map.get(s).copied()
    }

    /// The string of a symbol; `""` for `Sym::NONE`.
    pub fn resolve(&self, sym: Sym) -> &str {
        self.strings.get(sym.index()).map(|s| &**s).unwrap_or("")
    }

    /// Number of symbols including the `NONE` placeholder.
    pub fn len(&self) -> usize {
        self.strings.len()
    }

    pub fn is_empty(&self) -> bool {
        self.strings.len() <= 1
    }

    /// Bytes held by the strings (for memory accounting).
    pub fn heap_bytes(&self) -> usize {
        self.strings.iter().map(|s| s.len() * 2 + 48).sum()
    }
}
