/**
 * The native-rows backend, the browser's side (swapped in for native-rows-backend.ts by the browser
 * build): the addon never loads in a page, so 'auto' picks hnswlib-wasm and 'native-rows' is refused.
 */
import { VectorDbError } from '../errors/vectordb-error.js';
import type * as NodeRows from './native-rows-backend.js';

export const NATIVE_ROWS_LIBRARY: typeof NodeRows.NATIVE_ROWS_LIBRARY = 'vectordb-native 1 (hnswlib of hnswlib-node)';
export const nativeRowsAvailable: typeof NodeRows.nativeRowsAvailable = () => false;
export const newNativeRowStore: typeof NodeRows.newNativeRowStore = () => undefined;
export const isRowsGraphFile: typeof NodeRows.isRowsGraphFile = () => false;

const unavailable = (): never => {
  throw VectorDbError.of('UNEXPECTED_SERVER_ERROR', { reason: 'the native addon does not load in a browser' });
};

export const nativeRowsDriverFactory: typeof NodeRows.nativeRowsDriverFactory = () => ({ create: async () => unavailable(), load: async () => unavailable() });
