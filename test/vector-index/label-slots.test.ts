/**
 * LabelSlots, an HNSW index's slot by label: behaves as a Map<number, number> for dense labels (typed
 * array), for a label far past the others (moved into a Map), and across reserve, delete and clear.
 */
import { describe, expect, it } from 'vitest';
import { grownLength, LARGE_LENGTH } from '../../src/platform/typed-arrays.js';
import { LabelSlots, NO_SLOT } from '../../src/vector-index/label-slots.js';

/** Applies the same operations to LabelSlots and a Map and compares them after each. */
function checkAgainstMap(ops: readonly (['set', number, number] | ['delete', number])[], probe: readonly number[]): void {
  const slots = new LabelSlots();
  const map = new Map<number, number>();
  for (const op of ops) {
    if (op[0] === 'set') {
      slots.set(op[1], op[2]);
      map.set(op[1], op[2]);
    } else {
      expect(slots.delete(op[1])).toBe(map.delete(op[1]));
    }
    expect(slots.size).toBe(map.size);
  }
  for (const label of probe) {
    expect(slots.get(label)).toBe(map.get(label));
    expect(slots.has(label)).toBe(map.has(label));
  }
}

describe('LabelSlots', () => {
  it('matches a Map for dense labels: set, overwrite, delete, absent labels', () => {
    const ops: (['set', number, number] | ['delete', number])[] = [];
    for (let label = 0; label < 5000; label++) ops.push(['set', label, label * 2]);
    for (let label = 0; label < 5000; label += 3) ops.push(['delete', label]);
    ops.push(['set', 7, 99], ['delete', 7], ['delete', 7], ['set', 3, 0], ['delete', 123_456]);
    checkAgainstMap(ops, [0, 1, 2, 3, 6, 7, 4999, 5000, 10_000, 2 ** 32 - 1]);
  });

  it('matches a Map when a label far past the others comes (up to 2^32 - 1), before and after', () => {
    const ops: (['set', number, number] | ['delete', number])[] = [];
    for (let label = 0; label < 100; label++) ops.push(['set', label, label]);
    ops.push(['set', 2 ** 32 - 1, 100], ['set', 3_000_000_000, 101], ['delete', 5], ['set', 100, 102], ['delete', 2 ** 32 - 1]);
    checkAgainstMap(ops, [0, 5, 99, 100, 101, 3_000_000_000, 2 ** 32 - 1, 2 ** 32 - 2]);
  });

  it('a slot 0 is a slot (not absent)', () => {
    const slots = new LabelSlots();
    slots.set(10, 0);
    expect(slots.get(10)).toBe(0);
    expect(slots.has(10)).toBe(true);
    expect(slots.has(0)).toBe(false);
  });

  it('reserve keeps what it holds, and clear empties it', () => {
    const slots = new LabelSlots();
    slots.set(1, 5);
    slots.reserve(200_000, 100_000);
    expect(slots.get(1)).toBe(5);
    for (let label = 100_000; label < 200_000; label++) slots.set(label, label - 100_000);
    expect(slots.size).toBe(100_001);
    expect(slots.get(199_999)).toBe(99_999);
    slots.reserve(2 ** 32, 10); // not dense: ignored
    slots.set(2 ** 32 - 1, 7);
    expect(slots.get(2 ** 32 - 1)).toBe(7);
    expect(slots.get(150_000)).toBe(50_000);
    slots.clear();
    expect(slots.size).toBe(0);
    expect(slots.has(1)).toBe(false);
    slots.set(3, 1);
    expect(slots.get(3)).toBe(1);
  });

  it('a larger dense factor keeps the array dense over sparser labels; labels() ascends in both modes', () => {
    const wide = new LabelSlots(64);
    const narrow = new LabelSlots();
    // 3000 entries, one every 60 labels: past 4 x entries + 65536 labels, within 64 x.
    for (let i = 0; i < 3000; i++) {
      wide.set(i * 60, i);
      narrow.set(i * 60, i);
    }
    expect(wide.dense).toBeDefined();
    expect(wide.dense![120]).toBe(2);
    expect(wide.dense![121]).toBe(NO_SLOT);
    expect(narrow.dense).toBeUndefined(); // a Map now
    const want = Array.from({ length: 3000 }, (_, i) => i * 60);
    expect(wide.labels()).toEqual(want);
    narrow.set(7, 5000);
    expect(narrow.labels()).toEqual([0, 7, ...want.slice(1)]);
  });

  it('grows past LARGE_LENGTH by an eighth, keeping every slot and leaving the new room absent', () => {
    const slots = new LabelSlots();
    const top = 3 * LARGE_LENGTH;
    for (let label = 0; label < top; label += 3) slots.set(label, label + 1);
    const dense = slots.dense!;
    // At most an eighth of room past the highest label (the slack stays small), at least the label itself.
    expect(dense.length).toBeGreaterThan(top - 3);
    expect(dense.length).toBeLessThanOrEqual(Math.ceil((top - 2) * 1.125) + 1);
    let wrong = 0;
    for (let label = 0; label < dense.length; label++) if (dense[label] !== (label % 3 === 0 && label < top ? label + 1 : NO_SLOT)) wrong++;
    expect(wrong).toBe(0);
    expect(slots.size).toBe(top / 3);
  });
});

describe('grownLength', () => {
  it('by half below LARGE_LENGTH, by an eighth from it, never below what is needed', () => {
    for (const length of [0, 1, 1000, LARGE_LENGTH - 1, LARGE_LENGTH, 10 * LARGE_LENGTH + 7]) {
      const grown = grownLength(length, length + 1);
      const step = grown - length;
      if (length < LARGE_LENGTH) expect(step).toBe(Math.max(1, Math.ceil(length / 2)));
      else expect(step).toBe(Math.ceil(length / 8));
      expect(grownLength(length, length + 5 * step)).toBe(length + 5 * step);
    }
  });
});
