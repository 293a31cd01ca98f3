/**
 * Fuzz: thousands of seeded bad or random requests (random JSON and commands, wrong types, huge and deeply
 * nested bodies, garbage bytes, wrong content types, methods, paths and tokens) against a server holding good
 * data. Asserts: no 5xx, every answer an errors/status/data envelope, the server still answers, the good data unchanged.
 */
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COMMANDS } from '../../src/commands/index.js';
import type { CommandResponse } from '../../src/commands/index.js';
import { post, run, serve, type Served } from './helpers.js';
import { rng } from '../support/random.js';

const SEED = 0x5eed_2024;
const ITERATIONS = 2_100;
const CONCURRENCY = 8;
const MAX_BODY = 256 * 1024;


/** Never produced by the generators below as a name: only safeForGood() commands reach it. */
const GOOD = { keyspace: 'good_ks', collection: 'good' } as const;
const KNOWN = Object.keys(COMMANDS);
const KEYS = ['a', 'b', '_id', '$vector', '$vectorize', '$similarity', '$eq', '$ne', '$in', '$nin', '$gt', '$lte', '$exists', '$all', '$size', '$and', '$or', '$not',
  '$set', '$unset', '$inc', '$push', '$each', '$position', '$pop', '$rename', '$currentDate', '$min', '$mul', '$addToSet', '$setOnInsert', '$slice',
  '$date', '$uuid', '$objectId', '$binary', '*', '', '.', 'a.b', 'a..b', 'a&.b', '&', 'x'.repeat(2000), '\u0000', 'ü', '__proto__', 'constructor', 'toString',
  'limit', 'skip', 'pageState', 'includeSimilarity', 'includeSortVector', 'upsert', 'returnDocument', 'ordered', 'returnDocumentResponses', 'explain',
  'filter', 'sort', 'projection', 'update', 'replacement', 'document', 'documents', 'options', 'name', 'vector', 'dimension', 'metric', 'indexing', 'allow', 'deny', 'defaultId', 'type'];
const STRINGS = ['', 'a', 'goo', 'fuzz', 'default_keyspace', 'cosine', 'dot_product', 'euclidean', 'before', 'after', 'uuid', 'objectId', '2024-01-01', '$date', 'P4AAAD+AAAA/gAAA', '!!!', '\ud800', 'ü€𝄞', 'AAAA', '65a1b2c3d4e5f6a7b8c9d0e1', '0190c5e5-1b1c-7c2b-9a4a-6a1b2c3d4e5f'];
const NUMBERS = [0, -0, 1, -1, 2, 3, 20, 21, 100, 1000, 1001, 4096, 4097, 1e308, -1e308, 1.5, Number.MAX_SAFE_INTEGER, Number.MIN_SAFE_INTEGER, 2 ** 53 + 2, 1e-300, 0.1];

class Fuzzer {
  readonly next: () => number;
  constructor(seed: number) {
    this.next = rng(seed);
  }
  int(n: number): number {
    return Math.floor(this.next() * n);
  }
  pick<T>(items: readonly T[]): T {
    return items[this.int(items.length)]!;
  }
  chance(p: number): boolean {
    return this.next() < p;
  }

  json(depth = 0): unknown {
    const leaf = depth > 4 || this.chance(0.45);
    if (leaf) {
      switch (this.int(6)) {
        case 0: return this.pick(NUMBERS);
        case 1: return this.pick(STRINGS);
        case 2: return this.chance(0.5);
        case 3: return null;
        case 4: return this.int(1000) - 500;
        default: return this.pick(['x'.repeat(this.int(9000)), 'é'.repeat(this.int(3000))]);
      }
    }
    if (this.chance(0.4)) return Array.from({ length: this.int(6) }, () => this.json(depth + 1));
    if (this.chance(0.1)) return { [this.pick(['$date', '$uuid', '$objectId', '$binary'])]: this.json(depth + 3) };
    const object: Record<string, unknown> = {};
    for (let i = this.int(5); i > 0; i--) object[this.pick(KEYS)] = this.json(depth + 1);
    return object;
  }

  vector(): unknown {
    return this.pick([
      [1, 0, 0], [0, 0, 0], [1, 2], [1, 2, 3, 4], ['a', 1, 2], [], [NaN, 1, 1],
      { $binary: 'P4AAAD+AAAA/gAAA' }, { $binary: '!!' }, { $binary: '' }, { $binary: 'P4AAAA==' }, 'vector', this.json(1),
    ]);
  }

  /** A command with a plausible shape and random parts. */
  command(): Record<string, unknown> {
    const name = this.chance(0.9) ? this.pick(KNOWN) : this.pick(['', 'nope', 'FIND', 'find ', '$find', '__proto__', 'x'.repeat(500)]);
    if (this.chance(0.15)) return { [name]: this.json(1) };
    const body: Record<string, unknown> = {};
    for (const field of ['filter', 'sort', 'projection', 'update', 'replacement', 'document', 'documents', 'options', 'name']) {
      if (!this.chance(0.35)) continue;
      switch (field) {
        case 'sort':
          body.sort = this.chance(0.5) ? { $vector: this.vector() } : this.json(1);
          break;
        case 'document':
          body.document = this.chance(0.5) ? { _id: this.json(3), $vector: this.vector(), a: this.json(1) } : this.json(0);
          break;
        case 'documents':
          body.documents = this.chance(0.7) ? Array.from({ length: this.int(30) }, () => this.json(1)) : this.json(0);
          break;
        case 'name':
          body.name = this.chance(0.6) ? this.pick(['scratch', 'fuzz2', 'a b', '', 'x'.repeat(60), '1abc', 'ks_fuzz']) : this.json(1);
          break;
        default:
          body[field] = this.json(1);
      }
    }
    if (this.chance(0.1)) body[this.pick(KEYS)] = this.json(1);
    return { [name]: body };
  }

  deep(depth: number): string {
    const kind = this.int(3);
    if (kind === 0) return `{"find":{"filter":{"a":${'['.repeat(depth)}1${']'.repeat(depth)}}}}`;
    if (kind === 1) return `{"insertOne":{"document":${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}}}`;
    return `{"find":{"filter":${'{"$and":[{"$or":['.repeat(depth)}{"a":1}${']}]}'.repeat(depth)}}}`;
  }

  bytes(n: number): Uint8Array {
    const out = new Uint8Array(n);
    for (let i = 0; i < n; i++) out[i] = this.int(256);
    return out;
  }
}

interface Case {
  path: string;
  method: string;
  headers: Record<string, string | undefined>;
  body: string | Uint8Array | undefined;
}

let s: Served;
const PATHS = ['/v1', '/api/json/v1', '/v1/default_keyspace', '/v1/default_keyspace/fuzz', '/api/json/v1/default_keyspace/fuzz', '/v1/nope', '/v1/nope/x', '/v1/default_keyspace/nope', '/v1/good_ks'];
const SAFE_ON_GOOD = ['find', 'findOne', 'countDocuments', 'estimatedDocumentCount', 'updateOne', 'updateMany', 'deleteOne', 'deleteMany', 'findOneAndUpdate', 'findOneAndReplace', 'findOneAndDelete'];

/** Commands sent to the good collection must not be able to change it: reads, or writes pinned to a missing _id without upsert. */
function safeForGood(f: Fuzzer): Record<string, unknown> {
  const name = f.pick(SAFE_ON_GOOD);
  const command = f.command();
  const body = (Object.values(command)[0] ?? {}) as Record<string, unknown>;
  const shaped: Record<string, unknown> = typeof body === 'object' && body !== null && !Array.isArray(body) ? { ...body } : {};
  delete shaped.document;
  delete shaped.documents;
  if (!['find', 'findOne', 'countDocuments', 'estimatedDocumentCount'].includes(name)) {
    shaped.filter = { _id: `missing-${f.int(1e9)}` };
    shaped.options = { ...(typeof shaped.options === 'object' && shaped.options !== null && !Array.isArray(shaped.options) ? shaped.options : {}) };
    delete (shaped.options as Record<string, unknown>).upsert;
    delete shaped.sort; // a sort could reach past the filter in no command, but keep the guarantee obvious
  }
  return { [name]: shaped };
}

function makeCase(f: Fuzzer, i: number, token: string): Case {
  const headers: Record<string, string | undefined> = { 'content-type': 'application/json', token };
  let path = f.pick(PATHS);
  let method = 'POST';
  let body: string | Uint8Array | undefined;
  const kind = i % 20;
  if (kind < 9) {
    body = JSON.stringify(f.command());
  } else if (kind < 11) {
    path = f.pick([`/v1/${GOOD.keyspace}/${GOOD.collection}`, `/api/json/v1/${GOOD.keyspace}/${GOOD.collection}`]);
    body = JSON.stringify(safeForGood(f));
  } else if (kind === 11) {
    body = JSON.stringify(f.json(0));
  } else if (kind === 12) {
    body = f.bytes(f.int(400));
  } else if (kind === 13) {
    const text = JSON.stringify(f.command());
    body = text.slice(0, f.int(text.length)) + f.pick(['', '}', ',', '\u0000', '\\', '"', ']]]']);
  } else if (kind === 14) {
    body = f.deep(f.pick([20, 200, 1_000, 6_000])); // past every recursion limit seen (500 for $and/$or, 5000 for documents)
  } else if (kind === 15) {
    const size = f.pick([MAX_BODY - 200, MAX_BODY + 1, MAX_BODY * 2]);
    body = JSON.stringify({ insertOne: { document: { _id: `big-${i}`, text: 'z'.repeat(size) } } });
  } else if (kind === 16) {
    headers['content-type'] = f.pick(['text/plain', 'application/xml', 'application/x-www-form-urlencoded', 'application/json-patch+json', '*/*', ';;;', 'application/json; charset=latin1']);
    body = JSON.stringify(f.command());
  } else if (kind === 17) {
    if (f.chance(0.5)) headers.token = undefined;
    else headers.token = f.pick(['', 'wrong', `${token}x`, `x${token}`, token.toUpperCase(), token.slice(1), 'x'.repeat(4000)]); // (surrounding spaces are not part of a header value)
    path = f.pick([...PATHS, `/v1/${GOOD.keyspace}/${GOOD.collection}`]);
    body = JSON.stringify({ deleteMany: { filter: {} } }); // must never run
  } else if (kind === 18) {
    method = f.pick(['GET', 'PUT', 'DELETE', 'PATCH', 'OPTIONS']);
    path = f.pick([...PATHS, `/v1/${GOOD.keyspace}/${GOOD.collection}`]);
    body = method === 'GET' ? undefined : JSON.stringify({ deleteMany: { filter: {} } });
  } else {
    path = f.pick(['/', '/v2', '/v1/a/b/c', '/v1//x', '/%zz', '/v1/%00/x', `/v1/${'k'.repeat(3000)}`, '/api/json/v1/a/b/c/d']);
    body = JSON.stringify(f.command());
  }
  return { path, method, headers, body };
}

async function snapshot(): Promise<CommandResponse[]> {
  const pages: CommandResponse[] = [];
  let pageState: string | null | undefined;
  do {
    const page = await run(s.db, { find: { filter: {}, projection: { '*': 1 }, options: pageState ? { pageState } : {} } }, GOOD);
    pages.push(page);
    pageState = page.data && 'nextPageState' in page.data ? page.data.nextPageState : null;
  } while (pageState);
  const vector = await run(s.db, { find: { sort: { $vector: [1, 0.5, 0.25] }, options: { limit: 5, includeSimilarity: true } } }, GOOD);
  const count = await run(s.db, { countDocuments: {} }, GOOD);
  return [...pages, vector, count];
}

let before: CommandResponse[];

beforeAll(async () => {
  s = await serve({ maxBodyBytes: MAX_BODY });
  await run(s.db, { createKeyspace: { name: GOOD.keyspace } });
  await run(s.db, { createCollection: { name: GOOD.collection, options: { vector: { dimension: 3, metric: 'cosine' } } } }, { keyspace: GOOD.keyspace });
  await run(s.db, { createCollection: { name: 'fuzz' } }, { keyspace: 'default_keyspace' });
  const docs = Array.from({ length: 20 }, (_, i) => ({
    _id: i % 3 === 0 ? { $uuid: `0190c5e5-1b1c-7c2b-9a4a-6a1b2c3d4e${String(i).padStart(2, '0')}` } : `doc-${i}`,
    n: i,
    s: `value ${i}`,
    when: { $date: 1_700_000_000_000 + i },
    tags: [`t${i % 4}`, i],
    nested: { a: { b: i % 2 === 0 } },
    $vector: [1, i / 10, (20 - i) / 10],
  }));
  const inserted = await run(s.db, { insertMany: { documents: docs } }, GOOD);
  expect(inserted.errors).toBeUndefined();
  before = await snapshot();
});

afterAll(async () => {
  await s?.close();
});

describe('fuzz', () => {
  it(`${ITERATIONS} random and malformed requests: no 5xx, envelopes only, good data untouched`, async () => {
    const f = new Fuzzer(SEED);
    const cases = Array.from({ length: ITERATIONS }, (_, i) => makeCase(f, i, s.token));
    const statuses = new Map<number, number>();
    const codes = new Map<string, number>();
    const unexpected: string[] = [];
    const bad: string[] = [];
    let index = 0;
    const worker = async (): Promise<void> => {
      while (index < cases.length) {
        const c = cases[index++]!;
        const reply = await post(s, c.path, c.body ?? '', c.headers, c.method);
        statuses.set(reply.status, (statuses.get(reply.status) ?? 0) + 1);
        const envelopeOk = reply.body !== null && typeof reply.body === 'object' && ['errors', 'status', 'data'].some((k) => k in reply.body);
        if (reply.status >= 500 || !envelopeOk) bad.push(`${reply.status} ${c.method} ${c.path} ${String(c.body).slice(0, 200)} -> ${reply.text.slice(0, 300)}`);
        for (const error of reply.body.errors ?? []) {
          codes.set(error.errorCode, (codes.get(error.errorCode) ?? 0) + 1);
          if (error.errorCode === 'UNEXPECTED_SERVER_ERROR' && unexpected.length < 20) {
            unexpected.push(`${c.path} ${String(c.body).slice(0, 160)} -> ${error.message.slice(0, 200)}`);
          }
        }
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, worker));
    console.log('statuses', Object.fromEntries(statuses), '\nerror codes', Object.fromEntries([...codes].sort((a, b) => b[1] - a[1])));
    if (unexpected.length > 0) console.log('UNEXPECTED_SERVER_ERROR samples:\n' + unexpected.join('\n'));
    expect(bad).toEqual([]);
    expect([...statuses.keys()].every((status) => [200, 401, 404, 405, 413, 415].includes(status))).toBe(true);

    const alive = await post(s, '/v1', { findKeyspaces: {} });
    expect(alive.status).toBe(200);
    expect(alive.body.status?.keyspaces).toContain(GOOD.keyspace);
    const after = await snapshot();
    expect(after).toEqual(before);
  }, 180_000);

  it('300 malformed HTTP messages on raw sockets: no 5xx, the server keeps answering', async () => {
    const f = new Fuzzer(SEED + 1);
    const port = s.server.address()!.port;
    const heads = ['POST /v1 HTTP/1.1', 'POST /v1/good_ks/good HTTP/1.1', 'GET / HTTP/1.0', 'POST /v1 HTTP/9.9', 'BREW /v1 HTTP/1.1', 'POST  HTTP/1.1', '\u0000\u0001', 'POST /v1'];
    const garbage = (): string | Uint8Array => {
      switch (f.int(5)) {
        case 0:
          return f.bytes(1 + f.int(300));
        case 1:
          return `${f.pick(heads)}\r\nHost: x\r\ncontent-length: ${f.pick(['-1', '1e3', 'abc', '99999999999999999999', '5, 6'])}\r\ntoken: ${s.token}\r\n\r\n{}`;
        case 2:
          return `${f.pick(heads)}\r\nHost: x\r\ntransfer-encoding: chunked\r\ntoken: ${s.token}\r\ncontent-type: application/json\r\n\r\n${f.pick(['zz\r\n', '5\r\n{"a"\r\n', 'ffffffffffff\r\n', '0\r\n\r\n'])}`;
        case 3:
          return `${f.pick(heads)}\r\n${'h'.repeat(f.int(40_000))}: v\r\n\r\n`;
        default:
          return `${f.pick(heads)}\r\nHost: x\r\ntoken: ${s.token}\r\ncontent-type: application/json\r\ncontent-length: 10\r\n\r\n${JSON.stringify(f.json(1)).slice(0, 10)}`;
      }
    };
    const send = (data: string | Uint8Array): Promise<string> =>
      new Promise((resolve) => {
        const socket = net.connect(port, '127.0.0.1');
        let received = '';
        const done = (): void => {
          socket.destroy();
          resolve(received);
        };
        socket.on('data', (d) => (received += d.toString('latin1')));
        socket.on('close', done).on('error', done);
        socket.setTimeout(150, done); // incomplete messages: the server waits for more; do not wait for its timeout
        socket.write(data);
      });
    const statuses: string[] = [];
    for (let batch = 0; batch < 15; batch++) {
      const replies = await Promise.all(Array.from({ length: 20 }, () => send(garbage())));
      for (const reply of replies) for (const m of reply.matchAll(/HTTP\/1\.1 (\d{3})/g)) statuses.push(m[1]!);
    }
    expect(statuses.filter((status) => status.startsWith('5'))).toEqual([]);
    expect((await post(s, '/v1', { findKeyspaces: {} })).status).toBe(200);
    expect(await snapshot()).toEqual(before);
  }, 120_000);
});
