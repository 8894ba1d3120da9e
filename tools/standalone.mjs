// `make standalone`: dist/ → dist/ccscope.html, one file that works opened
// from file:// (double-click) with nothing else beside it. Everything is
// inlined: the stylesheet, the favicon (data: URL), the wasm-bindgen glue and
// the wasm (gzip, base64; the browser's DecompressionStream unpacks it), and
// the reading worker, started from a blob: URL made of the same glue. The
// sample transcript is inside the wasm already. The file carries a CSP as
// strict as the hosted page's: scripts and styles only by hash, wasm by
// 'wasm-unsafe-eval', workers only from blob:, and connect-src 'none' (a
// file has nothing to connect to).
import { readFileSync, writeFileSync, readdirSync } from "node:fs";
import { createHash } from "node:crypto";
import { gzipSync } from "node:zlib";
import { join, dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const DIST = process.env.DIST ?? join(ROOT, "dist");
const OUT = join(DIST, "ccscope.html");

const files = readdirSync(DIST);
const one = (re, what) => {
  const found = files.filter((f) => re.test(f));
  if (found.length !== 1) throw new Error(`standalone: expected one ${what} in ${DIST}, found ${JSON.stringify(found)} (run make build)`);
  return join(DIST, found[0]);
};
const glueFile = one(/^ccscope-web-[0-9a-f]+\.js$/, "wasm-bindgen glue");
const wasmFile = one(/^ccscope-web-[0-9a-f]+_bg\.wasm$/, "wasm");
const cssFile = one(/^style-[0-9a-f]+\.css$/, "stylesheet");
const iconFile = one(/^favicon-[0-9a-f]+\.svg$/, "favicon");

// The glue is an ES module whose one export line names init; inlined, its
// functions are in scope of the script that follows it.
const glue = readFileSync(glueFile, "utf8");
const exportLine = /^export \{ initSync, __wbg_init as default \};\s*$/m;
if (!exportLine.test(glue)) throw new Error("standalone: the glue's export line changed; update tools/standalone.mjs");
const body = glue.replace(exportLine, "");
const wasm = readFileSync(wasmFile);
const wasmGz = gzipSync(wasm, { level: 9 }).toString("base64");

// The worker: the same glue, then what worker.js does (hold messages until
// the page's compiled module, sent first, has started). A file:// page cannot
// start a module worker, so this one is classic: its glue must not name
// import.meta (used only when no module is given, which never happens here).
if ((body.match(/import\.meta\.url/g) ?? []).length !== 1) throw new Error("standalone: the glue names import.meta.url other than once; update tools/standalone.mjs");
const worker = `${body.replace("import.meta.url", "self.location.href")}
const early = [];
self.onmessage = (first) => {
  self.onmessage = (e) => early.push(e.data);
  __wbg_init({ module_or_path: first.data.module }).then(() => {
    for (const data of early.splice(0)) self.dispatchEvent(new MessageEvent("message", { data }));
  });
};
`;

const script = `${body}
// ccscope single file: unpack the wasm, make the worker's blob: URL, start.
const gz = Uint8Array.from(atob(${JSON.stringify(wasmGz)}), (c) => c.charCodeAt(0));
const bytes = await new Response(new Blob([gz]).stream().pipeThrough(new DecompressionStream("gzip"))).arrayBuffer();
const module = await WebAssembly.compile(bytes);
globalThis.ccscopeWorkerType = "classic";
globalThis.ccscopeWorkerUrl = URL.createObjectURL(new Blob([${JSON.stringify(worker)}], { type: "text/javascript" }));
await __wbg_init({ module_or_path: module });
`;
const css = readFileSync(cssFile, "utf8");
const icon = "data:image/svg+xml;base64," + readFileSync(iconFile).toString("base64");
const sha = (text) => `'sha256-${createHash("sha256").update(text, "utf8").digest("base64")}'`;
const csp = [
  "default-src 'none'",
  `script-src ${sha(script)} 'wasm-unsafe-eval'`,
  `style-src ${sha(css)}`,
  "img-src data: blob:",
  "worker-src blob:",
  "connect-src 'none'",
  "font-src 'none'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-src 'none'",
].join("; ");

const html = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<!-- ccscope, one file: nothing is fetched; scripts and styles only by hash; no network at all. -->
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="referrer" content="no-referrer">
<title>ccscope — Claude Code transcript viewer</title>
<link rel="icon" href="${icon}">
<style>${css}</style>
<script type="module">${script}</script>
</head>
<body></body>
</html>
`;
writeFileSync(OUT, html);
const kb = (n) => `${(n / 1024).toFixed(0)} KiB`;
console.log(`standalone: ${OUT}: ${kb(Buffer.byteLength(html))} (wasm ${kb(wasm.length)}, gzip in base64 ${kb(wasmGz.length)}; glue ${kb(glue.length)} twice; CSS ${kb(css.length)})`);
