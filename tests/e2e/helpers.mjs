// Shared set-up for the end-to-end tests: Debian's Chromium through
// playwright-core, the dist/ server, and the fixture tree.
import { chromium } from "playwright-core";
import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { spawnSync } from "node:child_process";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { serve } from "./server.mjs";

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

/** How many `ccscope:<name>` marks the page's reading worker has made (0 without a worker). */
export async function workerMarks(page, name) {
  let n = 0;
  for (const w of page.workers()) n += await w.evaluate((m) => performance.getEntriesByName(`ccscope:${m}`).length, name);
  return n;
}


export async function launch() {
  if (!existsSync(join(DIST, "index.html"))) throw new Error("dist/ is not built: run `make build` first");
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium",
    args: ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--disable-background-networking",
      "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic",
      // Debugging aid (tools/): extra flags, e.g. --js-flags=...; never set by the tests.
      ...(process.env.CHROMIUM_EXTRA_ARGS ? process.env.CHROMIUM_EXTRA_ARGS.split(" ") : [])],
  });
  return browser;
}

/** Opens the app (served at `prefix`) in a fresh page; collects console errors and page errors. */
/** `beforeGoto(page)`: runs before navigation (a trace, say); its result comes back as `before`. */
export async function openApp(browser, prefix = "/", { colorScheme = "light", block = [], beforeGoto = null } = {}) {
  const server = await serve(DIST, prefix);
  const context = await browser.newContext({ colorScheme, viewport: { width: 1200, height: 900 } });
  // `block`: URL globs answered 404 (to see the page cope without them).
  for (const glob of block) await context.route(glob, (route) => route.fulfill({ status: 404, body: "blocked by the test" }));
  const page = await context.newPage();
  const problems = [];
  page.on("console", (m) => { if (m.type() === "error") problems.push(m.text()); });
  page.on("pageerror", (e) => problems.push(String(e)));
  page.on("dialog", (d) => { problems.push("dialog: " + d.message()); d.dismiss(); });
  const before = beforeGoto ? await beforeGoto(page) : null;
  await page.goto(server.url);
  await page.waitForSelector("[data-testid=open-sample]", { timeout: 20000 });
  return { page, server, problems, context, before };
}

/** Picks `file` in the file input and waits until its facts (or a notice) are shown. */
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
