// Shared set-up for the end-to-end tests: the engine of this run (driver.mjs),
// the dist/ server, and the fixture tree.
import assert from "node:assert/strict";
import { existsSync, readFileSync, readdirSync } from "node:fs";
import { spawnSync } from "node:child_process";
import { basename, dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { serve } from "./server.mjs";
import { ENGINE, launch as launchEngine, lacks, skipped, axeSource } from "./driver.mjs";

export { ENGINE, skipped };

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
export const DIST = process.env.DIST ?? join(ROOT, "dist");
export const FIXTURES = resolve(ROOT, "../shared/fixtures");
export const CLI = join(ROOT, "target/release/ccscope");

/** The fixture tree. It is always there beside the checkout: its absence fails the test, never skips it. */
export function fixtures() {
  if (!existsSync(FIXTURES)) throw new Error(`${FIXTURES} is missing: the fixture tests need it`);
  return FIXTURES;
}

/** The page's `ccscope:<name>` performance marks (their details). */
export async function pageMarks(page, name) {
  return page.evaluate((n) => performance.getEntriesByName(`ccscope:${n}`).map((e) => e.detail ?? null), name);
}

/** How many `ccscope:<name>` marks the page's reading worker has made (0
 * without a worker); null where the driver cannot look inside a worker
 * (the caller says so by name with `skipped("workers", …)`). */
export async function workerMarks(page, name) {
  if (lacks("workers")) return null;
  let n = 0;
  for (const w of page.workers()) n += await w.evaluate((m) => performance.getEntriesByName(`ccscope:${m}`).length, name);
  return n;
}


/** This run's engine, once dist/ is built. */
export async function launch() {
  if (!existsSync(join(DIST, "index.html"))) throw new Error("dist/ is not built: run `make build` first");
  return launchEngine();
}

/** Opens the app (served at `prefix`) in a fresh page; collects console errors and page errors.
 * `block`: paths (by their ends) the server answers 404, to see the page cope without them.
 * `beforeGoto(page)`: runs before the page loads (the benchmark starts a trace); its result is `before`. */
export async function openApp(browser, prefix = "/", { colorScheme = "light", block = [], beforeGoto } = {}) {
  const server = await serve(DIST, prefix, 0, {}, { block });
  const context = await browser.newContext({ colorScheme, viewport: { width: 1200, height: 900 } });
  const page = await context.newPage();
  const problems = [];
  page.on("console", (m) => { if (m.type() === "error") problems.push(m.text()); });
  page.on("pageerror", (e) => problems.push(String(e)));
  page.on("dialog", (d) => { problems.push("dialog: " + d.message()); d.dismiss(); });
  const before = beforeGoto ? await beforeGoto(page) : undefined;
  await page.goto(server.url);
  await page.waitForSelector("[data-testid=open-sample]", { timeout: 20000 });
  return { page, server, problems, context, before };
}

/** Picks `file` and returns once its read is under way (the progress bar has
 * shown). A 60 MB read can be over in 200 ms while the page is busy drawing
 * the preview, so the bar is noted whenever it shows rather than polled for
 * (polling can miss it). */
export async function startReading(page, file) {
  await page.evaluate(() => {
    window.__sawReading = false;
    new MutationObserver((_, o) => {
      if (document.querySelector("[data-testid=reading]")) { window.__sawReading = true; o.disconnect(); }
    }).observe(document.body, { subtree: true, childList: true });
  });
  await page.setInputFiles("#file-input", file);
  await page.waitForFunction(() => window.__sawReading, null, { timeout: 10000 });
}

export async function pick(page, file) {
  await page.setInputFiles("#file-input", file);
  await page.waitForFunction(
    (name) => {
      const n = document.querySelector("[data-testid=file-name]");
      return (n && n.textContent === name) || document.querySelector("[data-testid=error]");
    },
    file.split("/").pop(),
    { timeout: 60000 },
  );
}

/** Every `data-stat` element's `data-value`, parsed. */
export async function shownStats(page) {
  return page.$$eval("[data-stat]", (els) => Object.fromEntries(els.map((e) => [e.dataset.stat, JSON.parse(e.dataset.value)])));
}

/** What the native CLI says for the same file (it prints the facts even when
 * it fails because the file is not a transcript). */
export function nativeStats(file) {
  const r = spawnSync(CLI, ["stats", file], { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] });
  return JSON.parse(r.stdout);
}

export function expectedStats(relPath) {
  return JSON.parse(readFileSync(join(FIXTURES, "expected", relPath.replace(/\.jsonl$/, ".json")), "utf8"));
}

/**
 * Runs `body({ page })` on a fresh page of the app served at `prefix`, then
 * asserts that nothing went wrong on the page (no console error, page error
 * or dialog) and closes everything, even when `body` throws.
 */
export async function withApp(browser, body, { prefix = "/", colorScheme = "light" } = {}) {
  const app = await openApp(browser, prefix, { colorScheme });
  try {
    await body(app);
    await app.page.evaluate(() => null); // (a driver without events hands them over on each call)
    assert.deepEqual(app.problems, [], "no console error, page error or dialog");
  } finally {
    await app.context.close();
    await app.server.close();
  }
}

/** Every fact of `want` (contract v1) as `shown` says it; floats within 0.001. */
export function sameFacts(label, shown, want, { skip = [] } = {}) {
  for (const [k, v] of Object.entries(want)) {
    if (skip.includes(k)) continue;
    if (typeof v === "number" && !Number.isInteger(v)) {
      assert.ok(Math.abs(shown[k] - v) <= 0.001, `${label}: ${k}: shown ${shown[k]}, want ${v}`);
    } else {
      assert.deepEqual(shown[k], v, `${label}: ${k}`);
    }
  }
}

/** Drops a file called `name` holding `text` on the page, as a person drags one in. */
export async function dropFile(page, name, text) {
  await page.evaluate(([name, text]) => {
    const dt = new DataTransfer();
    dt.items.add(new File([text], name));
    const target = document.querySelector(".page");
    target.dispatchEvent(new DragEvent("dragover", { dataTransfer: dt, bubbles: true, cancelable: true }));
    target.dispatchEvent(new DragEvent("drop", { dataTransfer: dt, bubbles: true, cancelable: true }));
  }, [name, text]);
}

/** Every file under `dir`, as paths relative to `dir`'s parent ("projects/…"), sorted. */
function filesUnder(dir) {
  const out = [];
  const walk = (abs, rel) => {
    for (const e of readdirSync(abs, { withFileTypes: true })) {
      if (e.isDirectory()) walk(join(abs, e.name), `${rel}/${e.name}`);
      else if (e.isFile()) out.push(`${rel}/${e.name}`);
    }
  };
  walk(dir, basename(dir));
  return out.sort();
}

/**
 * Opens folder `dir` as a person does: through "Open a folder…"
 * (`<input webkitdirectory>`). Where the engine's driver cannot set a
 * directory on that input, says so by name and drops the folder instead:
 * the same files, picked into a scratch input, are handed to the page's
 * drop handler as the directory entries a dragged folder gives
 * (`webkitGetAsEntry()`: `isDirectory`, `createReader().readEntries`,
 * `file()`), so the page's own walk lists them.
 */
export async function pickFolder(page, dir) {
  if (!skipped("directoryInput", "a folder picked through <input webkitdirectory>", "the same folder dropped on the page")) {
    return page.setInputFiles("#folder-input", dir);
  }
  const rel = filesUnder(dir);
  await page.evaluate(() => {
    const i = document.createElement("input");
    Object.assign(i, { type: "file", multiple: true, id: "e2e-folder-files" });
    i.style.cssText = "position:fixed;left:0;top:0;width:2px;height:2px";
    document.body.append(i);
  });
  await page.setInputFiles("#e2e-folder-files", rel.map((r) => join(dirname(dir), r)));
  await page.evaluate((paths) => {
    const input = document.getElementById("e2e-folder-files");
    const files = [...input.files];
    input.remove();
    if (files.length !== paths.length) throw new Error(`picked ${files.length} of ${paths.length} files`);
    const dirs = new Map();
    const dirAt = (path) => {
      if (!dirs.has(path)) {
        const d = { isDirectory: true, isFile: false, name: path.split("/").pop(), fullPath: `/${path}`, children: [] };
        d.createReader = () => { let done = false; return { readEntries: (ok) => setTimeout(() => { ok(done ? [] : d.children); done = true; }) }; };
        dirs.set(path, d);
        const up = path.lastIndexOf("/");
        if (up > 0) dirAt(path.slice(0, up)).children.push(d);
      }
      return dirs.get(path);
    };
    paths.forEach((p, i) => {
      if (files[i].name !== p.split("/").pop()) throw new Error(`file ${i} is ${files[i].name}, not ${p}`);
      const file = files[i];
      dirAt(p.slice(0, p.lastIndexOf("/"))).children.push({ isDirectory: false, isFile: true, name: file.name, fullPath: `/${p}`, file: (ok) => setTimeout(() => ok(file)) });
    });
    const top = dirAt(paths[0].split("/")[0]);
    const dt = { items: [{ kind: "file", webkitGetAsEntry: () => top }], files: [], types: ["Files"] };
    const target = document.querySelector(".page");
    for (const type of ["dragover", "drop"]) {
      const ev = new DragEvent(type, { bubbles: true, cancelable: true });
      Object.defineProperty(ev, "dataTransfer", { value: dt });
      target.dispatchEvent(ev);
    }
  }, rel);
  // As after the input's pick: the list is there once the walk is done.
  await page.waitForSelector("[data-testid=sessions]", { state: "attached", timeout: 60000 });
}

/** Opens folder `dir` (`pickFolder`) and waits until every conversation's facts are in. */
export async function openFolder(page, dir) {
  await pickFolder(page, dir);
  await page.waitForSelector("[data-testid=sessions]");
  await page.waitForFunction(() => !document.querySelector("[data-testid=survey]"), null, { timeout: 60000 });
}

/** axe-core's serious and critical violations on the page as it is, in
 * words (axe is injected by the driver, past the page's CSP, in any engine). */
export async function axe(page) {
  if (!(await page.evaluate(() => !!window.axe))) await page.evaluate(axeSource());
  const r = await page.evaluate(() => window.axe.run(document));
  return r.violations.filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => `${v.id} (${v.impact}): ${v.help} — ${v.nodes.slice(0, 3).map((n) => n.target.join(" ")).join("; ")}`);
}
