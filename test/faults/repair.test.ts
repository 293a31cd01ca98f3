/**
 * `vectordb-local repair` (#28) on real LevelDB directories, in child processes on the built package: a cut
 * MANIFEST (the open is refused; repair brings every document back), bytes flipped in a body inside a table
 * file (that document goes to lost+found, the rest reads as written), index entries deleted and added and a
 * bogus lexical posting (rebuilt: filters answer right), and the copy set aside first (none with --no-backup). Each ends with verify clean.
 */
import { execFile } from 'node:child_process';
import { readdirSync, readFileSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type * as ClassicLevelModule from 'classic-level';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildPackage, ROOT, runFixture } from '../durability/built-package.js';
import { tempDir } from '../support/temp.js';

const COUNT = 200;
/** As test/fixtures/bit-rot.mjs writes them. */
const docOf = (i: number) => ({ _id: `doc${i}`, text: `the text of ${i}: K${(Math.imul(i + 1, 2654435761) >>> 0).toString(16).padStart(8, '0')}`, tag: `tag${i % 10}`, $vector: [Math.fround(i + 1 + 1 / (i + 3)), (i * 7) % 13, 3, 0.5] });

function cli(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [path.join(ROOT, 'dist', 'cli', 'main.js'), ...args], { cwd: ROOT }, (error, stdout, stderr) => {
      resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout, stderr });
    });
  });
}

/** A database of COUNT documents, closed (all in table files), in `<temp>/db`: repair's siblings land in `<temp>`. */
async function written(): Promise<string> {
  const dir = path.join(tempDir('vectordb-repair-'), 'db');
  expect((await runFixture('bit-rot.mjs', [dir, 'write'])).code).toBe(0);
  return dir;
}

const siblings = (dir: string, kind: string): string[] => readdirSync(path.dirname(dir)).filter((name) => name.startsWith(`db.${kind}-`));

interface ReadLine {
  read: string;
  id?: string;
  doc?: { $vector: number[] } | null;
  error?: string;
  tag?: string;
  ids?: string[];
}

/** Reads every document and every tag filter in a child; checks each against what was written, but `lost` (which must be absent). */
async function expectIntact(dir: string, lost: ReadonlySet<string> = new Set()): Promise<void> {
  const read = await runFixture('bit-rot.mjs', [dir, 'read'], 60_000);
  expect(read.code, read.stderr).toBe(0);
  const lines = read.stdout.trim().split('\n').map((l) => JSON.parse(l) as ReadLine);
  expect(lines.filter((l) => l.error !== undefined)).toEqual([]);
  for (const l of lines) {
    if (l.read === 'id') {
      if (lost.has(l.id!)) expect(l.doc, l.id).toBeNull();
      else expect({ ...l.doc!, $vector: l.doc!.$vector.map(Math.fround) }, l.id).toEqual(docOf(Number(l.id!.slice(3))));
    } else {
      const tag = Number(l.tag!.slice(3));
      const expected = Array.from({ length: COUNT }, (_, i) => i).filter((i) => i % 10 === tag && !lost.has(`doc${i}`));
      expect(l.ids, l.tag).toEqual(expected.map((i) => `doc${i}`).sort());
    }
  }
}

async function expectRepaired(dir: string, args: string[] = []): Promise<string> {
  const repaired = await cli(['repair', dir, ...args]);
  expect(repaired.code, repaired.stdout + repaired.stderr).toBe(0);
  expect(repaired.stdout).toContain('ok: no problem found');
  const verified = await cli(['verify', dir]);
  expect(verified.code, verified.stdout).toBe(0);
  return repaired.stdout;
}

beforeAll(() => buildPackage(), 300_000);

describe('vectordb-local repair', () => {
  it('a MANIFEST cut in half: the open is refused, repair brings every document back and copies the directory aside first', async () => {
    const dir = await written();
    const manifest = readdirSync(dir).find((name) => name.startsWith('MANIFEST-'))!;
    const cut = Math.floor(statSync(path.join(dir, manifest)).size / 2);
    truncateSync(path.join(dir, manifest), cut);
    const refused = await cli(['verify', dir]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('vectordb-local repair');
    const out = await expectRepaired(dir);
    // The copy holds the directory as it was: the cut MANIFEST too.
    const [copy] = siblings(dir, 'before-repair');
    expect(copy).toMatch(/^db\.before-repair-\d{8}T\d{6}\.\d{3}Z$/);
    expect(out).toContain(path.join(path.dirname(dir), copy!));
    expect(statSync(path.join(path.dirname(dir), copy!, manifest)).size).toBe(cut);
    expect(out).toMatch(/collection default_keyspace\.docs: 200 documents kept, 0 lost, 600 index entries rebuilt, 200 vectors/);
    expect(siblings(dir, 'lost+found')).toEqual([]);
    await expectIntact(dir);
  });

  it('bytes flipped in a body inside a table file: that document goes to lost+found, the others read as written', async () => {
    const dir = await written();
    // One character of the first body whose token is found literally in a table file (as bit-rot.test.ts does).
    const rotted = Array.from({ length: COUNT }, (_, i) => i).find((i) => {
      const token = /K[0-9a-f]{8}/.exec(docOf(i).text)![0];
      let changed = 0;
      for (const name of readdirSync(dir).filter((n) => n.endsWith('.ldb'))) {
        const bytes = readFileSync(path.join(dir, name));
        const at = bytes.indexOf(token);
        if (at < 0) continue;
        bytes[at + token.length - 1] = token.endsWith('0') ? 0x31 : 0x30;
        writeFileSync(path.join(dir, name), bytes);
        changed++;
      }
      return changed > 0;
    })!;
    expect(rotted).toBeDefined();
    await expectRepaired(dir, ['--no-backup']);
    expect(siblings(dir, 'before-repair')).toEqual([]);
    const [lostFile] = siblings(dir, 'lost+found');
    const lost = readFileSync(path.join(path.dirname(dir), lostFile!), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { key: string; why: string; value: string });
    const lostDocs = new Set(lost.filter((l) => l.key.startsWith('doc:')).map((l) => l.key.slice(l.key.indexOf('\u0000') + 2)));
    expect(lostDocs).toContain(`doc${rotted}`);
    const record = lost.find((l) => l.key.endsWith(`\u0000sdoc${rotted}`))!;
    expect(record.why).toMatch(/checksum does not match/);
    // The value as stored (sealed: a 5-byte header), the flipped character in it.
    expect(Buffer.from(record.value, 'base64').subarray(5).toString()).toContain(`"_id":"doc${rotted}"`);
    // A flipped literal may be copied by later ones in its compressed block: those documents fail too, and are lost,
    // never changed. Their vector records go with them.
    expect(lostDocs.size).toBeLessThan(COUNT / 2);
    expect(lost.filter((l) => l.key.startsWith('vkey:')).length).toBe(lostDocs.size);
    await expectIntact(dir, lostDocs);
  });

  it('index entries deleted and added: repair rebuilds them and filters answer right', async () => {
    const dir = await written();
    const { ClassicLevel } = createRequire(import.meta.url)('classic-level') as typeof ClassicLevelModule;
    const level = new ClassicLevel<string, string>(dir, { createIfMissing: false });
    const entries = await level.keys({ gte: 'idx:', lt: 'idx:\u{10FFFF}' }).all();
    const dropped = entries.filter((key) => key.includes('\u0000tag\u0000')).slice(0, 15);
    // And a lexical posting no document's `$lexical` gives (the collection is lexical-enabled, its documents have none).
    const bogusPosting = { type: 'put' as const, key: 'lex:000001\u0000p\u0000zebra\u0000sdoc0', value: '1 1' };
    await level.batch([...dropped.map((key) => ({ type: 'del' as const, key })), { type: 'put', key: 'idx:000001\u0000tag\u00003tag3\u0000sdoc0', value: '1' }, bogusPosting]);
    await level.close();
    const damaged = await cli(['verify', dir]);
    expect(damaged.code).toBe(1);
    expect(damaged.stdout).toContain('15 index-entry-missing');
    expect(damaged.stdout).toContain('1 index-entry-orphaned');
    expect(damaged.stdout).toContain('1 lexical-posting-orphaned');
    expect(await expectRepaired(dir)).toMatch(/600 index entries rebuilt, 200 vectors in the rebuilt graph, 0 lexical postings rebuilt/);
    await expectIntact(dir);
  });
});
