// Load generator for bench/http-bench.js, run as a SECOND process (child_process.fork): sends one operation's
// requests over keep-alive node:http with a given concurrency and reports latencies to the parent over IPC.
// Not a test. Never prints the token.
import http from 'node:http';
import { performance } from 'node:perf_hooks';

/** Sends `count` requests (bodies[i % n]) with `concurrency` workers; returns per-request latencies (ms). */
async function runLoad({ url, token, path, bodies, concurrency, count }) {
  const target = new URL(path, url);
  const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency, maxFreeSockets: concurrency });
  let sockets = 0;
  const latencies = new Float64Array(count);
  let next = 0;
  let errors = 0;
  let firstError;
  const once = (body) =>
    new Promise((resolve, reject) => {
      const req = http.request(
        { host: target.hostname, port: target.port, path: target.pathname, method: 'POST', agent, headers: { 'content-type': 'application/json', token, 'content-length': Buffer.byteLength(body) } },
        (res) => {
          const chunks = [];
          res.on('data', (c) => chunks.push(c));
          res.on('end', () => resolve({ status: res.statusCode, text: Buffer.concat(chunks).toString('utf8') }));
        },
      );
      req.on('socket', (socket) => {
        if (!socket.__counted) {
          socket.__counted = true;
          sockets++;
        }
      });
      req.on('error', reject);
      req.end(body);
    });
  const worker = async () => {
    while (next < count) {
      const i = next++;
      const body = bodies[i % bodies.length];
      const t0 = performance.now();
      const { status, text } = await once(body);
      latencies[i] = performance.now() - t0;
      if (status !== 200 || text.includes('"errors"')) {
        errors++;
        firstError ??= `${status} ${text.slice(0, 300)}`;
      }
    }
  };
  const started = performance.now();
  await Promise.all(Array.from({ length: concurrency }, worker));
  const elapsed = performance.now() - started;
  agent.destroy();
  return { latencies: Array.from(latencies), elapsedMs: elapsed, errors, firstError, sockets };
}

process.on('message', async (job) => {
  try {
    // Warm-up on the same connections' code paths (JIT), not measured.
    await runLoad({ ...job, bodies: job.warmup, count: job.warmup.length });
    process.send({ ok: true, result: await runLoad(job) });
  } catch (error) {
    process.send({ ok: false, error: String(error?.stack ?? error) });
  }
});
