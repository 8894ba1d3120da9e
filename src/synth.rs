//! A deterministic generator of realistic transcripts, for benchmarks.
//!
//! Shape (from the format notes' largest session): ≈10 k lines per 80 MB,
//! 26 % bookkeeping records, ~170 lines over 50 KB holding most of the
//! bytes, ~12 base64-image tool results over 1 MB each, streamed assistant
//! messages split over several lines, parallel tool calls, thinking with
//! signatures, escapes (`\n`, `\"`, `\u`) and non-ASCII text.

use std::fmt::Write as _;

/// xorshift64*: small, fast, reproducible.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Self {
        Rng(seed.max(1))
    }
    pub fn next_u64(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.0 = x;
        x.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    /// Uniform in `lo..hi`.
    pub fn range(&mut self, lo: u64, hi: u64) -> u64 {
        lo + self.next_u64() % (hi - lo).max(1)
    }
    pub fn chance(&mut self, percent: u64) -> bool {
        self.next_u64() % 100 < percent
    }
}

const B64: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
const WORDS: &[&str] = &[
    "the", "build", "fails", "because", "parser", "returns", "None", "when", "input", "is", "empty", "fix",
    "test", "module", "let", "mut", "fn", "function", "index", "row", "offset", "self", "match", "cargo",
    "impl", "struct", "pub", "use", "Ok(())", "return", "=>", "{", "}", "if", "else", "for", "in", "resume",
    "error", "value", "line", "bytes", "chunk", "file", "path", "len", "usize", "u64", "Vec", "String",
    "naïve", "→", "代码", "😀",
];

fn base64(rng: &mut Rng, out: &mut String, n: usize) {
    out.reserve(n);
    for _ in 0..n {
        out.push(B64[(rng.next_u64() % 64) as usize] as char);
    }
}

/// JSON-escaped prose or code: words, `\n` and `\"` escapes, non-ASCII.
fn prose(rng: &mut Rng, out: &mut String, approx_bytes: usize) {
    let start = out.len();
    while out.len() - start < approx_bytes {
        let w = WORDS[(rng.next_u64() % WORDS.len() as u64) as usize];
        out.push_str(w);
        // Code-like: a line break every ~8 words, quotes and tabs rarer.
        match rng.next_u64() % 80 {
            0..=9 => out.push_str("\\n"),
            10 | 11 => out.push_str(" \\\"q\\\" "),
            12 => out.push_str("\\t"),
            _ => out.push(' '),
        }
    }
}

/// State of the generated conversation.
struct Gen {
    rng: Rng,
    ms: i64,
    msg: u64,
    tool: u64,
    uuid: u64,
    session: String,
}

impl Gen {
    fn head(&mut self, ty: &str, out: &mut String) {
        self.uuid += 1;
        // Now and then a timestamp runs backwards, as in real files.
        let jitter = if self.rng.chance(2) { -1500 } else { self.rng.range(200, 4000) as i64 };
        self.ms += jitter;
        let (secs, ms) = (self.ms.div_euclid(1000), self.ms.rem_euclid(1000));
        let (h, m, s) = ((secs / 3600) % 24, (secs / 60) % 60, secs % 60);
        let day = 1 + (secs / 86_400) % 28;
        let _ = write!(
            out,
            "{{\"parentUuid\":\"00000000-0000-4000-8000-{:012}\",\"isSidechain\":false,\"userType\":\"external\",\
\"cwd\":\"/Users/alex/code/app\",\"sessionId\":\"{}\",\"version\":\"2.1.230\",\"gitBranch\":\"main\",\
\"entrypoint\":\"claude-desktop\",\"type\":\"{ty}\",\"uuid\":\"00000000-0000-4000-8000-{:012}\",\
\"timestamp\":\"2026-09-{day:02}T{h:02}:{m:02}:{s:02}.{ms:03}Z\",",
            self.uuid - 1,
            self.session,
            self.uuid
        );
    }

    fn usage(&mut self, out: &mut String, output: u64) {
        let read = self.rng.range(10_000, 400_000);
        let _ = write!(
            out,
            "\"usage\":{{\"input_tokens\":3,\"cache_creation_input_tokens\":{},\"cache_read_input_tokens\":{read},\
\"output_tokens\":{output},\"cache_creation\":{{\"ephemeral_1h_input_tokens\":0,\"ephemeral_5m_input_tokens\":500}},\
\"server_tool_use\":{{\"web_fetch_requests\":0,\"web_search_requests\":0}},\"service_tier\":\"standard\",\
\"inference_geo\":null,\"speed\":null,\"iterations\":null}}}}}}",
            self.rng.range(0, 3000)
        );
    }

    fn assistant(&mut self, out: &mut String, block: &str, last: bool) {
        self.head("assistant", out);
        let stop = if last { "\"tool_use\"" } else { "null" };
        let _ = write!(
            out,
            "\"requestId\":\"req_{:024x}\",\"message\":{{\"model\":\"claude-opus-5\",\"id\":\"msg_{:024x}\",\
\"type\":\"message\",\"role\":\"assistant\",\"content\":[{block}],\"stop_reason\":{stop},\"stop_sequence\":null,",
            self.msg, self.msg
        );
        let output = self.rng.range(5, 900);
        self.usage(out, output);
        out.push('\n');
    }

    fn tool_result(&mut self, out: &mut String, id: u64, content: &str, error: bool) {
        self.head("user", out);
        let err = if error { ",\"is_error\":true" } else { "" };
        let _ = writeln!(
            out,
            "\"message\":{{\"role\":\"user\",\"content\":[{{\"tool_use_id\":\"toolu_{id:024x}\",\"type\":\"tool_result\",\
\"content\":{content}{err}}}]}},\"toolUseResult\":{{\"stdout\":\"\",\"stderr\":\"\",\"interrupted\":false}}}}"
        );
    }

    fn bookkeeping(&mut self, out: &mut String) {
        let s = self.session.clone();
        match self.rng.next_u64() % 6 {
            0 => {
                let _ = write!(out, "{{\"type\":\"file-history-snapshot\",\"messageId\":\"m{}\",\"snapshot\":{{\"trackedFileBackups\":{{", self.uuid);
                for k in 0..self.rng.range(1, 6) {
                    let _ = write!(out, "{}\"src/f{k}.rs\":{{\"backupFileName\":\"b{k}@v2\",\"version\":2,\"backupTime\":\"2026-09-01T09:00:00.000Z\"}}", if k > 0 { "," } else { "" });
                }
                out.push_str("},\"timestamp\":\"2026-09-01T09:00:00.000Z\"},\"isSnapshotUpdate\":false}\n");
            }
            1 => {
                let _ = writeln!(out, "{{\"type\":\"permission-mode\",\"permissionMode\":\"default\",\"sessionId\":\"{s}\"}}");
            }
            2 => {
                out.push_str("{\"type\":\"last-prompt\",\"lastPrompt\":\"");
                prose(&mut self.rng, out, 120);
                let _ = writeln!(out, "\",\"sessionId\":\"{s}\"}}");
            }
            3 => {
                let _ = writeln!(out, "{{\"type\":\"ai-title\",\"aiTitle\":\"Fix the parser on empty input\",\"sessionId\":\"{s}\"}}");
            }
            4 => {
                let _ = writeln!(out, "{{\"type\":\"queue-operation\",\"operation\":\"enqueue\",\"timestamp\":\"2026-09-01T09:00:00.000Z\",\"sessionId\":\"{s}\",\"content\":\"also run fmt\"}}");
            }
            _ => {
                let _ = writeln!(out, "{{\"type\":\"custom-title\",\"customTitle\":\"parser fix\",\"sessionId\":\"{s}\"}}");
            }
        }
    }

    /// One exchange: prompt or continuation, a streamed assistant message
    /// (thinking, text, 1–3 parallel tool calls), the results.
    fn exchange(&mut self, out: &mut String, big_every: u64, image_every: u64, n: u64) {
        let mut block = String::new();
        if self.rng.chance(15) {
            self.head("user", out);
            out.push_str("\"message\":{\"role\":\"user\",\"content\":\"");
            prose(&mut self.rng, out, 300);
            out.push_str("\"}}\n");
        }
        self.msg += 1;
        block.push_str("{\"type\":\"thinking\",\"thinking\":\"");
        prose(&mut self.rng, &mut block, 400);
        block.push_str("\",\"signature\":\"");
        base64(&mut self.rng, &mut block, 1200);
        block.push_str("\"}");
        self.assistant(out, &block, false);
        block.clear();
        block.push_str("{\"type\":\"text\",\"text\":\"");
        prose(&mut self.rng, &mut block, 500);
        block.push_str("\"}");
        self.assistant(out, &block, false);
        let calls = 1 + (self.rng.next_u64() % 10 == 0) as u64 * self.rng.range(1, 3);
        let first_tool = self.tool;
        for c in 0..calls {
            self.tool += 1;
            block.clear();
            let _ = write!(
                block,
                "{{\"type\":\"tool_use\",\"id\":\"toolu_{:024x}\",\"name\":\"Bash\",\"input\":{{\"command\":\"cargo test --quiet\",\"description\":\"Run tests\"}}}}",
                self.tool
            );
            self.assistant(out, &block, c + 1 == calls);
        }
        for id in first_tool + 1..=self.tool {
            let mut content = String::from("\"");
            if image_every > 0 && n % image_every == image_every - 1 && id == self.tool {
                content.clear();
                content.push_str("[{\"type\":\"image\",\"source\":{\"type\":\"base64\",\"media_type\":\"image/png\",\"data\":\"");
                let len = self.rng.range(1_050_000, 1_400_000) as usize;
                base64(&mut self.rng, &mut content, len);
                content.push_str("\"}}]");
            } else if big_every > 0 && n % big_every == big_every / 2 && id == self.tool {
                let len = self.rng.range(60_000, 600_000) as usize;
                prose(&mut self.rng, &mut content, len);
                content.push('"');
            } else {
                let len = self.rng.range(200, 2400) as usize;
                prose(&mut self.rng, &mut content, len);
                content.push('"');
            }
            let error = self.rng.chance(4);
            self.tool_result(out, id, &content, error);
        }
    }
}

/// Writes a transcript of about `target_bytes` to `out` (as JSONL).
pub fn transcript(target_bytes: usize, seed: u64) -> String {
    transcript_at(target_bytes, seed, 1_788_253_200_000, "d3cb2e5d-477b-4f6b-a7e5-1f4ed60e6538")
}

/// [`transcript`] starting at `start_ms` with session id `session`.
pub fn transcript_at(target_bytes: usize, seed: u64, start_ms: i64, session: &str) -> String {
    let mut out = String::with_capacity(target_bytes + (2 << 20));
    let mut g = Gen { rng: Rng::new(seed), ms: start_ms, msg: 0, tool: 0, uuid: 0, session: session.to_string() };
    // Per 80 MB: ~1900 exchanges; a big result every ~12, an image every ~160.
    let scale = (target_bytes as f64 / 80e6).max(0.001);
    let exchanges = (1900.0 * scale) as u64;
    let (big_every, image_every) = (12, 160);
    let mut n = 0;
    while out.len() < target_bytes {
        g.exchange(&mut out, big_every, image_every, n);
        // Bookkeeping: about 26 % of all lines.
        for _ in 0..g.rng.range(1, 3) {
            g.bookkeeping(&mut out);
        }
        n += 1;
        if n > exchanges * 4 {
            break;
        }
    }
    out
}



/// A `~/.claude/projects`-like tree of `sessions` conversations under
/// `projects` project directories, written under `dir`: sizes spread like
/// the format notes' (median about 5 MB, a few of 50–80 MB), some with
/// subagent runs (and their meta), `tool-results/`, a deletion marker, and a
/// `memory/MEMORY.md` per project. Returns the bytes written.
pub fn tree(dir: &std::path::Path, sessions: usize, projects: usize, mut write: impl FnMut(&std::path::Path, &[u8]) -> std::io::Result<()>) -> std::io::Result<u64> {
    let mut rng = Rng::new(0x7_0ee);
    let mut total = 0u64;
    let mut put = |p: &std::path::Path, b: &[u8], total: &mut u64| -> std::io::Result<()> {
        *total += b.len() as u64;
        write(p, b)
    };
    let projects = projects.max(1);
    for p in 0..projects {
        let proj = dir.join(format!("-Users-dev-code-project-{p:02}"));
        put(&proj.join("memory/MEMORY.md"), format!("# Memory\n\n- project {p}: the developer prefers small commits.\n").as_bytes(), &mut total)?;
    }
    for k in 0..sessions {
        // Half below the median (50 kB – 5 MB), half just above it, and a few big ones.
        let mb = if k % 75 == 7 {
            rng.range(50, 81) as f64
        } else if k % 2 == 0 {
            0.05 + (rng.range(0, 1000) as f64 / 1000.0).powi(2) * 4.95
        } else {
            5.0 + rng.range(0, 1000) as f64 / 1000.0
        };
        let id = format!("{:08x}-{:04x}-4{:03x}-8{:03x}-{:012x}", rng.next_u64() as u32, k, k % 4096, p_of(k, projects), rng.next_u64() & 0xffff_ffff_ffff);
        let proj = dir.join(format!("-Users-dev-code-project-{:02}", p_of(k, projects)));
        let start_ms = 1_780_000_000_000 + (k as i64) * 7_200_000;
        let text = transcript_at((mb * 1e6) as usize, 1000 + k as u64, start_ms, &id);
        put(&proj.join(format!("{id}.jsonl")), text.as_bytes(), &mut total)?;
        if k % 3 == 0 {
            for r in 0..rng.range(1, 4) {
                let agent = format!("a{:016x}", rng.next_u64());
                let run = transcript_at(rng.range(20_000, 200_000) as usize, 5000 + k as u64 * 10 + r, start_ms + 60_000, &id);
                put(&proj.join(format!("{id}/subagents/agent-{agent}.jsonl")), run.as_bytes(), &mut total)?;
                let meta = format!("{{\"agentType\":\"general-purpose\",\"description\":\"Check part {r}\",\"spawnDepth\":1,\"toolUseId\":\"toolu_{agent}\"}}");
                put(&proj.join(format!("{id}/subagents/agent-{agent}.meta.json")), meta.as_bytes(), &mut total)?;
            }
        }
        if k % 5 == 1 {
            for r in 0..rng.range(1, 5) {
                let mut out = String::new();
                let len = rng.range(30_000, 51_000) as usize;
                prose(&mut rng, &mut out, len);
                put(&proj.join(format!("{id}/tool-results/toolu_{k:04}{r:02}.txt")), out.replace("\\n", "\n").as_bytes(), &mut total)?;
            }
        }
        if k % 50 == 3 {
            put(&proj.join(format!("{id}.desktop-released.json")), br#"{"v":1,"releasedAt":"2026-09-01T00:39:27.821Z","reason":"delete"}"#, &mut total)?;
        }
    }
    Ok(total)
}

fn p_of(k: usize, projects: usize) -> usize {
    // A few busy projects (two conversations in three go to the first four),
    // and every other one with some.
    let projects = projects.max(1);
    if k % 3 == 0 { k / 3 % projects } else { k % projects.min(4) }
}

#[cfg(test)]
mod tests {
    use crate::index::Indexer;
    use crate::model::Stats;

    #[test]
    fn generated_transcripts_are_well_formed_and_realistic() {
        let t = super::transcript(8_000_000, 7);
        let ix = Indexer::index_bytes(t.as_bytes());
        assert_eq!(ix.malformed_lines, 0);
        let s = Stats::compute(&ix, 900);
        assert!(s.tool_calls > 100 && s.tool_calls == s.tool_results);
        assert!(s.assistant_messages * 2 < s.types["assistant"], "messages span several lines");
        let book: u64 = s.types.iter().filter(|(k, _)| !matches!(k.as_str(), "user" | "assistant")).map(|(_, v)| v).sum();
        let share = book as f64 / s.lines as f64;
        assert!((0.18..0.34).contains(&share), "bookkeeping share {share}");
        assert!(s.backward_steps > 0);
    }
}
