// trunk post_build hook: move trunk's inline <script type="module"> (which
// starts the wasm) into boot.js, so the page runs under a CSP without
// 'unsafe-inline'. Works on $TRUNK_STAGING_DIR/index.html.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";

const dir = process.env.TRUNK_STAGING_DIR;
if (!dir) {
  console.error("externalize-boot: TRUNK_STAGING_DIR is not set (run by trunk)");
  process.exit(1);
}
const file = join(dir, "index.html");
let html = readFileSync(file, "utf8");
const re = /<script type="module"[^>]*>([\s\S]*?)<\/script>/;
const m = html.match(re);
if (!m) {
  console.error("externalize-boot: no inline module script found in index.html");
  process.exit(1);
}
// Make absolute-from-root imports relative to boot.js (which sits beside them).
const code = m[1].replace(/(['"])\.?\/(?=[^'"]+\.(?:js|wasm)['"])/g, "$1./");
writeFileSync(join(dir, "boot.js"), code.trim() + "\n");
html = html.replace(re, '<script type="module" src="./boot.js"></script>');
writeFileSync(file, html);
console.log("externalize-boot: moved the inline boot script to boot.js");
