/**
 * What the vectors of one collection (or one table column) are opened with and what they answer in
 * kind: the settings, the definition's vector part, a search's label filter and the indexing progress.
 * Types only, shared by the files of vectors/ and by the wings above them.
 */
import type { AllowedLabels, BackendChoice, Quantization } from '../../vector-index/index.js';
import type { Metric } from '../../vector-index/metric.js';
import type { VectorProgress } from '../progress.js';
import type { GraphPrefetch } from './graph-prefetch.js';
import type { VectorizeService } from './vectorize-service.js';

/** Tuning knobs of a collection's HNSW index (see vector/ for what each trades). */
export interface VectorIndexOptions {
  readonly m?: number;
  readonly efConstruction?: number;
  readonly efSearch?: number;
  /** How the exact-scan rows are held: float32 ('none', the default) or int8 codes rescored exactly. */
  readonly quantization?: Quantization;
}

/** A collection's vector definition (CollectionOptions' `vector`). */
export interface VectorOptions {
  readonly dimension: number;
  readonly metric: Metric;
  readonly sourceModel: string;
  readonly index?: VectorIndexOptions;
  /** The embedding provider of `$vectorize` text (absent: vectors are given as `$vector`). */
  readonly service?: VectorizeService;
}

/** Whether the graph holds every live vector (searches are exact either way: it only changes speed). */
export interface IndexProgress {
  readonly caughtUp: boolean;
  /** Live vectors not in the graph yet (searched by exact scan meanwhile). */
  readonly pendingVectors: number;
}

/** A filter's candidate labels as a search takes them (a Set, or the postings' sorted LabelSet): the graph's allowed labels. */
export type LabelFilter = AllowedLabels;

export interface VectorSettings {
  readonly name: string;
  readonly cid: number;
  readonly dimension: number;
  readonly metric: Metric;
  readonly options: { readonly vector?: VectorOptions | undefined };
  readonly backend: BackendChoice;
  readonly onProgress?: ((progress: VectorProgress) => void) | undefined;
  /** A read of the graph file started while the database opened (graph-prefetch.ts), for the open to take if it is this collection's. */
  readonly prefetch?: GraphPrefetch | undefined;
}

/** What churn and coding leave behind (CollectionVectors.footprint: stats, verify, tests). */
export interface VectorFootprint {
  /** Graph elements, live and dead (replaced or deleted vectors only marked). */
  readonly graphElements: number;
  readonly graphDeleted: number;
  /** Rows the exact-scan store has written, how they hold values, and their bytes. */
  readonly flatRows: number;
  readonly flatRowsAs: 'float32' | 'int8';
  readonly flatBytes: number;
  /** int8 rows: values coded since open, and those of them clamped to the trained range (0 for float32 rows). */
  readonly codedValues: number;
  readonly clampedValues: number;
  readonly compactions: number;
  readonly compacting: boolean;
}
