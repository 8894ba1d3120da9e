// `make bench-browser`, third part: opening and following through File
// System Access handles, in headless Chromium (the one engine here that has
// them; in the others this says so and stops). The pickers return handles
// from the origin-private file system (tests/e2e/opfs.mjs), where the
// files were copied first; from the handle on, the product's own path runs.
// Prints figures against a baseline measured in the same run; nothing asserts.
//
// 1. A followed 5 MB conversation: CPU (page main thread + reading worker,
//    a Chromium trace) over 10 s idle with Follow on, minus the same 10 s
//    with Follow off: the cost of one check (there is one a second).
// 2. The same file growing by 100 KB a second (appended from the page, as
//    Claude Code's writes): CPU over 20 s with Follow on minus 20 s with
//    Follow off (the appends alone): the share of a core following takes.
// 3. The projects tree of tests/bench/folder.mjs picked through a handle:
//    list on screen after the pick, every conversation's facts, and the
//    page's long tasks while listing and summing (BENCH_TREE=0 skips it,
//    BENCH_TREE_ONLY=1 runs only it).
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium } from "playwright-core";
import { ENGINE, launch, DIST, ROOT } from "../e2e/helpers.mjs";
import { lacks } from "../e2e/driver.mjs";
import { serve } from "../e2e/server.mjs";
import { fakePickers } from "../e2e/opfs.mjs";
import { startTrace, endTrace } from "./trace.mjs";

if (lacks("fileSystemHandle")) {
  console.log(`== ${ENGINE}: following through File System Access handles not measured — ${lacks("fileSystemHandle")}; ` +
    "a picked file or folder there is followed by picking it again (nothing runs in the background to measure)");
  process.exit(0);
}

const FILE5 = join(ROOT, "target/bench/bench-5mb.jsonl");
if (!existsSync(FILE5)) execFileSync(join(ROOT, "target/release/ccscope-bench"), ["gen", FILE5, "--mb", "5"], { stdio: "inherit" });
const TREE = join(ROOT, "target/bench/tree");
if (!existsSync(join(TREE, "-Users-dev-code-project-00"))) execFileSync(join(ROOT, "target/release/ccscope-bench"), ["gen-tree", TREE, "--sessions", "300"], { stdio: "inherit" });

const browser = await launch();
const server = await serve(DIST, "/", 0, {}, {});
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** A page whose pickers hand out OPFS handles (a context of its own: its
 * own OPFS). `disk`: a profile on disk (a fresh context's storage quota is
 * too small for the 1.47 GB tree). */
async function handlesPage(disk = false) {
  const profile = disk ? mkdtempSync(join(tmpdir(), "ccscope-bench-")) : null;
  const context = disk
    ? await chromium.launchPersistentContext(profile, { executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium", args: ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"], viewport: { width: 1400, height: 1000 } })
    : await browser.newContext({ viewport: { width: 1400, height: 1000 } });
  // The profile goes once the browser let go of it (a failed removal leaves a temporary directory).
  if (profile) context.on("close", () => setTimeout(() => { try { rmSync(profile, { recursive: true, force: true, maxRetries: 5 }); } catch {} }, 500));
  await context.addInitScript(fakePickers);
  const page = await context.newPage();
  await page.goto(server.url);
  await page.waitForSelector("[data-testid=open-sample]");
  await page.evaluate(() => window.__opfs.clear());
  return { context, page };
}

/** Copies `paths` (a file, or a folder's files) into OPFS under `to`, through a scratch input. */
async function copyIn(page, paths, to, folder) {
  await page.evaluate((folder) => {
    const i = Object.assign(document.createElement("input"), { type: "file", multiple: true, id: "bench-copy", webkitdirectory: folder });
    document.body.append(i);
  }, folder);
  await page.setInputFiles("#bench-copy", paths);
  return page.evaluate(async ([to, folder]) => {
    const t0 = performance.now();
    const files = [...document.querySelector("#bench-copy").files];
    for (const f of files) await window.__opfs.write(folder ? `${to}/${f.webkitRelativePath.split("/").slice(1).join("/")}` : to, f);
    document.querySelector("#bench-copy").remove();
    return { n: files.length, ms: performance.now() - t0 };
  }, [to, folder]);
}

/** CPU of the page and its worker over `ms`, while `during` runs. */
async function cpuOver(page, ms, during = async () => {}) {
  const cdp = await page.context().newCDPSession(page);
  const trace = await startTrace(cdp);
  await Promise.all([sleep(ms), during()]);
  const cpu = await endTrace(trace);
  await cdp.detach();
  return cpu.mainCpuMs + cpu.workerCpuMs;
}

const setFollow = async (page, on) => {
  if ((await page.isChecked("[data-testid=follow]")) !== on) await page.click("[data-testid=follow]");
};

async function followed() {
  const { context, page } = await handlesPage();
  await copyIn(page, FILE5, "bench/live.jsonl", false);
  await page.evaluate(() => { window.__pick = ["bench/live.jsonl"]; });
  await page.click("[data-testid=open-files]");
  await page.waitForSelector("[data-testid=live] [data-testid=follow]:checked");
  await page.waitForSelector("[data-testid=viewer] .all-facts", { state: "attached", timeout: 60000 });
  await sleep(2000);
  const idleOn = await cpuOver(page, 10000);
  await setFollow(page, false);
  const idleOff = await cpuOver(page, 10000);
  // About 100 KB of whole records a second, cut from the file itself.
  const chunk = await page.evaluate(async () => {
    const f = await (await (await navigator.storage.getDirectory()).getDirectoryHandle("bench")).getFileHandle("live.jsonl");
    const text = await (await f.getFile()).slice(0, 1_000_000).text();
    return text.slice(0, text.indexOf("\n", 100_000) + 1);
  });
  // Each append's ids made new (as Claude Code's are): records that repeat
  // ids would join turns and answer calls at the file's start.
  const grow = (seconds) => page.evaluate(async ([c, n]) => {
    for (let k = 0; k < n; k++) {
      const t = performance.now();
      const fresh = c.replace(/"(id|uuid|parentUuid|tool_use_id)":"([^"]*)"/g, `"$1":"$2-${Date.now()}-${k}"`);
      await window.__opfs.append("bench/live.jsonl", fresh);
      await new Promise((r) => setTimeout(r, Math.max(0, 1000 - (performance.now() - t))));
    }
  }, [chunk, seconds]);
  const growOff = await cpuOver(page, 20000, () => grow(20));
  await setFollow(page, true);
  await sleep(3000);
  const growOn = await cpuOver(page, 20000, () => grow(20));
  await context.close();
  return { idleOn, idleOff, growOn, growOff, chunkBytes: chunk.length };
}

async function tree() {
  const { context, page } = await handlesPage(true);
  const copied = await copyIn(page, TREE, "tree", true);
  await page.reload();
  await page.waitForSelector("[data-testid=open-sample]");
  await page.evaluate(() => {
    window.__pick = ["tree"];
    window.__long = [];
    new PerformanceObserver((l) => { for (const e of l.getEntries()) window.__long.push({ at: e.startTime, ms: e.duration }); }).observe({ type: "longtask" });
    window.__t = {};
    window.addEventListener("click", () => { window.__t.pick ??= performance.now(); }, true);
    new PerformanceObserver((l) => { for (const e of l.getEntries()) if (e.name === "ccscope:survey-done") window.__t.done = e.startTime; }).observe({ type: "mark" });
    new MutationObserver(() => { if (!window.__t.list && document.querySelector("table.sessions tbody tr")) window.__t.list = performance.now(); })
      .observe(document.body, { subtree: true, childList: true });
  });
  await sleep(2000);
  await page.click("[data-testid=open-folder]");
  await page.waitForFunction(() => window.__t.done, null, { timeout: 600000, polling: 100 });
  const t = await page.evaluate(() => window.__t);
  const long = await page.evaluate(() => window.__long);
  // The baseline: a plain chunked read of the same files, in the same page.
  const { bytes, plainMs } = await page.evaluate(async () => {
    const files = [];
    const walk = async (d) => { for await (const h of d.values()) if (h.kind === "directory") await walk(h); else files.push(await h.getFile()); };
    await walk(await (await navigator.storage.getDirectory()).getDirectoryHandle("tree"));
    const t0 = performance.now();
    let n = 0;
    for (const f of files) for (let o = 0; o < f.size; o += 8 << 20) n += (await f.slice(o, o + (8 << 20)).arrayBuffer()).byteLength;
    return { bytes: n, plainMs: performance.now() - t0 };
  });
  await context.close();
  return { copied, pickAt: t.pick, listMs: t.list - t.pick, surveyMs: t.done - t.pick, long: long.filter((e) => e.at >= t.pick), bytes, plainMs };
}

try {
  const f = process.env.BENCH_TREE_ONLY === "1" ? null : await followed();
  console.log("following through a handle (File System Access, OPFS), headless Chromium:");
  if (f) {
    console.log(`  idle followed 5 MB conversation: ${((f.idleOn - f.idleOff) / 10).toFixed(2)} ms CPU per check, page + worker (${f.idleOn.toFixed(0)} ms in 10 s on, ${f.idleOff.toFixed(0)} ms off; target ≤ 1 ms)`);
    console.log(`  growing ${(f.chunkBytes / 1000).toFixed(0)} KB a second: following takes ${((f.growOn - f.growOff) / 20000 * 100).toFixed(2)}% of a core (${f.growOn.toFixed(0)} ms in 20 s on, ${f.growOff.toFixed(0)} ms off — the appends alone; target ≤ 2%)`);
  }
  if (process.env.BENCH_TREE === "0") process.exit(0);
  const r = await tree();
  const worst = r.long.length ? `${r.long.length}, longest ${Math.max(...r.long.map((e) => e.ms)).toFixed(0)} ms [${r.long.map((e) => `${e.ms.toFixed(0)} ms at +${(e.at - r.pickAt).toFixed(0)}`).join(", ")}]` : "0";
  console.log(`  projects tree through a folder handle (${r.copied.n} files, ${(r.bytes / 1e9).toFixed(2)} GB, copied into OPFS in ${(r.copied.ms / 1000).toFixed(1)} s first):`);
  console.log(`    list on screen ${r.listMs.toFixed(0)} ms after the click (target ≤ 300 ms); every conversation's facts ${(r.surveyMs / 1000).toFixed(2)} s, ${(r.bytes / 1e6 / r.surveyMs * 1000).toFixed(0)} MB/s; a plain chunked read of the same files ${(r.plainMs / 1000).toFixed(2)} s: ratio ${(r.plainMs / r.surveyMs).toFixed(2)}×`);
  console.log(`    long tasks on the page while listing and summing: ${worst} (target: none over 50 ms)`);
} finally {
  await server.close();
  await browser.close();
}
