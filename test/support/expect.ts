/** Assertions shared by the unit tests: thrown Data API error codes, and equality strict about key order. */
import { expect } from 'vitest';
import { VectorDbError, type ErrorCode } from '../../src/errors/index.js';

/** Asserts that fn throws a VectorDbError with this code (and, if given, a message containing `message`). */
export function expectError(fn: () => unknown, code: ErrorCode, message?: string): void {
  let thrown: unknown;
  try {
    fn();
  } catch (e) {
    thrown = e;
  }
  expect(thrown, `expected ${code}`).toBeInstanceOf(VectorDbError);
  expect((thrown as VectorDbError).code).toBe(code);
  if (message !== undefined) expect((thrown as VectorDbError).message).toContain(message);
}

/** Deep equality that is also strict about key order, at every level. */
export function expectExact(actual: unknown, expected: unknown): void {
  expect(actual).toEqual(expected);
  expect(JSON.stringify(actual)).toBe(JSON.stringify(expected));
}
