/**
 * Stopping the graph builder (a collection closed or dropped during a worker build) while its thread is inside
 * hnswlib's addPoint: the thread is asked to end itself between two vectors. Ended by force there it aborted
 * the whole process (2 of 8 tries before), so the child must exit cleanly every time.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { buildPackage, lastJsonLine, runFixture } from '../durability/built-package.js';
import { nativeLoads } from '../support/native.js';

describe.skipIf(!nativeLoads)('graph builder stop', () => {
  beforeAll(async () => {
    await buildPackage();
  }, 120_000);

  it('stops a worker in the middle of its adds without taking the process down', async () => {
    const delays = ['5', '20', '40', '60', '80', '100', '130', '160', '200', '250', '300', '10', '30', '50', '70', '90', '110', '150', '180', '220'];
    const result = await runFixture('graph-builder-stop.mjs', delays, 60_000);
    expect(result.hung).toBe(false);
    expect(result.stderr).not.toContain('FATAL');
    expect(result.signal).toBeNull();
    expect(result.code).toBe(0);
    expect(lastJsonLine(result.stdout)).toEqual({ done: true });
  }, 90_000);
});
