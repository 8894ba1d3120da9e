// `node tools/e2e-summary.mjs chromium firefox webkit`: after `make e2e`, the
// end-to-end tests run, passed and failed per engine (from each engine's TAP
// report, target/e2e-<engine>.tap), and every check an engine's driver could
// not run, by name, with what ran instead (test-results/e2e-skips-<engine>.txt),
// and each test file that failed and then passed alone (tools/e2e-run.mjs).
import { existsSync, readFileSync } from "node:fs";

const engines = process.argv.slice(2);
console.log("\n== end-to-end, per engine");
for (const e of engines) {
  const tap = `target/e2e-${e}.tap`;
  if (!existsSync(tap)) {
    console.log(`${e}: no report (${tap} is missing)`);
    continue;
  }
  const text = readFileSync(tap, "utf8");
  const count = (what) => Number(new RegExp(`^# ${what} (\\d+)$`, "m").exec(text)?.[1] ?? NaN);
  console.log(`${e}: ${count("tests")} tests, ${count("pass")} passed, ${count("fail")} failed, ${count("skipped")} skipped whole`);
  const flaky = `target/e2e-${e}-flaky.txt`;
  if (existsSync(flaky)) for (const l of readFileSync(flaky, "utf8").split("\n").filter(Boolean)) console.log(`  FLAKY: ${l}`);
  const skips = `test-results/e2e-skips-${e}.txt`;
  if (existsSync(skips)) {
    // One line per check, however many times a test met it.
    const lines = [...new Set(readFileSync(skips, "utf8").split("\n").filter(Boolean))];
    for (const l of lines) console.log(`  ${l}`);
  }
}
