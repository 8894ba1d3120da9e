// Debug aid: picks FILE in the built viewer with the page's JS/wasm sampling
// profiler running and prints the functions with the most self time between
// the pick and the full view (wasm names need a build that keeps them:
// data-wasm-opt="0" in index.html, or wasm-opt -g).
// Usage: node tools/cpu-profile.mjs FILE [TOP]
import { openReady, pick } from "./page.mjs";

const [file, top = "40"] = process.argv.slice(2);
const { page, close } = await openReady();
const cdp = await page.context().newCDPSession(page);
await cdp.send("Profiler.enable");
await cdp.send("Profiler.setSamplingInterval", { interval: 100 });
await cdp.send("Profiler.start");
const ms = await pick(page, file);
const { profile } = await cdp.send("Profiler.stop");
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const self = new Map();
const dt = profile.timeDeltas;
for (let i = 0; i < profile.samples.length; i++) {
  const n = byId.get(profile.samples[i]);
  const f = n.callFrame;
  const key = `${f.functionName || "(anonymous)"} ${f.url ? f.url.split("/").pop() : ""}`.trim();
  self.set(key, (self.get(key) ?? 0) + (dt[i] ?? 0));
}
console.log(`pick → full view ${ms} ms; page thread self time by function (ms):`);
for (const [k, us] of [...self].sort((a, b) => b[1] - a[1]).slice(0, Number(top))) console.log(`  ${(us / 1000).toFixed(1).padStart(7)}  ${k}`);
await close();
