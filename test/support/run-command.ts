/** Runs a Data API command on one collection of an engine Database and expects it to succeed (engine tests). */
import { expect } from 'vitest';
import { executeCommand } from '../../src/commands/index.js';
import type { Database } from '../../src/engine/database.js';
import type { JsonObject } from '../../src/query/json.js';

export async function runOn(db: Database, target: { keyspace: string; collection: string }, command: JsonObject): Promise<JsonObject> {
  const r = (await executeCommand(db, command, target)) as unknown as JsonObject;
  expect(r.errors).toBeUndefined();
  return r;
}
