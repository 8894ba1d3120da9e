// End-to-end: export (the download is the bytes `ccscope export` prints) and
// redaction (no user name, e-mail or planted key left in what the page shows
// or exports; off again, everything is back).
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { launch, withApp, fixtures, CLI } from "./helpers.mjs";
import { OUT, TMP, MAIN, open } from "./view-helpers.mjs";

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
    await page.setInputFiles("#folder-input", join(root, "synthetic/projects"));
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

test("redaction hides user names, e-mails and planted keys on screen and in exports", async () => {
  const root = fixtures();
  // The synthetic conversation (paths under /Users/alex) with a prompt that
  // plants an e-mail address and keys.
  const planted = join(TMP, "planted.jsonl");
  const secrets = ["alex.doe@example.com", "sk-ant-api03-PLANTEDplantedPLANTED0123", "ghp_PLANTEDplantedPLANTEDplanted0123456", "AKIAPLANTEDEXAMPLE12"];
  const prompt = { type: "user", uuid: "planted-1", timestamp: "2026-09-04T09:03:30.000Z", sessionId: "s",
    message: { role: "user", content: `mail ${secrets[0]} with ${secrets[1]}, token ${secrets[2]} and aws ${secrets[3]} from /home/alex/notes` } };
  const base = readFileSync(join(root, MAIN), "utf8");
  writeFileSync(planted, base + (base.endsWith("\n") ? "" : "\n") + JSON.stringify(prompt) + "\n");
  const hidden = [...secrets, "/Users/alex", "/home/alex", /\balex\b/];
  const leaks = (text) => hidden.filter((h) => (typeof h === "string" ? text.includes(h) : h.test(text))).map(String);
  await withApp(browser, async ({ page }) => {
    await open(page, planted);
    const before = await page.evaluate(() => document.body.innerText);
    assert.ok(leaks(before).length > 0, "without redaction the names show");
    await page.click("[data-testid=redact-toggle]");
    // Scroll through the whole list so every item is drawn once; keep what was shown.
    const seen = await page.evaluate(async () => {
      const l = document.querySelector("[data-testid=turn-list]");
      const shown = () => document.body.innerText + " " + [...document.querySelectorAll("[title],[aria-label]")].map((e) => (e.getAttribute("title") ?? "") + " " + (e.getAttribute("aria-label") ?? "")).join(" ");
      let all = "";
      for (let i = 0; i < 80; i++) {
        await new Promise((r) => requestAnimationFrame(() => setTimeout(r, 30)));
        all += shown();
        if (l.scrollTop + l.clientHeight >= l.scrollHeight - 2) break;
        l.scrollTop += 300;
      }
      return all;
    });
    assert.deepEqual(leaks(seen), [], "nothing of the hidden in the DOM's text and titles");
    assert.match(seen, /<email-1>/);
    assert.match(seen, /\/Users\/<user>\/code\/app/);
    await page.click("[data-testid=insights-toggle]");
    await page.waitForSelector("[data-testid=context-chart]");
    assert.deepEqual(leaks(await page.evaluate(() => document.body.innerText)), [], "nor in the insights");
    await page.click("[data-testid=insights-toggle]");
    const md = await exportAs(page, "export-md");
    assert.deepEqual(leaks(md.text), [], "nor in the export");
    assert.match(md.text, /<secret-\d+>/);
    await page.screenshot({ path: join(OUT, "redacted.png") });
    // Remembered across a reload.
    assert.equal(await page.evaluate(() => localStorage.getItem("ccscope-redact")), "on");
    // Off again: the originals are back.
    await page.click("[data-testid=redact-toggle]");
    const back = await page.evaluate(() => document.body.innerText);
    assert.ok(back.includes(secrets[0]), "the original text is back");
  });
});
