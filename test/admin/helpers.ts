/**
 * Shared set-up of the administration tests: a fresh home under os.tmpdir() with its first organization
 * token, and an assertion on the typed exception (class and errorCode) a call rejects with.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'vitest';
import { DataApiException, VectorDBAdmin } from '../../src/index.js';
import { tempDir } from '../support/temp.js';

export interface TestHome {
  readonly home: string;
  readonly orgToken: string;
  readonly admin: VectorDBAdmin;
}

export async function newHome(): Promise<TestHome> {
  const home = path.join(tempDir('vectordb-home-'), 'home');
  const orgToken = await VectorDBAdmin.initHome(home);
  return { home, orgToken, admin: new VectorDBAdmin(orgToken, { home }) };
}

/** The rejection of `promise`, checked to be an instance of `type` with this errorCode. */
export async function rejection<E extends DataApiException>(promise: Promise<unknown>, type: abstract new (...args: never[]) => E, errorCode: string): Promise<E> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error, `expected ${type.name} ${errorCode}`).toBeInstanceOf(type);
  expect((error as E).errorCode).toBe(errorCode);
  return error as E;
}

export function registryText(home: string): string {
  return readFileSync(path.join(home, 'home.json'), 'utf8');
}
