// The compact document key <-> label table (engine/vectors/key-table.ts) against a Map-and-array model
// of the same operations: ASCII, non-ASCII and long keys, deletes (tombstones, arena compaction), copies.
import { describe, expect, it } from 'vitest';
import { KeyTable } from '../../src/engine/vectors/key-table.js';

/** The semantics KeyTable replaces: a Map by key and an array by label (as labels.ts held them). */
class Model {
  readonly byKey = new Map<string, number>();
  readonly byLabel: (string | undefined)[] = [];
  set(label: number, key: string): void {
    const old = this.byLabel[label];
    if (old !== undefined && old !== key && this.byKey.get(old) === label) this.byKey.delete(old);
    this.byKey.set(key, label);
    this.byLabel[label] = key;
  }
  delete(label: number): void {
    const key = this.byLabel[label];
    if (key === undefined) return;
    this.byLabel[label] = undefined;
    if (this.byKey.get(key) === label) this.byKey.delete(key);
  }
}

function agree(table: KeyTable, model: Model, keys: readonly string[]): void {
  expect(table.size).toBe(model.byKey.size);
  for (const key of keys) expect(table.get(key)).toBe(model.byKey.get(key));
  for (let label = 0; label < model.byLabel.length + 3; label++) {
    expect(table.keyOf(label)).toBe(model.byLabel[label]);
    expect(table.holds(label)).toBe(model.byLabel[label] !== undefined);
  }
  const live = model.byLabel.flatMap((key, label) => (key === undefined ? [] : [label]));
  expect([...table.labels()]).toEqual(live);
}

let seed = 7;
const random = (n: number): number => ((seed = (seed * 16807) % 2147483647), seed % n);

describe('KeyTable', () => {
  it('answers as a Map and an array would, through sets, replacements and deletes', () => {
    const keys = [
      ...Array.from({ length: 300 }, (_, i) => `n${i}`),
      ...Array.from({ length: 100 }, (_, i) => `s${i.toString(36)}-éü-${i}`),
      ...Array.from({ length: 50 }, (_, i) => `s📦${i}🙂`),
      'z',
      'btrue',
      '',
      `s${'x'.repeat(5000)}`,
      `s${'ÿ'.repeat(3000)}`,
    ];
    const table = new KeyTable();
    const model = new Model();
    let next = 0;
    for (let step = 0; step < 6000; step++) {
      const op = random(10);
      if (op < 6) {
        // A document's vector, new or replaced: a new label (labels are never reused).
        const key = keys[random(keys.length)]!;
        const old = model.byKey.get(key);
        if (old !== undefined) {
          model.delete(old);
          table.delete(old);
        }
        model.set(next, key);
        table.set(next, key);
        next++;
      } else if (op < 9) {
        const label = random(next + 1);
        model.delete(label);
        table.delete(label);
      } else {
        // Registered again with the same key (an open reads the keys twice): nothing changes.
        const label = random(next + 1);
        const key = model.byLabel[label];
        if (key !== undefined) table.set(label, key);
      }
      if (step % 1000 === 999) agree(table, model, keys);
    }
    agree(table, model, keys);
  });

  it('grows its hash table a step per write: every key is found while the old table drains, in copies too', () => {
    const table = new KeyTable();
    const model = new Model();
    const keys: string[] = [];
    let clones = 0;
    for (let label = 0; label < 30_000; label++) {
      const bytes = table.bytes;
      if (label % 5 === 4) {
        // A replaced vector: its key moves to the new label (from the old table, if it is still there).
        const key = keys[random(keys.length)]!;
        const old = model.byKey.get(key)!;
        model.delete(old);
        table.delete(old);
        model.set(label, key);
        table.set(label, key);
      } else {
        const key = `n${label}-${random(1000)}`;
        keys.push(key);
        model.set(label, key);
        table.set(label, key);
      }
      if (label % 7 === 3) {
        const gone = random(label + 1);
        model.delete(gone);
        table.delete(gone);
      }
      // Keys written long ago (in the draining table) and lately (in the new one) are all found.
      for (let probe = 0; probe < 2; probe++) {
        const key = keys[random(keys.length)]!;
        expect(table.get(key)).toBe(model.byKey.get(key));
      }
      if (table.bytes - bytes >= 16_384 * 4) {
        // A growth of a table past DRAIN_STEP slots began: a copy taken now drains on its own.
        const copy = table.clone();
        const frozen = new Map(model.byKey);
        for (let more = 0; more < 50; more++) table.set(100_000 + label * 50 + more, `x${label}-${more}`);
        expect(copy.size).toBe(frozen.size);
        for (const [key, at] of frozen) expect(copy.get(key)).toBe(at);
        for (let more = 0; more < 50; more++) model.set(100_000 + label * 50 + more, `x${label}-${more}`);
        clones++;
      }
    }
    expect(clones).toBeGreaterThanOrEqual(2);
    expect(table.size).toBe(model.byKey.size);
    for (const key of model.byKey.keys()) expect(table.get(key)).toBe(model.byKey.get(key));
  });

  it('a key set for a second label maps to it; deleting the first keeps that', () => {
    const table = new KeyTable();
    table.set(0, 'nA');
    table.set(1, 'nA');
    expect([table.get('nA'), table.keyOf(0), table.keyOf(1)]).toEqual([1, 'nA', 'nA']);
    table.delete(0);
    expect([table.get('nA'), table.holds(0), table.size]).toEqual([1, false, 1]);
    table.delete(1);
    expect([table.get('nA'), table.size]).toEqual([undefined, 0]);
  });

  it('a copy keeps the moment it was taken; both go on independently', () => {
    const table = new KeyTable();
    for (let i = 0; i < 2000; i++) table.set(i, `s${i}-doc`);
    const copy = table.clone();
    for (let i = 0; i < 2000; i += 2) table.delete(i);
    table.set(2000, 's0-doc');
    copy.set(2001, 'snew');
    expect([copy.size, copy.get('s0-doc'), copy.get('s2-doc'), copy.get('snew'), copy.keyOf(4)]).toEqual([2001, 0, 2, 2001, 's4-doc']);
    expect([table.size, table.get('s0-doc'), table.get('s2-doc'), table.get('snew'), table.keyOf(4)]).toEqual([1001, 2000, undefined, undefined, undefined]);
    expect([...copy.values()].length).toBe(2001);
  });

  it('reclaims the bytes of deleted keys and stays within a few bytes per key beyond them', () => {
    const table = new KeyTable();
    const n = 50_000;
    for (let i = 0; i < n; i++) table.set(i, `s${String(i).padStart(36, '0')}`);
    const full = table.bytes;
    // 37 key bytes + 8 by label + the hash table's 4 per slot, with room to grow.
    expect(full).toBeLessThan(n * 80);
    for (let i = 0; i < n - 100; i++) table.delete(i);
    for (let i = n; i < n + 100; i++) table.set(i, `s${String(i).padStart(36, '0')}`);
    expect(table.size).toBe(200);
    // The arena was compacted (labels are never reused, so their places stay: 8 bytes each).
    expect(table.bytes).toBeLessThan(full - n * 20);
    expect(table.keyOf(n + 50)).toBe(`s${String(n + 50).padStart(36, '0')}`);
    expect(table.get(`s${String(n - 1).padStart(36, '0')}`)).toBe(n - 1);
  });
});
