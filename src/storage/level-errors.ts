/**
 * The level family's failures as our errors, decided here and nowhere else: what the system said (EROFS,
 * EACCES/EPERM, ENOSPC, EIO) first, then LevelDB's kind (LEVEL_LOCKED, LEVEL_CORRUPTION, LEVEL_IO_ERROR,
 * LEVEL_DATABASE_NOT_OPEN). DATABASE_LOCKED only for a lock really held; a failed open of a database is
 * DATABASE_CORRUPTED naming its files. Nothing above storage/ sees a LEVEL_* code.
 */
import { VectorDbError } from '../errors/index.js';
import { describeHolder, unopenable } from './persistent-level.js';

/** What the failing call was doing: a failed write leaves LevelDB refusing every later write. */
export type LevelOperation = 'open' | 'read' | 'write';

/** LevelDB's (and Node's) texts for the system errors that get their own message. */
const SYSTEM_ERRORS: readonly (readonly [errno: string, text: RegExp])[] = [
  ['EROFS', /read-only file system/i],
  ['EACCES', /permission denied/i],
  ['EPERM', /operation not permitted/i],
  ['ENOSPC', /no space left on device/i],
  ['EIO', /input\/output error/i],
];

/** The chain of an error and its causes. */
function chain(error: unknown): Error[] {
  const errors: Error[] = [];
  for (let current: unknown = error; current instanceof Error && errors.length < 8; current = current.cause) errors.push(current);
  return errors;
}

function levelCode(errors: readonly Error[]): string | undefined {
  const codes = errors.map((e) => (e as Error & { code?: unknown }).code).filter((c): c is string => typeof c === 'string' && c.startsWith('LEVEL_'));
  // The innermost specific code wins (LEVEL_DATABASE_NOT_OPEN wraps LEVEL_LOCKED).
  return codes.find((c) => c === 'LEVEL_LOCKED' || c === 'LEVEL_CORRUPTION' || c === 'LEVEL_IO_ERROR') ?? codes[0];
}

/** The system error behind a failure: a Node error's code, or the strerror text in LevelDB's message. */
function systemError(errors: readonly Error[]): string | undefined {
  for (const e of errors) {
    const code = (e as NodeJS.ErrnoException).code;
    if (typeof code === 'string' && SYSTEM_ERRORS.some(([errno]) => errno === code)) return code;
  }
  for (const e of errors) for (const [errno, text] of SYSTEM_ERRORS) if (text.test(e.message)) return errno;
  return undefined;
}

/**
 * A lock held, as LevelDB says it: LEVEL_LOCKED, "already held by process" (this process), or the lock
 * file's fcntl refused (EAGAIN). Not any message with "lock" in it: LOCK is also a file's name.
 */
function lockHeld(code: string | undefined, errors: readonly Error[]): boolean {
  if (code === 'LEVEL_LOCKED') return true;
  return errors.some((e) => /already held by process|lock\b.*resource temporarily unavailable/i.test(e.message));
}

/** `fn`'s result, its failure mapped (a read's, see mapLevelError). */
export async function levelCall<T>(fn: () => Promise<T>, location: string): Promise<T> {
  try {
    return await fn();
  } catch (error) {
    throw mapLevelError(error, location);
  }
}

/** Maps the level family's failures to our codes, keeping the original as `cause`. */
export function mapLevelError(error: unknown, location: string, operation: LevelOperation = 'read'): Error {
  if (error instanceof VectorDbError) return error;
  const errors = chain(error);
  const code = levelCode(errors);
  const innermost = errors.at(-1);
  const reason = innermost?.message ?? String(error);
  const options = { cause: error };
  if (lockHeld(code, errors)) return VectorDbError.of('DATABASE_LOCKED', { location, holder: describeHolder(location) }, options);
  const doing = operation === 'open' ? 'opened' : operation === 'write' ? 'written' : 'read';
  const sticky =
    operation === 'write'
      ? ' LevelDB may now refuse every later write to this database until it is closed and opened again (after a failed fsync or compaction it does; reads go on): fix the cause, then reopen it.'
      : '';
  switch (systemError(errors)) {
    case 'EROFS':
      return VectorDbError.of('STORAGE_READ_ONLY', { location, reason, doing, sticky }, options);
    case 'EACCES':
    case 'EPERM':
      return VectorDbError.of('STORAGE_PERMISSION_DENIED', { location, reason, doing, sticky }, options);
    case 'ENOSPC':
      return VectorDbError.of('STORAGE_IO_ERROR', { location, reason: `the disk is full (${reason}): free some space.${sticky}` }, options);
    case 'EIO':
      return VectorDbError.of('STORAGE_IO_ERROR', { location, reason: `the disk reported an I/O error (EIO: ${reason}); check the device and the system log.${sticky}` }, options);
  }
  switch (code) {
    case 'LEVEL_CORRUPTION':
      if (operation === 'open') return unopenable(location, reason, options);
      return VectorDbError.of('DATABASE_CORRUPTED', { location, reason }, options);
    case 'LEVEL_IO_ERROR':
      return VectorDbError.of('STORAGE_IO_ERROR', { location, reason: `${reason}${sticky}` }, options);
    case 'LEVEL_DATABASE_NOT_OPEN':
      // An open refused for any other reason (an invalid or missing file LevelDB needs): a damaged database.
      if (operation === 'open') return unopenable(location, reason, options);
      return VectorDbError.of('DATABASE_NOT_OPEN', { location, state: 'not open' }, options);
    default:
      return error instanceof Error ? error : new Error(String(error));
  }
}
