/** Whether hnswlib-node (the optional native vector backend) loads here: its tests are skipped when it does not. */
import { createRequire } from 'node:module';

export const nativeLoads = (() => {
  try {
    createRequire(import.meta.url)('hnswlib-node');
    return true;
  } catch {
    return false;
  }
})();
