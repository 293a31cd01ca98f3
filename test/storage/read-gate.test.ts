/**
 * ReadGate, the snapshot of a store without snapshots (browser-level): writes wait while a hold is
 * open and go on once the last one is released; releasing twice does not release another's hold.
 */
import { describe, expect, it } from 'vitest';
import { ReadGate } from '../../src/storage/read-gate.js';

const settled = async (promise: Promise<unknown>): Promise<boolean> => {
  let done = false;
  void promise.then(() => (done = true));
  for (let i = 0; i < 5; i++) await new Promise((resolve) => setImmediate(resolve));
  return done;
};

describe('ReadGate', () => {
  it('lets writes through when nothing holds it', async () => {
    expect(await settled(new ReadGate().writable())).toBe(true);
  });

  it('holds writes until every hold is released, once each', async () => {
    const gate = new ReadGate();
    const first = gate.hold();
    const second = gate.hold();
    const write = gate.writable();
    first();
    first();
    expect(await settled(write)).toBe(false);
    second();
    expect(await settled(write)).toBe(true);
  });

  it('a write waiting through one hold also waits for a hold taken before it could run', async () => {
    const gate = new ReadGate();
    const release = gate.hold();
    const write = gate.writable();
    release();
    const again = gate.hold();
    expect(await settled(write)).toBe(false);
    again();
    expect(await settled(write)).toBe(true);
  });
});
