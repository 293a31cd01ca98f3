/**
 * Builds the browser entry (the `browser` export condition): bundles dist/browser.js, which tsc wrote,
 * with esbuild into one ES module, dist/browser/vectordb-local.js, and prints its size. Run after tsc.
 * Node adapters are swapped for their browser twins here (the one seam: a module X.js with an
 * X.browser.js beside it), hnswlib-wasm's glue is bundled already patched, Buffer comes from the
 * `buffer` package, and any Node built-in left in the graph fails the build.
 */
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import * as esbuild from 'esbuild';
import { browserPlugins } from './browser-plugins.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const dist = join(root, 'dist');
const outfile = join(dist, 'browser', 'vectordb-local.js');
const result = await esbuild.build({
  entryPoints: [join(dist, 'browser.js')],
  outfile,
  bundle: true,
  format: 'esm',
  platform: 'browser',
  target: 'es2022',
  minify: true,
  sourcemap: true,
  legalComments: 'linked',
  inject: [join(root, 'scripts', 'buffer-global.js')],
  plugins: browserPlugins(dist),
  metafile: true,
  logLevel: 'warning',
});

const nodeInputs = Object.keys(result.metafile.inputs).filter((input) => input.startsWith('node:'));
if (nodeInputs.length > 0) throw new Error(`the browser bundle reaches Node built-ins: ${nodeInputs.join(', ')}`);

const bytes = statSync(outfile).size;
const gzipped = gzipSync(readFileSync(outfile)).length;
const mib = (n) => `${(n / 2 ** 20).toFixed(2)} MiB`;
console.log(`browser bundle: ${outfile.slice(root.length)} ${mib(bytes)} (${bytes} bytes), ${mib(gzipped)} gzipped`);
