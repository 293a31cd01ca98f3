/**
 * VectorDbError.warning: a response warning is built as the error of its code would be (code, family, title,
 * message from the template, wire form), without a stack; errors made afterwards still capture theirs.
 */
import { describe, expect, it } from 'vitest';
import { VectorDbError } from '../../src/errors/index.js';

describe('VectorDbError.warning', () => {
  it('has the code and message of its template, no stack frames, and leaves stacks on for errors', () => {
    const before = Error.stackTraceLimit;
    const vars = { keyspace: 'ks', table: 't', primaryKey: 'id', indexedColumns: 'v' };
    const warning = VectorDbError.warning('ZERO_FILTER_OPERATIONS', vars);
    const error = VectorDbError.of('ZERO_FILTER_OPERATIONS', vars);
    expect(Error.stackTraceLimit).toBe(before);
    expect({ ...warning.toWire(), id: '' }).toEqual({ ...error.toWire(), id: '' });
    expect(warning.stack?.split('\n').filter((line) => line.trim().startsWith('at '))).toEqual([]);
    expect(error.stack).toMatch(/\n\s+at /);
  });
});
