// End-to-end: open once, follow live (File System Access). In Chromium the
// pickers are replaced (before the page loads) by functions that return real
// handles from the origin-private file system, written by the test: from the
// handle on, the product's own path runs — remembering in IndexedDB, the
// walk in the worker, getFile() checks, reading only the appended bytes.
// Engines without handles run the fallback: the input elements, no Follow,
// no Reopen, and the landing page's line naming the browsers that have them.
//
// The records are the shapes of ../shared/docs/transcript-format.md (a
// prompt, an assistant turn with a tool_use, its tool_result, an assistant
// text), cut to the fields the view reads.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { launch, DIST, ENGINE, skipped, pick, fixtures, axe } from "./helpers.mjs";
import { serve } from "./server.mjs";
import { fakePickers } from "./opfs.mjs";

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

// Recent: a running call counts from its record to the clock now.
const T0 = Date.now() - 3600_000;
/** An e-mail address in a file's name, as tests/fixtures/planted.mjs plants it: Redact hides it. */
const PLANTED_MAIL = "jane.doe@example.com";
const at = (s) => new Date(T0 + s * 1000).toISOString();
const rec = (o) => JSON.stringify(o) + "\n";
const prompt = (k, s) => rec({ type: "user", uuid: `u${k}`, sessionId: "s1", timestamp: at(s), message: { role: "user", content: `question ${k}` } });
const answer = (k, s) => rec({ type: "assistant", uuid: `a${k}`, sessionId: "s1", timestamp: at(s), message: { id: `m${k}`, role: "assistant", model: "claude-sonnet-4-5", content: [{ type: "text", text: `answer ${k}` }], usage: { input_tokens: 10, output_tokens: 5 } } });
const call = (k, s) => rec({ type: "assistant", uuid: `c${k}`, sessionId: "s1", timestamp: at(s), message: { id: `mc${k}`, role: "assistant", model: "claude-sonnet-4-5", content: [{ type: "tool_use", id: `t${k}`, name: "Bash", input: { command: `make step${k}` } }], usage: { input_tokens: 10, output_tokens: 5 } } });
const result = (k, s) => rec({ type: "user", uuid: `r${k}`, sessionId: "s1", timestamp: at(s), message: { role: "user", content: [{ type: "tool_result", tool_use_id: `t${k}`, content: "done" }] } });

/** A page whose pickers hand out OPFS handles; one context, so a reload
 * keeps its IndexedDB and OPFS. */
async function handlesApp(fn) {
  const server = await serve(DIST, "/", 0, {}, {});
  const context = await browser.newContext({ viewport: { width: 1200, height: 900 } });
  await context.addInitScript(fakePickers);
  const page = await context.newPage();
  const problems = [];
  page.on("console", (m) => { if (m.type() === "error") problems.push(m.text()); });
  page.on("pageerror", (e) => problems.push(String(e)));
  try {
    await page.goto(server.url);
    await page.waitForSelector("[data-testid=open-sample]");
    await page.evaluate(() => window.__opfs.clear());
    await fn({ page, url: server.url });
    assert.deepEqual(problems, [], "no console errors");
  } finally {
    await context.close();
    await server.close();
  }
}

const count = (page) => page.evaluate(() => Number(document.querySelector("[data-testid=turn-list]")?.dataset.count ?? -1));
const waitCount = (page, n) => page.waitForFunction((n) => Number(document.querySelector("[data-testid=turn-list]")?.dataset.count) === n, n, { timeout: 15000 });

test("a file picked through a handle is followed: appended records appear, a half line waits, a running call runs", async (t) => {
  if (skipped("fileSystemHandle", t.name, "the fallback test below: no Follow and no Reopen there")) return;
  await handlesApp(async ({ page }) => {
    const path = "live/session.jsonl";
    let text = "";
    for (let k = 0; k < 40; k++) text += prompt(k, k * 10) + answer(k, k * 10 + 5);
    text += prompt(40, 400) + call(40, 401);
    await page.evaluate(([p, t]) => window.__opfs.write(p, t), [path, text]);
    await page.evaluate((p) => { window.__pick = [p]; }, path);
    await page.click("[data-testid=open-files]");
    await page.waitForSelector("[data-testid=live] [data-testid=follow]:checked");
    await page.waitForSelector("[data-testid=tool-call][data-state=running]", { state: "attached", timeout: 15000 }).catch(async () => {
      // The call is the last item: bring it into view.
      await page.evaluate(() => { const l = document.querySelector("[data-testid=turn-list]"); l.scrollTop = l.scrollHeight; });
      await page.waitForSelector("[data-testid=tool-call][data-state=running]", { state: "attached", timeout: 15000 });
    });
    const first = await count(page);
    assert.equal(first, 82, "40 questions and answers, a question and the running call's turn");
    const d1 = await page.textContent("[data-testid=tool-call][data-state=running] [data-testid=duration]");
    await page.waitForFunction((d) => document.querySelector("[data-testid=tool-call][data-state=running] [data-testid=duration]")?.textContent !== d, d1, { timeout: 5000 });

    // The person reads further up: records appended below show as a pill, the place is kept
    // (also once the address has followed the reading position).
    await page.evaluate(() => { document.querySelector("[data-testid=turn-list]").scrollTop = 600; });
    await page.waitForFunction(() => /L\d+$/.test(location.hash), null, { timeout: 5000 });
    const place = await page.evaluate(() => document.querySelector("[data-testid=turn-list]").scrollTop);
    const half = answer(41, 420);
    await page.evaluate(([p, t]) => window.__opfs.append(p, t), [path, result(40, 410) + half.slice(0, 50)]);
    await page.waitForFunction(() => /A line is being written/.test(document.querySelector("[data-testid=live]")?.textContent), null, { timeout: 15000 });
    assert.equal(await count(page), first, "the result joins its call's turn; the half line is not an item");
    assert.equal(await page.$$eval("[data-testid=tool-call][data-state=running]", (e) => e.length), 0, "the call has its result now");
    assert.ok(!(await page.textContent("[data-testid=viewer]")).includes("skipped"), "a half-written line is never counted malformed");
    await page.evaluate(([p, t]) => window.__opfs.append(p, t), [path, half.slice(50)]);
    await waitCount(page, first + 1);
    assert.equal(await page.evaluate(() => document.querySelector("[data-testid=turn-list]").scrollTop), place, "what the person reads did not move");
    await page.waitForSelector("[data-testid=new-pill]");
    assert.match(await page.textContent("[data-testid=new-pill]"), /^1 new/);
    await page.click("[data-testid=new-pill]");
    await page.waitForSelector("text=answer 41");
    await page.waitForSelector("[data-testid=new-pill]", { state: "detached" });

    // At the bottom, new items scroll in.
    await page.evaluate(([p, t]) => window.__opfs.append(p, t), [path, prompt(42, 430) + answer(42, 435)]);
    await waitCount(page, first + 3);
    await page.waitForSelector("text=answer 42", { timeout: 5000 });
    assert.equal(await page.$("[data-testid=new-pill]"), null, "no pill: the new items came into view");
    assert.equal(await page.textContent("[data-testid=line-count]"), "86 lines", "the header's facts follow");

    // Paused: nothing is read; on again: it catches up.
    await page.click("[data-testid=follow]");
    await page.waitForSelector("[data-testid=live]:has-text('Paused')");
    await page.evaluate(([p, t]) => window.__opfs.append(p, t), [path, prompt(43, 440)]);
    await new Promise((r) => setTimeout(r, 2500));
    assert.equal(await count(page), first + 3, "paused: not read");
    await page.click("[data-testid=follow]");
    await waitCount(page, first + 4);

    // Shrunk: read again from the start, with a notice.
    await page.evaluate(([p, n]) => window.__opfs.truncate(p, n), [path, (prompt(0, 0) + answer(0, 5)).length]);
    await page.waitForSelector("[data-testid=notice]:has-text('shrank')", { timeout: 15000 });
    await waitCount(page, 2);

    // Gone: said, and what was read stays.
    await page.evaluate((p) => window.__opfs.remove(p), path);
    await page.waitForSelector("[data-testid=live]:has-text('can no longer be read')", { timeout: 15000 });
    assert.equal(await count(page), 2);
  });
});

test("a folder opened through a handle is remembered, reopens after a reload, and a deep link lands on its line", async (t) => {
  if (skipped("fileSystemHandle", t.name, "the fallback test below: no Reopen there")) return;
  await handlesApp(async ({ page, url }) => {
    let a = "";
    for (let k = 0; k < 30; k++) a += prompt(k, k * 10) + answer(k, k * 10 + 5);
    await page.evaluate(([t]) => window.__opfs.write("projects/-tmp-app/aaaa.jsonl", t), [a]);
    await page.evaluate(([t]) => window.__opfs.write("projects/-tmp-app/bbbb.jsonl", t), [prompt(0, 0) + answer(0, 5)]);
    await page.evaluate(() => { window.__pick = ["projects"]; });
    await page.click("[data-testid=open-folder]");
    await page.waitForSelector("[data-testid=sessions]");
    await page.waitForFunction(() => document.querySelector("[data-testid=sessions]")?.dataset.count === "2", null, { timeout: 15000 });

    // A reload starts over, but offers the folder again.
    await page.reload();
    await page.waitForSelector("[data-testid=remembered]");
    assert.match(await page.textContent("[data-testid=remembered]"), /Reopen projects\/[\s\S]*last opened just now/);
    assert.match(await page.textContent("[data-testid=remembered]"), /never a file's contents/);
    assert.deepEqual(await axe(page), [], "the landing page with its remembered list");
    await page.click("[data-testid=reopen]");
    await page.waitForFunction(() => document.querySelector("[data-testid=sessions]")?.dataset.count === "2", null, { timeout: 15000 });

    // A deep link to a line of a remembered folder's conversation.
    await page.goto(url + "#/projects/-tmp-app/aaaa.jsonl:L41");
    await page.reload();
    await page.waitForSelector("[data-testid=deep-link]");
    await page.click("[data-testid=reopen]");
    await page.waitForFunction(() => document.querySelector("[data-testid=turn-list] .current"), null, { timeout: 15000 });
    assert.match(await page.textContent("[data-testid=turn-list] .current"), /question 20/, "line 41 is the 21st question");
    assert.match(page.url(), /aaaa\.jsonl:L41$/);

    // Forget all: nothing offered after a reload.
    await page.goto(url);
    await page.reload();
    await page.waitForSelector("[data-testid=forget-all]");
    await page.click("[data-testid=forget-all]");
    await page.waitForSelector("[data-testid=remembered]", { state: "detached" });
    await page.reload();
    await page.waitForSelector("[data-testid=open-sample]");
    assert.equal(await page.$("[data-testid=remembered]"), null, "forgotten");
  });
});

test("a followed folder: a new conversation appears, a deleted one hides, a new run appears under its call", async (t) => {
  if (skipped("fileSystemHandle", t.name, "the fallback test below: a folder picked through the input is a snapshot")) return;
  await handlesApp(async ({ page }) => {
    const dir = "projects/-tmp-app";
    const spawn = rec({ type: "assistant", uuid: "c1", sessionId: "s1", timestamp: at(5), message: { id: "mc1", role: "assistant", model: "claude-sonnet-4-5", content: [{ type: "tool_use", id: "ta1", name: "Agent", input: { description: "Audit the crate", prompt: "audit it", subagent_type: "general-purpose" } }], usage: { input_tokens: 10, output_tokens: 5 } } });
    const spawned = rec({ type: "user", uuid: "r1", sessionId: "s1", timestamp: at(60), message: { role: "user", content: [{ type: "tool_result", tool_use_id: "ta1", content: "audited" }] } });
    await page.evaluate(([d, a, b]) => Promise.all([window.__opfs.write(`${d}/aaaa.jsonl`, a), window.__opfs.write(`${d}/bbbb.jsonl`, b)]),
      [dir, prompt(0, 0).replace("question 0", "spawn an agent") + spawn + spawned, prompt(1, 0) + answer(1, 5)]);
    await page.evaluate(() => { window.__pick = ["projects"]; });
    await page.click("[data-testid=open-folder]");
    await page.waitForFunction(() => document.querySelector("[data-testid=sessions]")?.dataset.count === "2", null, { timeout: 15000 });
    await page.waitForSelector("[data-testid=folder] [data-testid=follow]:checked");

    await page.evaluate(([d, t]) => window.__opfs.write(`${d}/cccc.jsonl`, t), [dir, prompt(2, 0) + answer(2, 5)]);
    await page.waitForFunction(() => document.querySelector("[data-testid=sessions]")?.dataset.count === "3", null, { timeout: 20000 });
    await page.waitForSelector("text=question 2", { timeout: 10000 });

    await page.evaluate((d) => window.__opfs.write(`${d}/bbbb.desktop-released.json`, JSON.stringify({ v: 1, releasedAt: "2026-12-01T11:00:00.000Z", reason: "delete" })), dir);
    await page.waitForFunction(() => document.querySelector("[data-testid=sessions]")?.dataset.count === "2", null, { timeout: 20000 });
    assert.match(await page.textContent("[data-testid=deleted-count]"), /1 deleted in the desktop app/);

    // The conversation open, its run's files appear: the run shows under its call.
    await page.click("text=spawn an agent");
    await page.waitForSelector("[data-testid=tool-call][data-tool=Agent]");
    assert.equal(await page.$("[data-testid=run]"), null, "no run yet");
    const run = prompt(9, 6).replace('"sessionId"', '"isSidechain":true,"agentId":"x1","sessionId"') + answer(9, 50).replace('"sessionId"', '"isSidechain":true,"agentId":"x1","sessionId"');
    await page.evaluate(([d, r]) => Promise.all([
      window.__opfs.write(`${d}/aaaa/subagents/agent-x1.jsonl`, r),
      window.__opfs.write(`${d}/aaaa/subagents/agent-x1.meta.json`, JSON.stringify({ agentType: "general-purpose", description: "Audit the crate", toolUseId: "ta1" })),
    ]), [dir, run]);
    await page.waitForSelector("[data-testid=run][data-agent=x1]", { timeout: 20000 });
    assert.match(await page.textContent("[data-testid=crumbs]"), /spawn an agent/, "still on the same conversation");

    // With Redact on, the notice for an open conversation that went away
    // names it redacted (its file name holds an e-mail address).
    await page.click("[data-testid=redact-toggle]");
    const mailed = `${dir}/${PLANTED_MAIL}.jsonl`;
    await page.evaluate(([p, t]) => window.__opfs.write(p, t), [mailed, prompt(3, 0).replace("question 3", "mailed question") + answer(3, 5)]);
    await page.click("[data-testid=back]");
    await page.waitForSelector("text=mailed question", { timeout: 20000 });
    await page.click("text=mailed question");
    await page.waitForSelector("[data-testid=turn-list] article.item");
    await page.evaluate((p) => window.__opfs.remove(p), mailed);
    await page.waitForSelector("[data-testid=notice]:has-text('no longer in the folder')", { timeout: 20000 });
    const notice = await page.textContent("[data-testid=notice]");
    assert.match(notice, /\/<email-\d+>\S* is no longer in the folder/, notice);
    assert.ok(!notice.includes("example.com") && !page.url().includes("example.com"), `nothing of the address shows: ${notice} ${page.url()}`);
  });
});

test("without handles (or a file picked through the input), nothing follows and nothing is offered again", async () => {
  const server = await serve(DIST, "/", 0, {}, {});
  const context = await browser.newContext({ viewport: { width: 1200, height: 900 } });
  const page = await context.newPage();
  try {
    await page.goto(server.url);
    await page.waitForSelector("[data-testid=handles-line]");
    const line = await page.textContent("[data-testid=handles-line]");
    const has = await page.evaluate(() => typeof window.showOpenFilePicker === "function" && typeof window.showDirectoryPicker === "function");
    if (ENGINE === "chromium") assert.ok(has, "Chromium gives pages handles");
    if (has) {
      assert.match(line, /follow a conversation as Claude Code writes it/);
    } else {
      assert.match(line, /need a Chromium-based browser \(Chrome, Edge, Brave, Arc\)/);
      assert.ok(await page.isVisible("label[for=file-input]"), "the input elements, as before");
    }
    assert.equal(await page.$("[data-testid=remembered]"), null);
    const file = `${fixtures()}/synthetic/projects/-Users-alex-code-app/d3cb2e5d-477b-4f6b-a7e5-1f4ed60e6538.jsonl`;
    await pick(page, file);
    assert.equal(await page.$("[data-testid=live]"), null, "a file picked through the input is a snapshot: no Follow");
  } finally {
    await context.close();
    await server.close();
  }
});
