// End-to-end: accessibility. axe-core (injected into the page: the same in every engine) on the
// landing page, the conversation view, the insights, the session browser
// and its dashboard, light and dark: no serious or critical violation. And
// the keyboard: every control is reachable with a visible focus.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { launch, withApp, fixtures, pickFolder, axe } from "./helpers.mjs";
import { MAIN, open } from "./view-helpers.mjs";

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

async function audit(page, where) {
  assert.deepEqual(await axe(page), [], `${where}: serious or critical violations`);
}

for (const colorScheme of ["light", "dark"]) {
  test(`axe finds no serious or critical violation on every view (${colorScheme})`, async () => {
    const root = fixtures();
    await withApp(browser, async ({ page }) => {
      await audit(page, "landing page");
      await open(page, join(root, MAIN));
      await audit(page, "conversation view");
      await page.click("[data-testid=insights-toggle]");
      await page.waitForSelector("[data-testid=context-chart]");
      await audit(page, "insights");
      await pickFolder(page, join(root, "synthetic/projects"));
      await page.waitForSelector("[data-testid=sessions]");
      await page.waitForFunction(() => !document.querySelector("[data-testid=survey]"), null, { timeout: 60000 });
      await audit(page, "session browser");
      await page.click("[data-testid=dashboard-toggle]");
      await page.waitForSelector("[data-testid=dashboard]");
      await audit(page, "dashboard");
    }, { colorScheme });
  });
}

test("the keyboard reaches the controls, with a visible focus; the chart and the insights work by keys", async () => {
  const root = fixtures();
  await withApp(browser, async ({ page }) => {
    await open(page, join(root, MAIN));
    // Tab from the top: the first controls get focus, and the focus shows.
    const seen = [];
    for (let i = 0; i < 40; i++) {
      await page.keyboard.press("Tab");
      seen.push(await page.evaluate(() => {
        const el = document.activeElement;
        const s = getComputedStyle(el);
        return { tag: el.tagName, id: el.dataset.testid ?? el.textContent.trim().slice(0, 20), visible: s.outlineStyle !== "none" || s.boxShadow !== "none" };
      }));
    }
    assert.ok(seen.some((s) => s.id === "insights-toggle"), `the insights toggle is reachable: ${JSON.stringify(seen.map((s) => s.id))}`);
    assert.ok(seen.every((s) => s.visible), `every focused control shows its focus: ${JSON.stringify(seen.filter((s) => !s.visible))}`);
    // `i` opens the insights; the chart takes arrows and Enter.
    await page.keyboard.press("Escape");
    await page.evaluate(() => document.activeElement?.blur());
    await page.keyboard.press("i");
    await page.waitForSelector("[data-testid=context-chart]");
    await page.focus(".chart-box");
    await page.keyboard.press("ArrowRight");
    await page.keyboard.press("ArrowRight");
    assert.match(await page.textContent("[data-testid=chart-readout]"), /^Turn 2 of/);
    await page.keyboard.press("Enter");
    await page.waitForSelector("[data-testid=turn-list] article.item.current");
    assert.equal(await page.getAttribute("article.item.current", "data-turn"), "1");
  });
});
