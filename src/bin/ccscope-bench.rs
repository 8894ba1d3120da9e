//! `make bench`: indexer throughput against a plain memchr newline scan of
//! the same bytes, measured in the same run, plus peak memory.
//!
//!   ccscope-bench gen OUT [--mb N]   write a generated transcript
//!   ccscope-bench gen-tree DIR [--sessions N] [--projects N]
//!                                    write a generated projects tree (~1 GB for 300)
//!   ccscope-bench run [FILE]         benchmark (generates 80 MB if no FILE)

#[cfg(target_arch = "wasm32")]
fn main() {}

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    std::process::exit(bench::main(std::env::args().skip(1).collect()));
}

#[cfg(not(target_arch = "wasm32"))]
mod bench {
    use std::alloc::{GlobalAlloc, Layout, System};
    use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};
    use std::time::Instant;

    use ccscope::index::{Indexer, Row, CHUNK_BYTES as CHUNK};
    use ccscope::index::search::{Matcher, HITS_PER_FILE};
    use ccscope::synth;

    /// Counts live heap bytes and their high-water mark.
    struct Counting;
    static LIVE: AtomicUsize = AtomicUsize::new(0);
    static PEAK: AtomicUsize = AtomicUsize::new(0);

    unsafe impl GlobalAlloc for Counting {
        unsafe fn alloc(&self, l: Layout) -> *mut u8 {
            let p = unsafe { System.alloc(l) };
            if !p.is_null() {
                let now = LIVE.fetch_add(l.size(), Relaxed) + l.size();
                PEAK.fetch_max(now, Relaxed);
            }
            p
        }
        unsafe fn dealloc(&self, p: *mut u8, l: Layout) {
            unsafe { System.dealloc(p, l) };
            LIVE.fetch_sub(l.size(), Relaxed);
        }
    }

    #[global_allocator]
    static A: Counting = Counting;

    const RUNS: usize = 7;

    pub fn main(args: Vec<String>) -> i32 {
        match args.first().map(String::as_str) {
            Some("gen") => {
                let Some(out) = args.get(1) else {
                    eprintln!("usage: ccscope-bench gen OUT [--mb N]");
                    return 2;
                };
                let mb = match args.iter().position(|a| a == "--mb").and_then(|i| args.get(i + 1)) {
                    Some(v) => match v.parse::<usize>() {
                        Ok(n) => n,
                        Err(_) => {
                            eprintln!("--mb: {v:?} is not a whole number");
                            return 2;
                        }
                    },
                    None => 80,
                };
                let t = synth::transcript(mb * 1_000_000, 42);
                if let Err(e) = std::fs::write(out, t) {
                    eprintln!("{out}: {e}");
                    return 1;
                }
                0
            }
            Some("gen-tree") => {
                let Some(dir) = args.get(1) else {
                    eprintln!("usage: ccscope-bench gen-tree DIR [--sessions N] [--projects N]");
                    return 2;
                };
                let number = |flag: &str, default: usize| args.iter().position(|a| a == flag).and_then(|i| args.get(i + 1)).map_or(Some(default), |v| v.parse().ok());
                let (Some(sessions), Some(projects)) = (number("--sessions", 300), number("--projects", 20)) else {
                    eprintln!("--sessions and --projects take whole numbers");
                    return 2;
                };
                let write = |p: &std::path::Path, b: &[u8]| {
                    if let Some(d) = p.parent() {
                        std::fs::create_dir_all(d)?;
                    }
                    std::fs::write(p, b)
                };
                match synth::tree(std::path::Path::new(dir), sessions, projects, write) {
                    Ok(total) => {
                        println!("{dir}: {sessions} conversations in {projects} projects, {:.2} GB", total as f64 / 1e9);
                        0
                    }
                    Err(e) => {
                        eprintln!("{dir}: {e}");
                        1
                    }
                }
            }
            Some("run") => {
                let bytes = match args.get(1) {
                    Some(p) => match std::fs::read(p) {
                        Ok(b) => b,
                        Err(e) => {
                            eprintln!("{p}: {e}");
                            return 1;
                        }
                    },
                    None => synth::transcript(80_000_000, 42).into_bytes(),
                };
                run(&bytes);
                0
            }
            _ => {
                eprintln!("usage: ccscope-bench gen OUT [--mb N] | gen-tree DIR [--sessions N] [--projects N] | run [FILE]");
                2
            }
        }
    }

    /// Median seconds of `RUNS` runs of `f`.
    fn time<T>(mut f: impl FnMut() -> T) -> (f64, T) {
        let mut secs = Vec::new();
        let mut last = None;
        for _ in 0..RUNS {
            let t = Instant::now();
            let out = std::hint::black_box(f());
            secs.push(t.elapsed().as_secs_f64());
            last = Some(out);
        }
        secs.sort_by(f64::total_cmp);
        (secs[RUNS / 2], last.expect("RUNS > 0"))
    }

    fn run(bytes: &[u8]) {
        let mb = bytes.len() as f64 / 1e6;
        let (scan_s, newlines) = time(|| bytes.chunks(CHUNK).map(|c| memchr::memchr_iter(b'\n', c).count()).sum::<usize>());
        let before = LIVE.load(Relaxed);
        PEAK.store(before, Relaxed);
        let (index_s, ix) = time(|| {
            let mut ix = Indexer::new();
            for c in bytes.chunks(CHUNK) {
                ix.push(c);
            }
            ix.finish()
        });
        let peak = PEAK.load(Relaxed) - before;
        let rows = ix.rows.len().max(1);
        let per_row = ix.heap_bytes() as f64 / rows as f64;
        let big = ix.rows.iter().filter(|r| r.len_bytes > 50_000).count();
        let huge = ix.rows.iter().filter(|r| r.len_bytes > 1_000_000).count();
        println!("input: {mb:.1} MB, {} lines ({newlines} newlines), {big} lines > 50 KB, {huge} lines > 1 MB", ix.rows.len());
        println!("memchr newline scan : {:8.0} MB/s", mb / scan_s);
        println!("indexer             : {:8.0} MB/s", mb / index_s);
        println!("indexer / memchr    : {:8.3}x", scan_s / index_s);
        println!("row size            : {} bytes (struct); {per_row:.0} bytes per row with tables and strings", std::mem::size_of::<Row>());
        println!("peak heap indexing  : {:.1} MiB (input buffer excluded)", peak as f64 / (1 << 20) as f64);
        // The folder search's matcher, as a search lane feeds it: a word on
        // nearly every line, and one on none.
        for needle in ["parser", "zq-not-there"] {
            let (search_s, matches) = time(|| {
                let Some(mut m) = Matcher::keeping(needle, true, HITS_PER_FILE) else { return 0 };
                for c in bytes.chunks(CHUNK) {
                    m.feed(c);
                }
                m.finish().matches
            });
            println!("search {needle:<13}: {:8.0} MB/s ({matches} matches); / memchr {:.3}x", mb / search_s, scan_s / search_s);
        }
    }
}
