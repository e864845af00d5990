// Options between JavaScript and the core. A bytes value (a message or bytes option: a whole
// GraphDef, a pickled user_info) crosses as bytes: the JSON text holds {"$blob": i} and the
// bytes come beside it as blobs[i], a Uint8Array copied once into the heap, where base64 in
// the text would cost an encode in JS, a third more text and a decode here.
#ifndef GRAPHPORT_BINDINGS_WASM_JS_OPTIONS_H_
#define GRAPHPORT_BINDINGS_WASM_JS_OPTIONS_H_

#include <emscripten/val.h>

#include <nlohmann/json.hpp>
#include <string>

namespace graphport::wasm {

// The options object of `text` ("" is none) with each {"$blob": i} member replaced by a binary
// value holding blobs[i]. Throws kInvalidOption naming `what` ("export") for text that is not
// an object, or a blob index out of range.
nlohmann::json OptionsFromJs(const std::string& text, const emscripten::val& blobs,
                             const std::string& what);

// The reverse, for options the core made (the Node CLI's parsed flags): each binary member of
// each object in `objects` becomes {"$blob": i} and its bytes a Uint8Array pushed to `blobs`.
void BlobsToJs(nlohmann::json* objects, emscripten::val* blobs);

}  // namespace graphport::wasm

#endif  // GRAPHPORT_BINDINGS_WASM_JS_OPTIONS_H_
