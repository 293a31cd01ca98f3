/**
 * Builds the Node entry that package.json's `main`, `import` and `require` point at: bundles dist/index.js,
 * which tsc wrote, with esbuild into dist/node/ (index.js plus shared chunks; what is loaded on first use,
 * such as the GraphQL layer and the HTTP server, stays in chunks of its own), and the `vectordb-local/langchain`
 * subpath beside it (dist/node/langchain.js). Packages stay external.
 * Why: Node's ES module loader costs ~0.4 ms per file, and the entry reaches ~145 of ours; one bundle
 * makes a cold `import` about 40 % cheaper. The per-file modules stay in dist/ for the CLI and the worker.
 * Code in the bundle that finds a file next to itself (import.meta.url) must name it from dist/<folder>/:
 * the bundle sits one folder below dist/ like the per-file modules do (see graph-builder.ts).
 */
import { rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';

const root = fileURLToPath(new URL('..', import.meta.url));
const dist = join(root, 'dist');
const outdir = join(dist, 'node');

rmSync(outdir, { recursive: true, force: true });
const result = await esbuild.build({
  // The subpath exports are entries of the same build: they share its chunks, so `vectordb-local/langchain`
  // works on the very VectorDB class the main entry exports, and the main entry never loads what they import.
  entryPoints: { index: join(dist, 'index.js'), langchain: join(dist, 'integrations', 'langchain', 'index.js') },
  outdir,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  packages: 'external',
  sourcemap: true,
  chunkNames: 'chunk-[hash]',
  metafile: true,
  logLevel: 'warning',
});

const outputs = Object.keys(result.metafile.outputs).filter((file) => file.endsWith('.js'));
const kib = (file) => (statSync(join(root, file)).size / 1024).toFixed(0);
console.log(`node bundle: dist/node/index.js ${kib('dist/node/index.js')} KiB, ${outputs.length - 1} chunks`);
