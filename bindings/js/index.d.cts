// Types of the CommonJS entry (index.cjs): `const createGraphport = require('graphport')`, or
// in TypeScript `import createGraphport = require('graphport')`. The module is the factory,
// with itself as `.default` and `.createGraphport` too. The GraphportError class is on the
// instance: `(await createGraphport()).GraphportError`. The shared types (index.d.ts) are
// under the factory's namespace: `createGraphport.Model`, `createGraphport.ExportOptions`, ...
import type * as Shared from './index.js' with { 'resolution-mode': 'import' };

declare const createGraphport: createGraphport.Factory;

declare namespace createGraphport {
  interface Factory {
    /** The async factory; every call resolves to the same instance. */
    (): Promise<NodeGraphport>;
    readonly default: Factory;
    readonly createGraphport: Factory;
  }
  type NodeGraphport = Shared.NodeGraphport;
  type Graphport = Shared.Graphport;
  type Model = Shared.Model;
  type GraphportError = Shared.GraphportError;
  type GraphportErrorCode = Shared.GraphportErrorCode;
  type InputFormat = Shared.InputFormat;
  type LoadOptions = Shared.LoadOptions;
  type LoadInput = Shared.LoadInput;
  type ChunkSource = Shared.ChunkSource;
  type BlobInput = Shared.BlobInput;
  type MessageOption = Shared.MessageOption;
  type BytesOption = Shared.BytesOption;
  type SingleInput = Shared.SingleInput;
  type FilesInput = Shared.FilesInput;
  type FamilyId = Shared.FamilyId;
  type FamilyLoadOptions = Shared.FamilyLoadOptions;
  type FamilyExportOptions = Shared.FamilyExportOptions;
  type OptionSchema = Shared.OptionSchema;
  type OptionDescription = Shared.OptionDescription;
  type FamilySchema = Shared.FamilySchema;
  type ExportOptions = Shared.ExportOptions;
  type Progress = Shared.Progress;
  type ProgressCallback = Shared.ProgressCallback;
  type ExportResult = Shared.ExportResult;
  type ExportInfo = Shared.ExportInfo;
  type UnsupportedOp = Shared.UnsupportedOp;
  type CheckTarget = Shared.CheckTarget;
  type CheckOptions = Shared.CheckOptions;
  type CheckReport = Shared.CheckReport;
  type WeightQuantizationChange = Shared.WeightQuantizationChange;
  type OutputFile = Shared.OutputFile;
  type OutputBytes = Shared.OutputBytes;
  type Summary = Shared.Summary;
  type TensorSummary = Shared.TensorSummary;
  type TensorflowSummary = Shared.TensorflowSummary;
  type MegEngineSummary = Shared.MegEngineSummary;
  type TfjsSummary = Shared.TfjsSummary;
  type TensorflowExportInfo = Shared.TensorflowExportInfo;
  type MegEngineExportInfo = Shared.MegEngineExportInfo;
  type MegEngineParam = Shared.MegEngineParam;
  type FreezeReport = Shared.FreezeReport;
  type ResultDescription = Shared.ResultDescription;
}

export = createGraphport;
