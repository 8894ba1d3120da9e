// End-to-end: the conversation view, as a person reads it.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, readFileSync, existsSync } from "node:fs";
import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { launch, withApp, pick, expectedStats, fixtures, ROOT } from "./helpers.mjs";
import { OUT, TMP, SYN, MAIN, HOSTILE, BIG_REAL, TALL, TURN_CASES, scrollSteadiness, open, walkList, itemWith, current, waitCurrent } from "./view-helpers.mjs";

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

test("tool calls show their input, result, duration and state", async () => {
  const root = fixtures();
  await withApp(browser, async ({ page }) => {
    await open(page, join(root, MAIN));
    assert.equal(await page.textContent("[data-testid=title]"), "app build fix");

    const build = (await itemWith(page, "cargo build")).locator("[data-testid=tool-call][data-tool=Bash]").first();
    assert.equal(await build.getAttribute("data-state"), "ok");
    assert.equal(await build.locator("[data-testid=duration]").textContent(), "3.5 s");
    assert.match(await build.locator("[data-testid=tool-result]").textContent(), /error\[E0425\]: cannot find value `x` in this scope/);

    const denied = (await itemWith(page, "rm -rf target")).locator("[data-testid=tool-call]");
    assert.equal(await denied.getAttribute("data-state"), "denied");
    assert.equal(await denied.locator("[data-testid=call-state]").textContent(), "denied");

    const grep = page.locator("[data-testid=tool-call][data-tool=Grep]");
    await itemWith(page, "Grep");
    assert.equal(await grep.first().getAttribute("data-state"), "error");

    const persisted = (await itemWith(page, "tool-results/toolu_0147a583d118e46e11ae28d8.txt")).locator("[data-testid=persisted]");
    assert.match(await persisted.textContent(), /tool-results\/toolu_0147a583d118e46e11ae28d8\.txt/);

    // The <synthetic> API error and the system api_error with status and retry.
    await itemWith(page, "API error");
    assert.ok(await page.locator("[data-testid=api-error]").count() >= 1, "the <synthetic> API error row is visible");
    const sys = await (await itemWith(page, "retry")).locator("[data-testid=system-error]").textContent();
    assert.match(sys, /HTTP \d{3}/);
    assert.match(sys, /retry \d+ of \d+/);

    const compaction = await (await itemWith(page, "compacted")).locator("[data-testid=compaction]").textContent();
    assert.match(compaction, /167,000 → 9,100 tokens/);
    assert.match(await (await itemWith(page, "idle 3")).textContent(), /idle 3 d/);
    assert.match(await (await itemWith(page, "resumed")).textContent(), /resumed from claude-vscode/);

    // Failed items carry the mark a person sees; the malformed line is named.
    assert.match(await page.textContent("[data-testid=skipped-brief]"), /line 21 \(truncated JSON\)/);
    await page.screenshot({ path: join(OUT, "view-synthetic.png") });
  });
});

test("IDE context is not the title: it is shown muted above the person's words", async () => {
  const root = fixtures();
  await withApp(browser, async ({ page }) => {
    // Its first prompt is an <ide_opened_file> block, then what the person typed.
    await open(page, join(root, "real/daaain__claude-code-log/test/test_data/real_projects/-Users-dain-workspace-danieldemmel-me-next/9e953218-585f-4692-89df-9e0747a31c68.jsonl"));
    await page.waitForFunction(() => document.querySelector("[data-testid=title]")?.textContent.length > 0);
    assert.match(await page.textContent("[data-testid=title]"), /^I have @public\/tokenizer\.css/);
    const first = page.locator("[data-testid=prompt]").first();
    assert.match(await first.locator("[data-testid=ide-context]").textContent(), /^IDE: The user opened the file \/Users\/dain\/.*tokenizer\.html in the IDE/);
    const words = await first.locator(".prompt-text").textContent();
    assert.match(words, /^I have @public\/tokenizer\.css/);
    assert.doesNotMatch(words, /ide_opened_file/);
  });
});

test("a background task's answer shows as the task's, not the person's, and links back to the call that launched it", async () => {
  await withApp(browser, async ({ page }) => {
    // tests/fixtures/background-agent.jsonl: the call on line 2, its answer on line 5.
    await open(page, join(ROOT, "tests/fixtures/background-agent.jsonl"));
    await page.waitForSelector("[data-testid=task-answer]");
    const answer = page.locator("[data-testid=task-answer]");
    assert.equal(await answer.getAttribute("data-status"), "completed");
    const text = await answer.textContent();
    assert.match(text, /Background task/);
    assert.match(text, /Agent "Audit the crate" completed/);
    assert.match(text, /No unsafe code; two unwraps in callbacks\./);
    assert.doesNotMatch(text, /task-notification|<summary>/, "the block's tags are not shown");
    assert.equal(await page.locator("[data-testid=prompt]").count(), 1, "the person wrote one prompt; the answer is not a second");
    assert.match(await page.textContent("[data-testid=title]"), /^audit the crate/, "the answer is not the title");
    await page.click("[data-testid=task-call]");
    await page.waitForFunction(() => document.querySelector("article.item.current")?.dataset.line === "2");
    assert.match(await page.textContent("article.item.current"), /Audit the crate \(general-purpose\) · launched in the background/, "the call says its result is only the launch");
    // And forth: the call links to where its answer arrived.
    await page.waitForSelector("article.item.current [data-testid=task-answer-link]");
    assert.equal(await page.textContent("article.item.current [data-testid=task-answer-link]"), "↓ its answer arrived on line 5");
    await page.click("article.item.current [data-testid=task-answer-link]");
    await page.waitForFunction(() => document.querySelector("article.item.current")?.dataset.line === "5");
  });
});

test("teammates' words show under each teammate's name and colour, not as the person's; team tools say who and what", async () => {
  await withApp(browser, async ({ page }) => {
    // tests/fixtures/teammates.jsonl: alice (blue) reports on line 12, beside a system notice.
    await open(page, join(ROOT, "tests/fixtures/teammates.jsonl"));
    await page.waitForSelector("[data-testid=teammate-message]");
    const blocks = await page.$$eval("[data-testid=teammate-message]", (bs) => bs.map((b) => [b.dataset.teammate, b.className, b.textContent]));
    assert.equal(blocks.length, 2);
    assert.equal(blocks[0][0], "alice");
    assert.match(blocks[0][1], /\btm-blue\b/, "her colour");
    assert.match(blocks[0][2], /alice · teammate.*relay tests complete.*Relay module coverage is now 96%/s);
    assert.equal(await page.textContent("[data-testid=teammate-message] strong"), "96%", "her words are Markdown");
    assert.doesNotMatch(blocks[0][2], /teammate-message|teammate_id/, "the block's tags are not shown");
    assert.match(blocks[1][1], /\bsystem\b/);
    assert.match(blocks[1][2], /^Team notice.*alice exited cleanly/s);
    assert.equal(await page.locator("[data-testid=prompt]").count(), 1, "the person wrote one prompt");
    const text = await page.textContent("[data-testid=turn-list]");
    assert.match(text, /Relay tests \(general-purpose\) · teammate alice in team core · launched in the background/);
    assert.match(text, /task #1 · → completed/);
    assert.match(text, /SendMessage\s*to alice/);
  });
});

test("a turn's duration and the stop hooks' summary read as words, not as bare subtypes", async () => {
  // A real 2.1.114 file (daaain/claude-code-log real_projects) with turn_duration and stop_hook_summary records.
  const file = join(fixtures(), "real/daaain__claude-code-log/test/test_data/real_projects/-experiments-worktrees/ef958aa1-0e93-49f0-bb71-150f63befcd1.jsonl");
  const lines = readFileSync(file, "utf8").split("\n");
  const find = (sub) => { const i = lines.findIndex((l) => l.includes(`"subtype":"${sub}"`)); return { line: i + 1, rec: JSON.parse(lines[i]) }; };
  const turn = find("turn_duration"), hooks = find("stop_hook_summary");
  assert.equal(turn.rec.durationMs, 247515);
  await withApp(browser, async ({ page }) => {
    await open(page, file);
    for (const [at, want] of [[turn, /the turn took 4 min 7 s/], [hooks, new RegExp(`${hooks.rec.hookCount} stop hooks?`)]]) {
      await page.evaluate((l) => { location.hash = `#L${l}`; }, at.line);
      // (Its body is read once it is in view: "reading…" until then.)
      const c = await waitCurrent(page, (c) => c.line === at.line && !c.text.includes("reading…"), `line ${at.line}, read`);
      assert.match(c.text, want, `line ${at.line}`);
    }
  });
});

/**
 * The lines of the items a failure walk must visit, computed from the file
 * on its own: a failed record, or for a failed tool_result / denial the API
 * turn that made the call (the first line of its message.id).
 */
function failedItemLines(file) {
  const lines = readFileSync(file, "utf8").split("\n");
  const firstLineOfMsg = new Map(), callLine = new Map(), out = new Set();
  const recs = [];
  lines.forEach((text, i) => {
    let r;
    try { r = JSON.parse(text.replace(/^\uFEFF/, "")); } catch { return; }
    if (!r || typeof r !== "object" || Array.isArray(r)) return;
    recs.push([i + 1, r]);
    const id = r.message?.id;
    if (r.type === "assistant" && typeof id === "string" && !firstLineOfMsg.has(id)) firstLineOfMsg.set(id, i + 1);
    if (r.type === "assistant" && Array.isArray(r.message?.content)) {
      for (const b of r.message.content) if (b?.type === "tool_use") callLine.set(b.id, firstLineOfMsg.get(id) ?? i + 1);
    }
  });
  for (const [line, r] of recs) {
    const blocks = Array.isArray(r.message?.content) ? r.message.content : [];
    const results = blocks.filter((b) => b?.type === "tool_result");
    const errorResult = r.type === "user" && results.some((b) => b.is_error === true);
    const denial = r.type === "user" && r.toolDenialKind != null;
    const apiError = r.type === "assistant" && r.isApiErrorMessage === true;
    const sysError = r.type === "system" && (r.level === "error" || r.subtype === "api_error");
    if (!(errorResult || denial || apiError || sysError)) continue;
    if (r.type === "user" && results.length === blocks.length && results.length > 0 && callLine.has(results[0].tool_use_id)) {
      out.add(callLine.get(results[0].tool_use_id));
    } else if (r.type === "assistant") {
      out.add(firstLineOfMsg.get(r.message?.id) ?? line);
    } else {
      out.add(line);
    }
  }
  return [...out].sort((a, b) => a - b);
}

test("one item per API turn: the grouped turn count equals assistant_messages", async () => {
  const root = fixtures();
  await withApp(browser, async ({ page }) => {
    for (const rel of TURN_CASES) {
      await open(page, join(root, rel));
      const { items, maxRows } = await walkList(page);
      const turns = new Set(items.filter((i) => i.kind === "turn").map((i) => i.turn));
      assert.equal(turns.size, expectedStats(rel).assistant_messages, `${rel}: API turns shown`);
      // File order is the order of the list.
      const lines = items.map((i) => i.line);
      assert.deepEqual(lines, [...lines].sort((a, b) => a - b), `${rel}: items in file order`);
      assert.ok(maxRows < 80, `${rel}: at most a window of rows in the DOM (saw ${maxRows})`);
    }
  });
});

test("scrolling through items several screens tall: the content moves with the scroll, never jumps", { timeout: 180000 }, async () => {
  const root = fixtures();
  await withApp(browser, async ({ page }) => {
    await open(page, join(root, TALL));
    for (const step of [300, -300, 1500, -1500]) {
      const r = await scrollSteadiness(page, step);
      assert.ok(r.reached, `${step} px per frame reaches the other end (${r.steps} steps)`);
      assert.deepEqual(r.jumps, [], `${step} px per frame: the row at the top moves by the step`);
    }
  });
});

test("n and N walk the failures in file order; j and k walk turns", async () => {
  const root = fixtures();
  const file = join(root, MAIN);
  const want = failedItemLines(file);
  assert.ok(want.length >= 3, `the synthetic file has failures: ${want}`);
  await withApp(browser, async ({ page }) => {
    await open(page, file);
    await page.locator("[data-testid=turn-list]").click({ position: { x: 5, y: 5 } });
    const visited = [];
    for (let i = 0; i < want.length; i++) {
      await page.keyboard.press("n");
      const c = await waitCurrent(page, (c) => c.line !== visited.at(-1), `failure ${i + 1}`);
      visited.push(c.line);
      assert.ok(await page.locator("article.item.current.failed").count() === 1, "the current item is marked failed");
    }
    assert.deepEqual(visited, want, "n visits every failure, in order");
    assert.equal(new URL(page.url()).hash, `#L${want.at(-1)}`, "the address follows");
    await page.keyboard.press("N");
    await waitCurrent(page, (c) => c.line === want.at(-2), "N goes back one failure");
    await page.keyboard.press("j");
    const afterJ = await waitCurrent(page, (c) => c.line > want.at(-2), "j goes to the next turn or prompt");
    await page.keyboard.press("k");
    await waitCurrent(page, (c) => c.line < afterJ.line, "k goes back");
  });
});

test("search finds a phrase far down a real file, in any letter case, and jumps to it", async () => {
  const root = fixtures();
  const file = join(root, BIG_REAL);
  // A plain phrase from the start of one of the last texts or tool results in the file.
  const whole = readFileSync(file, "utf8");
  const lines = whole.split("\n");
  let needle = null, needleLine = 0, needleCount = 0;
  for (let i = lines.length - 1; i > lines.length / 2 && !needle; i--) {
    let r;
    try { r = JSON.parse(lines[i]); } catch { continue; }
    for (const b of Array.isArray(r?.message?.content) ? r.message.content : []) {
      if (b?.type !== "tool_result" && b?.type !== "text") continue;
      const text = b.type === "text" ? String(b.text ?? "") : typeof b.content === "string" ? b.content
        : Array.isArray(b.content) ? b.content.filter((c) => c?.type === "text").map((c) => c.text).join("\n") : "";
      const m = text.split("\n").slice(0, 5).join(" ").match(/[A-Za-z][A-Za-z0-9 _.-]{18,40}[A-Za-z0-9]/g) ?? [];
      // On this line only (Claude Code repeats a result in `toolUseResult`,
      // so the phrase may occur twice within it), in any letter case.
      const lower = lines.map((l) => l.toLowerCase());
      const unique = m.find((s) => lower.filter((l) => l.includes(s.toLowerCase())).length === 1);
      if (unique) { needle = unique; needleLine = i + 1; needleCount = lower[i].split(unique.toLowerCase()).length - 1; break; }
    }
  }
  assert.ok(needle, "found a phrase to look for");
  await withApp(browser, async ({ page }) => {
    await open(page, file);
    // Case-insensitive: the person types it in capitals.
    await page.fill("[data-testid=search]", needle.toUpperCase());
    await page.press("[data-testid=search]", "Enter");
    await page.waitForSelector("[data-testid=search-status][data-matches]");
    assert.equal(await page.getAttribute("[data-testid=search-status]", "data-items"), "1", `one item matches ${needle}`);
    assert.equal(await page.getAttribute("[data-testid=search-status]", "data-matches"), String(needleCount), `every occurrence of ${needle} counted`);
    const c = await waitCurrent(page, (c) => c.text.includes(needle), `the item showing ${JSON.stringify(needle)}`);
    assert.ok(c.line <= needleLine, "the item holds the matching line");
    assert.ok(c.line > lines.length / 3, `far down the file (line ${c.line} of ${lines.length})`);
    assert.equal(await page.locator("article.item.current.hit").count(), 1, "marked as a hit");
    // Esc clears the search.
    await page.press("[data-testid=search]", "Escape");
  });
});

test("#L<line> in the address restores the position, and line links set it", async () => {
  const root = fixtures();
  const file = join(root, BIG_REAL);
  await withApp(browser, async ({ page }) => {
    await open(page, file);
    const { items } = await walkList(page);
    const deep = items.filter((i) => i.kind === "turn").at(-5);
    // Reopen the file with that line in the address: the view starts there.
    await page.evaluate((l) => { location.hash = `#L${l}`; }, deep.line);
    await open(page, file);
    await waitCurrent(page, (c) => c.line === deep.line, `line ${deep.line} restored`);
    // Clicking another item's line link moves the address and the view.
    // (One on screen, or else one below the current item: the list is virtual, and a row above it
    // may be redrawn by the scroll to it.)
    const otherLine = await page.evaluate(() => {
      const box = document.querySelector("[data-testid=turn-list]").getBoundingClientRect();
      const links = [...document.querySelectorAll("article.item:not(.current) a.ln")];
      const a = links.find((l) => { const r = l.getBoundingClientRect(); return r.top >= box.top && r.bottom <= box.bottom; })
        ?? links.find((l) => l.getBoundingClientRect().top >= box.top);
      return Number(a.textContent.slice(1));
    });
    await page.click(`article.item[data-line="${otherLine}"] a.ln`);
    await waitCurrent(page, (c) => c.line === otherLine, "the clicked line becomes current");
    assert.equal(new URL(page.url()).hash, `#L${otherLine}`);
    // A line inside a turn (not its first) lands on the turn that holds it.
    await page.evaluate((l) => { location.hash = `#L${l}`; }, deep.line + 1);
    await waitCurrent(page, (c) => c.line <= deep.line + 1, "a line inside an item lands on its item");
  });
});

test("hostile transcript text stays text: no script runs, nothing is injected", async () => {
  const root = fixtures();
  await withApp(browser, async ({ page }) => {
    await open(page, join(root, HOSTILE));
    const item = await itemWith(page, "<script>alert(1)</script>");
    assert.match(await item.textContent(), /<img src=x onerror=alert\(2\)>/, "raw HTML shown literally");
    assert.equal(await page.locator(".item script, .item img[src=x], .item iframe, .item object").count(), 0, "no element from the transcript");
    const hrefs = await page.$$eval(".item a[href]", (as) => as.map((a) => a.getAttribute("href")));
    for (const h of hrefs) assert.ok(/^(#L\d+|https?:)/.test(h), `only line links and http(s) links: ${h}`);
    // The malformed lines are listed by number, with a reason.
    assert.match(await page.textContent("[data-testid=skipped-brief]"), /line \d+ \(/);
    // Let every body on screen be drawn before withApp checks for problems.
    await page.waitForFunction(() => !document.querySelector("[data-testid=turn-list] .pending"));
  });
  // withApp fails the test on any dialog, console error or page error.
});

test("filters: failures only, one tool, bookkeeping on demand", async () => {
  const root = fixtures();
  await withApp(browser, async ({ page }) => {
    await open(page, join(root, MAIN));
    const shown = async () => Number((await page.textContent("[data-testid=shown-count]")).replace(/\D/g, ""));
    const all = await shown();
    await page.check("[data-testid=filter-failures]");
    const fails = await walkList(page);
    assert.equal(fails.items.length, failedItemLines(join(root, MAIN)).length);
    assert.equal(await page.locator("article.item:not(.failed)").count(), 0, "only failed items");
    await page.uncheck("[data-testid=filter-failures]");
    const bashValue = await page.$eval("[data-testid=filter-tool]", (s) => [...s.options].find((o) => o.textContent.startsWith("Bash ")).value);
    await page.selectOption("[data-testid=filter-tool]", bashValue);
    const bash = await walkList(page);
    assert.ok(bash.items.length > 0 && bash.items.length < all);
    assert.equal(await page.locator("article.item[data-kind=turn]:not(:has([data-tool=Bash]))").count(), 0, "every turn shown calls Bash");
    await page.selectOption("[data-testid=filter-tool]", "");
    assert.equal(await page.locator("article.item[data-kind=other]").count(), 0, "bookkeeping hidden by default");
    await page.check("[data-testid=filter-bookkeeping]");
    assert.ok((await shown()) > all, "bookkeeping rows added");
    const withBk = await walkList(page);
    assert.ok(withBk.items.some((i) => i.kind === "other"), "bookkeeping rows shown");
  });
});

test("a 60 MB file: few rows in the DOM, and the end of the file is reachable", async () => {
  const big = join(TMP, "big.jsonl");
  if (!existsSync(big)) execFileSync(join(ROOT, "target/release/ccscope-bench"), ["gen", big, "--mb", "60"]);
  const lineCount = readFileSync(big).toString("latin1").split("\n").filter((l) => l.length).length;
  await withApp(browser, async ({ page }) => {
    await open(page, big);
    const count = Number(await page.getAttribute("[data-testid=turn-list]", "data-count"));
    assert.ok(count > 1000, `many items (${count})`);
    assert.ok(await page.locator(".vrow").count() < 60, "only a window of rows");
    // Scroll to the end until it stays the end (measured rows change the height as they come).
    await page.waitForFunction(() => {
      const l = document.querySelector("[data-testid=turn-list]");
      const atEnd = l.scrollTop + l.clientHeight >= l.scrollHeight - 2 && !l.querySelector(".pending");
      // The rows drawn are those at the end (not the ones before the scroll, not yet redrawn).
      const box = l.getBoundingClientRect();
      const drawn = [...l.querySelectorAll("article.item")].some((a) => a.getBoundingClientRect().bottom - box.top + l.scrollTop >= l.scrollHeight - 100);
      l.scrollTop = l.scrollHeight;
      return atEnd && drawn;
    }, null, { polling: 200, timeout: 30000 });
    const last = await page.$$eval("article.item", (as) => Math.max(...as.map((a) => Number(a.dataset.line))));
    assert.ok(last > lineCount * 0.95, `the last lines are shown (line ${last} of ${lineCount})`);
    assert.ok(await page.locator(".vrow").count() < 60, "still only a window of rows");
  });
});

test("light and dark, following the system, with a toggle that remembers", async () => {
  const root = fixtures();
  for (const colorScheme of ["light", "dark"]) {
    await withApp(browser, async ({ page }) => {
      await open(page, join(root, BIG_REAL));
      await page.waitForFunction(() => !document.querySelector("[data-testid=turn-list] .pending"));
      const bg = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
      const dark = bg.match(/\d+/g).slice(0, 3).map(Number).reduce((a, b) => a + b) < 3 * 128;
      assert.equal(dark, colorScheme === "dark", `the page follows the system (${colorScheme}): ${bg}`);
      await page.screenshot({ path: join(OUT, `view-${colorScheme}.png`) });
      // The toggle: system → dark → light → system.
      const toggle = page.locator("[data-testid=theme-toggle]");
      assert.equal(await toggle.getAttribute("data-mode"), "system");
      await toggle.click();
      assert.equal(await page.getAttribute("html", "data-theme"), "dark");
      await toggle.click();
      assert.equal(await page.getAttribute("html", "data-theme"), "light");
      await page.reload();
      await page.waitForSelector("[data-testid=open-sample]");
      assert.equal(await page.getAttribute("html", "data-theme"), "light", "the choice survives a reload");
      await page.click("[data-testid=theme-toggle]");
      assert.equal(await page.getAttribute("html", "data-theme"), null);
    }, { colorScheme });
  }
});

test("the task list beside the reading position: what was pending, in progress and done there, what the last change touched; the approved plan as a card", async () => {
  // tests/fixtures/tasks.jsonl: TodoWrite lists on lines 2, 4, 8 (6 failed), TaskCreate 11, 13, TaskUpdate 15, 17, ExitPlanMode 19.
  const file = join(ROOT, "tests/fixtures/tasks.jsonl");
  await withApp(browser, async ({ page }) => {
    await page.setViewportSize({ width: 1000, height: 520 });
    await open(page, file);
    await page.waitForSelector("[data-testid=task-strip]");
    assert.equal((await page.textContent("[data-testid=task-strip-words]")).trim(), "No task list yet here · the first is on line 2");
    await page.evaluate(() => { location.hash = "#L8"; });
    await waitCurrent(page, (c) => c.line === 8, "line 8");
    await page.waitForFunction(() => document.querySelector("[data-testid=task-strip]")?.dataset.line === "8");
    assert.equal((await page.textContent("[data-testid=task-strip-words]")).trim(), "Tasks as of line 8: 1 done · 1 in progress · 0 pending");
    await page.click("[data-testid=task-strip-toggle]");
    await page.waitForSelector("[data-testid=task-strip] [data-testid=task]");
    const tasks = await page.$$eval("[data-testid=task-strip] [data-testid=task]", (t) => t.map((e) => [e.querySelector(".task-subject").textContent, e.dataset.status, e.dataset.changed]));
    assert.deepEqual(tasks, [["Write the parser", "completed", "true"], ["Test it", "in_progress", "true"]]);
    assert.match(await page.textContent("[data-testid=task-strip]"), /Removed by this change: Ship/);
    await page.screenshot({ path: join(OUT, "task-list-light.png") });
    // The history, in the insights: the failed call on line 6 changed nothing and is not there.
    await page.click("[data-testid=insights-toggle]");
    await page.waitForSelector("[data-testid=task-history] [data-testid=task-change]");
    const changes = await page.$$eval("[data-testid=task-change]", (l) => l.map((e) => Number(e.dataset.line)));
    assert.deepEqual(changes, [2, 4, 8, 11, 13, 15, 17]);
    assert.match(await page.textContent("[data-testid=task-change][data-line='17']"), /✗ Benchmark/);
    await page.click("[data-testid=insights-toggle]");
    // The plan put for approval reads as Markdown: a heading and a list, not JSON.
    await page.evaluate(() => { location.hash = "#L19"; });
    await page.waitForSelector("[data-testid=plan] .md h3");
    assert.equal((await page.textContent("[data-testid=plan] .md h3")).trim(), "Plan", "the heading, as a heading");
    assert.deepEqual(await page.$$eval("[data-testid=plan] li", (l) => l.map((e) => e.textContent.trim())), ["Parse", "Test", "Ship"]);
    assert.equal(await page.locator("[data-testid=plan] strong").count(), 1);
  });
});

test("screenshot of the task list, dark, at a phone's width", async () => {
  await withApp(browser, async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await open(page, join(ROOT, "tests/fixtures/tasks.jsonl"));
    await page.evaluate(() => { location.hash = "#L15"; });
    await page.waitForFunction(() => Number(document.querySelector("[data-testid=task-strip]")?.dataset.line) >= 11);
    await page.click("[data-testid=task-strip-toggle]");
    await page.waitForSelector("[data-testid=task-strip] [data-testid=task]");
    const over = await page.evaluate(() => [...document.querySelectorAll("[data-testid=task-strip] *")].filter((e) => e.getBoundingClientRect().right > innerWidth + 1).length);
    assert.equal(over, 0, "the task list fits the phone");
    await page.screenshot({ path: join(OUT, "task-list-dark-phone.png") });
  }, { colorScheme: "dark" });
});

test("bookkeeping, system and attachment records read as labelled words, not as bare types", async () => {
  // The real 2.1.114 file: permission-mode on line 1, attachments (hook_success …), away_summary.
  const file = join(fixtures(), "real/daaain__claude-code-log/test/test_data/real_projects/-experiments-worktrees/ef958aa1-0e93-49f0-bb71-150f63befcd1.jsonl");
  const lines = readFileSync(file, "utf8").split("\n");
  const lineOf = (pred) => lines.findIndex((l) => { try { return pred(JSON.parse(l)); } catch { return false; } }) + 1;
  const hook = lineOf((r) => r.type === "attachment" && r.attachment?.type === "hook_success");
  const hookRec = JSON.parse(lines[hook - 1]);
  const away = lineOf((r) => r.subtype === "away_summary");
  await withApp(browser, async ({ page }) => {
    await open(page, file);
    await page.check("[data-testid=filter-bookkeeping]");
    for (const [line, tag, words] of [
      [1, "permission-mode", /permission mode: acceptEdits/],
      [hook, "attachment · hook success", new RegExp(`hook ${hookRec.attachment.hookName} ran`)],
      [away, "away_summary", /while you were away: \S/],
    ]) {
      await page.evaluate((l) => { location.hash = `#L${l}`; }, line);
      const c = await waitCurrent(page, (c) => c.line === line && !c.text.includes("reading…"), `line ${line}, read`);
      assert.ok(c.text.includes(tag), `line ${line}: tag ${tag} in ${c.text.slice(0, 200)}`);
      assert.match(c.text, words, `line ${line}`);
    }
  });
});
