// A static file server for the page and the browser tests: serves the repository root on
// localhost, with the MIME types WebAssembly and ES modules need. No dependencies.
//   node scripts/serve.mjs [port]     (port 0 picks a free one)
import { createReadStream, statSync } from 'node:fs';
import { createServer } from 'node:http';
import { extname, join, normalize, resolve, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.cjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.wasm': 'application/wasm',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
};

// Maps URL prefixes to folders: {'/': repoRoot, '/corpus/': corpusDir}. Longest prefix wins.
export function startServer(mounts, port = 0) {
  const entries = Object.entries(mounts).sort((a, b) => b[0].length - a[0].length);
  const server = createServer((req, res) => {
    const path = decodeURIComponent(new URL(req.url, 'http://localhost').pathname);
    const [prefix, root] = entries.find(([p]) => path.startsWith(p)) ?? [];
    if (!root) {
      res.writeHead(404).end();
      return;
    }
    let file = resolve(root, normalize(`.${sep}${path.slice(prefix.length)}`));
    if (!file.startsWith(resolve(root))) {
      res.writeHead(403).end();
      return;
    }
    try {
      if (statSync(file).isDirectory()) file = join(file, 'index.html');
      const size = statSync(file).size;
      res.writeHead(200, {
        'Content-Type': TYPES[extname(file)] ?? 'application/octet-stream',
        'Content-Length': size,
        'Cache-Control': 'no-cache',
      });
      createReadStream(file).pipe(res);
    } catch {
      res.writeHead(404).end();
    }
  });
  return new Promise((resolvePromise) => {
    server.listen(port, '127.0.0.1', () => resolvePromise(server));
  });
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const repo = fileURLToPath(new URL('..', import.meta.url));
  const server = await startServer({ '/': repo }, Number(process.argv[2] ?? 8080));
  console.log(`graphport page: http://127.0.0.1:${server.address().port}/web/`);
}
