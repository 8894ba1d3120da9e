//! A file that is still being written, indexed as it grows: each check
//! reads only the bytes appended since the last one (a file that grew by N
//! bytes costs N bytes of work), on the same [`Indexer`] as a whole read.
//!
//! ```text
//!   size now ──► Tail::change ──► Same                 nothing to read
//!                             ├─► Grew { from, to }   read [from, to) ─► push
//!                             └─► Restart(why)        read the file whole again
//! ```
//!
//! Invariant: after pushing every byte of a file, in any number of growth
//! steps split anywhere (inside a line, inside a UTF-8 sequence), the
//! settled index equals the one [`Indexer::index_bytes`] gives for the same
//! bytes up to their last newline; the line still being written is carried
//! and never counted malformed (`tests/index_properties.rs`).

use super::{Index, Indexer};

/// The first bytes kept to tell a file that grew from one rewritten.
pub const HEAD_BYTES: usize = 1024;

/// What a check found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Change {
    /// The same size as at the last check.
    Same,
    /// New bytes `[from, to)` to read and push.
    Grew { from: u64, to: u64 },
    /// The file must be read whole again.
    Restart(Restart),
}

/// Why a followed file is read whole again.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Restart {
    #[error("the file shrank from {was_bytes} to {now_bytes} bytes; it was read again from the start")]
    Shrank { was_bytes: u64, now_bytes: u64 },
    #[error("the file's first bytes changed (it was replaced); it was read again from the start")]
    Rewritten,
}

/// A followed file's indexer and the bytes that tell whether it is still
/// the same file.
#[derive(Debug, Default)]
pub struct Tail {
    indexer: Indexer,
    /// The file's first bytes (up to [`HEAD_BYTES`]) as pushed.
    head: Vec<u8>,
}

impl Tail {
    /// Goes on from a settled index (see [`Indexer::settled`]) whose file
    /// began with `head` (its first bytes as read, any number of them).
    pub fn resume(settled: Index, head: &[u8]) -> Tail {
        let keep = head.len().min(HEAD_BYTES).min(settled.len_bytes as usize);
        Tail { indexer: Indexer::resume(settled), head: head[..keep].to_vec() }
    }

    /// Bytes pushed so far: the next check reads from here.
    pub fn read_bytes(&self) -> u64 {
        self.indexer.bytes_seen()
    }

    /// The file's first bytes as pushed (compare them with the file's now:
    /// [`Tail::same_head`]).
    pub fn head(&self) -> &[u8] {
        &self.head
    }

    /// What to do now that the file is `size_bytes` long.
    pub fn change(&self, size_bytes: u64) -> Change {
        let was_bytes = self.read_bytes();
        match size_bytes.cmp(&was_bytes) {
            std::cmp::Ordering::Equal => Change::Same,
            std::cmp::Ordering::Greater => Change::Grew { from: was_bytes, to: size_bytes },
            std::cmp::Ordering::Less => Change::Restart(Restart::Shrank { was_bytes, now_bytes: size_bytes }),
        }
    }

    /// Whether the file's first bytes now (`first`: at least as many as
    /// [`Tail::head`] holds, or the whole file) are the ones pushed.
    pub fn same_head(&self, first: &[u8]) -> bool {
        first.len() >= self.head.len() && first[..self.head.len()] == self.head[..]
    }

    /// Pushes the next bytes of the file (those from [`Tail::read_bytes`]).
    pub fn push(&mut self, bytes: &[u8]) {
        let room = HEAD_BYTES.saturating_sub(self.head.len());
        if room > 0 && self.read_bytes() == self.head.len() as u64 {
            self.head.extend_from_slice(&bytes[..bytes.len().min(room)]);
        }
        self.indexer.push(bytes);
    }

    /// The index of the lines ended so far (a copy; the tail goes on).
    pub fn settled(&self) -> Index {
        self.indexer.settled()
    }

    /// Bytes of a line not yet ended (being written, or a last line
    /// without a newline).
    pub fn open_line_bytes(&self) -> u64 {
        self.indexer.bytes_seen() - self.indexer.settled_bytes()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_half_written_line_is_carried_then_read_whole() {
        let mut t = Tail::default();
        t.push(b"{\"type\":\"user\"}\n{\"type\":\"assi");
        let ix = t.settled();
        assert_eq!((ix.rows.len(), ix.malformed_lines, ix.len_bytes), (1, 0, 16));
        assert_eq!(t.open_line_bytes(), 13);
        t.push(b"stant\"}\n");
        let ix = t.settled();
        assert_eq!((ix.rows.len(), ix.malformed_lines, t.open_line_bytes()), (2, 0, 0));
    }

    #[test]
    fn a_check_tells_growth_from_shrinking_and_a_replaced_file_by_its_head() {
        let bytes = b"{\"type\":\"user\"}\n";
        let t = Tail::resume(Indexer::index_bytes(bytes), bytes);
        assert_eq!(t.change(16), Change::Same);
        assert_eq!(t.change(40), Change::Grew { from: 16, to: 40 });
        assert_eq!(t.change(3), Change::Restart(Restart::Shrank { was_bytes: 16, now_bytes: 3 }));
        assert!(t.same_head(b"{\"type\":\"user\"}\n{\"more\""));
        assert!(!t.same_head(b"{\"type\":\"asst\"}\n"));
        assert!(!t.same_head(b"{\"type\""), "fewer bytes than were read: not the same file");
    }

    #[test]
    fn the_head_fills_as_a_small_file_grows() {
        let mut t = Tail::default();
        t.push(b"ab");
        t.push(b"cd");
        assert_eq!(t.head(), b"abcd");
    }
}
