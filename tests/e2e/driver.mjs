// One engine-neutral driver for the whole end-to-end suite. Every test file
// calls `launch()` and speaks to the page through the part of Playwright's
// page API it uses (goto, evaluate, waitForFunction, waitForSelector,
// click, fill, press, keyboard, locator, setInputFiles, screenshot,
// events…). The engine is `ENGINE` (make e2e runs the suite once per
// engine):
//   chromium  Debian's Chromium through playwright-core itself;
//   firefox   Debian's firefox-esr through puppeteer-core over WebDriver BiDi;
//   webkit    WebKitGTK's MiniBrowser through WebKitWebDriver and
//             selenium-webdriver, under xvfb-run (`--headless` hangs).
// Firefox and WebKit get `NeutralPage` below: the same calls, built on
// scripts in the page plus the driver's real clicks, keys, file picks and
// screenshots. What an engine's driver cannot do is named in `LACKS`, and a
// test that meets it says so by name (`skipped()`) and runs its fallback.
import { chromium } from "playwright-core";
import puppeteer from "puppeteer-core";
import { Builder, By, Key } from "selenium-webdriver";
import { appendFileSync, existsSync, mkdirSync, openSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { spawn } from "node:child_process";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

export const ENGINE = process.env.ENGINE ?? "chromium";
const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const WEBKIT = "/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser";

/** What each engine's driver (or the engine) cannot do, in words. */
const LACKS = {
  chromium: {},
  firefox: {
    directoryInput: "its driver cannot set a directory on <input webkitdirectory> (input.setFiles: \"Is directory\")",
    workers: "its driver cannot look inside a worker",
    downloads: "its driver cannot read a download",
    longTasks: "no long-task API (PerformanceObserver 'longtask')",
    fileSystemHandle: "no FileSystemHandle (File System Access)",
  },
  webkit: {
    directoryInput: "its driver sends a directory to <input webkitdirectory> as one file",
    workers: "its driver cannot look inside a worker",
    downloads: "its driver cannot read a download",
    longTasks: "no long-task API (PerformanceObserver 'longtask')",
    fileSystemHandle: "no FileSystemHandle (File System Access)",
    fullPageScreenshot: "its driver screenshots the viewport only",
  },
};

/** Why `feature` cannot be driven in this engine, or null. */
export function lacks(feature) {
  return LACKS[ENGINE]?.[feature] ?? null;
}

/**
 * Says, by name, that `check` was not run in this engine because of
 * `feature` (and what runs instead): printed, and kept for the summary
 * `make e2e` prints at the end. Returns true when skipped.
 */
export function skipped(feature, check, instead = "") {
  const why = lacks(feature);
  if (!why) return false;
  const line = `skipped on ${ENGINE}: ${check} — ${why}${instead ? `; instead: ${instead}` : ""}`;
  console.log(`# ${line}`);
  mkdirSync(join(ROOT, "test-results"), { recursive: true });
  appendFileSync(join(ROOT, `test-results/e2e-skips-${ENGINE}.txt`), line + "\n");
  return true;
}

/** Starts this run's engine; the object answers as Playwright's Browser does. */
export async function launch() {
  if (ENGINE === "chromium") return launchChromium();
  if (ENGINE === "firefox") return new FirefoxBrowser();
  if (ENGINE === "webkit") return new WebkitBrowser();
  throw new Error(`unknown ENGINE ${ENGINE} (chromium, firefox or webkit)`);
}

function launchChromium() {
  return chromium.launch({
    executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium",
    args: ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--disable-background-networking",
      "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic",
      // Debugging aid (tools/): extra flags, e.g. --js-flags=...; never set by the tests.
      ...(process.env.CHROMIUM_EXTRA_ARGS ? process.env.CHROMIUM_EXTRA_ARGS.split(" ") : [])],
  });
}

// ---------------------------------------------------------------- Firefox

/** Firefox: one browser per colour scheme (the scheme is a launch pref:
 * BiDi cannot emulate `prefers-color-scheme`), a BiDi user context per
 * Playwright context (its own storage). */
class FirefoxBrowser {
  constructor() {
    if (!existsSync("/usr/bin/firefox-esr")) throw new Error("firefox-esr is not installed (make test installs it)");
    this.browsers = {};
  }
  browser(scheme) {
    this.browsers[scheme] ??= puppeteer.launch({
      browser: "firefox", executablePath: "/usr/bin/firefox-esr", headless: true,
      extraPrefsFirefox: {
        "layout.css.prefers-color-scheme.content-override": scheme === "dark" ? 0 : 1,
        "network.captive-portal-service.enabled": false, "app.update.enabled": false,
        "browser.safebrowsing.malware.enabled": false, "browser.safebrowsing.phishing.enabled": false,
      },
    });
    return this.browsers[scheme];
  }
  async newContext({ colorScheme = "light", viewport = { width: 1280, height: 720 } } = {}) {
    const ctx = await (await this.browser(colorScheme)).createBrowserContext();
    return new Context(async () => {
      const page = await ctx.newPage();
      await page.setViewport(viewport);
      return new NeutralPage(new PuppeteerCore(page));
    }, () => ctx.close());
  }
  async newPage(opts) { return (await this.newContext(opts)).newPage(); }
  async close() { for (const b of Object.values(this.browsers)) await (await b).close().catch(() => {}); }
}

class PuppeteerCore {
  constructor(page) { this.page = page; }
  goto(url) { return this.page.goto(url, { waitUntil: "load" }); }
  reload() { return this.page.reload({ waitUntil: "load" }); }
  run(src) { return this.page.evaluate(src); }
  async element(src) {
    const h = await this.page.evaluateHandle(src);
    const el = h.asElement();
    if (!el) throw new Error("no element");
    return el;
  }
  async click(src) { await (await this.element(src)).click(); }
  key(k) { return this.page.keyboard.press(k); }
  mouse(x, y, click) { return click ? this.page.mouse.click(x, y) : this.page.mouse.move(x, y); }
  async pick(src, paths) { await (await this.element(src)).uploadFile(...paths); }
  setViewport(w, h) { return this.page.setViewport({ width: w, height: h }); }
  screenshot(path, fullPage) { return this.page.screenshot({ path, fullPage }); }
  setContent(html) { return this.page.setContent(html, { waitUntil: "load" }); }
  on(ev, fn) { this.page.on(ev, fn); return true; }
  close() { return this.page.close(); }
}

// ---------------------------------------------------------------- WebKit

/** WebKit: one MiniBrowser per Playwright context; dark through GTK's dark
 * theme (WebKitGTK's `prefers-color-scheme`), so one WebKitWebDriver per
 * scheme. */
class WebkitBrowser {
  constructor() {
    if (!existsSync(WEBKIT)) throw new Error("webkit2gtk-driver is not installed (make test installs it)");
    if (!process.env.DISPLAY) throw new Error("WebKit needs a display: run under xvfb-run (make test does)");
    this.servers = {};
    /** Every server started, including any left behind by `session`. */
    this.procs = [];
  }
  async server(scheme) {
    if (this.servers[scheme]) return this.servers[scheme];
    const port = 4444 + Math.floor(Math.random() * 2000);
    const env = { ...process.env, GTK_THEME: scheme === "dark" ? "Adwaita:dark" : "Adwaita" };
    // WEBKIT_LOG=<file>: WebKitWebDriver's and MiniBrowser's own messages
    // go there (why a browser died mid-test); otherwise nowhere.
    const log = process.env.WEBKIT_LOG ? openSync(process.env.WEBKIT_LOG, "a") : "ignore";
    const proc = spawn("WebKitWebDriver", [`--port=${port}`], { stdio: ["ignore", log, log], env });
    this.procs.push(proc);
    const url = `http://127.0.0.1:${port}`;
    for (let i = 0; i < 100; i++) {
      try { if ((await fetch(`${url}/status`)).ok) break; } catch { /* starting */ }
      await new Promise((r) => setTimeout(r, 100));
    }
    this.servers[scheme] = { proc, url };
    return this.servers[scheme];
  }
  /** A session on the scheme's server. A MiniBrowser that dies while
   * starting leaves WebKitWebDriver waiting for it for ever: after
   * SESSION_START_MS that server is left behind and one new one is tried. */
  async session(scheme) {
    for (let attempt = 1; ; attempt++) {
      const server = await this.server(scheme);
      const build = new Builder()
        .withCapabilities({ browserName: "MiniBrowser", "webkitgtk:browserOptions": { binary: WEBKIT, args: ["--automation"] } })
        .usingServer(server.url)
        .build();
      let timer;
      const late = new Promise((_, reject) => {
        timer = setTimeout(() => reject(new Error(`webkit: no session after ${SESSION_START_MS} ms (attempt ${attempt})`)), SESSION_START_MS);
      });
      try {
        return { driver: await Promise.race([build, late]), server };
      } catch (e) {
        build.then((d) => d.quit()).catch(() => {});
        if (attempt >= 2) throw e;
        console.error(`${e.message}: trying a new WebKitWebDriver`);
        delete this.servers[scheme];
      } finally {
        clearTimeout(timer);
      }
    }
  }
  async newContext({ colorScheme = "light", viewport = { width: 1280, height: 720 } } = {}) {
    const drivers = [];
    return new Context(async () => {
      const { driver, server } = await this.session(colorScheme);
      drivers.push(driver);
      await driver.manage().setTimeouts({ script: 180000 });
      const core = new SeleniumCore(driver, server.proc);
      await core.setViewport(viewport.width, viewport.height);
      return new NeutralPage(core);
    }, async () => { for (const d of drivers) await d.quit().catch(() => {}); });
  }
  async newPage(opts) { return (await this.newContext(opts)).newPage(); }
  async close() { for (const p of this.procs) p.kill(); }
}

/** How long a WebKit session may take to start (a loaded machine takes ~10 s). */
const SESSION_START_MS = 60000;

const KEYS = { Enter: Key.ENTER, Escape: Key.ESCAPE, Tab: Key.TAB, ArrowRight: Key.ARROW_RIGHT, ArrowLeft: Key.ARROW_LEFT, ArrowUp: Key.ARROW_UP, ArrowDown: Key.ARROW_DOWN, Home: Key.HOME, End: Key.END, PageDown: Key.PAGE_DOWN, PageUp: Key.PAGE_UP, Backspace: Key.BACK_SPACE, Space: " " };

/** Whether process `pid` has a child (read from /proc: no tool needed). */
function hasChild(pid) {
  for (const p of readdirSync("/proc")) {
    if (!/^\d+$/.test(p)) continue;
    try {
      // pid (comm) state ppid …: the comm may hold spaces, so read after its ')'.
      const stat = readFileSync(`/proc/${p}/stat`, "utf8");
      if (Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]) === pid) return true;
    } catch { /* gone meanwhile */ }
  }
  return false;
}

class SeleniumCore {
  /** `server`: the WebKitWebDriver process whose child the MiniBrowser is. */
  constructor(driver, server) { Object.assign(this, { driver, server }); }
  /** `promise`, unless the browser died meanwhile: then WebKitWebDriver never
   * answers, and the test fails now instead of at the run's time limit. */
  async guard(promise) {
    let timer;
    const died = new Promise((_, reject) => {
      timer = setInterval(() => {
        if (!hasChild(this.server.pid)) reject(new Error("webkit: MiniBrowser is gone: it died mid-test (WEBKIT_LOG=<file> keeps its messages)"));
      }, 3000);
    });
    try {
      return await Promise.race([promise, died]);
    } finally {
      clearInterval(timer);
    }
  }
  goto(url) { return this.guard(this.driver.get(url)); }
  reload() { return this.guard(this.driver.navigate().refresh()); }
  /** `src` is an expression; its value (a promise is awaited) comes back. */
  async run(src) {
    const r = await this.guard(this.driver.executeAsyncScript(`const done = arguments[arguments.length - 1];
      Promise.resolve().then(() => (${src})).then((v) => done({ v: v === undefined ? null : v }), (e) => done({ err: e && e.stack ? \`\${e}\\n\${e.stack}\` : String(e) }));`));
    if (r && "err" in r) throw new Error(r.err);
    return r?.v;
  }
  element(src) { return this.guard(this.driver.executeScript(`return (${src})`)); }
  async click(src) { await this.guard((await this.element(src)).click()); }
  async key(k) { await this.guard(this.driver.actions().sendKeys(KEYS[k] ?? k).perform()); }
  async mouse(x, y, click) {
    const a = this.driver.actions().move({ x: Math.round(x), y: Math.round(y), origin: "viewport" });
    await this.guard((click ? a.click() : a).perform());
  }
  async pick(src, paths) { await this.guard((await this.element(src)).sendKeys(paths.join("\n"))); }
  async setViewport(w, h) {
    await this.driver.manage().window().setRect({ width: w, height: h });
    // The window's chrome (MiniBrowser's toolbar) is not part of the viewport.
    const [iw, ih] = await this.driver.executeScript("return [innerWidth, innerHeight]");
    if (iw !== w || ih !== h) await this.driver.manage().window().setRect({ width: w + (w - iw), height: h + (h - ih) });
  }
  async screenshot(path) { writeFileSync(path, await this.guard(this.driver.takeScreenshot()), "base64"); }
  setContent(html) { return this.guard(this.driver.get(`data:text/html;base64,${Buffer.from(html).toString("base64")}`)); }
  on() { return false; }
  close() { return this.driver.quit(); }
}

// ---------------------------------------------------------------- the page

class Context {
  constructor(open, close) { Object.assign(this, { open, closeAll: close, pages: [], listeners: [] }); }
  async newPage() {
    const p = await this.open();
    for (const [ev, fn] of this.listeners) p.on(ev, fn);
    this.pages.push(p);
    return p;
  }
  on(ev, fn) { this.listeners.push([ev, fn]); for (const p of this.pages) p.on(ev, fn); }
  async close() { await this.closeAll(); }
}

/** In-page helpers, defined once per document: element lookup by a chain
 * of [css, text, nth] steps; console errors, page errors, dialogs and
 * requests recorded (for a driver without events); downloads caught at the
 * link the page clicks. */
const PRELUDE = `(() => {
  if (window.__e2e) return;
  const e2e = window.__e2e = { events: [], handles: [], downloads: [], blobs: new Map() };
  e2e.all = (chain) => {
    let scope = [document];
    for (const [css, text, nth] of chain) {
      let found = [];
      for (const s of scope) found.push(...s.querySelectorAll(css));
      if (text != null) found = found.filter((e) => e.textContent.includes(text));
      if (nth != null) found = found.slice(nth, nth + 1);
      scope = found;
    }
    return scope;
  };
  e2e.visible = (el) => { const r = el.getBoundingClientRect(); return r.width > 0 && r.height > 0 && getComputedStyle(el).visibility !== "hidden"; };
  e2e.take = () => e2e.events.splice(0);
  const err = console.error;
  console.error = (...a) => { e2e.events.push(["console", a.map(String).join(" ")]); err.apply(console, a); };
  addEventListener("error", (ev) => e2e.events.push(["pageerror", String(ev.message)]));
  addEventListener("unhandledrejection", (ev) => e2e.events.push(["pageerror", String(ev.reason)]));
  for (const name of ["alert", "confirm", "prompt"]) window[name] = (m) => { e2e.events.push(["dialog", String(m)]); return null; };
  try {
    new PerformanceObserver((l) => { for (const x of l.getEntries()) e2e.events.push(["request", x.name]); }).observe({ type: "resource", buffered: true });
  } catch {}
})()`;

function chainOf(selector) {
  const m = /^(.*):has-text\("(.*)"\)$/.exec(selector);
  return m ? [m[1], m[2], null] : [selector, null, null];
}

/** Playwright's page API, the part this suite uses, over a `core`. */
class NeutralPage {
  constructor(core) {
    this.core = core;
    this.listeners = { console: [], pageerror: [], dialog: [], request: [] };
    this.native = { console: false, pageerror: false, dialog: false, request: false };
    this.keyboard = { press: (k) => this.core.key(k), type: async (t) => { for (const c of t) await this.core.key(c); } };
    this.mouse = { move: (x, y) => this.core.mouse(x, y, false), click: (x, y) => this.core.mouse(x, y, true) };
  }
  on(ev, fn) {
    if (!(ev in this.listeners)) throw new Error(`${ENGINE}: no '${ev}' events in this driver`);
    // Puppeteer reports these itself (with `dialog.dismiss()` and
    // `console.type()`); a dialog after the prelude is the prelude's.
    if (this.core.on(ev, fn) && ev !== "dialog") this.native[ev] = true;
    this.listeners[ev].push(fn);
  }
  /** Hands the page's recorded events to the listeners that the driver cannot serve. */
  dispatch(events) {
    for (const [ev, text] of events ?? []) {
      if (this.native[ev]) continue;
      for (const fn of this.listeners[ev]) {
        if (ev === "console") fn({ type: () => "error", text: () => text });
        else if (ev === "dialog") fn({ message: () => text, dismiss: async () => {}, accept: async () => {} });
        else if (ev === "request") fn({ url: () => text });
        else fn(new Error(text));
      }
    }
  }
  async prelude() { await this.core.run(PRELUDE); }
  /** Runs expression `src` (after the prelude) and hands over the page's events. */
  async run(src) {
    const r = await this.core.run(`(async () => { ${PRELUDE}; const v = await (${src}); return { v: v === undefined ? null : v, ev: window.__e2e.take(), href: location.href }; })()`);
    this.dispatch(r.ev);
    this.href = r.href;
    return r.v;
  }
  async goto(url) { await this.core.goto(url); await this.prelude(); }
  async reload() { await this.core.reload(); await this.prelude(); }
  /** The page's address when the driver last spoke to it (Playwright's `url()` is not async). */
  url() { return this.href; }
  async setContent(html) { await this.core.setContent(html); await this.prelude(); }
  /** `fn(arg)` in the page; a string is run as a script (axe's source). */
  evaluate(fn, arg) {
    return this.run(typeof fn === "function" ? `(${fn.toString()})(${JSON.stringify(arg)})` : `(function () {\n${fn}\n})()`);
  }
  /** Polls `fn(arg)` until it is truthy (Playwright's default: 30 s). */
  async waitForFunction(fn, arg, { timeout = 30000, polling = 40 } = {}) {
    const until = Date.now() + timeout;
    // Truthiness is decided in the page (an element is truthy there, but
    // does not travel back as a value).
    const src = `(async () => { const v = await (${fn.toString()})(${JSON.stringify(arg)}); return v instanceof Node ? true : v; })()`;
    for (;;) {
      const v = await this.run(src);
      if (v) return { jsonValue: async () => v };
      if (Date.now() > until) throw new Error(`${ENGINE}: waitForFunction timed out after ${timeout} ms: ${fn.toString().slice(0, 200)}`);
      await new Promise((r) => setTimeout(r, polling === "raf" ? 16 : polling));
    }
  }
  waitForSelector(selector, opts) { return this.locator(selector).waitFor(opts); }
  async waitForLoadState() {
    // Quiet for half a second: no new resource loaded.
    let n = -1;
    for (;;) {
      const now = await this.evaluate(() => performance.getEntriesByType("resource").length);
      if (now === n) return;
      n = now;
      await new Promise((r) => setTimeout(r, 500));
    }
  }
  locator(selector) { return new Locator(this, [chainOf(selector)]); }
  click(s) { return this.locator(s).first().click(); }
  fill(s, text) { return this.locator(s).first().fill(text); }
  press(s, key) { return this.locator(s).first().press(key); }
  focus(s) { return this.locator(s).first().focus(); }
  check(s) { return this.locator(s).first().setChecked(true); }
  uncheck(s) { return this.locator(s).first().setChecked(false); }
  selectOption(s, v) { return this.locator(s).first().selectOption(v); }
  textContent(s) { return this.locator(s).first().textContent(); }
  innerText(s) { return this.locator(s).first().innerText(); }
  inputValue(s) { return this.locator(s).first().inputValue(); }
  getAttribute(s, name) { return this.locator(s).first().getAttribute(name); }
  isVisible(s) { return this.locator(s).first().isVisible(); }
  async $(s) {
    const i = await this.run(`(() => { const el = document.querySelector(${JSON.stringify(s)}); if (!el) return -1; window.__e2e.handles.push(el); return window.__e2e.handles.length - 1; })()`);
    return i < 0 ? null : new Handle(this, i);
  }
  $$eval(s, fn, arg) { return this.run(`(${fn.toString()})([...document.querySelectorAll(${JSON.stringify(s)})], ${JSON.stringify(arg)})`); }
  $eval(s, fn, arg) { return this.run(`(() => { const el = document.querySelector(${JSON.stringify(s)}); if (!el) throw new Error("no element ${s.replace(/["\\]/g, "")}"); return (${fn.toString()})(el, ${JSON.stringify(arg)}); })()`); }
  async setInputFiles(s, paths) {
    const list = [paths].flat();
    await this.locator(s).waitFor({ state: "attached" });
    await this.core.pick(`document.querySelector(${JSON.stringify(s)})`, list);
  }
  setViewportSize({ width, height }) { return this.core.setViewport(width, height); }
  /** Dark or light for this page: the page's own theme attribute (the
   * engine's `prefers-color-scheme` is set per context, at its start), then
   * two frames drawn (a shot taken at once showed WebKit's page still in
   * the theme before). */
  emulateMedia({ colorScheme }) {
    return this.evaluate((s) => new Promise((drawn) => {
      document.documentElement.dataset.theme = s;
      requestAnimationFrame(() => requestAnimationFrame(() => drawn()));
    }), colorScheme);
  }
  async screenshot({ path, fullPage = false } = {}) {
    if (fullPage && skipped("fullPageScreenshot", "full-page screenshots", "the viewport")) fullPage = false;
    await this.core.screenshot(path, fullPage);
  }
  /** A download: the Blob the page hands to its download link, read in the page. */
  async waitForEvent(ev) {
    if (ev !== "download") throw new Error(`${ENGINE}: waitForEvent('${ev}') is not driven`);
    skipped("downloads", "the export read back from the browser's downloads", "the Blob the page hands to its download link, read in the page");
    await this.run(`(() => {
      const e2e = window.__e2e;
      if (e2e.dlHooked) return; e2e.dlHooked = true;
      const create = URL.createObjectURL;
      URL.createObjectURL = (b) => { const u = create.call(URL, b); e2e.blobs.set(u, b); return u; };
      HTMLAnchorElement.prototype.click = function () {
        const b = this.download && e2e.blobs.get(this.href);
        if (!b) return HTMLElement.prototype.click.call(this);
        const d = { name: this.download, text: null };
        e2e.downloads.push(d);
        b.text().then((t) => { d.text = t; });
      };
    })()`);
    const seen = await this.evaluate(() => window.__e2e.downloads.length);
    const d = await this.waitForFunction((n) => { const d = window.__e2e.downloads[n]; return d && d.text !== null ? d : null; }, seen).then((h) => h.jsonValue());
    const path = join(ROOT, "target/e2e", `download-${ENGINE}-${Date.now()}`);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, d.text);
    return { suggestedFilename: () => d.name, path: async () => path };
  }
  workers() { throw new Error(`${ENGINE}: ${lacks("workers")}`); }
  close() { return this.core.close(); }
}

/** A lookup (a chain of CSS steps), resolved at each use, as Playwright's Locator. */
class Locator {
  constructor(page, chain) { Object.assign(this, { page, chain }); }
  get src() { return `window.__e2e.all(${JSON.stringify(this.chain)})`; }
  locator(selector) { return new Locator(this.page, [...this.chain, chainOf(selector)]); }
  nth(i) { const c = this.chain.map((s) => [...s]); c[c.length - 1][2] = i; return new Locator(this.page, c); }
  first() { return this.nth(0); }
  count() { return this.page.run(`${this.src}.length`); }
  isVisible() { return this.page.run(`(() => { const el = ${this.src}[0]; return !!el && window.__e2e.visible(el); })()`); }
  /** Waits for the first match to be attached, visible (the default), hidden or detached. */
  async waitFor({ state = "visible", timeout = 30000 } = {}) {
    const until = Date.now() + timeout;
    for (;;) {
      const ok = await this.page.run(`(() => { const el = ${this.src}[0], s = ${JSON.stringify(state)};
        if (s === "attached") return !!el; if (s === "detached") return !el;
        const v = !!el && window.__e2e.visible(el); return s === "visible" ? v : !v; })()`);
      if (ok) return;
      if (Date.now() > until) throw new Error(`${ENGINE}: ${JSON.stringify(this.chain)} not ${state} after ${timeout} ms`);
      await new Promise((r) => setTimeout(r, 40));
    }
  }
  /** Runs `body` (an expression over `el`) on the first match, once it is attached. */
  async on(body, state = "attached") {
    await this.waitFor({ state });
    return this.page.run(`(() => { const el = ${this.src}[0]; return ${body}; })()`);
  }
  textContent() { return this.on("el.textContent"); }
  innerText() { return this.on("el.innerText"); }
  inputValue() { return this.on("el.value"); }
  getAttribute(name) { return this.on(`el.getAttribute(${JSON.stringify(name)})`); }
  boundingBox() { return this.on("(() => { const r = el.getBoundingClientRect(); return { x: r.x, y: r.y, width: r.width, height: r.height }; })()"); }
  scrollIntoViewIfNeeded() { return this.on("el.scrollIntoView({ block: 'nearest' })", "visible"); }
  focus() { return this.on("el.focus()"); }
  /** As Playwright's click: once the first match is visible, scrolled into
   * view only when it is not, a real click of the driver's at its middle. */
  async click() {
    await this.waitFor({ state: "visible" });
    // (For up to 6 s: the page may hold a jump's item in place for 2.5 s,
    // against any scroll but a person's wheel, pointer or key.)
    for (let i = 0; i < 80; i++) {
      const ready = await this.page.run(`(async () => {
        const hit = (el) => { const r = el.getBoundingClientRect(), h = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2); return !!h && (h === el || el.contains(h)); };
        const el = ${this.src}[0];
        if (!el) return false;
        window.__e2e.target = el;
        if (hit(el)) return true;
        el.scrollIntoView({ block: "nearest", inline: "nearest" });
        await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
        return el.isConnected && hit(el);
      })()`);
      if (ready) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    // The element found (and scrolled to), not a new lookup: a scroll can redraw a list.
    await this.page.core.click("window.__e2e.target");
    await this.page.run("null");
  }
  evaluateAll(fn, arg) { return this.page.run(`(${fn.toString()})(${this.src}, ${JSON.stringify(arg)})`); }
  /** As Playwright's fill: focus, replace the value, fire `input`. */
  fill(text) {
    return this.on(`(() => { el.focus(); el.value = ${JSON.stringify(text)}; el.dispatchEvent(new Event("input", { bubbles: true })); el.dispatchEvent(new Event("change", { bubbles: true })); })()`, "visible");
  }
  async press(key) { await this.focus(); await this.page.core.key(key); }
  async setChecked(want) { if ((await this.on("el.checked")) !== want) await this.click(); }
  selectOption(value) {
    return this.on(`(() => { el.value = ${JSON.stringify(value)}; el.dispatchEvent(new Event("input", { bubbles: true })); el.dispatchEvent(new Event("change", { bubbles: true })); return [el.value]; })()`);
  }
}

/** An element kept by identity (`page.$`), as Playwright's ElementHandle. */
class Handle {
  constructor(page, i) { Object.assign(this, { page, i }); }
  evaluate(fn, arg) { return this.page.run(`(${fn.toString()})(window.__e2e.handles[${this.i}], ${JSON.stringify(arg)})`); }
}

/** Reads the axe-core source (engine-neutral: injected into any page). */
export function axeSource() {
  return readFileSync(join(ROOT, "node_modules/axe-core/axe.min.js"), "utf8");
}
