//! An index as `index::wire` bytes in transferable `ArrayBuffer` pieces
//! (the worker's answer), and back, a piece at a time into wasm memory.

use js_sys::{Array, Uint8Array};

use crate::app::task::yield_to_page;
use crate::index::wire::{self, Input, WireError};
use crate::index::Index;

/// The encoded index travels in pieces of this size.
const PIECE_BYTES: usize = 4 << 20;
/// Records the page decodes between two yields (about 10 ms in Chromium),
/// so a 2 GB file's index (300 k rows) never holds the page for long.
const DECODE_STEP_RECORDS: usize = 50_000;

pub fn encode(ix: &Index) -> Array {
    let pieces = Array::new();
    wire::encode(ix, PIECE_BYTES, |p| {
        pieces.push(&Uint8Array::from(&p[..]).buffer());
    });
    pieces
}

/// Decodes, yielding to the page every [`DECODE_STEP_RECORDS`] records.
pub async fn decode(pieces: &Array) -> Result<Index, WireError> {
    let pieces: Vec<Uint8Array> = pieces.iter().map(|b| Uint8Array::new(&b)).collect();
    let total = pieces.iter().map(|p| u64::from(p.length())).sum();
    let mut input = Pieces { pieces, next: 0, buf: Vec::new(), at: 0, pos: 0, total };
    let mut decoder = wire::Decoder::start(&mut input)?;
    while !decoder.step(&mut input, DECODE_STEP_RECORDS)? {
        yield_to_page().await;
    }
    decoder.finish(&mut input)
}

/// The pieces of a transferred encoding, copied into wasm memory one at a
/// time (never the whole encoding at once).
struct Pieces {
    pieces: Vec<Uint8Array>,
    next: usize,
    buf: Vec<u8>,
    at: usize,
    pos: u64,
    total: u64,
}

impl Input for Pieces {
    fn read_exact(&mut self, out: &mut [u8]) -> Result<(), WireError> {
        let mut filled = 0;
        while filled < out.len() {
            if self.at == self.buf.len() {
                let Some(p) = self.pieces.get(self.next) else { return Err(WireError::Truncated { at_byte: self.pos }) };
                self.next += 1;
                self.buf.resize(p.length() as usize, 0);
                p.copy_to(&mut self.buf);
                self.at = 0;
            }
            let n = (out.len() - filled).min(self.buf.len() - self.at);
            out[filled..filled + n].copy_from_slice(&self.buf[self.at..self.at + n]);
            self.at += n;
            filled += n;
            self.pos += n as u64;
        }
        Ok(())
    }
    fn position(&self) -> u64 {
        self.pos
    }
    fn total_bytes(&self) -> u64 {
        self.total
    }
}
