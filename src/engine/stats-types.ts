/**
 * The shapes of `stats` (stats.ts computes them): a leaf module, so the public declarations reach
 * them without the engine's or storage's internals.
 */
export interface VectorStats {
  readonly dimension: number;
  readonly metric: string;
  /** The HNSW parameters in use (M, efConstruction, efSearch). */
  readonly hnsw: { readonly m: number; readonly efConstruction: number; readonly efSearch: number };
  readonly backend: string;
  readonly vectors: number;
  /** Vectors in the HNSW graph; the rest are pending (searched exactly until the graph catches up). */
  readonly inGraph: number;
  readonly pending: number;
  /** HNSW elements held, live and dead (replaced or deleted vectors are only marked until a compaction). */
  readonly graphElements: number;
  /** Times the graph was rebuilt from the live vectors alone since the collection opened. */
  readonly compactions: number;
  /** Rows the exact-scan store has written (live vectors plus rows freed for reuse). */
  readonly flatRows: number;
  /** How those rows are held now: 'float32', or 'int8' (a collection with quantization 'int8', once its scale is trained). */
  readonly flatRowsAs: 'float32' | 'int8';
  /** Bytes the exact-scan rows in use take in memory (their float32 values or int8 codes). */
  readonly flatBytes: number;
  /** int8 rows: vector values coded since the collection opened (at training, at load, and by every write since); 0 for float32 rows. */
  readonly codedValues: number;
  /**
   * Of those, the values outside the range the int8 scale was trained on, clamped to its ends: a vector with
   * such values ranks on codes that are off, so it may miss the shortlist that exact rescoring orders.
   */
  readonly clampedValues: number;
  /**
   * A hint: more than 1 % of the values coded since open were clamped, so the data has drifted from the range
   * the int8 scale was trained on and recall may suffer. The scale is never retrained: a new int8 collection
   * trains its own on the first 1,024 vectors it is given. Always false for float32 rows.
   */
  readonly quantizationDrift: boolean;
  /** ISO time the graph snapshot was last saved, or null when never. */
  readonly snapshotSavedAt: string | null;
}

export interface CollectionStats {
  readonly keyspace: string;
  readonly name: string;
  readonly documents: number;
  /**
   * LevelDB's estimate of the bytes the collection's records take in its (compressed) table files, recent writes
   * included; a part too small for the estimate (under 64 KiB) counted as its keys' and values' bytes. 0 in memory.
   */
  readonly bytesOnDisk: number;
  /** Secondary index entries (one per indexed value of each document). */
  readonly indexEntries: number;
  /**
   * About how many bytes the collection's caches hold: document bodies in its search-hit cache (vector
   * collections; its budget is half the database's bodyCacheBytes) and its lexical index's hot postings
   * (up to 64 MiB).
   */
  readonly cachedBytes: number;
  readonly vector?: VectorStats;
}

export interface TableStats {
  readonly keyspace: string;
  readonly name: string;
  readonly rows: number;
  /** The bytes the table's rows, index entries, text postings and vector records take, measured as a collection's (bytesOnDisk there). */
  readonly bytesOnDisk: number;
  /** Secondary index entries (one per indexed value, or text token, of each row). */
  readonly indexEntries: number;
  /** Each vector index, by its column. */
  readonly vectors: Readonly<Record<string, VectorStats>>;
}

export interface DatabaseStats {
  /** Bytes of every file of the database directory. */
  readonly bytesOnDisk: number;
  /**
   * About how many bytes the database's caches hold now: document bodies in its row cache and every
   * collection's search-hit cache, of every keyspace (within the bodyCacheBytes option's budgets), and the hot
   * postings of every lexical index and table text index (up to 64 MiB each).
   */
  readonly cachedBytes: number;
  readonly keyspaces: readonly string[];
  readonly collections: readonly CollectionStats[];
  /** Every table of those keyspaces (getTableStats of each); empty from a Data API server without the stats commands. */
  readonly tables: readonly TableStats[];
}
