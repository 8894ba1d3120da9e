// End-to-end: the insights panel (context chart, timeline, statistics)
// against `ccscope report` on the same files, and its links into the list.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { launch, withApp, fixtures, CLI } from "./helpers.mjs";
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

/** Clicks the chart's column `k` (of `n`) in the middle of its plot. */
async function clickColumn(page, k) {
  const [x0, x1, w] = (await page.getAttribute("[data-testid=context-chart]", "data-plot")).split(" ").map(Number);
  const n = Number(await page.getAttribute("[data-testid=context-chart]", "data-columns"));
  const box = await page.locator(".chart-svg").boundingBox();
  const x = box.x + ((x0 + (k + 0.5) * (x1 - x0) / n) / w) * box.width;
  await page.mouse.click(x, box.y + box.height * 0.4);
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
