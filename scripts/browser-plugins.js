/**
 * The esbuild plugins of the browser build (build-browser.js), also used by benches that bundle a part of
 * dist/ for a page (bench/browser-heaps.js): Node adapters swapped for their browser twins (a module X.js
 * with an X.browser.js beside it), and hnswlib-wasm's glue bundled already patched (wasm-glue.ts).
 */
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const GLUE = 'vectordb-local:hnswlib-glue';

/** The plugins for a bundle of modules under `dist` (tsc's output). */
export function browserPlugins(dist) {
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

  return [twins, glue];
}
