// Types of the npm package "graphport": the browser and bundler entry, and the types every
// entry shares. node.d.mts adds loadFile() and exportToFile() for Node's ESM entry, index.d.cts
// is the CommonJS entry. No type here needs the DOM lib or @types/node.

declare global {
  // Symbol.dispose for consumers whose lib predates esnext.disposable, declared as TypeScript's
  // own lib and @types/node declare it, so the declarations merge.
  interface SymbolConstructor {
    readonly dispose: unique symbol;
  }
}

// The stable error codes, generated from the core's list with their meanings.
export type { GraphportErrorCode } from './error_codes.js';
import type { GraphportErrorCode } from './error_codes.js';

export declare class GraphportError extends Error {
  readonly name: 'GraphportError';
  readonly code: GraphportErrorCode;
  /** Where the input went wrong, when known: the file (as the caller named it), ... */
  readonly file?: string;
  /** ... the byte offset in it, ... */
  readonly offset?: number;
  /** ... the 1-based line and column of a text input, ... */
  readonly line?: number;
  readonly column?: number;
  /** ... a TensorFlow node or function, a MegEngine operator, or the option that was wrong. */
  readonly node?: string;
  readonly operator?: string;
  readonly option?: string;
}

export type {
  FamilyExportOptions, FamilyId, FamilyLoadOptions, InputFormat,
} from './options.js';
import type { FamilyExportOptions, FamilyId, FamilyLoadOptions, InputFormat } from './options.js';
// The result types (Summary, ExportInfo and every type they name), generated from the
// families' result descriptions: results.d.ts.
export type * from './results.js';
import type {
  ExportInfo, ExportPreview, FreezeReport, MegEngineOperator, Summary, UnfusedOp, UnsupportedOp,
  WeightQuantizationChange,
} from './results.js';

/**
 * How far a load or an export is: bytes read from the input ('read'), or written to the output
 * file `file` ('write'; `total` is null when the size is not known in advance: a text file that
 * exportTo() prints as it goes; export() counts it first).
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

/** Options of every load, and of every family's (generated from the schemas: options.d.ts). */
export type LoadOptions = FamilyLoadOptions & {
  format?: InputFormat;
  /** The input's name in error messages, usually its file name or folder. */
  name?: string;
  onProgress?: ProgressCallback;
};

/** A synchronous chunk source, for inputs that are neither bytes nor a Blob. */
export interface ChunkSource {
  read(maxBytes: number): Uint8Array | null;
  rewind(): boolean;
  size?: number;
}

/** A Blob or File where the environment has them (DOM lib or @types/node), else nothing. */
export type BlobInput = typeof globalThis extends { Blob: { prototype: infer B } } ? B : never;

/** One input: bytes, a Blob or File (streamed inside a Worker), or a chunk source. */
export type SingleInput = Uint8Array | ArrayBuffer | ArrayBufferView | BlobInput | ChunkSource;

/**
 * A model of several files (a SavedModel folder, model.json and its shards), by relative path
 * with '/' ("variables/variables.index"); each is read only if the reader needs it.
 */
export interface FilesInput {
  files: Record<string, SingleInput>;
  /** The file the caller points at, when the others are its companions (a model.json's shards). */
  primary?: string;
}

/** One input, several named ones, or the Files of a dropped folder (in a Worker). */
export type LoadInput = SingleInput | FilesInput | BlobInput[];

/** A protobuf message option: a protobuf-JSON object, or its bytes (binary or text format). */
export type MessageOption = Record<string, unknown> | Uint8Array | ArrayBuffer;

/** Bytes, or a string taken as its UTF-8 bytes. */
export type BytesOption = Uint8Array | ArrayBuffer | string;

/**
 * The export options of the loaded model's family (generated from the schemas: options.d.ts;
 * gp.optionSchema(family) describes them at run time).
 */
export type ExportOptions = FamilyExportOptions & {
  onProgress?: ProgressCallback;
};

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

/**
 * One output file as a sink receives it: the core calls sizeHint() (when it knows the size:
 * binary outputs), then write() for each chunk, then close() once the file is whole.
 */
export interface ExportFileSink {
  /** The file's size in bytes, known before its first chunk. */
  sizeHint?(bytes: number): void;
  /**
   * The next chunk, at most 1 MiB. It is a view of the WebAssembly heap, valid only during this
   * call (a later chunk reuses the memory): write it out or copy it before returning, and do not
   * change it (a big node's bytes are lent from the model itself). Handing out the view itself is
   * what lets a file sink write to its descriptor with no copy at all.
   */
  write(chunk: Uint8Array): void;
  close(): void;
}

/**
 * Where model.exportTo() puts the files: each opened, filled and closed in turn, one at a time.
 * Every call is synchronous (the export runs inside one WebAssembly call). Throwing from any of
 * them stops the export with IO_ERROR (its `cause` is what was thrown).
 */
export interface ExportSink {
  open(name: string): ExportFileSink;
  /**
   * Called once if the export fails, for whatever reason, after the core stopped: files the
   * sink opened or even closed are not complete and should be discarded. What it throws is
   * ignored (the export's error is the one thrown).
   */
  abort?(error: unknown): void;
}

export interface SinkExportResult {
  /** The files the sink closed, in order. */
  files: { name: string; size: number }[];
  info: ExportInfo;
}

/** A WritableStream of bytes (the DOM's, Node's or a polyfill's): what exportToStreams writes to. */
export interface ByteWritableStream {
  getWriter(): {
    write(chunk: Uint8Array): Promise<void>;
    close(): Promise<void>;
    abort(reason?: unknown): Promise<void>;
  };
}

/** model.graph()'s options. */
export interface GraphOptions {
  /** '' (the top level, the default) or a group's name: 'a/b' (a TensorFlow or TF.js name
   * scope), 'backbone.layer1' (a MegEngine operator-name prefix). */
  group?: string;
  /** Most children in the level; the rest are left out and counted in `truncated`. 2000. */
  limit?: number;
}

/** A group of a graph level: a name scope or name prefix, with the nodes inside it. */
export interface GraphGroupItem {
  kind: 'group';
  /** The group's full name: what graph({group}) takes. */
  name: string;
  /** The last part of the name. */
  label: string;
  /** Nodes inside the group, at any depth. */
  nodes: number;
  weightBytes: number;
}

/** A node of a graph level: its full name is its id (node() takes it). */
export interface GraphNodeItem {
  kind: 'node';
  name: string;
  label: string;
  op: string;
  weightBytes: number;
}

/** Edges between two children, by their index in `children`; -1 is outside the group. */
export interface GraphEdge {
  from: number;
  to: number;
  /** How many node edges it stands for. */
  count: number;
  /** Control (ordering only) edges are apart from data edges. */
  control: boolean;
}

/** One level of a graph: what model.graph() returns. */
export interface GraphLevel {
  group: string;
  /** '/' or '.': what splits a name into its groups. */
  separator: string;
  /** Nodes of the whole graph. */
  nodeCount: number;
  /** Nodes inside `group`; the children's counts add up to it. */
  groupNodeCount: number;
  children: Array<GraphGroupItem | GraphNodeItem>;
  edges: GraphEdge[];
  /** Children left out past the limit. */
  truncated: number;
  /** Inputs that name no node of the graph (not drawn). */
  unresolvedInputs: number;
}

/** An input or output of a node, with what the model says of its tensor. */
export interface GraphTensorRef {
  /** 'node:1' (an input), or absent for an output. */
  name?: string;
  /** The producer (an input). */
  node?: string;
  output?: number;
  index?: number;
  control?: boolean;
  dtype?: string;
  /** Dims, -1 unknown; null for an unknown rank. */
  shape?: number[] | null;
  /** The input names no node of the graph. */
  missing?: boolean;
  /** MegEngine: the var id and its name. */
  var?: number;
  varName?: string;
}

/** What model.node(name) returns: the details panel's view of one node. */
export interface GraphNode {
  name: string;
  op: string;
  /** TensorFlow and TF.js attrs, summarised (dtypes by name, shapes as dims, tensors as
   * {dtype, shape, bytes}). */
  attrs?: Record<string, unknown>;
  /** MegEngine params, decoded by field name. */
  params?: Array<{ type: string | null; union: number; fields?: Record<string, unknown> }>;
  inputs: GraphTensorRef[];
  outputs: GraphTensorRef[];
  device?: string | string[];
  weightBytes: number;
  /** The nodes that take one of its outputs (the first 100; moreConsumers counts the rest). */
  consumers: string[];
  moreConsumers?: number;
  /** TF.js: the weight's manifest entry. */
  weight?: Record<string, unknown>;
  /** MegEngine: the operator's index, class and tensors. */
  operator?: number;
  class?: string;
  tensors?: unknown[];
}

/** What model.searchGraph() returns. */
export interface GraphSearchResult {
  query: string;
  total: number;
  matches: Array<{ name: string; op: string }>;
}

/** What model.summaryPage() returns: a page of a summary list inspect() holds only the start of. */
export interface SummaryPage<Item = MegEngineOperator> {
  list: string;
  /** The first item listed, counted among the matching ones. */
  offset: number;
  /** Every item of the list. */
  total: number;
  /** The items the filter keeps. */
  matched: number;
  items: Item[];
}

/** The runtime model.check() checks against: the TF.js runtime 4.22, or TensorFlow's op registry. */
export type CheckTarget = 'tfjs' | 'tensorflow';

/**
 * model.check()'s options: the export's (freeze, signature, optimize, unfuseOps,
 * allowUnsupportedOps...) and the target. target 'tfjs' means to: 'tfjs'; 'tensorflow' any
 * TensorFlow format (`to`, or the export's default). Neither target nor to: 'tfjs'.
 */
export type CheckOptions = FamilyExportOptions & { target?: CheckTarget };

/** What model.check() found: what an export with the same options would write, checked. */
export interface CheckReport {
  target: CheckTarget;
  /** The export's `to`. */
  to: string;
  /** "TF.js 4.22" or "TensorFlow's op registry". */
  runtime: string;
  /** True when the target runs every op (the CLI's exit status 0). */
  runs: boolean;
  /** Distinct ops and nodes checked, function bodies included. */
  ops: number;
  nodes: number;
  unsupportedOps: UnsupportedOp[];
  /**
   * True when export() with these options throws: UNSUPPORTED for the ops listed, or
   * `exportError` whatever the ops.
   */
  exportFails: boolean;
  /**
   * The error export() throws with these options although the check could run: freeze: false
   * on a graph that needs freezing (the unfrozen graph's ops are then the ones listed).
   */
  exportError?: { code: GraphportErrorCode; option: string; message: string };
  /** What the export's freeze does (as ExportInfo.frozen). */
  frozen?: FreezeReport;
  /** What unfuseOps rewrites. */
  unfusedOps?: UnfusedOp[];
  /** With quantize, of a TF.js model with quantized weights (as ExportInfo.quantization). */
  quantization?: WeightQuantizationChange;
}

/** One option as gp.optionSchema() describes it. */
export interface OptionDescription {
  /** The JS name (camelCase), the CLI flag without dashes, the original API's argument name. */
  name: string;
  cli: string;
  seed: string;
  type: 'bool' | 'int' | 'string' | 'choice' | 'string-list' | 'message' | 'bytes';
  default: unknown;
  group: string;
  label: string;
  help: string;
  choices: (string | number)[];
  metavar: string;
  cliValue: 'inline' | 'file';
  /** When the option applies: "needs" (the core refuses it otherwise), "usedWhen" (ignores it). */
  rules: OptionRule[];
  /** Defaults that depend on other options, the first whose conditions all hold. */
  defaultWhen: { when: OptionCondition[]; value: unknown }[];
  /** An int's least value (the core refuses less), or null. */
  minimum: number | null;
  /** A string that names an output file: a name, never a path (the core refuses a path). */
  fileName: boolean;
  /**
   * A bool that adds an output file, named from the main file's name by this pattern ("{stem}"
   * its name before the last '.', "{ext}" the rest), or null.
   */
  addsFile: string | null;
}

/** A condition on another option's value (its default when unset). */
export interface OptionCondition {
  option: string;
  /** Holds when the value is one of these; when empty, when the option is set. */
  values: unknown[];
  /** Holds when the value differs from this option's own. */
  differs: boolean;
}

/** When an option applies, and what is said when it does not. */
export interface OptionRule {
  kind: 'needs' | 'usedWhen';
  /** The rule holds when any of these does. */
  anyOf: OptionCondition[];
  message: string;
}

export interface OptionSchema {
  family: string;
  title: string;
  /** The original API the options follow, e.g. "tf.train.export_meta_graph". */
  api: string;
  groups: { id: string; title: string }[];
  options: OptionDescription[];
  /** Options that override each other: of those set, only the last in `options` applies. */
  lastWins: { id: string; options: string[] }[];
}

/** A field of a result type, as a family describes it. */
export interface ResultFieldDescription {
  name: string;
  /** A TypeScript type expression: number, string, 'literal', T[], Record<string, T>, A | B, a type's name. */
  type: string;
  optional: boolean;
  meaning: string;
  /** One of the header fields every summary starts with (results.d.ts: SummaryHeader). */
  header: boolean;
}

/** A type a family's results name: an object with fields, or an alias of a type expression. */
export interface ResultTypeDescription {
  name: string;
  meaning: string;
  fields?: ResultFieldDescription[];
  alias?: string;
}

/** What a family's inspect() and export() give, described (the source of results.d.ts). */
export interface ResultDescription {
  /** The type expressions of the summary and of the export info. */
  summary: string;
  exportInfo: string;
  types: ResultTypeDescription[];
}

/** A family and its options: what the page's form and the CLIs are made from. */
export interface FamilySchema {
  family: FamilyId;
  title: string;
  formats: string[];
  load: OptionSchema;
  export: OptionSchema;
  /** What its inspect() and export() give, described: the source of the result types. */
  results: ResultDescription;
}

export interface Model {
  /** The family that read the model. */
  readonly family: FamilyId;
  inspect(): Summary;
  /** Every output file as whole bytes in memory: for models that fit in memory twice. */
  export(options?: ExportOptions): ExportResult;
  /**
   * Streams every output file to `sink` chunk by chunk; the result comes only when every file
   * was written and closed. If anything fails, sink.abort() is called and the export throws;
   * the model is unchanged and can export again.
   */
  exportTo(options: ExportOptions | undefined, sink: ExportSink): SinkExportResult;
  /**
   * Streams every output file to its own WritableStream (from a File System Access file's
   * createWritable(), in a page or a Worker). The export cannot wait for a stream, so each chunk
   * is copied and queued on it. Streams are closed only after the whole export succeeded (a
   * File System Access file is then committed), and aborted if anything fails. A failed write
   * or close rejects with IO_ERROR.
   */
  exportToStreams(
    options: ExportOptions | undefined,
    openStream: (name: string) => ByteWritableStream | Promise<ByteWritableStream>,
  ): Promise<SinkExportResult>;
  /**
   * Runs what export() with these options would run (freeze, optimize, unfuse, the writer)
   * and checks every op, function bodies included, against the target's runtime. Keeps
   * nothing. Throws what export() would throw for any other reason.
   */
  check(options?: CheckOptions): CheckReport;
  /**
   * The export preview: runs export() with these options into memory, reads the output back
   * and compares it with this model's graph, node by node: the nodes each option drops,
   * changes (and how) and adds, with the node counts before and after. Writes nothing. Throws
   * what export() would throw.
   */
  preview(options?: ExportOptions): ExportPreview;
  /** One level of the model's graph for drawing: a group's children and the edges between them. */
  graph(options?: GraphOptions): GraphLevel;
  /** One node's details (op, attrs or params, inputs, outputs, device, weights); throws
   * NOT_FOUND for a name that is no node. */
  node(name: string): GraphNode;
  /** The nodes whose name or op holds `query` (any case), in graph order: the first
   * `limit` (50) listed, `total` counting them all. */
  searchGraph(query: string, options?: { limit?: number }): GraphSearchResult;
  /**
   * A page of a long summary list: MegEngine's `operators` (inspect() lists the first 100;
   * `operatorCount` counts them all), filtered by type, class or name in any case.
   */
  summaryPage(list: 'operators', options?: { offset?: number; limit?: number; filter?: string }): SummaryPage;
  /** True when an export with these options is a folder (a SavedModel with its variables). */
  writesFolder(options?: ExportOptions): boolean;
  /** Frees the model's WebAssembly memory; call it (or use `using`) when done. Idempotent. */
  delete(): void;
  /** What `using model = gp.load(...)` calls at the end of the block: delete(). */
  [Symbol.dispose](): void;
  readonly deleted: boolean;
}

export interface Graphport {
  load(input: LoadInput, options?: LoadOptions): Model;
  /** Node only (always there on the Node entries, see NodeGraphport): a file or a folder. */
  loadFile?(path: string, options?: LoadOptions): Model;
  /** Node only (always there on the Node entries, see NodeGraphport). */
  exportToFile?(model: Model, options: ExportOptions | undefined, path: string): {
    files: { name: string; size: number; path: string }[];
    info: ExportInfo;
  };
  summaryText(summary: Summary): string;
  /** The CLI's text of a check report. */
  checkText(report: CheckReport): string;
  /** The CLI's text of an export preview (`graphport export --dry-run`). */
  previewText(preview: ExportPreview): string;
  /** The exit status of `graphport check` when the target cannot run the model (3). */
  readonly checkFailsExitCode: number;
  usage(): string;
  /** Every error code with what it means: the core's list, in its order. */
  errorCodes(): { code: GraphportErrorCode; meaning: string }[];
  /** Every family with its load and export option schemas, or one family's. */
  optionSchema(): FamilySchema[];
  optionSchema(family: FamilyId): FamilySchema;
  /** Models loaded and not yet deleted. */
  liveModels(): number;
  /** Bytes of WebAssembly memory held now; the heap never shrinks, so also its peak. */
  heapBytes(): number;
  GraphportError: typeof GraphportError;
}

/** The instance the Node entries give: loadFile() is always there. */
export interface NodeGraphport extends Graphport {
  /** Streams a file, or the files of a folder it needs, from disk into the model, in chunks. */
  loadFile(path: string, options?: LoadOptions): Model;
  /**
   * Streams an export to disk, `path` as the CLI's -o: the output folder for an export that is
   * a folder (made if missing), else the output file (its base name is the `filename` option
   * where the family has one; companion files go beside it). Files are written under temporary
   * names and renamed into place only when the whole export succeeded; removed if it fails.
   */
  exportToFile(model: Model, options: ExportOptions | undefined, path: string): {
    files: { name: string; size: number; path: string }[];
    info: ExportInfo;
  };
}

/** The async factory; every call resolves to the same instance. */
declare function createGraphport(): Promise<Graphport>;
export default createGraphport;
export { createGraphport };
