/**
 * What shredding a document needs to know of its collection (ShredContext): names, options, limits, which
 * paths are indexed and the `$lexical` analyzer. Its own file, so that the shredder and the lexical shredding
 * it calls both take it without importing each other.
 */
import type { Analyzer } from '../../query/analyzers.js';
import type { Limits } from '../limits.js';
import type { CollectionOptions } from './schema.js';

export interface ShredContext {
  readonly keyspace: string;
  readonly collectionName: string;
  readonly options: CollectionOptions;
  readonly limits: Limits;
  readonly isIndexed: (path: string) => boolean;
  /** The analyzer of `$lexical` (undefined: lexical disabled; a `$lexical` value is refused). */
  readonly analyzer?: Analyzer | undefined;
}
