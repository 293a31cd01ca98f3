/**
 * `vectordb-local stats`: what a database holds, one table row per collection (documents, bytes on disk,
 * index entries, vector dimension/metric/HNSW parameters, vectors in the graph and pending, last snapshot),
 * or the whole db.stats() as JSON with --json. All keyspaces unless --keyspace is given.
 */
import type { DatabaseStats } from '../client/stats.js';
import { Command } from 'commander';
import { describeSource, messageOf, openDatabase, withDatabaseOptions, type SourceFlags } from './database-source.js';
import { formatCount } from './progress-display.js';

export interface StatsFlags extends SourceFlags {
  json: boolean;
  /** Whether --keyspace was given (else every keyspace). */
  keyspaceGiven: boolean;
}

export async function stats(flags: StatsFlags): Promise<number> {
  let db;
  try {
    db = await openDatabase(flags);
    const result = await db.stats(flags.keyspaceGiven ? { keyspace: flags.keyspace } : {});
    console.log(flags.json ? JSON.stringify(result, null, 2) : statsTable(result, describeSource(flags)));
    return 0;
  } catch (error) {
    console.error(`vectordb-local stats: ${messageOf(error)}`);
    return 1;
  } finally {
    await db?.close().catch(() => undefined);
  }
}

export function statsTable(result: DatabaseStats, where: string): string {
  const header = ['collection', 'documents', 'bytes', 'index entries', 'vector', 'HNSW (M/efC/efS)', 'in graph', 'pending', 'snapshot saved'];
  const rows = result.collections.map((c) => [
    `${c.keyspace}.${c.name}`,
    formatCount(c.documents),
    c.bytesOnDisk === undefined ? '-' : bytes(c.bytesOnDisk),
    c.indexEntries === undefined ? '-' : formatCount(c.indexEntries),
    c.vector ? `${c.vector.dimension} ${c.vector.metric}` : '-',
    c.vector ? `${c.vector.hnsw.m}/${c.vector.hnsw.efConstruction}/${c.vector.hnsw.efSearch}` : '-',
    c.vector ? formatCount(c.vector.inGraph) : '-',
    c.vector ? formatCount(c.vector.pending) : '-',
    c.vector ? (c.vector.snapshotSavedAt ?? 'never') : '-',
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) => cells.map((cell, i) => (i === 0 || i >= 4 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join('  ').trimEnd();
  const total = Number.isNaN(result.bytesOnDisk) ? 'unknown' : bytes(result.bytesOnDisk);
  return [
    `${where}: ${result.collections.length} collections in ${result.keyspaces.length} keyspaces, ${total} on disk`,
    ...(rows.length > 0 ? [line(header), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)] : []),
  ].join('\n');
}

function bytes(n: number): string {
  if (n < 1024) return `${n} B`;
  const units = ['KiB', 'MiB', 'GiB', 'TiB'];
  let value = n / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${value.toFixed(value < 10 ? 1 : 0)} ${units[unit]}`;
}

export function statsCommand(): Command {
  return withDatabaseOptions(new Command('stats'), 'database')
    .description('show what a database holds: a table per collection, or --json')
    .option('--json', 'print db.stats() as JSON (for scripts)', false)
    .addHelpText(
      'after',
      `
Every keyspace unless --keyspace is given. Against a Data API server other than vectordb-local, documents only.

Examples:
  $ vectordb-local stats --data ./data
  $ vectordb-local stats --endpoint http://127.0.0.1:8181 --token "$TOKEN" --json`,
    )
    .action(async (flags: StatsFlags, command: Command) => process.exit(await stats({ ...flags, keyspaceGiven: command.getOptionValueSource('keyspace') === 'cli' })));
}
