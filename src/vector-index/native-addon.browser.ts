/**
 * The native addon, the browser's side (swapped in for native-addon.ts by the browser build): it never
 * loads in a page, so the vector layer uses hnswlib-wasm with FlatVectorStore there.
 */
import type * as NodeAddon from './native-addon.js';

export type { AddonGraph, AddonRows, NativeAddon } from './native-addon.js';
export const loadNativeAddon: typeof NodeAddon.loadNativeAddon = () => null;
export const nativeRowsUnavailable: typeof NodeAddon.nativeRowsUnavailable = () => 'a native addon does not load in a browser';
export const insertThreads: typeof NodeAddon.insertThreads = () => 1;
export const trimHeap: typeof NodeAddon.trimHeap = () => undefined;
