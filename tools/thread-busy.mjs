// Debug aid: picks FILE in the built viewer with a Chromium trace running and
// prints, per thread of every Chromium process, how long it was busy (top-level
// tasks) between the pick and the full view, and what the worker's tasks spent
// their time on. Tells which thread the load waits for.
// Usage: [TIMELINE=1] [PAGE_EVENTS=1] [PAGE_RENDERING=1] node tools/thread-busy.mjs FILE
import { openReady, pickTraced } from "./page.mjs";

const file = process.argv[2];
const { page, close } = await openReady();
const { events, ms } = await pickTraced(page, file, "toplevel,devtools.timeline,v8,v8.wasm,blink.user_timing,disabled-by-default-devtools.timeline");
console.log(`pick → full view as seen from the test: ${ms} ms`);
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
// CPU time per thread: the top-level tasks' thread durations (`tdur`);
// busy time counts a task's time preempted by other threads, this does not.
const cpu = new Map();
for (const [k, list] of spans) cpu.set(k, 0);
for (const t of tasks) {
  const k = `${t.pid}:${t.tid}`;
  if (t.ts < start || t.ts > end || !t.tdur) continue;
  // Only outermost tasks: skip one inside another of the same thread.
  if (tasks.some((o) => o !== t && `${o.pid}:${o.tid}` === k && o.ts <= t.ts && o.ts + o.dur >= t.ts + t.dur && o.dur > t.dur)) continue;
  cpu.set(k, (cpu.get(k) ?? 0) + t.tdur);
}
console.log(`window ${((end - start) / 1000).toFixed(0)} ms from the pick's change event to the last paint`);
for (const [k, d] of [...busy].sort((a, b) => b[1] - a[1]).slice(0, 10)) console.log(`  ${(d / 1000).toFixed(0).padStart(5)} ms busy, ${((cpu.get(k) ?? 0) / 1000).toFixed(0).padStart(4)} ms CPU  ${names.get(k) ?? k}`);
const workerKey = [...names].find(([, n]) => /DedicatedWorker/.test(n))?.[0];
// Time by event name on one thread (nested events counted in each).
const cpuInside = new Map();
const byEvent = (key) => {
  const inside = new Map();
  cpuInside.clear();
  for (const e of events) {
    if (`${e.pid}:${e.tid}` !== key || e.ph !== "X" || !e.dur || e.ts < start || e.ts > end) continue;
    inside.set(e.name, (inside.get(e.name) ?? 0) + e.dur);
    if (e.tdur) cpuInside.set(e.name, (cpuInside.get(e.name) ?? 0) + e.tdur);
  }
  return inside;
};
if (process.env.PAGE_EVENTS) {
  const mainKey = [...names].find(([, n]) => n === "CrRendererMain")?.[0];
  console.log("page thread, time by event (nested events counted in each):");
  for (const [n, d] of [...byEvent(mainKey)].sort((a, b) => b[1] - a[1]).slice(0, 25)) console.log(`  ${(d / 1000).toFixed(1).padStart(7)} ms  ${n}`);
}
if (process.env.POOL_EVENTS) {
  // The renderer's V8/Blink pool threads: what they spend their time on.
  const pool = [...names].filter(([, n]) => /ThreadPoolForeground/.test(n)).map(([k]) => k);
  const total = new Map();
  for (const k of pool) for (const [n, d] of byEvent(k)) total.set(n, (total.get(n) ?? 0) + d);
  console.log("pool threads (ThreadPoolForegroundWorker, all processes), time by event:");
  for (const [n, d] of [...total].sort((a, b) => b[1] - a[1]).slice(0, 20)) console.log(`  ${(d / 1000).toFixed(1).padStart(7)} ms  ${n}`);
  // When V8 compiles wasm with its optimising tier, in 25 ms buckets after the pick.
  const buckets = new Map();
  for (const e of events) {
    if (e.name !== "wasm.TopTierCompilation" || e.ph !== "X" || e.ts < start || e.ts > end) continue;
    const b = Math.floor((e.ts - start) / 25000) * 25;
    buckets.set(b, (buckets.get(b) ?? 0) + e.dur);
  }
  console.log("optimising wasm compiles by time after the pick (ms at: ms compiling): " +
    [...buckets].sort((a, b) => a[0] - b[0]).map(([b, d]) => `+${b}: ${(d / 1000).toFixed(0)}`).join(", "));
  const compiles = events.filter((e) => e.name === "wasm.TopTierCompilation" && e.ph === "X" && e.ts >= start && e.ts <= end).map((e) => e.dur / 1000).sort((a, b) => b - a);
  console.log(`  ${compiles.length} compiles, the longest ${compiles.slice(0, 8).map((d) => d.toFixed(0)).join(", ")} ms`);
  const sample = events.find((e) => e.name === "wasm.TopTierCompilation" && e.args && Object.keys(e.args).length);
  if (sample) console.log("  (an event's args: " + JSON.stringify(sample.args).slice(0, 300) + ")");
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
  for (const [n, d] of [...inside].sort((a, b) => b[1] - a[1]).slice(0, 12)) console.log(`  ${(d / 1000).toFixed(1).padStart(7)} ms (${((cpuInside.get(n) ?? 0) / 1000).toFixed(1)} CPU)  ${n}`);
}
await close();
