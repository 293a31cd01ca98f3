/**
 * Plain-JS exact search for the benchmark: the "brute force" system and the ground truth. Vectors are
 * unit length, so cosine similarity is the dot product. Deliberately independent of src/ (a reference
 * must not share code with what it checks).
 */

/** Dot product of the query with row `off` of `data`, unrolled by 4. */
function dotAt(q, data, off, dim) {
  let s0 = 0;
  let s1 = 0;
  let s2 = 0;
  let s3 = 0;
  let i = 0;
  for (; i + 3 < dim; i += 4) {
    s0 += q[i] * data[off + i];
    s1 += q[i + 1] * data[off + i + 1];
    s2 += q[i + 2] * data[off + i + 2];
    s3 += q[i + 3] * data[off + i + 3];
  }
  for (; i < dim; i++) s0 += q[i] * data[off + i];
  return s0 + s1 + s2 + s3;
}

/**
 * Top k rows by dot product, best first (ties: smaller row). `rows` (optional) restricts the scan to
 * those rows (a Uint32Array of row numbers), else all `n` rows.
 */
export function exactTopK(q, data, dim, n, k, rows) {
  const count = rows ? rows.length : n;
  const kk = Math.min(k, count);
  const ids = new Int32Array(kk).fill(-1);
  const scores = new Float64Array(kk).fill(-Infinity);
  let worst = -Infinity;
  for (let j = 0; j < count; j++) {
    const r = rows ? rows[j] : j;
    const s = dotAt(q, data, r * dim, dim);
    if (s < worst || (s === worst && (ids[kk - 1] < r))) continue;
    // insertion into the sorted (descending) top list
    let p = kk - 1;
    while (p > 0 && (scores[p - 1] < s || (scores[p - 1] === s && ids[p - 1] > r))) {
      scores[p] = scores[p - 1];
      ids[p] = ids[p - 1];
      p--;
    }
    scores[p] = s;
    ids[p] = r;
    worst = scores[kk - 1];
  }
  return Array.from(ids).filter((x) => x >= 0);
}

/** recall@k of `found` (labels) against `truth` (labels, the exact top k). */
export function recallOf(found, truth) {
  if (truth.length === 0) return 1;
  const t = new Set(truth);
  let hit = 0;
  for (const x of found) if (t.has(x)) hit++;
  return hit / truth.length;
}
