/**
 * Helpers of the client tests: a fresh embedded database (real LevelDB in a temporary directory) for every
 * test, and `rejection` to get what a promise throws.
 */
import { embeddedFactory } from '../support/factory.js';
import { useDatabase, type SuiteDb } from '../suite/helpers.js';
import type { Limits } from '../../src/index.js';

export function useDb(limits?: Partial<Limits>): SuiteDb {
  return useDatabase(embeddedFactory, limits ? { limits } : {});
}

/** What a promise rejects with (fails the test when it resolves). */
export async function rejection(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected the call to throw');
}

/** Documents `{ _id: 'd-00', n: 0, color }`... for paging tests. */
export function numbered(count: number): { _id: string; n: number; color: string }[] {
  return Array.from({ length: count }, (_, n) => ({ _id: `d-${String(n).padStart(2, '0')}`, n, color: n % 3 === 0 ? 'red' : 'blue' }));
}
