// End-to-end: the conversation view, as a person reads it.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, readFileSync, existsSync } from "node:fs";
import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { launch, withApp, pick, expectedStats, fixtures, ROOT } from "./helpers.mjs";
import { OUT, TMP, SYN, MAIN, HOSTILE, BIG_REAL, TURN_CASES, open, walkList, itemWith, current, waitCurrent } from "./view-helpers.mjs";

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

test("tool calls show their input, result, duration and state", async (t) => {
  const root = fixtures(t);
  if (!root) return;
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
