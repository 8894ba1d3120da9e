// How much of the screen the transcript gets: the conversation list's
// height over the viewport's, at a laptop's and a phone's size, for a build
// (DIST=dir). The reading-layout test asserts the same. Not a test.
import { launch, openApp } from "../tests/e2e/helpers.mjs";
const file = process.argv[2];
const browser = await launch();
for (const [w, h] of [[1366, 768], [390, 844], [1200, 900]]) {
  const { page, server, context } = await openApp(browser);
  await page.setViewportSize({ width: w, height: h });
  await page.setInputFiles("#file-input", file);
  await page.waitForSelector("[data-testid=turn-list] article.item");
  const r = await page.evaluate(() => document.querySelector("[data-testid=turn-list]").getBoundingClientRect().height / innerHeight);
  console.log(`${w}x${h}: the list is ${(r * 100).toFixed(0)}% of the viewport's height`);
  await page.screenshot({ path: `test-results/layout-${w}x${h}.png` });
  await context.close(); await server.close();
}
await browser.close();
