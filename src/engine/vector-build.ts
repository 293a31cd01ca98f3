/**
 * Builds a collection's pending vectors into a copy of its graph on a worker thread
 * (vector/graph-builder.ts) while the collection keeps searching its current graph (what that lacks is
 * scanned exactly). Vectors that arrive meanwhile are streamed to the worker too; once it has caught up
 * and nothing new came for a moment, the new graph comes back and is loaded here for the collection
 * to swap in. Only the serialized bytes cross threads; the event loop never runs hnswlib's inserts.
 */
import { GraphBuilder, loadVectorIndex, type CreateVectorIndexOptions, type VectorIndex } from '../vector/index.js';

export interface BuildSource {
  /** The graph searched meanwhile: the worker starts from a copy of it. */
  readonly graph: VectorIndex;
  /** Live labels not in the graph (it grows while the build runs). */
  readonly pending: ReadonlySet<number>;
  valuesOf(label: number): Float32Array | undefined;
  readonly options: CreateVectorIndexOptions;
  /** True once the collection closes or resets: the build is dropped. */
  stopped(): boolean;
}

/** Vectors sent to the worker per message. */
const SEND_BATCH = 2048;
/** The worker hands back its graph once caught up and nothing new came for this long (ms). */
const LINGER_MS = 100;
/** ...or once it holds this many vectors the collection's graph lacks (searches scan them meanwhile). */
const MAX_UNADOPTED = 200_000;

/** The graph with every pending vector sent, or undefined when dropped or when the worker failed. */
export async function buildOffThread(source: BuildSource): Promise<VectorIndex | undefined> {
  const base = source.graph.size > 0 ? await source.graph.serializeParts() : undefined;
  const capacity = source.graph.size + source.pending.size;
  const builder = GraphBuilder.start({ ...source.options, capacity: Math.max(1024, Math.ceil(capacity * 1.25)) }, base);
  if (builder === undefined) return undefined;
  const sent = new Set<number>();
  let lastSent = performance.now();
  try {
    for (;;) {
      if (source.stopped() || builder.failure) return undefined;
      const batch = unsent(source, sent);
      if (batch.length > 0) {
        sendBatch(source, builder, batch, sent);
        lastSent = performance.now();
        continue;
      }
      const caughtUp = builder.added === builder.sent;
      if (caughtUp && (performance.now() - lastSent >= LINGER_MS || builder.sent >= MAX_UNADOPTED)) break;
      await Promise.race([builder.nextReply(), delay(caughtUp ? LINGER_MS / 4 : 50)]);
    }
    const parts = await builder.finish();
    if (source.stopped()) return undefined;
    return await loadVectorIndex(parts, source.options);
  } catch {
    return undefined; // the collection builds on its own thread instead
  } finally {
    await builder.terminate();
  }
}

/** Up to SEND_BATCH pending labels the worker has not been sent. */
function unsent(source: BuildSource, sent: Set<number>): number[] {
  const out: number[] = [];
  for (const label of source.pending) {
    if (sent.has(label)) continue;
    out.push(label);
    if (out.length === SEND_BATCH) break;
  }
  return out;
}

function sendBatch(source: BuildSource, builder: GraphBuilder, batch: number[], sent: Set<number>): void {
  const dimension = source.graph.dimension;
  const labels = new Uint32Array(batch.length);
  const vectors = new Float32Array(batch.length * dimension);
  batch.forEach((label, i) => {
    labels[i] = label;
    vectors.set(source.valuesOf(label)!, i * dimension);
  });
  builder.add(labels, vectors);
  for (const label of batch) sent.add(label);
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
