/**
 * Builds a collection's pending vectors into a copy of its graph on a worker thread
 * (vector-index/graph-builder.ts) while the collection keeps searching its current graph (what that lacks is
 * scanned exactly). Vectors that arrive meanwhile are streamed to the worker too; once it has caught up
 * and nothing new came for a moment, the new graph comes back and is loaded here for the collection
 * to swap in: as a file hnswlib writes and reads itself where the backend does (native, with a data
 * directory), else as serialized bytes. The event loop never runs hnswlib's inserts.
 */
import { removeFile } from '../../storage/index.js';
import { GraphBuilder, loadVectorIndex, loadVectorIndexFile, type BuiltGraph, type CreateVectorIndexOptions, type VectorIndex } from '../../vector-index/index.js';

export interface BuildSource {
  /** The graph searched meanwhile: the worker starts from a copy of it. */
  readonly graph: VectorIndex;
  /** Live labels not in the graph (it grows while the build runs); for a compaction, every live label. */
  readonly pending: { readonly size: number; has(label: number): boolean; [Symbol.iterator](): Iterator<number> };
  /** Labels made pending since the last call (the first call: since the build started). */
  drainArrivals(): readonly number[];
  /** Copies a pending label's values into `target` at `offset`. */
  copyValues(label: number, target: Float32Array, offset: number): void;
  readonly options: CreateVectorIndexOptions;
  /** True once the collection closes or resets: the build is dropped. */
  stopped(): boolean;
  /**
   * True once enough of the vectors sent were deleted since (churn) that the graph should come back now
   * (with what was sent), to be compacted (vectors/compaction.ts) instead of growing its dead further.
   */
  enough?(): boolean;
  /**
   * Where the worker writes the finished graph when its backend writes files (native): hnswlib reads
   * it back on a libuv thread, so the graph never becomes JS bytes. Without it, bytes cross threads.
   */
  readonly file?: string;
}

/** The graph built, and the file it was read from (its head beside it) when the worker wrote one. */
export interface BuildResult {
  readonly graph: VectorIndex;
  readonly file?: { readonly path: string; readonly head: Uint8Array };
}

/** Vectors sent to the worker per message. */
const SEND_BATCH = 2048;
/** The worker hands back its graph once caught up and nothing new came for this long (ms). */
const LINGER_MS = 100;
/** ...or once it holds this many vectors the collection's graph lacks (searches scan them meanwhile). */
const MAX_UNADOPTED = 200_000;

/**
 * The graph with every pending vector sent, or undefined when dropped or when the worker failed (then
 * no file is left behind).
 */
export async function buildOffThread(source: BuildSource): Promise<BuildResult | undefined> {
  // The graph to start from goes to the worker as a file beside the result's when hnswlib writes files.
  const baseFile = source.file !== undefined && source.graph.size > 0 && source.graph.savesToFile ? `${source.file}.base` : undefined;
  try {
    const result = await build(source, baseFile);
    if (source.file !== undefined && result?.file === undefined) await removeFile(source.file).catch(() => undefined);
    return result;
  } finally {
    if (baseFile !== undefined) await removeFile(baseFile).catch(() => undefined);
  }
}

async function build(source: BuildSource, baseFile: string | undefined): Promise<BuildResult | undefined> {
  // Labels to send, in arrival order: a queue, so each batch costs its own size (not a walk of `pending`).
  const queue = new SendQueue(source);
  let base: BuiltGraph | undefined;
  if (baseFile !== undefined) base = { head: await source.graph.serializeToFile(baseFile), file: baseFile };
  else if (source.graph.size > 0) base = { parts: await source.graph.serializeParts() };
  const capacity = source.graph.size + source.pending.size;
  const builder = GraphBuilder.start({ ...source.options, capacity: Math.max(1024, Math.ceil(capacity * 1.25)) }, base, source.file);
  if (builder === undefined) return undefined;
  let lastSent = performance.now();
  try {
    for (;;) {
      if (source.stopped() || builder.failure) return undefined;
      const batch = queue.next(SEND_BATCH);
      if (batch.length > 0) {
        sendBatch(source, builder, batch);
        lastSent = performance.now();
        continue;
      }
      const caughtUp = builder.added === builder.sent;
      if (caughtUp && (performance.now() - lastSent >= LINGER_MS || builder.sent >= MAX_UNADOPTED)) break;
      if (source.enough?.() === true) break; // the worker adds what it was sent, then hands its graph back
      await Promise.race([builder.nextReply(), delay(caughtUp ? LINGER_MS / 4 : 50)]);
    }
    const built = await builder.finish();
    if (source.stopped()) return undefined;
    if ('parts' in built) return { graph: await loadVectorIndex(built.parts, source.options) };
    return { graph: await loadVectorIndexFile(built.head, built.file, source.options), file: { path: built.file, head: built.head } };
  } catch {
    return undefined; // the collection builds on its own thread instead
  } finally {
    await builder.terminate();
  }
}

/** The pending labels not yet sent, in arrival order: those pending at the start, then each arrival. */
class SendQueue {
  readonly #source: BuildSource;
  #labels: number[];
  #head = 0;

  constructor(source: BuildSource) {
    this.#source = source;
    this.#labels = [...source.pending];
    source.drainArrivals(); // already in the set just copied
  }

  /** Up to `max` labels, each still pending (deleted ones are skipped: their values are gone). */
  next(max: number): number[] {
    for (const label of this.#source.drainArrivals()) this.#labels.push(label);
    const out: number[] = [];
    const pending = this.#source.pending;
    while (out.length < max && this.#head < this.#labels.length) {
      const label = this.#labels[this.#head++]!;
      if (pending.has(label)) out.push(label);
    }
    if (this.#head > 65_536 && this.#head * 2 > this.#labels.length) {
      this.#labels = this.#labels.slice(this.#head);
      this.#head = 0;
    }
    return out;
  }
}

function sendBatch(source: BuildSource, builder: GraphBuilder, batch: number[]): void {
  const dimension = source.graph.dimension;
  const labels = new Uint32Array(batch.length);
  const vectors = new Float32Array(batch.length * dimension);
  batch.forEach((label, i) => {
    labels[i] = label;
    source.copyValues(label, vectors, i * dimension);
  });
  builder.add(labels, vectors);
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
