// Developer aid: open FILE in the built viewer and save a screenshot.
//   node tools/screenshot.mjs FILE OUT.png [light|dark] [#L123]
// TALL=<px> sets the viewport height. Prints any page problems.
import { launch, openApp, pick } from "../tests/e2e/helpers.mjs";

const [file, out, scheme = "light", hash = ""] = process.argv.slice(2);
if (!file || !out) {
  console.error("usage: node tools/screenshot.mjs FILE OUT.png [light|dark] [#L123]");
  process.exit(2);
}
const browser = await launch();
const app = await openApp(browser, "/", { colorScheme: scheme });
if (hash) await app.page.evaluate((h) => { location.hash = h; }, hash);
await app.page.setViewportSize({ width: 1280, height: Number(process.env.TALL ?? 900) });
await pick(app.page, file);
await app.page.waitForFunction(() => document.querySelector("[data-testid=turn-list] article.item") && !document.querySelector(".pending"));
await app.page.screenshot({ path: out });
const rows = await app.page.locator(".vrow").count();
console.log(`rows in DOM: ${rows}; problems: ${JSON.stringify(app.problems)}`);
await app.context.close();
await app.server.close();
await browser.close();
