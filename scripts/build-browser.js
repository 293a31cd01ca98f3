/**
 * Builds the browser entry (the `browser` export condition): bundles dist/browser.js, which tsc wrote,
 * with esbuild into one ES module, dist/browser/vectordb-local.js, and prints its size. Run after tsc.
 * Node adapters are swapped for their browser twins here (the one seam: a module X.js with an
 * X.browser.js beside it), hnswlib-wasm's glue is bundled already patched, Buffer comes from the
 * `buffer` package, and any Node built-in left in the graph fails the build.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import * as esbuild from 'esbuild';

const root = fileURLToPath(new URL('..', import.meta.url));
const dist = join(root, 'dist');
const outfile = join(dist, 'browser', 'vectordb-local.js');
const GLUE = 'vectordb-local:hnswlib-glue';

/** X.js -> X.browser.js when the twin exists (only for our own modules in dist/). */
const twins = {
  name: 'browser-twins',
  setup(build) {
    build.onResolve({ filter: /^\.\.?\// }, (args) => {
      if (!args.importer.startsWith(dist)) return undefined;
      const target = resolve(args.resolveDir, args.path);
      const twin = target.replace(/\.js$/, '.browser.js');
      return twin !== target && existsSync(twin) ? { path: twin } : undefined;
    });
  },
};

/** The virtual module wasm-loader.browser.js imports: hnswlib-wasm's glue chunk, patched as in Node. */
const glue = {
  name: 'hnswlib-glue',
  setup(build) {
    build.onResolve({ filter: new RegExp(`^${GLUE}$`) }, () => ({ path: GLUE, namespace: 'glue' }));
    build.onLoad({ filter: /.*/, namespace: 'glue' }, async () => {
      const { glueChunkName, patchGlue } = await import(join(dist, 'vector-index', 'wasm-glue.js'));
      const require = createRequire(join(root, 'package.json'));
      const entry = require.resolve('hnswlib-wasm/dist/hnswlib.js');
      const chunk = glueChunkName(readFileSync(entry, 'utf8'));
      if (chunk === undefined) throw new Error(`no factory chunk referenced from ${entry}`);
      const { version } = JSON.parse(readFileSync(join(dirname(entry), '..', 'package.json'), 'utf8'));
      const { source, applied } = patchGlue(readFileSync(join(dirname(entry), chunk), 'utf8'));
      const contents = `${source}\nexport const version = ${JSON.stringify(version)};\nexport const applied = ${JSON.stringify(applied)};\n`;
      return { contents, loader: 'js', resolveDir: dirname(entry) };
    });
  },
};

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
  plugins: [twins, glue],
  metafile: true,
  logLevel: 'warning',
});

const nodeInputs = Object.keys(result.metafile.inputs).filter((input) => input.startsWith('node:'));
if (nodeInputs.length > 0) throw new Error(`the browser bundle reaches Node built-ins: ${nodeInputs.join(', ')}`);

const bytes = statSync(outfile).size;
const gzipped = gzipSync(readFileSync(outfile)).length;
const mib = (n) => `${(n / 2 ** 20).toFixed(2)} MiB`;
console.log(`browser bundle: ${outfile.slice(root.length)} ${mib(bytes)} (${bytes} bytes), ${mib(gzipped)} gzipped`);
