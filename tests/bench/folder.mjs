// `make bench-browser`, second part: a generated projects tree (`ccscope-bench
// gen-tree`, 300 conversations, ~1.5 GB) picked as a folder in this run's
// engine (ENGINE). Prints figures and ratios against a plain chunked read of
// the same files measured in the same page; nothing asserts. Where the
// engine's driver cannot set a directory on <input webkitdirectory>, the
// folder is dropped on the page instead (helpers.mjs `pickFolder`, said by
// name): the clock then starts at the drop.
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { ENGINE, launch, openApp, pickFolder, ROOT } from "../e2e/helpers.mjs";
import { lacks } from "../e2e/driver.mjs";
import { watchStalls, takeStalls, stallWords } from "./stalls.mjs";

const DIR = join(ROOT, "target/bench/tree");
if (!existsSync(join(DIR, "-Users-dev-code-project-00"))) execFileSync(join(ROOT, "target/release/ccscope-bench"), ["gen-tree", DIR, "--sessions", "300"], { stdio: "inherit" });
const MIB = 1024 * 1024;
const browser = await launch();

async function run() {
  const app = await openApp(browser, "/");
  const { page } = app;
  await page.setViewportSize({ width: 1400, height: 1000 });
  await watchStalls(page);
  await page.evaluate(() => {
    window.__t = {};
    // Before the app sees the pick (it clears the input): the moment, and the files for the baseline.
    window.addEventListener("change", (e) => { if (!e.target.files) return; window.__t.pick ??= performance.now(); window.__files = [...e.target.files]; }, true);
    // A dropped folder (pickFolder's fallback): the drop is the pick.
    window.addEventListener("drop", () => { window.__t.pick = performance.now(); }, true);
    new PerformanceObserver((l) => { for (const e of l.getEntries()) if (e.name === "ccscope:survey-done") window.__t.done = e.startTime; }).observe({ type: "mark" });
    new MutationObserver(() => {
      if (!window.__t.list && document.querySelector("table.sessions tbody tr")) window.__t.list = performance.now();
      if (window.__t.opened && !window.__t.rows && document.querySelector("[data-testid=turn-list] article.item")) window.__t.rows = performance.now();
    }).observe(document.body, { subtree: true, childList: true });
  });
  await new Promise((r) => setTimeout(r, 3000));
  await pickFolder(page, DIR);
  await page.waitForFunction(() => window.__t.list, null, { timeout: 60000, polling: 20 });
  // Open a ~5 MB conversation while the survey goes on.
  const nth = await page.evaluate(() => [...document.querySelectorAll("table.sessions tbody tr")]
    .findIndex((tr) => /^5\.\d MB$/.test(tr.querySelector("td[data-col=Size]")?.textContent ?? "")));
  // From the click itself (Playwright may wait a while for the row to be still).
  await page.evaluate(() => window.addEventListener("click", () => { window.__t.opened ??= performance.now(); }, true));
  await page.locator("table.sessions tbody tr a").nth(Math.max(0, nth)).click();
  await page.waitForFunction(() => window.__t.rows, null, { timeout: 60000, polling: 20 });
  const surveying = await page.evaluate(() => !window.__t.done);
  const steps = await page.evaluate(() => ["open", "head-read", "preview"].map((n) => `${n} +${(performance.getEntriesByName("ccscope:" + n).at(-1)?.startTime - window.__t.opened).toFixed(0)}`).join(", ") + `, rows +${(window.__t.rows - window.__t.opened).toFixed(0)}`);
  if (process.env.BENCH_DEBUG) console.log("opening from the list:", steps);
  await page.click("[data-testid=back]");
  await page.waitForFunction(() => window.__t.done, null, { timeout: 600000, polling: 100 });
  const t = await page.evaluate(() => window.__t);
  const longSurvey = await takeStalls(page);
  const pageMem = await page.evaluate(() => performance.getEntriesByName("ccscope:survey-done").at(-1)?.detail?.wasmMemoryBytes);
  let workerMem = null;
  for (const w of lacks("workers") ? [] : page.workers()) workerMem ??= await w.evaluate(() => performance.getEntriesByName("ccscope:worker-survey-end").at(-1)?.detail?.wasmMemoryBytes ?? null);
  // Search for a word that is in nearly every file, then the baseline.
  await page.fill("[data-testid=folder-search]", "parser");
  const s0 = await page.evaluate(() => performance.now());
  await page.press("[data-testid=folder-search]", "Enter");
  await page.waitForSelector("[data-testid=folder-search-status][data-finished]", { timeout: 600000 });
  const searchMs = (await page.evaluate(() => performance.now())) - s0;
  const longSearch = await takeStalls(page);
  const matches = await page.getAttribute("[data-testid=folder-search-status]", "data-matches");
  const plain = await page.evaluate(async () => {
    const t0 = performance.now();
    let bytes = 0;
    for (const f of window.__files) for (let o = 0; o < f.size; o += 8 * 1024 * 1024) bytes += (await f.slice(o, o + 8 * 1024 * 1024).arrayBuffer()).byteLength;
    return { ms: performance.now() - t0, bytes };
  });
  await app.context.close();
  await app.server.close();
  return { pickAt: t.pick, listMs: t.list - t.pick, surveyMs: t.done - t.pick, openRowsMs: t.rows - t.opened, surveying, searchMs, matches, plain, pageMem, workerMem, longSurvey, longSearch };
}

try {
  const runs = Math.max(1, Number(process.env.BENCH_RUNS_TREE ?? 2));
  for (let i = 0; i < runs; i++) {
    const r = await run();
    const gb = r.plain.bytes / 1e9;
    const speed = (ms) => `${(r.plain.bytes / 1e6 / ms * 1000).toFixed(0)} MB/s`;
    const worst = (key) => stallWords([r], key, { from: r.pickAt });
    console.log(`== ${ENGINE}: projects tree: ${gb.toFixed(2)} GB in 300 conversations (run ${i + 1} of ${runs})`);
    console.log(`  list with names and sizes on screen: ${r.listMs.toFixed(0)} ms after the pick (target ≤ 300 ms)` +
      (lacks("directoryInput") ? " — dropped: the stand-in directory entries of helpers.mjs answer the walk's calls through timers, so this is the harness's figure, not the browser's listing" : ""));
    console.log(`  every conversation's facts filled: ${(r.surveyMs / 1000).toFixed(2)} s, ${speed(r.surveyMs)}; plain chunked read of the same files ${(r.plain.ms / 1000).toFixed(2)} s, ${speed(r.plain.ms)}; ratio ${(r.plain.ms / r.surveyMs).toFixed(2)}× (target ≥ 0.8×)`);
    console.log(`  search across all of it ("parser", ${r.matches} matches): ${(r.searchMs / 1000).toFixed(2)} s, ${speed(r.searchMs)}; ratio ${(r.plain.ms / r.searchMs).toFixed(2)}× (target ≥ 0.8×)`);
    console.log(`  a 5 MB conversation opened from the list ${r.surveying ? "while the survey ran" : "(the survey had ended)"}: first rows ${r.openRowsMs.toFixed(0)} ms (target ≤ 150 ms)`);
    console.log(`  wasm memory: page ${r.pageMem ? `${(r.pageMem / MIB).toFixed(1)} MiB` : "n/a"} (target ≤ 64 MiB), worker ${r.workerMem ? `${(r.workerMem / MIB).toFixed(1)} MiB` : `n/a${lacks("workers") ? ` (${lacks("workers")})` : ""}`} (target ≤ 128 MiB)`);
    console.log(`  from the pick until the facts filled: ${worst("longSurvey")}`);
    console.log(`  while searching: ${worst("longSearch")} (target: none)`);
  }
} finally {
  await browser.close();
}
