/**
 * The compaction policy and the event-loop rebuild (src/engine/vectors/compaction.ts): when a graph is due,
 * and that the rebuild takes the labels still live when their turn comes, and stops when told.
 */
import { describe, expect, it } from 'vitest';
import { compactionDue, COMPACT_MIN_DEAD, emptyGraphLike, liveLabels, rebuildOnEventLoop } from '../../src/engine/vectors/compaction.js';
import { createVectorIndex } from '../../src/vector-index/index.js';
import { clustered } from '../vector-index/data.js';

describe('graph compaction', () => {
  it('is due once the dead reach the live and the floor', () => {
    expect(compactionDue(10, COMPACT_MIN_DEAD - 1)).toBe(false);
    expect(compactionDue(10, COMPACT_MIN_DEAD)).toBe(true);
    expect(compactionDue(50_000, 49_999)).toBe(false);
    expect(compactionDue(50_000, 50_000)).toBe(true);
  });

  it('rebuilds the live labels into an empty graph like the old one, skipping those deleted meanwhile', async () => {
    const dim = 8;
    const data = clustered(3, 300, dim, 4);
    const old = await createVectorIndex({ dimension: dim, metric: 'cosine', backend: 'wasm', params: { M: 8, efConstruction: 50, efSearch: 40 } });
    const fresh = await emptyGraphLike(old, 'test', 64);
    expect([fresh.backend, fresh.params]).toEqual([old.backend, old.params]);
    const live = new Set(Array.from({ length: 300 }, (_, i) => i * 3));
    const labels = [...live];
    let copies = 0;
    const done = await rebuildOnEventLoop({
      target: fresh,
      labels,
      isLive: (label) => live.has(label),
      copyValues: (label, target, offset) => {
        copies++;
        if (copies === 1) for (let l = 750; l < 900; l += 3) live.delete(l); // deleted while the rebuild runs (the first step takes 8)
        target.set(data.subarray((label / 3) * dim, (label / 3 + 1) * dim), offset);
      },
      stopped: () => false,
    });
    expect(done).toBe(true);
    expect(fresh.size).toBe(live.size);
    for (const label of labels) expect(fresh.has(label)).toBe(live.has(label));
    expect(fresh.deletedCount).toBe(0);
    const view = liveLabels({ size: live.size, labels: () => live.values() }, (l) => live.has(l));
    expect([view.size, view.has(3), view.has(750), [...view].length]).toEqual([live.size, true, false, live.size]);
    const stopped = await rebuildOnEventLoop({ target: await emptyGraphLike(old, 'test', 64), labels, isLive: () => true, copyValues: () => undefined, stopped: () => true });
    expect(stopped).toBe(false);
    old.dispose();
    fresh.dispose();
  });
});
