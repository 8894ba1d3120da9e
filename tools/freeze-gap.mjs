// The longest frame gap while a big prompt is opened and scrolled to, for
// a build (DIST=dir; default dist/): the "before" figure of the freeze test
// (tests/e2e/freeze.test.mjs writes the files this reads, in target/e2e/).
// Each case gives up after CAP_MS and reports "over". Not a test.
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { launch, openApp } from "../tests/e2e/helpers.mjs";
import { TMP } from "../tests/e2e/view-helpers.mjs";

const CAP_MS = Number(process.env.CAP_MS ?? 60000);
const browser = await launch();
for (const name of readdirSync(TMP).filter((n) => n.startsWith("freeze-")).sort()) {
  const { page, server, context } = await openApp(browser);
  await page.evaluate(() => {
    window.__gaps = { max: 0, last: performance.now() };
    const tick = (t) => { const g = t - window.__gaps.last; if (g > window.__gaps.max) window.__gaps.max = g; window.__gaps.last = t; requestAnimationFrame(tick); };
    requestAnimationFrame(tick);
  });
  const t0 = Date.now();
  await page.setInputFiles("#file-input", join(TMP, name));
  const work = (async () => {
    await page.waitForSelector("[data-testid=turn-list] article.item", { timeout: CAP_MS });
    await page.evaluate(async () => {
      const l = document.querySelector("[data-testid=turn-list]");
      for (let i = 0; i < 100 && !document.querySelector('article.item[data-line="3"][data-settled]'); i++) {
        l.scrollTop += 200;
        await new Promise((r) => requestAnimationFrame(() => setTimeout(r, 20)));
      }
    });
    return page.evaluate(() => new Promise((r) => requestAnimationFrame(() => r(window.__gaps.max))));
  })();
  const gap = await Promise.race([work, new Promise((r) => setTimeout(() => r(null), CAP_MS))]);
  console.log(`${name}: longest frame gap ${gap === null ? `over ${CAP_MS} ms (gave up after ${Date.now() - t0} ms)` : `${gap.toFixed(0)} ms`}`);
  await context.close().catch(() => {});
  await server.close();
}
await browser.close();
