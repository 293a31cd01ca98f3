/**
 * Builds an HNSW graph on a worker thread (node:worker_threads), so that a bulk load's graph grows on
 * another core while the event loop stays free. The worker holds its own VectorIndex: it starts from
 * the serialized graph it is given (or empty), adds what it is sent, and hands the whole graph back:
 * written to a file by hnswlib (native: never JS bytes on either thread), else as bytes. The browser
 * twin (graph-builder.browser.ts) has none: the engine then builds on its own thread.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { BuilderReply, BuilderRequest, BuilderSetup } from './graph-builder-protocol.js';
import type { CreateVectorIndexOptions } from './index-backend.js';

// Named from dist/'s folders, not from this file: the package's Node entry bundles this module into
// dist/node/ (scripts/build-node.js), one folder below dist/ like dist/vector-index/, so both find the same file.
const workerFile = fileURLToPath(new URL('../vector-index/graph-builder-worker.js', import.meta.url));

/** Whether graphs can be built off the main thread here (not when running from TypeScript sources). */
export function graphBuilderAvailable(): boolean {
  return existsSync(workerFile);
}

/** A finished graph: serializeParts' pieces, or serializeToFile's head and the file it wrote. */
export type BuiltGraph = { readonly parts: Uint8Array[] } | { readonly head: Uint8Array; readonly file: string };

/** How long terminate waits for the worker to stop between two vectors before ending it by force. */
const STOP_WAIT_MS = 10_000;

export class GraphBuilder {
  readonly #worker: Worker;
  /** The stop flag shared with the worker (BuilderSetup.stop). */
  readonly #stop = new Int32Array(new SharedArrayBuffer(4));
  #sent = 0;
  #added = 0;
  #failure: Error | undefined;
  #exited = false;
  #waiters: (() => void)[] = [];
  #done: ((graph: BuiltGraph) => void) | undefined;

  private constructor(setup: BuilderSetup) {
    const transfer = [...(setup.base ?? []), ...(setup.baseFile ? [setup.baseFile.head] : [])].map((piece) => piece.buffer as ArrayBuffer);
    this.#worker = new Worker(workerFile, { workerData: { ...setup, stop: this.#stop }, transferList: transfer });
    this.#worker.on('message', (reply: BuilderReply) => {
      if (reply.type === 'added') this.#added += reply.count;
      else if (reply.type === 'error') this.#fail(new Error(reply.message));
      else if (reply.type === 'done') this.#done?.({ parts: reply.parts });
      else this.#done?.({ head: reply.head, file: reply.file });
      this.#wake();
    });
    this.#worker.on('error', (error) => this.#fail(error));
    this.#worker.on('exit', () => {
      this.#exited = true;
      this.#fail(new Error('the graph builder thread exited'));
    });
  }

  /**
   * Starts a worker over `base` (a serialized graph whose pieces are moved to it, or none for an empty
   * graph). Undefined when workers are not available here.
   */
  static start(options: CreateVectorIndexOptions, base?: BuiltGraph, file?: string): GraphBuilder | undefined {
    if (!graphBuilderAvailable()) return undefined;
    // Pieces that share a buffer with other data cannot be moved: copy those.
    const own = base && 'parts' in base ? base.parts.map((piece) => (piece.byteOffset === 0 && piece.byteLength === piece.buffer.byteLength ? piece : piece.slice())) : undefined;
    const baseFile = base && 'file' in base ? { head: base.head.slice(), file: base.file } : undefined;
    return new GraphBuilder({ options, ...(own === undefined ? {} : { base: own }), ...(baseFile === undefined ? {} : { baseFile }), ...(file === undefined ? {} : { file }) });
  }

  /** Vectors sent so far, and those the worker's graph holds. */
  get sent(): number {
    return this.#sent;
  }

  get added(): number {
    return this.#added;
  }

  get failure(): Error | undefined {
    return this.#failure;
  }

  /** Sends vectors to add (labels.length rows of `vectors`, which are moved: do not use them after). */
  add(labels: Uint32Array, vectors: Float32Array): void {
    if (this.#failure) return;
    this.#sent += labels.length;
    this.#post({ type: 'add', labels, vectors }, [labels.buffer as ArrayBuffer, vectors.buffer as ArrayBuffer]);
  }

  /** Resolves at the worker's next reply (progress, failure or the end). */
  nextReply(): Promise<void> {
    return new Promise((resolve) => this.#waiters.push(resolve));
  }

  /** The graph with everything sent (in the file it was started with, or as bytes); the worker then exits. */
  async finish(): Promise<BuiltGraph> {
    if (this.#failure) throw this.#failure;
    const parts = new Promise<BuiltGraph>((resolve) => (this.#done = resolve));
    this.#post({ type: 'finish' });
    await Promise.race([parts, this.#failed()]);
    return parts;
  }

  /**
   * Stops the worker, its graph discarded. It is asked to end itself between two vectors: a thread ended
   * by Worker.terminate inside hnswlib's addPoint aborts the process (the addon's napi_throw fails).
   * Only one that does not stop within STOP_WAIT_MS is ended by force.
   */
  async terminate(): Promise<void> {
    if (this.#exited) return;
    const exited = new Promise<void>((resolve) => this.#worker.once('exit', () => resolve()));
    Atomics.store(this.#stop, 0, 1);
    this.#post({ type: 'stop' });
    const force = setTimeout(() => void this.#worker.terminate(), STOP_WAIT_MS);
    try {
      await exited;
    } finally {
      clearTimeout(force);
    }
  }

  #post(request: BuilderRequest, transfer: ArrayBuffer[] = []): void {
    this.#worker.postMessage(request, transfer);
  }

  async #failed(): Promise<never> {
    while (!this.#failure) await this.nextReply();
    throw this.#failure;
  }

  #fail(error: Error): void {
    this.#failure ??= error;
    this.#wake();
  }

  #wake(): void {
    const waiters = this.#waiters;
    this.#waiters = [];
    for (const wake of waiters) wake();
  }
}
