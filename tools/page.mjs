// Shared by the debug aids in tools/: the built viewer in headless Chromium,
// ready for a pick as a person finds it (loaded, its reading worker running),
// and a pick that waits for the full view.
import { launch, openApp } from "../tests/e2e/helpers.mjs";

export async function openReady() {
  const browser = await launch();
  const app = await openApp(browser, "/");
  const { page } = app;
  await page.waitForLoadState("networkidle");
  while (page.workers().length === 0) await page.evaluate(() => new Promise((r) => requestAnimationFrame(r)));
  const close = async () => { await browser.close(); await app.server.close(); };
  return { browser, app, page, close };
}

/** Picks `file` and resolves with the ms until the full view is drawn. */
export async function pick(page, file) {
  const t0 = Date.now();
  await page.setInputFiles("#file-input", file);
  await page.waitForFunction(() => document.querySelector("[data-testid=viewer] .all-facts"), null, { timeout: 600000, polling: 20 });
  return Date.now() - t0;
}

/**
 * Picks `file` with a Chromium trace of `categories` running; resolves with
 * the trace's events and the ms until the full view.
 */
export async function pickTraced(page, file, categories) {
  const cdp = await page.context().newCDPSession(page);
  const events = [];
  cdp.on("Tracing.dataCollected", (d) => events.push(...d.value));
  const done = new Promise((r) => cdp.once("Tracing.tracingComplete", r));
  await cdp.send("Tracing.start", { categories, transferMode: "ReportEvents" });
  const ms = await pick(page, file);
  // The frames after the full view, so the trace holds their paint.
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  await cdp.send("Tracing.end");
  await done;
  return { events, ms };
}
