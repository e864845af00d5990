// Types of the npm package "graphport": the browser and bundler entry, and the types every
// entry shares. node.d.mts adds loadFile() for Node's ESM entry, index.d.cts is the CommonJS
// entry. No type here needs the DOM lib or @types/node.

declare global {
  // Symbol.dispose for consumers whose lib predates esnext.disposable, declared as TypeScript's
  // own lib and @types/node declare it, so the declarations merge.
  interface SymbolConstructor {
    readonly dispose: unique symbol;
  }
}

/** Stable error codes; see the README's error table. */
export type GraphportErrorCode =
  | 'EMPTY_INPUT'
  | 'UNKNOWN_FORMAT'
  | 'PARSE_ERROR'
  | 'TOO_LARGE'
  | 'INVALID_OPTION'
  | 'NOT_FOUND'
  | 'UNSUPPORTED'
  | 'IO_ERROR'
  | 'INTERNAL';

export declare class GraphportError extends Error {
  readonly name: 'GraphportError';
  readonly code: GraphportErrorCode;
}

/** "auto" detects; the others force a kind, optionally with "-text" or "-binary". */
export type InputFormat =
  | 'auto'
  | 'graph-def' | 'graph-def-text' | 'graph-def-binary'
  | 'meta-graph' | 'meta-graph-text' | 'meta-graph-binary'
  | 'saved-model' | 'saved-model-text' | 'saved-model-binary';

/**
 * How far a load or an export is: bytes read from the input ('read'), or written to the output
 * file `file` ('write'; `total` is null when the size is not known in advance, as for text).
 */
export interface Progress {
  phase: 'read' | 'write';
  file: string;
  done: number;
  total: number | null;
}

/**
 * Called as bytes move, synchronously, from inside load() or export(). Throwing from it stops
 * the work: load() or export() then throws that same error, and nothing is half done.
 */
export type ProgressCallback = (progress: Progress) => void;

export interface LoadOptions {
  format?: InputFormat;
  /** Tag set of the SavedModel MetaGraphDef to select (default ["serve"]). */
  tags?: string[];
  /** The input's name in error messages, usually its file name. */
  name?: string;
  onProgress?: ProgressCallback;
}

/** A synchronous chunk source, for inputs that are neither bytes nor a Blob. */
export interface ChunkSource {
  read(maxBytes: number): Uint8Array | null;
  rewind(): boolean;
  size?: number;
}

/** A Blob or File where the environment has them (DOM lib or @types/node), else nothing. */
export type BlobInput = typeof globalThis extends { Blob: { prototype: infer B } } ? B : never;

export type LoadInput = Uint8Array | ArrayBuffer | ArrayBufferView | BlobInput | ChunkSource;

/** A protobuf message option: a protobuf-JSON object, or its bytes (binary or text format). */
export type MessageOption = Record<string, unknown> | Uint8Array | ArrayBuffer;

/** The options of tf.train.export_meta_graph; the seed's name of each is in its comment. */
export interface ExportOptions {
  /** What to write (default "meta-graph"). */
  to?: 'meta-graph' | 'graph-def' | 'saved-model';
  /** as_text: protobuf text format instead of binary. */
  asText?: boolean;
  /** filename: the name of the main output file. */
  filename?: string;
  /** meta_info_def: a MetaInfoDef whose set fields replace the loaded ones. */
  metaInfoDef?: MessageOption;
  /** graph_def: a GraphDef exported instead of the loaded graph. */
  graphDef?: MessageOption;
  /** saver_def: the SaverDef to export. */
  saverDef?: MessageOption;
  /** collection_list: the collections to export (default all; [] for none). */
  collectionList?: string[] | null;
  /** export_scope: export only the subgraph under this name scope, names stripped of it. */
  exportScope?: string;
  /** clear_devices: empty the device of every top-level node. */
  clearDevices?: boolean;
  /** clear_extraneous_savers: drop the save/restore ops of savers other than saver_def's. */
  clearExtraneousSavers?: boolean;
  /** strip_default_attrs: drop attrs whose value is the op's default. */
  stripDefaultAttrs?: boolean;
  /** save_debug_info: also output the GraphDebugInfo of the exported nodes (name_debug.ext). */
  saveDebugInfo?: boolean;
  /** An OpList (e.g. TensorFlow's ops.pbtxt) consulted first for op definitions and defaults. */
  opRegistry?: MessageOption;
  onProgress?: ProgressCallback;
}

/**
 * Bytes over an ArrayBuffer of their own, never a SharedArrayBuffer: Uint8Array<ArrayBuffer> on
 * TypeScript 5.7 and later (so `new Blob([bytes])` type-checks), plain Uint8Array before.
 */
export type OutputBytes = ReturnType<Uint8ArrayConstructor['of']>;

export interface OutputFile {
  name: string;
  bytes: OutputBytes;
}

export interface ExportResult {
  files: OutputFile[];
  info: ExportInfo;
}

export interface ExportInfo {
  format: 'meta-graph' | 'graph-def' | 'saved-model';
  encoding: 'binary' | 'text';
  /** Names of the files written, main output first. */
  files: string[];
  nodeCount: number;
  /** The op names of the exported stripped_op_list. */
  strippedOpList: string[];
  /** Ops the graph uses that no registry defines (left out of stripped_op_list). */
  unregisteredOps: string[];
  collections: string[];
  unboundInputs: string[];
  /** Nodes removed by clearExtraneousSavers. */
  excludedNodes: string[];
  strippedDefaultAttrs?: number;
  /** Ops whose defaults were unknown, so their attrs were kept. */
  unknownDefaultOps?: string[];
  debugInfoNodes?: number;
}

export interface TensorSummary {
  name: string;
  dtype: string;
  shape: number[] | null;
  sparse?: boolean;
}

export interface Summary {
  family: 'tensorflow';
  format: 'graph-def' | 'meta-graph' | 'saved-model';
  encoding: 'binary' | 'text';
  detection: string;
  inputBytes: number;
  producer: {
    graphProducer: number;
    minConsumer: number;
    tensorflowVersion?: string;
    tensorflowGitVersion?: string;
  };
  nodeCount: number;
  ops: Record<string, number>;
  constants: { count: number; bytes: number };
  /**
   * Name scopes for exportScope, sorted by name: each with the nodes inside it. At most 2,000,
   * the shallowest first; `scopeCount` counts them all.
   */
  scopes: { name: string; nodeCount: number }[];
  scopeCount: number;
  functions: { name: string; nodeCount: number }[];
  collections: { name: string; kind: string; size: number }[];
  signatures: {
    name: string;
    methodName: string;
    inputs: Record<string, TensorSummary>;
    outputs: Record<string, TensorSummary>;
  }[];
  tags: string[];
  hasSaver: boolean;
  metaGraphs: { tags: string[]; nodeCount: number; signatureCount: number }[];
  selectedMetaGraph: number;
}

export interface Model {
  inspect(): Summary;
  export(options?: ExportOptions): ExportResult;
  /** Frees the model's WebAssembly memory; call it (or use `using`) when done. Idempotent. */
  delete(): void;
  /** What `using model = gp.load(...)` calls at the end of the block: delete(). */
  [Symbol.dispose](): void;
  readonly deleted: boolean;
}

export interface Graphport {
  load(input: LoadInput, options?: LoadOptions): Model;
  /** Node only (always there on the Node entries, see NodeGraphport): streams a file from disk. */
  loadFile?(path: string, options?: LoadOptions): Model;
  summaryText(summary: Summary): string;
  usage(): string;
  /** Models loaded and not yet deleted. */
  liveModels(): number;
  /** Bytes of WebAssembly memory held now; the heap never shrinks, so also its peak. */
  heapBytes(): number;
  GraphportError: typeof GraphportError;
}

/** The instance the Node entries give: loadFile() is always there. */
export interface NodeGraphport extends Graphport {
  /** Streams a file from disk into the model, in chunks. */
  loadFile(path: string, options?: LoadOptions): Model;
}

/** The async factory; every call resolves to the same instance. */
declare function createGraphport(): Promise<Graphport>;
export default createGraphport;
export { createGraphport };
