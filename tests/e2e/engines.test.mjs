// End-to-end in every engine a team uses — Chromium, Firefox and WebKit
// (Safari's engine) — through one driver layer (engines.mjs): the hosted
// page and the single ccscope.html from file:// read files with exactly the
// facts the CLI computes; several files picked together open as a folder;
// the conversation's search and keys work; Redact hides what it should;
// axe-core finds nothing serious or critical, light and dark; and each view
// is screenshotted at a laptop's and a phone's size, light and dark.
// A check an engine cannot run says so by name, and its fallback runs.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { ENGINES, start, lacks } from "./engines.mjs";
import { serve } from "./server.mjs";
import { DIST, ROOT, fixtures, nativeStats, sameFacts } from "./helpers.mjs";
import { MAIN, HOSTILE, BIG_REAL, SYN } from "./view-helpers.mjs";

const OUT = join(ROOT, "test-results/engines");
mkdirSync(OUT, { recursive: true });
const AXE = join(ROOT, "node_modules/axe-core/axe.min.js");
const ran = Object.fromEntries(ENGINES.map((e) => [e, { ran: 0, skipped: [] }]));

let server;
before(async () => { server = await serve(DIST, "/", 0, { "/__axe.js": AXE }); });
after(async () => { await server?.close(); });

/** Every `data-stat` element's value: the facts the page shows. */
const shown = (page) => page.evaluate(() => Object.fromEntries([...document.querySelectorAll("[data-stat]")].map((e) => [e.dataset.stat, JSON.parse(e.dataset.value)])));
const fullView = (page) => page.waitFor(() => !!(document.querySelector("[data-testid=viewer] .all-facts") || document.querySelector("[data-testid=error]")), null, { timeout: 60000, what: "the full view" });

/** Runs `body(page)` on a fresh page of `engine` at `url`; fails on a console error. */
async function withPage(engine, url, body, opts = {}) {
  const e = await start(engine);
  const page = await e.newPage(opts);
  try {
    await page.goto(url);
    await page.waitForSelector("[data-testid=open-sample]");
    await body(page);
    if (page.sync) await page.sync();
    assert.deepEqual(page.errors, [], `${engine}: no console error`);
    ran[engine].ran += 1;
  } finally {
    await page.close().catch(() => {});
    await e.close().catch(() => {});
  }
}

function skip(engine, check, feature) {
  const why = lacks(engine, feature);
  if (why) ran[engine].skipped.push(`${check} (${why})`);
  return why;
}

for (const engine of ENGINES) {
  test(`${engine}: picked files show exactly the facts the CLI computes, with no request off the page's origin`, async () => {
    const root = fixtures();
    await withPage(engine, server.url, async (page) => {
      for (const rel of [MAIN, HOSTILE, BIG_REAL]) {
        const file = join(root, rel);
        await page.pickFiles("#file-input", [file]);
        await page.waitFor((n) => document.querySelector("[data-testid=file-name]")?.textContent === n || !!document.querySelector("[data-testid=error]"), file.split("/").pop(), { timeout: 60000, what: rel });
        assert.equal(await page.text("[data-testid=error]"), null, `${engine}: ${rel} opens`);
        sameFacts(`${engine}: ${rel}`, await shown(page), nativeStats(file), { skip: ["subagents"] });
      }
      if (page.sync) await page.sync();
      const origin = new URL(server.url).origin;
      assert.deepEqual(page.reqs.filter((u) => !u.startsWith(origin) && !u.startsWith("blob:") && !u.startsWith("data:")), [], `${engine}: every request stays on the page's origin`);
    });
  });

  test(`${engine}: the single ccscope.html from file:// reads a file and a drop`, async () => {
    const file = join(fixtures(), BIG_REAL);
    await withPage(engine, `file://${join(DIST, "ccscope.html")}`, async (page) => {
      await page.pickFiles("#file-input", [file]);
      await fullView(page);
      assert.equal(await page.text("[data-testid=error]"), null, `${engine}: it opens from file://`);
      sameFacts(`${engine} file://`, await shown(page), nativeStats(file), { skip: ["subagents"] });
      await page.evaluate(() => {
        const dt = new DataTransfer();
        dt.items.add(new File(['{"type":"user","message":{"role":"user","content":"dropped here"}}\n'], "dropped.jsonl"));
        const t = document.querySelector(".page");
        t.dispatchEvent(new DragEvent("dragover", { dataTransfer: dt, bubbles: true, cancelable: true }));
        t.dispatchEvent(new DragEvent("drop", { dataTransfer: dt, bubbles: true, cancelable: true }));
      });
      await page.waitFor(() => document.querySelector("[data-testid=file-name]")?.textContent === "dropped.jsonl", null, { what: "the dropped file" });
    });
  });

  test(`${engine}: a project's files picked together open as a folder; search, keys and Redact work`, async () => {
    const dir = join(fixtures(), SYN);
    if (skip(engine, "a folder through <input webkitdirectory>", "directoryInput")) {
      // The fallback runs below: the same files picked together.
    }
    const files = ["d3cb2e5d-477b-4f6b-a7e5-1f4ed60e6538.jsonl", "736f7e77-f7fe-47f9-a81a-34c8baf2c7f1.jsonl", "27e26b74-d9f6-4aa9-afff-37a69f7cb55e.jsonl"].map((f) => join(dir, f));
    await withPage(engine, server.url, async (page) => {
      await page.pickFiles("#file-input", files);
      await page.waitFor((n) => document.querySelectorAll("table.sessions tbody tr").length === n && !document.querySelector("[data-testid=survey]"), files.length, { timeout: 60000, what: "the list" });
      const titles = await page.evaluate(() => [...document.querySelectorAll("[data-testid=conv-title]")].map((t) => t.textContent).sort());
      assert.ok(titles.includes("app build fix"), `${engine}: titles ${titles}`);
      await page.click('table.sessions tr[data-path$="d3cb2e5d-477b-4f6b-a7e5-1f4ed60e6538.jsonl"] a');
      await page.waitForSelector("[data-testid=turn-list] article.item");
      await page.type("[data-testid=search]", "error");
      await page.key("Enter");
      await page.waitFor(() => Number(document.querySelector("[data-testid=search-status]")?.dataset.matches ?? 0) > 0, null, { what: "search matches" });
      await page.evaluate(() => document.activeElement?.blur());
      await page.evaluate(() => document.querySelector("[data-testid=turn-list]").focus());
      const before = await page.evaluate(() => document.querySelector("article.item.current")?.dataset.line ?? null);
      await page.key("j");
      await page.waitFor((b) => (document.querySelector("article.item.current")?.dataset.line ?? null) !== b, before, { what: "j moves the current item" });
      // Redact: the e-mail of the hostile prompt is hidden, and the address holds no path.
      await page.click("[data-testid=redact-toggle]");
      await page.waitFor(() => /^#\/~\d/.test(location.hash) || location.hash === "", null, { what: "an opaque address" });
      const text = await page.evaluate(() => document.body.innerText + location.href);
      assert.ok(!/\/Users\/alex\b/.test(text), `${engine}: the user's name is hidden`);
      await page.click("[data-testid=redact-toggle]");
    });
  });

  test(`${engine}: the transcript gets the screen at 1366×768 and 390×844; axe-core finds no serious or critical violation, light and dark; screenshots`, async () => {
    const file = join(fixtures(), MAIN);
    for (const [w, h] of [[1366, 768], [390, 844]]) {
      await withPage(engine, server.url, async (page) => {
        await page.pickFiles("#file-input", [file]);
        await fullView(page);
        // The reading layout: the transcript is the larger part of the screen.
        const share = await page.evaluate(() => document.querySelector("[data-testid=turn-list]").getBoundingClientRect().height / window.innerHeight);
        const want = w === 1366 ? 0.7 : 0.55;
        assert.ok(share >= want, `${engine} at ${w}×${h}: the list is ${(share * 100).toFixed(0)}% of the screen's height (at least ${want * 100}%)`);
        for (const scheme of ["light", "dark"]) {
          // Dark through the page's own toggle (system → dark → light): the same in every engine.
          if (scheme === "dark") {
            await page.click("[data-testid=theme-toggle]");
            await page.waitFor(() => document.documentElement.dataset.theme === "dark", null, { what: "dark theme" });
          }
          await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => setTimeout(r, 100))));
          await page.screenshot(join(OUT, `${engine}-conversation-${scheme}-${w}.png`));
          if (w === 1366) {
            await page.evaluate(() => new Promise((res, rej) => {
              if (window.axe) return res();
              const s = document.createElement("script");
              s.src = "/__axe.js";
              s.onload = res;
              s.onerror = () => rej(new Error("axe did not load"));
              document.head.append(s);
            }));
            const bad = await page.evaluate(() => window.axe.run(document, { runOnly: ["wcag2a", "wcag2aa"] })
              .then((r) => r.violations.filter((v) => ["serious", "critical"].includes(v.impact)).map((v) => `${v.id}: ${v.nodes.length}`)));
            assert.deepEqual(bad, [], `${engine}, ${scheme}: axe-core serious/critical`);
          }
        }
      }, { width: w, height: h });
    }
  });
}

test("per engine: the checks that ran and those skipped, by name", () => {
  for (const [e, r] of Object.entries(ran)) {
    console.log(`# engines: ${e}: ${r.ran} tests ran${r.skipped.length ? `; skipped: ${r.skipped.join("; ")}` : ""}`);
  }
  for (const e of ENGINES) assert.ok(ran[e].ran > 0, `${e}: tests ran`);
});
