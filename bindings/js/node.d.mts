// Types of the Node ESM entry (node.mjs): the shared types, and a factory whose instance has
// loadFile() and exportToFile().
import type { NodeGraphport } from './index.js';

export * from './index.js';

/** The async factory; every call resolves to the same instance. */
declare function createGraphport(): Promise<NodeGraphport>;
export default createGraphport;
export { createGraphport };
