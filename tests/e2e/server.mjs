// A static file server for dist/, on 127.0.0.1 only, at "/" and at any
// prefix given (to prove the build works under a sub-path, as on GitHub Pages).
import { createServer } from "node:http";
import { readFile, stat } from "node:fs/promises";
import { extname, join, normalize } from "node:path";

const TYPES = {
  ".html": "text/html; charset=utf-8", ".js": "text/javascript", ".wasm": "application/wasm",
  ".css": "text/css", ".svg": "image/svg+xml", ".jsonl": "application/x-ndjson", ".json": "application/json",
};

/** Starts a server for `root`, served at `prefix` (e.g. "/" or "/some/sub/path/");
 * `extra` maps further URL paths to files (a test's own script, same origin);
 * a path ending in one of `block` is answered 404 (to see the page cope
 * without it, in every engine). */
export async function serve(root, prefix = "/", port = 0, extra = {}, { block = [] } = {}) {
  const server = createServer(async (req, res) => {
    const url = new URL(req.url, "http://x");
    if (block.some((b) => url.pathname.endsWith(b))) {
      res.writeHead(404).end("blocked by the test");
      return;
    }
    if (extra[url.pathname]) {
      res.writeHead(200, { "content-type": "text/javascript", "cache-control": "no-store" });
      res.end(await readFile(extra[url.pathname]));
      return;
    }
    if (!url.pathname.startsWith(prefix)) {
      res.writeHead(404).end("not under " + prefix);
      return;
    }
    let rel = decodeURIComponent(url.pathname.slice(prefix.length)) || "index.html";
    const file = normalize(join(root, rel));
    if (!file.startsWith(normalize(root))) {
      res.writeHead(403).end();
      return;
    }
    try {
      const s = await stat(file);
      const path = s.isDirectory() ? join(file, "index.html") : file;
      const body = await readFile(path);
      res.writeHead(200, { "content-type": TYPES[extname(path)] ?? "application/octet-stream", "cache-control": "no-store" });
      res.end(body);
    } catch {
      res.writeHead(404).end("not found");
    }
  });
  await new Promise((ok) => server.listen(port, "127.0.0.1", ok));
  const { port: bound } = server.address();
  return { url: `http://127.0.0.1:${bound}${prefix}`, close: () => new Promise((ok) => server.close(ok)) };
}

// `node tests/e2e/server.mjs DIR [PORT]`: used by `make serve`.
if (import.meta.url === `file://${process.argv[1]}`) {
  const root = process.argv[2] ?? "dist";
  const port = Number(process.argv[3] ?? 8080);
  const s = await serve(root, "/", port);
  console.log(`ccscope is served at ${s.url} (Ctrl-C to stop)`);
}
