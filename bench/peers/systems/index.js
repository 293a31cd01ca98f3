/**
 * The systems of `npm run bench:peers`, by name, in table order. Each entry makes (from the child's
 * context: dataset, work directory, k) an adapter: settings, load, apply(setting), search(vector, cat),
 * close (persist), reopen; `persistent: false` for those with nothing on disk.
 */
import { hnswlibNode, hnswlibWasm } from './hnswlib.js';
import { jsLoop, orama, vectra } from './js-stores.js';
import { lancedb } from './lancedb.js';
import { ours } from './ours.js';

export const SYSTEMS = {
  'ours-native': ours('native'),
  'ours-wasm': ours('wasm'),
  // Not in the default run: the RSS of ours with no body cached (issue 20's footprint target), on request.
  'ours-native-nocache': ours('native', { bodyCacheBytes: 0 }),
  'hnswlib-node': hnswlibNode,
  'hnswlib-wasm': hnswlibWasm,
  'lancedb-flat': lancedb('flat'),
  'lancedb-ivfpq': lancedb('ivfpq'),
  'lancedb-hnswsq': lancedb('hnswsq'),
  vectra,
  orama,
  'js-loop': jsLoop,
};

/** The systems that need bench/peers' own node_modules (the rest use the root's). */
export const NEEDS_PEER_PACKAGES = new Set(['lancedb-flat', 'lancedb-ivfpq', 'lancedb-hnswsq', 'vectra', 'orama']);
