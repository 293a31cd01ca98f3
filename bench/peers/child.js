/**
 * One system of `npm run bench:peers` in its own process, driven by the parent (run.js) over IPC.
 *
 *   node bench/peers/child.js <system> <dataDir> <workDir> run|reopen [settingIndex]
 *
 * `run`: loads the dataset into the system (timed), finds its cheapest setting reaching recall 0.95 on the
 * calibration queries, then answers the parent's burst requests (timed queries of one mode) until told to
 * finish (RSS as it is and after a full GC, the bytes of bodies it caches, then close / persist, then the
 * bytes of its data directory). `reopen`: opens the directory a `run` left, at the given setting, and times
 * the first answer (and RSS after it, after a full GC).
 */
import { closeSync, openSync, readdirSync, readFileSync, readSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { exactTopK, recallOf } from '../lib/exact.js';
import { mixture, sample } from '../lib/vector-data.js';
import { MODES } from './report.js';
import { SYSTEMS } from './systems/index.js';

const [system, dataDir, workDir, task, settingIndex] = process.argv.slice(2);
const meta = JSON.parse(readFileSync(join(dataDir, 'meta.json'), 'utf8'));
const { n, dim, k, categories } = meta;
/**
 * A file of float32s read straight into its array. Not through readFileSync and a copy: freeing a
 * temporary buffer of tens of MB raises glibc's mmap and trim thresholds to its size for the rest of the
 * process, so that every system's freed native memory (LevelDB's write buffer, say) stayed resident: the
 * bench would set the malloc regime of the systems it measures.
 */
const f32 = (file) => {
  const path = join(dataDir, file);
  const values = new Float32Array(statSync(path).size / 4);
  const bytes = new Uint8Array(values.buffer);
  const fd = openSync(path, 'r');
  try {
    for (let at = 0; at < bytes.length; ) at += readSync(fd, bytes, at, bytes.length - at, at);
  } finally {
    closeSync(fd);
  }
  return values;
};
const cats = Uint8Array.from({ length: n }, (_, i) => i % categories);
// A reopening process holds no copy of the vectors: its RSS is the system's alone.
const vectors = task === 'run' ? f32('vectors.f32') : undefined;
const ctx = { n, dim, k, cats, vectors, workDir, distUrl: new URL(meta.distUrl), row: (i) => vectors.subarray(i * dim, (i + 1) * dim) };
const send = (message) => process.send(message);
const MB = 2 ** 20;
/** The process's RSS as it is (no collection forced). */
const rssNowMb = () => process.memoryUsage().rss / MB;
/**
 * RSS after a full GC (children run with --expose-gc), the same for every system: two major collections a
 * macrotask apart, so that what the first one found dead and freed through finalizers (native objects,
 * WebAssembly memories) is gone too.
 */
async function rssAfterGcMb() {
  globalThis.gc?.();
  await new Promise((resolve) => setTimeout(resolve, 50));
  globalThis.gc?.();
  return process.memoryUsage().rss / MB;
}

/** Queries never seen by this process: seeded chunks of the dataset's mixture, the same sequence in every child. */
const mix = mixture(meta.mixSeed, dim, meta.clusters);
const UNSEEN_CHUNK = 256;
let unseenChunk = -1;
let unseenVectors;
let unseenNext = UNSEEN_CHUNK;
function nextUnseen() {
  if (unseenNext === UNSEEN_CHUNK) {
    unseenChunk++;
    unseenVectors = sample(mix, meta.unseenSeed + unseenChunk, UNSEEN_CHUNK, meta.spread);
    unseenNext = 0;
  }
  const i = unseenNext++;
  return { vector: unseenVectors.subarray(i * dim, (i + 1) * dim), cat: (unseenChunk * UNSEEN_CHUNK + i) % categories };
}

const adapter = await SYSTEMS[system](ctx);
const search = async (query, filtered) => {
  const found = adapter.search(query.vector, filtered ? query.cat : undefined);
  return found && typeof found.then === 'function' ? await found : found;
};

if (task === 'reopen') {
  const setting = adapter.settings[Number(settingIndex)];
  const query = nextUnseen();
  // Module loading is not timed: what a system loads only at its first open is loaded here first.
  await adapter.preload?.();
  const started = performance.now();
  await adapter.reopen();
  adapter.apply(setting);
  const first = await search(query, false);
  const ms = performance.now() - started;
  // `found`: a reopened store that answers with less than k results has not really reopened (the parent says so).
  send({ type: 'reopened', ms, rssMb: await rssAfterGcMb(), found: first.length });
  process.exit(0);
}

// ---- run: load, calibrate, bursts --------------------------------------------------------------------
let started = performance.now();
await adapter.load();
send({ type: 'loaded', loadMs: performance.now() - started });

const calibration = f32('calibration.f32');
const truth = JSON.parse(readFileSync(join(dataDir, 'truth.json'), 'utf8'));
const repeats = Array.from({ length: truth.unfiltered.length }, (_, q) => ({ vector: calibration.subarray(q * dim, (q + 1) * dim), cat: q % categories }));

async function recallOver(filtered) {
  let sum = 0;
  for (let q = 0; q < repeats.length; q++) sum += recallOf(await search(repeats[q], filtered), filtered ? truth.filtered[q] : truth.unfiltered[q]);
  return sum / repeats.length;
}

/** The first setting (cheapest first) whose recall reaches 0.95, else the best one; and the sweep. */
async function calibrate(filtered) {
  const sweep = [];
  let chosen = 0;
  for (let s = 0; s < adapter.settings.length; s++) {
    adapter.apply(adapter.settings[s]);
    const recall = await recallOver(filtered);
    sweep.push({ setting: adapter.settings[s].label, recall });
    process.stderr.write(`  [${system}${filtered ? ', 1 % filter' : ''}] ${adapter.settings[s].label}: recall ${recall.toFixed(3)}\n`);
    if (recall > sweep[chosen].recall) chosen = s;
    if (recall >= 0.95) {
      chosen = s;
      break;
    }
  }
  const label = adapter.settings[chosen].label;
  return { settingIndex: chosen, setting: sweep[chosen].recall >= 0.95 ? label : `${label} (best: recall ${sweep[chosen].recall.toFixed(3)})`, sweep };
}
const calibrated = { unfiltered: await calibrate(false), filtered: await calibrate(true) };
send({ type: 'calibrated', ...calibrated });

const rowsOfCat = Array.from({ length: categories }, (_, c) => Uint32Array.from({ length: Math.ceil((n - c) / categories) }, (_, j) => c + j * categories));
let repeatNext = 0;
const nextRepeat = () => repeats[repeatNext++ % repeats.length];
/** Queries whose answers are checked against an exact scan, per burst (after the clock stops). */
const CHECKED_PER_BURST = 10;

/** Timed queries of one mode for about `ms` (at least 3): wall-clock and CPU-time QPS, recall of a sample. */
async function burst(modeKey, ms) {
  const mode = MODES.find((m) => m.key === modeKey);
  const next = mode.unseen ? nextUnseen : nextRepeat;
  adapter.apply(adapter.settings[calibrated[mode.filtered ? 'filtered' : 'unfiltered'].settingIndex]);
  for (let i = 0; i < 5; i++) await search(next(), mode.filtered);
  const checks = [];
  let elapsed = 0;
  let cpuMicros = 0;
  let count = 0;
  while (elapsed < ms || count < 3) {
    // Queries are drawn before the clock starts (making unseen ones costs time).
    const batch = Array.from({ length: 64 }, next);
    const cpu = process.cpuUsage();
    const from = performance.now();
    for (const query of batch) {
      const found = await search(query, mode.filtered);
      if (checks.length < CHECKED_PER_BURST) checks.push({ query, found });
      count++;
      if (count >= 3 && elapsed + performance.now() - from >= ms) break;
    }
    elapsed += performance.now() - from;
    const used = process.cpuUsage(cpu);
    cpuMicros += used.user + used.system;
  }
  let recallSum = 0;
  for (const { query, found } of checks) {
    recallSum += recallOf(found, exactTopK(query.vector, vectors, dim, n, k, mode.filtered ? rowsOfCat[query.cat] : undefined));
  }
  return { qps: (count * 1000) / elapsed, cpuQps: (count * 1e6) / cpuMicros, queries: count, recallSum, checked: checks.length };
}

process.on('message', async (message) => {
  if (message.type === 'burst') send({ type: 'burst', ...(await burst(message.mode, message.ms)) });
  else if (message.type === 'finish') {
    const rss = rssNowMb();
    const rssGc = await rssAfterGcMb();
    // The bytes of bodies the system chose to cache (ours: its body caches), read after the RSS.
    const cachedBytes = (await adapter.cachedBytes?.()) ?? null;
    await adapter.close?.();
    send({ type: 'finished', rssMb: rss, rssGcMb: rssGc, cachedBytes, diskBytes: adapter.persistent === false ? null : bytesUnder(workDir) });
    process.exit(0);
  }
});

/** Total size of the files under `dir`. */
function bytesUnder(dir) {
  let total = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    total += entry.isDirectory() ? bytesUnder(path) : statSync(path).size;
  }
  return total;
}
