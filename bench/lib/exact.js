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

/**
 * Exact top k of many queries (`count` rows of `queries`) over `n` rows that arrive one at a time
 * (`nextRow()` returns the next, e.g. vector-data.js's sampleStream: nothing n-sized is held), for several
 * lists at once: list l keeps, for query q, the best rows i whose `lists[l].rowKey(i)` equals
 * `lists[l].queryKey(q)` (a category filter; `{ rowKey: () => 0, queryKey: () => 0 }` is unfiltered). Every
 * row's score against every query is computed once, 4 queries a pass over the row. Returns `[l][q]`: the
 * rows, best first (ties: smaller row), as exactTopK.
 */
export function streamedTopK(queries, count, dim, n, nextRow, k, lists) {
  const scores = new Float64Array(count);
  const tops = lists.map(({ queryKey }) => {
    const byKey = new Map();
    for (let q = 0; q < count; q++) {
      const key = queryKey(q);
      if (!byKey.has(key)) byKey.set(key, []);
      byKey.get(key).push(q);
    }
    for (const [key, qs] of byKey) byKey.set(key, Int32Array.from(qs));
    return { byKey, ids: new Int32Array(count * k).fill(-1), best: new Float64Array(count * k).fill(-Infinity), worst: new Float64Array(count).fill(-Infinity) };
  });
  for (let i = 0; i < n; i++) {
    const row = nextRow();
    let q = 0;
    for (; q + 3 < count; q += 4) {
      const o0 = q * dim;
      const o1 = o0 + dim;
      const o2 = o1 + dim;
      const o3 = o2 + dim;
      let s0 = 0;
      let s1 = 0;
      let s2 = 0;
      let s3 = 0;
      for (let j = 0; j < dim; j++) {
        const x = row[j];
        s0 += x * queries[o0 + j];
        s1 += x * queries[o1 + j];
        s2 += x * queries[o2 + j];
        s3 += x * queries[o3 + j];
      }
      scores[q] = s0;
      scores[q + 1] = s1;
      scores[q + 2] = s2;
      scores[q + 3] = s3;
    }
    for (; q < count; q++) scores[q] = dotAt(row, queries, q * dim, dim);
    for (let l = 0; l < lists.length; l++) {
      const top = tops[l];
      const qs = top.byKey.get(lists[l].rowKey(i));
      if (qs === undefined) continue;
      for (const qq of qs) {
        const s = scores[qq];
        if (s <= top.worst[qq]) continue; // strictly better only: an earlier (smaller) row keeps a tie
        const base = qq * k;
        let p = k - 1;
        while (p > 0 && top.best[base + p - 1] < s) {
          top.best[base + p] = top.best[base + p - 1];
          top.ids[base + p] = top.ids[base + p - 1];
          p--;
        }
        top.best[base + p] = s;
        top.ids[base + p] = i;
        top.worst[qq] = top.best[base + k - 1];
      }
    }
  }
  return tops.map((top) => Array.from({ length: count }, (_, q) => Array.from(top.ids.subarray(q * k, (q + 1) * k)).filter((x) => x >= 0)));
}
