// One thin driver layer over three browser engines, for the tests that run
// in every engine a team uses (tests/e2e/engines.test.mjs):
//   chromium  Debian's Chromium through playwright-core;
//   firefox   Debian's firefox-esr through puppeteer-core over WebDriver BiDi;
//   webkit    WebKitGTK's MiniBrowser through WebKitWebDriver and
//             selenium-webdriver, under xvfb-run (the Makefile starts it;
//             `--headless` hangs).
// A test speaks only to `Page` below: open a URL, evaluate, wait, click,
// keys, type, pick files, screenshot, the requests it made and the console
// errors it logged. What an engine cannot do is said by name (`lacks`).
import { chromium } from "playwright-core";
import puppeteer from "puppeteer-core";
import { Builder, By, Key } from "selenium-webdriver";
import { existsSync, writeFileSync } from "node:fs";

export const ENGINES = (process.env.ENGINES ?? "chromium,firefox,webkit").split(",").filter(Boolean);

const WEBKIT = "/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser";

/** Why a test cannot run in `engine` (a missing engine feature), or null. */
export function lacks(engine, feature) {
  const missing = {
    firefox: { fileSystemHandle: "no FileSystemHandle (File System Access)", longTasks: "no long-task API", directoryInput: "its driver cannot pick a directory for <input webkitdirectory>" },
    webkit: { fileSystemHandle: "no FileSystemHandle (File System Access)", longTasks: "no long-task API", directoryInput: "its driver cannot pick a directory for <input webkitdirectory>", downloads: "its driver cannot read a download" },
    chromium: {},
  };
  return missing[engine]?.[feature] ?? null;
}

/** Runs `fn` in the page (a function's source and a JSON argument: every engine takes that). */
function script(fn, arg) {
  return `return (${fn.toString()})(${JSON.stringify(arg ?? null)})`;
}

class Page {
  constructor(engine) {
    this.engine = engine;
  }
  /** Polls `fn(arg)` in the page until it returns something truthy. */
  async waitFor(fn, arg, { timeout = 30000, what = "a condition" } = {}) {
    const until = Date.now() + timeout;
    for (;;) {
      const v = await this.evaluate(fn, arg).catch(() => null);
      if (v) return v;
      if (Date.now() > until) throw new Error(`${this.engine}: timed out waiting for ${what}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }
  waitForSelector(sel, opts = {}) {
    return this.waitFor((s) => !!document.querySelector(s), sel, { what: sel, ...opts });
  }
  text(sel) {
    return this.evaluate((s) => document.querySelector(s)?.innerText ?? null, sel);
  }
  /** A click as a script does it (the same in every engine). */
  click(sel) {
    return this.evaluate((s) => { const e = document.querySelector(s); if (!e) throw new Error(`no ${s}`); e.click(); return true; }, sel);
  }
}

/** A page whose driver reports requests, console errors and page errors as
 * events (Playwright and Puppeteer alike). */
class EventPage extends Page {
  constructor(engine, page) {
    super(engine);
    Object.assign(this, { page, reqs: [], errors: [] });
    page.on("request", (r) => this.reqs.push(r.url()));
    page.on("console", (m) => { if (m.type() === "error") this.errors.push(m.text()); });
    page.on("pageerror", (e) => this.errors.push(String(e)));
  }
  goto(url) { return this.page.goto(url); }
  evaluate(fn, arg) { return this.page.evaluate(fn, arg); }
  key(k) { return this.page.keyboard.press(k); }
  screenshot(path) { return this.page.screenshot({ path }); }
}

class PlaywrightPage extends EventPage {
  constructor(context, page) {
    super("chromium", page);
    this.context = context;
  }
  async type(sel, text) { await this.page.fill(sel, text); }
  pickFiles(sel, paths) { return this.page.setInputFiles(sel, paths); }
  close() { return this.context.close(); }
}

class PuppeteerPage extends EventPage {
  constructor(page) {
    super("firefox", page);
  }
  async type(sel, text) {
    await this.page.$eval(sel, (e) => { e.value = ""; });
    await this.page.type(sel, text);
  }
  async pickFiles(sel, paths) {
    const input = await this.page.$(sel);
    await input.uploadFile(...paths);
  }
  close() { return this.page.close(); }
}

class SeleniumPage extends Page {
  constructor(driver) {
    super("webkit");
    Object.assign(this, { driver, errors: [] });
  }
  async goto(url) {
    await this.driver.get(url);
    await this.install();
  }
  /** Console errors and requests are recorded by the page itself (WebKitWebDriver has no log API). */
  async install() {
    await this.driver.executeScript(`
      if (!window.__e2e) {
        window.__e2e = { errors: [], requests: [] };
        const err = console.error; console.error = (...a) => { window.__e2e.errors.push(a.join(" ")); err(...a); };
        addEventListener("error", (e) => window.__e2e.errors.push(String(e.message)));
        new PerformanceObserver((l) => { for (const e of l.getEntries()) window.__e2e.requests.push(e.name); }).observe({ type: "resource", buffered: true });
      }`);
  }
  get reqs() { return this._reqs ?? []; }
  async sync() {
    const s = await this.driver.executeScript("return window.__e2e ?? { errors: [], requests: [] }");
    this.errors = s.errors;
    this._reqs = s.requests;
  }
  evaluate(fn, arg) { return this.driver.executeScript(script(fn, arg)); }
  async key(k) {
    const keys = { Enter: Key.ENTER, Escape: Key.ESCAPE };
    await this.driver.actions().sendKeys(keys[k] ?? k).perform();
  }
  async type(sel, text) {
    const e = await this.driver.findElement(By.css(sel));
    await e.clear();
    await e.sendKeys(text);
  }
  async pickFiles(sel, paths) {
    const e = await this.driver.findElement(By.css(sel));
    await e.sendKeys(paths.join("\n"));
  }
  async screenshot(path) { writeFileSync(path, await this.driver.takeScreenshot(), "base64"); }
  close() { return this.driver.quit(); }
}

/** Starts `engine`; `newPage()` opens a fresh page (WebKit: a fresh browser). */
export async function start(engine) {
  if (engine === "chromium") {
    const browser = await chromium.launch({
      executablePath: "/usr/bin/chromium",
      args: ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic"],
    });
    return {
      name: engine,
      async newPage({ colorScheme = "light", width = 1200, height = 900 } = {}) {
        const context = await browser.newContext({ colorScheme, viewport: { width, height } });
        return new PlaywrightPage(context, await context.newPage());
      },
      close: () => browser.close(),
    };
  }
  if (engine === "firefox") {
    if (!existsSync("/usr/bin/firefox-esr")) throw new Error("firefox-esr is not installed (make test installs it)");
    const browser = await puppeteer.launch({ browser: "firefox", executablePath: "/usr/bin/firefox-esr", headless: true,
      extraPrefsFirefox: { "network.captive-portal-service.enabled": false, "app.update.enabled": false, "browser.safebrowsing.malware.enabled": false, "browser.safebrowsing.phishing.enabled": false } });
    return {
      name: engine,
      async newPage({ width = 1200, height = 900 } = {}) {
        const page = await browser.newPage();
        // (`prefers-color-scheme` cannot be emulated over BiDi: dark mode is the page's own toggle.)
        await page.setViewport({ width, height });
        return new PuppeteerPage(page);
      },
      close: () => browser.close(),
    };
  }
  if (engine === "webkit") {
    if (!existsSync(WEBKIT)) throw new Error("webkit2gtk-driver is not installed (make test installs it)");
    if (!process.env.DISPLAY) throw new Error("WebKit needs a display: run under xvfb-run (make test does)");
    return {
      name: engine,
      async newPage({ width = 1200, height = 900 } = {}) {
        const driver = await new Builder()
          .withCapabilities({ browserName: "MiniBrowser", "webkitgtk:browserOptions": { binary: WEBKIT, args: ["--automation"] } })
          .usingServer(await webkitServer())
          .build();
        await driver.manage().window().setRect({ width, height });
        return new SeleniumPage(driver);
      },
      close: async () => stopWebkitServer(),
    };
  }
  throw new Error(`unknown engine ${engine}`);
}

let wkServer = null;
async function webkitServer() {
  if (wkServer) return wkServer.url;
  const { spawn } = await import("node:child_process");
  const port = 4444 + Math.floor(Math.random() * 1000);
  const proc = spawn("WebKitWebDriver", [`--port=${port}`], { stdio: "ignore" });
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 100; i++) {
    try { if ((await fetch(`${url}/status`)).ok) break; } catch { /* starting */ }
    await new Promise((r) => setTimeout(r, 100));
  }
  wkServer = { proc, url };
  return url;
}
function stopWebkitServer() {
  wkServer?.proc.kill();
  wkServer = null;
}
