/**
 * `vectordb-local stats`: what a database holds, one table row per collection (documents, bytes on disk,
 * index entries, vector dimension/metric/HNSW parameters, vectors in the graph and pending, last snapshot)
 * and per table (rows, bytes, index entries, a row per vector column), or the whole db.stats() as JSON with --json. All keyspaces unless --keyspace is given.
 */
import type { DatabaseStats, VectorStats } from '../client/stats.js';
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
  const collectionRows = result.collections.map((c) => [
    `${c.keyspace}.${c.name}`,
    formatCount(c.documents),
    c.bytesOnDisk === undefined ? '-' : bytes(c.bytesOnDisk),
    c.indexEntries === undefined ? '-' : formatCount(c.indexEntries),
    ...vectorCells(c.vector),
  ]);
  // An older vectordb-local server may answer without tables.
  const tables = result.tables ?? [];
  // A table has a row per vector column (its first row also tells the rows), or one without vectors.
  const tableRows = tables.flatMap((t) => {
    const columns = Object.entries(t.vectors);
    const cells = [`${t.keyspace}.${t.name}`, formatCount(t.rows), bytes(t.bytesOnDisk), formatCount(t.indexEntries)];
    if (columns.length === 0) return [[...cells, '-', ...vectorCells(undefined)]];
    return columns.map(([column, vector], i) => [...(i === 0 ? cells : ['', '', '', '']), column, ...vectorCells(vector)]);
  });
  const vectorHeader = ['vector', 'HNSW (M/efC/efS)', 'in graph', 'pending', 'snapshot saved'];
  const total = Number.isNaN(result.bytesOnDisk) ? 'unknown' : bytes(result.bytesOnDisk);
  return [
    `${where}: ${result.collections.length} collections and ${tables.length} tables in ${result.keyspaces.length} keyspaces, ${total} on disk`,
    ...grid(['collection', 'documents', 'bytes', 'index entries', ...vectorHeader], collectionRows, 4),
    ...(tableRows.length > 0 && collectionRows.length > 0 ? [''] : []),
    ...grid(['table', 'rows', 'bytes', 'index entries', 'vector column', ...vectorHeader], tableRows, 4),
  ].join('\n');
}

/** A vector index's cells (dimension, metric and int8 rows, HNSW parameters, in graph, pending, snapshot), or dashes. */
function vectorCells(vector: VectorStats | undefined): string[] {
  if (vector === undefined) return ['-', '-', '-', '-', '-'];
  const { dimension, metric, hnsw } = vector;
  // An int8 collection's exact-scan rows, marked when its stats hint at drift (a server of an earlier build tells neither).
  const rows = vector.flatRowsAs !== 'int8' ? '' : vector.quantizationDrift === true ? ' int8 (drift)' : ' int8';
  return [`${dimension} ${metric}${rows}`, `${hnsw.m}/${hnsw.efConstruction}/${hnsw.efSearch}`, formatCount(vector.inGraph), formatCount(vector.pending), vector.snapshotSavedAt ?? 'never'];
}

/** Header, rule and rows in columns: the first and those from `textFrom` on left-aligned, the counts right. */
function grid(header: string[], rows: string[][], textFrom: number): string[] {
  if (rows.length === 0) return [];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) => cells.map((cell, i) => (i === 0 || i >= textFrom ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join('  ').trimEnd();
  return [line(header), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)];
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
    .description('show what a database holds: a line per collection and per table, or --json')
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
