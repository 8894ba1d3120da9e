// End-to-end: the built dist/ in Debian's Chromium, driven as a person would.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, writeFileSync, existsSync } from "node:fs";
import { execFileSync, spawnSync } from "node:child_process";
import { join } from "node:path";
import { launch, openApp, withApp, pick, startReading, shownStats, nativeStats, expectedStats, fixtures, pageMarks, workerMarks, ROOT, sameFacts, dropFile, CLI, pickFolder, skipped } from "./helpers.mjs";

const OUT = join(ROOT, "test-results");
const TMP = join(ROOT, "target/e2e");
mkdirSync(OUT, { recursive: true });
mkdirSync(TMP, { recursive: true });

const SYN = "synthetic/projects/-Users-alex-code-app";
// Small real files, the 1.3 MB-line synthetic one, CRLF/BOM/invalid UTF-8, images, inline sidechains.
const CASES = [
  `${SYN}/d3cb2e5d-477b-4f6b-a7e5-1f4ed60e6538.jsonl`,
  `${SYN}/736f7e77-f7fe-47f9-a81a-34c8baf2c7f1.jsonl`,
  `${SYN}/27e26b74-d9f6-4aa9-afff-37a69f7cb55e.jsonl`,
  "real/tomjnsn__agentlogs/fixtures/claudecode/compact.jsonl",
  "real/daaain__claude-code-log/test/test_data/real_projects/-Users-dain-workspace-claude-code-log-sample/0d3a8e6f-290f-4105-a327-a2496e5e2a83.jsonl",
  "real/d-kimuson__claude-code-viewer/mock-global-claude-dir/projects/sample-project/fe5e1c67-53e7-4862-81ae-d0e013e3270b.jsonl",
  "real/DRMacIver__claude-reliability/snapshot-tests/tests/python-to-rust-port/transcript.jsonl",
];

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

/** Not the engine's own report of the worker script the test answered 404
 * (Firefox logs "Loading Worker from …/worker.js was blocked"). */
const notBlocked = (problem) => !/Loading Worker from .*\/worker\.js/.test(problem);

/** Waits until the worker has ended `n` reads, finished or stopped. Where
 * the driver cannot look inside the worker, says so and waits until the
 * page has shown a finished view and two more seconds have passed with the
 * same file name on screen (a late answer of the first read would replace it). */
async function waitReadsEnded(page, n) {
  if (skipped("workers", `${n} reads ended in the worker (its marks)`, "the view stays on the last pick for 2 s")) {
    await page.waitForSelector("[data-testid=viewer] .all-facts", { state: "attached", timeout: 60000 });
    const name = await page.textContent("[data-testid=file-name]");
    for (let i = 0; i < 20; i++) {
      await new Promise((r) => setTimeout(r, 100));
      assert.equal(await page.textContent("[data-testid=file-name]"), name, "the older read did not come back");
    }
    return;
  }
  const until = Date.now() + 60000;
  while ((await workerMarks(page, "worker-read-end")) + (await workerMarks(page, "worker-read-cancelled")) < n) {
    assert.ok(Date.now() < until, `the worker ended fewer than ${n} reads`);
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(r)));
  }
}


test("the landing page loads cleanly under the CSP, in light and dark", async () => {
  for (const colorScheme of ["light", "dark"]) {
    await withApp(browser, async ({ page }) => {
      assert.ok(await page.isVisible('[data-testid=open-sample]:has-text("Open the sample")'));
      const csp = await page.getAttribute('meta[http-equiv="Content-Security-Policy"]', "content");
      for (const part of ["script-src 'self'", "connect-src 'self'", "object-src 'none'", "base-uri 'none'", "form-action 'none'"]) {
        assert.ok(csp.includes(part), `CSP has ${part}`);
      }
      assert.equal(await page.locator("script:not([src])").count(), 0, "no inline script");
      assert.equal(await page.evaluate(() => document.body.children.length), 1, "only the app's own element in <body>");
      assert.equal(await page.evaluate(() => location.hash), "", "nothing picked: the address is left alone");
      // Nothing runs that the person did not ask for: no file opened, no index built.
      assert.deepEqual(await pageMarks(page, "open"), [], "no open at start-up");
      await page.screenshot({ path: join(OUT, `landing-${colorScheme}.png`) });
    }, { colorScheme });
  }
});

test("picked fixtures show exactly the expected and the native facts", async () => {
  const root = fixtures();
  await withApp(browser, async ({ page }) => {
    for (const rel of CASES) {
      const file = join(root, rel);
      await pick(page, file);
      const shown = await shownStats(page);
      const want = expectedStats(rel);
      // Subagent runs live beside the file; a single picked file cannot see them.
      const skip = want.subagents.length ? ["subagents"] : [];
      sameFacts(rel, shown, want, { skip });
      sameFacts(`${rel} (native)`, shown, nativeStats(file), { skip: ["subagents"] });
      if (skip.length) assert.deepEqual(shown.subagents, []);
      // The header counts lines in words ("1 line", "1,234 lines").
      const lines = `${want.lines.toLocaleString("en-US")} line${want.lines === 1 ? "" : "s"}`;
      assert.equal(await page.textContent("[data-testid=line-count]"), lines, `${rel}: header line count`);
    }
    // The truncated line of the synthetic file is named, and the rest still shows.
    await pick(page, join(root, CASES[0]));
    assert.match(await page.textContent("[data-testid=skipped]"), /line 21 — truncated JSON/);
    assert.equal((await shownStats(page)).tool_calls, 10);
    await page.screenshot({ path: join(OUT, "read-file.png"), fullPage: true });
  });
});

test("after the page has loaded, reading files makes no request at all", async () => {
  const root = fixtures();
  await withApp(browser, async ({ page }) => {
    await page.waitForLoadState("networkidle");
    const requests = [];
    page.on("request", (r) => requests.push(r.url()));
    for (const rel of CASES.slice(0, 4)) await pick(page, join(root, rel));
    // Every body on screen has been read (no placeholder left): all reads are done.
    await page.waitForFunction(() => !document.querySelector("[data-testid=turn-list] .pending"));
    assert.deepEqual(requests, [], "no request while picking and reading");
  });
});

test("every request the page makes is to its own origin", async () => {
  const server = await (await import("./server.mjs")).serve(join(ROOT, "dist"), "/");
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    const urls = [];
    page.on("request", (r) => urls.push(r.url()));
    await page.goto(server.url);
    await page.click("[data-testid=open-sample]");
    await page.waitForSelector("[data-testid=viewer]");
    await page.evaluate(() => null); // (a driver without events hands them over on each call)
    const origin = new URL(server.url).origin;
    assert.ok(urls.length > 0);
    // A data: URL is no request (Firefox reports one for a font of its own).
    for (const u of urls.filter((u) => !u.startsWith("data:"))) assert.ok(u.startsWith(origin + "/"), `third-party or odd request: ${u}`);
  } finally {
    await context.close();
    await server.close();
  }
});

test("the same dist/ works under a sub-path", async () => {
  const root = fixtures();
  await withApp(browser, async ({ page }) => {
    const urls = [];
    page.on("request", (r) => urls.push(r.url()));
    const rel = CASES[3];
    await pick(page, join(root, rel));
    sameFacts(rel, await shownStats(page), expectedStats(rel));
    await page.click("[data-testid=open-sample]");
    await page.waitForFunction(() => document.querySelector("[data-testid=file-name]")?.textContent === "sample.jsonl");
    for (const u of urls) assert.ok(new URL(u).pathname.startsWith("/some/sub/path/"), u);
  }, { prefix: "/some/sub/path/" });
});

test("the sample opens from the button and from a drop", async () => {
  await withApp(browser, async ({ page }) => {
    await page.click("[data-testid=open-sample]");
    await page.waitForSelector("[data-testid=viewer]");
    const native = nativeStats(join(ROOT, "www/sample.jsonl"));
    sameFacts("sample", await shownStats(page), native, { skip: ["subagents"] });
    // Drag and drop a file onto the page.
    await dropFile(page, "dropped.jsonl", '{"type":"user","message":{"role":"user","content":"hi"}}\n');
    await page.waitForFunction(() => document.querySelector("[data-testid=file-name]")?.textContent === "dropped.jsonl");
    assert.equal((await shownStats(page)).lines, 1);
  });
});

test("files that are not transcripts get a clear sentence, not a blank page", async () => {
  const png = join(TMP, "picture.png");
  writeFileSync(png, Buffer.from("89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c489", "hex"));
  const empty = join(TMP, "empty.jsonl");
  writeFileSync(empty, "");
  const prose = join(TMP, "notes.jsonl");
  writeFileSync(prose, "just some notes\nnot json at all\n");
  await withApp(browser, async ({ page }) => {
    for (const [file, text] of [[png, /This is a PNG image, not a Claude Code transcript/], [empty, /This file is empty/], [prose, /none of its 2 lines is a JSON object/]]) {
      await pick(page, file);
      assert.match(await page.textContent("[data-testid=not-transcript]"), text);
    }
    await page.screenshot({ path: join(OUT, "not-a-transcript.png") });
  });
});

test("a big file is read in the worker; its preview's list stays mounted and in place when the whole file arrives", async () => {
  const big = join(TMP, "big.jsonl");
  if (!existsSync(big)) execFileSync(join(ROOT, "target/release/ccscope-bench"), ["gen", big, "--mb", "60"]);
  await withApp(browser, async ({ page }) => {
    await page.setInputFiles("#file-input", big);
    // The preview: the start of the file, while the rest is read.
    await page.waitForSelector("[data-testid=reading] ~ [data-testid=viewer] [data-testid=turn-list] article.item", { timeout: 30000 });
    const list = await page.$("[data-testid=turn-list]");
    // What the reader sees at the top of the list: the first item not
    // scrolled past, and where its top edge is. Taken once it holds still
    // (the same over three frames): on a busy machine a row measured late
    // moves the view for a frame before it is put back, and a sample taken
    // in that frame says nothing about where the list stays.
    const placeOverThreeFrames = () => page.evaluate(() => new Promise((resolve) => {
      const place = () => {
        const l = document.querySelector("[data-testid=turn-list]"), top = l.getBoundingClientRect().top;
        const a = [...l.querySelectorAll("article.item")].find((x) => x.getBoundingClientRect().bottom > top + 1);
        return a && a.hasAttribute("data-settled") && !l.querySelector(".pending") ? `${a.dataset.item} at ${Math.round(a.getBoundingClientRect().top - top)} px` : null;
      };
      const seen = [];
      const frame = () => requestAnimationFrame(() => {
        seen.push(place());
        if (seen.length < 3) return frame();
        resolve(seen[0] !== null && seen.every((p) => p === seen[0]) ? seen[0] : null);
      });
      frame();
    }));
    const settledPlace = async () => {
      for (const until = Date.now() + 30000; Date.now() < until;) {
        const place = await placeOverThreeFrames();
        if (place) return place;
      }
      throw new Error("the list did not hold still for three frames in 30 s");
    };
    await list.evaluate((l) => { l.scrollTop = 700; });
    const before = await settledPlace();
    await page.waitForFunction(() => document.querySelector("[data-testid=viewer] .all-facts"), null, { timeout: 60000 });
    assert.ok(await list.evaluate((el) => el.isConnected), "the same list element: the viewer was updated, not rebuilt");
    // The same item at the same height (a pixel of rounding either way).
    const [id, px] = before.split(" at ");
    const after = await settledPlace();
    const [idAfter, pxAfter] = after.split(" at ");
    assert.equal(idAfter, id, `the item at the top stayed at the top (before: ${before}; after: ${after})`);
    assert.ok(Math.abs(parseInt(pxAfter) - parseInt(px)) <= 1, `and did not move (before: ${before}; after: ${after})`);
    if (!skipped("workers", "the big file was read and indexed in the worker (its marks)")) {
      assert.equal(await workerMarks(page, "worker-read-end"), 1, "read and indexed in the worker");
    }
    // The index lives in the page's wasm; the file's bytes never did.
    const [{ wasmMemoryBytes: pageMem }] = await pageMarks(page, "finished");
    assert.ok(pageMem > 0 && pageMem < 32 * 2 ** 20, `page wasm memory ${pageMem}`);
    sameFacts("big via worker", await shownStats(page), nativeStats(big), { skip: ["subagents"] });
    assert.equal(Number(await page.getAttribute("[data-testid=turn-list]", "data-count")) > 1000, true);
  });
});

test("two big picks in a row: the worker drops the first, and the second's facts are right", async () => {
  const root = fixtures();
  const big = join(TMP, "big.jsonl");
  if (!existsSync(big)) execFileSync(join(ROOT, "target/release/ccscope-bench"), ["gen", big, "--mb", "60"]);
  const second = join(root, CASES[4]);
  await withApp(browser, async ({ page }) => {
    await startReading(page, big);
    await pick(page, second);
    // Both reads have ended in the worker (the first stopped, or done before
    // the stop arrived): nothing more can come of the first.
    await waitReadsEnded(page, 2);
    assert.equal(await page.textContent("[data-testid=file-name]"), second.split("/").pop(), "the older read did not come back");
    if (!skipped("workers", "the second file was read in the worker (its marks)")) {
      assert.ok(await workerMarks(page, "worker-read-end") >= 1, "the second file was read in the worker");
    }
    sameFacts("second", await shownStats(page), nativeStats(second), { skip: ["subagents"] });
  });
});

test("where no worker can start, the page reads the file itself, with the same facts", async () => {
  const root = fixtures();
  const file = join(root, CASES[4]);
  const app = await openApp(browser, "/", { block: ["/worker.js"] });
  try {
    await pick(app.page, file);
    if (!skipped("workers", "no worker read the file (its marks)", "the worker's script was answered 404, so none could start")) {
      assert.equal(await workerMarks(app.page, "worker-read-start"), 0, "no worker read it");
    }
    sameFacts("in page", await shownStats(app.page), nativeStats(file), { skip: ["subagents"] });
    assert.deepEqual(app.problems.filter(notBlocked), [], "no console error, page error or dialog");
  } finally {
    await app.context.close();
    await app.server.close();
  }
});

test("where no worker can start, a folder is summed up and searched on the page, as in the worker", async () => {
  const dir = join(fixtures(), "synthetic/projects");
  const want = spawnSync(CLI, ["sessions", dir], { encoding: "utf8" }).stdout.trim().split("\n").map((l) => JSON.parse(l));
  const app = await openApp(browser, "/", { block: ["/worker.js"] });
  try {
    const { page } = app;
    await pickFolder(page, dir);
    await page.waitForFunction(() => !document.querySelector("[data-testid=survey]"), null, { timeout: 60000 });
    if (!skipped("workers", "no worker read the folder (its marks)", "the worker's script was answered 404, so none could start")) {
      assert.equal(await workerMarks(page, "worker-read-start"), 0, "no worker");
    }
    const turns = await page.$$eval("table.sessions tbody tr td[data-col=Turns]", (tds) => tds.map((t) => t.textContent));
    assert.equal(turns.filter((t) => /^\d/.test(t)).length, want.filter((w) => !w.deleted).length, "every shown conversation's facts are in");
    await page.fill("[data-testid=folder-search]", "build");
    await page.press("[data-testid=folder-search]", "Enter");
    await page.waitForSelector("[data-testid=folder-search-status][data-finished]");
    assert.ok(Number(await page.getAttribute("[data-testid=folder-search-status]", "data-matches")) > 0, "the search found matches");
    // The conversation view's search, on the page too.
    await page.locator("[data-testid=folder-results] .hit").first().click();
    await page.waitForSelector("[data-testid=search-status][data-matches]");
    assert.ok(Number(await page.getAttribute("[data-testid=search-status]", "data-matches")) > 0);
    assert.deepEqual(app.problems.filter(notBlocked), [], "no console error, page error or dialog");
  } finally {
    await app.context.close();
    await app.server.close();
  }
});

test("a big file shows progress, and a second pick replaces the first", async () => {
  const big = join(TMP, "big.jsonl");
  if (!existsSync(big)) execFileSync(join(ROOT, "target/release/ccscope-bench"), ["gen", big, "--mb", "60"]);
  await withApp(browser, async ({ page }) => {
    await page.evaluate(() => {
      window.__progress = [];
      new MutationObserver(() => {
        const p = document.querySelector("progress.bar");
        if (p) window.__progress.push(Number(p.value));
      }).observe(document.body, { subtree: true, childList: true, attributes: true });
    });
    await pick(page, big);
    const seen = await page.evaluate(() => window.__progress);
    assert.ok(seen.some((v) => v > 0 && v < 100), `progress seen mid-way: ${seen.slice(0, 10)}`);
    sameFacts("big", await shownStats(page), nativeStats(big), { skip: ["subagents"] });
    // Start the big file again, then pick the sample before it finishes: the sample wins.
    await startReading(page, big);
    await page.click("[data-testid=open-sample]");
    await page.waitForFunction(() => document.querySelector("[data-testid=file-name]")?.textContent === "sample.jsonl");
    // The first pick's read and the second one's have both ended in the worker.
    await waitReadsEnded(page, 2);
    assert.equal(await page.textContent("[data-testid=file-name]"), "sample.jsonl", "the older read did not come back");
    assert.equal((await shownStats(page)).lines, nativeStats(join(ROOT, "www/sample.jsonl")).lines);
  });
});
