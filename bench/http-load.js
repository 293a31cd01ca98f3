// Load generator for bench/http-bench.js, run as a SECOND process (child_process.fork): sends one operation's
// requests over keep-alive HTTP with a given concurrency (one connection per worker, one request in flight per
// connection: no pipelining) and reports latencies to the parent over IPC. Not a test. Never prints the token.
//
// Client 'undici' (default): one undici Client per connection, driven through dispatch() with a bare handler,
// because node:http's client costs this process about as much CPU per request as the server under test does,
// and on 2 cores that CPU is taken from the server. Client 'node' is the former node:http Agent, for comparison.
import http from 'node:http';
import { performance } from 'node:perf_hooks';
import { Client } from 'undici';

/** One request over node:http's client with a keep-alive Agent. */
function nodeHttpSender(target, token, concurrency) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency, maxFreeSockets: concurrency });
  const sockets = new Set();
  const send = (body) =>
    new Promise((resolve, reject) => {
      const req = http.request(
        { host: target.hostname, port: target.port, path: target.pathname, method: 'POST', agent, headers: { 'content-type': 'application/json', token, 'content-length': Buffer.byteLength(body) } },
        (res) => {
          const chunks = [];
          res.on('data', (c) => chunks.push(c));
          res.on('end', () => resolve({ status: res.statusCode, text: Buffer.concat(chunks).toString('utf8') }));
        },
      );
      req.on('socket', (socket) => sockets.add(socket));
      req.on('error', reject);
      req.end(body);
    });
  return { workers: Array.from({ length: concurrency }, () => send), sockets: () => sockets.size, close: async () => agent.destroy() };
}

/** One undici Client (one keep-alive connection, pipelining 1) per worker. */
function undiciSender(target, token, concurrency) {
  const clients = Array.from({ length: concurrency }, () => new Client(target.origin, { pipelining: 1, keepAliveTimeout: 60_000 }));
  let connected = 0;
  for (const client of clients) client.on('connect', () => connected++);
  const headers = { 'content-type': 'application/json', token };
  const sendOn = (client) => (body) =>
    new Promise((resolve, reject) => {
      const chunks = [];
      let status = 0;
      client.dispatch(
        { origin: target.origin, path: target.pathname, method: 'POST', headers, body },
        {
          onRequestStart() {},
          onResponseStart(_controller, statusCode) {
            status = statusCode;
          },
          onResponseData(_controller, chunk) {
            chunks.push(chunk);
          },
          onResponseEnd() {
            resolve({ status, text: chunks.length === 1 ? chunks[0].toString('utf8') : Buffer.concat(chunks).toString('utf8') });
          },
          onResponseError(_controller, error) {
            reject(error);
          },
        },
      );
    });
  return { workers: clients.map(sendOn), sockets: () => connected, close: () => Promise.all(clients.map((c) => c.close())) };
}

/** Sends `count` requests (bodies[i % n]) with `concurrency` workers; returns per-request latencies (ms) and this process's CPU. */
async function runLoad({ url, token, path, bodies, concurrency, count, client = 'undici' }) {
  const target = new URL(path, url);
  const sender = client === 'node' ? nodeHttpSender(target, token, concurrency) : undiciSender(target, token, concurrency);
  const latencies = new Float64Array(count);
  let next = 0;
  let errors = 0;
  let firstError;
  const worker = async (send) => {
    while (next < count) {
      const i = next++;
      const body = bodies[i % bodies.length];
      const t0 = performance.now();
      const { status, text } = await send(body);
      latencies[i] = performance.now() - t0;
      if (status !== 200 || text.includes('"errors"')) {
        errors++;
        firstError ??= `${status} ${text.slice(0, 300)}`;
      }
    }
  };
  const cpuBefore = process.cpuUsage();
  const started = performance.now();
  await Promise.all(sender.workers.map(worker));
  const elapsed = performance.now() - started;
  const cpu = process.cpuUsage(cpuBefore);
  const sockets = sender.sockets();
  await sender.close();
  return { latencies: Array.from(latencies), elapsedMs: elapsed, errors, firstError, sockets, loadCpuUsPerRequest: Math.round((cpu.user + cpu.system) / count) };
}

process.on('message', async (job) => {
  try {
    // Warm-up on the same code paths (JIT), not measured.
    await runLoad({ ...job, bodies: job.warmup, count: job.warmup.length });
    process.send({ ok: true, result: await runLoad(job) });
  } catch (error) {
    process.send({ ok: false, error: String(error?.stack ?? error) });
  }
});
