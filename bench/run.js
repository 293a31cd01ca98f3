// `npm run bench`: every benchmark in sequence, on the built package. `--quick` runs the small sizes only.
// Each bench prints its own table and writes JSON (and more) to bench/results/. Figures, not tests.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const quick = process.argv.includes('--quick');
const benches = [
  ['query-bench.js', quick ? ['--sizes', '2000,10000'] : ['--sizes', '10000,100000']],
  ['vector-kernels.js', quick ? ['768', '20000'] : []],
  ['http-bench.js', quick ? ['--docs', '2000', '--requests', '5000'] : []],
  ['graphql-bench.js', quick ? ['--requests', '1000'] : []],
  ['open-bench.js', quick ? ['--n', '20000'] : []],
  ['vector-bench.js', quick ? ['--quick'] : []],
  ['lexical-bench.js', quick ? ['--n', '5000', '--rounds', '2'] : []],
  ['rerank-bench.js', quick ? ['--n', '5000', '--queries', '100'] : []],
];
let failed = 0;
for (const [script, args] of benches) {
  console.log(`\n=== ${script} ${args.join(' ')} ===`);
  const result = spawnSync(process.execPath, [path.join(here, script), ...args], { stdio: 'inherit' });
  if (result.status !== 0) {
    failed++;
    console.error(`${script} exited with ${result.status ?? result.signal}`);
  }
}
process.exit(failed === 0 ? 0 : 1);
