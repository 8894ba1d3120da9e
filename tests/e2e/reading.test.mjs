// End-to-end: reading as a person does — the search's words are marked
// where they are drawn (folded output once unfolded); the address follows the reading position as the
// list is scrolled; a link opened before anything is picked says what it
// wants, and opens there once the folder is picked.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { launch, withApp, fixtures, pickFolder } from "./helpers.mjs";
import { MAIN, BIG_REAL, TMP, open, waitCurrent } from "./view-helpers.mjs";

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

/** The text of every range the page marked for the search, lower-cased. */
const marked = (page) => page.evaluate(() => {
  const h = globalThis.CSS?.highlights?.get("ccscope-match");
  return h ? [...h].map((r) => r.toString().toLowerCase()) : null;
});

test("the search's words are marked in the drawn text, in any letter case, and unmarked when it is cleared", async () => {
  await withApp(browser, async ({ page }) => {
    await open(page, join(fixtures(), MAIN));
    await page.fill("[data-testid=search]", "ERROR");
    await page.press("[data-testid=search]", "Enter");
    await page.waitForSelector("[data-testid=search-status][data-matches]");
    await page.waitForFunction(() => (globalThis.CSS?.highlights?.get("ccscope-match")?.size ?? 0) > 0);
    const words = await marked(page);
    assert.ok(words.length > 0 && words.every((w) => w === "error"), `marked: ${words.slice(0, 5)}`);
    // The marks lie inside the list's items, on text a person sees.
    assert.ok(await page.evaluate(() => [...CSS.highlights.get("ccscope-match")].every((r) => r.startContainer.parentElement.closest("[data-testid=turn-list] article.item"))));
    await page.focus("[data-testid=search]");
    await page.keyboard.press("Escape");
    await page.waitForFunction(() => !CSS.highlights.has("ccscope-match"));
  });
});

test("a match in folded tool output is marked once the output is unfolded", async () => {
  // A Bash call whose 40-line result holds the word on line 30: past the
  // fold (12 lines), so it is drawn only when unfolded. The record shapes are
  // the format notes' tool_use / tool_result pair.
  const file = join(TMP, "marks-folded.jsonl");
  const out = Array.from({ length: 40 }, (_, k) => (k === 29 ? "here is the needle" : `line ${k + 1}`)).join("\n");
  const t = (s) => `2026-09-04T10:00:0${s}.000Z`;
  writeFileSync(file, [
    { type: "user", uuid: "u1", timestamp: t(0), sessionId: "s", message: { role: "user", content: "list it" } },
    { type: "assistant", uuid: "a1", timestamp: t(1), sessionId: "s", message: { id: "m1", role: "assistant", content: [{ type: "tool_use", id: "tu1", name: "Bash", input: { command: "seq 40" } }] } },
    { type: "user", uuid: "u2", timestamp: t(2), sessionId: "s", message: { role: "user", content: [{ type: "tool_result", tool_use_id: "tu1", content: out }] } },
  ].map((l) => JSON.stringify(l)).join("\n") + "\n");
  await withApp(browser, async ({ page }) => {
    await open(page, file);
    await page.fill("[data-testid=search]", "needle");
    await page.press("[data-testid=search]", "Enter");
    await page.waitForSelector("[data-testid=search-status][data-matches]");
    assert.equal(await page.getAttribute("[data-testid=search-status]", "data-matches"), "1");
    assert.deepEqual(await marked(page), null, "folded: the word is not drawn, so not marked");
    await page.click("[data-testid=turn-list] [data-testid=unfold]");
    await page.waitForFunction(() => CSS.highlights.get("ccscope-match")?.size === 1);
    assert.deepEqual(await marked(page), ["needle"]);
  });
});

test("the address follows the reading position as the list scrolls, and a reload lands there", async () => {
  const file = join(fixtures(), BIG_REAL);
  await withApp(browser, async ({ page }) => {
    await open(page, file);
    assert.equal(await page.evaluate(() => location.hash), "", "the untouched start names no line");
    // The person scrolls: once the scroll rests, the address names the item at the top.
    await page.evaluate(() => { document.querySelector("[data-testid=turn-list]").scrollTop = 4000; });
    const top = await page.waitForFunction(() => {
      const l = document.querySelector("[data-testid=turn-list]"), edge = l.getBoundingClientRect().top;
      const a = [...l.querySelectorAll("article.item")].find((x) => x.getBoundingClientRect().bottom > edge + 1);
      return a && location.hash === `#L${a.dataset.line}` ? Number(a.dataset.line) : null;
    }, null, { timeout: 10000 }).then((h) => h.jsonValue());
    assert.ok(top > 1, `the address names line ${top}`);
    // Opened again with that address, the view starts there.
    await open(page, file);
    await waitCurrent(page, (c) => c.line === top, `line ${top} restored`);
  });
});

test("a link opened before a pick says which file and line it wants, and opens there once its folder is picked", async () => {
  const dir = join(fixtures(), "synthetic/projects");
  const path = `projects/-Users-alex-code-app/${MAIN.split("/").pop()}`;
  await withApp(browser, async ({ page, server }) => {
    // Opened as from a bookmark or a colleague's message: a fresh load.
    await page.goto(`${server.url}#/${path}:L30`);
    await page.reload();
    await page.waitForSelector("[data-testid=open-sample]");
    const said = await page.textContent("[data-testid=deep-link]");
    assert.ok(said.includes(path) && said.includes("line 30"), said);
    await pickFolder(page, dir);
    await page.waitForSelector("[data-testid=crumbs]");
    await page.waitForSelector("[data-testid=turn-list] article.item");
    const cur = await waitCurrent(page, (c) => c.line <= 30, "the linked line's item");
    assert.ok(cur.line <= 30, `item at line ${cur.line} holds line 30`);
    assert.equal(await page.textContent("[data-testid=title]"), "app build fix");
    // Back returns to the list of the picked folder.
    await page.click("[data-testid=back]");
    await page.waitForSelector("table.sessions tbody tr");
  });
});

test("the keyboard alone walks folder → conversation → run → back: the skip link, j/k and Enter in the list, focus on the current item", async () => {
  const dir = join(fixtures(), "synthetic/projects");
  await withApp(browser, async ({ page }) => {
    await pickFolder(page, dir);
    await page.waitForFunction(() => !document.querySelector("[data-testid=survey]"), null, { timeout: 60000 });
    const focused = () => page.evaluate(() => {
      const a = document.activeElement;
      return { testid: a?.dataset.testid ?? null, row: a?.closest("tr")?.dataset.path ?? null, item: a?.closest("article.item")?.dataset.line ?? null };
    });
    const tabTo = async (testid, what) => {
      for (let i = 0; i < 40; i++) {
        await page.keyboard.press("Tab");
        if ((await focused()).testid === testid) return;
      }
      assert.fail(`Tab reaches ${what}`);
    };
    // The first Tab: the skip link, which takes the focus to the list's first row.
    await page.evaluate(() => document.activeElement?.blur());
    await page.keyboard.press("Tab");
    assert.equal((await focused()).testid, "skip-link");
    await page.keyboard.press("Enter");
    const rows = await page.$$eval("table.sessions tbody tr", (trs) => trs.map((t) => t.dataset.path));
    assert.equal((await focused()).row, rows[0], "the first row has the focus");
    await page.keyboard.press("j");
    assert.equal((await focused()).row, rows[1], "j: the next row");
    await page.keyboard.press("k");
    assert.equal((await focused()).row, rows[0], "k: the one before");
    // j down to the conversation with a run, and Enter opens it.
    const target = rows.findIndex((r) => r.endsWith("d3cb2e5d-477b-4f6b-a7e5-1f4ed60e6538.jsonl"));
    for (let i = 0; i < target; i++) await page.keyboard.press("j");
    assert.equal((await focused()).row, rows[target]);
    await page.keyboard.press("Enter");
    await page.waitForSelector("[data-testid=crumbs]");
    await page.waitForSelector("[data-testid=turn-list] article.item");
    // In the conversation: j makes an item current and gives it the focus; Tab goes on into it.
    await page.evaluate(() => document.activeElement?.blur());
    await page.keyboard.press("j");
    await page.waitForFunction(() => document.activeElement?.matches("article.item.current"));
    const item = (await focused()).item;
    await page.keyboard.press("Tab");
    assert.equal((await focused()).item, item, "Tab reaches a control of the current item");
    // j on to the turn whose call spawned the run; Tab to its "open" and Enter: the run as a transcript.
    for (let i = 0; i < 30 && !(await page.evaluate(() => !!document.querySelector("article.item.current [data-testid=run-open]"))); i++) {
      await page.keyboard.press("j");
    }
    await page.waitForFunction(() => document.activeElement?.matches("article.item.current"));
    await tabTo("run-open", "the run's open button");
    await page.keyboard.press("Enter");
    await page.waitForSelector("[data-testid=crumbs] [data-testid=to-call]");
    assert.equal(await page.textContent("[data-testid=title]"), "Audit crate");
    // And back to the list by the breadcrumb.
    await page.evaluate(() => document.activeElement?.blur());
    await tabTo("back", "the breadcrumb back to the list");
    await page.keyboard.press("Enter");
    await page.waitForFunction(() => !document.querySelector(".browser-slot[hidden]"));
  });
});

test("on a large screen every fact shows until the person moves down the list; then they fold into one line", async () => {
  await withApp(browser, async ({ page }) => {
    await page.setViewportSize({ width: 1400, height: 1000 });
    await open(page, join(fixtures(), BIG_REAL));
    const state = () => page.evaluate(() => ({
      folded: document.querySelector("[data-testid=session]").classList.contains("folded"),
      grid: !!document.querySelector("[data-testid=session] .facts-grid")?.getClientRects().length,
      list: document.querySelector("[data-testid=turn-list]").getBoundingClientRect().height,
    }));
    const before = await state();
    assert.deepEqual([before.folded, before.grid], [false, true], "at the start: every fact");
    await page.evaluate(() => { document.querySelector("[data-testid=turn-list]").scrollTop = 1500; });
    await page.waitForFunction(() => document.querySelector("[data-testid=session]").classList.contains("folded"));
    const after = await state();
    assert.equal(after.grid, false, "scrolled: the facts fold");
    assert.ok(after.list > before.list, `the list grows (${before.list} → ${after.list} px)`);
    await page.click("[data-testid=facts-toggle]");
    assert.equal((await state()).grid, true, "the Facts button shows them");
  });
});
