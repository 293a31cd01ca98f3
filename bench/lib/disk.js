/** What a benchmark's database takes on disk: the bytes of the files under a directory, recursively. */
import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';

export function diskBytes(dir) {
  let total = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const at = path.join(dir, entry.name);
    total += entry.isDirectory() ? diskBytes(at) : statSync(at).size;
  }
  return total;
}
