/**
 * What is done to a database's directory as a whole, never through an open Database: a restore makes it a copy
 * of a backup, a logical copy of another database is written into a new one atomically (as a backup is), and
 * repair (integrity/repair.ts) salvages it and rebuilds what derives from the truth, opening it with
 * Database.open once the truth is sorted out. Each refuses a directory in use (DATABASE_LOCKED).
 */
import { createStoreAtomically, restoreStore } from '../storage/index.js';
import { Database } from './database.js';
import { repairDatabase, type RepairOptions, type RepairReport } from './integrity/repair.js';

/** Makes `target` a copy of the database in `source` (see storage/backup.ts); refuses a target in use. */
export async function restoreDirectory(source: string, target: string, onProgress?: (copiedKeys: number) => void): Promise<{ keys: number }> {
  return { keys: await restoreStore(source, target, onProgress) };
}

/**
 * Writes a new database into `target` (absent or empty) atomically, as a backup is written (storage/backup.ts):
 * `fill(partial, begin)` fills a database it opens in the partial sibling, calling `begin()` once it is open.
 */
export function createDirectoryAtomically(target: string, source: string, fill: (partial: string, begin: () => Promise<void>) => Promise<number>): Promise<number> {
  return createStoreAtomically(target, source, fill);
}

/** Repairs the database in `location` (integrity/repair.ts). */
export function repairDirectory(location: string, options: RepairOptions = {}): Promise<RepairReport> {
  return repairDatabase(location, (at) => Database.open(at), options);
}
