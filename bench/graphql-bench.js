// GraphQL query vs the same Data API `find` over HTTP, same server, same run: req/s of each, and their ratio.
// `node bench/graphql-bench.js [--docs 2000] [--requests 3000] [--concurrency 8] [--rounds 3]` after `npm run build`.
// The server runs as a child process (`vectordb-local serve`), the load from this one (undici, keep-alive,
// one request in flight per connection). Rounds alternate find / GraphQL so drift on a shared machine hits
// both; the median round of each is reported. Figures, not a test.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from 'undici';
import { freshDist } from './lib/private-dist.js';
import { median } from './lib/stats.js';

const args = process.argv.slice(2);
const flag = (name, fallback) => {
  const i = args.indexOf(`--${name}`);
  return i === -1 ? fallback : Number(args[i + 1]);
};
const DOCS = flag('docs', 2000);
const REQUESTS = flag('requests', 3000);
const CONCURRENCY = flag('concurrency', 8);
const ROUNDS = flag('rounds', 3);
const TOKEN = `bench-${process.pid}-token`;
const MAIN = fileURLToPath(new URL('cli/main.js', freshDist()));

const dir = mkdtempSync(path.join(tmpdir(), 'vectordb-graphql-bench-'));
const server = spawn(process.execPath, [MAIN, 'serve', '--data', dir, '--port', '0', '--token', TOKEN], { stdio: ['ignore', 'pipe', 'inherit'] });
const url = await new Promise((resolve, reject) => {
  let out = '';
  server.stdout.setEncoding('utf8').on('data', (d) => {
    out += d;
    const match = /endpoint:\s+(http:\/\/\S+)/.exec(out);
    if (match) resolve(match[1]);
  });
  server.once('exit', (code) => reject(new Error(`server exited (${code}):\n${out}`)));
});

async function post(pathname, body) {
  const response = await fetch(url + pathname, { method: 'POST', headers: { 'content-type': 'application/json', token: TOKEN }, body: JSON.stringify(body) });
  return response.json();
}

try {
  await post('/v1/default_keyspace', { createCollection: { name: 'products' } });
  const colors = ['red', 'green', 'blue', 'black'];
  for (let i = 0; i < DOCS; i += 20) {
    const documents = Array.from({ length: Math.min(20, DOCS - i) }, (_, k) => ({ _id: `p${i + k}`, name: `product ${i + k}`, price: (i + k) % 100, color: colors[(i + k) % 4] }));
    const r = await post('/v1/default_keyspace/products', { insertMany: { documents } });
    if (r.errors) throw new Error(JSON.stringify(r.errors));
  }
  // The same question both ways: red products under 50, one page of 20.
  const find = { path: '/v1/default_keyspace/products', body: JSON.stringify({ find: { filter: { color: 'red', price: { $lt: 50 } } } }) };
  const graphql = {
    path: '/api/graphql/default_keyspace',
    body: JSON.stringify({ query: '{ products(value: {color: "red"}, filter: {price: {lt: 50}}) { values { _id name price color } pageState } }' }),
  };
  const a = await post(find.path, JSON.parse(find.body));
  const b = await post(graphql.path, JSON.parse(graphql.body));
  const idsA = a.data.documents.map((d) => d._id).join();
  const idsB = b.data.products.values.map((d) => d._id).join();
  if (idsA !== idsB) throw new Error(`the two answers differ:\n${idsA}\n${idsB}`);

  const clients = Array.from({ length: CONCURRENCY }, () => new Client(new URL(url).origin, { pipelining: 1 }));
  const headers = { 'content-type': 'application/json', token: TOKEN };
  const round = async (op) => {
    let sent = 0;
    const started = performance.now();
    await Promise.all(
      clients.map(async (client) => {
        while (sent < REQUESTS) {
          sent++;
          const { statusCode, body } = await client.request({ path: op.path, method: 'POST', headers, body: op.body });
          await body.text();
          if (statusCode !== 200) throw new Error(`HTTP ${statusCode}`);
        }
      }),
    );
    return REQUESTS / ((performance.now() - started) / 1000);
  };
  await round(find); // warm-up of both paths
  await round(graphql);
  const rates = { find: [], graphql: [] };
  for (let r = 0; r < ROUNDS; r++) {
    rates.find.push(await round(find));
    rates.graphql.push(await round(graphql));
  }
  const f = median(rates.find);
  const g = median(rates.graphql);
  console.log(`graphql-bench: ${DOCS} docs, ${REQUESTS} requests x ${ROUNDS} rounds, concurrency ${CONCURRENCY}, 20 documents per answer`);
  console.log(`  Data API find over HTTP   ${f.toFixed(0).padStart(7)} req/s   (rounds: ${rates.find.map((x) => x.toFixed(0)).join(', ')})`);
  console.log(`  GraphQL query over HTTP   ${g.toFixed(0).padStart(7)} req/s   (rounds: ${rates.graphql.map((x) => x.toFixed(0)).join(', ')})`);
  console.log(`  GraphQL / find            ${(g / f).toFixed(2)}x`);
  await Promise.all(clients.map((c) => c.close()));
} finally {
  server.kill('SIGTERM');
  await new Promise((resolve) => server.once('exit', resolve));
  rmSync(dir, { recursive: true, force: true });
}
