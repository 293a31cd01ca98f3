/** The benches' one median (test/bench/peers-report.test.ts checks it through bench/peers/report.js). */

/** The median (mean of the two middle values for an even count), over the finite values; NaN for none. */
export function median(values) {
  const sorted = values.filter((v) => Number.isFinite(v)).sort((a, b) => a - b);
  if (sorted.length === 0) return Number.NaN;
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}
