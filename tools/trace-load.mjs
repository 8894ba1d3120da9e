// Debug aid: picks FILE in the built viewer with a Chromium trace running
// and prints every main-thread task over 30 ms with what it spent time on
// (and the performance.mark()s inside it; DUMP=1 also prints the first marks).
// Usage: node tools/trace-load.mjs FILE
import { openReady, pickTraced } from "./page.mjs";

const file = process.argv[2];
const { page, close } = await openReady();
const { events } = await pickTraced(page, file, "devtools.timeline,v8,disabled-by-default-devtools.timeline,blink.user_timing");
if (process.env.DUMP) console.log(events.filter((e) => /push|loaded|vlist/.test(e.name)).slice(0, 5));
const min = Number(process.env.MIN_MS ?? 30) * 1000;
const main = events.filter((e) => e.name === "RunTask" && e.dur > min);
const crRenderer = new Map();
for (const e of events) if (e.name === "thread_name") crRenderer.set(`${e.pid}:${e.tid}`, e.args.name);
for (const t of main) {
  const thread = crRenderer.get(`${t.pid}:${t.tid}`);
  const inside = new Map();
  for (const e of events) {
    if (e.pid !== t.pid || e.tid !== t.tid || e === t || e.ph !== "X" || !e.dur) continue;
    if (e.ts < t.ts || e.ts + e.dur > t.ts + t.dur) continue;
    inside.set(e.name, (inside.get(e.name) ?? 0) + e.dur);
  }
  const top = [...inside].sort((a, b) => b[1] - a[1]).slice(0, 8).map(([n, d]) => `${n} ${(d / 1000).toFixed(0)}`).join(", ");
  const marks = events.filter((e) => e.pid === t.pid && e.tid === t.tid && e.cat?.includes("user_timing") && e.ts >= t.ts && e.ts <= t.ts + t.dur)
    .map((e) => `${e.name}@${((e.ts - t.ts) / 1000).toFixed(0)}`).join(" ");
  console.log(`${thread}: task ${(t.dur / 1000).toFixed(0)} ms at ${(t.ts / 1000).toFixed(0)}: ${top}\n   marks: ${marks.slice(0, 800)}`);
}
await close();
