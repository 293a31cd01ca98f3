/**
 * Reading a collection's graph file while its database opens. A reopened process cannot start hnswlib's
 * read of the graph before LevelDB is open, the catalog read and the snapshot's metadata found (about a
 * quarter of the time to a first answer, 20k x 384). So each graph file saved leaves a hint beside it,
 * named by its collection: the file, its length, the vectors' space. When the caller says which
 * collection comes first (VectorDB.collection), Database.open starts reading the hinted file at once.
 * The hint is only a guess (it is written after the snapshot and never flushed): the read is taken only
 * if the snapshot's metadata names that very file with that length, and freed otherwise.
 */
import { readSideFileBefore, removeFile, replaceSideFile, sideFilePath, sideFilePathIn, type KvStore } from '../../storage/index.js';
import { isMetric, startGraphFileRead, type GraphFileRead, type Metric } from '../../vector-index/index.js';

/** What a hint says of a collection's graph file. */
interface GraphHint {
  readonly file: string;
  readonly fileBytes: number;
  readonly dimension: number;
  readonly metric: Metric;
}

/** The hint's side file for collection `name` (`keyspace.collection`; graph files start with `graph-`). */
const hintFileName = (name: string): string => `hint-${name}.json`;

/** Leaves the hint for the graph file just saved as collection `name`'s snapshot (best effort: a lost hint costs only time). */
export async function writeGraphHint(kv: KvStore, name: string, hint: GraphHint): Promise<void> {
  await replaceSideFile(kv, hintFileName(name), JSON.stringify(hint)).catch(() => undefined);
}

/** Removes collection `name`'s hint (its graph files are gone). */
export async function removeGraphHint(kv: KvStore, name: string): Promise<void> {
  const path = sideFilePath(kv, hintFileName(name));
  if (path !== undefined) await removeFile(path).catch(() => undefined);
}

/** The hint of collection `name` in the database directory `location`, if there is a well-formed one. */
function readGraphHint(location: string, name: string): GraphHint | undefined {
  const text = readSideFileBefore(location, hintFileName(name));
  if (text === undefined) return undefined;
  try {
    const hint = JSON.parse(text) as Partial<GraphHint>;
    const wellFormed =
      typeof hint.file === 'string' && /^graph-[0-9a-z-]+\.hnsw$/.test(hint.file) && Number.isSafeInteger(hint.fileBytes) && Number.isSafeInteger(hint.dimension) && isMetric(hint.metric);
    return wellFormed ? (hint as GraphHint) : undefined;
  } catch {
    return undefined;
  }
}

/** A graph file read started on a hint, for one collection to take or leave. */
export class GraphPrefetch {
  readonly #name: string;
  readonly #hint: GraphHint;
  #read: Promise<GraphFileRead> | undefined;
  #state: 'reading' | 'taken' | 'discarded' = 'reading';

  private constructor(name: string, hint: GraphHint, read: Promise<GraphFileRead>) {
    this.#name = name;
    this.#hint = hint;
    this.#read = read;
  }

  /** Starts reading the graph file the hint of collection `name` (`keyspace.collection`) names; undefined without a usable hint. */
  static start(location: string, name: string): GraphPrefetch | undefined {
    const hint = readGraphHint(location, name);
    const path = hint && sideFilePathIn(location, hint.file);
    if (hint === undefined || path === undefined) return undefined;
    const read = startGraphFileRead(path, hint.fileBytes, hint);
    read.catch(() => undefined); // whoever takes it sees the failure
    return new GraphPrefetch(name, hint, read);
  }

  /** @internal For tests: whether the read was taken, freed, or is still waiting. */
  get state(): 'reading' | 'taken' | 'discarded' {
    return this.#state;
  }

  /**
   * The read, when it is of the graph file collection `name` is opening (`file`, `fileBytes` from its
   * snapshot metadata, in its space); the caller then owns it. Any other claim by that collection frees it.
   */
  take(name: string, file: string, fileBytes: number | undefined, space: { readonly dimension: number; readonly metric: Metric }): Promise<GraphFileRead> | undefined {
    if (name !== this.#name || this.#read === undefined) return undefined;
    const hint = this.#hint;
    if (hint.file !== file || hint.fileBytes !== fileBytes || hint.dimension !== space.dimension || hint.metric !== space.metric) {
      this.discard();
      return undefined;
    }
    const read = this.#read;
    this.#read = undefined;
    this.#state = 'taken';
    return read;
  }

  /** Frees the graph unless it was taken (the collection did not open from that file, or the database closes). */
  discard(): void {
    const read = this.#read;
    if (read === undefined) return;
    this.#read = undefined;
    this.#state = 'discarded';
    void read.then(
      (started) => started.discard(),
      () => undefined,
    );
  }
}
