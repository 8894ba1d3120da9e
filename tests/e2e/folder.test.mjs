// End-to-end: a whole projects folder, picked through the folder input (and
// dropped, through a FileSystemEntry tree), against `ccscope sessions`.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { readFileSync, readdirSync, statSync, rmSync, mkdirSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { launch, withApp, fixtures, openFolder, CLI, ROOT } from "./helpers.mjs";
import { OUT, itemWith } from "./view-helpers.mjs";

const TREES = {
  synthetic: "synthetic/projects",
  daaain: "real/daaain__claude-code-log/test/test_data/real_projects",
  kimuson: "real/d-kimuson__claude-code-viewer/mock-global-claude-dir/projects",
};

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

/** `ccscope sessions DIR`, one object per conversation. */
function sessions(dir) {
  return execFileSync(CLI, ["sessions", dir], { encoding: "utf8", maxBuffer: 1 << 26 }).trim().split("\n").map((l) => JSON.parse(l));
}

const count = (n) => n.toLocaleString("en-US");

/** The list's rows: path (without the picked folder's name) → cells. */
async function rows(page) {
  return page.$$eval("table.sessions tbody tr", (trs) => Object.fromEntries(trs.map((tr) => {
    const cell = (c) => tr.querySelector(`td[data-col=${c}]`)?.textContent ?? null;
    const path = tr.dataset.path.split("/").slice(1).join("/");
    return [path, { title: tr.querySelector("[data-testid=conv-title]").textContent, deleted: tr.querySelector("[data-testid=deleted]")?.textContent ?? null,
      turns: cell("Turns"), tools: cell("Tools"), failures: cell("Failures"), compactions: cell("Compactions"), subagents: cell("Subagents") }];
  })));
}

for (const [name, rel] of Object.entries(TREES)) {
  test(`the ${name} folder lists every conversation with the facts ccscope sessions gives`, async () => {
    const dir = join(fixtures(), rel);
    const want = sessions(dir);
    assert.ok(want.length >= 3, `${name}: the CLI lists its conversations`);
    await withApp(browser, async ({ page }) => {
      await openFolder(page, dir);
      const deleted = want.filter((w) => w.deleted).length;
      if (deleted) await page.click("[data-testid=show-deleted]");
      const shown = await rows(page);
      assert.deepEqual(Object.keys(shown).sort(), want.map((w) => w.path).sort(), `${name}: every conversation, by path`);
      for (const w of want) {
        const s = shown[w.path];
        if (w.title_source && w.title_source !== "prompt") assert.equal(s.title, w.title, `${w.path}: title`);
        if (w.title_source === "prompt") assert.ok(s.title.length > 0, `${w.path}: a prompt title`);
        assert.equal(s.turns, count(w.stats.assistant_messages), `${w.path}: API turns`);
        assert.equal(s.tools, count(w.stats.tool_calls), `${w.path}: tool calls`);
        assert.equal(s.failures, count(w.stats.failed_steps), `${w.path}: failures`);
        assert.equal(s.compactions, count(w.stats.compactions), `${w.path}: compactions`);
        assert.equal(s.subagents, count(w.stats.subagents.length + w.legacy_subagents.length), `${w.path}: subagent runs`);
        assert.equal(s.deleted !== null, w.deleted, `${w.path}: deleted mark`);
        if (w.deleted) assert.equal(s.deleted, `deleted in the desktop app on ${w.deleted_at.slice(0, 16).replace("T", " ")} UTC`);
      }
    });
  });
}

test("deleted conversations are hidden, counted and revealable", async () => {
  await withApp(browser, async ({ page }) => {
    await openFolder(page, join(fixtures(), TREES.synthetic));
    assert.match(await page.textContent("[data-testid=deleted-count]"), /^1 deleted in the desktop app — show$/);
    assert.equal(await page.locator("[data-testid=deleted]").count(), 0, "hidden by default");
    assert.equal(await page.locator("table.sessions tbody tr").count(), 2);
    await page.click("[data-testid=show-deleted]");
    assert.equal(await page.locator("table.sessions tbody tr").count(), 3);
    assert.equal(await page.textContent("[data-testid=deleted]"), "deleted in the desktop app on 2026-09-01 11:00 UTC");
    for (const scheme of ["light", "dark"]) {
      await page.emulateMedia({ colorScheme: scheme });
      await page.screenshot({ path: join(OUT, `folder-synthetic-${scheme}.png`), fullPage: true });
    }
  });
});

test("subagents show under their call, linked as contract v1 says; the undecidable ones say why", async () => {
  const dir = join(fixtures(), TREES.synthetic);
  const want = sessions(dir).find((s) => s.title === "app build fix").stats.subagents;
  await withApp(browser, async ({ page }) => {
    await openFolder(page, dir);
    await page.click('table.sessions a:has-text("app build fix")');
    await page.waitForSelector("[data-testid=runs-fact]");
    // Line links carry the conversation's path: the address says which file and line.
    const href = await page.getAttribute("[data-testid=turn-list] article.item a.ln", "href");
    assert.match(href, /^#\/projects\/-Users-alex-code-app\/d3cb2e5d-477b-4f6b-a7e5-1f4ed60e6538\.jsonl:L\d+$/);
    const declined = await page.$$eval("[data-testid=run-declined]", (ds) => ds.map((d) => [d.dataset.agent, d.textContent]));
    assert.deepEqual(declined.map(([a]) => a).sort(), want.filter((w) => w.link === "none").map((w) => w.agent_id).sort());
    for (const [, text] of declined) assert.match(text, /unplaced: 2 Agent calls overlap in time/);
    for (const w of want.filter((w) => w.link !== "none")) {
      const item = await itemWith(page, `agent-${w.agent_id}`);
      const card = item.locator(`[data-testid=run][data-agent="${w.agent_id}"]`);
      assert.equal(await card.getAttribute("data-link"), w.link, `agent-${w.agent_id} linked by ${w.link}`);
    }
    // Expand the meta-linked run inline: its own turns appear under the call.
    const meta = want.find((w) => w.link === "meta");
    const card = (await itemWith(page, `agent-${meta.agent_id}`)).locator(`[data-testid=run][data-agent="${meta.agent_id}"]`);
    await card.locator("[data-testid=run-expand]").click();
    await card.locator("[data-testid=run-body] article.item").first().waitFor();
    assert.match(await card.locator("[data-testid=run-body]").textContent(), /Audit src\/ for undefined names/);
    await card.scrollIntoViewIfNeeded();
    for (const scheme of ["light", "dark"]) {
      await page.emulateMedia({ colorScheme: scheme });
      await page.screenshot({ path: join(OUT, `subagent-inline-${scheme}.png`) });
    }
    // And as a transcript of its own, with a way back to its call.
    await card.locator("[data-testid=run-open]").click();
    await page.waitForSelector("[data-testid=crumbs] [data-testid=to-call]");
    await page.waitForSelector("[data-testid=viewer] .all-facts", { state: "attached" });
    assert.match(await page.evaluate(() => location.hash), new RegExp(`agent-${meta.agent_id}\\.jsonl`));
    // Its own facts: titled by its description (its meta file), and the runs it spawned (none), not its parent's.
    assert.equal(await page.textContent("[data-testid=title]"), "Audit crate");
    assert.equal(await page.textContent("[data-fact=runs] .label"), "Runs it spawned");
    assert.equal(await page.textContent("[data-fact=runs] .value"), "none");
    await page.click("[data-testid=to-call]");
    await page.waitForFunction(() => document.querySelector("[data-testid=search-status]")?.dataset.matches > 0);
    const current = await page.$eval("article.item.current", (a) => a.textContent);
    assert.match(current, /Audit crate/, "back at the Agent call that spawned it");
  });
});

test("legacy root-level agent files are linked to their conversation", async () => {
  const dir = join(fixtures(), TREES.daaain);
  const want = sessions(dir).find((s) => s.legacy_subagents.some((l) => l.link === "result"));
  const linked = want.legacy_subagents.find((l) => l.link === "result");
  await withApp(browser, async ({ page }) => {
    await openFolder(page, dir);
    await page.click(`table.sessions tr[data-path$="${want.path}"] a`);
    await page.waitForSelector("[data-testid=runs-fact]");
    const card = (await itemWith(page, `agent-${linked.agent_id}`)).locator(`[data-testid=run][data-agent="${linked.agent_id}"]`);
    assert.equal(await card.getAttribute("data-link"), "result");
    assert.match(await card.locator("[data-testid=run-link]").textContent(), /legacy agent file/);
  });
});

test("a persisted output opens from tool-results/, and MEMORY.md is shown", async () => {
  const dir = join(fixtures(), TREES.synthetic);
  const full = readFileSync(join(dir, "-Users-alex-code-app/d3cb2e5d-477b-4f6b-a7e5-1f4ed60e6538/tool-results/toolu_0147a583d118e46e11ae28d8.txt"), "utf8");
  await withApp(browser, async ({ page }) => {
    await openFolder(page, dir);
    await page.click("[data-testid=memory-file]");
    assert.match(await page.textContent("[data-testid=memory]"), /alex prefers small commits/);
    await page.click('table.sessions a:has-text("app build fix")');
    const item = await itemWith(page, "tool-results/toolu_0147a583d118e46e11ae28d8.txt");
    await item.locator("[data-testid=full-output-open]").click();
    const out = item.locator("[data-testid=full-output]");
    await out.waitFor();
    // Unfolded a piece at a time, to its end.
    await out.locator("[data-testid=unfold]").click();
    while (await out.locator("[data-testid=unfold-more]").count()) await out.locator("[data-testid=unfold-more]").click();
    assert.equal((await out.locator("pre.output").textContent()).trim(), full.trim(), "the whole file, as text");
  });
});

test("a search across the folder finds a string in exactly the files that hold it, and opens the hit", async () => {
  const dir = join(fixtures(), TREES.daaain);
  const needle = "TodoWrite";
  // The files that hold it, found on disk (conversations and runs; deleted ones are hidden).
  const holders = [];
  const walk = (d) => { for (const n of readdirSync(d)) { const p = join(d, n); if (statSync(p).isDirectory()) walk(p); else if (p.endsWith(".jsonl") && readFileSync(p, "latin1").toLowerCase().includes(needle.toLowerCase())) holders.push(relative(dir, p)); } };
  walk(dir);
  // Legacy root-level agent files are runs of a conversation only when linked by session; count what the page searches.
  const searched = new Set(sessions(dir).map((s) => s.path));
  const want = holders.filter((p) => searched.has(p)).sort();
  assert.ok(want.length >= 2, `the needle is in several conversations (${want.length})`);
  await withApp(browser, async ({ page }) => {
    await openFolder(page, dir);
    await page.fill("[data-testid=folder-search]", needle.toLowerCase());
    await page.press("[data-testid=folder-search]", "Enter");
    await page.waitForSelector("[data-testid=folder-search-status][data-finished]");
    const got = await page.$$eval("[data-testid=folder-results] .result-group", (gs) => gs.map((g) => g.dataset.path.split("/").slice(1).join("/")));
    assert.deepEqual(got.filter((p) => searched.has(p)).sort(), want, "exactly the conversations that hold it");
    const hit = page.locator("[data-testid=folder-results] button.hit").first();
    const line = Number(await hit.getAttribute("data-line"));
    await hit.click();
    await page.waitForSelector("[data-testid=viewer] .all-facts", { state: "attached" });
    await page.waitForFunction(() => document.querySelector("[data-testid=search-status]")?.dataset.matches > 0);
    const cur = await page.$eval("article.item.current", (a) => ({ line: Number(a.dataset.line), hit: a.classList.contains("hit") }));
    assert.ok(cur.hit && cur.line <= line, `opened at the hit (item from line ${cur.line}, hit on ${line})`);
    // Back to the list, where it was.
    await page.click("[data-testid=back]");
    await page.waitForSelector("[data-testid=sessions]");
  });
});

test("a dropped folder is walked entry by entry, batches and all; what cannot be read is named", async () => {
  const dir = join(fixtures(), TREES.kimuson);
  const want = sessions(dir).map((s) => s.path).sort();
  // A FileSystemEntry tree in the page with the fixture's files (Chromium
  // cannot synthesise a dropped directory); readEntries answers in batches of 2.
  const files = [];
  const walk = (d) => { for (const n of readdirSync(d)) { const p = join(d, n); if (statSync(p).isDirectory()) walk(p); else files.push([relative(dir, p), readFileSync(p, "base64")]); } };
  walk(dir);
  await withApp(browser, async ({ page }) => {
    await page.evaluate((files) => {
      const dirEntry = (path, kids) => ({ isDirectory: true, isFile: false, name: path.split("/").pop(), fullPath: "/" + path,
        createReader: () => { let at = 0; return { readEntries: (ok) => setTimeout(() => { ok(kids.slice(at, at + 2)); at += 2; }) }; } });
      const fileEntry = (path, b64) => ({ isDirectory: false, isFile: true, name: path.split("/").pop(), fullPath: "/" + path,
        file: (ok) => setTimeout(() => ok(new File([Uint8Array.from(atob(b64), (c) => c.charCodeAt(0))], path.split("/").pop()))) });
      const tree = {};
      for (const [p, b] of files) tree["projects/" + p] = b;
      const build = (prefix) => {
        const names = new Set(Object.keys(tree).filter((p) => p.startsWith(prefix + "/")).map((p) => p.slice(prefix.length + 1).split("/")[0]));
        return [...names].map((n) => { const p = `${prefix}/${n}`; return p in tree ? fileEntry(p, tree[p]) : dirEntry(p, build(p)); });
      };
      // A file the browser will not hand over and a folder it will not list.
      const root = dirEntry("projects", [...build("projects"),
        { isDirectory: false, isFile: true, name: "gone.jsonl", fullPath: "/projects/gone.jsonl", file: (ok, err) => setTimeout(() => err(new DOMException("gone", "NotFoundError"))) },
        { isDirectory: true, isFile: false, name: "locked", fullPath: "/projects/locked", createReader: () => ({ readEntries: (ok, err) => setTimeout(() => err(new DOMException("no", "SecurityError"))) }) }]);
      DataTransferItem.prototype.webkitGetAsEntry = function () { return root; };
      const dt = new DataTransfer();
      dt.items.add(new File(["x"], "projects"));
      const target = document.querySelector(".page");
      target.dispatchEvent(new DragEvent("dragover", { dataTransfer: dt, bubbles: true, cancelable: true }));
      target.dispatchEvent(new DragEvent("drop", { dataTransfer: dt, bubbles: true, cancelable: true }));
    }, files);
    await page.waitForSelector("[data-testid=sessions]");
    await page.waitForFunction(() => !document.querySelector("[data-testid=survey]"), null, { timeout: 60000 });
    const shown = await page.$$eval("table.sessions tbody tr", (trs) => trs.map((t) => t.dataset.path.split("/").slice(1).join("/")).sort());
    assert.deepEqual(shown, want);
    assert.equal(await page.textContent(".folder-name"), "projects");
    const notice = await page.textContent("[data-testid=notice]");
    assert.match(notice, /2 entries of the dropped folder could not be read and were left out: /);
    assert.match(notice, /projects\/gone\.jsonl/);
    assert.match(notice, /projects\/locked/);
  });
});

test("links in doubt say so: a meta naming a missing call, two metas on one call, sidecars that are not JSON", async () => {
  const dir = join(ROOT, "tests/fixtures/doubts/projects");
  await withApp(browser, async ({ page }) => {
    await openFolder(page, dir);
    // The deleted conversation whose marker is not JSON: named, not dropped.
    await page.click("[data-testid=show-deleted]");
    const c2 = page.locator('table.sessions tr[data-path$="c2.jsonl"]');
    assert.match(await c2.locator("[data-testid=problems]").innerText(), /c2\.desktop-released\.json: not JSON/);
    await page.click('table.sessions tr[data-path$="c1.jsonl"] a');
    await page.waitForSelector("[data-testid=runs-fact]");
    const fact = await page.innerText("[data-testid=runs-fact]");
    assert.match(fact, /3 under their calls/);
    assert.match(fact, /agent-ccc unplaced: its meta file names the call t_missing, which is not in this conversation/);
    // Both runs claiming t1 sit under it, each saying so.
    const t1 = await itemWith(page, "first audit");
    const cards = t1.locator("[data-testid=run]");
    assert.deepEqual(await cards.evaluateAll((cs) => cs.map((c) => c.dataset.agent)), ["aaa", "bbb"]);
    assert.match(await cards.first().locator("[data-testid=run-doubt]").innerText(), /agent-bbb also claims this call/);
    // The run whose meta is not JSON: placed by the clock, and it says so.
    const t2 = await itemWith(page, "second audit");
    const ddd = t2.locator('[data-testid=run][data-agent="ddd"]');
    assert.equal(await ddd.getAttribute("data-link"), "clock");
    assert.match(await ddd.locator("[data-testid=run-doubt]").innerText(), /its meta file is not JSON/);
    // The unplaced run opens as a transcript of its own.
    await page.click('[data-testid=run-declined][data-agent="ccc"] [data-testid=run-unplaced-open]');
    await page.waitForFunction(() => document.querySelector("[data-testid=crumbs]")?.innerText.includes("subagent ccc"));
    await page.waitForSelector("[data-testid=turn-list] article.item");
    assert.match(await page.innerText("[data-testid=turn-list]"), /go ccc/);
  });
});

test("a folder-search hit opens with its query in the file's search box; Esc clears both; the list keeps its place", async () => {
  const dir = join(fixtures(), TREES.daaain);
  await withApp(browser, async ({ page }) => {
    await page.setViewportSize({ width: 1200, height: 600 });
    await openFolder(page, dir);
    // Scrolled down the list, a conversation opened and the breadcrumb back: the same place.
    await page.evaluate(() => window.scrollTo(0, 700));
    const at = await page.evaluate(() => window.scrollY);
    assert.ok(at > 300, `the list scrolls (${at})`);
    const row = await page.evaluate(() => {
      const rows = [...document.querySelectorAll("table.sessions tbody tr")];
      const r = rows.find((tr) => tr.getBoundingClientRect().top > 0);
      return r.dataset.path;
    });
    // The way back stays where it first shows, from the click to the full view
    // (laid out as the landing page while the read began, it moved, and a click could miss it).
    await page.evaluate(() => {
      window.__backAt = [];
      new MutationObserver(() => {
        const r = document.querySelector("[data-testid=back]")?.getBoundingClientRect();
        const at = r && `${Math.round(r.left)},${Math.round(r.top)}`;
        if (at && window.__backAt.at(-1) !== at) window.__backAt.push(at);
      }).observe(document.body, { subtree: true, childList: true, attributes: true });
    });
    await page.click(`table.sessions tr[data-path="${row}"] a`);
    await page.waitForSelector("[data-testid=viewer] .all-facts", { state: "attached" });
    const backAt = await page.evaluate(() => window.__backAt);
    assert.equal(backAt.length, 1, `"All conversations" stays in one place: ${backAt.join(" then ")}`);
    await page.click("[data-testid=back]");
    await page.waitForFunction(() => !document.querySelector(".browser-slot[hidden]"));
    await page.waitForFunction((y) => Math.abs(window.scrollY - y) < 2, at, { timeout: 5000 });
    // A hit opens its conversation with the query in the search box and the counts.
    await page.fill("[data-testid=folder-search]", "cache");
    await page.press("[data-testid=folder-search]", "Enter");
    await page.waitForSelector("[data-testid=folder-search-status][data-finished]");
    const hitText = await page.evaluate(() => document.querySelector("[data-testid=folder-results] .hit")?.closest("li")?.textContent?.slice(0, 300));
    await page.locator("[data-testid=folder-results] .hit").first().click();
    await page.waitForSelector("[data-testid=search-status][data-matches]");
    assert.equal(await page.inputValue("[data-testid=search]"), "cache", "the query is in the file's search box");
    // The counts, once the search in force has ended (it runs again when
    // the view is rebuilt): more than none.
    const dbg = () => page.evaluate(() => `${location.hash} | ${document.querySelector("[data-testid=file-name]")?.textContent} | ${document.querySelector("[data-testid=search-status]")?.textContent} | ${document.querySelector("[data-testid=turn-list]")?.dataset.count}`);
    await page.waitForFunction(() => Number(document.querySelector("[data-testid=search-status]")?.dataset.matches ?? -1) > 0, null, { timeout: 10000 })
      .catch(async () => assert.fail(`the hit (${hitText}) opened with no match: ${await dbg()}`));
    // Esc in the box clears the search and its counts.
    await page.focus("[data-testid=search]");
    await page.keyboard.press("Escape");
    await page.waitForFunction(() => !document.querySelector("[data-testid=search-status]"));
    assert.equal(await page.inputValue("[data-testid=search]"), "", "the box is empty");
  });
});

test("files picked together open as a folder: their list, a conversation, its search and keys", async () => {
  const dir = join(fixtures(), "synthetic/projects/-Users-alex-code-app");
  const files = ["d3cb2e5d-477b-4f6b-a7e5-1f4ed60e6538.jsonl", "736f7e77-f7fe-47f9-a81a-34c8baf2c7f1.jsonl", "27e26b74-d9f6-4aa9-afff-37a69f7cb55e.jsonl"].map((f) => join(dir, f));
  await withApp(browser, async ({ page }) => {
    await page.setInputFiles("#file-input", files);
    await page.waitForFunction((n) => document.querySelectorAll("table.sessions tbody tr").length === n && !document.querySelector("[data-testid=survey]"), files.length, { timeout: 60000 });
    const titles = await page.$$eval("[data-testid=conv-title]", (ts) => ts.map((t) => t.textContent).sort());
    assert.ok(titles.includes("app build fix"), `titles ${titles}`);
    await page.click('table.sessions tr[data-path$="d3cb2e5d-477b-4f6b-a7e5-1f4ed60e6538.jsonl"] a');
    await page.waitForSelector("[data-testid=turn-list] article.item");
    await page.fill("[data-testid=search]", "error");
    await page.press("[data-testid=search]", "Enter");
    await page.waitForFunction(() => Number(document.querySelector("[data-testid=search-status]")?.dataset.matches ?? 0) > 0);
    await page.focus("[data-testid=turn-list]");
    const before = await page.evaluate(() => document.querySelector("article.item.current")?.dataset.line ?? null);
    await page.keyboard.press("j");
    await page.waitForFunction((b) => (document.querySelector("article.item.current")?.dataset.line ?? null) !== b, before);
  });
});

test("a project is labelled by the directory its name encodes; other working directories its files name are said beside it", async () => {
  await withApp(browser, async ({ page }) => {
    await openFolder(page, join(fixtures(), TREES.daaain));
    const label = (name) => page.evaluate((n) => {
      const li = document.querySelector(`[data-testid=projects] li[data-project="${n}"]`);
      return { dir: li.querySelector(".project-dir").textContent, cwds: li.querySelector("[data-testid=project-cwds]")?.textContent ?? null };
    }, name);
    // Its files start in /Users/dain/workspace/danieldemmel.me-next: the dot survives (decoding the name would make it a slash).
    assert.deepEqual(await label("-Users-dain-workspace-danieldemmel-me-next"), { dir: "/Users/dain/workspace/danieldemmel.me-next", cwds: null });
    // Its one file was written in /home/user/project: the folder's own name labels it.
    assert.deepEqual(await label("-experiments-ideas"), { dir: "/experiments/ideas", cwds: "worked in /home/user/project" });
    assert.deepEqual(await label("-src-experiments-claude_p"), { dir: "/src/experiments/claude_p", cwds: null });
  });
});

test("a conversation's insights give each run's tokens and cost, and its cost with its runs", async () => {
  const dir = join(fixtures(), TREES.synthetic);
  const runs = execFileSync(CLI, ["report", dir], { encoding: "utf8", maxBuffer: 1 << 28 });
  const folderRuns = JSON.parse(runs).totals.runs;
  await withApp(browser, async ({ page }) => {
    await openFolder(page, dir);
    await page.click('table.sessions tr[data-path$="d3cb2e5d-477b-4f6b-a7e5-1f4ed60e6538.jsonl"] a');
    await page.waitForSelector("[data-testid=viewer] .all-facts", { state: "attached" });
    await page.click("[data-testid=insights-toggle]");
    await page.waitForSelector("[data-testid=run-stats]");
    const rows = await page.$$eval("[data-testid=run-stats] tbody tr", (trs) => trs.map((tr) => ({ agent: tr.dataset.agent, cost: tr.dataset.cost === undefined ? null : Number(tr.dataset.cost) })));
    assert.ok(rows.length > 0 && rows.length <= folderRuns.runs, `${rows.length} runs of the folder's ${folderRuns.runs}`);
    const own = Number(await page.getAttribute("[data-testid=total-cost]", "data-cost"));
    const withRuns = Number(await page.getAttribute("[data-testid=cost-with-runs]", "data-cost"));
    const sum = own + rows.reduce((a, r) => a + (r.cost ?? 0), 0);
    assert.ok(Math.abs(withRuns - sum) < 1e-9, `with runs ${withRuns} = own ${own} + runs`);
    assert.ok(rows.some((r) => r.cost > 0), "a run with a price");
    assert.match(await page.textContent("[data-testid=cost-with-runs]"), /^With its \d+ runs?: \$/);
  });
});

test("runs that spawn runs sit under their calls inside their parent runs, three levels deep, each saying its depth", async () => {
  // tests/fixtures/nested: toolu_n0 → run aaa1, its toolu_n1 → bbb2, its toolu_n2 → ccc3.
  await withApp(browser, async ({ page }) => {
    await openFolder(page, join(ROOT, "tests/fixtures/nested/projects"));
    await page.click('table.sessions tr[data-path$="5e0e5e0e-0000-4000-8000-000000000057.jsonl"] a');
    await page.waitForSelector("[data-testid=run][data-agent=aaa1]");
    assert.equal(await page.getAttribute("[data-testid=run][data-agent=aaa1]", "data-depth"), "1");
    // Every run is under its call: none is unplaced, and only the first sits in the conversation itself.
    await page.waitForSelector("[data-testid=runs-fact]", { state: "attached" });
    assert.equal(await page.evaluate(() => document.querySelector("[data-testid=runs-fact]").textContent), "3 under their calls", "no run is unplaced");
    assert.equal(await page.locator("[data-testid=turn-list] > .vrows > .vrow [data-testid=run]").count(), 1, "one run under the conversation's call");
    await page.click("[data-testid=run][data-agent=aaa1] [data-testid=run-expand]");
    await page.waitForSelector("[data-testid=run][data-agent=aaa1] [data-testid=run][data-agent=bbb2]");
    assert.equal(await page.textContent("[data-testid=run][data-agent=bbb2] [data-testid=run-depth]"), "depth 2");
    await page.click("[data-testid=run][data-agent=bbb2] [data-testid=run-expand]");
    await page.waitForSelector("[data-testid=run][data-agent=bbb2] [data-testid=run][data-agent=ccc3]");
    assert.equal(await page.textContent("[data-testid=run][data-agent=ccc3] [data-testid=run-depth]"), "depth 3");
    await page.click("[data-testid=run][data-agent=ccc3] [data-testid=run-expand]");
    await page.waitForFunction(() => document.querySelector("[data-testid=run][data-agent=ccc3] [data-testid=run-body]")?.textContent.includes("third level mapped: src/, tests/, www/"));
    await page.screenshot({ path: join(OUT, "nested-runs.png") });
  });
});

test("a workflow run sits under its Workflow call with its status, phases and agents; a failed one says why; a running one lists its agents", async () => {
  // tests/fixtures/workflow: wf_ok (2 phases, 3 agents), wf_fail (snapshot only), wf_live (journal only),
  // and an Agent call (toolu_changelog) that ran while wf_ok's agents did.
  await withApp(browser, async ({ page }) => {
    await openFolder(page, join(ROOT, "tests/fixtures/workflow/projects"));
    await page.click('table.sessions tr[data-path$="5e0e5e0e-0000-4000-8000-000000000058.jsonl"] a');
    await page.waitForSelector("[data-testid=workflow][data-run=wf_ok]");
    const ok = "[data-testid=workflow][data-run=wf_ok]";
    assert.equal(await page.textContent(`${ok} [data-testid=workflow-status]`), "completed");
    assert.match(await page.textContent(`${ok} [data-testid=workflow-totals]`), /^1 min 58 s · 3 agents · 0 tool calls · 36 tokens$/);
    const phases = await page.$$eval(`${ok} [data-testid=workflow-phase]`, (ps) => ps.map((p) => [p.dataset.title, [...p.querySelectorAll("[data-testid=workflow-agent]")].map((a) => a.dataset.agent)]));
    assert.deepEqual(phases, [["Map", ["wfa1", "wfa2"]], ["Reduce", ["wfa3"]]]);
    assert.match(await page.textContent(`${ok} [data-testid=workflow-agent][data-agent=wfa1]`), /map:api.*done.*claude-sonnet-4-6 · 50 s · 0 tool calls · 12 tokens/s);
    assert.match(await page.textContent(`${ok} [data-testid=workflow-agent][data-agent=wfa3]`), /docs\/api\/a\.md/, "a structured result, as JSON");
    // An agent's transcript, inline.
    await page.click(`${ok} [data-testid=run][data-agent=wfa1] [data-testid=run-expand]`);
    await page.waitForFunction((sel) => document.querySelector(`${sel} [data-testid=run][data-agent=wfa1] [data-testid=run-body]`)?.textContent.includes("read docs/api"), ok);
    // The Agent call that ran meanwhile has its own run only (the clock once put wf_ok's agents there).
    const underChangelog = await page.$$eval("[data-testid=run]", (rs) => rs.filter((r) => !r.closest("[data-testid=workflow]")).map((r) => r.dataset.agent));
    assert.deepEqual(underChangelog, ["ch1"]);
    // The failed run: no agent, its error folded.
    const fail = "[data-testid=workflow][data-run=wf_fail]";
    assert.equal(await page.textContent(`${fail} [data-testid=workflow-status]`), "failed");
    assert.match(await page.textContent(`${fail} [data-testid=workflow-link]`), /Task ID/);
    assert.equal(await page.getAttribute(`${fail} [data-testid=workflow-error]`, "open"), null, "folded");
    await page.click(`${fail} [data-testid=workflow-error] summary`);
    assert.match(await page.textContent(`${fail} [data-testid=workflow-error] pre`), /batches\.map/);
    // The running run: its agents in launch order, one still running.
    const live = "[data-testid=workflow][data-run=wf_live]";
    assert.equal(await page.textContent(`${live} [data-testid=workflow-status]`), "running");
    assert.deepEqual(await page.$$eval(`${live} [data-testid=workflow-unphased] [data-testid=workflow-agent]`, (as) => as.map((a) => [a.dataset.agent, a.querySelector("[data-testid=workflow-agent-state]").textContent])), [["wfl1", "answered"], ["wfl2", "running"]]);
    assert.match(await page.textContent(`${live} [data-testid=workflow-totals]`), /tokens unknown/, "no snapshot: absent, not 0");
    // A snapshot no call names is said in the header, not dropped.
    assert.match(await page.evaluate(() => document.querySelector("[data-testid=workflow-unplaced]")?.textContent ?? ""), /workflow run wf_orphan unplaced: no Workflow call/);
    await page.screenshot({ path: join(OUT, "workflow-runs.png") });
  });
});

test("a picked ~/.claude lists its projects' conversations only: history.jsonl, credentials and settings are skipped, never read as conversations", async () => {
  // A ~/.claude-shaped tree (layout of ../shared/docs/transcript-format.md "What a session is, on disk"),
  // with a planted credential in .credentials.json and in history.jsonl (JSON lines a careless reader
  // would take for a conversation). The folder's reads, counted per path, are the CLI test
  // tests/claude_home.rs; here, what the page makes of the pick.
  const home = join(ROOT, "target/e2e/claude-home/.claude");
  const planted = "sk-ant-oat01-PLANTEDplantedPLANTED-credential";
  const conv = JSON.stringify({ type: "user", uuid: "u1", sessionId: "s1", cwd: "/home/u/proj", timestamp: "2026-11-25T09:00:00Z", message: { role: "user", content: "hello from the project" } });
  rmSync(home, { recursive: true, force: true });
  for (const [rel, text] of [
    ["projects/-home-u-proj/s1.jsonl", conv + "\n"],
    [".credentials.json", JSON.stringify({ claudeAiOauth: { accessToken: planted } })],
    ["history.jsonl", JSON.stringify({ display: `my token is ${planted}`, project: "/home/u/proj", timestamp: 1764061200000 }) + "\n"],
    ["settings.json", "{}"],
    ["file-history/s1/3f2a@v1", "old text\n"],
  ]) {
    mkdirSync(join(home, rel, ".."), { recursive: true });
    writeFileSync(join(home, rel), text);
  }
  await withApp(browser, async ({ page }) => {
    await openFolder(page, home);
    const paths = await page.$$eval("table.sessions tbody tr[data-path]", (trs) => trs.map((t) => t.dataset.path));
    assert.deepEqual(paths, [".claude/projects/-home-u-proj/s1.jsonl"]);
    assert.match(await page.textContent("[data-testid=found]"), /^1 conversation in 1 project · 3 files skipped \(not transcripts\)/);
    assert.ok(!(await page.evaluate(() => document.documentElement.outerHTML)).includes("PLANTED"), "no byte of the credential or the history shows");
  });
});

/** A ~/.claude whose conversation's snapshots track app.py through three versions and new.py
 * (absent at the first checkpoint), with the backups under file-history/ and a planted credential:
 * the shapes of tests/file_history.rs. Returns the home. */
function writeFileHistoryHome() {
  const home = join(ROOT, "target/e2e/fh-home/.claude");
  rmSync(home, { recursive: true, force: true });
  const user = (uuid, text) => JSON.stringify({ type: "user", uuid, sessionId: "s1", cwd: "/home/u/proj", timestamp: "2026-11-26T10:00:00Z", message: { role: "user", content: text } });
  const snap = (msg, files, update) => JSON.stringify({ type: "file-history-snapshot", messageId: msg,
    snapshot: { messageId: msg, trackedFileBackups: Object.fromEntries(files.map(([p, b, v]) => [p, { backupFileName: b, version: v, backupTime: "2026-11-26T10:00:00.000Z" }])), timestamp: "2026-11-26T10:00:00.000Z" }, isSnapshotUpdate: update });
  const lines = [user("u1", "first"), snap("u1", [["app.py", "aa11@v1", 1]], false), user("u2", "second"),
    snap("u2", [["app.py", "aa11@v2", 2], ["new.py", null, 1]], false), snap("u2", [["app.py", "aa11@v2", 2], ["new.py", "bb22@v1", 1]], true),
    user("u3", "third"), snap("u3", [["app.py", "aa11@v3", 3], ["new.py", "bb22@v1", 1]], false),
    // Plan mode's attachments naming plan files (one not picked).
    JSON.stringify({ type: "attachment", uuid: "t1", sessionId: "s1", attachment: { type: "plan_mode", reminderType: "full", isSubAgent: false, planFilePath: "/home/u/.claude/plans/noble-lemon.md", planExists: true } }),
    JSON.stringify({ type: "attachment", uuid: "t2", sessionId: "s1", attachment: { type: "plan_file_reference", planFilePath: "/home/u/.claude/plans/gone.md" } })];
  for (const [rel, text] of [
    ["projects/-home-u-proj/s1.jsonl", lines.join("\n") + "\n"],
    ["file-history/s1/aa11@v1", "def main():\n    print('hi')\n"],
    ["file-history/s1/aa11@v2", "def main():\n    print('hello')\n"],
    ["file-history/s1/aa11@v3", "import sys\n\ndef main():\n    print('hello', sys.argv)\n"],
    ["file-history/s1/bb22@v1", "x = 1\n"],
    ["plans/noble-lemon.md", "# Plan\n\n1. Parse\n2. **Test**\n"],
    [".credentials.json", JSON.stringify({ claudeAiOauth: { accessToken: "sk-ant-oat01-PLANTEDplanted" } })],
  ]) {
    mkdirSync(join(home, rel, ".."), { recursive: true });
    writeFileSync(join(home, rel), text);
  }
  return home;
}

test("file history: a tracked file stepped through version by version, each the diff from the one before", async () => {
  const home = writeFileHistoryHome();
  for (const scheme of ["light", "dark"]) {
    await withApp(browser, async ({ page }) => {
      await openFolder(page, home);
      await page.click(`table.sessions tr[data-path$="s1.jsonl"] a`);
      await page.waitForSelector("[data-testid=turn-list] article.item");
      await page.click("[data-testid=insights-toggle]");
      await page.waitForSelector("[data-testid=file-history] [data-testid=tracked-file]");
      const files = await page.$$eval("[data-testid=tracked-file]", (l) => l.map((e) => [e.dataset.path, Number(e.dataset.versions)]));
      assert.deepEqual(files, [["app.py", 3], ["new.py", 2]]);
      const app = "[data-testid=tracked-file][data-path='app.py']";
      await page.click(`${app} .file-head`);
      // It opens on version 2: what the second checkpoint changed.
      await page.waitForSelector(`${app} pre.diff`);
      assert.match(await page.textContent(`${app} [data-testid=version-words]`), /Version 2 of 3 · changes since version 1/);
      const lines = async () => page.$$eval(`${app} pre.diff span`, (s) => s.map((e) => e.textContent.replace(/\n$/, "")));
      assert.deepEqual(await lines(), ["@@ -1,2 +1,2 @@", "  def main():", "-     print('hi')", "+     print('hello')"]);
      await page.click(`${app} [data-testid=version-later]`);
      await page.waitForFunction((sel) => document.querySelector(`${sel} [data-testid=version]`)?.dataset.at === "3", app);
      await page.waitForFunction((sel) => [...document.querySelectorAll(`${sel} pre.diff span`)].some((s) => s.textContent.includes("import sys")), app);
      assert.ok((await lines()).includes("+ import sys"));
      assert.notEqual(await page.getAttribute(`${app} [data-testid=version-later]`, "disabled"), null, "the last version: no later one");
      if (scheme === "dark") {
        await page.setViewportSize({ width: 390, height: 844 });
        await page.evaluate(() => document.querySelector("[data-testid=file-history]").scrollIntoView());
      } else {
        await page.evaluate(() => document.querySelector("[data-testid=file-history]").scrollIntoView());
      }
      await page.screenshot({ path: join(OUT, `file-history-${scheme}.png`) });
      // new.py did not exist at its first checkpoint: its second version is all added.
      await page.click("[data-testid=tracked-file][data-path='new.py'] .file-head");
      await page.waitForFunction(() => [...document.querySelectorAll("[data-testid=tracked-file][data-path='new.py'] pre.diff span")].some((s) => s.textContent.includes("x = 1")));
      assert.ok(!(await page.evaluate(() => document.documentElement.outerHTML)).includes("PLANTED"));
    }, { colorScheme: scheme });
  }
});

test("plans: the plan files plan mode named, opened from ~/.claude/plans/ as Markdown; one not picked is said so", async () => {
  const home = writeFileHistoryHome();
  await withApp(browser, async ({ page }) => {
    await openFolder(page, home);
    await page.click(`table.sessions tr[data-path$="s1.jsonl"] a`);
    await page.waitForSelector("[data-testid=turn-list] article.item");
    await page.click("[data-testid=insights-toggle]");
    await page.waitForSelector("[data-testid=plan-files] [data-testid=plan-file]");
    const plans = await page.$$eval("[data-testid=plan-file]", (l) => l.map((e) => [e.dataset.name, e.dataset.picked]));
    assert.deepEqual(plans, [["noble-lemon.md", "true"], ["gone.md", "false"]]);
    assert.match(await page.textContent("[data-testid=plan-file][data-name='gone.md']"), /was not picked/);
    await page.click("[data-testid=plan-file][data-name='noble-lemon.md'] .file-head");
    await page.waitForSelector("[data-testid=plan-file-text] .md h3");
    assert.equal((await page.textContent("[data-testid=plan-file-text] .md h3")).trim(), "Plan");
    assert.deepEqual(await page.$$eval("[data-testid=plan-file-text] li", (l) => l.map((e) => e.textContent.trim())), ["Parse", "Test"]);
  });
});
