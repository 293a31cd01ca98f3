/**
 * Flushing a written file to the disk: the file, then its directory entry (a rename or a create is durable only
 * once its directory is). Side files, graph files and backup markers all go through here.
 */
import { open } from 'node:fs/promises';
import path from 'node:path';

/** Flushes a written file and its directory entry to the disk (before anything durable names it). */
export async function makeDurable(file: string): Promise<void> {
  const handle = await open(file, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
  // Some platforms (Windows) cannot open or sync a directory: there the file itself is flushed.
  const dir = await open(path.dirname(file), 'r').catch(() => undefined);
  try {
    await dir?.sync();
  } catch {
    // as above
  } finally {
    await dir?.close();
  }
}
