/**
 * An oversized body gets its 413 with every client: the server reads and drops the rest of the body (within
 * bounds) before closing, so a client still sending, like Node's fetch (undici) in another process, reads the
 * answer instead of EPIPE / a reset. Run from a child process: in-process the race is rarely lost.
 * Each upload costs seconds, so the default run sends a few; VECTORDB_LONG_TESTS=1 repeats them more.
 */
import { spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { post, serve, type Served } from './helpers.js';

let s: Served;
/** Uploads per case: enough to lose the race once if the server still closes early. */
const TIMES = process.env.VECTORDB_LONG_TESTS === '1' ? { sized: 5, chunked: 3 } : { sized: 2, chunked: 1 };

beforeAll(async () => {
  s = await serve({ maxBodyBytes: 1024 * 1024 });
});

afterAll(async () => {
  await s?.close();
});

/** Node's fetch in a child process, POSTing `megabytes` MB `times` times; one line per reply (status or error). */
function fetchFromChild(megabytes: number, times: number, chunked: boolean): Promise<string[]> {
  const script = `
    const body = '{"insertOne":{"document":{"t":"' + 'a'.repeat(${megabytes} * 1024 * 1024) + '"}}}';
    const bytes = new TextEncoder().encode(body);
    for (let i = 0; i < ${times}; i++) {
      const payload = ${chunked} ? new ReadableStream({ start(c) { c.enqueue(bytes); c.close(); } }) : body;
      try {
        const r = await fetch(process.argv[1], { method: 'POST', headers: { token: process.argv[2], 'content-type': 'application/json' }, body: payload, duplex: 'half' });
        const json = await r.json();
        console.log(r.status + ' ' + json.errors[0].errorCode);
      } catch (e) {
        console.log('failed ' + (e.cause?.code ?? e.message));
      }
    }`;
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--input-type=module', '-e', script, `${s.url}/v1/default_keyspace/c`, s.token], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.on('error', reject);
    child.on('close', () => resolve(out.trim().split('\n')));
  });
}

describe('oversized bodies', () => {
  it('40 MB with Content-Length, again and again: every reply is the 413, none a broken pipe', async () => {
    expect(await fetchFromChild(40, TIMES.sized, false)).toEqual(Array(TIMES.sized).fill('413 REQUEST_TOO_LARGE'));
  });

  it('40 MB streamed (chunked, no Content-Length): the 413 too', async () => {
    expect(await fetchFromChild(40, TIMES.chunked, true)).toEqual(Array(TIMES.chunked).fill('413 REQUEST_TOO_LARGE'));
  });

  it('the server keeps serving afterwards', async () => {
    expect((await post(s, '/v1', { findKeyspaces: {} })).body.status?.keyspaces).toContain('default_keyspace');
  });
});
