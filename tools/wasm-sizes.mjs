// What each part of the wasm costs: every function body's bytes, named by
// the module's `name` section, summed by the crate (and, for ccscope, the
// module) its Rust path names; data segments apart. Run on the module as
// rustc wrote it (target/wasm32-unknown-unknown/wasm-release/ccscope-web.wasm,
// which keeps its names), before wasm-bindgen and wasm-opt.
//   node tools/wasm-sizes.mjs [WASM] [--top N]
import { readFileSync } from "node:fs";
import { gzipSync } from "node:zlib";

const file = process.argv[2] && !process.argv[2].startsWith("--") ? process.argv[2] : "target/wasm32-unknown-unknown/wasm-release/ccscope-web.wasm";
const topN = Number(process.argv[process.argv.indexOf("--top") + 1]) || 25;
const b = readFileSync(file);
let at = 8;
const leb = () => { let r = 0, s = 0, x; do { x = b[at++]; r += (x & 0x7f) * 2 ** s; s += 7; } while (x & 0x80); return r; };
const str = () => { const n = leb(); const s = b.toString("utf8", at, at + n); at += n; return s; };
let imported = 0;
const bodies = [];
const names = new Map();
let dataBytes = 0;
const sections = {};
while (at < b.length) {
  const id = b[at++];
  const len = leb();
  const end = at + len;
  const start = at;
  if (id === 2) {
    for (let n = leb(), i = 0; i < n; i++) { str(); str(); const kind = b[at++]; if (kind === 0) { leb(); imported++; } else if (kind === 1) { at++; const f = leb(); leb(); if (f & 1) leb(); } else if (kind === 2) { const f = leb(); leb(); if (f & 1) leb(); } else if (kind === 3) { at += 2; } }
  } else if (id === 10) {
    for (let n = leb(), i = 0; i < n; i++) { const sz = leb(); bodies.push({ index: imported + i, bytes: sz, code: b.subarray(at, at + sz) }); at += sz; }
  } else if (id === 11) {
    dataBytes = len;
  } else if (id === 0) {
    const name = str();
    if (name === "name") {
      while (at < end) {
        const sub = b[at++]; const sl = leb(); const se = at + sl;
        if (sub === 1) { for (let n = leb(), i = 0; i < n; i++) { const k = leb(); names.set(k, str()); } }
        at = se;
      }
    }
    sections[name] = (sections[name] ?? 0) + len;
  }
  sections[id] = (sections[id] ?? 0) + (end - start);
  at = end;
}
/** `[crate, module, submodule]` of a v0-mangled name (`_R…`): ccscope's
 * wherever it is named (a generic instantiated for one of our types counts
 * as ours), else the first crate root. */
function v0(raw) {
  const idents = (from) => {
    const out = [];
    let r = raw.slice(from);
    for (let k = 0; k < 3; k++) {
      r = r.replace(/^(?:Nt|Nv|s[0-9a-zA-Z]*_)+/, "");
      const n = /^(\d+)_?/.exec(r);
      if (!n) break;
      out.push(r.slice(n[0].length, n[0].length + Number(n[1])));
      r = r.slice(n[0].length + Number(n[1]));
    }
    return out;
  };
  const ours = raw.indexOf("7ccscope");
  if (ours >= 0) return idents(ours);
  const root = /C(?:s[0-9a-zA-Z]*_)?(\d+)_?/.exec(raw);
  return root ? idents(root.index + 1 + (root[0].length - 1 - root[1].length - (root[0].endsWith("_") ? 1 : 0)) - 0).length ? [raw.substr(root.index + root[0].length, Number(root[1]))] : ["?"] : ["?"];
}

/** The crate and module a (mangled or demangled) Rust name belongs to. */
function owner(raw) {
  if (raw.startsWith("_R")) {
    const [c, m, sub] = v0(raw);
    if (c === "ccscope") return ["app", "model", "index", "folder", "state"].includes(m) ? `ccscope::${m}::${sub ?? ""}` : `ccscope::${m ?? ""}`;
    return c;
  }
  let s = raw;
  const segs = [];
  const m = /^_ZN(.*)E$/.exec(s);
  if (m) { let r = m[1]; while (r.length) { const n = /^(\d+)/.exec(r); if (!n) break; const len = Number(n[1]); segs.push(r.slice(n[1].length, n[1].length + len)); r = r.slice(n[1].length + len); } }
  else segs.push(...s.split("::"));
  const clean = segs.map((x) => x.replace(/\.\./g, "::").replace(/\$LT\$|\$GT\$|\$u20\$|\$RF\$|\$C\$/g, " ").replace(/^_+/, "").trim()).filter(Boolean);
  // `<T as Trait>::f` impls: name the implementing type's crate when it is ours.
  const text = clean.join("::");
  const ours = /ccscope(?:_web)?::(\w+)(?:::(\w+))?/.exec(text);
  if (ours) return ours[1] === "app" || ours[1] === "model" || ours[1] === "index" || ours[1] === "folder" || ours[1] === "state" ? `ccscope::${ours[1]}::${ours[2] ?? ""}` : `ccscope::${ours[1]}`;
  return (clean[0] ?? "?").split(" ")[0] || "?";
}
const byOwner = new Map();
const byTop = new Map();
let total = 0;
for (const f of bodies) {
  const o = owner(names.get(f.index) ?? "?");
  total += f.bytes;
  const e = byOwner.get(o) ?? { bytes: 0, n: 0 };
  e.bytes += f.bytes; e.n++;
  byOwner.set(o, e);
  const top = o.startsWith("ccscope::") ? o.split("::").slice(0, 2).join("::") : o;
  byTop.set(top, (byTop.get(top) ?? 0) + f.bytes);
}
const kb = (n) => (n / 1024).toFixed(1).padStart(8) + " KiB";
console.log(`${file}: ${kb(b.length)} raw, ${kb(gzipSync(b, { level: 9 }).length)} gzip; code ${kb(total)} in ${bodies.length} functions; data ${kb(dataBytes)}; names ${kb(sections.name ?? 0)}`);
console.log("\nby crate (ccscope by layer):");
for (const [o, n] of [...byTop].sort((a, b) => b[1] - a[1]).slice(0, topN)) console.log(`${kb(n)}  ${(100 * n / total).toFixed(1).padStart(5)}%  ${o}`);
console.log("\nccscope by module:");
for (const [o, e] of [...byOwner].filter(([o]) => o.startsWith("ccscope")).sort((a, b) => b[1].bytes - a[1].bytes).slice(0, topN)) console.log(`${kb(e.bytes)}  ${String(e.n).padStart(5)} fns  ${o}`);
if (process.env.WHO) for (const f of bodies.filter((f) => owner(names.get(f.index) ?? "?") === process.env.WHO).sort((a, b) => b.bytes - a.bytes).slice(0, 12)) console.log(f.bytes, (names.get(f.index) ?? "?").slice(0, 160));
