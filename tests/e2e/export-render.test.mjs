// End-to-end: an export is data, not code. The Markdown export of a hostile
// conversation (tests/fixtures/hostile-export.jsonl), of the synthetic one
// with hostile HTML, and of every shared fixture is rendered the way a wiki
// or a static site might — markdown-it with raw HTML allowed — and loaded in
// the browser as a page of its own: no script runs (no dialog), no request
// leaves, and what a person reads is still there (every item's heading, the
// hostile strings as text).
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import MarkdownIt from "markdown-it";
import { launch, fixtures, CLI, ROOT } from "./helpers.mjs";
import { HOSTILE } from "./view-helpers.mjs";

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

const md = new MarkdownIt({ html: true });
const cli = (file, format) => spawnSync(CLI, ["export", file, "--format", format], { encoding: "utf8", maxBuffer: 1 << 28 });

/** Every `.jsonl` under `dir`. */
function transcripts(dir) {
  return spawnSync("find", [dir, "-name", "*.jsonl", "-type", "f"], { encoding: "utf8" }).stdout.trim().split("\n").filter(Boolean).sort();
}

/** Loads `html` as a page; what ran and what was requested while it settled. */
async function load(page, html, events) {
  events.dialogs = [];
  events.requests = [];
  await page.setContent(`<!doctype html><html><body>${html}</body></html>`, { waitUntil: "load" });
  await page.evaluate(() => new Promise((r) => setTimeout(r, 50)));
  return page.evaluate(() => document.body.textContent);
}

test("Markdown exports rendered with raw HTML allowed run nothing, fetch nothing and keep their text", async () => {
  const root = fixtures();
  const files = [join(ROOT, "tests/fixtures/hostile-export.jsonl"), join(root, HOSTILE), ...transcripts(join(root, "real")), ...transcripts(join(root, "synthetic"))];
  const context = await browser.newContext();
  const page = await context.newPage();
  const events = { dialogs: [], requests: [] };
  page.on("dialog", (d) => { events.dialogs.push(d.message()); d.dismiss(); });
  page.on("request", (r) => { if (!r.url().startsWith("data:") && r.url() !== "about:blank") events.requests.push(r.url()); });
  let rendered = 0;
  try {
    for (const file of files) {
      const out = cli(file, "md");
      if (out.status !== 0) continue; // not a transcript (an empty file): no export
      const text = await load(page, md.render(out.stdout), events);
      const name = file.slice(file.lastIndexOf("/") + 1);
      assert.deepEqual(events.dialogs, [], `${name}: no script ran`);
      assert.deepEqual(events.requests, [], `${name}: no request left the page`);
      // Every item of the JSON export has its heading in the rendered text.
      const items = JSON.parse(cli(file, "json").stdout).items.filter((i) => !["idle", "resume"].includes(i.kind));
      for (const it of items) assert.ok(text.includes(`line ${it.line}`), `${name}: the item at line ${it.line} is there`);
      rendered += 1;
    }
    assert.ok(rendered >= 100, `${rendered} exports rendered`);
    // The hostile strings are there as text a person reads.
    const text = await load(page, md.render(cli(join(ROOT, "tests/fixtures/hostile-export.jsonl"), "md").stdout), events);
    for (const s of ['<script>alert("h1")</script>', '<img src=x onerror=alert("h2")>', "http://evil.test/i.png", '<details open ontoggle=alert("h5")>', '</summary><script>alert(\\"headline\\")</script>', '<script>alert("title")</script>']) {
      assert.ok(text.includes(s), `${s} is shown as text`);
    }
  } finally {
    await context.close();
  }
});
