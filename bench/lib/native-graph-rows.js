/**
 * The native addon's row store filled for a graph bench (graph-search-bench, graph-insert-bench): the
 * addon from a build, a cosine row store holding `vectors` (n x dim), as int8 codes of a scale spanning
 * them when `int8`, and the rows' ids.
 */
export async function nativeGraphRows(dist, vectors, dim, int8) {
  const { loadNativeAddon } = await import(new URL('vector-index/native-addon.js', dist));
  const { NativeRowStore } = await import(new URL('vector-index/native-rows.js', dist));
  const addon = loadNativeAddon();
  if (addon === null) throw new Error('the native addon does not load: build it (npm run build:native)');
  const rows = new NativeRowStore(addon, dim, 'cosine').rows;
  if (int8) {
    const lo = new Float32Array(dim).fill(Infinity);
    const hi = new Float32Array(dim).fill(-Infinity);
    for (let i = 0; i < vectors.length; i++) {
      lo[i % dim] = Math.min(lo[i % dim], vectors[i]);
      hi[i % dim] = Math.max(hi[i % dim], vectors[i]);
    }
    rows.quantize(lo, hi.map((h, d) => (h - lo[d]) / 255));
  }
  const n = vectors.length / dim;
  const ids = new Uint32Array(n);
  rows.writeMany(vectors, n, ids);
  return { addon, rows, ids };
}
