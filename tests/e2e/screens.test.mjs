// End-to-end: how the views look and fit, in this run's engine (make e2e
// runs every engine). At a laptop's 1366×768 and a phone's 390×844, light
// and dark (the engine's own `prefers-color-scheme`): the transcript gets
// most of the screen, axe-core finds nothing serious or critical, and the
// conversation view and the session browser are screenshotted to
// test-results/screens/<engine>-<view>-<scheme>-<width>.png, to be looked at.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { ENGINE, launch, withApp, fixtures, openFolder, axe, ROOT } from "./helpers.mjs";
import { MAIN, open } from "./view-helpers.mjs";

const OUT = join(ROOT, "test-results/screens");
mkdirSync(OUT, { recursive: true });

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

const settle = (page) => page.evaluate(() => new Promise((r) => requestAnimationFrame(() => setTimeout(r, 100))));

for (const [width, height] of [[1366, 768], [390, 844]]) {
  for (const colorScheme of ["light", "dark"]) {
    test(`at ${width}×${height}, ${colorScheme}: the transcript gets the screen; nothing serious for axe; screenshots`, async () => {
      const root = fixtures();
      await withApp(browser, async ({ page }) => {
        await page.setViewportSize({ width, height });
        assert.equal(await page.evaluate(() => matchMedia("(prefers-color-scheme: dark)").matches), colorScheme === "dark", "the engine's colour scheme");
        await open(page, join(root, MAIN));
        await page.waitForSelector("[data-testid=viewer] .all-facts", { state: "attached" });
        await settle(page);
        const share = await page.evaluate(() => document.querySelector("[data-testid=turn-list]").getBoundingClientRect().height / window.innerHeight);
        const want = width > 800 ? 0.7 : 0.55;
        assert.ok(share >= want, `the list is ${(share * 100).toFixed(0)}% of the screen's height (at least ${want * 100}%)`);
        await page.screenshot({ path: join(OUT, `${ENGINE}-conversation-${colorScheme}-${width}.png`) });
        if (width > 800) assert.deepEqual(await axe(page), [], "conversation view: serious or critical violations");
        await openFolder(page, join(root, "synthetic/projects"));
        await settle(page);
        await page.screenshot({ path: join(OUT, `${ENGINE}-sessions-${colorScheme}-${width}.png`) });
        // Nothing sticks out sideways: the page never scrolls horizontally.
        assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth + 1), "no horizontal scroll of the page");
      }, { colorScheme });
    });
  }
}

test("at 1280 px the session list shows every column, with no sideways scroll", async () => {
  await withApp(browser, async ({ page }) => {
    await page.setViewportSize({ width: 1280, height: 800 });
    await openFolder(page, join(fixtures(), "real/daaain__claude-code-log/test/test_data/real_projects"));
    const fit = await page.evaluate(() => { const w = document.querySelector(".sessions-wrap"); return { scroll: w.scrollWidth, client: w.clientWidth }; });
    assert.ok(fit.scroll <= fit.client + 1, `the list is ${fit.scroll} px wide in a ${fit.client} px box`);
    const last = await page.evaluate(() => { const r = document.querySelector("table.sessions thead th:last-child").getBoundingClientRect(); return r.right <= window.innerWidth; });
    assert.ok(last, "the last column is on screen");
    await page.screenshot({ path: join(OUT, `${ENGINE}-sessions-1280.png`) });
  });
});
