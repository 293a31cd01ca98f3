/**
 * Builds the Data Explorer page that `serve` answers at `/`: bundles src/explorer/main.ts with esbuild (no
 * run-time download, no CDN) and inlines it into src/explorer/page.html, written as dist/explorer/index.html.
 * One self-contained file: the server reads it once and serves it as it is.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';

const root = fileURLToPath(new URL('..', import.meta.url));
const source = join(root, 'src', 'explorer');
const outfile = join(root, 'dist', 'explorer', 'index.html');

const result = await esbuild.build({
  entryPoints: [join(source, 'main.ts')],
  bundle: true,
  write: false,
  format: 'esm',
  platform: 'browser',
  target: 'es2022',
  minify: true,
  logLevel: 'warning',
});
const script = result.outputFiles[0].text.replaceAll('</script', '<\\/script');
const page = readFileSync(join(source, 'page.html'), 'utf8');
if (!page.includes('/*EXPLORER*/')) throw new Error('src/explorer/page.html lost its /*EXPLORER*/ placeholder');
mkdirSync(join(root, 'dist', 'explorer'), { recursive: true });
writeFileSync(outfile, page.replace('/*EXPLORER*/', () => script));
console.log(`data explorer: dist/explorer/index.html ${(Buffer.byteLength(readFileSync(outfile)) / 1024).toFixed(0)} KiB`);
