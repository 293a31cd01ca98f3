/**
 * A vector collection's vectors as its Collection holds them: loaded on first use (answering an unfiltered
 * search before every key is read), the postings by label built in the background once they are, the vector
 * search's candidate cache, the write hook that keeps the postings in step, and closing (saving the snapshot
 * unless the collection was dropped). The collection's reads, writes and mutex stay in collection.ts.
 */
import { yieldToEventLoop } from '../../platform/macrotask.js';
import type { KvStore } from '../../storage/index.js';
import type { Mutex } from '../mutex.js';
import type { EngineSettings } from '../settings.js';
import { CollectionVectors } from '../vectors/collection-vectors.js';
import { VectorPostings } from '../vectors/postings.js';
import type { ChangeHook, DocumentStore } from './document-store.js';
import type { CollectionRecord } from './schema.js';
import { indexEntriesOf, type ShredContext } from './shredder.js';
import { CandidateCache } from './vector-select.js';

/** What the vector state shares with its collection. */
export interface VectorStateHost {
  readonly kv: KvStore;
  readonly record: CollectionRecord;
  readonly settings: EngineSettings;
  readonly store: DocumentStore;
  /** The collection's write mutex: the postings build takes its snapshot between two writes. */
  readonly mutex: Mutex;
  readonly shred: ShredContext;
  readonly isDropped: () => boolean;
}

export class VectorState {
  readonly #host: VectorStateHost;
  /** The vectors once they answer an unfiltered search; #vectors once every key is read too. */
  #vectorsForSearch: Promise<CollectionVectors> | undefined;
  /** What #vectorsForSearch resolved to, once it has: a search then starts without an await for it. */
  #searchable: CollectionVectors | undefined;
  #vectors: Promise<CollectionVectors> | undefined;
  /** The load an unfiltered search last left running unawaited (already marked handled). */
  #unawaited: Promise<CollectionVectors> | undefined;
  readonly candidates = new CandidateCache();
  /** The secondary index by vector label, built in the background at open. */
  readonly postings = new VectorPostings();
  #postingsBuild: Promise<void> | undefined;
  #closing = false;

  constructor(host: VectorStateHost) {
    this.#host = host;
  }

  /** The collection's vectors, loaded on first use and ready for any use; undefined for a collection without vectors. */
  vectors(): Promise<CollectionVectors> | undefined {
    const forSearch = this.#opening();
    if (!forSearch) return undefined;
    this.#vectors ??= forSearch
      .then((vectors) => vectors.keysRead())
      .then(
        (vectors) => {
          this.#buildPostings(vectors);
          return vectors;
        },
        (error: unknown) => {
          this.#vectors = undefined;
          throw error;
        },
      );
    return this.#vectors;
  }

  /**
   * The vectors a search runs on, starting the whole load: an unfiltered search needs neither the label maps
   * nor the postings, so it gets them as soon as they answer one (no promise at all once they have); a
   * filtered one waits for vectors().
   */
  forSearch(filtered: boolean): CollectionVectors | Promise<CollectionVectors> | undefined {
    const ready = this.vectors();
    if (filtered) return ready;
    // The whole load runs on unawaited: a failed open reaches the caller through the search's own wait.
    // Marked handled once per load, not per search (each `catch` is a promise and, once settled, a microtask).
    if (ready !== this.#unawaited) {
      this.#unawaited = ready;
      ready?.catch(() => undefined);
    }
    return this.#searchable ?? this.#vectorsForSearch;
  }

  /**
   * The vectors as soon as they answer an unfiltered search (CollectionVectors.openForSearch: a reopened
   * collection answers before every key is read).
   */
  #opening(): Promise<CollectionVectors> | undefined {
    const { record, settings, kv, store } = this.#host;
    const vector = record.options.vector;
    if (!vector) return undefined;
    this.#vectorsForSearch ??= CollectionVectors.openForSearch(kv, {
      name: `${record.keyspace}.${record.name}`,
      cid: record.cid,
      dimension: vector.dimension,
      metric: vector.metric,
      options: record.options,
      backend: settings.vectorBackend,
      onProgress: settings.onProgress,
      prefetch: settings.graphPrefetch,
    }).then(
      (vectors) => {
        store.useVectorLookup((label) => vectors.vectorOf(label));
        if (!this.#closing) this.#searchable = vectors;
        return vectors;
      },
      (error: unknown) => {
        this.#vectorsForSearch = undefined;
        throw error;
      },
    );
    return this.#vectorsForSearch;
  }

  /** The vectors' write hook, keeping the postings in step once a write is durable. */
  hook(vectors: CollectionVectors | undefined): ChangeHook | undefined {
    if (!vectors) return undefined;
    return (changes, ops) => {
      const oldLabels = changes.map((change) => vectors.labelOf(change.key));
      const staged = vectors.hook(changes, ops);
      const afterCommit = () => {
        staged.afterCommit?.();
        this.postings.apply(changes, oldLabels, staged.labels, (doc) => indexEntriesOf(doc, this.#host.shred));
      };
      return { labels: staged.labels, afterCommit };
    };
  }

  /** After the collection was emptied (deleteMany({})): no vectors, no postings. */
  async reset(): Promise<void> {
    await (await this.vectors())?.reset();
    this.postings.reset();
  }

  /**
   * Builds the postings from the index in the background (searches read LevelDB meanwhile). Its snapshot
   * and labels are taken between two writes; writes go on during the build and are replayed after it.
   * It starts a macrotask after the vectors open: a query waiting for them is answered first (copying
   * the labels of 100k vectors takes ~15 ms of the event loop).
   */
  #buildPostings(vectors: CollectionVectors): void {
    const { mutex, store, isDropped } = this.#host;
    const started = yieldToEventLoop().then(() => mutex.run(async () => {
      if (isDropped() || this.#closing) return undefined;
      return { build: this.postings.startBuild(), snapshot: store.snapshot(), labels: vectors.labelsNow() };
    }));
    const building = started.then(async (start) => {
      if (start === undefined) return;
      try {
        await start.build(store.allIndexEntries(start.snapshot), start.labels);
      } finally {
        await start.snapshot.close();
      }
    });
    this.#postingsBuild = building.catch(() => this.postings.clear()); // the database closed meanwhile: searches read LevelDB
  }

  /** Resolves once the postings build started at open has ended (tests, benchmarks). */
  async postingsBuilt(): Promise<boolean> {
    await this.vectors();
    await this.#postingsBuild;
    return this.postings.ready;
  }

  /**
   * Stops: a postings build not started yet does not start; once `drain` has let queued writes finish, a build
   * still reading is abandoned and the vectors stop indexing and save their snapshot (unless dropped).
   */
  async close(drain: () => Promise<void>): Promise<void> {
    this.#closing = true;
    await drain();
    this.postings.clear();
    await this.#postingsBuild;
    const vectors = this.#vectorsForSearch;
    this.#vectorsForSearch = undefined;
    this.#searchable = undefined;
    this.#vectors = undefined;
    if (vectors) await (await vectors.catch(() => undefined))?.close(!this.#host.isDropped());
  }
}
