// Debug aid: picks FILE with V8 printing every wasm function it compiles,
// and lists the optimising (TurboFan) compiles that happened after the pick:
// work on the machine's other threads that competes with reading the file.
// Function numbers map to names with a build that keeps them
// (data-wasm-opt-params="-g" in index.html) and `wasm-opt F.wasm --print-function-map`.
// Usage: node tools/wasm-compiles.mjs FILE
process.env.CHROMIUM_EXTRA_ARGS = "--js-flags=--trace-wasm-compilation-times";
// Playwright prints the browser's stdout (where V8 writes) under DEBUG=pw:browser.
process.env.DEBUG = "pw:browser";
const lines = [];
let picked = false;
const write = process.stderr.write.bind(process.stderr);
process.stderr.write = (chunk, ...rest) => {
  const text = String(chunk);
  if (!/pw:browser/.test(text)) return write(chunk, ...rest);
  const m = text.match(/Compiled function \S+#(\d+) using TurboFan, took (\d+) (μs|ms).*bodysize (\d+)/);
  if (m && picked) lines.push({ fn: Number(m[1]), ms: Number(m[2]) / (m[3] === "μs" ? 1000 : 1), body: Number(m[4]) });
  return true;
};
const { openReady, pick } = await import("./page.mjs");
const file = process.argv[2];
const { page, close } = await openReady();
// The measuring windows: 1 s of quiet before the pick, 0.5 s after the full view.
await page.waitForTimeout(1000);
picked = true;
const ms = await pick(page, file);
await page.waitForTimeout(500);
await close();
lines.sort((a, b) => b.ms - a.ms);
const total = lines.reduce((t, l) => t + l.ms, 0);
console.log(`pick → full view ${ms} ms; optimising compiles from the pick to 0.5 s after: ${lines.length}, ${total.toFixed(0)} ms`);
for (const l of lines.slice(0, 15)) console.log(`  #${l.fn}  ${l.ms.toFixed(1)} ms  (body ${l.body} bytes)`);
