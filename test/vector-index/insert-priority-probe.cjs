/**
 * Test support for native-insert-priority.test.ts: inserts n vectors into a native graph on 2 threads
 * (addAsync) and, until the insert settles, notes the nice value of each thread named "vdb-insert"
 * (/proc/self/task/<tid>/stat); resolves to { js: the JS thread's nice, insert: those seen, count }. Run as a
 * script (`node insert-priority-probe.cjs <addon.node>`), it prints that as JSON for its own data: a child
 * process with another environment (VECTORDB_INSERT_NICE is read once a process).
 */
const { readdirSync, readFileSync } = require('node:fs');

/** A thread's nice from its stat line (field 19; the fields after the command's closing parenthesis start at 3). */
const niceOf = (stat) => Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]);

function insertThreadNices(seen) {
  for (const tid of readdirSync('/proc/self/task')) {
    try {
      if (readFileSync(`/proc/self/task/${tid}/comm`, 'utf8').trim() === 'vdb-insert') seen.set(tid, niceOf(readFileSync(`/proc/self/task/${tid}/stat`, 'utf8')));
    } catch {
      // the thread ended meanwhile
    }
  }
}

async function probe(addon, data, dim, n) {
  const rows = new addon.Rows(dim, 2);
  const ids = new Uint32Array(n);
  rows.writeMany(data, n, ids);
  const graph = new addon.Graph(rows, n, 8, 40, 7);
  let settled = false;
  const inserting = graph.addAsync(Uint32Array.from({ length: n }, (_, i) => i), ids, n, 2).finally(() => (settled = true));
  const seen = new Map();
  while (!settled) {
    insertThreadNices(seen);
    await new Promise((resolve) => setImmediate(resolve));
  }
  await inserting;
  const out = { js: niceOf(readFileSync('/proc/thread-self/stat', 'utf8')), insert: [...seen.values()], count: graph.count() };
  graph.dispose();
  return out;
}

module.exports = { probe };

if (require.main === module) {
  const [addonPath, dim, n] = [process.argv[2], Number(process.argv[3]), Number(process.argv[4])];
  const data = new Float32Array(n * dim).map((_, i) => Math.sin(i * 0.37) + Math.cos(i * 0.011));
  probe(require(addonPath), data, dim, n).then((out) => process.stdout.write(JSON.stringify(out)));
}
