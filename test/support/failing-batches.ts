/**
 * A KvStore whose batches fail after the first `allowed` (as a crash mid-save would leave the store): every
 * other method is the store's own. `batches()` says how many were asked for.
 */
import type { KvStore } from '../../src/storage/index.js';

export function failingBatches(kv: KvStore, allowed: number): { store: KvStore; batches: () => number } {
  let batches = 0;
  const store = new Proxy(kv, {
    get(target, property, receiver) {
      if (property === 'batch') {
        return async (ops: Parameters<KvStore['batch']>[0]) => {
          if (++batches > allowed) throw new Error('crash');
          await target.batch(ops);
        };
      }
      const value: unknown = Reflect.get(target, property, receiver);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  return { store, batches: () => batches };
}
