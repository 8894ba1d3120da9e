// `make bench-browser`: the viewer in this run's engine (ENGINE: chromium,
// firefox, webkit; the Makefile runs all three). Not a test: it prints
// figures and ratios against baselines measured in the same run, in the same
// page; nothing asserts.
//
// 1. Start-up with nothing picked: in Chromium, CPU of the page's main
//    thread and of the reading worker in the first 4 s after navigation (a
//    Chromium trace) and Performance.getMetrics' task time; in every engine,
//    the page's load and first paint and its stalls (stalls.mjs) up to 4 s.
// 2. Opening files: the built-in sample (its button), a generated 5 MB file
//    (the median session) and a generated 80 MB one (the tail), each in a
//    fresh page picked 4 s after it loaded: first rows on screen and pick →
//    full view; for 80 MB also a plain chunked read and a JS split +
//    JSON.parse of the same File (the baselines). BENCH_RUNS=N runs each
//    (default 5): medians and ranges.
// 3. BENCH_2GB=1 (`make bench-browser` sets it): a >= 2 GB file made by
//    repeating the 80 MB one.
// First of all, the page's weight: every file the hosted page serves (dist/
// without the single file), each gzip'd at level 9 as a server would, and
// `ccscope.html` as it is (it is opened from disk, not served).
//
// Timing comes from the page's clock (a MutationObserver for what a person
// sees) and the app's `performance.mark`s (`ccscope:*`, with the wasm memory
// size as detail); DIST=<dir> measures another build of the same page. What
// an engine's driver cannot look at (a worker's memory, long tasks, a trace)
// is printed as n/a with the reason.
import { execFileSync } from "node:child_process";
import { existsSync, statSync, createWriteStream, readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { DIST, ENGINE, launch, openApp, ROOT } from "../e2e/helpers.mjs";
import { lacks } from "../e2e/driver.mjs";
import { startTrace, endTrace } from "./trace.mjs";
import { watchStalls, takeStalls, stallWords } from "./stalls.mjs";

const TMP = join(ROOT, "target/bench");
execFileSync("mkdir", ["-p", TMP]);
const gen = (mb) => {
  const f = join(TMP, `bench-${mb}mb.jsonl`);
  if (!existsSync(f)) execFileSync(join(ROOT, "target/release/ccscope-bench"), ["gen", f, "--mb", String(mb)]);
  return f;
};
const file80 = gen(80);
const file5 = gen(5);
const RUNS = Math.max(1, Number(process.env.BENCH_RUNS ?? 5));
const STARTUP_MS = 4000;
const MIB = 1024 * 1024;

async function concat(out, src, targetBytes) {
  if (existsSync(out) && statSync(out).size >= targetBytes) return;
  const data = readFileSync(src);
  const w = createWriteStream(out);
  for (let n = 0; n * data.length < targetBytes; n++) if (!w.write(data)) await new Promise((r) => w.once("drain", r));
  await new Promise((r) => w.end(r));
}

const median = (xs) => { const v = [...xs].sort((a, b) => a - b); return v.length % 2 ? v[(v.length - 1) / 2] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2; };
/** "126 ms (121–162)": median and range. */
const fig = (xs, digits = 0, unit = " ms") => `${median(xs).toFixed(digits)}${unit}` + (xs.length > 1 ? ` (${Math.min(...xs).toFixed(digits)}–${Math.max(...xs).toFixed(digits)})` : "");

const browser = await launch();

/** A fresh page for STARTUP_MS after navigation: its load, first paint and
 * stalls; in Chromium, traced from before navigation: CPU by thread. */
async function startup() {
  const traced = ENGINE === "chromium";
  const app = await openApp(browser, "/", { beforeGoto: traced ? async (page) => {
    const cdp = await page.context().newCDPSession(page);
    await cdp.send("Performance.enable");
    return startTrace(cdp);
  } : undefined });
  const { page } = app;
  await watchStalls(page);
  const started = await page.evaluate(() => performance.timeOrigin);
  const left = STARTUP_MS - (Date.now() - started);
  if (left > 0) await new Promise((r) => setTimeout(r, left));
  const stalls = await takeStalls(page);
  const loaded = await page.evaluate(() => ({
    loadMs: performance.getEntriesByType("navigation")[0]?.loadEventEnd ?? null,
    paintMs: performance.getEntriesByName("first-contentful-paint")[0]?.startTime ?? null,
  }));
  let cpu = {};
  if (traced) {
    const metrics = Object.fromEntries((await app.before.cdp.send("Performance.getMetrics")).metrics.map((m) => [m.name, m.value]));
    cpu = { taskMs: metrics.TaskDuration * 1000, scriptMs: metrics.ScriptDuration * 1000, ...(await endTrace(app.before)) };
  }
  await app.context.close();
  await app.server.close();
  return { ...loaded, stalls, ...cpu };
}

/** Opens `file` (or the sample, for null) in a fresh page, 4 s after it loaded. */
async function open(file, { baselines = false, insights = false } = {}) {
  const app = await openApp(browser, "/");
  const { page } = app;
  await watchStalls(page);
  await page.evaluate(() => {
    window.__t = {};
    const picked = () => { if (!window.__t.pick) window.__t.pick = performance.now(); };
    document.addEventListener("change", (e) => { picked(); window.__file = e.target.files?.[0]; }, true);
    document.addEventListener("click", (e) => { if (e.target.closest?.("[data-testid=open-sample]")) picked(); }, true);
    new MutationObserver(() => {
      if (!window.__t.rows && document.querySelector("[data-testid=turn-list] article.item")) window.__t.rows = performance.now();
      if (!window.__t.done && document.querySelector("[data-testid=viewer] .all-facts")) window.__t.done = performance.now();
    }).observe(document.body, { subtree: true, childList: true });
  });
  // A person picks a file a while after the page opened.
  const age = await page.evaluate(() => performance.now());
  if (age < STARTUP_MS) await new Promise((r) => setTimeout(r, STARTUP_MS - age));
  if (file) await page.setInputFiles("#file-input", file);
  else await page.click("[data-testid=open-sample]");
  await page.waitForFunction(() => window.__t.done, null, { timeout: 600000, polling: 50 });
  const t = await page.evaluate(() => window.__t);
  if (process.env.BENCH_DEBUG) {
    console.log("  marks after the pick:", await page.evaluate((pick) => performance.getEntriesByType("mark").filter((m) => m.name.startsWith("ccscope:") && m.startTime >= pick)
      .map((m) => `${m.name.slice(8)} +${(m.startTime - pick).toFixed(0)}`).join(", "), t.pick), `, full view +${(t.done - t.pick).toFixed(0)}`);
  }
  // Stalls that end after the pick (the 4 s before it are start-up's).
  const loading = await takeStalls(page);
  const after = (l) => l && l.filter((e) => e.at + e.ms > t.pick);
  const longLoading = { gaps: after(loading.gaps), long: after(loading.long) };
  // Scroll through part of the list as a person would, a frame at a time.
  await page.evaluate(async () => {
    const l = document.querySelector("[data-testid=turn-list]");
    for (let i = 0; i < 120; i++) { l.scrollTop += 240; await new Promise((r) => requestAnimationFrame(r)); }
    l.scrollTop = l.scrollHeight / 2;
    for (let i = 0; i < 60; i++) { l.scrollTop -= 240; await new Promise((r) => requestAnimationFrame(r)); }
    l.scrollTop = l.scrollHeight;
    await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
  });
  const longScrolling = await takeStalls(page);
  // The engine's own floor: a plain page of text (no app code) over the
  // app, scrolled the same way — what this engine and display do anyway.
  let plainScrolling = null;
  if (baselines) {
    await page.evaluate(async () => {
      const d = document.createElement("div");
      d.style.cssText = "position:fixed;inset:0;overflow:auto;background:#fff;z-index:99999;font:14px/1.5 sans-serif";
      d.innerHTML = Array.from({ length: 3000 }, (_, i) => `<p>Line ${i}: the quick brown fox jumps over the lazy dog, ${"text ".repeat(i % 20)}</p>`).join("");
      document.body.append(d);
      await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
      window.__stalls.gaps.length = 0;
      if (window.__stalls.long) window.__stalls.long.length = 0;
      for (let i = 0; i < 120; i++) { d.scrollTop += 240; await new Promise((r) => requestAnimationFrame(r)); }
      d.scrollTop = d.scrollHeight / 2;
      for (let i = 0; i < 60; i++) { d.scrollTop -= 240; await new Promise((r) => requestAnimationFrame(r)); }
      d.remove();
    });
    plainScrolling = await takeStalls(page);
  }
  // The insights panel, as a person opens it: click → chart, timeline and
  // tables drawn (two frames after they are in the DOM).
  let insightsMs = null, longInsights = { gaps: [], long: [] };
  if (insights) {
    insightsMs = await page.evaluate(async () => {
      const t0 = performance.now();
      document.querySelector("[data-testid=insights-toggle]").click();
      while (!document.querySelector("[data-testid=insights] [data-testid=model-stats]")) await new Promise((r) => setTimeout(r, 0));
      await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
      return performance.now() - t0;
    });
    await page.evaluate(() => new Promise((r) => setTimeout(r, 100)));
    longInsights = await takeStalls(page);
  }
  const pageMem = await page.evaluate(() => performance.getEntriesByName("ccscope:finished").at(-1)?.detail?.wasmMemoryBytes ?? null);
  let workerMem = null;
  for (const w of lacks("workers") ? [] : page.workers()) workerMem = (await w.evaluate(() => performance.getEntriesByName("ccscope:worker-read-end").at(-1)?.detail?.wasmMemoryBytes ?? null)) ?? workerMem;
  let base = null;
  if (baselines) {
    // The very File the viewer read, so both sides read the same bytes from the same place.
    base = await page.evaluate(async (withJs) => {
      const blob = window.__file;
      const CHUNK = 8 * 1024 * 1024;
      const t0 = performance.now();
      for (let o = 0; o < blob.size; o += CHUNK) await blob.slice(o, o + CHUNK).arrayBuffer();
      const readMs = performance.now() - t0;
      if (!withJs) return { readMs };
      const t1 = performance.now();
      const dec = new TextDecoder();
      let carry = "", records = 0;
      for (let o = 0; o < blob.size; o += CHUNK) {
        const text = carry + dec.decode(await blob.slice(o, o + CHUNK).arrayBuffer(), { stream: true });
        const lines = text.split("\n");
        carry = lines.pop();
        for (const line of lines) { if (!line) continue; try { JSON.parse(line); records++; } catch {} }
      }
      return { readMs, jsMs: performance.now() - t1, records };
    }, baselines === "all");
  }
  // The same file picked again in the same page: the code the first pick
  // ran is warm (WebKit's first pick is mostly that code running cold: the
  // preview's first DOM build and the page's first full view, with the
  // worker's reads waiting on the busy page; see the README's limits).
  let againMs = null;
  if (baselines) {
    await page.evaluate(() => { window.__again = null; document.addEventListener("change", () => { window.__again ??= performance.now(); }, true); });
    await page.setInputFiles("#file-input", file);
    againMs = await page.waitForFunction(() => {
      const m = window.__again != null && performance.getEntriesByName("ccscope:finished").find((e) => e.startTime > window.__again);
      return m ? m.startTime - window.__again : null;
    }, null, { timeout: 600000, polling: 20 }).then((h) => h.jsonValue());
  }
  await app.context.close();
  await app.server.close();
  return { fullMs: t.done - t.pick, rowsMs: t.rows - t.pick, longLoading, longScrolling, insightsMs, longInsights, pageMem, workerMem, base, againMs, plainScrolling };
}

const mem = (x) => (x == null ? "n/a" : `${(x / MIB).toFixed(1)} MiB`);
const workerMemWords = (x) => (x == null && lacks("workers") ? `n/a (${lacks("workers")})` : mem(x));

/** The page's weight, as "served" (gzip'd) and as the single file. */
function weight() {
  const kB = (n) => `${(n / 1000).toFixed(1)} kB`;
  const files = readdirSync(DIST).filter((f) => f !== "ccscope.html");
  const gz = Object.fromEntries(files.map((f) => [f, gzipSync(readFileSync(join(DIST, f)), { level: 9 }).length]));
  const total = Object.values(gz).reduce((a, b) => a + b, 0);
  const wasm = files.filter((f) => f.endsWith(".wasm")).reduce((a, f) => a + gz[f], 0);
  console.log(`page weight: hosted page ${kB(total)} gzip (target ≤ 400 kB): wasm ${kB(wasm)}, the rest ${kB(total - wasm)} (${files.length} files)`);
  const single = join(DIST, "ccscope.html");
  console.log(`  ccscope.html: ${existsSync(single) ? `${kB(statSync(single).size)} (target ≤ 900 kB)` : "n/a (not built: make standalone)"}`);
}

try {
  console.log(`== ${ENGINE}; dist: ${process.env.DIST ?? "dist/"}; ${RUNS} runs of each, each in a fresh page: median (min–max)`);
  weight();
  const s = [];
  for (let i = 0; i < RUNS; i++) s.push(await startup());
  const some = (k) => s.every((x) => x[k] != null) ? fig(s.map((x) => x[k])) : "n/a";
  console.log(`start-up, nothing picked: load event ${some("loadMs")}, first contentful paint ${some("paintMs")} after navigation; ` +
    `from then to ${STARTUP_MS / 1000} s: ${stallWords(s, "stalls")} (target: none)`);
  if (ENGINE === "chromium") {
    console.log(`  first ${STARTUP_MS / 1000} s: page main thread CPU ${fig(s.map((x) => x.mainCpuMs))}, reading worker CPU ${fig(s.map((x) => x.workerCpuMs))}; ` +
      `Performance.getMetrics TaskDuration ${fig(s.map((x) => x.taskMs))}, ScriptDuration ${fig(s.map((x) => x.scriptMs))}`);
  } else {
    console.log(`  CPU by thread: n/a (no trace through ${ENGINE}'s driver; the stalls above stand for the main thread)`);
  }
  for (const [label, file] of [["sample (built in)", null], [`generated ${(statSync(file5).size / 1e6).toFixed(1)} MB`, file5]]) {
    const rs = [];
    for (let i = 0; i < RUNS; i++) rs.push(await open(file));
    console.log(`${label}: first rows ${fig(rs.map((r) => r.rowsMs))}, pick → full view ${fig(rs.map((r) => r.fullMs))}; after the pick: ${stallWords(rs, "longLoading")}`);
  }
  const rs = [];
  for (let i = 0; i < RUNS; i++) rs.push(await open(file80, { baselines: "all", insights: true }));
  const mb = statSync(file80).size / 1e6;
  const speed = (ms) => `${(mb / ms * 1000).toFixed(0)} MB/s`;
  console.log(`generated ${mb.toFixed(1)} MB:`);
  console.log(`  plain chunked Blob.slice().arrayBuffer() read: ${fig(rs.map((r) => r.base.readMs))}, ${speed(median(rs.map((r) => r.base.readMs)))}`);
  console.log(`  JS split + JSON.parse per line:                 ${fig(rs.map((r) => r.base.jsMs))}, ${speed(median(rs.map((r) => r.base.jsMs)))}`);
  console.log(`  ccscope pick → full view:                       ${fig(rs.map((r) => r.fullMs))}, ${speed(median(rs.map((r) => r.fullMs)))}`);
  console.log(`  first rows on screen: ${fig(rs.map((r) => r.rowsMs))}`);
  console.log(`  picked again in the same page (engine warm): pick → the app's finished mark ${fig(rs.map((r) => r.againMs))}; ratio vs plain read ${fig(rs.map((r) => r.base.readMs / r.againMs), 2, "×")}`);
  console.log(`  ratio vs plain read:  ${fig(rs.map((r) => r.base.readMs / r.fullMs), 2, "×")} (target ≥ ${ENGINE === "chromium" ? "0.9" : "0.7"}×)`);
  console.log(`  ratio vs JS baseline: ${fig(rs.map((r) => r.base.jsMs / r.fullMs), 2, "×")} (target ≥ 3×)`);
  console.log(`  wasm memory (largest): page ${mem(Math.max(...rs.map((r) => r.pageMem ?? 0)) || null)}, reading worker ${workerMemWords(Math.max(...rs.map((r) => r.workerMem ?? 0)) || null)}`);
  console.log(`  after the pick: ${stallWords(rs, "longLoading")}`);
  console.log(`  while scrolling: ${stallWords(rs, "longScrolling")} (target: none)`);
  console.log(`    the engine's floor, a plain page of text scrolled the same way: ${stallWords(rs, "plainScrolling")}`);
  console.log(`  insights (click → chart, timeline and tables drawn): ${fig(rs.map((r) => r.insightsMs))}, ${fig(rs.map((r) => r.insightsMs / r.fullMs), 2, "×")} of pick → full view; ${stallWords(rs, "longInsights")}`);
  if (process.env.BENCH_2GB === "1") {
    const big = join(TMP, "bench-2gb.jsonl");
    await concat(big, file80, 2 * 1024 * MIB);
    const g = await open(big, { baselines: "read" });
    const gmb = statSync(big).size / 1e6;
    console.log(`2 GB: ${(gmb / 1000).toFixed(2)} GB, pick → full view ${(g.fullMs / 1000).toFixed(2)} s (${(gmb / g.fullMs * 1000).toFixed(0)} MB/s); ` +
      `plain read ${(g.base.readMs / 1000).toFixed(2)} s; ratio ${(g.base.readMs / g.fullMs).toFixed(2)}× (target ≥ 0.8×); first rows ${g.rowsMs.toFixed(0)} ms`);
    console.log(`  wasm memory: page ${mem(g.pageMem)}, worker ${workerMemWords(g.workerMem)} (target ≤ 160 MiB together)`);
    console.log(`  loading: ${stallWords([g], "longLoading")}; scrolling: ${stallWords([g], "longScrolling")}`);
  } else {
    console.log("(BENCH_2GB=1 also opens a >= 2 GB file made by repeating the generated one)");
  }
} finally {
  await browser.close();
}
