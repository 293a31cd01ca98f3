/**
 * Loads hnswlib-wasm's module factory, Node's side: finds the glue chunk in node_modules, patches it
 * (wasm-glue.ts) and imports it from a data: URL (the file as shipped when the host refuses that).
 * Has a browser twin (wasm-loader.browser.ts), where the bundler patched the chunk at build time.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { appliedPatches, glueChunkName, patchGlue } from './wasm-glue.js';

export interface LoadedGlue<F> {
  readonly factory: F;
  readonly version: string | undefined;
  /**
   * The module's wasm bytes, for the factory's `wasmBinary` option. The glue holds them as a base64 data:
   * URL which, run as in a browser (wasm-runtime.ts gives it a window), it would read with fetch(): a cold
   * process then loads Node's fetch (undici, ~20 ms) just to decode it. Undefined where not found.
   */
  readonly wasmBinary?: Uint8Array;
}

/** The glue's embedded wasm module: `wasmBinaryFile = 'data:application/octet-stream;base64,...'`. */
const EMBEDDED_WASM = /wasmBinaryFile = 'data:application\/octet-stream;base64,([A-Za-z0-9+/=]+)'/;

/** The factory of the installed hnswlib-wasm, patched; throws a plain Error saying what is missing. */
export async function loadGlueFactory<F>(): Promise<LoadedGlue<F>> {
  const require = createRequire(import.meta.url);
  let entry: string;
  try {
    entry = require.resolve('hnswlib-wasm/dist/hnswlib.js');
  } catch (e) {
    throw new Error(`hnswlib-wasm is not installed (${String(e)})`);
  }
  // dist/hnswlib.js only wraps a hashed chunk holding the factory; we call the factory ourselves
  // so that we can pass print/printErr (its loadHnswlib() passes nothing).
  const chunk = glueChunkName(readFileSync(entry, 'utf8'));
  if (chunk === undefined) throw new Error(`no factory chunk referenced from ${entry}`);
  const version = (JSON.parse(readFileSync(join(dirname(entry), '..', 'package.json'), 'utf8')) as { version?: string }).version;
  const glue = readFileSync(join(dirname(entry), chunk), 'utf8');
  const embedded = EMBEDDED_WASM.exec(glue)?.[1];
  const wasmBinary = embedded === undefined ? undefined : new Uint8Array(Buffer.from(embedded, 'base64'));
  return { factory: await importPatched<F>(join(dirname(entry), chunk), glue), version, ...(wasmBinary ? { wasmBinary } : {}) };
}

async function importPatched<F>(chunkPath: string, glue: string): Promise<F> {
  const { source, applied } = patchGlue(glue);
  if (applied.length > 0) {
    try {
      const url = `data:text/javascript;base64,${Buffer.from(source).toString('base64')}`;
      const factory = ((await import(url)) as { default: F }).default;
      appliedPatches.push(...applied);
      return factory;
    } catch {
      // a host that refuses data: modules: the file as shipped
    }
  }
  return ((await import(pathToFileURL(chunkPath).href)) as { default: F }).default;
}
