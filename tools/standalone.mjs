// `make standalone`: dist/ → dist/ccscope.html, one file that works opened
// from file:// (double-click) with nothing else beside it. Everything is
// inlined: the stylesheet, the favicon (data: URL), the wasm-bindgen glue and
// the wasm (gzip, then `dense` text below; the browser's DecompressionStream
// unpacks it), and the reading worker, started from a blob: URL made of the
// same glue, read back from the page's own script (so it is in the file once). The
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
const body = compact(glue.replace(exportLine, ""));

/** Script or stylesheet text without its comments, indentation and blank
 * lines, which are a fifth of the glue. Line by line, so only safe where no
 * string, template or regular expression spans lines: checked, not assumed. */
function compact(text) {
  const lines = text.split("\n");
  const spanning = lines.findIndex((l) => (l.match(/`/g) ?? []).length % 2 === 1 || /\\$/.test(l));
  if (spanning >= 0) throw new Error(`standalone: line ${spanning + 1} continues on the next; compact() cannot keep that safe`);
  const out = [];
  let inComment = false;
  lines.forEach((line, i) => {
    const t = line.trim();
    if (inComment || t.startsWith("/*")) {
      inComment = !t.includes("*/");
      if (!inComment && !t.endsWith("*/")) throw new Error(`standalone: line ${i + 1} goes on after a comment; compact() would drop it`);
      return;
    }
    if (t !== "" && !t.startsWith("//")) out.push(t);
  });
  return out.join("\n");
}
const wasm = readFileSync(wasmFile);
const wasmGz = gzipSync(wasm, { level: 9 });

// Binary as text, denser than base64 (4 chars per 3 bytes): every 6 bytes are
// one number below 2^48, written as 7 digits in base DIGITS.length (≥ 116, as
// 116^7 ≥ 2^48), most significant first; the last group is padded with zeros.
// The digits are ASCII but for what the text of a <script> data block cannot
// carry unchanged (NUL; CR, which the parser turns into LF; "<", which could
// start "</script"), what upsets a terminal (VT, FF, SO, SI, ESC, DEL), and
// tab and LF, so that the data is one line without whitespace at its end for
// an editor to trim. As numbers stay below 2^53, the page decodes them
// exactly with plain doubles.
const DIGITS = [...Array(127).keys()].filter((c) => c > 0 && ![9, 10, 11, 12, 13, 14, 15, 27, 60].includes(c));
if (DIGITS.length ** 7 < 2 ** 48) throw new Error("standalone: too few digits for 6 bytes in 7");
function dense(bytes) {
  const base = DIGITS.length;
  const out = Buffer.alloc(Math.ceil(bytes.length / 6) * 7);
  for (let at = 0, o = 0; at < bytes.length; at += 6, o += 7) {
    let n = 0;
    for (let i = 0; i < 6; i++) n = n * 256 + (bytes[at + i] ?? 0);
    for (let i = 6; i >= 0; i--) { out[o + i] = DIGITS[n % base]; n = Math.floor(n / base); }
  }
  return out.toString("latin1");
}
const wasmText = dense(wasmGz);

// The worker: the same glue, then what worker.js does (hold messages until
// the page's compiled module, sent first, has started). A file:// page cannot
// start a module worker, so this one is classic: its glue must not name
// import.meta (used only when no module is given, which never happens here).
if ((body.match(/import\.meta\.url/g) ?? []).length !== 1) throw new Error("standalone: the glue names import.meta.url other than once; update tools/standalone.mjs");
const workerTail = `
const early = [];
self.onmessage = (first) => {
  self.onmessage = (e) => early.push(e.data);
  __wbg_init({ module_or_path: first.data.module }).then(() => {
    for (const data of early.splice(0)) self.dispatchEvent(new MessageEvent("message", { data }));
  });
};
`;

// The page's script: the glue, a line that marks its end, then the start-up.
const GLUE_END = "//ccscope: the glue ends here";
if (body.includes(GLUE_END)) throw new Error("standalone: the glue already holds the end marker");
const script = `${body}
${GLUE_END}
// ccscope single file: unpack the wasm, make the worker's blob: URL, start.
const data = document.getElementById("ccscope-wasm");
const digits = ${JSON.stringify(DIGITS)}, digit = new Uint8Array(128);
digits.forEach((c, i) => { digit[c] = i; });
const text = data.textContent, base = digits.length;
const gz = new Uint8Array(text.length / 7 * 6);
for (let at = 0, o = 0; at < text.length; at += 7, o += 6) {
  let n = 0;
  for (let i = 0; i < 7; i++) n = n * base + digit[text.charCodeAt(at + i)];
  for (let i = 5; i >= 0; i--) { gz[o + i] = n % 256; n = Math.floor(n / 256); }
}
data.remove();
const bytes = await new Response(new Blob([gz.subarray(0, ${wasmGz.length})]).stream().pipeThrough(new DecompressionStream("gzip"))).arrayBuffer();
const module = await WebAssembly.compile(bytes);
globalThis.ccscopeWorkerType = "classic";
const own = document.getElementById("ccscope-main").textContent;
const glue = own.slice(0, own.indexOf("\\n" + ${JSON.stringify(GLUE_END)}));
const worker = glue.replace("import.meta" + ".url", "self.location.href") + ${JSON.stringify(workerTail)};
globalThis.ccscopeWorkerUrl = URL.createObjectURL(new Blob([worker], { type: "text/javascript" }));
await __wbg_init({ module_or_path: module });
`;
const css = compact(readFileSync(cssFile, "utf8"));
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
<script type="text/plain" id="ccscope-wasm">${wasmText}</script>
<script type="module" id="ccscope-main">${script}</script>
</head>
<body></body>
</html>
`;
writeFileSync(OUT, html);
const kb = (n) => `${(n / 1024).toFixed(0)} KiB`;
console.log(`standalone: ${OUT}: ${kb(Buffer.byteLength(html))} (wasm ${kb(wasm.length)}, gzip ${kb(wasmGz.length)} as ${kb(wasmText.length)} of text; glue ${kb(body.length)}; CSS ${kb(css.length)})`);
