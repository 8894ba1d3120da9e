// End-to-end: the folder dashboard against `ccscope report DIR`, and its
// figures as links to the conversations behind them.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { launch, withApp, fixtures, openFolder, CLI, ROOT } from "./helpers.mjs";
import { OUT } from "./view-helpers.mjs";

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

function report(dir) {
  return JSON.parse(execFileSync(CLI, ["report", dir], { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"], maxBuffer: 1 << 28 }));
}

async function dashboard(page) {
  return page.$eval("[data-testid=dashboard]", (e) => ({ ...e.dataset }));
}

const listed = (page) => page.locator("table.sessions tbody tr").count();

test("the dashboard's totals are the sum of `ccscope report` over the folder", async () => {
  const root = fixtures();
  for (const [rel, revealDeleted] of [["real/daaain__claude-code-log/test/test_data/real_projects", false], ["synthetic/projects", true]]) {
    const dir = join(root, rel);
    const want = report(dir);
    const t = want.totals;
    await withApp(browser, async ({ page }) => {
      await openFolder(page, dir);
      // The deleted conversation is in the CLI's report: show it in the list too.
      if (revealDeleted) await page.click("[data-testid=show-deleted]");
      await page.click("[data-testid=dashboard-toggle]");
      const got = await dashboard(page);
      assert.equal(Number(got.conversations), t.conversations, `${rel}: conversations`);
      assert.equal(Number(got.turns), t.api_turns, `${rel}: API turns`);
      assert.equal(Number(got.toolCalls), t.tool_calls, `${rel}: tool calls`);
      assert.ok(Math.abs(Number(got.active) - t.active_seconds) < 0.01, `${rel}: active ${got.active} vs ${t.active_seconds}`);
      // (An API message found in two files is counted once: what the copies add comes off.)
      const sumCost = want.conversations.map((c) => c.report.cost_usd ?? 0).reduce((a, b) => a + b, 0) - (t.duplicates.cost_usd ?? 0);
      assert.ok(Math.abs(Number(got.cost) - sumCost) < 1e-6, `${rel}: cost ${got.cost} vs ${sumCost}`);
      // Subagent runs are real spend: counted apart from the conversations' own figures, as `ccscope report` does.
      const runs = await page.evaluate(() => {
        const e = document.querySelector("[data-testid=dashboard-runs]");
        return e && { runs: Number(e.dataset.runs), cost: e.dataset.cost === undefined ? null : Number(e.dataset.cost) };
      });
      if (rel.startsWith("synthetic")) assert.ok(t.runs.runs > 0, "the synthetic tree has runs");
      if (t.runs.runs === 0) assert.equal(runs, null, `${rel}: no runs, no runs figure`);
      else {
        assert.equal(runs.runs, t.runs.runs, `${rel}: runs`);
        assert.equal(runs.cost === null, t.runs.cost_usd === null, `${rel}: a runs cost where the CLI has one`);
        if (runs.cost !== null) assert.ok(Math.abs(runs.cost - t.runs.cost_usd) < 1e-6, `${rel}: runs cost ${runs.cost} vs ${t.runs.cost_usd}`);
      }
      const days = await page.locator("[data-testid=calendar] rect.day[role=button]").count();
      assert.equal(days, t.days.filter((d) => d.date).length, `${rel}: one active cell per day with activity`);
      // The files changed most: the totals' first ten, as the CLI folds them.
      const files = await page.$$eval("[data-testid=files-changed-most] tbody tr", (trs) => trs.map((tr) => [tr.dataset.path, Number(tr.dataset.changes), Number(tr.dataset.conversations)]));
      assert.deepEqual(files, t.files.slice(0, 10).map((f) => [f.path, f.changes, f.conversations]), `${rel}: files changed most`);
      if (rel.startsWith("real")) assert.ok(files.length > 0, "the real tree has edits");
      const byProject = await page.$$eval("[data-testid=by-project] tbody tr", (trs) => Object.fromEntries(trs.map((tr) => [tr.dataset.project, Number(tr.dataset.turns)])));
      assert.deepEqual(byProject, Object.fromEntries(t.projects.map((p) => [p.project, p.api_turns])), `${rel}: turns by project`);
    });
  }
});

test("every figure narrows the list to the conversations behind it", async () => {
  const root = fixtures();
  const dir = join(root, "real/daaain__claude-code-log/test/test_data/real_projects");
  const t = report(dir).totals;
  await withApp(browser, async ({ page }) => {
    await page.setViewportSize({ width: 1300, height: 1400 });
    await openFolder(page, dir);
    await page.click("[data-testid=dashboard-toggle]");
    // A project: the list and the dashboard show only it.
    const project = t.projects[1];
    await page.click(`[data-testid=by-project] tr[data-project="${project.project}"] button`);
    await page.waitForFunction((n) => document.querySelector("[data-testid=dashboard]").dataset.conversations === String(n), project.conversations);
    assert.equal(await listed(page), project.conversations);
    assert.equal(Number((await dashboard(page)).turns), project.api_turns);
    await page.selectOption("[data-testid=list-project]", "");
    // The tool that fails most: the conversations where it failed.
    const tool = t.tools[0];
    await page.click(`[data-testid=failing-tools] tr[data-tool="${tool.name}"] button`);
    await page.waitForSelector("[data-testid=list-tool-failing]");
    assert.equal(await listed(page), tool.failing_conversations, `conversations where ${tool.name} failed`);
    await page.click("[data-testid=list-tool-failing] button");
    // A day of the calendar: the conversations active that day.
    const day = t.days.filter((d) => d.date).sort((a, b) => b.active_seconds - a.active_seconds)[0];
    await page.click(`[data-testid=calendar] rect[data-date="${day.date}"]`);
    await page.waitForFunction((d) => document.querySelector("[data-testid=list-from]").value === d, day.date);
    assert.equal(await page.inputValue("[data-testid=list-to]"), day.date);
    assert.ok(await listed(page) >= 1);
    const onDay = await dashboard(page);
    assert.ok(Number(onDay.turns) >= day.api_turns, "the conversations active that day hold that day's turns");
    await page.screenshot({ path: join(OUT, "dashboard-day.png") });
  });
});

test("screenshots of the dashboard, light and dark", async () => {
  const dir = join(fixtures(), "real/daaain__claude-code-log/test/test_data/real_projects");
  for (const scheme of ["light", "dark"]) {
    await withApp(browser, async ({ page }) => {
      await page.setViewportSize({ width: 1300, height: 1300 });
      await openFolder(page, dir);
      await page.click("[data-testid=dashboard-toggle]");
      await page.locator("[data-testid=dashboard]").scrollIntoViewIfNeeded();
      assert.ok(await page.locator("[data-testid=longest] li").count() >= 1);
      await page.screenshot({ path: join(OUT, `dashboard-${scheme}.png`) });
    }, { colorScheme: scheme });
  }
});

test("a resumed session's copied messages are counted once in the folder's totals, and the page says how many", async () => {
  const dir = join(ROOT, "tests/fixtures/resumed");
  const t = report(dir).totals;
  assert.equal(t.duplicates.messages, 2);
  await withApp(browser, async ({ page }) => {
    await openFolder(page, dir);
    await page.click("[data-testid=dashboard-toggle]");
    await page.waitForSelector("[data-testid=dashboard-duplicates]");
    const got = await dashboard(page);
    assert.equal(Number(got.turns), t.api_turns, "3 API messages, not 5");
    assert.ok(Math.abs(Number(got.cost) - t.cost_usd) < 1e-9, `cost ${got.cost} vs ${t.cost_usd}`);
    assert.equal(await page.getAttribute("[data-testid=dashboard-duplicates]", "data-messages"), "2");
    assert.match(await page.textContent("[data-testid=dashboard-duplicates]"), /^2 API messages appear in more than one file/);
  });
});
