// Starting Emscripten's loader with a WebAssembly instance the package makes itself, in Node
// and in browsers. Left to fetch and compile its .wasm on its own, Emscripten 3.1.6's loader
// reports each failure on the console (a streaming compile that failed, its fallback, the
// abort), rejects with "Aborted(...)", and under Node copies the bytes it is given before it
// compiles them. Here a failure is one rejection naming the .wasm, and nothing is printed.

// Runs `factory` (the loader) with the instance `instantiate(imports)` resolves to. The
// loader's own promise never settles when that fails, nor when the module's start throws
// (its constructors and Embind's registrations run inside `receive`: a page's
// Content-Security-Policy refusing an eval() did that once): the promise returned here
// rejects, with the error's message prefixed by `where` (the .wasm's path or URL).
export function startLoader(factory, instantiate, where) {
  let failed;
  const failure = new Promise((_, reject) => { failed = reject; });
  const fail = (e, what) => {
    if (e instanceof Error) e.message = `${where}: ${what}${e.message}`;
    failed(e);
  };
  return Promise.race([
    factory({
      instantiateWasm(imports, receive) {
        instantiate(imports).then((instance) => {
          try {
            receive(instance);
          } catch (e) {
            fail(e, 'the module did not start: ');
          }
        }, (e) => fail(e, ''));
        return {};
      },
    }),
    failure,
  ]);
}

// Fetches the .wasm at `url` and instantiates it, compiling while it streams in when the
// server says application/wasm (a streaming compile refuses any other type: then it is read
// whole first).
export async function instantiateUrl(url, imports) {
  const response = await fetch(url, { credentials: 'same-origin' });
  if (!response.ok) throw new Error(`cannot fetch the WebAssembly module: HTTP ${response.status}`);
  const type = (response.headers.get('content-type') ?? '').split(';')[0].trim();
  if (type === 'application/wasm' && typeof WebAssembly.instantiateStreaming === 'function') {
    return (await WebAssembly.instantiateStreaming(response, imports)).instance;
  }
  return (await WebAssembly.instantiate(await response.arrayBuffer(), imports)).instance;
}
