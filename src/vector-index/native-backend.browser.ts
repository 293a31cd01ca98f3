/**
 * The hnswlib-node backend, the browser's side (swapped in for native-backend.ts by the browser build):
 * a native addon never loads in a page, so 'auto' picks hnswlib-wasm and 'native' is refused by
 * index-backend.ts before any factory call.
 */
import { VectorDbError } from '../errors/vectordb-error.js';
import type * as NodeNative from './native-backend.js';

export const nativeAvailable: typeof NodeNative.nativeAvailable = async () => false;
export const nativeLoads: typeof NodeNative.nativeLoads = () => false;

const unavailable = (): never => {
  throw VectorDbError.of('UNEXPECTED_SERVER_ERROR', { reason: 'hnswlib-node (native) does not load in a browser' });
};

export const nativeDriverFactory: typeof NodeNative.nativeDriverFactory = { create: async () => unavailable(), load: async () => unavailable() };
