import { launch, openApp, pick, FIXTURES } from "../tests/e2e/helpers.mjs";
const file = process.argv[2] || `${FIXTURES}/real/d-kimuson__claude-code-viewer/mock-global-claude-dir/projects/sample-project/fe5e1c67-53e7-4862-81ae-d0e013e3270b.jsonl`;
const step = Number(process.argv[3] ?? 300);
const browser = await launch();
const app = await openApp(browser, "/");
app.page.on("console", (m) => console.log("console", m.type(), m.text().slice(0,200)));
browser.on("disconnected", () => console.log("DISCONNECTED"));
app.page.on("crash", () => console.log("CRASH"));
app.page.on("close", () => console.log("CLOSE"));
await pick(app.page, file);
await app.page.waitForSelector("[data-testid=turn-list] article.item");
try {
const r = await app.page.evaluate(async (step) => {
  const list = document.querySelector("[data-testid=turn-list]");
  const frame = () => new Promise((r) => requestAnimationFrame(() => setTimeout(r, 20)));
  const log = [];
  let want = 0;
  if (step < 0) { list.scrollTop = 1e9; await frame(); await frame(); }
  const probe = () => {
    const top = list.getBoundingClientRect().top;
    for (const r of list.querySelectorAll(".vrow")) { const b = r.getBoundingClientRect(); if (b.bottom > top + 5) return [r.dataset.id, b.top - top]; }
    return null;
  };
  let jumps = [];
  let before = null;
  for (let i = 0; i < 3000; i++) {
    await frame();
    if (before) {
      const row = list.querySelector(`.vrow[data-id="${before[0]}"]`);
      if (row) {
        const at = row.getBoundingClientRect().top - list.getBoundingClientRect().top;
        const moved = before[1] - at, wanted = before[2];
        if (Math.abs(moved - wanted) > 2) jumps.push([before[0], wanted, Math.round(moved), i]);
      }
    }
    const got = list.scrollTop;
    log.push([want, got, list.scrollHeight, list.querySelectorAll(".vrow").length]);
    console.log(JSON.stringify(log[log.length-1]));
    if (step > 0 && got + list.clientHeight >= list.scrollHeight - 2) break;
    if (step < 0 && got <= 0) break;
    want = got + step;
    const p = probe();
    list.scrollTop = want;
    before = p && [p[0], p[1], list.scrollTop - got];
  }
  console.log("visual jumps (row, wanted px, moved px): " + jumps.length + " " + JSON.stringify(jumps.slice(0, 10)));
  return log;
}, step);
let back = 0;
for (let i = 1; i < r.length; i++) if ((r[i][1] - r[i-1][1]) * Math.sign(step) < 0) back++;
console.log("steps", r.length, "backwards", back, "last", JSON.stringify(r.slice(-3)));
console.log(r.filter((x, i) => i > 0 && (x[1] - r[i-1][1]) * Math.sign(step) < 0).slice(0, 10).map(x => JSON.stringify(x)).join("\n"));
} catch (e) { console.log("ERR", String(e).slice(0, 300)); }
console.log("problems", app.problems.slice(0,5));
await browser.close(); process.exit(0);
