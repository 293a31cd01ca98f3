/**
 * In-process CPU profiling for the benchmark (V8's sampling profiler through node:inspector), and a
 * summary of where the time went by category. Started and stopped around one phase only (e.g. a bulk
 * load), so query timings elsewhere in the process are not affected; the sampling interval is coarse
 * (default 2 ms) to keep the overhead negligible.
 */
import { Session } from 'node:inspector/promises';

export async function startProfile(intervalUs = 2000) {
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.setSamplingInterval', { interval: intervalUs });
  await session.post('Profiler.start');
  return {
    async stop() {
      const { profile } = await session.post('Profiler.stop');
      await session.post('Profiler.disable');
      session.disconnect();
      return profile;
    },
  };
}

/**
 * Milliseconds per category. `classify(stack)` gets the frames of one sample, leaf first, each
 * `{ functionName, url }`, and returns a category name. A sample lasts until the next one.
 */
export function summarize(profile, classify) {
  const byId = new Map();
  const parent = new Map();
  for (const node of profile.nodes) {
    byId.set(node.id, node);
    for (const child of node.children ?? []) parent.set(child, node.id);
  }
  const categoryOf = new Map();
  const category = (id) => {
    let c = categoryOf.get(id);
    if (c !== undefined) return c;
    const stack = [];
    for (let at = id; at !== undefined; at = parent.get(at)) stack.push(byId.get(at).callFrame);
    c = classify(stack);
    categoryOf.set(id, c);
    return c;
  };
  const totals = new Map();
  const { samples, timeDeltas } = profile;
  for (let i = 0; i < samples.length; i++) {
    const dt = (i + 1 < timeDeltas.length ? timeDeltas[i + 1] : 0) / 1000;
    const c = category(samples[i]);
    totals.set(c, (totals.get(c) ?? 0) + dt);
  }
  const totalMs = (profile.endTime - profile.startTime) / 1000;
  return {
    totalMs,
    categories: [...totals.entries()].sort((a, b) => b[1] - a[1]).map(([name, ms]) => ({ name, ms, share: ms / totalMs })),
  };
}

/** Categories for a vectordb-local bulk load (insertMany through executeCommand + background graph build). */
export function classifyBulkLoad(stack) {
  const leaf = stack[0];
  const inSnapshot = stack.some(
    (f) =>
      (/\/dist\//.test(f.url) && /^(saveSnapshot|writeSnapshot|serialize|serializeParts|encodeIndexHead)$/.test(f.functionName)) ||
      (/\/dist\/vector-index\/(wasm-backend|native-backend|wasm-runtime)\.js$/.test(f.url) && /^(save|removeFile|storeOp)$/.test(f.functionName)) ||
      /fake-indexeddb/.test(f.url),
  );
  if (inSnapshot) return 'graph snapshot save';
  const inGraph = stack.some(
    (f) =>
      /#?indexLoop/.test(f.functionName) ||
      /\/dist\/vector-index\/(hnsw-index|wasm-backend|native-backend|native-rows-backend)\.js$/.test(f.url) ||
      f.url.startsWith('wasm://') ||
      /hnswlib-[\w-]+\.js$/.test(f.url),
  );
  if (inGraph) return 'graph build: HNSW inserts (background indexer)';
  if (leaf.functionName === '(garbage collector)') return 'garbage collection';
  if (leaf.functionName === '(idle)') return 'idle (waiting for LevelDB I/O)';
  if (leaf.functionName === '(program)') return 'V8 / native, unattributed';
  // the first frame from the leaf with a recognisable file decides
  for (const f of stack) {
    const u = f.url;
    if (!u || u.startsWith('node:')) continue;
    if (/\/bench\//.test(u)) return 'bench driver';
    if (/\/dist\/commands\//.test(u)) return 'insert: command layer (parse, validate, response)';
    if (/\/dist\/query\//.test(u)) return 'insert: JSON / EJSON / $vector parsing';
    if (/\/dist\/engine\/collections\/shred/.test(u)) return 'insert: shredding (index entries)';
    if (/\/dist\/engine\/vectors\//.test(u)) return 'insert: vector records + flat store';
    if (/\/dist\/engine\//.test(u)) return 'insert: engine (collection, document store, batch)';
    if (/\/dist\/storage\//.test(u) || /node_modules\/(classic-level|abstract-level|level-)/.test(u)) return 'insert: LevelDB calls';
    return `other (${u.replace(/^.*\/(node_modules\/[^/]+|dist\/[^/]+)\/.*$/, '$1')})`;
  }
  return 'node internals / builtins';
}

/** Categories of a re-open (catalog, vector records, graph snapshot). */
export function classifyReopen(stack) {
  const leaf = stack[0];
  if (leaf.functionName === '(garbage collector)') return 'garbage collection';
  if (leaf.functionName === '(idle)') return 'idle (waiting for LevelDB)';
  if (leaf.functionName === '(program)') return 'V8 / native, unattributed';
  const has = (re) => stack.some((f) => re.test(f.url) || re.test(f.functionName));
  if (has(/^wasm:\/\/|hnswlib-[\w-]+\.js$|fake-indexeddb|\/dist\/vector-index\/(wasm-backend|native-backend|wasm-runtime)\.js$|\/dist\/vector-index\/(hnsw-index|index-format|index-backend)\.js$|^readSnapshotGraph$|^loadGraph$/)) return 'graph snapshot: read chunks + load into hnswlib';
  if (has(/^readVectorKeys$|^readVectorValues$|^decodeVectorValues$|^decodeVectorTable$|^readSnapshotTable$|^#loadVectors$|^#addLoaded$/)) return 'vector records + table: read + decode + flat store';
  if (has(/\/dist\/vector-index\/flat-store\.js$/)) return 'vector records + table: read + decode + flat store';
  if (has(/\/dist\/engine\/database\.js$|\/dist\/storage\//)) return 'database open (LevelDB, catalog)';
  return 'other';
}

/** Categories of one vector find through the full API. */
export function classifyQuery(stack) {
  const leaf = stack[0];
  if (leaf.functionName === '(garbage collector)') return 'garbage collection';
  if (leaf.functionName === '(idle)') return 'idle (waiting for LevelDB reads)';
  if (leaf.functionName === '(program)') return 'V8 / native, unattributed';
  const has = (re) => stack.some((f) => re.test(f.url));
  const fn = (re) => stack.some((f) => re.test(f.functionName));
  if (stack.some((f) => f.url.startsWith('wasm://') || /hnswlib-[\w-]+\.js$/.test(f.url)) || fn(/^searchKnn$/)) return 'HNSW search (hnswlib)';
  if (has(/\/dist\/engine\/(collections\/)?planner\.js$/) || fn(/^planCandidates$/)) return 'planner (secondary-index reads)';
  if (has(/\/dist\/vector-index\/flat-store\.js$/) || has(/\/dist\/vector-index\/kernels\.js$/)) return 'exact scan (flat store)';
  if (has(/\/dist\/vector-index\/hnsw-index\.js$/) || has(/\/dist\/vector-index\/(wasm-backend|native-backend|native-rows-backend|native-rows|wasm-runtime)\.js$/)) return 'HNSW search (our wrapper)';
  for (const f of stack) {
    const u = f.url;
    if (!u || u.startsWith('node:')) continue;
    if (/\/bench\//.test(u)) return 'bench driver';
    if (/\/dist\/commands\//.test(u)) return 'command layer (parse, response)';
    if (/\/dist\/query\/(projection|json)\.js$/.test(u)) return 'projection / JSON of results';
    if (/\/dist\/query\//.test(u)) return 'query parsing ($vector, filter)';
    if (/\/dist\/engine\/collections\/document-store\.js$/.test(u) || /\/dist\/storage\//.test(u) || /classic-level|abstract-level/.test(u)) return 'document fetch (LevelDB getMany + decode)';
    if (/\/dist\/engine\/vectors\//.test(u)) return 'collection vectors (rank, labels, merge)';
    if (/\/dist\/engine\//.test(u)) return 'engine (collection: filter check, glue)';
    return `other (${u.replace(/^.*\/(node_modules\/[^/]+|dist\/[^/]+)\/.*$/, '$1')})`;
  }
  return 'node internals / builtins';
}
