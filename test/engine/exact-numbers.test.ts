/**
 * Numbers no double names exactly: held as bigint or ExactDecimal through the engine (stored, returned,
 * compared in filters, sorts and index order, $inc), ordinary numbers stay numbers, and the stored form
 * survives a reopen. The HTTP and astra-db-ts side is test/http/exact-numbers.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { executeCommand } from '../../src/commands/index.js';
import { Database } from '../../src/engine/database.js';
import { ExactDecimal, numberFromText, parseJsonText, toJsonText } from '../../src/query/exact-number.js';
import type { JsonObject, JsonValue } from '../../src/query/json.js';
import { encodeIndexScalar } from '../../src/storage/keys.js';
import { tempDir } from '../support/temp.js';

const KS = { keyspace: 'default_keyspace' };
const DECIMAL = '12.12312321312312312312312321';
const LONG_INT = '12321321321312312321312312321';
const NEAR_9E18 = '9000000000000000123';

const dir = tempDir();
let db: Database;

async function run(command: JsonObject): Promise<JsonObject> {
  const response = (await executeCommand(db, command, { ...KS, collection: 'n' })) as unknown as JsonObject;
  expect(response.errors, JSON.stringify(response.errors)).toBeUndefined();
  return response;
}

const ids = async (filter: JsonObject, sort?: JsonObject): Promise<JsonValue[]> =>
  (((await run({ find: { filter, ...(sort ? { sort } : {}), projection: { _id: 1 } } })).data as JsonObject).documents as JsonObject[]).map((d) => d._id!);

beforeAll(async () => {
  db = await Database.open(dir);
  await executeCommand(db, { createCollection: { name: 'n' } }, KS);
  // As the HTTP adapter parses a request body.
  const body = parseJsonText(
    `{"insertMany":{"documents":[{"_id":"dec","v":${DECIMAL}},{"_id":"long","v":${LONG_INT}},{"_id":"big","v":${NEAR_9E18}},` +
      `{"_id":"9e18","v":9000000000000000000},{"_id":"small","v":12.123123213123122},{"_id":"plain","v":0.1}]}}`,
  ) as JsonObject;
  await run(body);
});

afterAll(async () => {
  await db.close();
});

describe('exact numbers', () => {
  it('are held as bigint or ExactDecimal only when no double names them; ordinary numbers stay numbers', () => {
    expect(numberFromText(NEAR_9E18)).toBe(9000000000000000123n);
    expect(numberFromText(LONG_INT)).toBe(12321321321312312321312312321n);
    expect(numberFromText(DECIMAL)).toBeInstanceOf(ExactDecimal);
    for (const text of ['0.1', '1.0', '9000000000000000000', '12.123123213123122', '1e-18', '-5']) expect(typeof numberFromText(text)).toBe('number');
    expect(() => JSON.stringify({ v: numberFromText(DECIMAL) })).toThrow(/ExactDecimal/);
    expect(toJsonText({ a: numberFromText(DECIMAL), b: 9000000000000000123n, c: 0.5 })).toBe(`{"a":${DECIMAL},"b":${NEAR_9E18},"c":0.5}`);
  });

  it('come back exactly, in the form they were held', async () => {
    const docs = ((await run({ find: { sort: { _id: 1 } } })).data as JsonObject).documents as JsonObject[];
    expect(toJsonText(docs)).toBe(
      `[{"_id":"9e18","v":9000000000000000000},{"_id":"big","v":${NEAR_9E18}},{"_id":"dec","v":${DECIMAL}},{"_id":"long","v":${LONG_INT}},` +
        '{"_id":"plain","v":0.1},{"_id":"small","v":12.123123213123122}]',
    );
    expect(typeof docs.find((d) => d._id === 'plain')!.v).toBe('number');
  });

  it('compare exactly in equality and range filters', async () => {
    expect(await ids({ v: 9000000000000000123n })).toEqual(['big']);
    expect(await ids({ v: 9000000000000000000 })).toEqual(['9e18']);
    expect(await ids({ v: numberFromText(DECIMAL) })).toEqual(['dec']);
    expect(await ids({ v: { $in: [12.123123213123122, 1] } })).toEqual(['small']);
    expect((await ids({ v: { $gt: 9000000000000000000 } })).sort()).toEqual(['big', 'long']);
    expect(await ids({ v: { $gt: 9000000000000000000, $lt: 9000000000000000124n } })).toEqual(['big']);
    expect(await ids({ v: { $gte: 12.123123213123122, $lte: 13 } }, { v: 1 })).toEqual(['small', 'dec']);
    expect(await ids({ v: { $lt: numberFromText(DECIMAL) } }, { v: -1 })).toEqual(['small', 'plain']);
  });

  it('sort exactly, in memory and in index order', async () => {
    const ascending = ['plain', 'small', 'dec', '9e18', 'big', 'long'];
    expect(await ids({}, { v: 1 })).toEqual(ascending);
    expect(await ids({}, { v: -1 })).toEqual([...ascending].reverse());
  });

  it('index keys order exact numbers between the doubles around them; doubles keep their encoding', () => {
    const key = (value: JsonValue) => encodeIndexScalar({ type: 'number', value: value as number });
    const ordered = [9000000000000000000, 9000000000000000123n, 9000000000000000124n, 9000000000000001024, 1e19, 12321321321312312321312312321n, 1e300, 10n ** 400n];
    const keys = ordered.map(key);
    expect([...keys].sort()).toEqual(keys);
    const decimals = [12.123123213123122, numberFromText('12.1231232131231225'), numberFromText(DECIMAL), 12.123123213123124];
    expect(decimals.map((v) => typeof v)).toEqual(['number', 'object', 'object', 'number']);
    expect([...decimals.map(key)].sort()).toEqual(decimals.map(key));
    // A double's key is what every earlier version wrote (the type tag, then the float64 with its sign bit flipped).
    expect(key(1.5)).toBe('2bff8000000000000');
    expect(key(-2)).toBe('23fffffffffffffff');
  });

  it('$inc is decimal-exact and keeps the result exact', async () => {
    await run({ updateOne: { filter: { _id: 'big' }, update: { $inc: { v: 1 } } } });
    await run({ updateOne: { filter: { _id: 'plain' }, update: { $inc: { v: 0.2 } } } });
    await run({ updateOne: { filter: { _id: 'dec' }, update: { $inc: { v: numberFromText('-0.00000000000000000000000001') } } } });
    const doc = async (id: string) => ((await run({ findOne: { filter: { _id: id } } })).data as JsonObject).document as JsonObject;
    expect((await doc('big')).v).toBe(9000000000000000124n);
    expect((await doc('plain')).v).toBe(0.3);
    expect(toJsonText((await doc('dec')).v)).toBe('12.1231232131231231231231232');
  });

  it('survive closing and reopening the database', async () => {
    await db.close();
    db = await Database.open(dir);
    expect(await ids({ v: 9000000000000000124n })).toEqual(['big']);
    const doc = ((await run({ findOne: { filter: { _id: 'long' } } })).data as JsonObject).document as JsonObject;
    expect(doc.v).toBe(12321321321312312321312312321n);
  });
});
