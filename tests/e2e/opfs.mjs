// The origin-private file system (OPFS) as a stand-in for the person's
// disk: pickers that return its real handles (so the product's own path from
// the handle on is tested), and a writer that appends, truncates and removes
// as Claude Code would. Installed with `context.addInitScript(fakePickers)`
// before the page loads (tests/e2e/follow.test.mjs, tests/bench/follow.mjs).

/** The origin-private file system, and pickers that return its handles:
 * `window.__pick` names what the next picker returns (paths in OPFS). */
export function fakePickers() {
  const walk = async (path) => {
    let d = await navigator.storage.getDirectory();
    const parts = path.split("/");
    const last = parts.pop();
    for (const p of parts) d = await d.getDirectoryHandle(p, { create: true });
    return [d, last];
  };
  window.showOpenFilePicker = async () => Promise.all((window.__pick ?? []).map(async (p) => { const [d, f] = await walk(p); return d.getFileHandle(f); }));
  window.showDirectoryPicker = async () => { const [d, f] = await walk(window.__pick[0]); return d.getDirectoryHandle(f); };
  window.__opfs = {
    async write(path, text) { const [d, f] = await walk(path); const w = await (await d.getFileHandle(f, { create: true })).createWritable(); await w.write(text); await w.close(); },
    async append(path, text) {
      const [d, f] = await walk(path);
      const h = await d.getFileHandle(f, { create: true });
      const size = (await h.getFile()).size;
      const w = await h.createWritable({ keepExistingData: true });
      await w.seek(size); await w.write(text); await w.close();
    },
    async truncate(path, n) { const [d, f] = await walk(path); const w = await (await d.getFileHandle(f)).createWritable({ keepExistingData: true }); await w.truncate(n); await w.close(); },
    async remove(path) { const [d, f] = await walk(path); await d.removeEntry(f); },
    async clear() { const r = await navigator.storage.getDirectory(); for await (const k of r.keys()) await r.removeEntry(k, { recursive: true }); },
  };
}
