// Helpers for the view tests: open a file, walk the virtualised list, find the current item.
import assert from "node:assert/strict";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { pick, ROOT } from "./helpers.mjs";

export const OUT = join(ROOT, "test-results");
export const TMP = join(ROOT, "target/e2e");
mkdirSync(OUT, { recursive: true });
mkdirSync(TMP, { recursive: true });

export const SYN = "synthetic/projects/-Users-alex-code-app";
export const MAIN = `${SYN}/d3cb2e5d-477b-4f6b-a7e5-1f4ed60e6538.jsonl`;
export const HOSTILE = `${SYN}/736f7e77-f7fe-47f9-a81a-34c8baf2c7f1.jsonl`;
export const BIG_REAL = "real/daaain__claude-code-log/test/test_data/real_projects/-Users-dain-workspace-claude-code-log-sample/0d3a8e6f-290f-4105-a327-a2496e5e2a83.jsonl";
/** Items several screens tall: where a virtualised list shows its faults. */
export const TALL = "real/d-kimuson__claude-code-viewer/mock-global-claude-dir/projects/sample-project/fe5e1c67-53e7-4862-81ae-d0e013e3270b.jsonl";
export const TURN_CASES = [
  MAIN,
  HOSTILE,
  `${SYN}/27e26b74-d9f6-4aa9-afff-37a69f7cb55e.jsonl`,
  "real/tomjnsn__agentlogs/fixtures/claudecode/compact.jsonl",
  TALL,
  "real/DRMacIver__claude-reliability/snapshot-tests/tests/python-to-rust-port/transcript.jsonl",
  BIG_REAL,
];


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
  // The list may not be drawn yet (a conversation was just chosen).
  await page.waitForSelector("[data-testid=turn-list] article.item", { state: "attached" });
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
  for (let i = 0; i < 360; i++) {
    const c = await current(page);
    if (c && c.inView && pred(c)) return c;
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(r)));
  }
  assert.fail(`current item in view: ${what}; last seen ${JSON.stringify(await current(page))?.slice(0, 300)}`);
}


/**
 * Scrolls the list by `stepPx` per frame (negative: from the end upwards)
 * until it reaches the other end, and checks after each step that the row
 * which was at the top moved by exactly the step: the content never jumps
 * under the reader. Jumps within two screens of the end are reported apart
 * (there the last rows' measured heights can shorten the list under a
 * scroll position that is already at its maximum).
 */
export async function scrollSteadiness(page, stepPx) {
  // In slices of at most ~5 s: WebKitWebDriver gives up on a script that
  // runs ~30 s ("Could not parse script result"), and scrolling a tall file
  // there takes 10-30 s. The walk's state stays in the page between slices.
  for (let first = true; ; first = false) {
    const r = await page.evaluate(async ([step, first]) => {
      const list = document.querySelector("[data-testid=turn-list]");
      const frame = () => new Promise((r) => requestAnimationFrame(() => setTimeout(r, 20)));
      const edge = () => list.getBoundingClientRect().top;
      const topRow = () => {
        for (const r of list.querySelectorAll(".vrow")) {
          const b = r.getBoundingClientRect();
          if (b.bottom > edge() + 5) return { id: r.dataset.id, at: b.top - edge() };
        }
        return null;
      };
      if (first) {
        window.__steady = { jumps: [], nearEnd: [], before: null, steps: 0, reached: false };
        if (step < 0) { list.scrollTop = 1e9; await frame(); await frame(); }
      }
      const w = window.__steady;
      const sliceEnd = performance.now() + 5000;
      for (; w.steps < 5000 && performance.now() < sliceEnd; w.steps++) {
        await frame();
        const before = w.before;
        if (before) {
          const row = list.querySelector(`.vrow[data-id="${before.id}"]`);
          if (row) {
            const moved = before.at - (row.getBoundingClientRect().top - edge());
            if (Math.abs(moved - before.wanted) > 2) (before.nearEnd ? w.nearEnd : w.jumps).push({ row: before.id, wanted: before.wanted, moved: Math.round(moved), scrollTop: list.scrollTop });
          }
        }
        const got = list.scrollTop;
        if ((step > 0 && got + list.clientHeight >= list.scrollHeight - 2) || (step < 0 && got <= 0)) { w.reached = true; break; }
        const t = topRow();
        const fromEnd = list.scrollHeight - list.clientHeight - got;
        list.scrollTop = got + step;
        w.before = t && { ...t, wanted: list.scrollTop - got, nearEnd: fromEnd < 2 * list.clientHeight + Math.abs(step) };
      }
      return { done: w.reached || w.steps >= 5000, jumps: w.jumps, nearEnd: w.nearEnd, steps: w.steps, reached: w.reached };
    }, [stepPx, first]);
    if (r.done) return r;
  }
}
