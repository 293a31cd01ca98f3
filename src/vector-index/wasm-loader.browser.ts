/**
 * Loads hnswlib-wasm's module factory, the browser's side (swapped in for wasm-loader.ts by the browser
 * build): the bundler resolves the virtual module below to the glue chunk, patched at build time
 * (scripts/build-browser.js applies wasm-glue.ts's patches), so a page loads no code from elsewhere.
 */
import { applied, default as glueFactory, version } from 'vectordb-local:hnswlib-glue';
import { appliedPatches } from './wasm-glue.js';
import type * as NodeLoader from './wasm-loader.js';

export type { LoadedGlue } from './wasm-loader.js';

export const loadGlueFactory: typeof NodeLoader.loadGlueFactory = async <F>() => {
  appliedPatches.push(...applied);
  return { factory: glueFactory as F, version };
};
