// Developer aid: scroll a file in the built viewer by STEP px per frame
// (negative: upwards from the end) and print every jump of the content.
//   node tools/dbg-scroll.mjs FILE [STEP]
import { launch, openApp } from "../tests/e2e/helpers.mjs";
import { open, scrollSteadiness } from "../tests/e2e/view-helpers.mjs";

const [file, step = "300"] = process.argv.slice(2);
if (!file) {
  console.error("usage: node tools/dbg-scroll.mjs FILE [STEP]");
  process.exit(2);
}
const browser = await launch();
const app = await openApp(browser, "/");
await open(app.page, file);
const r = await scrollSteadiness(app.page, Number(step));
console.log(JSON.stringify({ ...r, jumps: r.jumps.slice(0, 20), nearEnd: r.nearEnd.slice(0, 20) }, null, 1));
console.log(`problems: ${JSON.stringify(app.problems)}`);
await browser.close();
