// `ENGINE=<engine> node tools/e2e-run.mjs`: the end-to-end suite in one
// engine (run by `make e2e`, under xvfb-run). Every test, and every test
// file as a whole (node's runner applies the limit to both), has a time
// limit, so a browser that died mid-test fails it instead of hanging the run.
// A test file that failed is run once more, alone; one that then passes is
// named as flaky (target/e2e-<engine>-flaky.txt, printed by
// tools/e2e-summary.mjs), never passed over in silence. Exit status: 0 when
// every file passed, on its first run or its retry.
import { spawnSync } from "node:child_process";
import { readFileSync, writeFileSync, rmSync } from "node:fs";

const engine = process.env.ENGINE ?? "chromium";
/** The longest a test file may take (the slowest, tests/e2e/view.test.mjs
 * in WebKit, takes about 5 minutes; a single test at most about a minute). */
const TEST_TIMEOUT_MS = 900_000;

function run(files, tap) {
  const r = spawnSync(process.execPath, [
    "--test", "--test-concurrency=1", `--test-timeout=${TEST_TIMEOUT_MS}`,
    "--test-reporter=spec", "--test-reporter-destination=stdout",
    "--test-reporter=tap", `--test-reporter-destination=${tap}`, ...files,
  ], { stdio: "inherit" });
  return r.status === 0;
}

/** The test files with a failure in a TAP report. */
function failedFiles(tap) {
  const text = readFileSync(tap, "utf8");
  const files = new Set();
  for (const block of text.split(/\n(?=\s*(?:not )?ok \d+ - )/)) {
    if (!/^\s*not ok \d+ - /.test(block)) continue;
    for (const m of block.matchAll(/(tests\/e2e\/[\w.-]+\.test\.mjs)/g)) files.add(m[1]);
  }
  return [...files];
}

const tap = `target/e2e-${engine}.tap`;
const flakyList = `target/e2e-${engine}-flaky.txt`;
rmSync(flakyList, { force: true });
if (run(["tests/e2e/"], tap)) process.exit(0);
const failed = failedFiles(tap);
if (failed.length === 0) process.exit(1);
console.log(`\n== ${engine}: once more, alone: ${failed.join(", ")}`);
const flaky = [];
let still = false;
for (const f of failed) {
  const retryTap = `target/e2e-${engine}-retry-${f.split("/").pop()}.tap`;
  if (run([f], retryTap)) flaky.push(f);
  else still = true;
}
if (flaky.length) writeFileSync(flakyList, flaky.map((f) => `${f}: failed, then passed alone`).join("\n") + "\n");
process.exit(still ? 1 : 0);
