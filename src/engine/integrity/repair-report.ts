/**
 * The shapes of repair's options and report (repair.ts): what it did to each collection and table, where the
 * copy aside and the lost records went, and the verify run on the result. Plain data, apart from the code
 * that repairs, so that the public types do not reach the engine's own.
 */
import type { VerifyProgress, VerifyReport } from './verify-report.js';

export interface RepairOptions {
  /** Copy the directory aside first (default true). */
  readonly backup?: boolean;
  /** Called as the repair goes: which step, and records read in it so far. */
  readonly onProgress?: (progress: VerifyProgress) => void;
}

/** What repair did to one collection or table. */
export interface RepairedObject {
  readonly kind: 'collection' | 'table';
  readonly keyspace: string;
  readonly name: string;
  /** Documents (rows) kept. */
  readonly kept: number;
  /** Documents (rows) moved to lost+found. */
  readonly lost: number;
  /** Vector records moved to lost+found, and documents kept without `$vector` since theirs was gone. */
  readonly vectorsLost: number;
  readonly vectorsDropped: number;
  /** Index entries written again from the kept documents (rows). */
  readonly indexEntriesRebuilt: number;
  /** Lexical postings written again from the kept documents' `$lexical` (lexical-enabled collections). */
  readonly lexicalPostingsRebuilt?: number;
  /** Vectors in the rebuilt graph (collections with vectors). */
  readonly vectors?: number;
}

export interface RepairReport {
  readonly location: string;
  /** Where the directory was copied before anything changed (absent with backup: false). */
  readonly backup?: string;
  /** The lost+found NDJSON file (absent when nothing was lost): one line per record, {key, why, value (base64)}. */
  readonly lostAndFound?: string;
  /** Truth records read after LevelDB's repair. */
  readonly records: number;
  /** Records moved to lost+found in all (bodies, rows, vector records, catalog entries, and old bodies of documents kept without `$vector`). */
  readonly lostRecords: number;
  readonly objects: RepairedObject[];
  /** Records lost that belonged to no collection or table still in the catalog. */
  readonly lostUnowned: number;
  /** The verify run on the repaired database; the repair succeeded when it is ok. */
  readonly verify: VerifyReport;
  readonly elapsedMs: number;
}
