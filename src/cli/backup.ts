/**
 * `vectordb-local backup <dir>` and `restore <dir>`. A data directory (or home database) is copied from one
 * LevelDB snapshot while it stays in use (db.backup), and restored with VectorDB.restore, which refuses a
 * database in use. Either way a backup is atomic (a partial sibling renamed into place when complete). With a Data API endpoint on the other side, the copy is logical (copy-database.ts):
 * backup writes a new local database from the endpoint's collections, restore loads one into the endpoint.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { VectorDB } from '../client/vector-db.js';
import { Command } from 'commander';
import { writeLocalCopy } from '../client/local-copy.js';
import { copyDatabase } from './copy-database.js';
import { describeSource, messageOf, openDatabase, withDatabaseOptions, type SourceFlags } from './database-source.js';
import { progressIntervalOption } from './option-parsers.js';
import { formatCount, formatSeconds, ProgressDisplay } from './progress-display.js';

export interface BackupFlags extends SourceFlags {
  progressInterval: number;
}

export async function backup(dir: string, flags: BackupFlags): Promise<number> {
  const started = performance.now();
  const target = path.resolve(dir);
  let db: VectorDB | undefined;
  const display = new ProgressDisplay({ label: 'backup', unit: flags.endpoint ? 'docs' : 'keys', intervalSeconds: flags.progressInterval });
  try {
    db = await openDatabase(flags);
    let what: string;
    if (flags.endpoint !== undefined) {
      if (existsSync(target)) throw new Error(`${target} exists: a backup goes to a new directory`);
      const from = db;
      // As db.backup: into a partial sibling, renamed into place once complete.
      const docs = await writeLocalCopy(target, describeSource(flags), (copy) => copyDatabase(from, copy, (p) => display.update({ done: p.done, failed: 0, rate: p.rate })));
      what = `${formatCount(docs)} documents`;
    } else {
      const { keys } = await db.backup(target, { onProgress: ({ copiedKeys }) => display.update({ done: copiedKeys, failed: 0, rate: copiedKeys / ((performance.now() - started) / 1000) }) });
      what = `${formatCount(keys)} keys`;
    }
    display.stop();
    console.error(`vectordb-local backup: ${describeSource(flags)} -> ${target}: ${what} in ${formatSeconds((performance.now() - started) / 1000)}; open it with new VectorDB(token, '${target}') or restore it with vectordb-local restore`);
    return 0;
  } catch (error) {
    display.stop();
    console.error(`vectordb-local backup: ${messageOf(error)}`);
    return 1;
  } finally {
    await db?.close().catch(() => undefined);
  }
}

export async function restore(dir: string, flags: BackupFlags): Promise<number> {
  const started = performance.now();
  const source = path.resolve(dir);
  const display = new ProgressDisplay({ label: 'restore', unit: flags.endpoint ? 'docs' : 'keys', intervalSeconds: flags.progressInterval });
  try {
    if (!existsSync(path.join(source, 'CURRENT'))) throw new Error(`${source} is not a database directory (no CURRENT file)`);
    let what: string;
    if (flags.endpoint !== undefined || flags.database !== undefined) {
      // Into a server or a home database: document by document, through the client.
      await using from = await new VectorDB('local', source).connect();
      await using to = await openDatabase(flags);
      const docs = await copyDatabase(from, to, (p) => display.update({ done: p.done, failed: 0, rate: p.rate }));
      what = `${formatCount(docs)} documents`;
    } else {
      const target = path.resolve(flags.data ?? './data');
      const { keys } = await VectorDB.restore(source, target, { onProgress: ({ copiedKeys }) => display.update({ done: copiedKeys, failed: 0, rate: copiedKeys / ((performance.now() - started) / 1000) }) });
      what = `${formatCount(keys)} keys`;
    }
    display.stop();
    console.error(`vectordb-local restore: ${source} -> ${describeSource(flags)}: ${what} in ${formatSeconds((performance.now() - started) / 1000)}`);
    return 0;
  } catch (error) {
    display.stop();
    console.error(`vectordb-local restore: ${messageOf(error)}`);
    return 1;
  }
}

export function backupCommand(): Command {
  return withDatabaseOptions(new Command('backup').argument('<dir>', 'a new (or empty) directory for the copy'), 'source')
    .description('copy a database, while it stays in use, into a new directory that opens as a database')
    .addOption(progressIntervalOption())
    .addHelpText(
      'after',
      `
A data directory or home database is copied from one LevelDB snapshot: writers go on, and the copy holds
exactly what was written before it started. From a Data API endpoint, every collection is copied document by
document into a new local database.

Examples:
  $ vectordb-local backup --data ./data ./backups/2026-11-25
  $ vectordb-local backup --endpoint http://127.0.0.1:8181 --token "$TOKEN" ./backups/from-server`,
    )
    .action(async (dir: string, flags: BackupFlags) => process.exit(await backup(dir, flags)));
}

export function restoreCommand(): Command {
  return withDatabaseOptions(new Command('restore').argument('<dir>', 'a backup (or any database directory not in use)'), 'target')
    .description('make a database a copy of a backup; refuses a database in use')
    .addOption(progressIntervalOption())
    .addHelpText(
      'after',
      `
Into a data directory (--data, default ./data): the directory is replaced by the backup, unless a process has
the database open (stop it first). Into a Data API endpoint or a home database: every collection of the backup
is upserted document by document.

Examples:
  $ vectordb-local restore --data ./data ./backups/2026-11-25
  $ vectordb-local restore --endpoint http://127.0.0.1:8181 --token "$TOKEN" ./backups/2026-11-25`,
    )
    .action(async (dir: string, flags: BackupFlags) => process.exit(await restore(dir, flags)));
}
