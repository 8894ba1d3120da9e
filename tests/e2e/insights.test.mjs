// End-to-end: the insights panel (context chart, timeline, statistics)
// against `ccscope report` on the same files, and its links into the list.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { launch, withApp, fixtures, CLI, ROOT } from "./helpers.mjs";
import { OUT, MAIN, BIG_REAL, TURN_CASES, open, waitCurrent } from "./view-helpers.mjs";

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

function report(file) {
  return JSON.parse(execFileSync(CLI, ["report", file], { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"], maxBuffer: 1 << 28 }));
}

async function openInsights(page) {
  await page.click("[data-testid=insights-toggle]");
  await page.waitForSelector("[data-testid=context-chart]");
}

/** The files-changed card's files, once read: [path, changes, added, removed, failed]. */
async function changedFiles(page) {
  await page.waitForSelector("[data-testid=files-summary], [data-testid=files-none]");
  const rows = await page.$$eval("[data-testid=changed-file]", (rows) => rows.map((r) => ({ ...r.dataset })));
  return rows.map((f) => [f.path, Number(f.changes), Number(f.added), f.removed === undefined ? null : Number(f.removed), Number(f.failed)]);
}

/** Clicks the chart's column `k` (of `n`) in the middle of its plot, once
 *  the chart has held still for a frame (a person aims at what they see).
 *  Measured in three round trips before, a loaded WebKit once (in 12 runs)
 *  showed the list with no item chosen after the click: the click had not
 *  reached the chart, as if the panel had moved between measuring and it. */
async function clickColumn(page, k) {
  const measure = () => page.evaluate(() => new Promise((done) => requestAnimationFrame(() => {
    const chart = document.querySelector("[data-testid=context-chart]");
    const r = document.querySelector(".chart-svg").getBoundingClientRect();
    done(JSON.stringify([chart.dataset.plot, chart.dataset.columns, r.x, r.y, r.width, r.height]));
  })));
  let seen = await measure();
  for (let i = 0; i < 100; i++) {
    const now = await measure();
    if (now === seen) break;
    seen = now;
  }
  const [plot, columns, bx, by, bw, bh] = JSON.parse(seen);
  const [x0, x1, w] = plot.split(" ").map(Number);
  const n = Number(columns);
  const x = bx + ((x0 + (k + 0.5) * (x1 - x0) / n) / w) * bw;
  await page.mouse.click(x, by + bh * 0.4);
}

test("the chart and the statistics show what `ccscope report` computes", async () => {
  const root = fixtures();
  const files = [...new Set([...TURN_CASES, BIG_REAL])];
  await withApp(browser, async ({ page }) => {
    for (const rel of files) {
      const file = join(root, rel);
      const want = report(file);
      await open(page, file);
      await openInsights(page);
      const chart = await page.$eval("[data-testid=context-chart]", (e) => ({ ...e.dataset }));
      assert.equal(Number(chart.turns), want.api_turns, `${rel}: one point per API turn`);
      assert.equal(Number(chart.columns), want.api_turns, `${rel}: under the column limit, one column each`);
      assert.equal(Number(chart.compactions), want.compactions.length, `${rel}: compactions`);
      assert.equal(await page.locator("[data-testid=mark-compaction]").count(), want.compactions.length, `${rel}: one marker per compaction`);
      const tools = await page.$$eval("[data-testid=tool-row]", (rows) => rows.map((r) => ({ ...r.dataset })));
      assert.deepEqual(tools.map((t) => [t.tool, Number(t.calls), Number(t.failures), t.p50 ? Number(t.p50) : null, t.p95 ? Number(t.p95) : null]),
        want.tools.map((t) => [t.name, t.calls, t.failures, t.p50_ms, t.p95_ms]), `${rel}: per tool`);
      const models = await page.$$eval("[data-testid=model-row]", (rows) => rows.map((r) => ({ ...r.dataset })));
      assert.deepEqual(models.map((m) => [m.model, Number(m.turns), m.output === undefined ? null : Number(m.output)]),
        want.models.map((m) => [m.model ?? "", m.api_turns, m.output_tokens]), `${rel}: per model`);
      for (const [k, m] of models.entries()) {
        const cost = want.models[k].cost_usd;
        if (cost === null) assert.equal(m.cost, undefined, `${rel}: ${m.model} has no price`);
        else assert.ok(Math.abs(Number(m.cost) - cost) < 1e-9, `${rel}: ${m.model} cost ${m.cost} vs ${cost}`);
      }
      const stretches = await page.locator("[data-testid=stretch]").count();
      assert.equal(stretches, want.stretches.length, `${rel}: one bar per active stretch`);
      assert.deepEqual(await changedFiles(page), want.files.map((f) => [f.path, f.changes, f.added, f.removed, f.failed]), `${rel}: files changed`);
      await page.click("[data-testid=insights-toggle]");
    }
  });
});

test("a point of the chart opens its turn; a statistics link shows exactly the calls it counts", async () => {
  const root = fixtures();
  const file = join(root, MAIN);
  const want = report(file);
  await withApp(browser, async ({ page }) => {
    await open(page, file);
    await openInsights(page);
    // The seventh API turn: the list opens on it.
    await clickColumn(page, 6);
    await page.waitForSelector("[data-testid=turn-list]");
    const cur = await waitCurrent(page, (c) => c.item >= 0, "the clicked turn");
    assert.equal(await page.getAttribute(`article.item[data-item="${cur.item}"]`, "data-turn"), "6", "the clicked turn is the current item");

    // "Bash, failed": only the failed Bash calls are in the list.
    await openInsights(page);
    const bash = want.tools.find((t) => t.name === "Bash");
    await page.click("[data-testid=tool-row][data-tool=Bash] [data-testid=tool-failures]");
    await page.waitForSelector("[data-testid=turn-list] article.item");
    const failing = await page.$$eval("[data-testid=turn-list] [data-testid=tool-call][data-tool=Bash]", (cs) => cs.map((c) => c.dataset.state));
    assert.equal(failing.length, bash.failures, "as many Bash calls as failed");
    assert.ok(failing.every((s) => s === "error" || s === "denied"), `only failed ones: ${failing}`);
    assert.equal(await page.$eval("[data-testid=filter-failures]", (e) => e.checked), true, "the filter says what is shown");

    // "Bash, calls": every Bash call.
    await openInsights(page);
    await page.click("[data-testid=tool-row][data-tool=Bash] [data-testid=tool-calls]");
    await page.waitForSelector("[data-testid=turn-list] article.item");
    assert.equal(await page.locator("[data-testid=turn-list] [data-testid=tool-call][data-tool=Bash]").count(), bash.calls);

    // The compaction's link opens the boundary.
    await openInsights(page);
    await page.click("[data-testid=compaction-link]");
    const c = await waitCurrent(page, (c) => c.line === want.compactions[0].line, "the compaction boundary");
    assert.match(c.text, /compacted/);
  });
});

test("screenshots of the insights, light and dark", async () => {
  const root = fixtures();
  for (const scheme of ["light", "dark"]) {
    await withApp(browser, async ({ page }) => {
      await page.setViewportSize({ width: 1280, height: 1300 });
      await open(page, join(root, BIG_REAL));
      await openInsights(page);
      const box = await page.locator(".chart-svg").boundingBox();
      await page.mouse.move(box.x + box.width * 0.6, box.y + 50);
      assert.match(await page.textContent("[data-testid=chart-readout]"), /^Turn \d+ of \d+ · line \d+/);
      await page.screenshot({ path: join(OUT, `insights-${scheme}.png`) });
    }, { colorScheme: scheme });
  }
});

test("files changed: each file's changes as diffs, the net change of a created file, each step a way to its call", async () => {
  const file = join(ROOT, "tests/fixtures/changes.jsonl");
  await withApp(browser, async ({ page }) => {
    await open(page, file);
    await openInsights(page);
    assert.deepEqual(await changedFiles(page), [["src/greet.py", 4, 8, 3, 1], ["README.md", 1, 3, null, 0], ["/etc/hosts", 1, 0, 0, 1]]);
    assert.equal((await page.textContent("[data-testid=files-summary]")).trim(), "3 files · 6 changes · +11 −? · 2 failed");
    // The README's old text is not in the transcript: its lines removed read "−?", never "−0".
    assert.equal((await page.textContent("[data-testid=changed-file][data-path='README.md'] .del-count")).trim(), "−?");
    // greet.py was created here and every later step applies: it opens to one diff, its final text.
    const greet = "[data-testid=changed-file][data-path='src/greet.py']";
    await page.click(`${greet} .file-head`);
    await page.waitForSelector(`${greet} [data-testid=net-change]`);
    const net = await page.$$eval(`${greet} [data-testid=net-change] pre.diff span`, (s) => s.map((e) => [e.className, e.textContent.replace(/\n$/, "")]));
    assert.deepEqual(net, [["add", "+ def greet(name: str) -> str:"], ["add", "+     return f'hello {name}'"], ["add", "+ "], ["add", "+ if __name__ == '__main__':"], ["add", "+     print(greet('you'))"]]);
    // The steps, one click away: four, in order, the failed one marked, the patch's hunk header kept.
    await page.click(`${greet} [data-testid=show-steps]`);
    await page.waitForSelector(`${greet} [data-testid=change]`);
    const steps = await page.$$eval(`${greet} [data-testid=change]`, (s) => s.map((e) => [Number(e.dataset.line), e.classList.contains("failed")]));
    assert.deepEqual(steps, [[2, false], [4, false], [6, true], [8, false]]);
    assert.equal((await page.textContent(`${greet} [data-testid=change][data-line='4'] pre.diff .hunk`)).trim(), "@@ -1,4 +1,4 @@");
    await page.evaluate(() => document.querySelector("[data-testid=files-changed]").scrollIntoView());
    await page.screenshot({ path: join(OUT, "files-changed-light.png") });
    // A step's link opens the list on its call.
    await page.click(`${greet} [data-testid=change][data-line='4'] [data-testid=change-line]`);
    await page.waitForSelector("[data-testid=turn-list]");
    await waitCurrent(page, (c) => c.line === 4, "the Edit on line 4");
  });
});

test("screenshot of the files changed, dark, at a phone's width", async () => {
  await withApp(browser, async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await open(page, join(ROOT, "tests/fixtures/changes.jsonl"));
    await openInsights(page);
    await page.click("[data-testid=changed-file][data-path='src/greet.py'] .file-head");
    await page.waitForSelector("[data-testid=net-change]");
    await page.evaluate(() => document.querySelector("[data-testid=files-changed]").scrollIntoView());
    // Nothing of the card is wider than the phone.
    const over = await page.evaluate(() => [...document.querySelectorAll("[data-testid=files-changed] *")].filter((e) => e.getBoundingClientRect().right > innerWidth + 1 && !e.closest("pre")).length);
    assert.equal(over, 0, "no part of the card (but a diff's own scroller) runs past the screen");
    await page.screenshot({ path: join(OUT, "files-changed-dark-phone.png") });
  }, { colorScheme: "dark" });
});

test("what is not understood is named: the header counts the kinds, the insights list each with its first line and copy one example, redacted", async () => {
  const file = join(ROOT, "tests/fixtures/unknown-kinds.jsonl");
  const want = report(file).unknown;
  assert.equal(want.length, 6);
  await withApp(browser, async ({ page }) => {
    await open(page, file);
    assert.equal(await page.getAttribute("[data-testid=unknown-brief]", "data-kinds"), "6");
    assert.match(await page.textContent("[data-testid=unknown-brief]"), /^6 kinds of record not understood/);
    // A block not understood shows where it sits, named: second of three in an answer, and inside a tool's result.
    await page.evaluate(() => { location.hash = "#L10"; });
    await page.waitForFunction(() => document.querySelectorAll("[data-testid=odd-block]").length >= 2);
    const odd = await page.$$eval("[data-testid=odd-block]", (l) => l.map((e) => e.textContent));
    assert.ok(odd.includes("[web_search_tool_result block]") && odd.includes("[document block]"), odd.join(" | "));
    await openInsights(page);
    await page.waitForSelector("[data-testid=unknown-kind]");
    const rows = await page.$$eval("[data-testid=unknown-kind]", (r) => r.map((e) => [e.dataset.name ?? null, Number(e.dataset.count), Number(e.dataset.line)]));
    assert.deepEqual(rows, want.map((u) => [u.name, u.count, u.first_line]), "the page lists what ccscope report lists");
    // Copy an example: the clipboard is stood in for, to read what would be copied.
    await page.evaluate(() => {
      Object.defineProperty(navigator, "clipboard", { configurable: true, value: { writeText: async (t) => { window.__copied = t; } } });
    });
    await page.click("[data-testid=unknown-kind][data-name='frame-link'] [data-testid=copy-example]");
    await page.waitForSelector("[data-testid=copy-said]");
    assert.match(await page.textContent("[data-testid=copy-said]"), /copied/);
    const copied = JSON.parse(await page.evaluate(() => window.__copied));
    assert.deepEqual([copied.type, copied.uuid, copied.version], ["frame-link", "f1", "2.1.201"]);
    // Its line, one click away.
    await page.click("[data-testid=unknown-kind][data-name='frame-link'] button.link");
    await waitCurrent(page, (c) => c.line === 6, "the first frame-link record");
  });
  // A file whose every kind is understood says nothing.
  await withApp(browser, async ({ page }) => {
    await open(page, join(ROOT, "tests/fixtures/changes.jsonl"));
    assert.equal(await page.locator("[data-testid=unknown-brief]").count(), 0);
  });
});

test("costs: 1-hour cache writes and web searches at their own rates, fast-mode turns said, an unpriced model 'no price'", async () => {
  const file = join(ROOT, "tests/fixtures/costs.jsonl");
  const want = report(file);
  await withApp(browser, async ({ page }) => {
    await open(page, file);
    await openInsights(page);
    const models = await page.$$eval("[data-testid=model-row]", (rows) => rows.map((r) => [r.dataset.model, r.dataset.cost ?? null, r.querySelector("[data-testid=model-cost]").textContent]));
    const opus = want.models.find((m) => m.model === "claude-opus-5");
    assert.deepEqual(models.map((m) => m[0]), ["claude-opus-5", "claude-nova-9"]);
    assert.ok(Math.abs(Number(models[0][1]) - opus.cost_usd) < 1e-9, `${models[0][1]} vs ${opus.cost_usd}`);
    assert.deepEqual([models[1][1], models[1][2]], [null, "no price"], "an unpriced model is never $0");
    assert.match(await page.textContent("[data-testid=fast-turns]"), /^1 API turn ran in fast mode/);
    assert.match(await page.textContent("[data-testid=cost-note]"), /3 web searches included/);
  });
});
