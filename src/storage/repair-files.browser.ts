/**
 * The browser's side of repair-files.ts (swapped in by the browser build): an IndexedDB database has no
 * files for LevelDB's repair, so repair is Node's only and says so.
 */
import { VectorDbError } from '../errors/index.js';
import type * as NodeRepair from './repair-files.js';

const refuse = (location: string): VectorDbError => VectorDbError.of('DATABASE_CORRUPTED', { location, reason: 'repair works on a data directory (Node); an IndexedDB database cannot be repaired in place' });

export const besideDirectory: typeof NodeRepair.besideDirectory = (location, suffix) => location + suffix;
export const checkRepairable: typeof NodeRepair.checkRepairable = async (location) => {
  throw refuse(location);
};
export const copyDirectoryAside: typeof NodeRepair.copyDirectoryAside = async (location) => {
  throw refuse(location);
};
export const repairLevel: typeof NodeRepair.repairLevel = async (location) => {
  throw refuse(location);
};
export const LostAndFound = class {
  constructor(readonly path: string) {
    throw refuse(path);
  }
} as unknown as typeof NodeRepair.LostAndFound;
