/**
 * Raw hnswlib-node's index file made from our graph file (native/src/graph_file.h, float32 rows): the same
 * graph, each element's data its vector (normalized, as hnswlib-node's cosine space stores it) beside its
 * links instead of a row id. Raw then searches the very graph ours searches (same links, same entry point):
 * a comparison of the two memory layouts without a raw build (at 1M, many minutes). Streamed in pieces.
 */
import { closeSync, existsSync, openSync, readSync, renameSync, writeSync } from 'node:fs';

const HEAD_BYTES = 32;
/** hnswlib's index header: six size_t, maxlevel_ and enterpoint_node_ (4 bytes each), three size_t, mult_, ef_construction_. */
const INDEX_HEAD_BYTES = 96;
const PIECE = 4096;

function readAt(fd, bytes, position) {
  const buf = Buffer.alloc(bytes);
  if (readSync(fd, buf, 0, bytes, position) !== bytes) throw new Error('the graph file is truncated');
  return buf;
}

/** Writes raw hnswlib-node's index of `graphFile`'s graph to `indexFile` (cosine: vectors normalized). */
export function rawIndexFromGraphFile(graphFile, indexFile) {
  const fd = openSync(graphFile, 'r');
  const out = openSync(indexFile, 'w');
  try {
    const head = readAt(fd, HEAD_BYTES, 0);
    if (head.toString('latin1', 0, 8) !== 'VDBROWS1' || head.readUInt32LE(8) !== 1) throw new Error('not a float32 graph file of ours');
    const dim = head.readUInt32LE(12);
    const count = Number(head.readBigUInt64LE(16));
    const graphBytes = Number(head.readBigUInt64LE(24));
    const index = readAt(fd, INDEX_HEAD_BYTES, HEAD_BYTES);
    const size = Number(index.readBigUInt64LE(24));
    const labelOffset = Number(index.readBigUInt64LE(32));
    const dataOffset = Number(index.readBigUInt64LE(40));
    const rawSize = dataOffset + 4 * dim + 8;
    const rawHead = Buffer.from(index);
    rawHead.writeBigUInt64LE(BigInt(count), 8); // max_elements_
    rawHead.writeBigUInt64LE(BigInt(rawSize), 24);
    rawHead.writeBigUInt64LE(BigInt(dataOffset + 4 * dim), 32);
    writeSync(out, rawHead);
    const level0At = HEAD_BYTES + INDEX_HEAD_BYTES;
    const rowsAt = HEAD_BYTES + graphBytes;
    for (let at = 0; at < count; at += PIECE) {
      const n = Math.min(PIECE, count - at);
      const elements = readAt(fd, n * size, level0At + at * size);
      const rows = readAt(fd, n * 4 * dim, rowsAt + at * 4 * dim);
      const raw = Buffer.alloc(n * rawSize);
      for (let i = 0; i < n; i++) {
        elements.copy(raw, i * rawSize, i * size, i * size + dataOffset);
        const v = new Float32Array(rows.buffer, rows.byteOffset + i * 4 * dim, dim);
        const into = new Float32Array(dim);
        // hnswlib-node's normalizePoint: a float sum of squares, each value divided by its root.
        let sq = 0;
        for (let d = 0; d < dim; d++) sq = Math.fround(sq + Math.fround(v[d] * v[d]));
        const norm = Math.fround(Math.sqrt(sq));
        for (let d = 0; d < dim; d++) into[d] = norm > 0 ? v[d] / norm : v[d];
        Buffer.from(into.buffer).copy(raw, i * rawSize + dataOffset);
        elements.copy(raw, i * rawSize + dataOffset + 4 * dim, i * size + labelOffset, i * size + labelOffset + 8);
      }
      writeSync(out, raw);
    }
    // The upper layers' link lists, as they are.
    const linksAt = level0At + count * size;
    const linkBytes = rowsAt - linksAt;
    for (let at = 0; at < linkBytes; at += 1 << 24) writeSync(out, readAt(fd, Math.min(1 << 24, linkBytes - at), linksAt + at));
  } finally {
    closeSync(fd);
    closeSync(out);
  }
}

/**
 * `indexFile` made from `graphFile` unless it is there from an earlier run (written aside and renamed, so that an
 * interrupted conversion is never read as one); returns its path.
 */
export function rawIndexOnce(graphFile, indexFile) {
  if (!existsSync(indexFile)) {
    rawIndexFromGraphFile(graphFile, `${indexFile}.tmp`);
    renameSync(`${indexFile}.tmp`, indexFile);
  }
  return indexFile;
}
