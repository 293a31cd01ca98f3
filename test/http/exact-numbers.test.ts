/**
 * Numbers no double names exactly round-trip over HTTP: the server parses request bodies losslessly, stores
 * the exact decimal and writes it back digit for digit, to the real astra-db-ts (its big-number serdes) and to
 * VectorDB over HTTP (bigint and ExactDecimal); ordinary numbers stay plain numbers.
 */
import { DataAPIClient } from '@datastax/astra-db-ts';
import BigNumber from 'bignumber.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ExactDecimal, VectorDB } from '../../src/index.js';
import { serve, type Served } from './helpers.js';

const DECIMAL = '12.12312321312312312312312321';
const LONG_INT = '12321321321312312321312312321';
const NEAR_9E18 = '9000000000000000123';

let s: Served;
let client: DataAPIClient;

beforeAll(async () => {
  s = await serve();
  client = new DataAPIClient(s.token, { environment: 'dse' });
  await client.db(s.url, { keyspace: 'default_keyspace' }).createCollection('nums');
});

afterAll(async () => {
  await client?.close();
  await s?.close();
});

describe('exact numbers over HTTP', () => {
  it('astra-db-ts with big numbers enabled: the three values of the issue come back exactly and filter exactly', async () => {
    const nums = client.db(s.url, { keyspace: 'default_keyspace' }).collection('nums', { serdes: { enableBigNumbers: { '*': 'bignumber' } } });
    await nums.insertOne({ _id: 'a', d: new BigNumber(DECIMAL), i: BigInt(LONG_INT), n: BigInt(NEAR_9E18), plain: 0.5 });
    await nums.insertOne({ _id: 'b', n: 9000000000000000000n });
    const doc = await nums.findOne({ _id: 'a' });
    expect((doc!.d as BigNumber).toFixed()).toBe(DECIMAL);
    expect((doc!.i as BigNumber).toFixed()).toBe(LONG_INT);
    expect((doc!.n as BigNumber).toFixed()).toBe(NEAR_9E18);
    expect((doc!.plain as BigNumber).toFixed()).toBe('0.5');
    expect((await nums.find({ n: BigInt(NEAR_9E18) }).toArray()).map((d) => d._id)).toEqual(['a']);
    expect((await nums.find({ n: { $gt: 9000000000000000000n } }).toArray()).map((d) => d._id)).toEqual(['a']);
  });

  it('the wire carries the digits (a raw request and response)', async () => {
    const post = async (body: string) => {
      const response = await fetch(`${s.url}/v1/default_keyspace/nums`, { method: 'POST', headers: { token: s.token, 'content-type': 'application/json' }, body });
      return response.text();
    };
    expect(await post(`{"insertOne":{"document":{"_id":"raw","v":${DECIMAL},"w":${NEAR_9E18},"x":0.1}}}`)).toContain('"raw"');
    expect(await post('{"findOne":{"filter":{"_id":"raw"}}}')).toBe(`{"data":{"document":{"_id":"raw","v":${DECIMAL},"w":${NEAR_9E18},"x":0.1}}}`);
    const tooLong = await post(`{"findOne":{"filter":{"v":1${'0'.repeat(100)}}}}`);
    expect(tooLong).toContain('REQUEST_NOT_JSON');
    expect(tooLong).toContain('exceeds the maximum allowed (100)');
  });

  it('VectorDB over HTTP hands back bigint and ExactDecimal; plain numbers stay numbers', async () => {
    const db = new VectorDB(s.token, s.url);
    try {
      const nums = await db.collection('nums');
      await nums.insertOne({ _id: 'c', i: BigInt(LONG_INT), d: new BigNumber(DECIMAL), small: 3n, half: new BigNumber('0.5') });
      const doc = (await nums.findById('c')) as Record<string, unknown>;
      expect(doc.i).toBe(BigInt(LONG_INT));
      expect(doc.d).toBeInstanceOf(ExactDecimal);
      expect((doc.d as ExactDecimal).toFixed()).toBe(DECIMAL);
      expect(doc.small).toBe(3);
      expect(doc.half).toBe(0.5);
    } finally {
      await db.close();
    }
  });
});
