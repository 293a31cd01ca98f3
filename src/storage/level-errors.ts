/**
 * The level family's failures as our errors: LEVEL_LOCKED, LEVEL_CORRUPTION, LEVEL_IO_ERROR and
 * LEVEL_DATABASE_NOT_OPEN become DATABASE_LOCKED (naming the holder), STORAGE_CORRUPTION,
 * STORAGE_IO_ERROR and DATABASE_NOT_OPEN. Nothing above storage/ sees a LEVEL_* code.
 */
import { VectorDbError } from '../errors/index.js';
import { describeHolder } from './persistent-level.js';

function levelCode(error: unknown): string | undefined {
  let current: unknown = error;
  const codes: string[] = [];
  while (current instanceof Error) {
    const code = (current as Error & { code?: unknown }).code;
    if (typeof code === 'string') codes.push(code);
    current = current.cause;
  }
  // The innermost specific code wins (LEVEL_DATABASE_NOT_OPEN wraps LEVEL_LOCKED).
  return codes.find((c) => c === 'LEVEL_LOCKED' || c === 'LEVEL_CORRUPTION' || c === 'LEVEL_IO_ERROR') ?? codes[0];
}

/** Maps the level family's failures to our codes, keeping the original as `cause`. */
export function mapLevelError(error: unknown, location: string): Error {
  if (error instanceof VectorDbError) return error;
  const code = levelCode(error);
  const reason = error instanceof Error ? (error.cause instanceof Error ? error.cause.message : error.message) : String(error);
  const locked = (): VectorDbError => VectorDbError.of('DATABASE_LOCKED', { location, holder: describeHolder(location) }, { cause: error });
  switch (code) {
    case 'LEVEL_LOCKED':
      return locked();
    case 'LEVEL_CORRUPTION':
      return VectorDbError.of('STORAGE_CORRUPTION', { location, reason }, { cause: error });
    case 'LEVEL_IO_ERROR':
      if (/lock/i.test(reason)) return locked();
      return VectorDbError.of('STORAGE_IO_ERROR', { location, reason }, { cause: error });
    case 'LEVEL_DATABASE_NOT_OPEN':
      if (/lock/i.test(reason)) return locked();
      return VectorDbError.of('DATABASE_NOT_OPEN', { location, state: 'not open' }, { cause: error });
    default:
      return error instanceof Error ? error : new Error(String(error));
  }
}
