//! `ccscope`: the native command line on the same index/model code as the viewer.

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    std::process::exit(cli::run(std::env::args().skip(1).collect()));
}

#[cfg(target_arch = "wasm32")]
fn main() {}

#[cfg(not(target_arch = "wasm32"))]
mod cli {
    use std::path::Path;

    use ccscope::disk;
    use ccscope::folder::Doubt;
    use ccscope::folder::totals::{ConversationReport, FolderReport, Totals};
    use ccscope::model::body::Body;
    use ccscope::model::export::{Export, Format, Nested};
    use ccscope::model::facts::Facts;
    use ccscope::model::changes::FileOut;
    use ccscope::model::report::Report;
    use ccscope::model::title;
    use ccscope::model::items::{Filter, Items};
    use ccscope::model::{subagents, verdict, Stats, DEFAULT_IDLE_GAP_SECS};

    const USAGE: &str = "usage: ccscope stats FILE [--follow] [--idle-gap-secs N]
       ccscope follow FILE [--idle-gap-secs N]
       ccscope sessions DIR [--idle-gap-secs N]
       ccscope report FILE|DIR [--idle-gap-secs N]
       ccscope export FILE [--format md|json] [--no-runs]
       ccscope agents FILE|DIR

  stats     print the contract-v1 facts of one transcript as JSON
            (subagent runs in <FILE stem>/subagents/ are linked too)
  follow    (or stats --follow) check FILE about once a second while
            Claude Code writes it and print the facts again, one JSON
            line, each time they change; only the appended bytes are
            read; a line still being written waits for its end; a file
            that shrank or was replaced is read again from the start
            (said on stderr); Ctrl-C stops
  sessions  print one JSON object per conversation under DIR (sessions
            contract v1), sorted by path
  report    print tools (calls, failures, p50/p95), models (API turns,
            tokens by kind, estimated cost), active stretches, idle gaps,
            compactions and days as JSON; for a DIR, one report per
            conversation and the folder's totals
  export    print the conversation as Markdown (default) or JSON, the
            same bytes as the viewer's export of the whole conversation;
            the subagent runs in <FILE stem>/subagents/ nest under their
            calls (--no-runs: as the viewer exports a file picked alone)
  agents    print each conversation's agent graph, one JSON line per
            conversation: every run in <stem>/subagents/ under the call
            that spawned it, at any depth (from its meta, the call's
            result or the clock), and the runs that could not be placed,
            with the reason (README: \"ccscope agents\")";

    enum Command {
        Stats,
        Follow,
        Sessions,
        Report,
        Export(Format, bool),
        Agents,
    }

    pub fn run(args: Vec<String>) -> i32 {
        match parse(&args) {
            Ok((Command::Stats, path, idle_gap_secs)) => stats(Path::new(&path), idle_gap_secs),
            Ok((Command::Follow, path, idle_gap_secs)) => follow(Path::new(&path), idle_gap_secs),
            Ok((Command::Sessions, dir, idle_gap_secs)) => sessions(Path::new(&dir), idle_gap_secs),
            Ok((Command::Report, path, idle_gap_secs)) => report(Path::new(&path), idle_gap_secs),
            Ok((Command::Agents, path, _)) => agents(Path::new(&path)),
            Ok((Command::Export(format, runs), path, _)) => export(Path::new(&path), format, runs),
            Err(msg) => {
                eprintln!("ccscope: {msg}\n\n{USAGE}");
                2
            }
        }
    }

    fn parse(args: &[String]) -> Result<(Command, String, u64), String> {
        let mut it = args.iter();
        let (command, what) = match it.next().map(String::as_str) {
            Some("stats") => (Command::Stats, "FILE"),
            Some("follow") => (Command::Follow, "FILE"),
            Some("sessions") => (Command::Sessions, "DIR"),
            Some("report") => (Command::Report, "FILE or DIR"),
            Some("agents") => (Command::Agents, "FILE or DIR"),
            Some("export") => (Command::Export(Format::Markdown, true), "FILE"),
            Some("-h" | "--help") | None => return Err("a command is needed".into()),
            Some(other) => return Err(format!("unknown command {other:?}")),
        };
        let mut path = None;
        let mut idle = DEFAULT_IDLE_GAP_SECS;
        let mut command = command;
        while let Some(a) = it.next() {
            match a.as_str() {
                "--format" if matches!(command, Command::Export(..)) => {
                    let v = it.next().ok_or("--format needs md or json")?;
                    let runs = matches!(command, Command::Export(_, true));
                    command = Command::Export(Format::parse(v).ok_or(format!("--format: {v:?} is neither md nor json"))?, runs);
                }
                "--follow" if matches!(command, Command::Stats | Command::Follow) => command = Command::Follow,
                "--no-runs" if matches!(command, Command::Export(..)) => {
                    if let Command::Export(f, _) = command {
                        command = Command::Export(f, false);
                    }
                }
                "--idle-gap-secs" => {
                    let v = it.next().ok_or("--idle-gap-secs needs a number of seconds")?;
                    idle = v.parse().map_err(|_| format!("--idle-gap-secs: {v:?} is not a whole number of seconds"))?;
                }
                s if s.starts_with("--") => return Err(format!("unknown option {s:?}")),
                s if path.is_none() => path = Some(s.to_string()),
                s => return Err(format!("one {what} only (got another: {s:?})")),
            }
        }
        Ok((command, path.ok_or(format!("a {what} is needed"))?, idle))
    }

    /// Writes `text` and a newline to stdout; a closed pipe (`| head`) is not
    /// an error worth a panic.
    fn out(text: &str) -> bool {
        use std::io::Write;
        writeln!(std::io::stdout().lock(), "{text}").is_ok()
    }

    /// Why a command on one file failed, told on stderr once.
    enum Failed {
        /// The file could not be read (said already).
        Unreadable,
        /// It is not a transcript: the page's own words.
        NotATranscript(String),
    }

    /// Indexes `path`, naming on stderr the lines it skipped (the first
    /// few, then a count, as the page does). A file that is not a
    /// transcript (empty, binary, no record) is judged as the page judges it.
    fn index(path: &Path) -> Result<ccscope::index::Index, Failed> {
        let ix = disk::index_file(path).map_err(|e| {
            eprintln!("ccscope: {e}");
            Failed::Unreadable
        })?;
        judge(path, &ix, &disk::head(path))?;
        Ok(ix)
    }

    /// The page's verdict on an indexed file: its skipped lines named on
    /// stderr, and `Err` when it is not a transcript at all.
    fn judge(path: &Path, ix: &ccscope::index::Index, head: &[u8]) -> Result<(), Failed> {
        if let Some(why) = verdict::judge(ix, head).reason() {
            return Err(Failed::NotATranscript(why.to_string()));
        }
        let (named, more) = verdict::skipped_lines(ix);
        for (line, why) in named {
            eprintln!("{}:{line}: skipped: {why}", path.display());
        }
        if let Some((n, last)) = more {
            eprintln!("{}: … and {} more skipped {} (the last on line {})", path.display(), ccscope::fmt::count(n), ccscope::fmt::agree(n, "line", "lines"), ccscope::fmt::count(u64::from(last)));
        }
        Ok(())
    }

    /// The exit status of a failed command, its reason said on stderr.
    fn failed(path: &Path, f: Failed) -> i32 {
        if let Failed::NotATranscript(why) = f {
            eprintln!("ccscope: {}: {why}", path.display());
        }
        1
    }

    /// Prints contract v1's facts. A file that is not a transcript still
    /// gets its (empty) facts on stdout, so scripts reading them keep
    /// working, but the command fails with the page's words.
    fn stats(path: &Path, idle_gap_secs: u64) -> i32 {
        let ix = match disk::index_file(path) {
            Ok(ix) => ix,
            Err(e) => {
                eprintln!("ccscope: {e}");
                return 1;
            }
        };
        let verdict = judge(path, &ix, &disk::head(path));
        let mut s = Stats::compute(&ix, idle_gap_secs);
        s.subagents = subagents::link(&ix, &disk::subagent_runs(path));
        for (l, d) in s.subagents.iter().zip(subagents::meta_doubts(&ix, &s.subagents)) {
            if let Some(d) = d {
                eprintln!("warning: {}: agent-{}: {}", path.display(), l.agent_id, Doubt::from(d).describe());
            }
        }
        out(&s.to_json());
        match verdict {
            Ok(()) => 0,
            Err(f) => failed(path, f),
        }
    }

    /// `stats --follow`: the facts printed again (one JSON line) each time
    /// the file grows and they change, on the page's incremental path
    /// ([`ccscope::index::follow::Tail`]); skipped lines named once, as
    /// they end. Runs until interrupted; fails when the file cannot be
    /// read at the start.
    fn follow(path: &Path, idle_gap_secs: u64) -> i32 {
        use ccscope::index::follow::{Change, Restart, Tail};
        let mut tail = Tail::default();
        let (mut shown, mut named_to_line, mut gone) = (String::new(), 0u32, false);
        loop {
            let size = match std::fs::metadata(path) {
                Ok(m) => m.len(),
                Err(e) if tail.read_bytes() == 0 && shown.is_empty() => {
                    eprintln!("ccscope: {}: {e}", path.display());
                    return 1;
                }
                Err(e) => {
                    if !std::mem::replace(&mut gone, true) {
                        eprintln!("ccscope: {}: {e}; the facts above are the last read, waiting for the file to come back", path.display());
                    }
                    std::thread::sleep(FOLLOW_CHECK);
                    continue;
                }
            };
            gone = false;
            let mut change = tail.change(size);
            if let Change::Grew { .. } = change {
                let first = disk::read_range(path, 0, tail.head().len() as u64).unwrap_or_default();
                if !tail.same_head(&first) {
                    change = Change::Restart(Restart::Rewritten);
                }
            }
            let (from, to) = match change {
                Change::Same => {
                    std::thread::sleep(FOLLOW_CHECK);
                    continue;
                }
                Change::Grew { from, to } => (from, to),
                Change::Restart(why) => {
                    eprintln!("ccscope: {}: {why}", path.display());
                    (tail, named_to_line) = (Tail::default(), 0);
                    (0, size)
                }
            };
            match disk::read_range(path, from, to) {
                Ok(bytes) => tail.push(&bytes),
                Err(e) => eprintln!("ccscope: {e}"),
            }
            let ix = tail.settled();
            for (row, why) in ix.malformed().filter(|(r, _)| r.line_no > named_to_line) {
                eprintln!("{}:{}: skipped: {}", path.display(), row.line_no, why.describe());
            }
            named_to_line = ix.rows.last().map_or(named_to_line, |r| r.line_no.max(named_to_line));
            let mut s = Stats::compute(&ix, idle_gap_secs);
            s.subagents = subagents::link(&ix, &disk::subagent_runs(path));
            let json = s.to_json_line();
            if json != shown {
                if !out(&json) {
                    return 0;
                }
                shown = json;
            }
            std::thread::sleep(FOLLOW_CHECK);
        }
    }

    /// How often `follow` looks at the file (the page checks as often).
    const FOLLOW_CHECK: std::time::Duration = std::time::Duration::from_secs(1);

    fn report(path: &Path, idle_gap_secs: u64) -> i32 {
        if path.is_dir() {
            let folder = disk::OnDisk::open(path);
            let mut totals = Totals::default();
            let conversations: Vec<ConversationReport> = folder
                .summaries(idle_gap_secs)
                .into_iter()
                .map(|f| {
                    totals.add_conversation(&f.line.project, &f.report, &f.messages, &f.files);
                    totals.add_runs(&f.runs);
                    ConversationReport { path: f.line.path, project: f.line.project, report: f.report, files: f.files }
                })
                .collect();
            let r = FolderReport { conversations, totals: totals.sorted() };
            return match serde_json::to_string_pretty(&r) {
                Ok(text) => {
                    out(&text);
                    0
                }
                Err(e) => {
                    eprintln!("ccscope: {e}");
                    1
                }
            };
        }
        let ix = match index(path) {
            Ok(ix) => ix,
            Err(f) => return failed(path, f),
        };
        let files = match disk::files_changed(path, &ix) {
            Ok(files) => files.iter().map(FileOut::from).collect(),
            Err(e) => {
                eprintln!("ccscope: {e}");
                return 1;
            }
        };
        let r = FileReport { report: Report::of_index(&ix, idle_gap_secs), files };
        match serde_json::to_string_pretty(&r) {
            Ok(text) => {
                out(&text);
                0
            }
            Err(e) => {
                eprintln!("ccscope: {e}");
                1
            }
        }
    }

    /// `ccscope report FILE`: the report, and the files it changed.
    #[derive(serde::Serialize)]
    struct FileReport {
        #[serde(flatten)]
        report: Report,
        files: Vec<FileOut>,
    }

    fn export(path: &Path, format: Format, with_runs: bool) -> i32 {
        let bytes = match std::fs::read(path) {
            Ok(b) => b,
            Err(e) => {
                eprintln!("ccscope: {}: {e}", path.display());
                return 1;
            }
        };
        // Its bodies are read from these bytes too: one read of the file.
        let ix = ccscope::index::Indexer::index_bytes(&bytes);
        if let Err(f) = judge(path, &ix, &bytes) {
            return failed(path, f);
        }
        let view = Items::build(&ix, DEFAULT_IDLE_GAP_SECS);
        let stats = Stats::compute(&ix, DEFAULT_IDLE_GAP_SECS);
        let facts = Facts::compute(&ix, &view);
        let body_of = |r: u32| {
            let row = &ix.rows[r as usize];
            Body::parse(bytes.get(row.offset as usize..row.end_offset() as usize)?)
        };
        let title = title::resolve(&title::source(&ix, &view), body_of);
        let items = Filter::default().apply(&ix, &view);
        let name = path.file_name().map(|n| n.to_string_lossy().to_string()).unwrap_or_default();
        // Runs placed under a call (subagents, workflow agents), each
        // exported whole under it: the agent graph, as the page places them.
        let base = path.parent().unwrap_or(Path::new(""));
        let graph = if with_runs { disk::agents(path, base).map_err(|e| eprintln!("warning: {e}")).ok() } else { None };
        let nested: Vec<Nested> = graph
            .iter()
            .flat_map(|g| &g.nodes)
            .filter(|n| n.kind != "workflow")
            .filter_map(|n| {
                let file = base.join(&n.file);
                let bytes = std::fs::read(&file).map_err(|e| eprintln!("warning: {}: {e}", file.display())).ok()?;
                Some(Nested::build(&n.agent_id, &n.parent_call_id, &bytes))
            })
            .collect();
        let e = Export { ix: &ix, view: &view, stats: &stats, facts: &facts, name: &name, title: title.as_ref(), items: &items, scope: "the whole conversation", nested: &nested, depth: 0 };
        use std::io::Write;
        let _ = std::io::stdout().lock().write_all(e.render(format, body_of).as_bytes());
        0
    }

    /// `agents FILE|DIR`: each conversation's agent graph, one JSON line
    /// per conversation (a folder's in path order).
    fn agents(path: &Path) -> i32 {
        // Each conversation's path, and the folder its files are named from.
        let (conversations, base): (Vec<std::path::PathBuf>, &Path) = if path.is_dir() {
            let folder = disk::OnDisk::open(path);
            (folder.tree.conversations.iter().map(|c| folder.path_of(c.entry)).collect(), path)
        } else {
            (vec![path.to_path_buf()], path.parent().unwrap_or(Path::new("")))
        };
        let mut status = 0;
        for c in conversations {
            match disk::agents(&c, base).map(|a| serde_json::to_string(&a)) {
                Ok(Ok(line)) if out(&line) => {}
                Ok(Ok(_)) => return status,
                Ok(Err(e)) => {
                    eprintln!("ccscope: {}: {e}", c.display());
                    status = 1;
                }
                Err(e) => {
                    eprintln!("ccscope: {e}");
                    status = 1;
                }
            }
        }
        status
    }

    fn sessions(dir: &Path, idle_gap_secs: u64) -> i32 {
        if !dir.is_dir() {
            eprintln!("ccscope: {}: not a directory", dir.display());
            return 1;
        }
        let folder = disk::OnDisk::open(dir);
        for f in folder.summaries(idle_gap_secs) {
            match serde_json::to_string(&f.line) {
                Ok(line) if out(&line) => {}
                Ok(_) => return 0,
                Err(e) => {
                    eprintln!("ccscope: {}: {e}", f.line.path);
                    return 1;
                }
            }
        }
        0
    }
}
