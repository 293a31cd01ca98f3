/**
 * Connection behaviour: keep-alive reuse, slow clients cut by the header/request timeouts, dropped clients,
 * and graceful close (in-flight requests finish, new connections are refused). Raw sockets where fetch hides it.
 */
import http from 'node:http';
import net from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { post, run, serve, type Served } from './helpers.js';

let s: Served;

beforeAll(async () => {
  s = await serve({ timeouts: { headersMs: 400, requestMs: 800, keepAliveMs: 5_000 } });
  await run(s.db, { createCollection: { name: 'c' } }, { keyspace: 'default_keyspace' });
});

afterAll(async () => {
  await s?.close();
});

function request(agent: http.Agent, url: string, token: string, body: string): Promise<{ status: number; reused: boolean; text: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method: 'POST', agent, headers: { 'content-type': 'application/json', token } }, (res) => {
      let text = '';
      res.setEncoding('utf8').on('data', (c: string) => (text += c)).on('end', () => resolve({ status: res.statusCode!, reused: req.reusedSocket, text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** Opens a raw socket, writes `data`, and resolves with what the server sent before closing (or after `waitMs`). */
function raw(port: number, data: string, waitMs: number): Promise<{ received: string; closedByServer: boolean }> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    let received = '';
    let done = false;
    const finish = (closedByServer: boolean): void => {
      if (done) return;
      done = true;
      socket.destroy();
      resolve({ received, closedByServer });
    };
    socket.on('data', (d) => (received += d.toString('utf8')));
    socket.on('close', () => finish(true));
    socket.on('error', () => finish(true));
    socket.write(data);
    setTimeout(() => finish(false), waitMs);
  });
}

describe('connections', () => {
  it('keeps connections alive across requests', async () => {
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const replies = [];
    for (let i = 0; i < 5; i++) replies.push(await request(agent, `${s.url}/v1`, s.token, '{"findKeyspaces":{}}'));
    agent.destroy();
    expect(replies.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
    expect(replies.slice(1).every((r) => r.reused)).toBe(true);
  });

  it('many connections with a request each in flight: every response is its own request\'s, with its own length', async () => {
    // Responses finished in one event-loop turn are written together (response-batch.ts): none may be lost or swapped.
    const path = `${s.url}/v1/default_keyspace/c`;
    await run(s.db, { insertMany: { documents: Array.from({ length: 20 }, (_, i) => ({ _id: `k${i}`, n: i, text: 'é'.repeat(i) })) } }, { keyspace: 'default_keyspace', collection: 'c' });
    const agent = new http.Agent({ keepAlive: true, maxSockets: 8 });
    const rounds = await Promise.all(
      Array.from({ length: 8 }, async (_, worker) => {
        const seen: number[] = [];
        for (let i = 0; i < 10; i++) {
          const n = (worker * 10 + i) % 20;
          const reply = await request(agent, path, s.token, JSON.stringify({ findOne: { filter: { _id: `k${n}` } } }));
          expect(reply.status).toBe(200);
          const doc = (JSON.parse(reply.text) as { data: { document: { n: number; text: string } } }).data.document;
          expect(doc.text).toBe('é'.repeat(n)); // multi-byte text: the Content-Length counts bytes
          seen.push(doc.n);
        }
        return seen;
      }),
    );
    agent.destroy();
    expect(rounds).toEqual(Array.from({ length: 8 }, (_, worker) => Array.from({ length: 10 }, (_, i) => (worker * 10 + i) % 20)));
  });

  it('keeps the connection alive after a command error and after a 401', async () => {
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const a = await request(agent, `${s.url}/v1/default_keyspace/c`, 'wrong', '{"findOne":{}}');
    const b = await request(agent, `${s.url}/v1/default_keyspace/c`, s.token, '{"nope":{}}');
    const c = await request(agent, `${s.url}/v1/default_keyspace/c`, s.token, '{"countDocuments":{}}');
    agent.destroy();
    expect([a.status, b.status, c.status]).toEqual([401, 200, 200]);
    expect(b.reused && c.reused).toBe(true);
  });

  it('an idle keep-alive connection longer than the headers timeout still serves its next request', async () => {
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const first = await request(agent, `${s.url}/v1`, s.token, '{"findKeyspaces":{}}');
    await sleep(1_500); // headersMs is 400, keepAliveMs 5000
    const second = await request(agent, `${s.url}/v1`, s.token, '{"findKeyspaces":{}}');
    agent.destroy();
    expect([first.status, second.status]).toEqual([200, 200]);
    expect(second.reused).toBe(true);
  });

  it('cuts a client that sends its headers too slowly', async () => {
    const { closedByServer, received } = await raw(s.server.address()!.port, 'POST /v1 HTTP/1.1\r\nHost: x\r\n', 4_000);
    expect(closedByServer).toBe(true);
    expect(received === '' || received.startsWith('HTTP/1.1 408')).toBe(true);
  });

  it('cuts a client that never finishes its body', async () => {
    const head = `POST /v1 HTTP/1.1\r\nHost: x\r\ncontent-type: application/json\r\ntoken: ${s.token}\r\ncontent-length: 100\r\n\r\n{"findKeyspaces"`;
    const { closedByServer } = await raw(s.server.address()!.port, head, 5_000);
    expect(closedByServer).toBe(true);
  });

  it('survives clients that hang up mid-request and malformed HTTP', async () => {
    const port = s.server.address()!.port;
    const head = `POST /v1/default_keyspace/c HTTP/1.1\r\nHost: x\r\ncontent-type: application/json\r\ntoken: ${s.token}\r\ncontent-length: 1000\r\n\r\n{"insertOne":`;
    await Promise.all([
      raw(port, head, 20),
      raw(port, 'GARBAGE\r\n\r\n', 200),
      raw(port, 'POST /v1 HTTP/1.1\r\nHost: x\r\ncontent-length: nope\r\n\r\n', 200),
      raw(port, `POST /v1 HTTP/1.1\r\nHost: x\r\n${'x-a: b\r\n'.repeat(5000)}\r\n`, 200),
    ]);
    const reply = await post(s, '/v1', { findKeyspaces: {} });
    expect(reply.status).toBe(200);
  });

  it('a client that hangs up while its command runs does not break the server', async () => {
    const controller = new AbortController();
    const docs = Array.from({ length: 20 }, (_, i) => ({ _id: `abort-${i}`, v: i }));
    const pending = fetch(`${s.url}/v1/default_keyspace/c`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', token: s.token },
      body: JSON.stringify({ insertMany: { documents: docs } }),
      signal: controller.signal,
    }).catch((e: unknown) => e);
    controller.abort();
    await pending;
    await sleep(50);
    expect((await post(s, '/v1/default_keyspace/c', { countDocuments: {} })).status).toBe(200);
  });
});

describe('graceful close', () => {
  it('finishes the request in flight, then refuses new connections', async () => {
    const g = await serve();
    const port = g.server.address()!.port;
    // A request whose body is still arriving when close() starts.
    const socket = net.connect(port, '127.0.0.1');
    await new Promise((r) => socket.once('connect', r));
    const body = '{"findKeyspaces":{}}';
    socket.write(`POST /v1 HTTP/1.1\r\nHost: x\r\ncontent-type: application/json\r\ntoken: ${g.token}\r\ncontent-length: ${body.length}\r\n\r\n${body.slice(0, 5)}`);
    let received = '';
    socket.on('data', (d) => (received += d.toString('utf8')));
    const ended = new Promise((r) => socket.once('close', r));
    await sleep(50);
    let closed = false;
    const closing = g.server.close().then(() => (closed = true));
    await sleep(50);
    expect(closed).toBe(false);
    await expect(fetch(`${g.url}/v1`, { method: 'POST' })).rejects.toThrow();
    socket.write(body.slice(5));
    await ended;
    await closing;
    expect(received).toMatch(/^HTTP\/1.1 200/);
    expect(received.toLowerCase()).toContain('connection: close');
    expect(received).toContain('"keyspaces"');
    await g.db.close();
  });

  it('close() is idempotent and cuts stuck connections after the grace period', async () => {
    const g = await serve();
    const socket = net.connect(g.server.address()!.port, '127.0.0.1');
    await new Promise((r) => socket.once('connect', r));
    socket.write(`POST /v1 HTTP/1.1\r\nHost: x\r\ncontent-type: application/json\r\ntoken: ${g.token}\r\ncontent-length: 100\r\n\r\n{`);
    const started = Date.now();
    await Promise.all([g.server.close({ graceMs: 200 }), g.server.close()]);
    expect(Date.now() - started).toBeLessThan(5_000);
    socket.destroy();
    await g.db.close();
  });
});
