npx esbuild app.mjs --bundle --format=esm --outfile=dist/app.js
mkdir -p dist/wasm
cp node_modules/graphport/bindings/js/wasm/graphport_web.wasm dist/wasm/
cp index.html dist/
