// A static file server for the page and the browser tests: serves the repository root on
// localhost, with the MIME types WebAssembly and ES modules need. No dependencies.
//   node scripts/serve.mjs [port]     prints the page's URL; port 0 picks a free one, and a
//                                     port already in use falls back to a free one
import { createReadStream, existsSync, statSync } from 'node:fs';
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
  '.txt': 'text/plain; charset=utf-8',
  '.md': 'text/plain; charset=utf-8',
  '.pbtxt': 'text/plain; charset=utf-8',
};

// Maps URL prefixes to folders: {'/': repoRoot, '/corpus/': corpusDir}. Longest prefix wins.
// options.redirects: {'/': '/web/'} sends exact paths elsewhere.
export function startServer(mounts, port = 0, { redirects = {} } = {}) {
  const entries = Object.entries(mounts)
    .map(([prefix, root]) => [prefix, resolve(root)])
    .sort((a, b) => b[0].length - a[0].length);
  const server = createServer((req, res) => {
    let path;
    try {
      path = decodeURIComponent(new URL(req.url, 'http://localhost').pathname);
    } catch {
      res.writeHead(400).end();
      return;
    }
    if (redirects[path]) {
      res.writeHead(302, { Location: redirects[path] }).end();
      return;
    }
    const [prefix, root] = entries.find(([p]) => path.startsWith(p)) ?? [];
    if (!root) {
      res.writeHead(404).end();
      return;
    }
    let file = resolve(root, normalize(`.${sep}${path.slice(prefix.length)}`));
    if (file !== root && !file.startsWith(root + sep)) {
      res.writeHead(403).end();
      return;
    }
    try {
      if (statSync(file).isDirectory()) {
        if (!path.endsWith('/')) {
          // Relative URLs in the folder's index.html resolve against the folder.
          res.writeHead(301, { Location: `${path}/` }).end();
          return;
        }
        file = join(file, 'index.html');
      }
      const size = statSync(file).size;
      res.writeHead(200, {
        'Content-Type': TYPES[extname(file)] ?? 'application/octet-stream',
        'Content-Length': size,
        'Cache-Control': 'no-cache',
      });
      if (req.method === 'HEAD') {
        res.end();
        return;
      }
      createReadStream(file).pipe(res);
    } catch {
      res.writeHead(404).end();
    }
  });
  return new Promise((resolvePromise, rejectPromise) => {
    server.once('error', rejectPromise);
    server.listen(port, '127.0.0.1', () => {
      server.off('error', rejectPromise);
      resolvePromise(server);
    });
  });
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const repo = fileURLToPath(new URL('..', import.meta.url));
  const wanted = Number(process.argv[2] ?? process.env.PORT ?? 8080);
  const options = { redirects: { '/': '/web/' } };
  let server;
  try {
    server = await startServer({ '/': repo }, wanted, options);
  } catch (e) {
    if (e.code !== 'EADDRINUSE') throw e;
    console.log(`port ${wanted} is in use; picking a free one`);
    server = await startServer({ '/': repo }, 0, options);
  }
  if (!existsSync(join(repo, 'bindings/js/wasm/graphport_web.wasm'))) {
    console.log('warning: bindings/js/wasm/ is not built yet: run `bash scripts/build.sh wasm` (or `npm start`)');
  }
  console.log(`graphport page: http://127.0.0.1:${server.address().port}/web/`);
  console.log('serving the repository root on 127.0.0.1 only; press Ctrl-C to stop');
  const stop = () => {
    server.close(() => process.exit(0));
    server.closeAllConnections();
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}
