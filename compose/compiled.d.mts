// Types of compiled.mjs (JavaScript: it runs before any TypeScript loader), for the project's tests.
export interface CompiledTree {
  /** Laid out as the package: harness/x.ts is DIR/harness/x.js. */
  dir: string;
  /** The compiled sources, relative to the package root, '/'-separated, sorted. */
  sources: string[];
}
export function compiledTree(root?: string): Promise<CompiledTree | null>;
export function importCompiled(entry: string, known?: CompiledTree | null): Promise<unknown>;
export function importCompiledOrSource(entry: string, known?: CompiledTree | null): Promise<unknown>;
export function enableNodeCompileCache(root?: string): void;
