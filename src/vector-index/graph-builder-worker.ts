/**
 * The graph builder's thread (started by graph-builder.ts): loads or creates a VectorIndex, adds the
 * vectors it is sent in order, and on 'finish' writes the graph to the file it was given (native), or
 * replies with the serialized graph (its buffers moved, not copied), and exits; asked to stop, it exits
 * between two vectors. Any failure is replied as an error; the engine then builds on its own thread.
 */
import { parentPort, workerData } from 'node:worker_threads';
import type { BuilderReply, BuilderRequest, BuilderSetup } from './graph-builder-protocol.js';
import { createVectorIndex, loadVectorIndex, loadVectorIndexFile, type VectorIndex } from './index-backend.js';

const port = parentPort!;
const setup = workerData as BuilderSetup;
const reply = (message: BuilderReply, transfer: ArrayBuffer[] = []): void => port.postMessage(message, transfer);

function start(): Promise<VectorIndex> {
  if (setup.baseFile !== undefined) return loadVectorIndexFile(setup.baseFile.head, setup.baseFile.file, setup.options);
  return setup.base === undefined ? createVectorIndex(setup.options) : loadVectorIndex(setup.base, setup.options);
}
const ready = start();
// Requests run one after another, each once the graph is there.
let queue: Promise<unknown> = ready;

/**
 * Vectors added between two looks at the stop flag. The thread must never be ended inside hnswlib's
 * addPoint (Worker.terminate there aborts the whole process: the addon's exception cannot be thrown), so
 * the engine asks it to stop and it ends itself between vectors; this bounds the wait (~10 ms at 384
 * dimensions).
 */
const STOP_CHECK = 32;

const stopRequested = (): boolean => setup.stop !== undefined && Atomics.load(setup.stop, 0) !== 0;

async function handle(request: BuilderRequest): Promise<void> {
  const index = await ready;
  if (request.type === 'stop' || stopRequested()) {
    port.close(); // nothing else keeps the thread: it exits
    return;
  }
  if (request.type === 'add') {
    const { labels, vectors } = request;
    const dim = index.dimension;
    for (let from = 0; from < labels.length; from += STOP_CHECK) {
      if (stopRequested()) {
        port.close();
        return;
      }
      const to = Math.min(labels.length, from + STOP_CHECK);
      index.add(labels.subarray(from, to), vectors.subarray(from * dim, to * dim));
    }
    reply({ type: 'added', count: labels.length });
    return;
  }
  if (setup.file !== undefined && index.savesToFile) {
    // hnswlib writes the file itself: the graph never becomes JS bytes on either thread.
    const head = await index.serializeToFile(setup.file);
    index.dispose();
    reply({ type: 'done-file', head, file: setup.file }, [head.buffer as ArrayBuffer]);
  } else {
    const parts = await index.serializeParts();
    index.dispose();
    const owned = parts.map((piece) => (piece.byteOffset === 0 && piece.byteLength === piece.buffer.byteLength ? piece : piece.slice()));
    reply({ type: 'done', parts: owned }, owned.map((piece) => piece.buffer as ArrayBuffer));
  }
  port.close();
}

port.on('message', (request: BuilderRequest) => {
  queue = queue.then(() => handle(request)).catch((error: unknown) => {
    reply({ type: 'error', message: error instanceof Error ? error.message : String(error) });
    port.close();
  });
});
