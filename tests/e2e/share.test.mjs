// End-to-end: export (the download is the bytes `ccscope export` prints);
// redaction has its own test (redact.test.mjs).
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { launch, withApp, fixtures, CLI, pickFolder, ROOT } from "./helpers.mjs";
import { MAIN, open } from "./view-helpers.mjs";

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

const cli = (file, format, ...extra) => execFileSync(CLI, ["export", file, "--format", format, ...extra], { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"], maxBuffer: 1 << 28 });

async function exportAs(page, testid) {
  await page.click("[data-testid=export] > summary");
  const [download] = await Promise.all([page.waitForEvent("download"), page.click(`[data-testid=${testid}]`)]);
  const path = await download.path();
  await page.click("[data-testid=export] > summary");
  return { name: download.suggestedFilename(), text: readFileSync(path, "utf8") };
}

test("the downloaded export is what `ccscope export` prints, Markdown and JSON", async () => {
  const root = fixtures();
  for (const rel of [MAIN, "real/tomjnsn__agentlogs/fixtures/claudecode/compact.jsonl"]) {
    const file = join(root, rel);
    await withApp(browser, async ({ page }) => {
      await open(page, file);
      // A file picked alone: its runs beside it were not picked.
      const md = await exportAs(page, "export-md");
      assert.equal(md.name, file.split("/").pop().replace(/\.jsonl$/, ".md"));
      assert.equal(md.text, cli(file, "md", "--no-runs"), `${rel}: Markdown`);
      const json = await exportAs(page, "export-json");
      assert.equal(json.text, cli(file, "json", "--no-runs"), `${rel}: JSON`);
    });
  }
});

test("in a folder, the export nests each subagent run under its call, as `ccscope export` does", async () => {
  const root = fixtures();
  const file = join(root, MAIN);
  await withApp(browser, async ({ page }) => {
    await pickFolder(page, join(root, "synthetic/projects"));
    await page.waitForSelector("[data-testid=sessions]");
    await page.waitForFunction(() => !document.querySelector("[data-testid=survey]"), null, { timeout: 60000 });
    await page.click(`table.sessions tr[data-path$="${MAIN.split("/").pop()}"] a`);
    await page.waitForSelector("[data-testid=viewer] .all-facts", { state: "attached" });
    const md = await exportAs(page, "export-md");
    assert.match(md.text, /<summary>Subagent run agent-a3bf2f2d2858e4d27 · 2 API turns<\/summary>/);
    assert.equal(md.text, cli(file, "md"), "Markdown with the runs");
    const json = await exportAs(page, "export-json");
    assert.equal(json.text, cli(file, "json"), "JSON with the runs");
  });
});

test("a workflow run's agents nest under its Workflow call in the export, as `ccscope export` nests them", async () => {
  // tests/fixtures/workflow: wf_ok's three agents under toolu_wf_ok, wf_live's two under toolu_wf_live.
  const dir = join(ROOT, "tests/fixtures/workflow/projects");
  const file = join(dir, "-tmp-flow/5e0e5e0e-0000-4000-8000-000000000058.jsonl");
  await withApp(browser, async ({ page }) => {
    await pickFolder(page, dir);
    await page.waitForSelector("[data-testid=sessions]");
    await page.waitForFunction(() => !document.querySelector("[data-testid=survey]"), null, { timeout: 60000 });
    await page.click('table.sessions tr[data-path$="5e0e5e0e-0000-4000-8000-000000000058.jsonl"] a');
    await page.waitForSelector("[data-testid=workflow]");
    const md = await exportAs(page, "export-md");
    for (const a of ["wfa1", "wfa2", "wfa3", "wfl1", "ch1"]) assert.match(md.text, new RegExp(`Subagent run agent-${a} `), a);
    assert.equal(md.text, cli(file, "md"), "Markdown with the runs");
    const json = await exportAs(page, "export-json");
    assert.equal(json.text, cli(file, "json"), "JSON with the runs");
  });
});
