// End-to-end: with Redact on, a tree with secrets and names planted in
// prompts, tool output, titles, file and folder names, memory files, meta
// descriptions and `cwd` (tests/fixtures/planted.mjs) shows none of them —
// not in the folder list, either search, the conversation, a run, insights,
// the dashboard, both exports and their file names, the address, or any
// attribute of any element. Off again, the originals are back.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { launch, withApp, pickFolder } from "./helpers.mjs";
import { TMP } from "./view-helpers.mjs";
import { writePlanted, writePlantedAgents, writePlantedHome, SECRETS, TELLS } from "../fixtures/planted.mjs";

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

/** Everything a person could see or copy from the page: its text, every
 * attribute of every element (title, aria-label, href, data-*, …) and the address. */
async function everything(page) {
  return page.evaluate(() => {
    const attrs = [...document.querySelectorAll("*")].flatMap((e) => [...e.attributes].filter((a) => a.name !== "src").map((a) => a.value));
    return [document.body.innerText, ...attrs, location.href, document.title].join("\n");
  });
}

/** The tells of a planted secret or name found in `text`. */
const leaks = (text) => TELLS.filter((t) => text.toLowerCase().includes(t));

async function noLeak(page, where) {
  const seen = await everything(page);
  assert.deepEqual(leaks(seen), [], `${where}: nothing planted shows (text, attributes, address)`);
  return seen;
}

/** Scrolls the conversation's list through, every item drawn once; all it showed. */
async function walkAll(page) {
  let all = "";
  // As a person: once the list is there (a run opened as a transcript is read first).
  await page.waitForSelector("[data-testid=turn-list]");
  await page.evaluate(() => { document.querySelector("[data-testid=turn-list]").scrollTop = 0; });
  for (let i = 0; i < 60; i++) {
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => setTimeout(r, 40))));
    all += await everything(page);
    const end = await page.evaluate(() => {
      const l = document.querySelector("[data-testid=turn-list]");
      if (l.scrollTop + l.clientHeight >= l.scrollHeight - 2) return true;
      l.scrollTop += 250;
      return false;
    });
    if (end) break;
  }
  return all;
}

async function download(page, testid) {
  await page.click("[data-testid=export] > summary");
  const [d] = await Promise.all([page.waitForEvent("download"), page.click(`[data-testid=${testid}]`)]);
  const text = readFileSync(await d.path(), "utf8");
  await page.click("[data-testid=export] > summary");
  return { name: d.suggestedFilename(), text };
}

/** Redact on, then `dir` picked and summed up: its list on screen. */
async function pickRedacted(page, dir) {
  await page.click("[data-testid=redact-toggle]");
  await pickFolder(page, dir);
  await page.waitForSelector("[data-testid=sessions] tbody tr");
  await page.waitForFunction(() => !document.querySelector("[data-testid=survey]"), null, { timeout: 60000 });
}

async function searchFolder(page, query) {
  await page.fill("[data-testid=folder-search]", query);
  await page.press("[data-testid=folder-search]", "Enter");
  await page.waitForFunction((q) => {
    const s = document.querySelector("[data-testid=folder-search-status]");
    return s && s.hasAttribute("data-finished");
  }, query, { timeout: 30000 });
}

test("with Redact on, nothing planted shows anywhere a person could share it from", async () => {
  const projects = writePlanted(join(TMP, "planted"));
  await withApp(browser, async ({ page }) => {
    await pickRedacted(page, projects);
    const list = await noLeak(page, "the folder list");
    assert.match(list, /<user>/, "the user's name is replaced");
    assert.match(list, /<email-\d+>/, "the e-mail in the file's name is replaced");
    // The memory file, shown in the projects panel.
    await page.click("[data-testid=memory-file]");
    await page.waitForSelector("[data-testid=memory]");
    await noLeak(page, "the memory file");
    // The dashboard (titles of the longest and the priciest).
    await page.click("[data-testid=dashboard-toggle]");
    await page.waitForSelector("[data-testid=dashboard]");
    await noLeak(page, "the dashboard");
    await page.click("[data-testid=dashboard-toggle]");
    // Searches whose snippets would cut keys and names in half.
    for (const q of ["key", "home", "jane", "PLANTED", "Bearer", "password"]) {
      await searchFolder(page, q);
      const shown = await noLeak(page, `folder search for ${q}`);
      assert.ok(await page.locator("[data-testid=folder-results] .hit").count() > 0, `${q}: hits are listed`);
      assert.doesNotMatch(shown, / <mark>|<\/mark> /, "no inserted spaces");
    }
    // A hit opens the conversation: the address names it by number.
    await searchFolder(page, "jane");
    // A hit in the conversation itself (its run's file matches too, in whichever order the lanes finish).
    await page.locator('[data-testid=folder-results] li.result-group:not([data-path*="agent-"]) .hit').first().click();
    await page.waitForSelector("[data-testid=viewer] [data-testid=turn-list] article.item");
    assert.match(await page.evaluate(() => location.hash), /^#\/~\d+/, "an opaque address");
    const conv = await walkAll(page);
    assert.deepEqual(leaks(conv), [], "the conversation");
    assert.match(conv, /<secret-\d+>/);
    // The subagent run inline, the full tool output, the in-file search.
    const run = page.locator("[data-testid=run-expand]").first();
    if (await run.count()) { await run.click(); await page.waitForSelector("[data-testid=run-body]"); }
    const full = page.locator("[data-testid=full-output-open]").first();
    if (await full.count()) { await full.click(); await page.waitForSelector("[data-testid=full-output]"); }
    await noLeak(page, "the run and the full output");
    await page.fill("[data-testid=search]", "jane");
    await page.press("[data-testid=search]", "Enter");
    await page.waitForSelector("[data-testid=search-status][data-matches]");
    await noLeak(page, "the in-file search");
    await page.click("[data-testid=insights-toggle]");
    await page.waitForSelector("[data-testid=context-chart]");
    // Files changed: the edited file opened to its diff.
    await page.click("[data-testid=changed-file] .file-head");
    await page.waitForSelector("[data-testid=changed-file] pre.diff");
    await noLeak(page, "insights and the files changed");
    await page.click("[data-testid=insights-toggle]");
    // Both exports, and their file names.
    for (const id of ["export-md", "export-json"]) {
      const d = await download(page, id);
      assert.deepEqual(leaks(d.name + "\n" + d.text), [], `${id}: its name and text`);
      assert.match(d.name, /^email-\d+ secret-\d+\.(md|json)$/, `${id}: ${d.name}`);
    }
    // The run opened as a transcript.
    await page.locator("[data-testid=run-open]").first().click();
    await page.waitForSelector("[data-testid=crumbs] [data-testid=to-call]");
    await walkAll(page).then((t) => assert.deepEqual(leaks(t), [], "the run as a transcript"));
    // Off again: the originals are back, and the address names the path.
    await page.click("[data-testid=redact-toggle]");
    await page.waitForFunction((s) => document.body.innerText.includes(s), SECRETS.key.slice(0, 12), { timeout: 10000 });
    assert.doesNotMatch(await page.evaluate(() => location.hash), /^#\/~/);
  });
});

test("with Redact on, a workflow run, a teammate's message and a background answer show nothing planted", async () => {
  const projects = writePlantedAgents(join(TMP, "planted-agents"));
  await withApp(browser, async ({ page }) => {
    await pickRedacted(page, projects);
    await page.click("[data-testid=sessions] tbody tr a");
    await page.waitForSelector("[data-testid=workflow][data-run=wf_p]");
    // Unfolded: the run's error and the agent's turns.
    await page.click("[data-testid=workflow-error] summary");
    await page.click("[data-testid=workflow] [data-testid=run-expand]");
    await page.waitForSelector("[data-testid=workflow] [data-testid=run-body]");
    const seen = await noLeak(page, "the workflow run, expanded");
    assert.match(seen, /<email-\d+>/, "the run's name says where an e-mail was");
    assert.match(seen, /<secret-\d+>/);
    const all = await walkAll(page);
    assert.deepEqual(leaks(all), [], "the teammate's message and the background answer");
    assert.ok(await page.locator("[data-testid=teammate-message]").count() + await page.locator("[data-testid=task-answer]").count() >= 1, "they were drawn");
    // Off again: the originals are back.
    await page.click("[data-testid=redact-toggle]");
    await page.waitForFunction((s) => document.body.innerText.includes(s), SECRETS.email, { timeout: 10000 });
  });
});

test("with Redact on, a picked ~/.claude's task list, plans, file history, files changed and kinds not understood show nothing planted", async () => {
  const home = writePlantedHome(join(TMP, "planted-home"));
  await withApp(browser, async ({ page }) => {
    await pickRedacted(page, home);
    // The dashboard: files changed most, and the folder's kinds not understood.
    await page.click("[data-testid=dashboard-toggle]");
    await page.waitForSelector("[data-testid=files-changed-most] tr[data-path]");
    await page.waitForSelector("[data-testid=folder-unknown-kind]");
    assert.equal(await page.locator("[data-testid=folder-unknown-kind]").count(), 5, "five kinds, each named by a secret");
    await noLeak(page, "the dashboard's files and kinds not understood");
    await page.click("[data-testid=dashboard-toggle]");
    await page.click("[data-testid=sessions] tbody tr a");
    await page.waitForSelector("[data-testid=turn-list] article.item");
    await page.waitForSelector("[data-testid=unknown-brief]");
    // The task list beside the reading position, unfolded.
    // The conversation's address is opaque (`#/~N`): its line 4 (the TodoWrite call) is that address and `:L4`.
    await page.evaluate(() => { location.hash = location.hash.replace(/:?L\d+$/, "") + ":L4"; });
    await page.waitForFunction(() => document.querySelector("[data-testid=task-strip]")?.dataset.line !== undefined);
    await page.click("[data-testid=task-strip-toggle]");
    await page.waitForSelector("[data-testid=task-strip] [data-testid=task]");
    await noLeak(page, "the task list");
    const all = await walkAll(page);
    assert.deepEqual(leaks(all), [], "the conversation: the plan card, the unknown rows and blocks");
    assert.match(all, /\[block-<secret-\d+> block\]/, "a content block not understood is named, redacted");
    assert.match(all, /\[doc_<secret-\d+> block\]/, "a tool-result block not understood is named, redacted");
    // The insights: task history, plans opened, file history stepped, files changed opened, the list of kinds.
    await page.click("[data-testid=insights-toggle]");
    await page.waitForSelector("[data-testid=task-history] [data-testid=task-change]");
    await page.click("[data-testid=plan-file] .file-head");
    await page.waitForSelector("[data-testid=plan-file-text] .md");
    await page.click("[data-testid=tracked-file] .file-head");
    await page.waitForSelector("[data-testid=tracked-file] pre.diff");
    await page.click("[data-testid=changed-file] .file-head");
    await page.waitForSelector("[data-testid=changed-file] pre.diff");
    await page.waitForSelector("[data-testid=not-understood] [data-testid=unknown-kind]");
    assert.equal(await page.locator("[data-testid=unknown-kind]").count(), 5);
    const seen = await noLeak(page, "the insights: task history, plan file, file history, files changed, not understood");
    assert.match(seen, /<secret-\d+>/);
    // Off again: the originals are back (a record type named by a key).
    await page.click("[data-testid=redact-toggle]");
    await page.waitForFunction((s) => document.body.innerText.includes(s), SECRETS.key, { timeout: 10000 });
  });
});
