import { describe, expect, it } from 'vitest';
import { createVectorIndex, loadVectorIndex } from '../../src/vector/index.js';

describe('smoke', () => {
  it('wasm basic', async () => {
    const idx = await createVectorIndex({ dimension: 4, metric: 'cosine', backend: 'wasm', capacity: 16 });
    idx.add([1, 2, 3], new Float32Array([1, 0, 0, 0, 0, 1, 0, 0, 0.9, 0.1, 0, 0]));
    console.log(idx.search(new Float32Array([1, 0, 0, 0]), 2));
    const bytes = await idx.serialize();
    console.log(bytes.length);
    const idx2 = await loadVectorIndex(bytes, { dimension: 4, metric: 'cosine' });
    console.log(idx2.backend, idx2.size, idx2.search(new Float32Array([1, 0, 0, 0]), 2));
    for (let i = 0; i < 40; i++) idx2.add([100 + i], new Float32Array([i, 1, 2, 3]));
    console.log(idx2.size, idx2.capacity);
    const n = await createVectorIndex({ dimension: 4, metric: 'cosine', backend: 'native', capacity: 16 });
    n.add([1, 2, 3], new Float32Array([1, 0, 0, 0, 0, 1, 0, 0, 0.9, 0.1, 0, 0]));
    console.log(n.search(new Float32Array([1, 0, 0, 0]), 2));
    const nb = await n.serialize();
    const n2 = await loadVectorIndex(nb, { dimension: 4, metric: 'cosine' });
    console.log(n2.backend, n2.search(new Float32Array([1, 0, 0, 0]), 2));
    await expect(loadVectorIndex(nb, { dimension: 4, metric: 'cosine', backend: 'wasm' })).rejects.toThrow(/native/);
  });
});
