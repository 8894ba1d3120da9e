// Debug aid: picks FILE in the built viewer with a Chromium trace running and
// prints, per thread of every Chromium process, how long it was busy (top-level
// tasks) between the pick and the full view, and what the worker's tasks spent
// their time on. Tells which thread the load waits for.
// Usage: [TIMELINE=1] [PAGE_EVENTS=1] [PAGE_RENDERING=1] node tools/thread-busy.mjs FILE
import { launch, openApp } from "../tests/e2e/helpers.mjs";

const file = process.argv[2];
const browser = await launch();
const app = await openApp(browser, "/");
const { page } = app;
await page.waitForSelector("html[data-rehearsed][data-worker-warmed]", { state: "attached", timeout: 30000 });
const cdp = await page.context().newCDPSession(page);
const events = [];
cdp.on("Tracing.dataCollected", (d) => events.push(...d.value));
const done = new Promise((r) => cdp.once("Tracing.tracingComplete", r));
await cdp.send("Tracing.start", { categories: "toplevel,devtools.timeline,v8,v8.wasm,blink.user_timing,disabled-by-default-devtools.timeline", transferMode: "ReportEvents" });
await page.waitForTimeout(200);
const t0 = Date.now();
await page.setInputFiles("#file-input", file);
await page.waitForFunction(() => document.querySelector("[data-testid=viewer] .all-facts"), null, { timeout: 600000, polling: 20 });
console.log(`pick → full view as seen from the test: ${Date.now() - t0} ms`);
await page.waitForTimeout(200);
await cdp.send("Tracing.end");
await done;
const names = new Map();
for (const e of events) if (e.name === "thread_name") names.set(`${e.pid}:${e.tid}`, e.args.name);
const tasks = events.filter((e) => (e.name === "ThreadControllerImpl::RunTask" || e.name === "RunTask") && e.ph === "X" && e.dur);
const pick = events.find((e) => e.name === "EventDispatch" && e.args?.data?.type === "change") ?? tasks[0];
const start = pick.ts;
const end = Math.max(...events.filter((e) => e.name === "Paint" || e.name === "Commit").map((e) => e.ts));
// Busy time per thread: the union of its top-level task intervals (tasks nest).
const spans = new Map();
for (const t of tasks) {
  if (t.ts < start || t.ts > end) continue;
  const k = `${t.pid}:${t.tid}`;
  if (!spans.has(k)) spans.set(k, []);
  spans.get(k).push([t.ts, t.ts + t.dur]);
}
const busy = new Map();
for (const [k, list] of spans) {
  list.sort((a, b) => a[0] - b[0]);
  let total = 0, until = -Infinity;
  for (const [a, b] of list) {
    if (b <= until) continue;
    total += b - Math.max(a, until);
    until = b;
  }
  busy.set(k, total);
}
console.log(`window ${((end - start) / 1000).toFixed(0)} ms from the pick's change event to the last paint`);
for (const [k, d] of [...busy].sort((a, b) => b[1] - a[1]).slice(0, 10)) console.log(`  ${(d / 1000).toFixed(0).padStart(5)} ms busy  ${names.get(k) ?? k}`);
const workerKey = [...names].find(([, n]) => /DedicatedWorker/.test(n))?.[0];
// Time by event name on one thread (nested events counted in each).
const byEvent = (key) => {
  const inside = new Map();
  for (const e of events) {
    if (`${e.pid}:${e.tid}` !== key || e.ph !== "X" || !e.dur || e.ts < start || e.ts > end) continue;
    inside.set(e.name, (inside.get(e.name) ?? 0) + e.dur);
  }
  return inside;
};
if (process.env.PAGE_EVENTS) {
  const mainKey = [...names].find(([, n]) => n === "CrRendererMain")?.[0];
  console.log("page thread, time by event (nested events counted in each):");
  for (const [n, d] of [...byEvent(mainKey)].sort((a, b) => b[1] - a[1]).slice(0, 25)) console.log(`  ${(d / 1000).toFixed(1).padStart(7)} ms  ${n}`);
}
if (process.env.PAGE_RENDERING) {
  // When the page draws: style, layout and paint events of 1 ms or more.
  const mainKey = [...names].find(([, n]) => n === "CrRendererMain")?.[0];
  const drawn = events.filter((e) => `${e.pid}:${e.tid}` === mainKey && e.ph === "X" && e.dur >= 1000 && e.ts >= start && e.ts <= end &&
    ["Layout", "UpdateLayoutTree", "Paint", "FunctionCall", "TimerFire", "HandlePostMessage", "SimpleWatcher::OnHandleReady"].includes(e.name));
  console.log("page events of 1 ms or more (name +start:length, ms):");
  console.log("  " + drawn.map((e) => `${e.name} +${((e.ts - start) / 1000).toFixed(0)}:${(e.dur / 1000).toFixed(0)}`).join("\n  "));
}
if (workerKey) {
  const inside = byEvent(workerKey);
  if (process.env.TIMELINE) {
    const mainKey = [...names].find(([, n]) => n === "CrRendererMain")?.[0];
    for (const [label, key] of [["worker", workerKey], ["page", mainKey]]) {
      const own = (spans.get(key) ?? []).filter(([a, b]) => b - a >= 2000);
      console.log(`${label} tasks of 2 ms or more (start after the pick:length, ms):`);
      console.log("  " + own.map(([a, b]) => `+${((a - start) / 1000).toFixed(0)}:${((b - a) / 1000).toFixed(0)}`).join(" "));
    }
  }
  console.log("worker thread, time by event (nested events counted in each):");
  for (const [n, d] of [...inside].sort((a, b) => b[1] - a[1]).slice(0, 12)) console.log(`  ${(d / 1000).toFixed(1).padStart(7)} ms  ${n}`);
}
await browser.close();
await app.server.close();
