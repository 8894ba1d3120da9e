// The picture of the imports among the files of src/: which file uses which
// (through `use crate::…`, `use super::…` and paths written in code; a
// `mod x;` declaration is not a use). Prints every circle (a set of files
// that reach each other) and exits 1 if there is one; `--dot` prints the
// graph in Graphviz form instead. `make test` runs it.
import { readFileSync, readdirSync, statSync, existsSync } from "node:fs";
import { join, relative } from "node:path";

const SRC = new URL("../src/", import.meta.url).pathname;

function files(dir) {
  return readdirSync(dir).flatMap((n) => {
    const p = join(dir, n);
    return statSync(p).isDirectory() ? files(p) : n.endsWith(".rs") ? [p] : [];
  });
}

/** The module path of a file: src/app/view/item.rs → ["app","view","item"]; mod.rs and lib.rs name their directory. */
function modOf(file) {
  const rel = relative(SRC, file).replace(/\.rs$/, "").split("/");
  if (rel[rel.length - 1] === "mod" || rel.join("/") === "lib") rel.pop();
  if (rel[0] === "bin") return null;
  return rel;
}

/** The file of a module path, if it is one. */
function fileOf(path) {
  if (path.length === 0) return join(SRC, "lib.rs");
  const base = join(SRC, ...path);
  if (existsSync(base + ".rs")) return base + ".rs";
  if (existsSync(join(base, "mod.rs"))) return join(base, "mod.rs");
  return null;
}

/** `use` trees expanded into plain paths: `a::{b, c::{d, e}}` → a::b, a::c::d, a::c::e. */
function expand(tree) {
  tree = tree.trim();
  const brace = tree.indexOf("{");
  if (brace < 0) return [tree.replace(/\s+as\s+\w+$/, "")];
  const head = tree.slice(0, brace);
  let depth = 0, parts = [], cur = "";
  for (const c of tree.slice(brace + 1, tree.lastIndexOf("}"))) {
    if (c === "{") depth++;
    if (c === "}") depth--;
    if (c === "," && depth === 0) { parts.push(cur); cur = ""; } else cur += c;
  }
  parts.push(cur);
  return parts.filter((p) => p.trim()).flatMap((p) => expand(head + p.trim()));
}

/** Paths to resolve in a file: `use` items, `crate::`/`super::` paths written
 * in code, and paths into the file's own child modules (`mod x;` … `x::y`). */
function pathsIn(text) {
  const code = text.replace(/\/\/[^\n]*/g, "").replace(/"(?:[^"\\]|\\.)*"/g, '""');
  const out = [];
  const kids = [...code.matchAll(/\bmod\s+(\w+)\s*;/g)].map((m) => m[1]);
  const roots = ["crate", "super", "self", ...kids].join("|");
  for (const m of code.matchAll(new RegExp(`\\buse\\s+((?:${roots})::[^;]*);`, "g"))) out.push(...expand(m[1]));
  for (const m of code.matchAll(new RegExp(`(?<![\\w:])((?:${roots})(?:::\\w+)+)`, "g"))) out.push(m[1]);
  return out.map((p) => (kids.includes(p.split("::")[0]) ? "self::" + p : p));
}

function resolve(from, path) {
  const segs = path.split("::").map((s) => s.trim()).filter(Boolean);
  let mod = segs[0] === "crate" ? [] : [...from];
  let i = 0;
  if (segs[0] === "crate") i = 1;
  // `super` refers to the module's parent, `self` to the module itself.
  while (segs[i] === "super" || segs[i] === "self") { if (segs[i] === "super") mod.pop(); i++; }
  let file = fileOf(mod);
  for (; i < segs.length; i++) {
    const next = fileOf([...mod, segs[i]]);
    if (!next) break;
    mod = [...mod, segs[i]];
    file = next;
  }
  return file;
}

const graph = new Map();
const why = new Map();
for (const f of files(SRC)) {
  const mod = modOf(f);
  if (!mod) continue;
  const deps = new Set();
  // An inline `mod tests { … }` (at a file's end) is a module one level down:
  // its `super::` is the file's own module.
  const text = readFileSync(f, "utf8");
  const inline = [...text.matchAll(/\bmod\s+(\w+)\s*\{/g)];
  const parts = [[text.slice(0, inline[0]?.index ?? text.length), mod]];
  inline.forEach((m, k) => parts.push([text.slice(m.index, inline[k + 1]?.index ?? text.length), [...mod, m[1]]]));
  for (const [p, at] of parts.flatMap(([t, m]) => pathsIn(t).map((p) => [p, m]))) {
    const to = resolve(at, p);
    if (to && to !== f) { deps.add(to); if (!why.has(f + ">" + to)) why.set(f + ">" + to, p); }
  }
  graph.set(f, deps);
}

// Tarjan's strongly connected components.
let index = 0;
const idx = new Map(), low = new Map(), stack = [], on = new Set(), sccs = [];
function visit(v) {
  idx.set(v, index); low.set(v, index); index++; stack.push(v); on.add(v);
  for (const w of graph.get(v) ?? []) {
    if (!graph.has(w)) continue;
    if (!idx.has(w)) { visit(w); low.set(v, Math.min(low.get(v), low.get(w))); }
    else if (on.has(w)) low.set(v, Math.min(low.get(v), idx.get(w)));
  }
  if (low.get(v) === idx.get(v)) {
    const c = [];
    let w;
    do { w = stack.pop(); on.delete(w); c.push(w); } while (w !== v);
    if (c.length > 1) sccs.push(c);
  }
}
for (const v of graph.keys()) if (!idx.has(v)) visit(v);

const name = (f) => relative(SRC, f);

// The layers (src/lib.rs): a file may import its own layer and those below.
const LAYER = { index: 0, fmt: 0, sort: 0, model: 1, folder: 2, disk: 3, synth: 3, state: 3, app: 4 };
const layerOf = (f) => LAYER[name(f).split("/")[0].replace(/\.rs$/, "")];
const upward = [];
for (const [f, deps] of graph) {
  for (const d of deps) {
    const [a, b] = [layerOf(f), layerOf(d)];
    if (a !== undefined && b !== undefined && b > a && !(name(d) === "lib.rs")) upward.push(`${name(f)} -> ${name(d)}`);
  }
}
if (process.argv.includes("--dot")) {
  console.log("digraph imports {\n  rankdir=LR; node [shape=box, fontsize=10];");
  for (const [f, deps] of graph) for (const d of deps) console.log(`  "${name(f)}" -> "${name(d)}";`);
  console.log("}");
} else {
  const edges = [...graph.values()].reduce((n, d) => n + d.size, 0);
  console.log(`imports: ${graph.size} files, ${edges} uses, ${sccs.length} circle(s), ${upward.length} upward`);
  for (const u of upward) console.log("  upward: " + u);
  for (const c of sccs) {
    console.log("  circle: " + c.map(name).sort().join(" ⇄ "));
    if (process.argv.includes("--why")) for (const f of c) for (const d of graph.get(f)) if (c.includes(d)) console.log(`    ${name(f)} -> ${name(d)}: ${why.get(f + ">" + d)}`);
  }
  process.exit(sccs.length || upward.length ? 1 : 0);
}
