/**
 * `vectordb-local verify <dir|endpoint>`: db.verify()'s report (as SQLite's PRAGMA integrity_check), on a
 * data directory (opened here, with progress on stderr) or through a server's `verify` command. Prints what
 * was checked per collection and table and every problem with where it is; exits 0 only when clean, 1 when
 * damage was found, 2 when the database could not be checked at all.
 */
import { Command, Option } from 'commander';
import { VectorDB } from '../client/vector-db.js';
import { Database } from '../engine/database.js';
import type { VerifyReport } from '../engine/integrity/verify-report.js';
import { messageOf } from './database-source.js';
import { formatCount, ProgressDisplay } from './progress-display.js';

export interface VerifyFlags {
  token?: string;
  json: boolean;
  progressInterval: number;
}

export async function verify(target: string, flags: VerifyFlags): Promise<number> {
  let report: VerifyReport;
  try {
    report = /^https?:\/\//.test(target) ? await verifyEndpoint(target, flags) : await verifyDirectory(target, flags);
  } catch (error) {
    console.error(`vectordb-local verify: ${messageOf(error)}`);
    return 2;
  }
  console.log(flags.json ? JSON.stringify(report, null, 2) : describeReport(report, target));
  return report.ok ? 0 : 1;
}

async function verifyEndpoint(endpoint: string, flags: VerifyFlags): Promise<VerifyReport> {
  if (!flags.token) throw new Error('an endpoint needs --token (or VECTORDB_TOKEN)');
  const db = new VectorDB(flags.token, endpoint);
  try {
    return await db.verify();
  } finally {
    await db.close().catch(() => undefined);
  }
}

async function verifyDirectory(dir: string, flags: VerifyFlags): Promise<VerifyReport> {
  const db = await Database.open(dir);
  const display = new ProgressDisplay({ label: 'verify', unit: 'records', intervalSeconds: flags.progressInterval, failedLabel: 'problems' });
  const started = Date.now();
  let base = 0;
  let step = '';
  let done = 0;
  try {
    return await db.verify((progress) => {
      if (progress.step !== step) {
        base = done;
        step = progress.step;
      }
      done = base + progress.records;
      display.update({ done, failed: 0, rate: done / Math.max((Date.now() - started) / 1000, 0.001) });
    });
  } finally {
    display.stop();
    await db.close();
  }
}

/** The report for people: one line per collection and table, then the problems. */
export function describeReport(report: VerifyReport, where: string): string {
  const lines = [`${where}: ${formatCount(report.records)} records checked in ${(report.elapsedMs / 1000).toFixed(1)} s${report.unsealed > 0 ? ` (${formatCount(report.unsealed)} written before checksums)` : ''}`];
  for (const o of report.objects) {
    const vectors = (o.vectors === undefined ? '' : `, ${formatCount(o.vectors)} vectors`) + (o.lexicalPostings === undefined ? '' : `, ${formatCount(o.lexicalPostings)} lexical postings`);
    lines.push(`  ${o.kind} ${o.keyspace}.${o.name}: ${formatCount(o.documents)} ${o.kind === 'table' ? 'rows' : 'documents'}, ${formatCount(o.indexEntries)} index entries${vectors}: ${o.problems === 0 ? 'ok' : `${formatCount(o.problems)} problems`}`);
  }
  if (report.ok) {
    lines.push('ok: no problem found');
    return lines.join('\n');
  }
  const counts = Object.entries(report.problemCounts).map(([kind, n]) => `${formatCount(n)} ${kind}`);
  lines.push(`DAMAGED: ${counts.join(', ')}`);
  for (const p of report.problems) lines.push(`  ${p.kind}: ${p.where}${p.detail === undefined ? '' : ` (${p.detail})`}`);
  const listed = report.problems.length;
  const total = Object.values(report.problemCounts).reduce((a, b) => a + b, 0);
  if (listed < total) lines.push(`  ... and ${formatCount(total - listed)} more`);
  lines.push('`vectordb-local repair <dir>` keeps what can be kept and rebuilds the rest.');
  return lines.join('\n');
}

export function verifyCommand(): Command {
  return new Command('verify')
    .description('check every record, index entry and vector of a database (exit 0 only when clean)')
    .argument('<dir|endpoint>', 'a data directory, or a vectordb-local server (http://...)')
    .addOption(new Option('-t, --token <token>', 'the token (an endpoint needs one)').env('VECTORDB_TOKEN'))
    .option('--json', 'print the report as JSON', false)
    .option('--progress-interval <seconds>', 'seconds between progress lines when stderr is not a terminal', Number, 10)
    .addHelpText(
      'after',
      `
Exit status: 0 clean, 1 damage found (listed), 2 the database could not be checked.

Examples:
  $ vectordb-local verify ./data
  $ vectordb-local verify http://127.0.0.1:8181 --token "$TOKEN" --json`,
    )
    .action(async (target: string, flags: VerifyFlags) => process.exit(await verify(target, flags)));
}
