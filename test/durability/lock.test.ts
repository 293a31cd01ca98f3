/**
 * The directory lock between processes: while one process holds a database open, another process that opens
 * the same directory fails at once (no hang) with DATABASE_LOCKED naming the directory and saying it is in use,
 * and the data is undamaged. Child processes run test/fixtures/open-database.mjs on the built package (dist/).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { DataApiException, DatabaseInUseException, VectorDB } from '../../src/index.js';
import { tempDir } from '../support/temp.js';
import { buildPackage, finish, lastJsonLine, runFixture, startFixture, untilPrinted } from './built-package.js';

const KS = 'default_keyspace';
const DOCS = Array.from({ length: 30 }, (_, i) => ({ _id: `d${i}`, n: i, tag: i % 2 === 0 ? 'even' : 'odd', when: { $date: 1_700_000_000_000 + i } }));

async function seed(db: VectorDB): Promise<void> {
  expect(await db.command({ createCollection: { name: 'c' } }, { keyspace: KS })).toEqual({ status: { ok: 1 } });
  for (let i = 0; i < DOCS.length; i += 10) {
    const response = await db.command({ insertMany: { documents: DOCS.slice(i, i + 10) } }, { collection: 'c' });
    expect(response.errors).toBeUndefined();
  }
}

async function allDocs(db: VectorDB): Promise<unknown[]> {
  const documents: { _id: string }[] = [];
  let pageState: string | null = null;
  do {
    const response = await db.command({ find: { options: pageState ? { pageState } : {} } }, { collection: 'c' });
    const data = response.data as { documents: { _id: string }[]; nextPageState: string | null };
    documents.push(...data.documents);
    pageState = data.nextPageState;
  } while (pageState);
  return documents.sort((a, b) => a._id.localeCompare(b._id));
}

const sorted = (docs: readonly { _id: string }[]) => [...docs].sort((a, b) => a._id.localeCompare(b._id));

function expectLockedMessage(message: unknown, dir: string): void {
  expect(typeof message).toBe('string');
  expect(message as string).toContain(dir);
  expect(message as string).toMatch(/in use/i);
}

describe('directory lock between processes', () => {
  beforeAll(async () => {
    await buildPackage();
  }, 180_000);

  it('a second process cannot open a directory this process holds: DATABASE_LOCKED, at once', async () => {
    const dir = tempDir();
    const db = new VectorDB('token', dir);
    await db.connect();
    await seed(db);

    const result = await runFixture('open-database.mjs', [dir, 'open']);
    expect(result.hung, 'the second process hung instead of failing').toBe(false);
    expect(result.code, result.stderr).toBe(2);
    const outcome = lastJsonLine(result.stdout);
    expect(outcome.ok).toBe(false);
    expect(outcome.name).toBe('DatabaseInUseException');
    expect(outcome.errorCode).toBe('DATABASE_LOCKED');
    expectLockedMessage(outcome.message, dir);

    // Undamaged: this process still reads and writes everything.
    expect(await allDocs(db)).toEqual(sorted(DOCS));
    expect(await db.command({ countDocuments: { filter: { tag: 'even' } } }, { collection: 'c' })).toEqual({ status: { count: 15 } });
    expect(await db.command({ insertOne: { document: { _id: 'after', n: 99 } } }, { collection: 'c' })).toEqual({ status: { insertedIds: ['after'] } });
    await db.close();

    // Released on close: another process now opens it and sees every document.
    const dump = await runFixture('open-database.mjs', [dir, 'dump', 'c']);
    expect(dump.hung).toBe(false);
    expect(dump.code, dump.stdout + dump.stderr).toBe(0);
    expect(lastJsonLine(dump.stdout).documents).toEqual(sorted([...DOCS, { _id: 'after', n: 99 } as (typeof DOCS)[number]]));
  });

  it('a first command (storage opening on first use) in the second process fails the same way', async () => {
    const dir = tempDir();
    const db = new VectorDB('token', dir);
    await seed(db);

    const result = await runFixture('open-database.mjs', [dir, 'command']);
    expect(result.hung, 'the second process hung instead of failing').toBe(false);
    const outcome = lastJsonLine(result.stdout);
    expect(outcome.ok).toBe(false);
    expect(outcome.errorCode).toBe('DATABASE_LOCKED');
    expectLockedMessage(outcome.message, dir);
    expect(await allDocs(db)).toEqual(sorted(DOCS));
    await db.close();
  });

  it('this process cannot open a directory another process holds; it can once that process closes it', async () => {
    const dir = tempDir();
    const holder = startFixture('open-database.mjs', [dir, 'hold', 'held']);
    const holderDone = finish(holder, 60_000);
    await untilPrinted(holder, 'ready\n');

    const db = new VectorDB('token', dir);
    const error = await db.connect().then(
      () => undefined,
      (e: unknown) => e,
    );
    // A typed exception of the client's one hierarchy, naming the process that holds the directory and what to do.
    expect(error).toBeInstanceOf(DatabaseInUseException);
    expect(error).toBeInstanceOf(DataApiException);
    expect((error as DataApiException).errorCode).toBe('DATABASE_LOCKED');
    expectLockedMessage((error as Error).message, dir);
    expect((error as Error).message).toContain(`by process ${holder.pid} (`);
    expect((error as Error).message).toContain('open-database.mjs');
    expect((error as Error).message).toMatch(/Stop that process, or, if it is `vectordb-local serve`, connect to it over HTTP/);
    await db.close();

    holder.stdin.end();
    const held = await holderDone;
    expect(held.hung).toBe(false);
    expect(held.code, held.stderr).toBe(0);

    const again = new VectorDB('token', dir);
    await again.connect();
    expect(await again.command({ find: { filter: { _id: 'from-child' } } }, { collection: 'held' })).toEqual({
      data: { documents: [{ _id: 'from-child', by: 'child' }], nextPageState: null },
    });
    await again.close();
  });

  it('a process killed while holding the directory leaves it openable and intact', async () => {
    const dir = tempDir();
    const holder = startFixture('open-database.mjs', [dir, 'hold', 'held']);
    const holderDone = finish(holder, 60_000);
    await untilPrinted(holder, 'ready\n');
    holder.kill('SIGKILL');
    const held = await holderDone;
    expect(held.signal).toBe('SIGKILL');

    const db = new VectorDB('token', dir);
    await db.connect();
    expect(await db.command({ findOne: { filter: { _id: 'from-child' } } }, { collection: 'held' })).toEqual({ data: { document: { _id: 'from-child', by: 'child' } } });
    await db.close();
  });
});
