/**
 * Sums a V8 heap snapshot's self sizes by node type and name (for objects, the constructor's name): where the
 * JS heap's bytes are. `node bench/lib/heap-summary.js <file.heapsnapshot> [--top 25] [--per <n>]` prints the
 * largest groups with their count and MB (and bytes per document with --per: the documents loaded).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export function summarizeHeap(file) {
  const snapshot = JSON.parse(readFileSync(file, 'utf8'));
  const { node_fields: fields, node_types: types } = snapshot.snapshot.meta;
  const width = fields.length;
  const typeAt = fields.indexOf('type');
  const nameAt = fields.indexOf('name');
  const sizeAt = fields.indexOf('self_size');
  const typeNames = types[typeAt];
  const { nodes, strings } = snapshot;
  const groups = new Map();
  let total = 0;
  for (let i = 0; i < nodes.length; i += width) {
    const type = typeNames[nodes[i + typeAt]];
    // Strings and code are grouped by type alone (their names are their contents).
    const name = type === 'object' || type === 'closure' || type === 'native' || type === 'hidden' || type === 'array' ? strings[nodes[i + nameAt]] : '';
    const key = `${type}${name === '' ? '' : `: ${name.slice(0, 60)}`}`;
    const size = nodes[i + sizeAt];
    const group = groups.get(key) ?? { count: 0, bytes: 0 };
    group.count++;
    group.bytes += size;
    groups.set(key, group);
    total += size;
  }
  return { total, groups: [...groups].map(([key, g]) => ({ key, ...g })).sort((a, b) => b.bytes - a.bytes) };
}

if (process.argv[1] !== undefined && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const arg = (name, fallback) => (args.includes(name) ? args[args.indexOf(name) + 1] : fallback);
  const top = Number(arg('--top', 25));
  const per = Number(arg('--per', 0));
  const { total, groups } = summarizeHeap(args[0]);
  console.log(`heap snapshot: ${(total / 1048576).toFixed(1)} MB of self sizes${per ? ` (${(total / per).toFixed(1)} bytes per document)` : ''}`);
  console.log(`| group | count | MB |${per ? ' bytes/doc |' : ''}\n|---|---|---|${per ? '---|' : ''}`);
  for (const g of groups.slice(0, top)) console.log(`| ${g.key} | ${g.count} | ${(g.bytes / 1048576).toFixed(2)} |${per ? ` ${(g.bytes / per).toFixed(1)} |` : ''}`);
}
