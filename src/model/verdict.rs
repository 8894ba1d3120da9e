//! Is this a transcript at all? What to tell a person who picked something else.

use crate::index::Index;

/// What the viewer says about a picked file before (or instead of) its facts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// A transcript; `malformed` lines were skipped (listed separately).
    Transcript { malformed: u32 },
    /// Not something we can show, with a sentence saying why.
    NotATranscript(String),
}

impl Verdict {
    /// Why it is not a transcript; `None` when it is one.
    pub fn reason(&self) -> Option<&str> {
        match self {
            Verdict::NotATranscript(why) => Some(why),
            Verdict::Transcript { .. } => None,
        }
    }
}

/// Names a binary format from the first bytes of a file, if it is a common one.
pub fn sniff(first: &[u8]) -> Option<&'static str> {
    const SIGS: [(&[u8], &str); 8] = [
        (b"\x89PNG\r\n\x1a\n", "a PNG image"),
        (b"\xFF\xD8\xFF", "a JPEG image"),
        (b"GIF8", "a GIF image"),
        (b"%PDF", "a PDF document"),
        (b"PK\x03\x04", "a ZIP archive"),
        (b"\x1F\x8B", "a gzip archive"),
        (b"RIFF", "a RIFF (WebP/WAV) file"),
        (b"\x7FELF", "a program (ELF)"),
    ];
    SIGS.iter().find(|(sig, _)| first.starts_with(sig)).map(|(_, name)| *name)
}

/// Skipped lines named one by one at most; past these, one line counts the rest.
pub const SKIPPED_NAMED: usize = 5;

/// The lines the index skipped, in words: the first [`SKIPPED_NAMED`] as
/// `(line, reason)`, then how many more there were and the last one's line.
/// A 50 MB file of garbage says so in six lines, not 200,000.
pub fn skipped_lines(ix: &Index) -> (Vec<(u32, &'static str)>, Option<(u64, u32)>) {
    let mut named = Vec::new();
    let mut more = 0u64;
    let mut last = 0;
    for (row, why) in ix.malformed() {
        if named.len() < SKIPPED_NAMED {
            named.push((row.line_no, why.describe()));
        } else {
            more += 1;
            last = row.line_no;
        }
    }
    (named, (more > 0).then_some((more, last)))
}

/// Judges an indexed file. `first` holds its first bytes (any number).
pub fn judge(ix: &Index, first: &[u8]) -> Verdict {
    let parsed = ix.rows.len() as u32 - ix.malformed_lines;
    if ix.len_bytes == 0 {
        return Verdict::NotATranscript("This file is empty (0 bytes): there is nothing to show.".into());
    }
    if parsed == 0 {
        if let Some(kind) = sniff(first) {
            return Verdict::NotATranscript(format!("This is {kind}, not a Claude Code transcript (.jsonl)."));
        }
        if first.contains(&0) {
            return Verdict::NotATranscript("This is a binary file, not a Claude Code transcript (.jsonl).".into());
        }
        if ix.rows.is_empty() {
            return Verdict::NotATranscript("This file holds only blank lines: there is nothing to show.".into());
        }
        return Verdict::NotATranscript(format!(
            "This does not look like a Claude Code transcript: none of its {} lines is a JSON object.",
            ix.rows.len()
        ));
    }
    Verdict::Transcript { malformed: ix.malformed_lines }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::index::Indexer;

    fn judge_bytes(b: &[u8]) -> Verdict {
        judge(&Indexer::index_bytes(b), b)
    }

    #[test]
    fn tells_what_was_picked_instead() {
        assert!(matches!(judge_bytes(b""), Verdict::NotATranscript(m) if m.contains("empty")));
        assert!(matches!(judge_bytes(b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR"), Verdict::NotATranscript(m) if m.contains("PNG image")));
        assert!(matches!(judge_bytes(b"\n\n"), Verdict::NotATranscript(m) if m.contains("blank")));
        assert!(matches!(judge_bytes(b"hello\nworld\n"), Verdict::NotATranscript(m) if m.contains("none of its 2 lines")));
        assert_eq!(judge_bytes(b"{\"type\":\"user\"}\nbroken\n"), Verdict::Transcript { malformed: 1 });
    }

    #[test]
    fn many_skipped_lines_are_named_then_counted() {
        let text: String = std::iter::once("{\"type\":\"user\"}\n".to_string()).chain((0..9).map(|k| format!("junk {k}\n"))).collect();
        let (named, more) = skipped_lines(&Indexer::index_bytes(text.as_bytes()));
        assert_eq!(named.iter().map(|n| n.0).collect::<Vec<_>>(), [2, 3, 4, 5, 6]);
        assert_eq!(more, Some((4, 10)), "4 more, the last on line 10");
        assert_eq!(skipped_lines(&Indexer::index_bytes(b"{}\nx\n")).1, None);
    }
}
