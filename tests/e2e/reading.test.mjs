// End-to-end: reading as a person does — the search's words are marked
// where they are drawn; the address follows the reading position as the
// list is scrolled; a link opened before anything is picked says what it
// wants, and opens there once the folder is picked.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { launch, withApp, fixtures, pickFolder } from "./helpers.mjs";
import { MAIN, BIG_REAL, open, waitCurrent } from "./view-helpers.mjs";

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
    // Unfolded output gets its marks too: more text drawn, more marks.
    const before = words.length;
    const unfold = page.locator("[data-testid=turn-list] [data-testid=unfold]");
    if (await unfold.count()) {
      await unfold.first().click();
      await page.waitForFunction((n) => CSS.highlights.get("ccscope-match").size >= n, before);
    }
    await page.focus("[data-testid=search]");
    await page.keyboard.press("Escape");
    await page.waitForFunction(() => !CSS.highlights.has("ccscope-match"));
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
    await page.goto(`${server.url}#/${path}:L30`);
    await page.waitForSelector("[data-testid=open-sample]");
    const said = await page.textContent("[data-testid=deep-link]");
    assert.ok(said.includes(path) && said.includes("line 30"), said);
    await pickFolder(page, dir);
    await page.waitForSelector("[data-testid=crumbs]");
    const cur = await waitCurrent(page, (c) => c.line <= 30, "the linked line's item");
    assert.ok(cur.line <= 30, `item at line ${cur.line} holds line 30`);
    assert.equal(await page.textContent("[data-testid=title]"), "app build fix");
    // Back returns to the list of the picked folder.
    await page.click("[data-testid=back]");
    await page.waitForSelector("table.sessions tbody tr");
  });
});
