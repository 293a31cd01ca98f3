/**
 * The shapes of verify's report (verify.ts) and its progress: what was checked, per collection and table,
 * and every problem found with where it is. Plain JSON, as the `verify` command returns it.
 */

/** What kind of damage a problem is. */
export type ProblemKind =
  /** A truth record fails its checksum (or is not what its key holds). */
  | 'damaged-record'
  /** A truth record passes its checksum (or has none) but cannot be parsed. */
  | 'unreadable-record'
  /** A document or row lacks an index entry its values call for. */
  | 'index-entry-missing'
  /** An index entry names a document or row that does not have that value (or does not exist). */
  | 'index-entry-orphaned'
  /** A document refers to a vector record that is missing or names another document. */
  | 'vector-record-missing'
  /** A vector record no document refers to. */
  | 'vector-record-orphaned'
  /** The in-memory vectors (flat store, graph) disagree with the vector records. */
  | 'vector-mismatch'
  /** The collection's vectors could not be loaded at all. */
  | 'vectors-unloadable'
  /** A document's `$lexical` gives a posting the lexical index lacks. */
  | 'lexical-posting-missing'
  /** A lexical posting names a document whose `$lexical` does not give it (or does not exist). */
  | 'lexical-posting-orphaned'
  /** A lexical posting holds another count or length than its document's `$lexical` gives. */
  | 'lexical-posting-mismatch'
  /** The stored BM25 statistics (documents, total length) differ from what the bodies give. */
  | 'lexical-stats-mismatch'
  /** A complete field record lacks a top-level field (or kind of value) a document holds. */
  | 'field-kind-missing';

export interface VerifyProblem {
  readonly kind: ProblemKind;
  /** Which collection or table, which `_id`, primary key or label: a sentence (record-names.ts). */
  readonly where: string;
  readonly detail?: string;
}

/** What one collection or table holds, as counted by verify. */
export interface VerifiedObject {
  readonly kind: 'collection' | 'table';
  readonly keyspace: string;
  readonly name: string;
  /** Documents (rows) whose record reads. */
  readonly documents: number;
  readonly indexEntries: number;
  /** Vector records (collections with vectors). */
  readonly vectors?: number;
  /** Lexical postings (lexical-enabled collections). */
  readonly lexicalPostings?: number;
  readonly problems: number;
}

export interface VerifyReport {
  /** True when no problem was found. */
  readonly ok: boolean;
  /** Truth records checked, and how many of them were written before checksums (format 3 and before). */
  readonly records: number;
  readonly unsealed: number;
  readonly objects: VerifiedObject[];
  /** Problems found, the first MAX_LISTED_PROBLEMS of them (problemCounts counts them all). */
  readonly problems: VerifyProblem[];
  readonly problemCounts: Partial<Record<ProblemKind, number>>;
  readonly elapsedMs: number;
}

export const MAX_LISTED_PROBLEMS = 1000;

/** Progress of a verify: records read so far in the current step. */
export interface VerifyProgress {
  readonly step: string;
  readonly records: number;
}
