// Main-thread responsiveness, measured the same way in every engine: a
// `requestAnimationFrame` gap monitor (a frame later than 50 ms after the one
// before is a stall a person sees), plus Chromium's long-task API where the
// engine has it. Shared by tests/bench/browser.mjs and tests/bench/folder.mjs.
import { lacks } from "../e2e/driver.mjs";

/** Over this, a frame's gap or a task is a stall (the issue's target: none). */
export const STALL_MS = 50;

/** Starts both monitors in `page` (idempotent); stalls collect until `takeStalls`. */
export async function watchStalls(page) {
  await page.evaluate((limit) => {
    if (window.__stalls) return;
    const s = window.__stalls = { gaps: [], long: PerformanceObserver.supportedEntryTypes?.includes("longtask") ? [] : null };
    if (s.long) new PerformanceObserver((l) => { for (const e of l.getEntries()) s.long.push({ at: e.startTime, ms: e.duration }); }).observe({ type: "longtask" });
    let last = performance.now();
    const frame = () => {
      const now = performance.now();
      if (now - last > limit) s.gaps.push({ at: last, ms: now - last });
      last = now;
      requestAnimationFrame(frame);
    };
    requestAnimationFrame(frame);
  }, STALL_MS);
}

/** The stalls since the last call: `{ gaps, long }` (`long` null without the API). */
export async function takeStalls(page) {
  return page.evaluate(() => {
    const s = window.__stalls;
    return { gaps: s.gaps.splice(0), long: s.long ? s.long.splice(0) : null };
  });
}

/** "3, longest 120 ms" over `runs[*][key]` (a `takeStalls` result), by kind. */
export function stallWords(runs, key, { from = null } = {}) {
  const words = (list) => {
    if (list == null) return null;
    const l = from == null ? list : list.map((e) => ({ ...e, at: e.at - from }));
    return `${l.length}${l.length ? `, longest ${Math.max(...l.map((e) => e.ms)).toFixed(0)} ms` : ""}` +
      (from != null && l.length ? ` [${l.map((e) => `${e.ms.toFixed(0)} ms at +${e.at.toFixed(0)}`).join(", ")}]` : "");
  };
  const gaps = words(runs.flatMap((r) => r[key].gaps));
  const long = runs.some((r) => r[key].long == null) ? null : words(runs.flatMap((r) => r[key].long));
  return `frames late over ${STALL_MS} ms ${gaps}; long tasks ${long ?? `n/a (${lacks("longTasks")})`}`;
}
