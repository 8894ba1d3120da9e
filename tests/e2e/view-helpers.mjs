// Helpers for the view tests: open a file, walk the virtualised list, find the current item.
import assert from "node:assert/strict";
import { pick } from "./helpers.mjs";

/** Picks a transcript and waits for the full (not preview) view. */
export async function open(page, file) {
  await pick(page, file);
  await page.waitForSelector("[data-testid=viewer] .all-facts", { state: "attached" });
  await page.waitForSelector("[data-testid=turn-list] article.item");
}

/**
 * Scrolls the list from top to bottom and returns, per item seen, its
 * attributes; also the largest number of rows that were in the DOM at once.
 */
export async function walkList(page) {
  return page.evaluate(async () => {
    const list = document.querySelector("[data-testid=turn-list]");
    const seen = new Map();
    let maxRows = 0;
    const frame = () => new Promise((r) => requestAnimationFrame(() => setTimeout(r, 20)));
    list.scrollTop = 0;
    await frame();
    for (let guard = 0; guard < 20000; guard++) {
      await frame();
      maxRows = Math.max(maxRows, list.querySelectorAll(".vrow").length);
      for (const a of list.querySelectorAll("article.item")) {
        seen.set(Number(a.dataset.item), { line: Number(a.dataset.line), kind: a.dataset.kind, turn: a.dataset.turn ?? null });
      }
      if (list.scrollTop + list.clientHeight >= list.scrollHeight - 2) {
        await frame();
        if (list.scrollTop + list.clientHeight >= list.scrollHeight - 2) break;
      }
      list.scrollTop += Math.max(100, list.clientHeight * 0.7);
    }
    return { items: [...seen.entries()].sort((a, b) => a[0] - b[0]).map(([id, v]) => ({ id, ...v })), maxRows };
  });
}

/** The item that carries `text`, looked for by scrolling; its locator. */
export async function itemWith(page, text) {
  const found = await page.evaluate(async (needle) => {
    const list = document.querySelector("[data-testid=turn-list]");
    const frame = () => new Promise((r) => requestAnimationFrame(() => setTimeout(r, 30)));
    list.scrollTop = 0;
    for (let guard = 0; guard < 5000; guard++) {
      await frame();
      for (const a of list.querySelectorAll("article.item")) if (a.textContent.includes(needle)) return a.dataset.item;
      if (list.scrollTop + list.clientHeight >= list.scrollHeight - 2) return null;
      list.scrollTop += list.clientHeight * 0.6;
    }
    return null;
  }, text);
  assert.ok(found !== null, `an item shows ${JSON.stringify(text)}`);
  return page.locator(`article.item[data-item="${found}"]`);
}

/** Whether the current item is inside the list's viewport; its line and text. */
export async function current(page) {
  return page.evaluate(() => {
    const list = document.querySelector("[data-testid=turn-list]");
    const cur = list.querySelector("article.item.current");
    if (!cur) return null;
    const a = cur.getBoundingClientRect(), b = list.getBoundingClientRect();
    return { line: Number(cur.dataset.line), item: Number(cur.dataset.item), text: cur.textContent, inView: a.top >= b.top - 2 && a.top < b.bottom - 20 };
  });
}

export async function waitCurrent(page, pred, what) {
  for (let i = 0; i < 60; i++) {
    const c = await current(page);
    if (c && c.inView && pred(c)) return c;
    await page.waitForTimeout(100);
  }
  assert.fail(`current item in view: ${what}; last seen ${JSON.stringify(await current(page))?.slice(0, 300)}`);
}

