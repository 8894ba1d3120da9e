// Developer aid: screenshots of the views a picked ~/.claude shows — the
// task list beside the reading position, files changed, file history, plans,
// kinds not understood, and the dashboard — in light and dark (set through the
// page's own theme toggle, so WebKit, which does not emulate the colour
// scheme, is dark too), at 1366×768 and a phone's 390×844.
//   ENGINE=chromium|firefox|webkit node tools/views.mjs [OUTDIR]
// The conversation is tests/fixtures/planted.mjs's home (fake secrets).
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { launch, openApp, pickFolder } from "../tests/e2e/helpers.mjs";
import { writePlantedHome } from "../tests/fixtures/planted.mjs";

const out = process.argv[2] ?? "test-results/views";
const engine = process.env.ENGINE ?? "chromium";
mkdirSync(out, { recursive: true });
const home = writePlantedHome(join("target/e2e", `views-${engine}`));
const browser = await launch();
const settle = (page) => page.evaluate(() => new Promise((r) => requestAnimationFrame(() => setTimeout(r, 150))));
for (const scheme of ["light", "dark"]) {
  for (const [w, h, size] of [[1366, 768, "laptop"], [390, 844, "phone"]]) {
    const app = await openApp(browser, "/");
    const { page } = app;
    await page.setViewportSize({ width: w, height: h });
    // System → Dark → Light: one click for dark, two for light.
    for (let i = 0; i < (scheme === "dark" ? 1 : 2); i++) await page.click("[data-testid=theme-toggle]");
    const shot = async (name) => { await settle(page); await page.screenshot({ path: join(out, `${engine}-${scheme}-${size}-${name}.png`) }); };
    await pickFolder(page, home);
    await page.waitForSelector("[data-testid=sessions] tbody tr");
    await page.waitForFunction(() => !document.querySelector("[data-testid=survey]"), null, { timeout: 60000 });
    await page.click("[data-testid=dashboard-toggle]");
    await page.waitForSelector("[data-testid=folder-unknown-kind]");
    await page.evaluate(() => document.querySelector("[data-testid=files-changed-most]").scrollIntoView());
    await shot("dashboard");
    await page.click("[data-testid=dashboard-toggle]");
    await page.click("[data-testid=sessions] tbody tr a");
    await page.waitForSelector("[data-testid=turn-list] article.item");
    await page.evaluate(() => { location.hash = location.hash.replace(/:?L\d+$/, "") + ":L4"; });
    await page.waitForFunction(() => document.querySelector("[data-testid=task-strip]")?.dataset.line !== undefined);
    await page.click("[data-testid=task-strip-toggle]");
    await page.waitForSelector("[data-testid=task-strip] [data-testid=task]");
    await shot("task-list");
    await page.click("[data-testid=insights-toggle]");
    await page.waitForSelector("[data-testid=task-history] [data-testid=task-change]");
    for (const [card, open, name] of [
      ["changed-file", "[data-testid=changed-file] .file-head", "files-changed"],
      ["file-history", "[data-testid=tracked-file] .file-head", "file-history"],
      ["plan-files", "[data-testid=plan-file] .file-head", "plans"],
      ["not-understood", null, "not-understood"],
    ]) {
      if (open) {
        await page.evaluate((sel) => document.querySelector(sel).scrollIntoView({ block: "center" }), open);
        await page.click(open);
      }
      await page.evaluate((c) => document.querySelector(`[data-testid=${c}]`).scrollIntoView(), card);
      await shot(name);
    }
    // Past the right edge of the page itself (not inside a box that scrolls sideways, as wide tables do).
    const over = await page.evaluate(() => {
      const scrolls = (e) => { for (let a = e.parentElement; a; a = a.parentElement) { if (/(auto|scroll|hidden)/.test(getComputedStyle(a).overflowX)) return true; } return false; };
      return [...document.querySelectorAll("body *")].filter((e) => e.getBoundingClientRect().right > innerWidth + 1 && e.checkVisibility?.() !== false && !scrolls(e)).map((e) => e.tagName + "." + e.className).slice(0, 5);
    });
    console.log(`${engine} ${scheme} ${size}: past the right edge: ${JSON.stringify(over)}; problems ${JSON.stringify(app.problems)}`);
    await app.context.close();
    await app.server.close();
  }
}
await browser.close();
