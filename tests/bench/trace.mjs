// CPU per thread from a Chromium trace (CDP `Tracing`): the page's main
// thread and its dedicated workers, summed over their outermost tasks.
// Shared by tests/bench/browser.mjs (start-up) and tests/bench/follow.mjs.

/** Starts tracing on `cdp` (a page's CDP session); the events collect into the result's `events`. */
export async function startTrace(cdp) {
  const events = [];
  cdp.on("Tracing.dataCollected", (d) => events.push(...d.value));
  await cdp.send("Tracing.start", { categories: "toplevel,disabled-by-default-devtools.timeline", transferMode: "ReportEvents" });
  return { cdp, events };
}

/** Ends the trace: CPU ms of the page's main thread and of its dedicated workers. */
export async function endTrace({ cdp, events }) {
  const done = new Promise((r) => cdp.once("Tracing.tracingComplete", r));
  await cdp.send("Tracing.end");
  await done;
  const names = new Map();
  for (const e of events) if (e.name === "thread_name") names.set(`${e.pid}:${e.tid}`, e.args.name);
  // CPU of the outermost tasks per thread (`tdur`; tasks nest).
  const cpu = new Map();
  const tasks = events.filter((e) => (e.name === "ThreadControllerImpl::RunTask" || e.name === "RunTask") && e.ph === "X" && e.dur);
  const outer = new Map();
  for (const t of tasks.sort((a, b) => a.ts - b.ts)) {
    const k = `${t.pid}:${t.tid}`;
    if ((outer.get(k) ?? -Infinity) >= t.ts + t.dur) continue;
    outer.set(k, t.ts + t.dur);
    cpu.set(k, (cpu.get(k) ?? 0) + (t.tdur ?? t.dur));
  }
  const of = (re) => [...cpu].filter(([k]) => re.test(names.get(k) ?? "")).reduce((a, [, v]) => a + v, 0) / 1000;
  return { mainCpuMs: of(/^CrRendererMain$/), workerCpuMs: of(/DedicatedWorker/) };
}
