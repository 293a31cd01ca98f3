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
}

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
  return { factory: await importPatched<F>(join(dirname(entry), chunk)), version };
}

async function importPatched<F>(chunkPath: string): Promise<F> {
  const { source, applied } = patchGlue(readFileSync(chunkPath, 'utf8'));
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
