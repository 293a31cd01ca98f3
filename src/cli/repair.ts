/**
 * `vectordb-local repair <dir> [--no-backup]`: VectorDB.repair's work on a data directory not in use (engine/
 * integrity/repair.ts), with progress on stderr as `verify` shows it. Prints where the directory was copied,
 * what was kept, lost (to the lost+found file) and rebuilt (index entries, lexical postings) per collection and
 * table, and the closing verify; exits 0 when the repaired database verifies clean, 1 when it does not, 2 when
 * the repair could not run.
 */
import { Command } from 'commander';
import { VectorDB } from '../client/vector-db.js';
import type { RepairReport } from '../engine/integrity/repair-report.js';
import { messageOf } from './database-source.js';
import { formatCount, ProgressDisplay } from './progress-display.js';
import { describeReport } from './verify.js';

export interface RepairFlags {
  backup: boolean;
  json: boolean;
  progressInterval: number;
}

export async function repair(dir: string, flags: RepairFlags): Promise<number> {
  const display = new ProgressDisplay({ label: 'repair', unit: 'records', intervalSeconds: flags.progressInterval, failedLabel: 'lost' });
  const started = Date.now();
  let base = 0;
  let step = '';
  let done = 0;
  let report: RepairReport;
  try {
    report = await VectorDB.repair(dir, {
      backup: flags.backup,
      onProgress: (progress) => {
        if (progress.step !== step) {
          base = done;
          step = progress.step;
          if (step.startsWith('copying')) console.error(`vectordb-local repair: ${step}`);
        }
        done = base + progress.records;
        display.update({ done, failed: 0, rate: done / Math.max((Date.now() - started) / 1000, 0.001) });
      },
    });
  } catch (error) {
    display.stop();
    console.error(`vectordb-local repair: ${messageOf(error)}`);
    return 2;
  }
  display.stop();
  console.log(flags.json ? JSON.stringify(report, null, 2) : describeRepair(report));
  return report.verify.ok ? 0 : 1;
}

/** The report for people: where the copy and lost+found are, one line per collection and table, then verify's report. */
export function describeRepair(report: RepairReport): string {
  const lines = [`${report.location}: repaired in ${(report.elapsedMs / 1000).toFixed(1)} s, ${formatCount(report.records)} records read after LevelDB's repair`];
  lines.push(report.backup === undefined ? '  no copy made (--no-backup)' : `  the directory as it was: ${report.backup}`);
  lines.push(report.lostAndFound === undefined ? '  nothing lost' : `  ${formatCount(report.lostRecords)} records moved to ${report.lostAndFound}`);
  for (const o of report.objects) {
    const unit = o.kind === 'table' ? 'rows' : 'documents';
    const vectors = o.vectors === undefined ? '' : `, ${formatCount(o.vectors)} vectors in the rebuilt graph`;
    const vectorLoss = o.vectorsLost + o.vectorsDropped === 0 ? '' : `, ${formatCount(o.vectorsLost)} vector records lost, ${formatCount(o.vectorsDropped)} documents kept without $vector`;
    const postings = o.lexicalPostingsRebuilt === undefined ? '' : `, ${formatCount(o.lexicalPostingsRebuilt)} lexical postings rebuilt`;
    lines.push(`  ${o.kind} ${o.keyspace}.${o.name}: ${formatCount(o.kept)} ${unit} kept, ${formatCount(o.lost)} lost${vectorLoss}, ${formatCount(o.indexEntriesRebuilt)} index entries rebuilt${vectors}${postings}`);
  }
  if (report.lostUnowned > 0) lines.push(`  ${formatCount(report.lostUnowned)} records of no collection or table in the catalog lost`);
  lines.push('verify after the repair:');
  lines.push(describeReport(report.verify, report.location));
  return lines.join('\n');
}

export function repairCommand(): Command {
  return new Command('repair')
    .description('recover a damaged data directory: copy it aside, repair LevelDB, keep what checks, rebuild indexes, verify')
    .argument('<dir>', 'a data directory not in use')
    .option('--no-backup', 'do not copy the directory aside first')
    .option('--json', 'print the report as JSON', false)
    .option('--progress-interval <seconds>', 'seconds between progress lines when stderr is not a terminal', Number, 10)
    .addHelpText(
      'after',
      `
Records that fail their checksum (and vector records whose document is gone) go to <dir>.lost+found-<time>.ndjson,
one JSON line each: {"key", "why", "value" (base64, as stored)}. A document whose vector record is gone is kept
without $vector. Exit status: 0 the repaired database verifies clean, 1 it does not, 2 the repair could not run.

Examples:
  $ vectordb-local repair ./data
  $ vectordb-local repair ./data --no-backup --json`,
    )
    .action(async (dir: string, flags: RepairFlags) => process.exit(await repair(dir, flags)));
}
