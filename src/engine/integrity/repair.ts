/**
 * `vectordb-local repair <dir>` and VectorDB.repair(dir) (#28): recovers what can be recovered of a database
 * that cannot be opened or verifies with damage. In order: copies the directory aside (unless told not to),
 * runs LevelDB's own repair, keeps the truth records that can be trusted (salvage.ts: the rest goes to a
 * lost+found NDJSON file beside the directory), deletes every derived record (index entries, lexical
 * postings and statistics, vector snapshots and graph files, index-rule markers) and rebuilds them through
 * the engine, then verifies. The database is opened by the caller's `open` (database-files.ts
 * passes Database.open), so that repair stays below the database it rebuilds.
 */
import type { Collection } from '../collections/collection.js';
import type { Table } from '../tables/table.js';
import { KvStore, keys, removeSideFiles } from '../../storage/index.js';
import { besideDirectory, checkRepairable, copyDirectoryAside, LostAndFound, repairLevel } from '../../storage/repair-files.js';
import { NO_OWNER, salvage, type LostCounts } from './salvage.js';
import type { RepairedObject, RepairOptions, RepairReport } from './repair-report.js';
import type { VerifyProgress, VerifyReport } from './verify-report.js';

export type { RepairedObject, RepairOptions, RepairReport } from './repair-report.js';

/** What repair needs of the database it rebuilds (engine/database.ts's Database). */
export interface RepairableDatabase {
  readonly kvStore: KvStore;
  /** Every live collection and table. */
  objects(): { collections: Collection[]; tables: Table[] };
  verify(onProgress?: (progress: VerifyProgress) => void): Promise<VerifyReport>;
  close(): Promise<void>;
}

/** The prefixes of derived records: all deleted, then rebuilt from the truth. */
const DERIVED_PREFIXES = ['idx:', 'ridx:', 'vidx:', 'vmeta:', 'ixrule:', 'lex:', 'tlex:', 'fld:'];
/** Side files derived from the truth: vector graphs and their prefetch hints. */
const DERIVED_SIDE_FILES = ['graph-', 'hint-'];

/** UTC, to the millisecond, safe in a file name: 20261127T230102.123Z. */
const stampOf = (date: Date): string => date.toISOString().replace(/[-:]/g, '');

/** Repairs the database in `location`, which `open` opens once the truth is salvaged and the derived records deleted. */
export async function repairDatabase(location: string, open: (location: string) => Promise<RepairableDatabase>, options: RepairOptions = {}): Promise<RepairReport> {
  const started = Date.now();
  const stamp = stampOf(new Date(started));
  const progress = (step: string, records: number): void => options.onProgress?.({ step, records });
  await checkRepairable(location);
  let backup: string | undefined;
  if (options.backup !== false) {
    backup = besideDirectory(location, `.before-repair-${stamp}`);
    progress(`copying the directory aside to ${backup}`, 0);
    await copyDirectoryAside(location, backup);
  }
  progress("LevelDB's repair", 0);
  await repairLevel(location);

  const lostAndFound = new LostAndFound(besideDirectory(location, `.lost+found-${stamp}.ndjson`));
  let salvaged: Awaited<ReturnType<typeof salvage>>;
  const kv = await KvStore.open(location);
  try {
    salvaged = await salvage(kv, lostAndFound, progress);
    progress('deleting derived records', 0);
    for (const prefix of DERIVED_PREFIXES) await kv.clearRange(prefix, prefix + keys.HIGH);
    for (const prefix of DERIVED_SIDE_FILES) await removeSideFiles(kv, prefix);
  } finally {
    await lostAndFound.close();
    await kv.close();
  }

  const db = await open(location);
  try {
    const objects = await rebuild(db, salvaged.lost, progress);
    const verify = await db.verify(options.onProgress);
    const owned = new Set(objects.map((o) => `${o.keyspace}.${o.name}`));
    let lostUnowned = 0;
    for (const [owner, counts] of salvaged.lost) if (owner === NO_OWNER || !owned.has(owner)) lostUnowned += counts.documents + counts.vectors + counts.catalog;
    return {
      location,
      ...(backup === undefined ? {} : { backup }),
      ...(lostAndFound.count === 0 ? {} : { lostAndFound: lostAndFound.path }),
      records: salvaged.records,
      lostRecords: lostAndFound.count,
      objects,
      lostUnowned,
      verify,
      elapsedMs: Date.now() - started,
    };
  } finally {
    await db.close();
  }
}

/** Writes every collection's and table's index entries and lexical postings again and rebuilds vector graphs (none is left after the deletes). */
async function rebuild(db: RepairableDatabase, lost: ReadonlyMap<string, LostCounts>, progress: (step: string, records: number) => void): Promise<RepairedObject[]> {
  const { collections, tables } = db.objects();
  const objects: RepairedObject[] = [];
  for (const collection of collections) {
    const { record } = collection;
    progress(`rebuilding collection ${record.keyspace}.${record.name}`, 0);
    const { store, shred, lexical } = collection.integrity;
    await store.refileIndex(shred);
    await collection.fieldRecord(); // the field record (deleted with the derived records) is built from the bodies
    const lexicalPostings = lexical && (await lexical.rebuild(store.scan(undefined, { withVector: false }), shred));
    let vectors: number | undefined;
    const loading = collection.vectors();
    if (loading !== undefined) {
      const loaded = await loading;
      await loaded.waitForIndex();
      vectors = loaded.size;
    }
    const object = await repaired(db, 'collection', record, lost, keys.docPrefix(record.cid), keys.indexPrefix(record.cid), vectors);
    objects.push(lexicalPostings === undefined ? object : { ...object, lexicalPostingsRebuilt: lexicalPostings });
  }
  for (const table of tables) {
    const { record } = table;
    progress(`rebuilding table ${record.keyspace}.${record.name}`, 0);
    const lexicalPostings = await table.store.refileIndexes();
    const object = await repaired(db, 'table', record, lost, keys.rowPrefix(record.tid), keys.rowIndexesPrefix(record.tid));
    objects.push(lexicalPostings === undefined ? object : { ...object, lexicalPostingsRebuilt: lexicalPostings });
  }
  return objects;
}

/** One collection's or table's line of the report, counted after the rebuild. */
async function repaired(db: RepairableDatabase, kind: RepairedObject['kind'], record: { keyspace: string; name: string }, lost: ReadonlyMap<string, LostCounts>, truthPrefix: string, indexPrefix: string, vectors?: number): Promise<RepairedObject> {
  const kv = db.kvStore;
  const counts = lost.get(`${record.keyspace}.${record.name}`);
  return {
    kind,
    keyspace: record.keyspace,
    name: record.name,
    kept: await kv.countKeys(truthPrefix, truthPrefix + keys.HIGH),
    lost: counts?.documents ?? 0,
    vectorsLost: counts?.vectors ?? 0,
    vectorsDropped: counts?.vectorsDropped ?? 0,
    indexEntriesRebuilt: await kv.countKeys(indexPrefix, indexPrefix + keys.HIGH),
    ...(vectors === undefined ? {} : { vectors }),
  };
}
